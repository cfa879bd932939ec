package watch

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// csvSource serves a metric query from a testdata series, honouring its
// time range, as the pipeline would.
type csvSource struct {
	t       testing.TB
	file    string
	queries []semantic.Query
}

func (s *csvSource) Metric(_ context.Context, _ string, q semantic.Query) (*quarry.Table, string, error) {
	s.queries = append(s.queries, q)
	tab := &quarry.Table{Columns: []quarry.Column{{Name: "week"}, {Name: "orders"}}}
	for _, p := range readCSV(s.t, s.file) {
		d := p.Start.Format(time.DateOnly)
		if q.TimeRange != nil && (d < q.TimeRange.From || (q.TimeRange.To != "" && d >= q.TimeRange.To)) {
			continue
		}
		tab.Rows = append(tab.Rows, []any{d, int64(p.Value)})
	}
	return tab, "r-test", nil
}

func (s *csvSource) SQL(context.Context, string, string) (*quarry.Table, string, error) {
	return nil, "", quarry.Errorf(quarry.KindUnsupported, "no SQL here")
}

type memState struct{ st State }

func (m *memState) Load(context.Context) (State, error) { return m.st, nil }
func (m *memState) Save(_ context.Context, s State) error {
	if m.st.Monitors == nil {
		m.st.Monitors = map[string]MonitorState{}
	}
	for name, ms := range s.Monitors {
		m.st.Monitors[name] = ms
	}
	return nil
}

type told struct{ alerts []Alert }

func (t *told) Notify(_ context.Context, _ []string, a Alert) ([]Delivery, error) {
	t.alerts = append(t.alerts, a)
	return nil, nil
}

func weeklyOrders() Monitor {
	return Monitor{Name: "weekly_orders", Metric: "orders", Grain: semantic.GrainWeek, Schedule: "every Monday at 9",
		Detector: ZScore, Sensitivity: "medium", Threshold: 4, Direction: Both}
}

