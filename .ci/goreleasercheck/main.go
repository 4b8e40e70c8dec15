// Command goreleasercheck checks .goreleaser.yaml without building
// goreleaser, which took 9.5 minutes from source on a fresh machine. It loads
// the file with goreleaser's own config package
// (github.com/goreleaser/goreleaser/v2/pkg/config, pinned in this module's
// go.mod to the goreleaser version the release uses), which decodes it
// strictly, as `goreleaser check` does first: an unknown key, a value of the
// wrong type or a YAML syntax error fails. It also requires `version: 2`,
// which goreleaser only warns about, and fails on a Go build's goos or
// goarch that `go tool dist list` does not know, as goreleaser's build
// defaults do, and checks the packages issue #28 asks for (checkPackages):
// deb and rpm with the binary in /usr/bin, the man page and the
// completions, a Homebrew cask in a tap and a Scoop manifest in a bucket.
// The rest of goreleaser check's defaults (duplicate ids,
// templates) needs nearly all of goreleaser and is not run.
//
//	go -C .ci/goreleasercheck run . "$PWD/.goreleaser.yaml"
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/goreleaser/goreleaser/v2/pkg/config"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: goreleasercheck FILE")
		os.Exit(2)
	}
	path := os.Args[1]
	if err := check(path); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
		os.Exit(1)
	}
}

func check(path string) error {
	project, err := config.Load(path)
	if err != nil {
		return err
	}
	if project.Version != 2 {
		return fmt.Errorf("version: %d, want version: 2", project.Version)
	}
	goos, goarch, err := distList()
	if err != nil {
		return err
	}
	var errs []error
	for i, b := range project.Builds {
		if b.Builder != "" && b.Builder != "go" {
			continue
		}
		name := b.ID
		if name == "" {
			name = fmt.Sprintf("#%d", i+1)
		}
		oses, arches := b.Goos, b.Goarch
		for _, t := range b.Targets {
			o, rest, _ := strings.Cut(t, "_")
			a, _, _ := strings.Cut(rest, "_")
			oses, arches = append(oses, o), append(arches, a)
		}
		for _, o := range oses {
			if !goos[o] {
				errs = append(errs, fmt.Errorf("build %s: invalid goos: %s", name, o))
			}
		}
		for _, a := range arches {
			if !goarch[a] {
				errs = append(errs, fmt.Errorf("build %s: invalid goarch: %s", name, a))
			}
		}
	}
	errs = append(errs, checkPackages(project)...)
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	fmt.Printf("%s: valid (%d build(s), %d archive(s), %d nfpm(s), %d homebrew cask(s), %d scoop(s))\n",
		path, len(project.Builds), len(project.Archives), len(project.NFPMs), len(project.Casks), len(project.Scoops))
	return nil
}

// distList returns the GOOS and GOARCH values of `go tool dist list`.
func distList() (goos, goarch map[string]bool, err error) {
	out, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go tool dist list: %w", err)
	}
	goos, goarch = map[string]bool{}, map[string]bool{}
	for _, line := range strings.Fields(string(out)) {
		o, a, _ := strings.Cut(line, "/")
		goos[o], goarch[a] = true, true
	}
	return goos, goarch, nil
}
