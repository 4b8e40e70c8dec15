package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/alecthomas/kong"
	"github.com/rootpick/rootpick/ui"
)

// TestReadmeKeyTable keeps the README's key table equal to the key map the
// program uses (the help line and full help come from the same bindings).
func TestReadmeKeyTable(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "| key | action |\n|---|---|\n")
	if start < 0 {
		t.Fatal("README.md has no key table")
	}
	var got []string
	for _, line := range strings.Split(text[start:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		got = append(got, line)
	}
	var want []string
	for _, row := range ui.KeyTable() {
		want = append(want, "| `"+row[0]+"` | "+row[1]+" |")
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("README key table is out of date; it should read:\n%s", strings.Join(want, "\n"))
	}
}

// TestParseArgs checks that flags and DIR mix in any order and that
// everything after -- is the server command, flags included.
func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		pos, command string
		print        bool
	}{
		{[]string{"dir", "--print"}, "dir", "", true},
		{[]string{"--print", "dir", "--", "npx", "-y", "srv", "--print"}, "dir", "npx -y srv --print", true},
		{[]string{"--", "rootpick", "serve-demo"}, "", "rootpick serve-demo", false},
		{nil, "", "", false},
	} {
		e := &env{stdout: os.Stdout, stderr: os.Stderr}
		c, _, err := parse(tc.args, e)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if c.Pick.Dir != tc.pos || strings.Join(e.command, " ") != tc.command || c.Pick.Print != tc.print {
			t.Errorf("%q: dir %q command %q print %v", tc.args, c.Pick.Dir, e.command, c.Pick.Print)
		}
	}
}

// TestReadmeCommandLine: the "Command line" section of docs/cli.md (the
// reference the README links to) names every command and every flag of the
// parser's model; its usage block has a line for every command, listing
// exactly that command's flags (a line with [flags] lists some of them),
// and its two flag tables are exactly the flags of rootpick (pick) and of
// rootpick list.
func TestReadmeCommandLine(t *testing.T) {
	section := docSection(t, "docs/cli.md", "## Command line")
	var c cli
	k, err := newParser(&c, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range k.Model.Flags {
		if !strings.Contains(section, "--"+f.Name) {
			t.Errorf("docs/cli.md Command line lacks the global flag --%s", f.Name)
		}
	}
	for _, n := range k.Model.Children {
		if !strings.Contains(section, "rootpick "+n.Name) && !(n.Name == "pick" && strings.Contains(section, "rootpick [pick]")) {
			t.Errorf("docs/cli.md Command line lacks the command %q", n.Name)
		}
		for _, f := range n.Flags {
			if !f.Hidden && !strings.Contains(section, "--"+f.Name) {
				t.Errorf("docs/cli.md Command line lacks %s --%s", n.Name, f.Name)
			}
		}
	}

	global := map[string]bool{}
	for _, f := range k.Model.Flags {
		global[f.Name] = true
	}
	// own is the set of a command's flags the reference must show.
	own := func(n *kong.Node) map[string]bool {
		m := map[string]bool{}
		for _, f := range n.Flags {
			if !f.Hidden {
				m[f.Name] = true
			}
		}
		return m
	}
	// named is the set of long flags in text, global ones left out.
	named := func(text string) map[string]bool {
		m := map[string]bool{}
		for _, f := range longFlag.FindAllString(text, -1) {
			if !global[f[2:]] {
				m[f[2:]] = true
			}
		}
		return m
	}
	child := func(n *kong.Node, name string) *kong.Node {
		for _, c := range n.Children {
			if c.Name == name {
				return c
			}
		}
		return nil
	}

	// The usage block: the first ``` block of the section.
	_, rest, _ := strings.Cut(section, "```\n")
	usage, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("docs/cli.md Command line has no usage block")
	}
	described := map[*kong.Node]bool{}
	for _, line := range strings.Split(strings.TrimSpace(usage), "\n") {
		words := strings.Fields(line)
		if len(words) < 2 || words[0] != "rootpick" {
			t.Errorf("usage line %q does not start with rootpick COMMAND", line)
			continue
		}
		// Walk the command words: [pick] is optional, path|show is two.
		nodes := []*kong.Node{k.Model.Node}
		for _, w := range words[1:] {
			var next []*kong.Node
			for _, part := range strings.Split(strings.Trim(w, "[]"), "|") {
				for _, n := range nodes {
					if c := child(n, part); c != nil {
						next = append(next, c)
					}
				}
			}
			if len(next) == 0 {
				break
			}
			nodes = next
			for _, n := range nodes {
				described[n] = true
			}
		}
		if nodes[0] == k.Model.Node {
			t.Errorf("usage line %q names no command", line)
			continue
		}
		got := named(line)
		for _, n := range nodes {
			want := own(n)
			for f := range got {
				if !want[f] {
					t.Errorf("usage line %q: %s has no flag --%s", line, n.Name, f)
				}
			}
			if strings.Contains(line, "[flags]") {
				continue
			}
			for f := range want {
				if !got[f] {
					t.Errorf("usage line %q lacks %s --%s", line, n.Name, f)
				}
			}
		}
	}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, c := range n.Children {
			if !c.Hidden && !described[c] {
				t.Errorf("docs/cli.md's usage block has no line for %q", c.Path())
			}
			walk(c)
		}
	}
	walk(k.Model.Node)

	// The flag tables: their first column names exactly the command's flags.
	for header, name := range map[string]string{"| flag | meaning |": "pick", "| `list` flag | meaning |": "list"} {
		i := strings.Index(section, "\n"+header+"\n")
		if i < 0 {
			t.Errorf("docs/cli.md Command line has no table %q", header)
			continue
		}
		var first []string
		for _, row := range strings.Split(section[i+1:], "\n")[2:] {
			if !strings.HasPrefix(row, "|") {
				break
			}
			first = append(first, strings.SplitN(row[1:], "|", 2)[0])
		}
		got, want := named(strings.Join(first, " ")), own(child(k.Model.Node, name))
		for f := range got {
			if !want[f] {
				t.Errorf("table %q: %s has no flag --%s", header, name, f)
			}
		}
		for f := range want {
			if !got[f] {
				t.Errorf("table %q lacks a row for --%s", header, f)
			}
		}
	}
}

