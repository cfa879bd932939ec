package httpapi

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/ids"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/resultcache"
	"github.com/quarrydata/quarry/internal/sqlguard"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// asOf anchors relative dates in the tests.
const asOf = "2025-12-31"

// shop is a small project: a SQLite database of 50,000 orders, the
// knowledge folder of testdata/knowledge (copied, so feedback can write to
// it), and a state database.
type shop struct {
	dir, db, knowledge, state string
}

// shopDB is the shop's database, built once per test binary: filling
// 50,000 rows takes seconds under the race detector, copying the file none.
var shopDB struct {
	sync.Once
	dir string
	err error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shopDB.dir != "" {
		_ = os.RemoveAll(shopDB.dir)
	}
	os.Exit(code)
}

func newShop(t *testing.T) *shop {
	t.Helper()
	shopDB.Do(func() {
		if shopDB.dir, shopDB.err = os.MkdirTemp("", "quarry-httpapi-shop-"); shopDB.err != nil {
			return
		}
		db, err := sqlite3.Open(filepath.Join(shopDB.dir, "shop.db"))
		if err != nil {
			shopDB.err = err
			return
		}
		shopDB.err = db.Exec(`
CREATE TABLE orders (id INTEGER PRIMARY KEY, ordered_at TIMESTAMP, amount REAL, status TEXT, country TEXT);
WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 50000)
INSERT INTO orders SELECT x, datetime('2025-01-01', '+' || (x % 365) || ' days'), round(x % 997 * 1.5, 2),
  CASE x % 4 WHEN 0 THEN 'refunded' ELSE 'completed' END,
  CASE x % 3 WHEN 0 THEN 'Finland' WHEN 1 THEN 'Germany' ELSE 'Spain' END FROM s;`)
		if err := db.Close(); shopDB.err == nil {
			shopDB.err = err
		}
	})
	if shopDB.err != nil {
		t.Fatal(shopDB.err)
	}
	dir := t.TempDir()
	s := &shop{dir: dir, db: filepath.Join(dir, "shop.db"), knowledge: filepath.Join(dir, "knowledge"), state: filepath.Join(dir, "state.db")}
	b, err := os.ReadFile(filepath.Join(shopDB.dir, "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(s.knowledge, os.DirFS("testdata/knowledge")); err != nil {
		t.Fatal(err)
	}
	return s
}

// options change a test server.
type options struct {
	maxStreams int
	guard      analyst.Guard   // instead of the real guard
	gate       <-chan struct{} // when set, every run waits for it before it starts
	assets     fs.FS
	// manual serves the shop as a project without a connection: chat
	// questions get a proposed query, through the agent.
	manual bool
	// model, when set, is the language model of the agent (the fixer of
	// /api/run).
	model agent.Gateway
	// workflows, when set, is what the workflow editor's endpoints serve.
	workflows Workflows
	// monitors, when set, makes what the Monitors page's endpoints serve,
	// over the server's own analyst and knowledge.
	monitors func(start StartFunc, k *analyst.Knowledge, st Store) Monitors
	// around, when set, gives the store the server uses and the wrapper
	// of its routes (sign-in and roles), as quarry serve sets them.
	around func(st *sqlitestate.Store) (Store, func(http.Handler) http.Handler)
	// approval, when set, is the language model that answers questions,
	// every statement it has run waiting for a person's approval (polling
	// the state database); mayApprove is who may decide.
	approval   agent.Gateway
	mayApprove MayApproveFunc
	// mayStart is Config.MayStart.
	mayStart func(ctx context.Context) error
	// ready, when set, is the server's readiness check (GET /readyz).
	ready func(ctx context.Context) error
	// publicURL is server.public_url.
	publicURL string
	// arriving is Config.Arriving.
	arriving func() func()
}

// testServer is a running server over a shop.
type testServer struct {
	*shop
	srv   *Server
	ts    *httptest.Server
	st    *sqlitestate.Store
	base  string
	host  string
	close func()
}

// serve starts a Server on a loopback port over sh, as quarry serve does.
func serve(t *testing.T, sh *shop, o options) *testServer {
	t.Helper()
	ctx := context.Background()
	st, err := sqlitestate.Open(ctx, sh.state)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := sqlite.Open(ctx, sh.db, sqlite.Options{Name: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := guard.New(sqlguard.Options{Dialect: quarry.DialectSQLite})
	if err != nil {
		t.Fatal(err)
	}
	var gd analyst.Guard = g
	if o.guard != nil {
		gd = o.guard
	}
	f, err := knowledge.Load(sh.knowledge)
	if err != nil {
		t.Fatal(err)
	}
	var verified []planner.Verified
	for _, v := range f.Verified {
		verified = append(verified, planner.Verified{Question: v.Question, SQL: v.SQL})
	}
	k := &analyst.Knowledge{Model: f.Model, Planner: planner.New(f.Model, verified), Hash: f.Hash, Currency: "$"}
	cache := resultcache.New(time.Minute, 1<<20, time.Now)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gate := o.gate
	var agentFn AgentFunc
	start := func(ctx context.Context) (Runner, func(), error) {
		if gate != nil {
			<-gate
		}
		return &analyst.Analyst{Conn: conn, Guard: gd, Results: st, Limits: analyst.Limits{MaxRows: 100_000},
			Connection: "shop", Clock: time.Now, Cache: cache}, func() {}, nil
	}
	switch {
	case o.manual:
		mg, err := guard.New(sqlguard.Options{Dialect: quarry.DialectGeneric})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { mg.Close() })
		start = func(context.Context) (Runner, func(), error) {
			return nil, nil, quarry.Errorf(quarry.KindConfig, "no connection is configured")
		}
		agentFn = func(context.Context) (*agent.Agent, func(), error) {
			ag := &agent.Agent{Guard: mg, Results: st, Knowledge: k, Dialect: quarry.DialectGeneric, Connection: "manual (no connection)", Clock: time.Now}
			if o.model != nil {
				ag.Gateway = o.model
			}
			return ag, func() {}, nil
		}
	case o.model != nil:
		agentFn = func(context.Context) (*agent.Agent, func(), error) {
			return &agent.Agent{Gateway: o.model, Conn: conn, Guard: gd, Knowledge: k, Connection: "shop", Clock: time.Now}, func() {}, nil
		}
	}
	// Questions as the runtime answers them: the manual agent without a
	// connection, else the builtin planner through the agent (follow-ups
	// made whole).
	ask := func(ctx context.Context, rec *event.Recorder, q string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error) {
		if o.manual {
			ag, _, err := agentFn(ctx)
			if err != nil {
				return nil, err
			}
			return ag.Ask(ctx, rec, q, asOf, opts)
		}
		r, done, err := start(ctx)
		if err != nil {
			return nil, err
		}
		defer done()
		an := r.(*analyst.Analyst)
		ag := &agent.Agent{Conn: an.Conn, Guard: an.Guard, Results: an.Results, Knowledge: k, Builtin: an, Connection: an.Connection, Clock: time.Now}
		if o.approval != nil {
			ag.Gateway, ag.PreferModel = o.approval, true
			ag.Limits.RepairAttempts = 2
			ag.Approval = &analyst.Approval{Log: st, AskedBy: event.OwnerOf(ctx), Why: "connection", Poll: 5 * time.Millisecond}
		}
		return ag.Ask(ctx, rec, q, asOf, opts)
	}
	var mons Monitors
	if o.monitors != nil {
		mons = o.monitors(start, k, st)
	}
	var (
		served Store = st
		wrap   func(http.Handler) http.Handler
	)
	if o.around != nil {
		served, wrap = o.around(st)
	}
	srv, err := New(Config{
		Arriving:     o.arriving,
		Wrap:         wrap,
		Monitors:     mons,
		Agent:        agentFn,
		Start:        start,
		Ask:          ask,
		Knowledge:    func(context.Context) (*analyst.Knowledge, error) { return k, nil },
		KnowledgeDir: sh.knowledge,
		Store:        served,
		Addr:         ln.Addr().String(),
		Clock:        time.Now,
		NewID:        func(p string) string { return ids.New(p, time.Now(), rand.Reader) },
		Version:      "test",
		MaxStreams:   o.maxStreams,
		Assets:       o.assets,
		Workflows:    o.workflows,
		MayApprove:   o.mayApprove,
		MayStart:     o.mayStart,
		Ready:        o.ready,
		PublicURL:    o.publicURL,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := &httptest.Server{Listener: ln, Config: &http.Server{Handler: srv.Handler()}}
	ts.Start()
	s := &testServer{shop: sh, srv: srv, ts: ts, st: st, base: ts.URL, host: ln.Addr().String()}
	closed := false
	s.close = func() {
		if closed {
			return
		}
		closed = true
		ts.Close()
		srv.Wait(context.Background())
		st.Close()
		conn.Close()
		g.Close()
	}
	t.Cleanup(s.close)
	return s
}

// do sends a request with a body (JSON when it is a string) and returns
// the response with its body read.
func (s *testServer) do(t *testing.T, method, path, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// getJSON fetches path and decodes the JSON body into v, expecting want.
func (s *testServer) getJSON(t *testing.T, path string, want int, v any) {
	t.Helper()
	res, b := s.do(t, "GET", path, "")
	if res.StatusCode != want {
		t.Fatalf("GET %s: status %d, want %d: %s", path, res.StatusCode, want, b)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("GET %s: %v: %s", path, err, b)
		}
	}
}

// sseEvent is one server-sent event.
type sseEvent struct {
	name, id string
	data     json.RawMessage
}

// readSSE reads events until the stream ends.
func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "id: "):
			cur.id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = json.RawMessage(strings.TrimPrefix(line, "data: "))
		}
	}
	return out
}

