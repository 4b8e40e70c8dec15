package faultserver

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
)

// ReadPids returns the pids written to file so far, one a line (fault
// servers write theirs so that tests can watch them).
func ReadPids(file string) []int {
	b, _ := os.ReadFile(file)
	var pids []int
	for _, l := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(l); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

// stat returns the fields of /proc/PID/stat after the command name:
// state, ppid, pgrp, … (nil if there is no such process).
func stat(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(b, ')') // the name may hold spaces and parens
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// Running reports whether pid is a live process; a zombie is not.
func Running(pid int) bool {
	f := stat(pid)
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// ChildrenOf lists the live children of pid.
func ChildrenOf(pid int) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := stat(n); len(f) > 1 && f[1] == strconv.Itoa(pid) && f[0] != "Z" && f[0] != "X" {
			out = append(out, n)
		}
	}
	return out
}

// PidsWith lists the live processes whose command line holds s, but not a
// tmux server (it keeps the command line of the session it started).
func PidsWith(s string) []string { return pids("", s) }

// PidsOf lists the live processes running program argv0 whose command line
// holds s (not, say, the rootpick or shell that has s in its arguments).
func PidsOf(argv0, s string) []string { return pids(argv0, s) }

func pids(argv0, s string) []string {
	return Find(func(argv []string) bool {
		first := argv[0]
		if argv0 != "" && first != argv0 || first == "tmux" || strings.HasSuffix(first, "/tmux") {
			return false
		}
		return strings.Contains(strings.Join(argv, "\x00"), s)
	})
}

// Find lists, in order, the live processes whose arguments match, less
// every process that is a copy of its parent, also found, caught between
// fork and exec. Between fork and exec a child shares its parent's memory,
// so /proc shows it with exactly its parent's command line (Go's os/exec
// forks with CLONE_VM): a search by command line also finds, for a moment,
// each child the process is starting, and once pids wrap around such a
// child can come first. Signalling it instead of its parent is a lost
// signal. A child whose command line merely holds the same words (a server
// under its guard, a shell's command) is kept.
func Find(match func(argv []string) bool) []string {
	found := map[int]string{} // pid: its command line when it matched
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || len(b) == 0 || !match(strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")) {
			continue
		}
		found[n] = string(b)
	}
	var out []int
	for pid, cmdline := range found {
		f := stat(pid) // read after the match: a process ended since is left out
		if len(f) < 2 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); found[ppid] == cmdline {
			continue
		}
		out = append(out, pid)
	}
	slices.Sort(out)
	pids := make([]string, len(out))
	for i, p := range out {
		pids[i] = strconv.Itoa(p)
	}
	return pids
}
