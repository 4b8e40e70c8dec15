package mcpconn

// landlockResolveUnixABI is the first Landlock ABI that holds connect(2)
// to a pathname unix socket (LANDLOCK_ACCESS_FS_RESOLVE_UNIX, Linux 7.0).
const landlockResolveUnixABI = 9

// sockets returns the unix sockets the person allowed this server on
// purpose (allow-socket).
func (p Policy) sockets() []string {
	var out []string
	for _, pp := range p.Paths {
		if pp.Why == WhyAllowSocket {
			out = append(out, pp.Path)
		}
	}
	return out
}

// WhyAllowSocket is why a unix socket is in a Policy: the person allowed
// the server to connect to it (allow-socket).
const WhyAllowSocket = "allow-socket"
