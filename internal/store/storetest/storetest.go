// Package storetest is the conformance suite every state backend passes
// (store.State), like connectortest for connectors: append-only logs,
// idempotent appends, prefixes, filters, results, sessions, retention,
// people and their tokens, and cancellation, the same assertions on every
// backend. Backends add their own tests for what only they have (files,
// triggers seen through raw SQL, migrations).
package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// T0 is the suite's epoch.
var T0 = time.Date(2026, 6, 30, 9, 0, 0, 0, time.UTC)

// Opener returns a new, empty store that the test owns; it closes it
// through t.Cleanup.
type Opener func(t testing.TB) store.State

// Run runs the conformance suite against the stores open returns.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(*testing.T, store.State)
	}{
		{"AppendAndReadBack", testAppendAndReadBack},
		{"AppendIsIdempotentButNeverReplaces", testAppendIsIdempotentButNeverReplaces},
		{"AppendRejectsMalformedEvents", testAppendRejectsMalformedEvents},
		{"ConcurrentAppenders", testConcurrentAppenders},
		{"RunIDPrefixes", testRunIDPrefixes},
		{"RunsFilterOrderAndInterruptedRuns", testRunsFilterOrderAndInterruptedRuns},
		{"OwnersAndTenants", testOwnersAndTenants},
		{"RunsWaitingForApproval", testRunsWaitingForApproval},
		{"Reindex", testReindex},
		{"OpeningEvents", testOpeningEvents},
		{"CanceledContext", testCanceledContext},
		{"ResultsRoundTripEveryValueType", testResultsRoundTripEveryValueType},
		{"ResultHashIsTheEncodingHash", testResultHashIsTheEncodingHash},
		{"SaveResultRefusesBadTables", testSaveResultRefusesBadTables},
		{"ResultNotFound", testResultNotFound},
		{"EmptyResult", testEmptyResult},
		{"Sessions", testSessions},
		{"PruneDeletesWholeFinishedRuns", testPruneDeletesWholeFinishedRuns},
		{"PruneArchiveFailureKeepsRuns", testPruneArchiveFailureKeepsRuns},
		{"PruneDryRun", testPruneDryRun},
		{"PruneKeepsRunsWaitingForResults", testPruneKeepsRunsWaitingForResults},
		{"People", testPeople},
		{"Tokens", testTokens},
		{"Shares", testShares},
		{"Replicas", testReplicas},
		{"RunsByStatus", testRunsByStatus},
		{"OneFinishPerSeq", testOneFinishPerSeq},
		{"NothingAfterTheEnd", testNothingAfterTheEnd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.fn(t, open(t))
		})
	}
}

// Clock returns a clock that advances one millisecond per call.
func Clock(start time.Time) func() time.Time {
	var mu sync.Mutex
	now := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Millisecond)
		return now
	}
}

// Record writes a typical run through a Recorder and returns what it wrote.
func Record(t testing.TB, sink event.Sink, runID, kind string, start time.Time, finish bool) []event.Event {
	t.Helper()
	got, err := RecordRun(sink, runID, kind, start, finish)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// RecordRun is Record for goroutines, which must not call t.Fatal.
func RecordRun(sink event.Sink, runID, kind string, start time.Time, finish bool) ([]event.Event, error) {
	return recordAs(sink, runID, kind, start, finish, &event.RunStartedData{Kind: kind, Question: "orders per month", SQL: "SELECT 1", Dialect: "sqlite", SessionID: "s_" + kind})
}

func recordAs(sink event.Sink, runID, kind string, start time.Time, finish bool, started *event.RunStartedData) ([]event.Event, error) {
	ctx := context.Background()
	var got []event.Event
	r := event.NewRecorder(runID, Clock(start), event.MultiSink(sink, event.SinkFunc(func(_ context.Context, es ...event.Event) error {
		got = append(got, es...)
		return nil
	})))
	payloads := []event.Payload{
		started,
		&event.SQLGeneratedData{SQL: "SELECT count(*) FROM orders", Source: "user"},
		&event.GuardCheckedData{Allowed: true, Dialect: "sqlite"},
		&event.QueryExecutedData{Rows: 1, DurationMS: 2.5, Columns: []string{"count(*)"}},
	}
	if finish {
		payloads = append(payloads, &event.RunFinishedData{Status: event.StatusSucceeded})
	}
	for _, p := range payloads {
		if err := r.Emit(ctx, p); err != nil {
			return got, err
		}
	}
	return got, nil
}

// WantKind fails t unless err is a quarry error of the given kind.
func WantKind(t testing.TB, err error, kind quarry.Kind) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one of kind %s", kind)
	}
	if k := quarry.KindOf(err); k != kind {
		t.Fatalf("error kind %s, want %s: %v", k, kind, err)
	}
}

