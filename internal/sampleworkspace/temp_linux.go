//go:build linux

package sampleworkspace

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processStart is pid's start time in clock ticks since boot, from
// /proc/PID/stat (its 22nd field), or "" when it cannot be read.
func processStart(pid int) string {
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

// processAlive reports whether pid runs and, when start is known, is the
// process that started then (not a later one given the same pid).
func processAlive(pid int, start string) bool {
	now := processStart(pid)
	if now == "" {
		return false
	}
	return start == "" || now == start
}

// ownFolder reports whether dir belongs to the person running rootpick.
func ownFolder(dir string) bool {
	var st syscall.Stat_t
	return syscall.Lstat(dir, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFDIR && int(st.Uid) == os.Geteuid()
}

// pidNamespace is this process's PID namespace, the inode number that
// /proc/self/ns/pid names ("pid:[4026531836]"), or "" if unreadable.
func pidNamespace() string {
	link, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(link, "pid:["), "]")
}
