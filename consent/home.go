package consent

import "github.com/rootpick/rootpick/internal/paths"

// HomeDir is the person's home folder, as internal/paths decides it ($HOME
// when absolute, else the user database's; see paths.Home). Risks are
// judged against it (DefaultEnv).
func HomeDir() (string, error) { return paths.Home() }

// StateDir is the state folder the environment names now
// (paths.FromEnv().State(): $XDG_STATE_HOME/rootpick, else
// ~/.local/state/rootpick), never the one --state-dir names.
//
// Deprecated: a command takes its state folder from its env.dirs (see
// internal/paths); this stays for code written against it meanwhile.
func StateDir() (string, error) {
	s, err := paths.FromEnv().State()
	return s.Dir, err
}