// AllTypes is a result holding every value type a Table may hold.
func AllTypes() *quarry.Table {
	berlin := time.FixedZone("CEST", 2*3600)
	return &quarry.Table{
		Columns: []quarry.Column{
			{Name: "nothing", Type: quarry.TypeUnknown},
			{Name: "flag", Type: quarry.TypeBool, DBType: "BOOLEAN"},
			{Name: "n", Type: quarry.TypeInt, DBType: "INTEGER"},
			{Name: "x", Type: quarry.TypeFloat, DBType: "REAL"},
			{Name: "name", Type: quarry.TypeText, DBType: "TEXT"},
			{Name: "blob", Type: quarry.TypeBytes, DBType: "BLOB"},
			{Name: "at", Type: quarry.TypeTimestamp, DBType: "TIMESTAMP"},
			{Name: "doc", Type: quarry.TypeJSON, DBType: "JSON"},
		},
		Rows: [][]any{
			{nil, true, int64(42), 3.5, "Germany", []byte{0, 1, 0xff}, time.Date(2026, 6, 30, 23, 59, 59, 123456789, time.UTC), json.RawMessage(`{"a":[1,2]}`)},
			{nil, false, int64(math.MinInt64), math.Inf(-1), "", []byte{}, time.Date(1969, 7, 20, 20, 17, 40, 0, berlin), json.RawMessage(`null`)},
			{"", nil, int64(math.MaxInt64), math.Copysign(0, -1), "naïve ✓ \x00 text", []byte(nil), time.Date(9999, 12, 31, 0, 0, 0, 1, time.UTC), nil},
			{int64(0), true, nil, math.SmallestNonzeroFloat64, "'; DROP TABLE results; --", []byte("bytes"), time.Time{}, json.RawMessage(`"s"`)},
		},
		Truncated: true,
	}
}

// normalised is what Result documents it returns for AllTypes.
func normalised() *quarry.Table {
	t := AllTypes()
	t.Rows[1][6] = t.Rows[1][6].(time.Time).UTC()
	t.Rows[2][5] = []byte{}
	return t
}

func testAppendAndReadBack(t *testing.T, s store.State) {
	ctx := context.Background()
	wrote := Record(t, s, "r_01ROUND", "run", T0, true)
	got, err := s.Events(ctx, "r_01ROUND")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wrote, got); diff != "" {
		t.Errorf("events (-wrote +read):\n%s", diff)
	}
	want, err := event.Fold(wrote)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Run(ctx, "r_01ROUND")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("run state (-want +got):\n%s", diff)
	}
	if st.Status != event.StatusSucceeded || st.Events != 5 {
		t.Errorf("state = %+v", st)
	}
}

func testAppendIsIdempotentButNeverReplaces(t *testing.T, s store.State) {
	ctx := context.Background()
	wrote := Record(t, s, "r_01IDEM", "run", T0, false)
	// Redelivering stored events (a retry) is harmless.
	if err := s.Append(ctx, wrote...); err != nil {
		t.Fatalf("re-append of identical events: %v", err)
	}
	forged := wrote[1]
	forged.Data = []byte(`{"sql":"DROP TABLE orders","source":"user"}`)
	next, err := event.New("r_01IDEM", 5, T0.Add(time.Hour), &event.RunFinishedData{Status: event.StatusFailed})
	if err != nil {
		t.Fatal(err)
	}
	// The batch holds a new event and a forged one: neither is stored.
	WantKind(t, s.Append(ctx, next, forged), quarry.KindConflict)
	got, err := s.Events(ctx, "r_01IDEM")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wrote, got); diff != "" {
		t.Errorf("log changed (-before +after):\n%s", diff)
	}
}

