package main

import "github.com/rootpick/rootpick/mcpconn/launch"

// init, not main, hands over to a server's guard: it must run before the
// command line is parsed (a guard's arguments are its server's command),
// and in the test binary of this package too, which runs rootpick in
// process and is then re-executed as the guard of the servers it starts.
// In any other run GuardMain returns at once, and rootpick's stdio servers
// (the picker's and the proxy's) are started under a guard that ends each
// server's whole tree should rootpick die, even by SIGKILL
// (see launch.GuardMain).
func init() { launch.GuardMain() }
