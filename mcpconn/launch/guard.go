package launch

import "sync/atomic"

// guardName is a server guard's argv[0] (see GuardMain): it tells
// GuardMain to act as one, and tells a guard apart in ps and in the tests.
const guardName = "rootpick-guard"

// guardEnabled is set by GuardMain on Linux: this program can act as a
// guard, so servers are started under one. Elsewhere it stays false.
var guardEnabled atomic.Bool