func testAppendRejectsMalformedEvents(t *testing.T, s store.State) {
	good, err := event.New("r_x", 1, T0, &event.RunStartedData{Kind: "run"})
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]func(e *event.Event){
		"no run":         func(e *event.Event) { e.RunID = "" },
		"seq zero":       func(e *event.Event) { e.Seq = 0 },
		"no type":        func(e *event.Event) { e.Type = "" },
		"no time":        func(e *event.Event) { e.At = time.Time{} },
		"not JSON":       func(e *event.Event) { e.Data = []byte(`{"kind":`) },
		"wrong payload":  func(e *event.Event) { e.Data = []byte(`{"kind":5}`) },
		"null data json": func(e *event.Event) { e.Data = nil },
	}
	for name, mutate := range tests {
		t.Run(name, func(t *testing.T) {
			e := good
			mutate(&e)
			WantKind(t, s.Append(context.Background(), e), quarry.KindInternal)
		})
	}
	// An unknown type or a newer version is stored as is, for newer readers.
	future := event.Event{RunID: "r_x", Seq: 1, Type: "model.called", Version: event.Version + 1, At: T0, Data: []byte(`{"tokens":3}`)}
	if err := s.Append(context.Background(), future); err != nil {
		t.Errorf("an event of an unknown type was refused: %v", err)
	}
}

