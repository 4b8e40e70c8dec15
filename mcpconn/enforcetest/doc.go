// Package enforcetest holds the tests of the boundary as a person meets
// it: a server started by the picker's hub (mcpconn) or by rootpick proxy
// (mcpconn/proxy), held by the kernel (mcpconn/launch) to the consented
// folders, tried from inside by servers that probe what they can open,
// connect to and change. It has no code of its own; it has its own
// folder because its tests need the hub, the proxy and launch at once,
// through their exported names only, and the proxy imports the hub.
package enforcetest
