package analyst

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/resultcache"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// fakeConn is a hand-written Querier: it serves a fixed table and counts
// the statements that reached it.
type fakeConn struct {
	mu    sync.Mutex
	table *quarry.Table
	calls []string
	err   error
	hold  chan struct{} // when set, each query waits for it to close
}

func (f *fakeConn) Dialect() quarry.Dialect { return quarry.DialectSQLite }

func (f *fakeConn) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	f.mu.Lock()
	f.calls = append(f.calls, sql)
	f.mu.Unlock()
	if f.hold != nil {
		<-f.hold
	}
	if f.err != nil {
		return nil, f.err
	}
	if strings.Contains(sql, aheadName) {
		// The control that counts rows dated after today: none here,
		// as in a database of things that happened.
		return &tableRows{t: &quarry.Table{Columns: []quarry.Column{{Name: aheadName, Type: quarry.TypeInt}}, Rows: [][]any{{int64(0)}}}, i: -1}, nil
	}
	return &tableRows{t: f.table, i: -1}, nil
}

type tableRows struct {
	t *quarry.Table
	i int
}

func (r *tableRows) Columns() []quarry.Column { return r.t.Columns }
func (r *tableRows) Next() bool               { r.i++; return r.i < len(r.t.Rows) }
func (r *tableRows) Values() []any            { return r.t.Rows[r.i] }
func (r *tableRows) Err() error               { return nil }
func (r *tableRows) Close() error             { return nil }

// memSink keeps events in memory.
type memSink struct {
	mu     sync.Mutex
	events []event.Event
}

func (m *memSink) Append(_ context.Context, evs ...event.Event) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.events = append(m.events, evs...)
	return nil
}

func (m *memSink) types() []event.Type {
	var out []event.Type
	for _, e := range m.events {
		out = append(out, e.Type)
	}
	return out
}

type collect struct {
	cols []quarry.Column
	rows [][]any
}

func (c *collect) Begin(cols []quarry.Column) error { c.cols = cols; return nil }
func (c *collect) Row(v []any) error                { c.rows = append(c.rows, append([]any(nil), v...)); return nil }

func fixedClock() func() time.Time {
	t := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Millisecond); return t }
}

func newAnalyst(conn *fakeConn) *Analyst {
	return &Analyst{
		Conn: conn,
		Guard: GuardFunc(func(_ context.Context, sql string) sqlguard.Verdict {
			return sqlguard.Check(sql, sqlguard.Options{Dialect: quarry.DialectSQLite})
		}),
		Connection: "test",
		Clock:      fixedClock(),
	}
}

func table() *quarry.Table {
	return &quarry.Table{
		Columns: []quarry.Column{{Name: "n", Type: quarry.TypeInt}},
		Rows:    [][]any{{int64(1)}, {int64(2)}},
	}
}

