package mcpconn

import (
	"io"
	"net/http"
	"sync"

	"github.com/quarrydata/quarry/internal/quarry"
)

// httpGuard records why a response from an HTTP server was refused.
type httpGuard struct {
	max int64

	mu     sync.Mutex
	reason string
	huge   bool
}

func (g *httpGuard) why() (string, quarry.Kind) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.reason == "" {
		return "", ""
	}
	if g.huge {
		return g.reason, quarry.KindQuery
	}
	return g.reason, quarry.KindConnection
}

// guardTransport adds the configured headers to every request and checks
// every response body while it is read: at most max bytes, valid UTF-8.
type guardTransport struct {
	base    http.RoundTripper
	headers map[string]string
	g       *httpGuard
}

func (t *guardTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = &guardBody{rc: resp.Body, guard: newGuard(resp.Body, t.g.max, false), g: t.g}
	return resp, nil
}

// guardBody reads a response body through a guard and reports a refusal
// to the connection's httpGuard.
type guardBody struct {
	rc    io.ReadCloser
	guard *guard
	g     *httpGuard
}

func (b *guardBody) Read(p []byte) (int, error) {
	n, err := b.guard.Read(p)
	if err == errRefused {
		b.g.mu.Lock()
		if b.g.reason == "" {
			b.g.reason, b.g.huge = b.guard.failed()
		}
		b.g.mu.Unlock()
	}
	return n, err
}

func (b *guardBody) Close() error { return b.rc.Close() }
