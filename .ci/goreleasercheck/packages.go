package main

import (
	"fmt"
	"path"
	"regexp"
	"slices"

	"github.com/goreleaser/goreleaser/v2/pkg/config"
)

// The places a Linux package installs rootpick's files: the binary where
// packages put programs, the man page where man looks, and each shell's
// completion folder for packages (zsh's differs between Debian and Fedora).
const (
	wantBindir = "/usr/bin"
	wantMan    = "/usr/share/man/man1/rootpick.1.gz"
	wantBash   = "/usr/share/bash-completion/completions/rootpick"
	wantFish   = "/usr/share/fish/vendor_completions.d/rootpick.fish"
)

var wantZsh = map[string]string{
	"deb": "/usr/share/zsh/vendor-completions/_rootpick",
	"rpm": "/usr/share/zsh/site-functions/_rootpick",
}

// hookOutput finds the files a before hook writes with a shell redirection
// (`... > .release/completions/rootpick.bash`).
var hookOutput = regexp.MustCompile(`>\s*([^\s'";|&>]+)`)

// checkPackages checks what issue #28 asks of the packages: a deb and rpm
// package with the binary in /usr/bin, the man page and the three
// completions, each made by a before hook; a Homebrew cask in a tap and a
// Scoop manifest in a bucket, whose man page and completions are files the
// archives hold. It returns one error per thing missing.
func checkPackages(p config.Project) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	made := map[string]bool{} // the files the before hooks write
	for _, h := range p.Before.Hooks {
		for _, m := range hookOutput.FindAllStringSubmatch(h, -1) {
			made[path.Clean(m[1])] = true
		}
	}
	builds := map[string]bool{}
	for _, b := range p.Builds {
		builds[b.ID] = true
	}

	if len(p.NFPMs) == 0 {
		fail("nfpms: none; want deb and rpm packages")
	}
	for i, n := range p.NFPMs {
		name := fmt.Sprintf("nfpms %s", n.ID)
		if n.ID == "" {
			name = fmt.Sprintf("nfpms #%d", i+1)
		}
		for _, f := range []string{"deb", "rpm"} {
			if !slices.Contains(n.Formats, f) {
				fail("%s: formats %v lack %s", name, n.Formats, f)
			}
		}
		if n.Bindir != "" && n.Bindir != wantBindir {
			fail("%s: bindir %s, want %s", name, n.Bindir, wantBindir)
		}
		if n.Maintainer == "" {
			fail("%s: no maintainer (goreleaser deprecates that)", name)
		}
		for _, id := range n.IDs {
			if !builds[id] {
				fail("%s: ids: no build %s", name, id)
			}
		}
		for _, c := range n.Contents {
			if c.Type == "" && !made[path.Clean(c.Source)] {
				fail("%s: contents %s: no before hook writes it", name, c.Source)
			}
		}
		for _, f := range []string{"deb", "rpm"} {
			dsts := map[string]bool{}
			for _, c := range n.Contents {
				if c.Packager == "" || c.Packager == f {
					dsts[c.Destination] = true
				}
			}
			for what, dst := range map[string]string{"man page": wantMan, "bash completion": wantBash, "zsh completion": wantZsh[f], "fish completion": wantFish} {
				if !dsts[dst] {
					fail("%s: the %s package installs no %s at %s", name, f, what, dst)
				}
			}
		}
	}

	// The paths inside the archives: each hook output an archive's files
	// entry takes (dst/name with strip_parent, else dst/src path).
	inArchive := func(a config.Archive) map[string]bool {
		in := map[string]bool{}
		for _, f := range a.Files {
			for m := range made {
				if ok, _ := path.Match(f.Source, m); !ok {
					continue
				}
				rel := m
				if f.StripParent {
					rel = path.Base(m)
				}
				in[path.Join(f.Destination, rel)] = true
			}
		}
		return in
	}
	archives := map[string]config.Archive{}
	for _, a := range p.Archives {
		archives[a.ID] = a
	}

	if len(p.Brews) > 0 {
		fail("brews: deprecated since goreleaser 2.10 (goreleaser check fails); use homebrew_casks")
	}
	if len(p.Casks) == 0 {
		fail("homebrew_casks: none; want a cask in a tap repository")
	}
	for i, c := range p.Casks {
		name := fmt.Sprintf("homebrew_casks %s", c.Name)
		if c.Name == "" {
			name = fmt.Sprintf("homebrew_casks #%d", i+1)
		}
		if c.Repository.Owner == "" || c.Repository.Name == "" {
			fail("%s: repository: want owner and name (the tap)", name)
		}
		if !slices.Contains(c.Binaries, "rootpick") {
			fail("%s: binaries %v lack rootpick", name, c.Binaries)
		}
		files := []string{}
		files = append(files, c.Manpages...)
		if len(c.Manpages) == 0 {
			fail("%s: no manpages", name)
		}
		for shell, f := range map[string]string{"bash": c.Completions.Bash, "zsh": c.Completions.Zsh, "fish": c.Completions.Fish} {
			if f == "" {
				fail("%s: completions: no %s", name, shell)
			}
			files = append(files, f)
		}
		for _, id := range c.IDs {
			a, ok := archives[id]
			if !ok {
				fail("%s: ids: no archive %s", name, id)
				continue
			}
			in := inArchive(a)
			for _, f := range files {
				if f != "" && !in[path.Clean(f)] {
					fail("%s: %s is not in archive %s", name, f, id)
				}
			}
		}
	}

	if len(p.Scoops) == 0 {
		fail("scoops: none; want a manifest in a bucket repository")
	}
	for i, s := range p.Scoops {
		if s.Repository.Owner == "" || s.Repository.Name == "" {
			fail("scoops #%d: repository: want owner and name (the bucket)", i+1)
		}
		for _, id := range s.IDs {
			if _, ok := archives[id]; !ok {
				fail("scoops #%d: ids: no archive %s", i+1, id)
			}
		}
	}
	return errs
}