func TestRunRecordsEveryStep(t *testing.T) {
	conn := &fakeConn{table: table()}
	sink := &memSink{}
	a := newAnalyst(conn)
	var got collect
	out, err := a.Run(context.Background(), event.NewRecorder("r1", a.Clock, sink), "SELECT n FROM t", &got)
	if err != nil {
		t.Fatal(err)
	}
	want := []event.Type{event.RunStarted, event.SQLGenerated, event.GuardChecked, event.QueryExecuted, event.RunFinished}
	if diff := cmp.Diff(want, sink.types()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if out.Rows != 2 || len(got.rows) != 2 {
		t.Errorf("rows: outcome %d, sink %d", out.Rows, len(got.rows))
	}
	st, err := event.Fold(sink.events)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != event.StatusSucceeded || st.Rows != 2 || st.SQL != "SELECT n FROM t" {
		t.Errorf("folded state: %+v", st)
	}
}

func TestRejectedStatementNeverReachesTheConnection(t *testing.T) {
	conn := &fakeConn{table: table()}
	sink := &memSink{}
	a := newAnalyst(conn)
	out, err := a.Run(context.Background(), event.NewRecorder("r1", a.Clock, sink), "DELETE FROM t", nil)
	if quarry.KindOf(err) != quarry.KindRejected || out.Verdict.Allowed {
		t.Fatalf("err %v, verdict %+v", err, out.Verdict)
	}
	if len(conn.calls) != 0 {
		t.Fatalf("the connection saw %q", conn.calls)
	}
	st, _ := event.Fold(sink.events)
	if st.Status != event.StatusRejected || st.Allowed == nil || *st.Allowed {
		t.Errorf("folded state: %+v", st)
	}
}

func TestQueryFailureIsRecorded(t *testing.T) {
	conn := &fakeConn{err: quarry.Errorf(quarry.KindQuery, "no such table: t")}
	sink := &memSink{}
	a := newAnalyst(conn)
	_, err := a.Run(context.Background(), event.NewRecorder("r1", a.Clock, sink), "SELECT n FROM t", nil)
	if quarry.KindOf(err) != quarry.KindQuery {
		t.Fatalf("err %v", err)
	}
	st, _ := event.Fold(sink.events)
	if st.Status != event.StatusFailed || st.ErrorKind != string(quarry.KindQuery) {
		t.Errorf("folded state: %+v", st)
	}
}

func TestCacheServesRepeatsWithoutTheDatabase(t *testing.T) {
	conn := &fakeConn{table: table()}
	a := newAnalyst(conn)
	a.Cache = resultcache.New(time.Minute, 1000, a.Clock)
	for i, sql := range []string{"SELECT n FROM t", "select n\nfrom t -- again"} {
		sink := &memSink{}
		var got collect
		if _, err := a.Run(context.Background(), event.NewRecorder("r", a.Clock, sink), sql, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.rows) != 2 {
			t.Fatalf("run %d: %d rows", i, len(got.rows))
		}
		p, _ := event.Decode(sink.events[3])
		if cached := p.(*event.QueryExecutedData).Cached; cached != (i == 1) {
			t.Errorf("run %d: cached = %v", i, cached)
		}
	}
	if len(conn.calls) != 1 {
		t.Errorf("the database ran %d statements, want 1", len(conn.calls))
	}
}

// TestNothingRunsUnrecorded: when the state database cannot record the
// run, the statement never reaches the database.
func TestNothingRunsUnrecorded(t *testing.T) {
	conn := &fakeConn{table: &quarry.Table{Columns: []quarry.Column{{Name: "n", Type: quarry.TypeInt}}, Rows: [][]any{{int64(1)}}}}
	broken := event.SinkFunc(func(context.Context, ...event.Event) error { return errors.New("disk I/O error") })
	rec := event.NewRecorder("r_broken", fixedClock(), broken)
	rec.Hold()
	_, err := newAnalyst(conn).Run(context.Background(), rec, "SELECT 1 AS n", &collect{})
	if quarry.KindOf(err) != quarry.KindInternal || !strings.Contains(quarry.Message(err), "not run") {
		t.Errorf("err = %v, want an internal error that says the query was not run", err)
	}
	if len(conn.calls) != 0 {
		t.Errorf("the database was queried %d times with the run unrecorded", len(conn.calls))
	}
}

// TestControlQueriesShareTheCache: a check's control query of a run whose
// answer came from the result cache is answered from it too, as the
// answer was: the checks then read what the answer was read from, and the
// database is not asked again. A run whose answer was read fresh reads
// its controls fresh (a total kept minutes ago is never held against rows
// read now), and keeps them for the next time.
func TestControlQueriesShareTheCache(t *testing.T) {
	k := shopKnowledge()
	k.Model.Dimensions = []semantic.Dimension{{Name: "channel", Entity: "orders", Expr: "orders.channel"}}
	q := &semantic.Query{Metrics: []string{"orders"}, Dimensions: []semantic.DimRef{{Name: "channel"}}, Order: []semantic.Order{{Field: "orders", Desc: true}}, Limit: 1}
	tied := &fakeConn{table: &quarry.Table{Columns: []quarry.Column{{Name: "channel", Type: quarry.TypeText}, {Name: "orders", Type: quarry.TypeInt}},
		Rows: [][]any{{"web", int64(5)}, {"store", int64(5)}}}}
	a := newAnalyst(tied)
	a.Cache = resultcache.New(time.Minute, 1000, a.Clock)
	ctx := context.Background()
	controls := func() int {
		n := 0
		for _, c := range tied.calls {
			if strings.Contains(c, "quarry_rank") {
				n++
			}
		}
		return n
	}
	answer := &Result{Table: &quarry.Table{Columns: tied.table.Columns, Rows: [][]any{{"web", int64(5)}}}, Rows: 1}
	for i := range 2 {
		checks, _ := a.ControlChecksTied(ctx, k.Model, q, answer, nil)
		if checks[0].Status != "warn" || !strings.Contains(checks[0].Detail, "store ties web at 5") {
			t.Errorf("fresh answer %d: %+v", i, checks[0])
		}
	}
	if n := controls(); n != 2 {
		t.Errorf("two fresh answers read the tie control %d times, want 2", n)
	}
	answer.Cached = true
	checks, _ := a.ControlChecksTied(ctx, k.Model, q, answer, nil)
	if checks[0].Status != "warn" || !strings.Contains(checks[0].Detail, "store ties web at 5") {
		t.Errorf("cached answer: %+v", checks[0])
	}
	if n := controls(); n != 2 {
		t.Errorf("a cached answer's tie control reached the database (%d reads, want 2)", n)
	}
	// Without a cache, every control reads the database.
	a.Cache = nil
	a.ControlChecksTied(ctx, k.Model, q, answer, nil)
	if n := controls(); n != 3 {
		t.Errorf("without a cache: %d reads, want 3", n)
	}
}

// TestConcurrentRepeatsReadOnce: the same statement asked by several runs
// at once reaches the database once; the runs that waited for that read
// record their rows as cached, and every one gets them.
func TestConcurrentRepeatsReadOnce(t *testing.T) {
	conn := &fakeConn{table: table(), hold: make(chan struct{})}
	a0 := newAnalyst(conn)
	now := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)
	a0.Cache = resultcache.New(time.Minute, 1000, func() time.Time { return now })
	const runs = 6
	var wg sync.WaitGroup
	cached := make([]bool, runs)
	rows := make([]int64, runs)
	for i := range runs {
		a := *a0 // one analyst per run sharing the cache, as a server makes them
		a.Clock = fixedClock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			sink := &memSink{}
			res, err := a.Exec(context.Background(), NewEmitter(event.NewRecorder(fmt.Sprintf("r%d", i), a.Clock, sink)), "SELECT n FROM t", Exec{Source: "builtin"})
			if err != nil {
				t.Errorf("run %d: %v", i, err)
				return
			}
			rows[i], cached[i] = res.Rows, res.Cached
		}()
	}
	for {
		conn.mu.Lock()
		n := len(conn.calls)
		conn.mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	close(conn.hold)
	wg.Wait()
	if len(conn.calls) != 1 {
		t.Errorf("the database ran %d statements for %d runs at once, want 1", len(conn.calls), runs)
	}
	fresh := 0
	for i := range runs {
		if rows[i] != 2 {
			t.Errorf("run %d got %d rows, want 2", i, rows[i])
		}
		if !cached[i] {
			fresh++
		}
	}
	if fresh != 1 {
		t.Errorf("%d runs say they read the database, want 1", fresh)
	}
}

