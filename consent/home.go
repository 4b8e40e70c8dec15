package consent

import (
	"errors"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
)

// HomeDir is the person's home folder: $HOME when it is an absolute path,
// else the folder the user database names for the current user. A
// relative $HOME ("HOME=rel rootpick") is ignored, never resolved against
// the current folder: a cloned repository must not be able to stand in for
// the home folder and plant a config or a consent record there.
func HomeDir() (string, error) {
	if h := os.Getenv(homeEnv); filepath.IsAbs(h) {
		return filepath.Clean(h), nil
	}
	if u, err := user.Current(); err == nil && filepath.IsAbs(u.HomeDir) {
		return filepath.Clean(u.HomeDir), nil
	}
	return "", errors.New("consent: no home folder: $" + homeEnv + " is not an absolute path and the user database names none")
}

// EnvDir is the folder the environment variable name holds when it is an
// absolute path, as the XDG Base Directory specification requires of
// XDG_STATE_HOME and XDG_CONFIG_HOME; else fallback below the home folder.
func EnvDir(name string, fallback ...string) (string, error) {
	if v := os.Getenv(name); filepath.IsAbs(v) {
		return filepath.Clean(v), nil
	}
	home, err := HomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{home}, fallback...)...), nil
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
