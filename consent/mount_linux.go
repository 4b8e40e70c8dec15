package consent

import (
	"bufio"
	"bytes"
	"os"
	"strings"
)

// mountsInside lists the mount points strictly inside dir, from
// /proc/self/mountinfo.
func mountsInside(dir string) []string {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	return mountsInsideIn(b, dir)
}

// mountsInsideIn is mountsInside over the text of a mountinfo file.
func mountsInsideIn(mountinfo []byte, dir string) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		// id parent major:minor root mount-point options ...
		f := strings.Fields(sc.Text())
		if len(f) < 5 {
			continue
		}
		if m := unescapeMount(f[4]); m != dir && Within(m, dir) {
			out = append(out, m)
		}
	}
	return out
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