func demoModel() *semantic.Model {
	return &semantic.Model{Metrics: []semantic.Metric{{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"}}}
}

func TestRunTellsOncePerIncident(t *testing.T) {
	ctx := context.Background()
	tell := &told{}
	r := &Runner{Model: demoModel(), Source: &csvSource{t: t, file: "demo_weekly_orders.csv"}, Notifier: tell, State: &memState{}}
	var got []string
	// Mondays at 9: the dip's week (2026-04-20) is complete on the 27th.
	for _, now := range []string{"2026-04-20", "2026-04-27", "2026-05-04", "2026-05-11"} {
		at := day(now).Add(9 * time.Hour)
		out, err := r.Run(ctx, []Monitor{weeklyOrders()}, at, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range out[0].Alerts {
			got = append(got, now+": "+a.Kind+" "+a.PeriodStart)
		}
	}
	want := []string{"2026-04-27: alert 2026-04-20", "2026-05-04: recovery 2026-04-27"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("notices (-want +got):\n%s", d)
	}
	if len(tell.alerts) != 2 {
		t.Errorf("told %d times, want 2", len(tell.alerts))
	}
}

// undelivering tells every channel and fails for the one called "down".
type undelivering struct{}

func (undelivering) Notify(_ context.Context, to []string, a Alert) ([]Delivery, error) {
	var ds []Delivery
	for _, ch := range to {
		d := Delivery{Channel: ch, PeriodStart: a.PeriodStart, Kind: a.Kind, OK: ch != "down", Tries: 1}
		if !d.OK {
			d.Error = "no answer"
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// TestRunKeepsAnUndeliveredAlert: a channel that fails does not fail the
// monitor: the alert is told of, remembered (the next run does not tell
// again) and its deliveries are in the outcome, the failed one among the
// undelivered.
func TestRunKeepsAnUndeliveredAlert(t *testing.T) {
	ctx := context.Background()
	r := &Runner{Model: demoModel(), Source: &csvSource{t: t, file: "demo_weekly_orders.csv"}, Notifier: undelivering{}, State: &memState{}}
	m := weeklyOrders()
	m.Notify = []string{"down", "up"}
	out, err := r.Run(ctx, []Monitor{m}, day("2026-04-27").Add(9*time.Hour), false)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Status != "ran" || len(out[0].Alerts) != 1 || out[0].Alerts[0].Run != "r-test" || len(out[0].Deliveries) != 2 {
		t.Fatalf("run: %+v", out[0])
	}
	want := []Delivery{{Channel: "down", PeriodStart: "2026-04-20", Kind: KindAlert, Tries: 1, Error: "no answer"}}
	if d := cmp.Diff(want, Undelivered(out)); d != "" {
		t.Errorf("undelivered (-want +got):\n%s", d)
	}
	out, err = r.Run(ctx, []Monitor{m}, day("2026-04-27").Add(10*time.Hour), true)
	if err != nil || len(out[0].Alerts) != 0 {
		t.Errorf("the next run told again: %+v %v", out, err)
	}
}

func TestRunNotDueAndMuted(t *testing.T) {
	ctx := context.Background()
	tell := &told{}
	r := &Runner{Model: demoModel(), Source: &csvSource{t: t, file: "demo_weekly_orders.csv"}, Notifier: tell, State: &memState{}}
	m := weeklyOrders()
	m.MutedUntil = "2026-04-30"
	out, err := r.Run(ctx, []Monitor{m}, day("2026-04-27").Add(9*time.Hour), false)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Status != "muted" || len(out[0].Alerts) != 1 || len(tell.alerts) != 0 {
		t.Errorf("muted run: %+v, told %d", out[0], len(tell.alerts))
	}
	out, err = r.Run(ctx, []Monitor{m}, day("2026-04-28").Add(9*time.Hour), false)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Status != "not_due" || out[0].Next != "2026-05-04T09:00:00Z" {
		t.Errorf("run the next day: %+v", out[0])
	}
}

func TestBackfillDemo(t *testing.T) {
	src := &csvSource{t: t, file: "demo_weekly_orders.csv"}
	r := &Runner{Model: demoModel(), Source: src}
	alerts, _, err := r.Backfill(context.Background(), weeklyOrders(), day("2024-07-01"), day("2026-07-01"), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(alerts) != 1 || alerts[0].PeriodStart != "2026-04-20" || alerts[0].PeriodEnd != "2026-04-26" || alerts[0].Value != 183 {
		t.Errorf("backfill: %+v", alerts)
	}
	// The half-finished week of the as-of is never read.
	if to := src.queries[0].TimeRange.To; to != "2026-06-29" {
		t.Errorf("the query reads up to %s, want 2026-06-29", to)
	}
}

// sqlSource serves a verified query's SQL: two segments of the demo's
// weekly orders.
type sqlSource struct {
	t   testing.TB
	sql []string
}

func (s *sqlSource) Metric(context.Context, string, semantic.Query) (*quarry.Table, string, error) {
	return nil, "", quarry.Errorf(quarry.KindUnsupported, "no metrics here")
}

func (s *sqlSource) SQL(_ context.Context, _ string, sql string) (*quarry.Table, string, error) {
	s.sql = append(s.sql, sql)
	tab := &quarry.Table{Columns: []quarry.Column{{Name: "week"}, {Name: "region"}, {Name: "n"}}}
	for _, p := range readCSV(s.t, "demo_weekly_orders.csv") {
		d := p.Start.Format(time.DateOnly)
		tab.Rows = append(tab.Rows, []any{d, "north", p.Value * 0.6}, []any{d, "south", p.Value * 0.4})
	}
	return tab, "r-sql", nil
}

func TestVerifiedQueryMonitor(t *testing.T) {
	src := &sqlSource{t: t}
	r := &Runner{Model: demoModel(), Source: src, Verified: map[string]string{"weekly orders by region": "SELECT 1"}}
	m := Monitor{Name: "regions", Query: "Weekly orders by region", Grain: semantic.GrainWeek, Threshold: 4, Direction: Both}
	alerts, _, err := r.Backfill(context.Background(), m, day("2024-07-01"), day("2026-07-01"), false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range alerts {
		got = append(got, a.Segment+" "+a.PeriodStart)
	}
	// Each segment finds the dip; the week still under way on the as-of
	// (2026-06-29, in the result) is not judged.
	want := []string{"region=north 2026-04-20", "region=south 2026-04-20"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("alerts (-want +got):\n%s", d)
	}
	if len(src.sql) != 1 || src.sql[0] != "SELECT 1" {
		t.Errorf("ran %q, want the verified query's SQL", src.sql)
	}
	m.Query = "gone"
	if _, _, err := r.Backfill(context.Background(), m, day("2024-07-01"), day("2026-07-01"), false); quarry.KindOf(err) != quarry.KindConfig {
		t.Errorf("a monitor of a verified query that is gone: %v", err)
	}
}
