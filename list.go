package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/vcsdetect"
)

// listCmd prints the repositories found, with no UI.
type listCmd struct {
	Dir string `arg:"" optional:"" name:"dir" help:"Folder to scan (default: the config file's dir, else the current folder)."`

	FullPath bool `name:"full-path" group:"output" help:"Print absolute paths instead of paths relative to DIR."`
	Null     bool `name:"null" short:"0" xor:"format" group:"output" help:"End each path with NUL instead of a newline and write it raw, for xargs -0."`
	JSON     bool `name:"json" xor:"format" group:"output" help:"Print JSON Lines (path, rel, name, kind, branch, depth, uri, …)."`
	Details  bool `group:"output" help:"With --json: add head, upstream, ahead/behind, remote, last commit and dirty state."`
	Stream   bool `group:"output" help:"Print each repository as soon as it is found, in no particular order."`

	scanFlags
}

func (o *listCmd) Help() string {
	return `Paths are sorted and printed one a line, relative to DIR (DIR itself as ".")
unless --full-path is given. Control, bidi and zero-width characters and
bytes that are not UTF-8 are written as escapes (\x1b, \u202e, \xff), as
the picker draws them; --null writes paths raw, for programs. A count of
skipped and unreadable folders goes to stderr.

Examples:
  rootpick list ~/src
  rootpick list --null --full-path ~/src | xargs -0 -I{} git -C {} status -s
  rootpick list --json --details ~/src | jq -r 'select(.state == "dirty") | .path'
  rootpick list --all --skip build --max-depth 3`
}

func (o *listCmd) Run(e *env) error {
	if err := o.check(e); err != nil {
		return err
	}
	var pos []string
	if o.Dir != "" {
		pos = []string{o.Dir}
	}
	dir, err := dirArg(pos)
	if err != nil {
		return err
	}
	ctx := onSignals(context.Background())
	defer ctx.stop()
	p := o.newPrinter(e.stdout, dir)
	var desc *vcsdetect.Describer
	if o.Details {
		desc = vcsdetect.NewDescriber(vcsdetect.DescribeOptions{})
	}
	found, st, err := o.scan(ctx, dir, p, desc)
	if errors.Is(err, context.Canceled) {
		p.out.Flush()
		return exitError{code: 130}
	}
	if err != nil {
		return err
	}
	if err := o.printSorted(ctx, p, found, desc); err != nil {
		return err
	}
	if err := p.out.Flush(); p.err == nil {
		p.err = err
	}
	if st.Skipped > 0 || st.Warnings > 0 {
		fmt.Fprintf(e.stderr, "rootpick: %d folders walked, %d skipped (heavy, other file system or seen before; --all walks heavy ones), %d unreadable\n", st.Dirs, st.Skipped, st.Warnings)
	}
	return p.err
}

// check refuses the flags that do not go together.
func (o *listCmd) check(e *env) error {
	if e.dashdash {
		return usageError("list takes no server command, got -- %q", e.command)
	}
	if o.Details && !o.JSON {
		return usageError("--details needs --json")
	}
	if o.FullPath && o.JSON {
		return usageError("--full-path is for the text and --null output: --json has both path and rel")
	}
	return nil
}

// scan walks dir. With --stream each repository is printed as it is found
// (described first with --details) and found is empty; else they are
// collected in found, in no fixed order (the walk is parallel).
func (o *listCmd) scan(ctx context.Context, dir string, p *listPrinter, desc *vcsdetect.Describer) (found []vcsdetect.Repo, st vcsdetect.Stats, err error) {
	opts := vcsdetect.Options{
		MaxDepth:      int(o.MaxDepth),
		All:           o.All,
		Skip:          o.Skip,
		Follow:        o.Follow,
		OneFileSystem: o.OneFileSystem,
		NoBranch:      !o.JSON, // the plain list prints paths only
	}
	if o.Stream {
		opts.Progress = func(vcsdetect.Stats) { p.flush() }
	}
	printed := 0
	st, err = vcsdetect.Scan(ctx, dir, opts, func(r vcsdetect.Repo) {
		if !o.Stream {
			found = append(found, r)
			return
		}
		var det *vcsdetect.Details
		if desc != nil {
			d := desc.Describe(ctx, r)
			det = &d
		}
		p.print(r, det)
		if printed++; printed == 1 {
			p.flush()
		}
	})
	return found, st, err
}

