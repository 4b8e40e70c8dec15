package proxy

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/paths"
)

// Entry is what a running proxy publishes about itself, so that the
// picker of the same profile can show it beside its own servers.
type Entry struct {
	PID     int       `json:"pid"`
	Profile string    `json:"profile"`
	Updated time.Time `json:"updated"`
	Status
}

// Dir is the folder where running proxies register: "run" in
// rootpick's state folder state, beside the consent store. (Not
// $XDG_RUNTIME_DIR: hosts start servers with a minimal environment that
// lacks it, so a proxy and the picker in the person's shell would look in
// different places.)
func Dir(state paths.State) string {
	return filepath.Join(state.Dir, registryName)
}

// registryName is the registry's folder in the state folder.
const registryName = "run"

func proxyFile(dir string, pid int) string {
	return filepath.Join(dir, fmt.Sprintf("proxy-%d.json", pid))
}

// openRegistry opens the registry folder dir (Dir), checked along
// with rootpick's state folder above it to be the person's own (see
// consent.OpenOwnDir).
func openRegistry(dir string) (*consent.OwnDir, error) {
	return consent.OpenOwnDir(filepath.Dir(dir), false, filepath.Base(dir))
}

// Register writes e to the registry of the state folder state,
// replacing the proxy's previous entry in one rename (0600 in a 0700
// folder, never through a link). The folders are made 0700 when missing;
// a state folder the person named is never changed (consent.OpenStateDir).
func Register(state paths.State, e Entry) error {
	d, err := consent.OpenStateDir(state, true, registryName)
	if err != nil {
		return err
	}
	defer d.Close()
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return d.WriteFile(filepath.Base(proxyFile(d.Path(), e.PID)), b, nil)
}

// Unregister removes the entry of proxy pid from the registry of the
// state folder state.
func Unregister(state paths.State, pid int) {
	if d, err := consent.OpenStateDir(state, false, registryName); err == nil {
		_ = d.Remove(filepath.Base(proxyFile(d.Path(), pid)))
		d.Close()
	}
}

// List returns the running proxies of profile registered in dir,
// by pid. Entries of processes that no longer run are removed. Only the
// person's own entries are read (consent.OwnDir.ReadFile): others are
// skipped, and a registry folder that is not the person's own is an error
// (*consent.UntrustedError) that names it.
func List(dir, profile string) ([]Entry, error) {
	d, err := openRegistry(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Names()
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, name := range names {
		if !strings.HasPrefix(name, "proxy-") || !strings.HasSuffix(name, ".json") {
			continue
		}
		b, err := d.ReadFile(name)
		if err != nil {
			continue
		}
		var e Entry
		if json.Unmarshal(b, &e) != nil || e.PID <= 0 || name != filepath.Base(proxyFile(dir, e.PID)) {
			continue
		}
		if !processRuns(e.PID) {
			_ = d.Remove(name)
			continue
		}
		if e.Profile == profile {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out, nil
}
