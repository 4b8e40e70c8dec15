package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// notInBinary are packages rootpick's binary once compiled for nothing:
// 87 of 447 packages, about 6 s of the 53 s of compiler CPU a cold build
// takes ("Build cost" in docs/performance.md). Tests may use them.
var notInBinary = []struct {
	path  string
	exact bool // the package itself, not those below it
	why   string
}{
	{"github.com/go-git/go-git/v5", true, "go-git's top-level package links its transports (ssh, http) and plumbing/object; " +
		"vcsdetect/gitrepo.go and internal/sampleworkspace read and write repositories with the storage layer instead"},
	{"github.com/go-git/go-git/v5/plumbing/object", false, "it links OpenPGP (ProtonMail/go-crypto, cloudflare/circl) to verify signatures; " +
		"vcsdetect/gitrepo.go decodes commits and trees itself"},
	{"github.com/go-git/go-git/v5/plumbing/transport", false, "rootpick fetches and pushes nothing"},
	{"github.com/ProtonMail/go-crypto", false, "OpenPGP, only for signed commits, which rootpick does not verify"},
	{"github.com/cloudflare/circl", false, "post-quantum and curve crypto for OpenPGP"},
	{"golang.org/x/crypto", false, "ssh and OpenPGP crypto for go-git's transports and signatures"},
	{"github.com/emirpasic/gods", false, "containers for plumbing/object's commit walks"},
	{"github.com/skeema/knownhosts", false, "go-git's ssh transport"},
	{"github.com/xanzy/ssh-agent", false, "go-git's ssh transport"},
	{"github.com/kevinburke/ssh_config", false, "go-git's ssh transport"},
	{"github.com/golang/groupcache", false, "go-git's http transport"},
	{"dario.cat/mergo", false, "go-git's top-level package (merging options)"},
	// What only tests may use: their helpers, their servers, the test
	// hook a test build adds (testpanic_e2e.go, build tag e2e).
	{"testing", false, "the standard library's test framework: a package of the binary that imports it is a test helper"},
	{"github.com/rootpick/rootpick/internal/testproc", false, "the tests' process and wait helpers"},
	{"github.com/rootpick/rootpick/internal/testskip", false, "the tests' skip ledger"},
	{"github.com/rootpick/rootpick/mcpconn/faultserver", false, "the servers that misbehave on purpose for the tests"},
	{"github.com/rootpick/rootpick/mcpconn/enforcetest", false, "tests only"},
	{"github.com/rootpick/rootpick/vcsdetect/internal/gentree", false, "the trees the benchmarks and tests walk"},
	{"github.com/charmbracelet/x/vt", false, "the terminal emulator internal/screen's tests draw on"},
}

// TestBinaryLeavesOutUnusedDependencies keeps the packages that made a
// cold build slower for nothing out of the binary, for each system it
// is built for, and names the import chain that brought one back.
func TestBinaryLeavesOutUnusedDependencies(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		t.Run(goos, func(t *testing.T) {
			cfg := &packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps,
				Env: append(os.Environ(), "GOOS="+goos, "GOARCH=amd64")}
			roots, err := packages.Load(cfg, ".")
			if err != nil {
				t.Fatal(err)
			}
			if packages.PrintErrors(roots) > 0 {
				t.Fatal("the root package does not load")
			}
			// from records, for each package, the one that first
			// imported it, to name the chain.
			from := map[string]string{}
			var all []string
			packages.Visit(roots, func(p *packages.Package) bool {
				all = append(all, p.PkgPath)
				for _, imp := range p.Imports {
					if _, ok := from[imp.PkgPath]; !ok {
						from[imp.PkgPath] = p.PkgPath
					}
				}
				return true
			}, nil)
			t.Logf("%d packages", len(all))
			slices.Sort(all)
			for _, no := range notInBinary {
				var found []string
				for _, path := range all {
					if path == no.path || !no.exact && strings.HasPrefix(path, no.path+"/") {
						found = append(found, path)
					}
				}
				if len(found) == 0 {
					continue
				}
				chain := []string{found[0]}
				for p := found[0]; from[p] != ""; p = from[p] {
					chain = append(chain, from[p])
				}
				slices.Reverse(chain)
				t.Errorf("%s (%d packages) is in the binary again, through\n\t%s\nIt should not be: %s. "+
					"If it has to come back, measure the cold build again, say so in docs/performance.md (Build cost) and change this test.",
					no.path, len(found), strings.Join(chain, "\n\t→ "), no.why)
			}
		})
	}
}