// longFlag is a long flag as the docs write it.
var longFlag = regexp.MustCompile(`--[a-z][a-z0-9-]*`)

// docSection returns the text of file from the line heading up to the next
// heading of the same level.
func docSection(t *testing.T, file, heading string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n"+heading+"\n")
	if start < 0 {
		t.Fatalf("%s has no %q section", file, heading)
	}
	level := heading[:strings.Index(heading, " ")+1]
	section := text[start+1:]
	if end := strings.Index(section[1:], "\n"+level); end >= 0 {
		section = section[:1+end]
	}
	return section
}

// TestReadmePrintConfig: the config the README's "Use it with your agent"
// shows is what the built rootpick prints for the command shown above it,
// but for the path of the executable.
func TestReadmePrintConfig(t *testing.T) {
	section := docSection(t, "README.md", "## Use it with your agent")
	var args []string
	for _, block := range strings.Split(section, "```sh\n")[1:] {
		code, _, _ := strings.Cut(block, "```")
		for _, line := range strings.Split(code, "\n") {
			if strings.HasPrefix(line, "rootpick proxy --print-config ") {
				args = strings.Fields(line)[1:]
			}
		}
	}
	_, rest, ok := strings.Cut(section, "```json\n")
	want, _, ok2 := strings.Cut(rest, "```")
	if args == nil || !ok || !ok2 {
		t.Fatal("README's Use it with your agent has no rootpick proxy --print-config line followed by a json block")
	}
	shown := regexp.MustCompile(`"command": ("[^"]*")`).FindStringSubmatch(want)
	if shown == nil {
		t.Fatal("README's printed config has no command")
	}
	bin := proxyExecutable() // the command the snippet names
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", "")
	var out bytes.Buffer
	if err := run(args, &out, io.Discard); err != nil {
		t.Fatalf("rootpick %s: %v", strings.Join(args, " "), err)
	}
	q, _ := json.Marshal(bin)
	got := strings.Replace(out.String(), `"command": `+string(q), `"command": `+shown[1], 1)
	if got != want {
		t.Errorf("README's printed config is out of date; rootpick %s prints:\n%s", strings.Join(args, " "), got)
	}
}

