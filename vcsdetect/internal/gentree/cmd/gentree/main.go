//go:build unix

// Command gentree writes a deterministic test tree for the scan benchmark
// (.ci/bench-scan) and the picker benchmark (.ci/bench-keys), and its
// manifest, one JSON object per repository.
//
//	go run ./vcsdetect/internal/gentree/cmd/gentree -dirs 200000 -repos 1500 -manifest M.jsonl DIR
//	go run ./vcsdetect/internal/gentree/cmd/gentree -short -dirs 100000 -repos 52000 -heavy 0 DIR
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"
	"unicode/utf8"

	"github.com/rootpick/rootpick/vcsdetect/internal/gentree"
)

func main() {
	var spec gentree.Spec
	flag.IntVar(&spec.Dirs, "dirs", 200_000, "ordinary folders to create")
	flag.IntVar(&spec.Repos, "repos", 1_500, "repositories and projects to create")
	flag.Float64Var(&spec.Heavy, "heavy", 0.1, "share of the folders inside heavy folders (node_modules, .venv, …)")
	flag.Uint64Var(&spec.Seed, "seed", 1, "seed: the same seed gives the same tree")
	flag.BoolVar(&spec.Short, "short", false, "short relative paths (about 20 characters: src/org10/repo7121) instead of a random deep tree (about 80 at 100,000 folders)")
	manifest := flag.String("manifest", "", "write the manifest (JSON Lines) to `FILE`")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gentree [flags] DIR (DIR must not exist)")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if _, err := os.Lstat(dir); err == nil {
		fmt.Fprintf(os.Stderr, "gentree: %s exists; remove it first\n", dir)
		os.Exit(1)
	}
	start := time.Now()
	m, err := gentree.Generate(dir, spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentree:", err)
		os.Exit(1)
	}
	if *manifest != "" {
		f, err := os.Create(*manifest)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gentree:", err)
			os.Exit(1)
		}
		enc := json.NewEncoder(f)
		for _, e := range m.Entries {
			if err := enc.Encode(e); err != nil {
				fmt.Fprintln(os.Stderr, "gentree:", err)
				os.Exit(1)
			}
		}
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "gentree:", err)
			os.Exit(1)
		}
	}
	var chars int
	for _, e := range m.Entries {
		chars += utf8.RuneCountInString(e.Rel)
	}
	fmt.Fprintf(os.Stderr, "gentree: %d folders (%d heavy), %d manifest entries (relative paths %.0f characters on average) in %v\n",
		m.Dirs, m.HeavyDirs, len(m.Entries), float64(chars)/float64(max(1, len(m.Entries))), time.Since(start).Round(time.Millisecond))
}
