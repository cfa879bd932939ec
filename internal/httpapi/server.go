package httpapi

import (
	"context"
	"io/fs"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/export"
	"github.com/quarrydata/quarry/internal/httpserve"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// Runner is what a request needs of the analyst: a question answered, or
// the user's own statement run, each recorded through rec.
type Runner interface {
	Ask(ctx context.Context, rec *event.Recorder, k *analyst.Knowledge, question string, asOf time.Time) (*analyst.AskOutcome, error)
	Run(ctx context.Context, rec *event.Recorder, sql string, sink analyst.RowSink) (*analyst.RunOutcome, error)
	RerunJudged(ctx context.Context, rec *event.Recorder, runs analyst.RunReader, k *analyst.Knowledge, id string) (export.Rerun, error)
}

// StartFunc opens what one run needs (the connection's analyst with its
// guard, limits and the shared result cache) and returns it with a release
// function the server calls when the run ends. It is the same runtime the
// CLI's ask and run use.
type StartFunc func(ctx context.Context) (Runner, func(), error)

// Store is what the server reads and writes in quarry's state database.
type Store interface {
	event.Sink
	Events(ctx context.Context, runID string) ([]event.Event, error)
	Run(ctx context.Context, runID string) (event.RunState, error)
	Runs(ctx context.Context, f store.RunFilter) ([]event.RunState, error)
	Result(ctx context.Context, id string) (*quarry.Table, error)
	CreateSession(ctx context.Context, sess store.Session) error
	Session(ctx context.Context, id string) (store.Session, error)
	Sessions(ctx context.Context, limit int) ([]store.Session, error)
	TouchSession(ctx context.Context, id, runID, title string, at time.Time) error
	ShareRun(ctx context.Context, sh store.Share) error
	UnshareRun(ctx context.Context, runID, with string) error
	RunShares(ctx context.Context, runID string) ([]store.Share, error)
}

// AskFunc answers a question, recording the run through rec, with the
// session's earlier turns in opts: the runtime's planner (a language
// model, the builtin planner, or in manual mode a proposed query), as
// `quarry ask` uses it.
type AskFunc func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error)

// Config is what a Server is built from. Start, Ask, Knowledge, Store,
// Addr, Clock and NewID are required.
type Config struct {
	Start StartFunc
	// Knowledge returns the knowledge folder as it is now (a server reads
	// it again when its files change), for judging reruns.
	Knowledge    func(ctx context.Context) (*analyst.Knowledge, error)
	KnowledgeDir string // the knowledge folder, for pending verified queries
	Store        Store
	Addr         string           // the bound address, host:port, as the listener reports it
	Clock        func() time.Time // stamps events, sessions and files
	NewID        func(prefix string) string
	Version      string
	Assets       fs.FS // the web UI's files; nil serves a short notice at /
	// Agent, when set, returns the agent for one run: manual mode (pasted
	// results) when it has no connection, fixes of the user's SQL when it
	// has a language model. nil: neither.
	Agent AgentFunc
	// Ask answers the questions of the chat and of POST /ask.
	Ask AskFunc
	// Arriving, when set, is told of each chat stream from the moment it
	// is admitted until its first event is sent (the func it returns is
	// called then, or when the stream ends first): the server's run slots
	// let those events out before runs start their work.
	Arriving func() (sent func())
	// Workflows serves the workflow editor (GET /api/workflows, POST
	// /api/workflows/check and /api/workflows/run); nil: the server has
	// none, and those answer 404.
	Workflows Workflows
	// Monitors serves the Monitors page (GET /api/monitors and the routes
	// under it); nil: the server has none, and those answer 404.
	Monitors   Monitors
	MaxStreams int           // runs in progress (streaming or queued); 0 = DefaultMaxStreams
	Workers    int           // runs doing work at once, the rest queue; 0 = one per CPU, at least 2
	RunTimeout time.Duration // how long one run may take; 0 = DefaultRunTimeout
	MaxBody    int64         // request body limit in bytes; 0 = DefaultMaxBody
	// MayApprove says whether the person asking may approve or refuse a
	// statement that waits for approval (internal/auth's rule: admins);
	// nil: no sign-in, and the local user decides.
	MayApprove MayApproveFunc
	// MayStart is nil when the person asking (in ctx) may start a run on
	// the server's connection (internal/auth's rule: their role, their
	// connections, their groups), else the KindForbidden error that says
	// why. A request that only reads asks it before it starts one (a
	// result read again from its run's SQL). Nil: no sign-in, anyone may.
	MayStart func(ctx context.Context) error
	// ApprovalWait is the longest a run may wait for approval, added to
	// RunTimeout for every run; 0: none.
	ApprovalWait time.Duration
	// Wrap, when set, wraps the routes behind the safety checks (Host,
	// cross-origin, body limit): sign-in and roles (internal/auth's Gate).
	Wrap func(http.Handler) http.Handler
	// PublicURL is where people open the server (server.public_url), behind
	// a proxy that terminates TLS and passes their Host on: its host is
	// answered as the server's own. "": only the bound address.
	PublicURL string
	// Tail wakes the streams of GET /api/runs/{id}/stream when a run's log
	// may have grown; nil: they poll the store.
	Tail Tailer
	// Ready reports whether the server can do its work (the state database
	// answers), for GET /readyz; nil: always.
	Ready func(ctx context.Context) error
}

