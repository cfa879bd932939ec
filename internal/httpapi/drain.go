package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Drain makes the server take no new runs: requests that would start one
// get 503 with Retry-After, and GET /readyz answers 503, so that a load
// balancer sends them elsewhere. Runs in progress go on (Wait), and so do
// reads and streams of runs.
func (s *Server) Drain() { s.draining.Store(true) }

// draining answers 503 to a request for a new run while the server drains.
func draining(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "5")
	writeErrorStatus(w, http.StatusServiceUnavailable, quarry.Errorf(quarry.KindConnection,
		"this server is shutting down and takes no new runs; retry in a moment"))
}

// probeTimeout bounds the state check of GET /readyz.
const probeTimeout = 2 * time.Second

// probe answers GET /healthz (the process serves: always 200) and GET
// /readyz (200 when it takes new runs and the state database answers, else
// 503), as one word of text: nothing a stranger may not know.
func (s *Server) probe(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path == "/readyz" {
		if s.draining.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte("draining\n"))
			return
		}
		if s.cfg.Ready != nil {
			ctx, cancel := context.WithTimeout(r.Context(), probeTimeout)
			defer cancel()
			if s.cfg.Ready(ctx) != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				w.Write([]byte("unready\n"))
				return
			}
		}
	}
	w.Write([]byte("ok\n"))
}