// printSorted prints found sorted by path, each described first with
// --details. An interrupt while describing is exit 130.
func (o *listCmd) printSorted(ctx context.Context, p *listPrinter, found []vcsdetect.Repo, desc *vcsdetect.Describer) error {
	slices.SortFunc(found, func(a, b vcsdetect.Repo) int { return strings.Compare(a.Path, b.Path) })
	var dets []vcsdetect.Details
	if desc != nil {
		dets = desc.DescribeAll(ctx, found, 0)
		if ctx.Err() != nil { // interrupted: the details are incomplete
			return exitError{code: 130}
		}
	}
	for i, r := range found {
		var det *vcsdetect.Details
		if dets != nil {
			det = &dets[i]
		}
		p.print(r, det)
	}
	return nil
}

// listPrinter writes list's lines: paths (escaped, or raw with --null) or
// JSON Lines. The first write error stops it and is kept in err.
type listPrinter struct {
	o       *listCmd
	dir     string
	out     *bufio.Writer
	jsonBuf bytes.Buffer
	enc     *json.Encoder
	err     error
}

// newPrinter is a listPrinter on w for the folder dir. One write per line
// cost about 20 µs a line on a tree of 50,000 repositories: it buffers,
// and with --stream is flushed after the first result and then at each
// progress tick, so results still show within 100 ms.
func (o *listCmd) newPrinter(w io.Writer, dir string) *listPrinter {
	p := &listPrinter{o: o, dir: dir, out: bufio.NewWriterSize(w, 64<<10)}
	p.enc = json.NewEncoder(&p.jsonBuf)
	return p
}

// flush writes what is buffered, unless a write failed already.
func (p *listPrinter) flush() {
	if p.err == nil {
		p.err = p.out.Flush()
	}
}

// print writes the line of r (and of its details det, with --details).
func (p *listPrinter) print(r vcsdetect.Repo, det *vcsdetect.Details) {
	if p.err != nil {
		return
	}
	if p.o.JSON {
		p.err = p.json(r, det)
		return
	}
	path := r.Path
	if !p.o.FullPath {
		path = relTo(p.dir, path)
	}
	if p.o.Null {
		// For programs: the exact bytes, which NUL cannot be part of.
		_, p.err = io.WriteString(p.out, path+"\x00")
		return
	}
	_, p.err = io.WriteString(p.out, safetext.Escape(path)+"\n")
}

// json writes r's line of list --json.
func (p *listPrinter) json(r vcsdetect.Repo, det *vcsdetect.Details) error {
	// DIR is canonical and the walk follows no symlink, so the path is
	// canonical already; only --follow needs resolving (an EvalSymlinks, a
	// stat and an open per repository, which made list --json 3.5 times
	// slower than list on 50,000).
	uri := consent.PathToURI(r.Path)
	if p.o.Follow {
		if root, err := consent.NewRoot(r.Path); err == nil {
			uri = root.URI
		}
	}
	line := listLine{Repo: r, Rel: relTo(p.dir, r.Path), URI: uri, Details: det}
	if det != nil && det.Counted {
		line.Ahead, line.Behind = &det.Ahead, &det.Behind
	}
	if !utf8.ValidString(r.Path) {
		line.PathBytes = []byte(r.Path)
	}
	p.jsonBuf.Reset()
	if err := p.enc.Encode(line); err != nil {
		return err
	}
	_, err := p.out.Write(safetext.JSON(p.jsonBuf.Bytes()))
	return err
}

// listLine is one line of list --json. Its field names are stable and
// listed in docs/cli.md: path, name, kind, branch, depth, reason, marker
// (vcsdetect.Repo), rel, uri, path_bytes, and with --details those of
// vcsdetect.Details and ahead, behind.
type listLine struct {
	vcsdetect.Repo
	// Rel is Path relative to DIR, "." for DIR itself.
	Rel string `json:"rel"`
	URI string `json:"uri"`
	// PathBytes is the exact path, base64 in JSON, when it is not valid
	// UTF-8: encoding/json writes U+FFFD in path for each bad byte.
	PathBytes []byte `json:"path_bytes,omitempty"`
	*vcsdetect.Details
	// Ahead and Behind are Details' counts, both written (0 included)
	// when they were counted and both left out when not, so that "in step"
	// (0 and 0) and "not counted" differ in the JSON.
	Ahead  *int `json:"ahead,omitempty"`
	Behind *int `json:"behind,omitempty"`
}

// relTo is path relative to dir, which holds it ("." for dir itself), as
// ghq list prints them. The walk reaches every path through dir, so a
// prefix is cut; anything else is left absolute.
func relTo(dir, path string) string {
	if path == dir {
		return "."
	}
	prefix := dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if rest, ok := strings.CutPrefix(path, prefix); ok {
		return rest
	}
	return path
}
