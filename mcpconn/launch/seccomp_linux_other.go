//go:build linux && !amd64 && !arm64

package launch

// No table of system calls for this architecture: installSeccomp refuses,
// so an enforced server does not start here (the boundary fails closed).
const (
	seccompArch   = 0
	seccompX32Bit = 0
)

var (
	seccompMode  = map[uint32]seccompCall{}
	seccompTimes = map[uint32]seccompCall{}
	seccompOwner []uint32
	seccompXattr []uint32
)
