package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestCommentNamesResolve keeps comments from drifting the way
// TestArchitectureNamesResolve keeps ARCHITECTURE.md: every comment in the
// module's non-test Go files (doc comments, line comments, comments inside
// functions) that names code in one of two forms must name something that
// exists.
//
//   - Type.Member, where Type is a type declared in the comment's own
//     package, or an exported type of a module package it imports
//     (Record.Granted where consent is imported): Member is a method or
//     field of Type, or one promoted from a type it embeds.
//   - pkg.Name and pkg.Type.Member, where pkg is a package of this module
//     that the comment's package imports (or the package itself): Name
//     and Member are declared there, and exported unless pkg is the
//     comment's own package.
//
// A token is checked only when its first part is exactly such a type or
// package name, so prose, file names (config.toml), URLs and version
// numbers pass unread; one followed by * (consent.Warn*) names a prefix.
// A package of the module that is not imported is not checked: in
// vcsdetect, paths.default is Mercurial's setting, not package paths.
// Run: go test -run CommentNames -v .
func TestCommentNamesResolve(t *testing.T) {
	mod := readModule(t)
	checked := 0
	var bad []string
	for _, p := range mod.pkgs {
		for _, f := range p.files {
			for _, cg := range f.ast.Comments {
				for _, c := range cg.List {
					for _, ref := range codeRefs(c.Text) {
						why, ok := mod.check(p, ref)
						if !ok {
							continue // not a name of code
						}
						checked++
						if why != "" {
							pos := mod.fset.Position(c.Pos())
							pos.Line += strings.Count(c.Text[:ref.at], "\n")
							bad = append(bad, pos.Filename+":"+strconv.Itoa(pos.Line)+": "+ref.text+": "+why)
						}
					}
				}
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
	t.Logf("%d references to code checked in comments, %d unresolved", checked, len(bad))
	if checked < 100 {
		t.Errorf("only %d references checked: the walk or the token rules are broken", checked)
	}
}

// commentPkg is what one package (one folder, one package clause)
// declares, and which of the module's packages it imports.
type commentPkg struct {
	name    string
	dir     string
	files   []*commentFile
	top     map[string]bool
	types   map[string]*commentType
	imports map[string]string // name in this package → import path
}

type commentFile struct {
	ast     *ast.File
	imports map[string]string // local name → import path, all imports
}

// commentType is a declared type's own members and what it embeds.
type commentType struct {
	members map[string]bool
	embeds  []typeRef
	// open: the type embeds or aliases a type from outside the module,
	// whose members this test cannot list, so any member is accepted.
	open bool
}

// typeRef is a type named in an embedding or an alias: by import path
// ("" for the same package) and name.
type typeRef struct{ pkg, name string }

type commentModule struct {
	path   string
	fset   *token.FileSet
	pkgs   []*commentPkg
	byPath map[string]*commentPkg
}

// readModule parses every non-test Go file of the module, all build tags
// together (a comment in a _linux.go file may name a _linux.go method),
// skipping testdata, .ci, vendor, node_modules and nested modules.
func readModule(t *testing.T) *commentModule {
	t.Helper()
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod names no module")
	}
	mod := &commentModule{path: string(m[1]), fset: token.NewFileSet(), byPath: map[string]*commentPkg{}}
	byDir := map[string]*commentPkg{}
	err = filepath.WalkDir(".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			base := d.Name()
			if name != "." && (base == "testdata" || base == "vendor" || base == "node_modules" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(name, "go.mod")); name != "." && err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(mod.fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(name))
		key := dir + " " + f.Name.Name
		p := byDir[key]
		if p == nil {
			p = &commentPkg{name: f.Name.Name, dir: dir, top: map[string]bool{}, types: map[string]*commentType{}, imports: map[string]string{}}
			byDir[key] = p
			mod.pkgs = append(mod.pkgs, p)
			imp := mod.path
			if dir != "." {
				imp += "/" + dir
			}
			if prev, ok := mod.byPath[imp]; !ok || prev.name == "main" || f.Name.Name != "main" {
				mod.byPath[imp] = p
			}
		}
		cf := &commentFile{ast: f, imports: map[string]string{}}
		for _, is := range f.Imports {
			ip, _ := strconv.Unquote(is.Path.Value)
			local := path.Base(ip)
			if is.Name != nil {
				local = is.Name.Name
			}
			cf.imports[local] = ip
		}
		p.files = append(p.files, cf)
		p.declare(cf)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Imports by the package's own name (what its comments write), not
	// by the alias one file may give it.
	for _, p := range mod.pkgs {
		for _, f := range p.files {
			for _, ip := range f.imports {
				if q := mod.byPath[ip]; q != nil && q.name != "main" {
					p.imports[q.name] = ip
				}
			}
		}
	}
	if len(mod.pkgs) < 10 {
		t.Fatalf("only %d packages found", len(mod.pkgs))
	}
	return mod
}

// declare indexes one file's package-level declarations into p.
func (p *commentPkg) declare(f *commentFile) {
	typ := func(name string) *commentType {
		ct := p.types[name]
		if ct == nil {
			ct = &commentType{members: map[string]bool{}}
			p.types[name] = ct
		}
		return ct
	}
	ref := func(e ast.Expr) (typeRef, bool) {
		switch x := baseType(e).(type) {
		case *ast.Ident:
			return typeRef{name: x.Name}, true
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				return typeRef{pkg: f.imports[id.Name], name: x.Sel.Name}, true
			}
		}
		return typeRef{}, false
	}
	for _, dl := range f.ast.Decls {
		switch dl := dl.(type) {
		case *ast.FuncDecl:
			if dl.Recv == nil {
				p.top[dl.Name.Name] = true
			} else if r, ok := ref(dl.Recv.List[0].Type); ok {
				typ(r.name).members[dl.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range dl.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						p.top[n.Name] = true
					}
				case *ast.TypeSpec:
					p.top[s.Name.Name] = true
					ct := typ(s.Name.Name)
					var list *ast.FieldList
					switch u := s.Type.(type) {
					case *ast.StructType:
						list = u.Fields
					case *ast.InterfaceType:
						list = u.Methods
					default:
						// type T U or type T = U: U's fields (and, for an
						// alias, its methods) are T's.
						if r, ok := ref(u); ok {
							ct.embeds = append(ct.embeds, r)
						} else {
							ct.open = true // a func, map or chan type: nothing to name
						}
					}
					if list == nil {
						continue
					}
					for _, fl := range list.List {
						for _, n := range fl.Names {
							ct.members[n.Name] = true
						}
						if len(fl.Names) > 0 {
							continue
						}
						// Embedded: a field named by its type, whose members are promoted.
						if r, ok := ref(fl.Type); ok {
							ct.members[r.name] = true
							ct.embeds = append(ct.embeds, r)
						} else {
							ct.open = true // a type union in a constraint
						}
					}
				}
			}
		}
	}
}

// hasMember reports whether type name of p has member (its own or
// promoted), or whether it embeds something outside the module, so that
// this test cannot tell.
func (m *commentModule) hasMember(p *commentPkg, name, member string, prefix bool, seen map[*commentType]bool) bool {
	ct := p.types[name]
	if ct == nil {
		return false
	}
	if has(ct.members, member, prefix) || ct.open {
		return true
	}
	if seen[ct] {
		return false
	}
	seen[ct] = true
	for _, e := range ct.embeds {
		q := p
		if e.pkg != "" {
			q = m.byPath[e.pkg]
		}
		if q == nil || (e.pkg == "" && p.types[e.name] == nil) {
			return true // outside the module (or a predeclared type): cannot tell
		}
		if m.hasMember(q, e.name, member, prefix, seen) {
			return true
		}
	}
	return false
}

// codeRef is a dotted name found in a comment, at a byte offset of the
// comment's text.
type codeRef struct {
	text  string
	parts []string
	at    int
	// prefix: the token is followed by *, as in consent.Warn*, so its
	// last part names the start of one or more names.
	prefix bool
}

var (
	dottedName = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+`)
	// fileExt: a last part that makes the token a file name.
	fileExt = map[string]bool{
		"go": true, "md": true, "mod": true, "sum": true, "json": true, "jsonl": true, "toml": true,
		"yaml": true, "yml": true, "txt": true, "sh": true, "log": true, "tape": true, "golden": true,
		"lock": true, "js": true, "mjs": true, "cjs": true, "ts": true, "py": true, "html": true,
		"xml": true, "exe": true, "zip": true, "gz": true, "tar": true, "tmp": true, "bak": true,
		"sock": true, "pid": true, "conf": true, "cfg": true, "ini": true, "env": true, "pem": true,
		"png": true, "svg": true, "gif": true, "tmpl": true, "plist": true, "service": true,
	}
)

// codeRefs finds the dotted names of a comment that could name code:
// not part of a path, URL, host name or file name.
func codeRefs(text string) []codeRef {
	var out []codeRef
	for _, loc := range dottedName.FindAllStringIndex(text, -1) {
		s, e := loc[0], loc[1]
		if s > 0 && strings.ContainsRune("./-@:\\~$%", rune(text[s-1])) {
			continue // a path, URL, address or flag
		}
		if after := text[e:] + "  "; after[0] == '/' || after[0] == '@' || (after[0] == ':' || after[0] == '-') && isAlnum(after[1]) {
			continue // a path, address, host:port or host-name
		}
		tok := text[s:e]
		parts := strings.Split(tok, ".")
		if fileExt[strings.ToLower(parts[len(parts)-1])] {
			continue
		}
		out = append(out, codeRef{text: tok, parts: parts, at: s, prefix: e < len(text) && text[e] == '*'})
	}
	return out
}

// check resolves ref as written in package p. ok is false when ref is not
// a name of code by the rules above; why says what is wrong, "" when it
// resolves.
func (m *commentModule) check(p *commentPkg, ref codeRef) (why string, ok bool) {
	first, last := ref.parts[0], len(ref.parts)-1
	if _, isType := p.types[first]; isType && p.top[first] {
		if !m.hasMember(p, first, ref.parts[1], ref.prefix && last == 1, map[*commentType]bool{}) {
			return p.name + "." + first + " has no method or field " + ref.parts[1], true
		}
		return "", true
	}
	if ast.IsExported(first) && !p.top[first] {
		// Type.Member where Type is an exported type of a module package
		// p imports (Record.Granted, for consent.Record, in a package that
		// imports consent).
		var owners []*commentPkg
		for _, ip := range p.imports {
			if q := m.byPath[ip]; q != nil && q.types[first] != nil && q.top[first] {
				owners = append(owners, q)
			}
		}
		if len(owners) == 0 {
			return "", false
		}
		for _, q := range owners {
			if m.hasMember(q, first, ref.parts[1], ref.prefix && last == 1, map[*commentType]bool{}) {
				return "", true
			}
		}
		return owners[0].name + "." + first + " has no method or field " + ref.parts[1], true
	}
	var target *commentPkg
	if ip, imported := p.imports[first]; imported {
		target = m.byPath[ip]
	} else if first == p.name && p.name != "main" {
		target = p
	}
	if target == nil {
		return "", false
	}
	name := ref.parts[1]
	if !has(target.top, name, ref.prefix && last == 1) {
		return "package " + target.name + " declares no " + name, true
	}
	if target != p && !ast.IsExported(name) {
		return name + " is not exported by package " + target.name, true
	}
	if last >= 2 {
		if _, isType := target.types[name]; !isType {
			return "", true // pkg.Var.field: the variable's type is not looked up
		}
		if !m.hasMember(target, name, ref.parts[2], ref.prefix && last == 2, map[*commentType]bool{}) {
			return target.name + "." + name + " has no method or field " + ref.parts[2], true
		}
		if target != p && !ast.IsExported(ref.parts[2]) {
			return ref.parts[2] + " is not exported by package " + target.name, true
		}
	}
	return "", true
}

// has reports whether set holds name, or with prefix, a name that
// starts with it.
func has(set map[string]bool, name string, prefix bool) bool {
	if set[name] || !prefix {
		return set[name]
	}
	for n := range set {
		if strings.HasPrefix(n, name) {
			return true
		}
	}
	return false
}

func isAlnum(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// TestCommentRefTokens: which dotted names of a comment are taken for
// names of code, and which are paths, URLs, addresses or file names.
func TestCommentRefTokens(t *testing.T) {
	for text, want := range map[string]string{
		"see Model.View and sharing.State.Dialog()": "Model.View sharing.State.Dialog",
		"reads config.toml and .mcp.json":           "",
		"https://pkg.go.dev/consent.Root":           "",
		"ui/sharing.State, v1.2.3, e.g. this":       "e.g",
		"localhost:8080 or Hub.Events: the stream":  "Hub.Events",
		"codes (consent.Warn*), the mark":           "consent.Warn*",
		"a user@host.example or npm.example-co":     "",
	} {
		var got []string
		for _, r := range codeRefs(text) {
			if r.prefix {
				r.text += "*"
			}
			got = append(got, r.text)
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("codeRefs(%q) = %q, want %q", text, g, want)
		}
	}
}
