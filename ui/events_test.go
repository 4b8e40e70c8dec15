package ui

import "github.com/rootpick/rootpick/mcpconn"

func connectedEvent(label, name string) mcpconn.Event {
	return mcpconn.Event{Server: label, Kind: mcpconn.Connected, ServerName: name}
}

func fetchedEvent(label string, uris ...string) mcpconn.Event {
	return mcpconn.Event{Server: label, Kind: mcpconn.Fetched, URIs: uris}
}