func testConcurrentAppenders(t *testing.T, s store.State) {
	ctx := context.Background()
	const runs, perRun = 6, 20
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() {
			r := event.NewRecorder(fmt.Sprintf("r_%02d", i), Clock(T0.Add(time.Duration(i)*time.Minute)), s)
			if err := r.Emit(ctx, &event.RunStartedData{Kind: "ask"}); err != nil {
				t.Error(err)
				return
			}
			// Several goroutines share one run's recorder too.
			var inner sync.WaitGroup
			for range 2 {
				inner.Go(func() {
					for range perRun / 2 {
						if err := r.Emit(ctx, &event.SQLGeneratedData{SQL: "SELECT 1", Source: "model"}); err != nil {
							t.Error(err)
							return
						}
					}
				})
			}
			inner.Wait()
			if err := r.Emit(ctx, &event.RunFinishedData{Status: event.StatusSucceeded}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	all, err := s.Runs(ctx, store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != runs {
		t.Fatalf("%d runs, want %d", len(all), runs)
	}
	for i, st := range all {
		wantID := fmt.Sprintf("r_%02d", runs-1-i) // newest first
		if st.RunID != wantID || st.Events != perRun+2 || st.LastSeq != perRun+2 || len(st.SQLs) != perRun || st.Status != event.StatusSucceeded {
			t.Errorf("run %d: id %s events %d last %d sqls %d status %s", i, st.RunID, st.Events, st.LastSeq, len(st.SQLs), st.Status)
		}
	}
}

func testRunIDPrefixes(t *testing.T, s store.State) {
	ctx := context.Background()
	for i, id := range []string{"r_01AAA1", "r_01AAA10", "r_01AAA2", "r_01BBB", "r_01ÄÖ"} {
		Record(t, s, id, "run", T0.Add(time.Duration(i)*time.Minute), true)
	}
	tests := []struct {
		in   string
		want string
		kind quarry.Kind
	}{
		{in: "r_01AAA1", want: "r_01AAA1"}, // exact wins over the longer r_01AAA10
		{in: "r_01AAA10", want: "r_01AAA10"},
		{in: "r_01B", want: "r_01BBB"},
		{in: " r_01AAA2 ", want: "r_01AAA2"},
		{in: "r_01Ä", want: "r_01ÄÖ"},
		{in: "r_01AAA", kind: quarry.KindInput},
		{in: "r_0", kind: quarry.KindInput},
		{in: "r_9", kind: quarry.KindNotFound},
		{in: "r_01BBBB", kind: quarry.KindNotFound},
		{in: "", kind: quarry.KindUsage},
		{in: "%", kind: quarry.KindNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			events, err := s.Events(ctx, tt.in)
			if tt.kind != "" {
				WantKind(t, err, tt.kind)
				if tt.kind == quarry.KindNotFound && !strings.Contains(err.Error(), "quarry runs list") {
					t.Errorf("message does not point at `quarry runs list`: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(events) == 0 || events[0].RunID != tt.want {
				t.Errorf("resolved to %v, want %s", events, tt.want)
			}
		})
	}
	if _, err := s.Run(ctx, "r_01AAA"); !strings.Contains(fmt.Sprint(err), "r_01AAA1, r_01AAA10, r_01AAA2") {
		t.Errorf("ambiguity does not name the candidates: %v", err)
	}
}

func testRunsFilterOrderAndInterruptedRuns(t *testing.T, s store.State) {
	ctx := context.Background()
	Record(t, s, "r_1", "run", T0, true)
	Record(t, s, "r_2", "ask", T0.Add(time.Minute), true)
	Record(t, s, "r_3", "ask", T0.Add(2*time.Minute), false) // the process died midway
	Record(t, s, "r_4", "run", T0.Add(3*time.Minute), true)
	ids := func(f store.RunFilter) []string {
		t.Helper()
		runs, err := s.Runs(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range runs {
			out = append(out, r.RunID+":"+r.Status)
		}
		return out
	}
	tests := []struct {
		f    store.RunFilter
		want []string
	}{
		{store.RunFilter{}, []string{"r_4:succeeded", "r_3:running", "r_2:succeeded", "r_1:succeeded"}},
		{store.RunFilter{Limit: 2}, []string{"r_4:succeeded", "r_3:running"}},
		{store.RunFilter{Kind: "ask"}, []string{"r_3:running", "r_2:succeeded"}},
		{store.RunFilter{Kind: "run", Limit: 1}, []string{"r_4:succeeded"}},
		{store.RunFilter{SessionID: "s_ask"}, []string{"r_3:running", "r_2:succeeded"}},
		{store.RunFilter{Kind: "watch"}, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ids(tt.f)); diff != "" {
			t.Errorf("Runs(%+v) (-want +got):\n%s", tt.f, diff)
		}
	}
}

func testCanceledContext(t *testing.T, s store.State) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e, err := event.New("r_c", 1, T0, &event.RunStartedData{Kind: "run"})
	if err != nil {
		t.Fatal(err)
	}
	WantKind(t, s.Append(ctx, e), quarry.KindCanceled)
	_, err = s.Runs(ctx, store.RunFilter{})
	WantKind(t, err, quarry.KindCanceled)
}

func testResultsRoundTripEveryValueType(t *testing.T, s store.State) {
	ctx := context.Background()
	id, hash, err := s.SaveResult(ctx, "r_01RES", AllTypes())
	if err != nil {
		t.Fatal(err)
	}
	if id != "res_r_01RES" || !strings.HasPrefix(hash, "sha256:") || len(hash) != len("sha256:")+64 {
		t.Errorf("id %q hash %q", id, hash)
	}
	got, err := s.Result(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// Compare floats bit for bit (so -0 and 0 differ) and times as written.
	opts := cmp.Options{
		cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }),
		cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) && a.Location() == b.Location() }),
	}
	if diff := cmp.Diff(normalised(), got, opts); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	for i, row := range got.Rows {
		for j, v := range row {
			w := normalised().Rows[i][j]
			if (v == nil) != (w == nil) {
				t.Errorf("row %d col %d: nil-ness changed: %#v vs %#v", i, j, v, w)
			}
		}
	}
	// NaN survives as NaN.
	id2, _, err := s.SaveResult(ctx, "r_01RES", &quarry.Table{Columns: []quarry.Column{{Name: "x"}}, Rows: [][]any{{math.NaN()}, {float32(1.5)}, {int32(-3)}, {uint8(200)}}})
	if err != nil {
		t.Fatal(err)
	}
	if id2 != "res_r_01RES_2" {
		t.Errorf("second result of a run has ID %q, want res_r_01RES_2", id2)
	}
	got2, err := s.Result(ctx, id2)
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := got2.Rows[0][0].(float64); !ok || !math.IsNaN(f) {
		t.Errorf("NaN came back as %#v", got2.Rows[0][0])
	}
	if diff := cmp.Diff([]any{1.5, int64(-3), int64(200)}, []any{got2.Rows[1][0], got2.Rows[2][0], got2.Rows[3][0]}); diff != "" {
		t.Errorf("normalised numbers (-want +got):\n%s", diff)
	}
	if got2.Truncated {
		t.Error("Truncated came back true")
	}
}

