// Command pkgcheck builds the .deb that .goreleaser.yaml's nfpms describe,
// from a freshly built rootpick, with nfpm (the library goreleaser packages
// with, pinned in this module's go.mod to the version goreleaser's go.mod
// names), then installs it with dpkg and checks that it works: issue #28's
// "the .deb installed and run in CI". The contents come from
// .goreleaser.yaml itself, loaded with goreleaser's config package, and the
// files they name are made by running its before hooks, so the package
// checked here cannot drift from the one released.
//
//	pkgcheck build .goreleaser.yaml ./rootpick rootpick.deb
//	pkgcheck install .goreleaser.yaml rootpick.deb
//
// build runs the before hooks in the folder of .goreleaser.yaml and writes
// the package; it needs no privileges. install needs root (dpkg -i): run by
// anyone else it says so and exits 0. It refuses a machine where rootpick
// is already installed, installs the package, runs `rootpick --version`,
// checks with `dpkg -L` that the package owns each of its files, renders
// its own page (`man -l`, not whatever `man -w rootpick` finds first), compares every
// installed file with its source, then removes the package (dpkg -r) and
// checks that the files went with it.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/goreleaser/goreleaser/v2/pkg/config"
	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb" // registers the deb packager
	"github.com/goreleaser/nfpm/v2/files"
)

func main() {
	var err error
	switch {
	case len(os.Args) == 5 && os.Args[1] == "build":
		err = build(os.Args[2], os.Args[3], os.Args[4])
	case len(os.Args) == 4 && os.Args[1] == "install":
		err = install(os.Args[2], os.Args[3])
	default:
		fmt.Fprintln(os.Stderr, "usage: pkgcheck build CONFIG BINARY OUT.deb | pkgcheck install CONFIG FILE.deb")
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pkgcheck:", err)
		os.Exit(1)
	}
}

// debNFPM returns the nfpms entry of the config that makes a deb, and the
// project.
func debNFPM(configPath string) (config.Project, config.NFPM, error) {
	p, err := config.Load(configPath)
	if err != nil {
		return p, config.NFPM{}, err
	}
	for _, n := range p.NFPMs {
		for _, f := range n.Formats {
			if f == "deb" {
				return p, n, nil
			}
		}
	}
	return p, config.NFPM{}, errors.New("no nfpms entry makes a deb")
}

// packageFiles returns what the nfpms entry puts in a deb besides the
// binary: the contents for every packager and for deb, with their
// destinations cleaned as nfpm writes them. Templates are not expanded, so
// a content that uses one is refused rather than packaged wrong.
func packageFiles(n config.NFPM) (files.Contents, error) {
	var out files.Contents
	for _, c := range n.Contents {
		if strings.Contains(c.Source+c.Destination, "{{") {
			return nil, fmt.Errorf("contents %s: templates are not expanded here", c.Destination)
		}
		if c.Packager != "" && c.Packager != "deb" {
			continue
		}
		out = append(out, &files.Content{
			Source:      filepath.ToSlash(c.Source),
			Destination: filepath.ToSlash(c.Destination),
			Type:        c.Type,
			Packager:    c.Packager,
			FileInfo:    &files.ContentFileInfo{Owner: c.FileInfo.Owner, Group: c.FileInfo.Group, Mode: c.FileInfo.Mode},
		})
	}
	return out, nil
}

func packageName(p config.Project, n config.NFPM) string {
	if n.PackageName != "" {
		return n.PackageName
	}
	return p.ProjectName
}

func bindir(n config.NFPM) string {
	if n.Bindir != "" {
		return n.Bindir
	}
	return "/usr/bin" // goreleaser's default
}

// build runs the before hooks (each as `sh -c HOOK`, where goreleaser
// splits it into words itself: the same for hooks without shell syntax
// outside a quoted `sh -c` argument), then writes the deb to out.
func build(configPath, binary, out string) error {
	p, n, err := debNFPM(configPath)
	if err != nil {
		return err
	}
	root := filepath.Dir(configPath)
	for _, h := range p.Before.Hooks {
		if strings.Contains(h, "{{") {
			return fmt.Errorf("before hook %q: templates are not expanded here", h)
		}
		cmd := exec.Command("sh", "-c", h)
		cmd.Dir, cmd.Stdout, cmd.Stderr = root, os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("before hook %q: %w", h, err)
		}
	}
	contents, err := packageFiles(n)
	if err != nil {
		return err
	}
	for _, c := range contents {
		if c.Type == "" && !filepath.IsAbs(c.Source) {
			c.Source = filepath.Join(root, c.Source)
		}
	}
	bin, err := filepath.Abs(binary)
	if err != nil {
		return err
	}
	contents = append(contents, &files.Content{
		Source:      bin,
		Destination: path.Join(bindir(n), "rootpick"),
		FileInfo:    &files.ContentFileInfo{Mode: 0o755},
	})
	info := nfpm.WithDefaults(&nfpm.Info{
		Name:        packageName(p, n),
		Arch:        runtime.GOARCH,
		Platform:    "linux",
		Version:     "0.0.0-ci",
		Section:     n.Section,
		Priority:    n.Priority,
		Maintainer:  n.Maintainer,
		Description: n.Description,
		Vendor:      n.Vendor,
		Homepage:    n.Homepage,
		License:     n.License,
		Overridables: nfpm.Overridables{
			Contents:   contents,
			Depends:    n.Dependencies,
			Recommends: n.Recommends,
			Suggests:   n.Suggests,
			Conflicts:  n.Conflicts,
			Replaces:   n.Replaces,
			Provides:   n.Provides,
			Umask:      n.Umask,
		},
	})
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		return err
	}
	packager, err := nfpm.Get("deb")
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := packager.Package(info, &buf); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %s %s, %d bytes:\n", out, info.Name, info.Version, buf.Len())
	for _, c := range info.Contents {
		if c.Type != files.TypeImplicitDir && c.Type != files.TypeDir {
			fmt.Printf("  %s\n", c.Destination)
		}
	}
	return nil
}

