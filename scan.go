package main

// What every command that walks a folder shares: the walk's flags and the
// folder to walk (DIR, the config file's dir, or the current folder).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// scanFlags are the walk's flags, shared by pick and list.
type scanFlags struct {
	MaxDepth      depth    `name:"max-depth" placeholder:"N" group:"scan" help:"Do not look more than N levels below DIR (0: no limit)."`
	All           bool     `group:"scan" help:"Also walk heavy folders (node_modules, .venv, vendor beside go.mod, …)."`
	Skip          []string `placeholder:"NAME" sep:"none" group:"scan" help:"Do not walk folders named NAME (repeatable; adds to the default list)."`
	Follow        bool     `group:"scan" help:"Follow symlinked folders (each folder is walked once)."`
	OneFileSystem bool     `name:"one-file-system" group:"scan" help:"Do not walk into other file systems."`
}

// dirArg is the canonical absolute folder to scan: the one in pos, or the
// current folder.
func dirArg(pos []string) (string, error) {
	dir := "."
	switch len(pos) {
	case 0:
	case 1:
		dir = pos[0]
	default:
		return "", usageError("one folder at most, got %d (a server command goes after --)", len(pos))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	// Scan the real folder, so that the paths listed are the canonical
	// paths roots are made of.
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("cannot scan %q: %w", dir, errors.Unwrap(err))
	}
	if !st.IsDir() {
		return "", fmt.Errorf("cannot scan %q: not a folder", dir)
	}
	// A folder that cannot be listed fails here, in one line, as a missing
	// one does: the picker does not open on a scan that cannot start.
	f, err := os.Open(abs)
	if err == nil {
		_, err = f.Readdirnames(1)
		f.Close()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("cannot scan %q: %w", dir, unwrapPathError(err))
	}
	return abs, nil
}