func testSaveResultRefusesBadTables(t *testing.T, s store.State) {
	ctx := context.Background()
	tests := map[string]*quarry.Table{
		"nil table":     nil,
		"short row":     {Columns: []quarry.Column{{Name: "a"}, {Name: "b"}}, Rows: [][]any{{int64(1)}}},
		"unknown type":  {Columns: []quarry.Column{{Name: "a"}}, Rows: [][]any{{struct{}{}}}},
		"huge unsigned": {Columns: []quarry.Column{{Name: "a"}}, Rows: [][]any{{uint64(math.MaxUint64)}}},
	}
	for name, tab := range tests {
		t.Run(name, func(t *testing.T) {
			_, _, err := s.SaveResult(ctx, "r_bad", tab)
			WantKind(t, err, quarry.KindInternal)
		})
	}
	_, _, err := s.SaveResult(ctx, "", &quarry.Table{})
	WantKind(t, err, quarry.KindInternal)
}

func testEmptyResult(t *testing.T, s store.State) {
	ctx := context.Background()
	in := &quarry.Table{Columns: []quarry.Column{{Name: "n", Type: quarry.TypeInt}}, Rows: [][]any{}}
	id, _, err := s.SaveResult(ctx, "r_empty", in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Result(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func testSessions(t *testing.T, s store.State) {
	ctx := context.Background()
	for i, id := range []string{"s_01A", "s_01B", "s_02C"} {
		if err := s.CreateSession(ctx, store.Session{ID: id, CreatedAt: T0.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	WantKind(t, s.CreateSession(ctx, store.Session{ID: "s_01A", CreatedAt: T0}), quarry.KindConflict)
	WantKind(t, s.CreateSession(ctx, store.Session{ID: "s_x"}), quarry.KindInternal)

	if err := s.TouchSession(ctx, "s_01A", "r_9", "revenue by month", T0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchSession(ctx, "s_01A", "r_10", "a later title is not kept", T0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	WantKind(t, s.TouchSession(ctx, "s_none", "r_1", "", T0), quarry.KindNotFound)

	got, err := s.Session(ctx, "s_01A")
	if err != nil {
		t.Fatal(err)
	}
	want := store.Session{ID: "s_01A", Title: "revenue by month", LastRunID: "r_10", CreatedAt: T0, UpdatedAt: T0.Add(2 * time.Hour)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("session (-want +got):\n%s", diff)
	}
	if got, err := s.Session(ctx, "s_02"); err != nil || got.ID != "s_02C" {
		t.Errorf("prefix lookup = %+v, %v", got, err)
	}
	_, err = s.Session(ctx, "s_01")
	WantKind(t, err, quarry.KindInput)
	_, err = s.Session(ctx, "s_9")
	WantKind(t, err, quarry.KindNotFound)

	list, err := s.Sessions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range list {
		ids = append(ids, x.ID)
	}
	if diff := cmp.Diff([]string{"s_01A", "s_02C", "s_01B"}, ids); diff != "" {
		t.Errorf("sessions, most recently updated first (-want +got):\n%s", diff)
	}
	if list, err := s.Sessions(ctx, 1); err != nil || len(list) != 1 {
		t.Errorf("Sessions(1) = %d, %v", len(list), err)
	}
}

func testOwnersAndTenants(t *testing.T, s store.State) {
	ctx := context.Background()
	for i, who := range []struct{ id, owner, tenant string }{
		{"r_a1", "ana", "acme"}, {"r_b1", "ben", "acme"}, {"r_a2", "ana", "zeta"}, {"r_n", "", ""},
	} {
		_, err := recordAs(s, who.id, "ask", T0.Add(time.Duration(i)*time.Minute), true,
			&event.RunStartedData{Kind: "ask", Question: "q", Owner: who.owner, Tenant: who.tenant})
		if err != nil {
			t.Fatal(err)
		}
	}
	ids := func(f store.RunFilter) []string {
		runs, err := s.Runs(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range runs {
			out = append(out, r.RunID+":"+r.Owner+"@"+r.Tenant)
		}
		return out
	}
	for _, tt := range []struct {
		f    store.RunFilter
		want []string
	}{
		{store.RunFilter{Owner: "ana"}, []string{"r_a2:ana@zeta", "r_a1:ana@acme"}},
		{store.RunFilter{Tenant: "acme"}, []string{"r_b1:ben@acme", "r_a1:ana@acme"}},
		{store.RunFilter{Owner: "ana", Tenant: "acme"}, []string{"r_a1:ana@acme"}},
		{store.RunFilter{Owner: "nobody"}, nil},
	} {
		if diff := cmp.Diff(tt.want, ids(tt.f)); diff != "" {
			t.Errorf("Runs(%+v) (-want +got):\n%s", tt.f, diff)
		}
	}
	if err := s.CreateSession(ctx, store.Session{ID: "s_own", Owner: "ana", Tenant: "acme", CreatedAt: T0}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Session(ctx, "s_own")
	if err != nil || got.Owner != "ana" || got.Tenant != "acme" {
		t.Errorf("session = %+v, %v; want owner ana, tenant acme", got, err)
	}
	// A session that continues a question asked before it existed keeps
	// that question's run as its first turn.
	if err := s.CreateSession(ctx, store.Session{ID: "s_cont", FromRunID: "r_a1", CreatedAt: T0}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Session(ctx, "s_cont"); err != nil || got.FromRunID != "r_a1" {
		t.Errorf("session = %+v, %v; want from_run_id r_a1", got, err)
	}
	list, err := s.Sessions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, sess := range list {
		if sess.ID == "s_cont" && sess.FromRunID != "r_a1" {
			t.Errorf("Sessions lists %+v; want from_run_id r_a1", sess)
		}
	}
}

// testOpeningEvents: a run's first events, stored alone or with its end
// in one append, index the run as a later fold of its log does; a forged
// first event is refused and changes nothing, and one sent again is
// harmless.
func testOpeningEvents(t *testing.T, s store.State) {
	ctx := context.Background()
	discard := event.SinkFunc(func(context.Context, ...event.Event) error { return nil })
	all := Record(t, discard, "r_01OPEN", "ask", T0, true)
	if err := s.Append(ctx, all[0]); err != nil {
		t.Fatal(err)
	}
	st, err := s.Run(ctx, "r_01OPEN")
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != event.StatusRunning || st.Events != 1 || st.Kind != "ask" {
		t.Errorf("after its first event: %+v", st)
	}
	// The index, which filters read, says the same as the log.
	running, err := s.Runs(ctx, store.RunFilter{Status: string(event.StatusRunning), Kind: "ask"})
	if err != nil {
		t.Fatal(err)
	}
	if len(running) != 1 || running[0].RunID != "r_01OPEN" {
		t.Errorf("running asks after the first event: %+v", running)
	}
	forged := all[0]
	forged.Data = []byte(`{"kind":"ask","question":"something else"}`)
	WantKind(t, s.Append(ctx, forged), quarry.KindConflict)
	if err := s.Append(ctx, all...); err != nil {
		t.Fatalf("the whole log after its first event: %v", err)
	}
	Record(t, s, "r_01OPEN2", "run", T0.Add(time.Minute), true)
	whole := Record(t, discard, "r_01OPEN3", "run", T0.Add(2*time.Minute), true)
	if err := s.Append(ctx, whole...); err != nil {
		t.Fatalf("a whole run in one append: %v", err)
	}
	before, err := s.Runs(ctx, store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != 3 {
		t.Fatalf("runs: %d, want 3", len(before))
	}
	for _, st := range before {
		if st.Status != event.StatusSucceeded || st.Events != 5 {
			t.Errorf("run %s: %+v", st.RunID, st)
		}
	}
	reindexKeeps(t, s, before)
}

// reindexKeeps fails t unless the runs listed after Reindex are before.
func reindexKeeps(t *testing.T, s store.State, before []event.RunState) {
	t.Helper()
	ctx := context.Background()
	if err := s.Reindex(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := s.Runs(ctx, store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("runs after Reindex (-before +after):\n%s", diff)
	}
}

func testReindex(t *testing.T, s store.State) {
	ctx := context.Background()
	for i := range 5 {
		Record(t, s, fmt.Sprintf("r_%d", i), []string{"run", "ask"}[i%2], T0.Add(time.Duration(i)*time.Hour), i != 2)
	}
	before, err := s.Runs(ctx, store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	reindexKeeps(t, s, before)
}

func testResultHashIsTheEncodingHash(t *testing.T, s store.State) {
	body, err := quarry.EncodeTable(AllTypes())
	if err != nil {
		t.Fatal(err)
	}
	_, hash, err := s.SaveResult(context.Background(), "r_hash", AllTypes())
	if err != nil {
		t.Fatal(err)
	}
	if want := store.Hash(body); hash != want {
		t.Errorf("hash = %s, want %s: a backend must hash the canonical encoding", hash, want)
	}
}

func testResultNotFound(t *testing.T, s store.State) {
	_, err := s.Result(context.Background(), "res_nope")
	WantKind(t, err, quarry.KindNotFound)
}

// pruneFixture records runs finished at T0+0h … T0+3h, one running run
// started at T0, two results of r_0 and three sessions.
// Bench measures appends on the stores open returns: one event per Append
// (what an unbatched recorder does) and whole five-event runs.
func Bench(b *testing.B, open Opener) {
	b.Run("AppendEvent", func(b *testing.B) {
		s := open(b)
		ctx := context.Background()
		r := event.NewRecorder("r_bench", Clock(T0), s)
		if err := r.Emit(ctx, &event.RunStartedData{Kind: "ask"}); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			if err := r.Emit(ctx, &event.SQLGeneratedData{SQL: "SELECT count(*) FROM orders", Source: "model"}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
	b.Run("AppendBatch10", func(b *testing.B) {
		s := open(b)
		ctx := context.Background()
		r := event.NewRecorder("r_batch", Clock(T0), s)
		if err := r.Emit(ctx, &event.RunStartedData{Kind: "ask"}); err != nil {
			b.Fatal(err)
		}
		r.Hold() // the recorder hands over its held events in one Append
		b.ResetTimer()
		for range b.N {
			for range 10 {
				if err := r.Emit(ctx, &event.SQLGeneratedData{SQL: "SELECT 1", Source: "model"}); err != nil {
					b.Fatal(err)
				}
			}
			if err := r.Flush(ctx); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*10)/b.Elapsed().Seconds(), "events/s")
	})
	// StartRuns: many runs recording their first event at once, as a
	// server's chats do when a burst of questions arrives; the time to
	// the first event waits on this.
	b.Run("StartRuns", func(b *testing.B) {
		s := open(b)
		ctx := context.Background()
		var n atomic.Int64
		b.SetParallelism(50)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				id := fmt.Sprintf("r_%09d", n.Add(1))
				r := event.NewRecorder(id, Clock(T0), s)
				if err := r.Emit(ctx, &event.RunStartedData{Kind: "ask", Question: "revenue by month"}); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	})
	b.Run("RecordRun", func(b *testing.B) {
		s := open(b)
		b.ResetTimer()
		for i := range b.N {
			if _, err := RecordRun(s, fmt.Sprintf("r_%09d", i), "run", T0.Add(time.Duration(i)*time.Second), true); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// testRunsWaitingForApproval: the index follows a run into and out of
// awaiting_approval, so that the statements waiting are listed from it;
// a second event under the decision's sequence number is a conflict.
func testRunsWaitingForApproval(t *testing.T, s store.State) {
	ctx := context.Background()
	if _, err := recordAs(s, "r_done", "ask", T0, true, &event.RunStartedData{Kind: "ask", Question: "q"}); err != nil {
		t.Fatal(err)
	}
	rec := event.NewRecorder("r_wait", Clock(T0.Add(time.Minute)), s)
	for _, p := range []event.Payload{
		&event.RunStartedData{Kind: "ask", Question: "q", Owner: "bob"},
		&event.ApprovalRequestedData{Statement: "s1", SQL: "SELECT 1", AskedBy: "bob"},
	} {
		if err := rec.Emit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	waiting := func() []string {
		t.Helper()
		runs, err := s.Runs(ctx, store.RunFilter{Status: event.StatusAwaitingApproval})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range runs {
			out = append(out, r.RunID)
		}
		return out
	}
	if diff := cmp.Diff([]string{"r_wait"}, waiting()); diff != "" {
		t.Errorf("waiting (-want +got):\n%s", diff)
	}
	decided := func(by string) event.Event {
		e, err := event.New("r_wait", 3, T0.Add(2*time.Minute), &event.ApprovalDecidedData{Statement: "s1", Approved: true, By: by})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	if err := s.Append(ctx, decided("ann")); err != nil {
		t.Fatal(err)
	}
	WantKind(t, s.Append(ctx, decided("cat")), quarry.KindConflict)
	if got := waiting(); len(got) != 0 {
		t.Errorf("still waiting after the decision: %v", got)
	}
	if runs, err := s.Runs(ctx, store.RunFilter{Status: event.StatusRunning}); err != nil || len(runs) != 1 || runs[0].RunID != "r_wait" || runs[0].Approvals[0].Decided.By != "ann" {
		t.Errorf("running: %+v, %v", runs, err)
	}
}
