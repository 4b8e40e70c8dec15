package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// landlockResolveUnixABI is the first Landlock ABI that holds connect(2)
// to a pathname unix socket (LANDLOCK_ACCESS_FS_RESOLVE_UNIX, Linux 7.0).
const landlockResolveUnixABI = 9

// sockets returns the unix sockets the person allowed this server on
// purpose (allow-socket).
func (p Policy) sockets() []string {
	var out []string
	for _, pp := range p.Paths {
		if pp.Why == WhyAllowSocket {
			out = append(out, pp.Path)
		}
	}
	return out
}

// WhyAllowSocket is why a unix socket is in a Policy: the person allowed
// the server to connect to it (allow-socket).
const WhyAllowSocket = "allow-socket"

// AccessConnect is what a server may do with a unix socket of its Policy:
// connect to it (allow-socket; held by Landlock from ABI 9).
const AccessConnect Access = 1 << 3

// allowSockets adds each unix socket the person allowed (allow-socket),
// resolved, with AccessConnect; a path that is not a socket is left out.
func (b *policyBuilder) allowSockets(paths []string) {
	for _, p := range paths {
		r, err := filepath.EvalSymlinks(b.abs(p))
		if err != nil {
			continue
		}
		if fi, err := os.Stat(r); err != nil || fi.Mode()&os.ModeSocket == 0 {
			continue
		}
		b.add(r, AccessConnect, WhyAllowSocket, false)
	}
}

// AnySocket reports whether a server enforced at Landlock ABI abi may
// reach any unix socket: allow-socket below ABI 9, where the guard's
// filter cannot tell one socket from another.
func (p Policy) AnySocket(abi int) bool {
	return abi < landlockResolveUnixABI && len(p.sockets()) > 0
}

// UnixSockets says in a few words which unix sockets a server enforced
// at Landlock ABI abi may connect to: none below ABI 9 (the guard's
// seccomp filter refuses them), those in the folders it may write from 9,
// and the ones allowed on purpose — which below 9 means any, since the
// filter cannot tell one socket from another.
func (p Policy) UnixSockets(abi int) string {
	allowed := p.sockets()
	switch {
	case p.AnySocket(abi):
	case abi >= landlockResolveUnixABI && len(allowed) == 0:
		return "only sockets in the folders it may write"
	case abi >= landlockResolveUnixABI:
		return "sockets in the folders it may write, and " + strings.Join(allowed, ", ")
	default:
		return "none (unix sockets refused)"
	}
	return fmt.Sprintf("any: allow-socket %s needs Landlock ABI 9 to hold it to that socket, and this kernel has %d", strings.Join(allowed, ", "), abi)
}
