// Package paths owns where rootpick keeps its files: the home folder, the
// config file's folder and the state folder (consent records, the proxy
// registry, logs). One XDG base-directory policy decides them — adrg/xdg's,
// read once into an [XDG] value and passed to [New] — and the result is a
// [Dirs] value that the commands pass on; nothing here is a process-wide
// setting.
//
// Every folder that comes from the environment counts only when it is an
// absolute path: a relative $HOME or $XDG_* ("HOME=rel rootpick") is never
// resolved against the current folder, so a cloned repository cannot stand
// in for the home folder and plant a config or a consent record there.
package paths

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/adrg/xdg"
)

// Home is the person's home folder: $HOME when it is an absolute path,
// else the folder the user database names for the current user. A
// relative $HOME is ignored, never resolved against the current folder.
func Home() (string, error) {
	if h := os.Getenv(homeEnv); filepath.IsAbs(h) {
		return filepath.Clean(h), nil
	}
	if u, err := user.Current(); err == nil && filepath.IsAbs(u.HomeDir) {
		return filepath.Clean(u.HomeDir), nil
	}
	return "", errors.New("no home folder: $" + homeEnv + " is not an absolute path and the user database names none")
}

// homeEnv is the variable that names the home folder, as os.UserHomeDir
// reads it.
var homeEnv = func() string {
	switch runtime.GOOS {
	case "windows":
		return "USERPROFILE"
	case "plan9":
		return "home"
	}
	return "HOME"
}()

// XDG is the XDG base-directory policy's answer: the home folder it
// started from and the config and state base folders it derived
// ($XDG_CONFIG_HOME, $XDG_STATE_HOME, or their defaults below Home).
type XDG struct {
	Home, ConfigHome, StateHome string
}

// xdgMu serialises ReadXDG: adrg/xdg keeps its answer in package variables
// that Reload rewrites.
var xdgMu sync.Mutex

// ReadXDG reads the environment with adrg/xdg, now (its Reload), so that a
// change of the environment since the program started is seen.
func ReadXDG() XDG {
	xdgMu.Lock()
	defer xdgMu.Unlock()
	xdg.Reload()
	return XDG{Home: xdg.Home, ConfigHome: xdg.ConfigHome, StateHome: xdg.StateHome}
}

// Dirs is where rootpick keeps its files for one run.
type Dirs struct {
	home       string // "" when no home folder is known (err says why)
	err        error
	configHome string // the XDG config base folder
	stateHome  string // the XDG state base folder
	named      string // the state folder named by --state-dir, or ""
}

// New decides rootpick's folders from the policy's answer x. A folder of
// x counts only when it is absolute and x started from the home folder
// rootpick trusts (Home): when $HOME is relative or unset, adrg/xdg's
// defaults were derived from the wrong folder, and the defaults below the
// trusted home folder ($HOME/.config, $HOME/.local/state) stand instead.
func New(x XDG) Dirs {
	home, err := Home()
	if err != nil {
		return Dirs{err: err}
	}
	d := Dirs{home: home, configHome: filepath.Join(home, ".config"), stateHome: filepath.Join(home, ".local", "state")}
	if filepath.Clean(x.Home) != home {
		return d
	}
	if filepath.IsAbs(x.ConfigHome) {
		d.configHome = filepath.Clean(x.ConfigHome)
	}
	if filepath.IsAbs(x.StateHome) {
		d.stateHome = filepath.Clean(x.StateHome)
	}
	return d
}

// IsZero reports whether d is Dirs{}: no folders decided yet (New and
// FromEnv never return it).
func (d Dirs) IsZero() bool { return d == Dirs{} }

// FromEnv is New(ReadXDG()): the folders the environment names now.
func FromEnv() Dirs { return New(ReadXDG()) }

// Home is the person's home folder (see the package function Home).
func (d Dirs) Home() (string, error) {
	if d.err != nil {
		return "", d.err
	}
	return d.home, nil
}

// ConfigFile is the config file rootpick reads when none is named:
// rootpick/config.toml in the XDG config folder ($XDG_CONFIG_HOME on
// Linux, the native folder adrg/xdg knows on macOS and Windows).
func (d Dirs) ConfigFile() (string, error) {
	if d.err != nil {
		return "", d.err
	}
	return filepath.Join(d.configHome, "rootpick", "config.toml"), nil
}

// State is rootpick's state folder: the one --state-dir named, else
// rootpick in the XDG state folder ($XDG_STATE_HOME/rootpick, else
// ~/.local/state/rootpick).
func (d Dirs) State() (State, error) {
	if d.named != "" {
		return State{Dir: d.named, Named: true}, nil
	}
	if d.err != nil {
		return State{}, fmt.Errorf("finding the state folder: %w", d.err)
	}
	return State{Dir: filepath.Join(d.stateHome, "rootpick")}, nil
}

// DefaultState is the state folder when neither --state-dir nor
// $XDG_STATE_HOME names one: ~/.local/state/rootpick.
func (d Dirs) DefaultState() (string, error) {
	if d.err != nil {
		return "", d.err
	}
	return filepath.Join(d.home, ".local", "state", "rootpick"), nil
}

// NonDefaultState is the state folder when it is not the one $HOME alone
// finds ($XDG_STATE_HOME or --state-dir moved it), else "": what a host's
// configuration must pass to the proxy as --state-dir, since hosts start
// servers with a minimal environment.
func (d Dirs) NonDefaultState() string {
	state, err := d.State()
	if err != nil {
		return ""
	}
	if def, err := d.DefaultState(); err == nil && state.Dir == def {
		return ""
	}
	return state.Dir
}

// State is rootpick's state folder. Named says the person named it
// (--state-dir): it is then never changed — made 0700 if absent, but never
// tightened if it exists — while the default folder, made by rootpick, is
// tightened to 0700 when found loose.
type State struct {
	Dir   string
	Named bool
}

// WithStateDir is d with dir as the state folder (--state-dir: hosts that
// start servers with a minimal environment lose $XDG_STATE_HOME). dir must
// be absolute, and check must accept it: check is the trust rule for a
// named folder (consent.CheckNamedDir: absent, or already the person's own
// private folder), which changes nothing, so a folder others may enter
// (/etc, /dev/shm, a 0755 folder of one's own) is refused rather than
// closed to them. On an error d is returned unchanged.
func (d Dirs) WithStateDir(dir string, check func(string) error) (Dirs, error) {
	if !filepath.IsAbs(dir) {
		return d, fmt.Errorf("the state folder %q is not an absolute path", dir)
	}
	dir = filepath.Clean(dir)
	if err := check(dir); err != nil {
		return d, err
	}
	d.named = dir
	return d, nil
}
