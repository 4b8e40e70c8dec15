// Command typecheck type-checks every package of the module in the current
// folder, tests included, for each target named as GOOS/GOARCH, from
// source: the packages and all their dependencies are parsed and
// type-checked with that target's build tags, and nothing is compiled.
//
// It is .ci/run's check of the other release targets. A file missing or
// wrong for one OS (a function defined only in process_unix.go, a
// signature that differs in process_windows.go) is a type error for that
// target, found here in seconds, where go vet per target compiles every
// dependency first (about 210 CPU-seconds per target on a fresh machine,
// against about 4 here). What it does not do is vet's analyses of the
// other targets' files, and a link.
//
//	go -C .ci/typecheck build -o /tmp/typecheck . && /tmp/typecheck windows/amd64 darwin/arm64
package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: typecheck GOOS/GOARCH...")
		os.Exit(2)
	}
	failed := false
	for _, target := range os.Args[1:] {
		goos, goarch, ok := strings.Cut(target, "/")
		if !ok {
			fmt.Fprintf(os.Stderr, "typecheck: %q is not GOOS/GOARCH\n", target)
			os.Exit(2)
		}
		n, errs, err := check(goos, goarch)
		switch {
		case err != nil:
			fmt.Fprintf(os.Stderr, "%s: %v\n", target, err)
			failed = true
		case errs > 0:
			fmt.Printf("%s: %d errors in %d packages\n", target, errs, n)
			failed = true
		default:
			fmt.Printf("%s: %d packages type-check\n", target, n)
		}
	}
	if failed {
		os.Exit(1)
	}
}

// check loads ./... for goos/goarch, tests included, and returns how many
// packages were type-checked and how many errors were printed.
func check(goos, goarch string) (n, errs int, err error) {
	cfg := &packages.Config{
		// Types without export data: every dependency is type-checked
		// from its source, so nothing needs compiling.
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedTypes | packages.NeedSyntax,
		Tests: true,
		Env:   append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return 0, 0, err
	}
	if len(pkgs) == 0 {
		return 0, 0, fmt.Errorf("no packages")
	}
	errs = packages.PrintErrors(pkgs)
	packages.Visit(pkgs, nil, func(*packages.Package) { n++ })
	return n, errs, nil
}