// TestPathCheckReadsTheOtherRoute: claims reach regions through the
// policy's agent and through its holder; the check's control query reads
// the route not taken (it read the same SQL again, and said nothing,
// while "claims in the Northeast" counted 128 by agents against 68 by
// holders).
func TestPathCheckReadsTheOtherRoute(t *testing.T) {
	cols := func(names ...string) []semantic.Column {
		out := make([]semantic.Column, len(names))
		for i, n := range names {
			out[i] = semantic.Column{Name: n}
		}
		return out
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "regions", Table: "regions", PrimaryKey: "region_id", Columns: cols("region_id", "region_name")},
			{Name: "agents", Table: "agents", PrimaryKey: "agent_id", Columns: cols("agent_id", "region_id")},
			{Name: "holders", Table: "holders", PrimaryKey: "holder_id", Columns: cols("holder_id", "region_id")},
			{Name: "policies", Table: "policies", PrimaryKey: "policy_id", Columns: cols("policy_id", "agent_id", "holder_id")},
			{Name: "claims", Table: "claims", PrimaryKey: "claim_id", Columns: cols("claim_id", "policy_id")},
		},
		Relationships: []semantic.Relationship{
			{From: "agents", FromColumn: "region_id", To: "regions", ToColumn: "region_id", Cardinality: semantic.ManyToOne},
			{From: "claims", FromColumn: "policy_id", To: "policies", ToColumn: "policy_id", Cardinality: semantic.ManyToOne},
			{From: "policies", FromColumn: "agent_id", To: "agents", ToColumn: "agent_id", Cardinality: semantic.ManyToOne},
			{From: "policies", FromColumn: "holder_id", To: "holders", ToColumn: "holder_id", Cardinality: semantic.ManyToOne},
			{From: "holders", FromColumn: "region_id", To: "regions", ToColumn: "region_id", Cardinality: semantic.ManyToOne},
		},
		Metrics: []semantic.Metric{{Name: "claims", Entity: "claims", Expr: "COUNT(claims.claim_id)"}},
	}
	q := &semantic.Query{Metrics: []string{"claims"}, Dimensions: []semantic.DimRef{{Name: "regions.region_name"}}}
	compiled, err := semantic.Compile(m, *q, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	conn := &fakeConn{table: &quarry.Table{Columns: []quarry.Column{{Name: "region_name", Type: quarry.TypeText}, {Name: "claims", Type: quarry.TypeInt}}, Rows: [][]any{{"Northeast", int64(128)}}}}
	res := &Result{Table: conn.table, Rows: 1}
	c := newAnalyst(conn).PathCheck(context.Background(), m, q, res, compiled)
	if c.Name != CheckJoinPath || len(conn.calls) != 1 || !strings.Contains(conn.calls[0], "holders.region_id") || strings.Contains(conn.calls[0], "agents") {
		t.Errorf("check %+v; control queries %q", c, conn.calls)
	}
	if !strings.Contains(c.Detail, "policies.holder_id = holders.holder_id and holders.region_id = regions.region_id") {
		t.Errorf("the check names the other route's joins: %s", c.Detail)
	}
}
