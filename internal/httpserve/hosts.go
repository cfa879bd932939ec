package httpserve

import (
	"net"
	"net/url"
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

// WithPublic returns h that also answers to the host of publicURL
// (http:// or https://, as server.public_url gives it): the name people
// open the server at behind a TLS-terminating proxy that passes their Host
// on. A URL with no host changes nothing.
func (h Hosts) WithPublic(publicURL string) Hosts {
	u, err := url.Parse(publicURL)
	if err != nil || u.Hostname() == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return h
	}
	names := make(map[string]bool, len(h.names)+2)
	for n := range h.names {
		names[n] = true
	}
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
		names[strings.ToLower(u.Hostname())] = true
	}
	names[strings.ToLower(net.JoinHostPort(u.Hostname(), port))] = true
	h.names = names
	return h
}
