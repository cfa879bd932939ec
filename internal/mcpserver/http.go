package mcpserver

import (
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/quarry"
)

// HTTPPath is where the streamable HTTP transport is served.
const HTTPPath = "/mcp"

// HTTPHandler serves srv over the streamable HTTP transport at HTTPPath.
// addr is the bound address (host:port, as the listener reports it):
// requests whose Host header names anything else than it or localhost are
// refused (DNS rebinding protection), and so are cross-origin requests
// from browsers.
func HTTPHandler(srv *mcp.Server, addr string) (http.Handler, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" || port == "0" {
		return nil, quarry.Errorf(quarry.KindUsage, "mcpserver: the bound address %q is not host:port", addr)
	}
	g := &hostGuard{hosts: map[string]bool{}, port: port}
	for _, h := range []string{"localhost", "127.0.0.1", "::1", host} {
		g.hosts[strings.ToLower(net.JoinHostPort(h, port))] = true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		g.anyIP = true
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		SessionTimeout:      30 * time.Minute,
		MaxRequestBodyBytes: 4 << 20,
	})
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, http.NewCrossOriginProtection().Handler(h))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "quarry mcp: the MCP endpoint is "+HTTPPath, http.StatusNotFound)
	})
	g.next = mux
	return g, nil
}

// hostGuard refuses requests whose Host header is not the server's own.
type hostGuard struct {
	hosts map[string]bool
	anyIP bool // bound to every interface: accept IP literals on the bound port
	port  string
	next  http.Handler
}

func (g *hostGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.allowed(r.Host) {
		http.Error(w, "Host "+r.Host+" is not this server; quarry answers only on its own address and localhost (DNS rebinding protection)", http.StatusForbidden)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	g.next.ServeHTTP(w, r)
}

func (g *hostGuard) allowed(host string) bool {
	host = strings.ToLower(host)
	if g.hosts[host] {
		return true
	}
	if !g.anyIP {
		return false
	}
	h, p, err := net.SplitHostPort(host)
	return err == nil && p == g.port && net.ParseIP(strings.Trim(h, "[]")) != nil
}
