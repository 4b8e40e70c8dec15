package style

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rootpick/rootpick/consent"
)

// Plural is n with its noun: "1 root", "3 roots".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Noun is one when n is 1, else many (the number is written apart).
func Noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Home shortens the home folder to ~.
func Home(p string) string {
	h, err := consent.HomeDir()
	if err != nil || h == "/" {
		return p
	}
	if p == h {
		return "~"
	}
	if strings.HasPrefix(p, h+string(filepath.Separator)) {
		return "~" + p[len(h):]
	}
	return p
}

// RelPath shows p relative to dir when it is inside it.
func RelPath(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return rel
	}
	return p
}
