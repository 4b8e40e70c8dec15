package consent

import "github.com/rootpick/rootpick/internal/paths"

// HomeDir is the person's home folder, as internal/paths decides it ($HOME
// when absolute, else the user database's; see paths.Home). Risks are
// judged against it (DefaultEnv).
func HomeDir() (string, error) { return paths.Home() }
