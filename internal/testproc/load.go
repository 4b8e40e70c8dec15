package testproc

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

// LoadFactor is the machine's load (the first field of /proc/loadavg)
// and that load per core; 0, 0 where it cannot be read.
func LoadFactor() (load, perCore float64) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, 0
	}
	if _, err := fmt.Sscan(string(b), &load); err != nil {
		return 0, 0
	}
	return load, load / float64(runtime.NumCPU())
}

// LoadScaled is d times the load per core when that is above 1: a bound
// measured on an idle machine, held on a loaded one in proportion, so
// that only a hang, not the load, reaches it.
func LoadScaled(d time.Duration) time.Duration {
	if _, f := LoadFactor(); f > 1 {
		return time.Duration(f * float64(d))
	}
	return d
}