// TestReadmeDocsLinks: every relative link in README.md, ARCHITECTURE.md
// and docs/*.md leads to a file that exists and, with a #anchor, to a
// heading of that file, by GitHub's rules; every page of docs/ starts with
// its title and a link back to the README, and the README links to it; the
// README stays a front door, under 25,600 bytes.
func TestReadmeDocsLinks(t *testing.T) {
	pages, err := filepath.Glob("docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	files := append([]string{"README.md", "ARCHITECTURE.md"}, pages...)
	anchors := map[string]map[string]bool{}
	headings := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil
		}
		a := map[string]bool{}
		seen := map[string]int{}
		for _, line := range strings.Split(outsideFences(string(b)), "\n") {
			m := mdHeading.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			slug := githubAnchor(m[1])
			if n := seen[slug]; n > 0 {
				a[slug+"-"+strconv.Itoa(n)] = true
			} else {
				a[slug] = true
			}
			seen[slug]++
		}
		anchors[file] = a
		return a
	}
	linked := map[string]bool{}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := withoutCodeSpans(outsideFences(string(b)))
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if urlScheme.MatchString(target) {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				p, err := url.PathUnescape(path)
				if err != nil {
					t.Errorf("%s: link %q: %v", file, target, err)
					continue
				}
				dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(p))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s: link %q: no file %s", file, target, dest)
					continue
				}
			}
			if file == "README.md" {
				linked[filepath.ToSlash(dest)] = true
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s: link %q: an anchor into a file that is not markdown", file, target)
			} else if !headings(dest)[anchor] {
				t.Errorf("%s: link %q: %s has no heading with the anchor #%s", file, target, dest, anchor)
			}
		}
	}
	for _, page := range pages {
		b, _ := os.ReadFile(page)
		title, rest, _ := strings.Cut(string(b), "\n")
		intro, _, _ := strings.Cut(strings.TrimLeft(rest, "\n"), "\n\n")
		if !strings.HasPrefix(title, "# ") || !strings.Contains(intro, "](../README.md") {
			t.Errorf("%s does not start with a # title and a paragraph linking back to ../README.md", page)
		}
		if !linked[filepath.ToSlash(page)] {
			t.Errorf("README.md does not link to %s", page)
		}
	}
	fi, err := os.Stat("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() >= 25600 {
		t.Errorf("README.md is %d bytes; keep it under 25,600 and move reference text into docs/", fi.Size())
	}
}

var (
	// mdLink is an inline link or image: [text](target) or
	// [text](target "title").
	mdLink    = regexp.MustCompile(`\[(?:[^\[\]]|\[[^\]]*\])*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)`)
	urlScheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	mdHeading = regexp.MustCompile(`^#{1,6}[ \t]+(.+?)[ \t#]*$`)
)

// readmeBlock returns the lines of the first ```sh block after heading in
// README.md ("" for the top of the file).
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if heading != "" {
		i := strings.Index(text, "\n"+heading+"\n")
		if i < 0 {
			t.Fatalf("README.md has no %q", heading)
		}
		text = text[i:]
	}
	_, rest, ok := strings.Cut(text, "```sh\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatalf("README.md has no sh block after %q", heading)
	}
	return strings.Split(strings.TrimSuffix(block, "\n"), "\n")
}

// TestReadmeFirstCommand: the first command the README gives after
// cloning is the demo, and every `go run .` and `rootpick` command of the
// first steps (the top block and Install) names a command rootpick has.
func TestReadmeFirstCommand(t *testing.T) {
	top := readmeBlock(t, "")
	if !strings.HasPrefix(top[0], "go run . demo ") {
		t.Errorf("the README's first command is %q, want go run . demo", top[0])
	}
	var c cli
	k, err := newParser(&c, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	commands := map[string]bool{}
	for _, n := range k.Model.Children {
		commands[n.Name] = true
	}
	for _, line := range append(top, readmeBlock(t, "## Install")...) {
		f := strings.Fields(line)
		var word string
		switch {
		case len(f) > 2 && f[0] == "go" && f[1] == "run" && f[2] == ".":
			if len(f) > 3 {
				word = f[3]
			}
		case len(f) > 1 && f[0] == "rootpick":
			word = f[1]
		}
		if word != "" && !strings.HasPrefix(word, "#") && !strings.HasPrefix(word, "-") && !commands[word] {
			t.Errorf("README line %q: rootpick has no command %q", line, word)
		}
	}
}

// outsideFences returns text with the lines of fenced code blocks (``` or
// ~~~, indented or not) blanked: their # lines are no headings, their
// brackets no links.
func outsideFences(text string) string {
	lines := strings.Split(text, "\n")
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
			lines[i] = ""
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// withoutCodeSpans removes inline code: a run of backticks up to the next
// run of the same length, across line ends as Markdown allows.
func withoutCodeSpans(text string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '`')
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		n := i
		for n < len(text) && text[n] == '`' {
			n++
		}
		run := text[i:n]
		end := -1
		for j := n; j < len(text); {
			k := strings.Index(text[j:], run)
			if k < 0 {
				break
			}
			k += j
			if k+len(run) == len(text) || text[k+len(run)] != '`' {
				end = k + len(run)
				break
			}
			for j = k; j < len(text) && text[j] == '`'; j++ {
			}
		}
		if end < 0 { // no closing run: the backticks are plain text
			b.WriteString(run)
			text = text[n:]
			continue
		}
		text = text[end:]
	}
}

// githubAnchor is the anchor GitHub gives a heading: its text lowercased,
// links replaced by their text, every character but letters, digits, '-',
// '_' and spaces dropped, spaces turned into '-'.
func githubAnchor(h string) string {
	h = mdLinkText.ReplaceAllString(h, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), unicode.IsMark(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

var mdLinkText = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