// Tailer tells a stream when a run's log may have grown, whoever recorded
// it: PostgreSQL's notifications, or polling.
type Tailer interface {
	// Watch returns a channel that receives when runID's log may have
	// new events, and a func that stops watching.
	Watch(runID string) (<-chan struct{}, func())
}

// Defaults for Config.
const (
	DefaultMaxStreams = 32
	DefaultRunTimeout = 5 * time.Minute
	DefaultMaxBody    = 1 << 20
	previewRows       = 100 // rows in a preview: done.answer, /ask, /api/run
)

// Server serves quarry's HTTP API and web UI.
type Server struct {
	cfg    Config
	hosts  httpserve.Hosts // Host header values accepted
	cop    *http.CrossOriginProtection
	slots  chan struct{} // one per run in progress
	work   chan struct{} // one per run doing work
	runs   sync.WaitGroup
	mux    *http.ServeMux
	routed http.Handler // mux, wrapped by Config.Wrap
	charts svgCache
	// draining: the server takes no new runs (Drain).
	draining atomic.Bool
}

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Start == nil || cfg.Ask == nil || cfg.Knowledge == nil || cfg.Store == nil || cfg.Clock == nil || cfg.NewID == nil {
		return nil, quarry.Errorf(quarry.KindInternal, "httpapi: Start, Ask, Knowledge, Store, Clock and NewID are required")
	}
	hosts, ok := httpserve.NewHosts(cfg.Addr)
	if !ok {
		return nil, quarry.Errorf(quarry.KindUsage, "httpapi: the bound address %q is not host:port", cfg.Addr)
	}
	if cfg.PublicURL != "" {
		hosts = hosts.WithPublic(cfg.PublicURL)
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = DefaultMaxStreams
	}
	if cfg.Workers <= 0 {
		cfg.Workers = max(2, runtime.GOMAXPROCS(0))
	}
	if cfg.RunTimeout <= 0 {
		cfg.RunTimeout = DefaultRunTimeout
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	s := &Server{cfg: cfg, slots: make(chan struct{}, cfg.MaxStreams), work: make(chan struct{}, cfg.Workers), hosts: hosts, cop: http.NewCrossOriginProtection()}
	s.routes()
	s.routed = s.mux
	if cfg.Wrap != nil {
		s.routed = cfg.Wrap(s.mux)
	}
	return s, nil
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("POST /api/chat", s.chat)
	m.HandleFunc("POST /ask", s.ask)
	m.HandleFunc("POST /api/run", s.runSQL)
	m.HandleFunc("GET /api/runs", s.listRuns)
	m.HandleFunc("GET /api/runs/{id}", s.getRun)
	m.HandleFunc("GET /api/runs/{id}/events", s.getEvents)
	m.HandleFunc("GET /api/runs/{id}/stream", s.streamRun)
	m.HandleFunc("GET /api/runs/{id}/export", s.exportRun)
	m.HandleFunc("POST /api/runs/{id}/rerun", s.rerunRun)
	m.HandleFunc("GET /api/runs/{id}/shares", s.listShares)
	m.HandleFunc("POST /api/runs/{id}/shares", s.shareRun)
	m.HandleFunc("DELETE /api/runs/{id}/shares/{with}", s.unshareRun)
	m.HandleFunc("POST /api/runs/{id}/approve", s.approveRun)
	m.HandleFunc("POST /api/runs/{id}/refuse", s.refuseRun)
	m.HandleFunc("GET /api/approvals", s.listApprovals)
	m.HandleFunc("GET /api/results/{id}", s.getResult)
	m.HandleFunc("GET /api/sessions", s.listSessions)
	m.HandleFunc("GET /api/sessions/{id}", s.getSession)
	m.HandleFunc("POST /api/feedback", s.feedback)
	m.HandleFunc("GET /api/workflows", s.listWorkflows)
	m.HandleFunc("POST /api/workflows/check", s.checkWorkflow)
	m.HandleFunc("POST /api/workflows/run", s.runWorkflow)
	m.HandleFunc("GET /api/monitors", s.listMonitors)
	m.HandleFunc("GET /api/monitors/{name}/series", s.monitorSeries)
	m.HandleFunc("GET /api/monitors/{name}/alerts", s.monitorAlerts)
	m.HandleFunc("POST /api/monitors/{name}/mute", s.muteMonitor)
	m.HandleFunc("POST /api/monitors/{name}/test", s.testMonitor)
	m.HandleFunc("GET /api/health", s.health)
	m.HandleFunc("/", s.fallback)
	s.mux = m
}

