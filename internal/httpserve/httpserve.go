// Package httpserve builds the http.Server every quarry server runs on
// (quarry serve, and quarry mcp and quarry connector with --http), with
// bounds on how long a client may take to send a request and how large
// its headers may be, and the Host check (Hosts) both servers apply
// against DNS rebinding.
//
// Reading is bounded, writing is not: quarry streams long responses (the
// chat's server-sent events, MCP's event streams), so there is no write
// timeout. A request's whole read, headers and body, must finish within
// ReadTimeout. net/http lifts that deadline once the handler has read
// the body to its end (its background read, which watches for the client
// hanging up, runs without one), so a long response is not cut short;
// the tests hold that.
package httpserve

import (
	"net/http"
	"time"
)

// Limits bound one server.
type Limits struct {
	// ReadTimeout is the longest a client may take to send one request,
	// headers and body, counted from the request's first byte. 0 means
	// DefaultReadTimeout.
	ReadTimeout time.Duration
	// IdleTimeout is how long a keep-alive connection may wait for its
	// next request. 0 means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds the request line and headers. 0 means
	// DefaultMaxHeaderBytes.
	MaxHeaderBytes int
}

// Defaults of Limits.
const (
	DefaultReadTimeout    = 10 * time.Second
	DefaultIdleTimeout    = 2 * time.Minute
	DefaultMaxHeaderBytes = 64 << 10
)

// New returns a server for h with the limits l.
func New(h http.Handler, l Limits) *http.Server {
	if l.ReadTimeout <= 0 {
		l.ReadTimeout = DefaultReadTimeout
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = DefaultIdleTimeout
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadTimeout,
		ReadTimeout:       l.ReadTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
	}
}
