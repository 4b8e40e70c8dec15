package mcpconn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rootpick/rootpick/consent"
)

// ProxyEntry is what a running proxy publishes about itself, so that the
// picker of the same profile can show it beside its own servers.
type ProxyEntry struct {
	PID     int       `json:"pid"`
	Profile string    `json:"profile"`
	Updated time.Time `json:"updated"`
	ProxyStatus
}

// ProxyDir is the folder where running proxies register: "run" in
// rootpick's state folder, beside the consent store. (Not
// $XDG_RUNTIME_DIR: hosts start servers with a minimal environment that
// lacks it, so a proxy and the picker in the person's shell would look in
// different places.)
func ProxyDir() (string, error) {
	state, err := consent.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(state, "run"), nil
}

func proxyFile(dir string, pid int) string {
	return filepath.Join(dir, fmt.Sprintf("proxy-%d.json", pid))
}

// RegisterProxy writes e to dir, replacing the proxy's previous entry in
// one rename (0600 in a 0700 folder).
func RegisterProxy(dir string, e ProxyEntry) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	_ = os.Chmod(dir, 0o700)
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".proxy-*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		_ = os.Remove(tmp.Name())
		return errors.Join(werr, cerr)
	}
	return os.Rename(tmp.Name(), proxyFile(dir, e.PID))
}

// UnregisterProxy removes the entry of proxy pid.
func UnregisterProxy(dir string, pid int) {
	_ = os.Remove(proxyFile(dir, pid))
}

// ListProxies returns the running proxies of profile registered in dir,
// by pid. Entries of processes that no longer run are removed.
func ListProxies(dir, profile string) ([]ProxyEntry, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []ProxyEntry
	for _, de := range entries {
		name := de.Name()
		if !strings.HasPrefix(name, "proxy-") || !strings.HasSuffix(name, ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		var e ProxyEntry
		if json.Unmarshal(b, &e) != nil || e.PID <= 0 {
			continue
		}
		if !processRuns(e.PID) {
			_ = os.Remove(filepath.Join(dir, name))
			continue
		}
		if e.Profile == profile {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out, nil
}