// Handler returns the server's handler with every safety measure in front.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serve) }

// Wait blocks until every run started by a request has finished and been
// recorded, or ctx ends. A graceful shutdown calls it after the listener
// has stopped taking requests.
func (s *Server) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { s.runs.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// securityHeaders are sent with every response.
var securityHeaders = [][2]string{
	{"Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "no-referrer"},
	{"X-Frame-Options", "DENY"},
	{"Cross-Origin-Opener-Policy", "same-origin"},
	{"Cross-Origin-Resource-Policy", "same-origin"},
}

// serve applies the safety measures, then routes.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for _, kv := range securityHeaders {
		h.Set(kv[0], kv[1])
	}
	// A load balancer's probes come by address, without a Host this
	// server knows and without sign-in; they learn one word.
	if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
		s.probe(w, r)
		return
	}
	if !s.hosts.Allowed(r.Host) {
		writeErrorStatus(w, http.StatusForbidden, quarry.Errorf(quarry.KindForbidden,
			"Host %q is not this server; quarry answers only on its own address and localhost (DNS rebinding protection)", r.Host))
		return
	}
	api := strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/ask"
	// net/http's CrossOriginProtection refuses cross-origin requests with
	// unsafe methods (Sec-Fetch-Site, else Origin against Host). It lets
	// GET and HEAD through by design; the API's GETs return runs and
	// results, so a cross-site read of them is refused too.
	why := ""
	if err := s.cop.Check(r); err != nil {
		// Say which header gave it away in quarry's words when it is the
		// Origin; net/http's own reason otherwise.
		if why = crossSiteRead(r); why == "" {
			why = err.Error()
		}
	} else if api {
		why = crossSiteRead(r)
	}
	if why != "" {
		writeErrorStatus(w, http.StatusForbidden, quarry.Errorf(quarry.KindForbidden, "cross-origin request refused: %s", why))
		return
	}
	if api || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		h.Set("Cache-Control", "no-store")
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	if r.ContentLength > s.cfg.MaxBody {
		writeErrorStatus(w, http.StatusRequestEntityTooLarge, quarry.Errorf(quarry.KindInput, "the body is over the limit of %d bytes", s.cfg.MaxBody))
		return
	}
	s.routed.ServeHTTP(w, r)
}