// chat posts a chat message and reads the whole stream.
func (s *testServer) chat(t *testing.T, body string) []sseEvent {
	t.Helper()
	req, _ := http.NewRequest("POST", s.base+"/api/chat", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("chat: status %d: %s", res.StatusCode, b)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("chat: Content-Type %q", ct)
	}
	return readSSE(t, res.Body)
}

// doneOf decodes the done event, which must be the last one.
func doneOf(t *testing.T, evs []sseEvent) doneJSON {
	t.Helper()
	if len(evs) == 0 || evs[len(evs)-1].name != "done" {
		t.Fatalf("the stream does not end with done: %v", names(evs))
	}
	var d doneJSON
	if err := json.Unmarshal(evs[len(evs)-1].data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// doneJSON is the done event as a client reads it.
type doneJSON struct {
	RunID     string `json:"run_id"`
	SessionID string `json:"session_id"`
	Status    string `json:"status"`
	Answer    *struct {
		Markdown string `json:"markdown"`
		HTML     string `json:"html"`
		SQL      string `json:"sql"`
		Columns  []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"columns"`
		Rows       [][]any `json:"rows"`
		RowCount   int64   `json:"row_count"`
		Checks     []any   `json:"checks"`
		Confidence float64 `json:"confidence"`
		Chart      *struct {
			Kind string `json:"kind"`
		} `json:"chart"`
		ChartSVG string     `json:"chart_svg"`
		ResultID string     `json:"result_id"`
		Cells    [][]string `json:"cells"`
	} `json:"answer"`
	Proposed *struct {
		SQL     string   `json:"sql"`
		Columns []string `json:"columns"`
	} `json:"proposed"`
	Error *apiError `json:"error"`
}

func names(evs []sseEvent) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.name)
	}
	return out
}

// errorOf decodes an error body.
func errorOf(t *testing.T, b []byte) apiError {
	t.Helper()
	var e struct {
		Error apiError `json:"error"`
	}
	if err := json.Unmarshal(b, &e); err != nil || e.Error.Kind == "" {
		t.Fatalf("not an error body (%v): %s", err, b)
	}
	return e.Error
}
