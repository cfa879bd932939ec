package httpserve

import (
	"net"
	"strings"
)

// Hosts is the set of Host header values a server bound to one address
// answers to: the bound host and localhost's names on the bound port, and,
// for a server bound to every interface, any IP literal on that port.
// Every other Host is refused, so that a web page cannot reach a local
// quarry through a DNS name it controls (DNS rebinding).
type Hosts struct {
	names map[string]bool
	anyIP bool
	port  string
}

// NewHosts returns the Hosts of a server bound to addr (host:port, as the
// listener reports it); ok is false when addr has no port.
func NewHosts(addr string) (h Hosts, ok bool) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" || port == "0" {
		return Hosts{}, false
	}
	h = Hosts{names: map[string]bool{}, port: port}
	for _, n := range []string{"localhost", "127.0.0.1", "::1", host} {
		h.names[strings.ToLower(net.JoinHostPort(n, port))] = true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		h.anyIP = true
	}
	return h, true
}

// Allowed reports whether a request's Host header names this server.
func (h Hosts) Allowed(host string) bool {
	host = strings.ToLower(host)
	if h.names[host] {
		return true
	}
	if !h.anyIP {
		return false
	}
	name, port, err := net.SplitHostPort(host)
	return err == nil && port == h.port && net.ParseIP(strings.Trim(name, "[]")) != nil
}