// crossSiteRead says why a safe-method request to the API comes from
// another site, or "".
func crossSiteRead(r *http.Request) string {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return "Sec-Fetch-Site is " + site
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host && o != "https://"+r.Host {
		return "Origin " + o + " is not this server"
	}
	return ""
}

// inSlot runs fn in a run slot, on the request's run context (detached
// from the client, bounded by RunTimeout) and counted for Wait. When every
// slot is in use it answers 429, and while the server drains 503, and
// reports false without running fn.
func (s *Server) inSlot(w http.ResponseWriter, r *http.Request, fn func(ctx context.Context)) bool {
	if !s.admit(w) {
		return false
	}
	ctx, cancel := s.runContext(r)
	s.runs.Add(1)
	defer s.runs.Done()
	defer s.release()
	defer cancel()
	fn(ctx)
	return true
}

// admit takes a run slot for a new run, or answers 503 while the server
// drains and 429 when every slot is in use, and reports false.
func (s *Server) admit(w http.ResponseWriter) bool {
	if s.draining.Load() {
		draining(w)
		return false
	}
	if !s.acquire() {
		tooBusy(w, s.cfg.MaxStreams)
		return false
	}
	return true
}

// acquire takes a run slot, or reports false when every slot is in use.
func (s *Server) acquire() bool {
	select {
	case s.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

func (s *Server) release() { <-s.slots }

// start waits for a worker, then opens what a run needs. Runs queue here
// rather than all at once, so that a burst of requests still gets its
// first events at once and the CPUs go to a few runs at a time. The
// returned func releases the runner and the worker.
func (s *Server) start(ctx context.Context) (Runner, func(), error) {
	select {
	case s.work <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, quarry.Wrap(quarry.KindTimeout, ctx.Err(), "the run waited too long for its turn; try again")
	}
	runner, closeRun, err := s.cfg.Start(ctx)
	if err != nil {
		<-s.work
		return nil, nil, err
	}
	return runner, func() { closeRun(); <-s.work }, nil
}

// tooBusy answers 429 when the cap on concurrent runs is reached.
func tooBusy(w http.ResponseWriter, max int) {
	w.Header().Set("Retry-After", "1")
	writeErrorStatus(w, http.StatusTooManyRequests, quarry.Errorf(quarry.KindTooCostly,
		"%d runs are already in progress, the most this server takes at once; retry in a moment", max))
}

// health answers {"ok": true, "version"} and nothing else.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "version": s.cfg.Version})
}

// fallback answers what no route took: the web UI's files for GET, and a
// JSON error for everything else.
func (s *Server) fallback(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/ask":
		writeError(w, quarry.Errorf(quarry.KindNotFound, "no API route %s %s; see docs/api.md", r.Method, r.URL.Path))
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		w.Header().Set("Allow", "GET, HEAD")
		writeErrorStatus(w, http.StatusMethodNotAllowed, quarry.Errorf(quarry.KindUsage, "%s %s: only GET reads the web UI", r.Method, r.URL.Path))
	default:
		s.static(w, r)
	}
}

// static serves the web UI's files.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Assets == nil {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("quarry serve: the API is at /api/ (docs/api.md); this build has no web UI.\n"))
		return
	}
	p := r.URL.Path
	if p != "/" && !exists(s.cfg.Assets, p) {
		p = strings.TrimPrefix(p, "/assets")
		if !strings.HasPrefix(r.URL.Path, "/assets/") || !exists(s.cfg.Assets, p) {
			http.NotFound(w, r)
			return
		}
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = p
	http.FileServerFS(s.cfg.Assets).ServeHTTP(w, r2)
}

func exists(fsys fs.FS, p string) bool {
	fi, err := fs.Stat(fsys, strings.TrimPrefix(p, "/"))
	return err == nil && !fi.IsDir()
}

// runContext returns the context a run goes on: detached from the request,
// so that a client going away stops only its stream, with its own timeout.
func (s *Server) runContext(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(r.Context()), s.cfg.RunTimeout+s.cfg.ApprovalWait)
}
