// Command sampleworkspace writes the sample workspace of rootpick demo
// into DIR and prints what it made and how long it took: for the README's
// screenshots (.ci/screenshots), for trying rootpick's other commands on
// it, and for timing Create on its own.
//
//	go run ./internal/sampleworkspace/cmd/sampleworkspace [-now TIME] DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/rootpick/rootpick/internal/sampleworkspace"
)

func main() {
	now := flag.String("now", "", "count the commit dates back from `TIME` (RFC 3339) instead of now: the same TIME gives the same commits")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: sampleworkspace [-now TIME] DIR (DIR absent or empty)")
		os.Exit(2)
	}
	at := time.Now()
	if *now != "" {
		var err error
		if at, err = time.Parse(time.RFC3339, *now); err != nil {
			fmt.Fprintln(os.Stderr, "sampleworkspace: -now:", err)
			os.Exit(2)
		}
	}
	start := time.Now()
	info, err := sampleworkspace.CreateAt(flag.Arg(0), at)
	took := time.Since(start)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sampleworkspace:", err)
		os.Exit(1)
	}
	for _, r := range info.Repos {
		fmt.Printf("%-10s %s\n", r.Kind, r.Rel)
	}
	fmt.Fprintf(os.Stderr, "sampleworkspace: %d repositories in %s, written in %v\n", len(info.Repos), info.Dir, took.Round(time.Millisecond))
}
