//go:build linux

package procinfo

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// PIDNamespace is this process's PID namespace, the inode number that
// /proc/self/ns/pid names ("pid:[4026531836]"), or "" if unreadable.
func PIDNamespace() string {
	link, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	n, ok1 := strings.CutPrefix(link, "pid:[")
	n, ok2 := strings.CutSuffix(n, "]")
	if !ok1 || !ok2 {
		return ""
	}
	if _, err := strconv.ParseUint(n, 10, 64); err != nil {
		return ""
	}
	return n
}

// StartTime is pid's start time in clock ticks since boot, the 22nd field
// of /proc/PID/stat, or "" when it cannot be read.
func StartTime(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// comm, the second field, may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return ""
	}
	return f[19]
}
