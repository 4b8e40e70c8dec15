package launch

import "fmt"

// Network says whether an enforced stdio server may use the network: a
// filesystem or git server needs none, and with it a consented folder
// could leave the machine. Off, the kernel refuses the server every IP
// socket (Policy.NoNetwork); unix sockets follow their own rule
// (policy_sockets.go). It applies where the server is enforced: an
// advisory server may use the network whatever the setting, and says so.
type Network string

// The values of Network.
const (
	// NetworkDefault is the default: NetworkOn.
	NetworkDefault Network = ""
	// NetworkOn lets the server open TCP and UDP connections.
	NetworkOn Network = "on"
	// NetworkOff refuses it every IP socket.
	NetworkOff Network = "off"
)

// ParseNetwork reads a network setting: on or off.
func ParseNetwork(s string) (Network, error) {
	switch n := Network(s); n {
	case NetworkOn, NetworkOff:
		return n, nil
	case NetworkDefault:
	}
	return "", fmt.Errorf("want on or off, got %q", s)
}

// Off reports whether the setting turns the network off.
func (n Network) Off() bool { return n == NetworkOff }

// offlineEnv tells the package runners an enforced server with the
// network off may start through to use their caches only: npm (npx, npm
// exec, and pnpm, which reads npm_config_*) and uv (uvx).
var offlineEnv = []string{"npm_config_offline=true", "UV_OFFLINE=1"}

// NetworkWords says in a few words what an enforced server may do on the
// network, for the pane and the dialog.
func (p Policy) NetworkWords() string {
	if p.NoNetwork {
		return "off (no TCP or UDP: IP sockets refused)"
	}
	return "on"
}
