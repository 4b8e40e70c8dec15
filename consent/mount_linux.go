package consent

import (
	"bufio"
	"bytes"
	"os"
	"strings"
)

// mountNear reports a mount point strictly inside dir that p is in or that
// is inside p: sharing p then shares (part of) another file system, which
// may be anything — a bind mount of the home folder, of /etc, a network
// share. It reads /proc/self/mountinfo; the mount point returned is the
// one nearest to p.
func mountNear(p, dir string) (string, bool) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", false
	}
	return mountNearIn(b, p, dir)
}

// mountNearIn is mountNear over the text of a mountinfo file.
func mountNearIn(mountinfo []byte, p, dir string) (string, bool) {
	best := ""
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		// id parent major:minor root mount-point options ...
		f := strings.Fields(sc.Text())
		if len(f) < 5 {
			continue
		}
		m := unescapeMount(f[4])
		if m == dir || !Within(m, dir) {
			continue
		}
		// The one nearest to p: the deepest at or above it, else the
		// shallowest below it.
		switch above := best != "" && Within(p, best); {
		case Within(p, m):
			if !above || len(m) > len(best) {
				best = m
			}
		case Within(m, p):
			if best == "" || (!above && len(m) < len(best)) {
				best = m
			}
		}
	}
	return best, best != ""
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space, \011,
// \012, \134) in a path.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }
