package wrapplan

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// offlineServers are servers known to need no network: they work on the
// consented folders alone (files, a git repository, a local store). hosts
// wrap turns their network off unless told otherwise (--network): a
// consented folder cannot leave the machine through them. A server not
// listed keeps the network (the proxy's default): one that calls an API
// would break, and a boundary that breaks servers gets turned off.
var offlineServers = []string{
	"@modelcontextprotocol/server-filesystem", "mcp-server-filesystem",
	"mcp-server-git",
	"@modelcontextprotocol/server-memory", "mcp-server-memory",
	"@modelcontextprotocol/server-sequential-thinking", "mcp-server-sequential-thinking",
}

// offlineServer reports whether command starts one of offlineServers,
// through a launcher (npx, uvx…) or as the program itself, and which.
func offlineServer(command []string) (string, bool) {
	names := []string{filepath.Base(command[0])}
	if l, ok := prefetch.Of(command); ok {
		names = l.Packages
	}
	for _, n := range names {
		// A version (pkg@1.2.3, @scope/pkg@latest, pkg==1.2) names the
		// same server.
		if i := strings.LastIndexByte(n, '@'); i > 0 {
			n = n[:i]
		}
		n, _, _ = strings.Cut(n, "==")
		if slices.Contains(offlineServers, n) {
			return n, true
		}
	}
	return "", false
}

// OfflineNetwork is hostcfg.Proxy.NetworkFor for hosts wrap without
// --network: off for offlineServers, the proxy's default otherwise.
func OfflineNetwork(command []string) string {
	if _, ok := offlineServer(command); ok {
		return string(launch.NetworkOff)
	}
	return ""
}