// install installs the deb, checks it and removes it again.
func install(configPath, deb string) (err error) {
	if os.Geteuid() != 0 {
		fmt.Println("pkgcheck install: skipped, not root (dpkg -i needs root)")
		return nil
	}
	p, n, err := debNFPM(configPath)
	if err != nil {
		return err
	}
	name := packageName(p, n)
	contents, err := packageFiles(n)
	if err != nil {
		return err
	}
	bin := path.Join(bindir(n), "rootpick")
	want := map[string]string{bin: ""} // installed path -> its source
	for _, c := range contents {
		if c.Type == "" {
			want[c.Destination] = filepath.Join(filepath.Dir(configPath), c.Source)
		}
	}
	if out, err := exec.Command("dpkg-query", "-W", "-f", "${Status}", name).Output(); err == nil && strings.Contains(string(out), "installed") {
		return fmt.Errorf("%s is already installed here (%s); this check would remove it", name, out)
	}
	for dst := range want {
		if _, err := os.Lstat(dst); err == nil {
			return fmt.Errorf("%s exists already; the package would overwrite it", dst)
		}
	}
	// Minimal images (Docker's debian) exclude /usr/share/man with dpkg's
	// path-exclude; the package's own paths are let in, as on a desktop.
	args := []string{}
	for dst := range want {
		args = append(args, "--path-include="+dst)
	}
	if err := run("dpkg", append(args, "-i", deb)...); err != nil {
		return err
	}
	defer func() {
		if rerr := run("dpkg", "-r", name); rerr != nil {
			err = errors.Join(err, rerr)
			return
		}
		for dst := range want {
			if _, serr := os.Lstat(dst); serr == nil {
				err = errors.Join(err, fmt.Errorf("dpkg -r %s left %s", name, dst))
			}
		}
		if err == nil {
			fmt.Printf("dpkg -r %s: its %d files are gone\n", name, len(want))
		}
	}()

	for dst, src := range want {
		got, err := os.ReadFile(dst)
		if err != nil {
			return fmt.Errorf("not installed: %w", err)
		}
		if src == "" {
			continue
		}
		if w, err := os.ReadFile(src); err != nil || !bytes.Equal(got, w) {
			return fmt.Errorf("%s differs from %s (%v)", dst, src, err)
		}
	}
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "rootpick") {
		return fmt.Errorf("%s --version: %v\n%s", bin, err, out)
	}
	fmt.Printf("%s --version: %s", bin, out)
	// The package's own files, as dpkg lists them: not what man or PATH
	// happen to find first (a page a person installed under GOPATH's
	// share/man would answer man -w rootpick as well).
	listed, err := exec.Command("dpkg", "-L", name).Output()
	if err != nil {
		return fmt.Errorf("dpkg -L %s: %w", name, err)
	}
	owned := map[string]bool{}
	for line := range strings.SplitSeq(string(listed), "\n") {
		owned[strings.TrimSpace(line)] = true
	}
	page := ""
	for dst := range want {
		if !owned[dst] {
			return fmt.Errorf("dpkg -L %s does not list %s", name, dst)
		}
		if strings.HasSuffix(dst, "/man1/rootpick.1.gz") {
			page = dst
		}
	}
	if page == "" {
		return errors.New("the package has no man1/rootpick.1.gz")
	}
	fmt.Printf("dpkg -L %s: lists its %d files; the page is %s\n", name, len(want), page)
	if found, err := exec.Command("man", "-w", "rootpick").Output(); err == nil && strings.TrimSpace(string(found)) != page {
		fmt.Printf("(man -w rootpick finds %s first here: another page earlier on the manual path)\n", strings.TrimSpace(string(found)))
	}
	cmd := exec.Command("man", "-l", page)
	cmd.Env = append(os.Environ(), "MANPAGER=cat", "MANWIDTH=80")
	text, err := cmd.Output()
	if err != nil || !strings.Contains(string(text), "rootpick") {
		return fmt.Errorf("man -l %s: %v\n%s", page, err, text)
	}
	fmt.Printf("man -l %s: %d lines\n", page, strings.Count(string(text), "\n"))
	fmt.Printf("installed and in place: %d files\n", len(want))
	return nil
}

func run(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return nil
}
