package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/watch"
)

// shopMonitors is the runtime's side of the Monitors page over the test
// shop: the monitors it is given, series read by watch's own Runner
// through the server's analyst (the guard, a recorded run) and judged by
// watch.Judge, kept alerts as given, and muting in memory.
type shopMonitors struct {
	start StartFunc
	k     *analyst.Knowledge
	st    Store

	mu       sync.Mutex
	monitors []watch.Monitor
	state    watch.State
	alerts   []KeptAlert
}

func (s *shopMonitors) List(context.Context) ([]watch.Monitor, watch.State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]watch.Monitor(nil), s.monitors...), s.state, nil
}

func (s *shopMonitors) Check(ctx context.Context, m watch.Monitor, asOf time.Time) (*watch.Checked, error) {
	runner, done, err := s.start(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	src := &shopSource{an: runner.(*analyst.Analyst), model: s.k.Model, st: s.st}
	r := &watch.Runner{Model: s.k.Model, Source: src, Verified: map[string]string{}}
	return r.Check(ctx, m, time.Time{}, asOf)
}

func (s *shopMonitors) Alerts(_ context.Context, name string, page AlertsPage) ([]KeptAlert, bool, error) {
	var out []KeptAlert
	for i := len(s.alerts) - 1; i >= 0; i-- {
		a := s.alerts[i]
		a.Seq = i + 1
		if a.Monitor != name || (page.Before > 0 && a.Seq >= page.Before) {
			continue
		}
		if len(out) == page.Limit {
			return out, true, nil
		}
		out = append(out, a)
	}
	return out, false, nil
}

func (s *shopMonitors) Mute(_ context.Context, name, until string) (watch.Monitor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.monitors {
		if s.monitors[i].Name == name {
			s.monitors[i].MutedUntil = until
			return s.monitors[i], nil
		}
	}
	return watch.Monitor{}, quarry.Errorf(quarry.KindNotFound, "no monitor %q", name)
}

// shopSource runs a monitor's queries through the analyst, each a
// recorded run.
type shopSource struct {
	an    *analyst.Analyst
	model *semantic.Model
	st    Store
	mu    sync.Mutex
	n     int
}

func (s *shopSource) Metric(ctx context.Context, label string, q semantic.Query) (*quarry.Table, string, error) {
	c, err := semantic.Compile(s.model, q, quarry.DialectSQLite)
	if err != nil {
		return nil, "", err
	}
	return s.SQL(ctx, label, c.SQL)
}

func (s *shopSource) SQL(ctx context.Context, label, sql string) (*quarry.Table, string, error) {
	s.mu.Lock()
	s.n++
	id := fmt.Sprintf("r_monitor_%d_%d", time.Now().UnixNano(), s.n)
	s.mu.Unlock()
	rows := &tableRows{}
	if _, err := s.an.Run(ctx, event.NewRecorder(id, time.Now, s.st), "-- "+label+"\n"+sql, rows); err != nil {
		return nil, id, err
	}
	return &rows.t, id, nil
}

// tableRows keeps a streamed result.
type tableRows struct{ t quarry.Table }

func (r *tableRows) Begin(cols []quarry.Column) error { r.t.Columns = cols; return nil }
func (r *tableRows) Row(vals []any) error {
	r.t.Rows = append(r.t.Rows, append([]any(nil), vals...))
	return nil
}

// dipShop is the test shop with one order in seven (about 130 a week,
// 0–8% fewer by the week, which keeps its queries quick under the race detector)
// and half of those of the week of 2025-10-06 gone: a weekly monitor of
// orders alerts on that week and recovers the next.
func dipShop(t *testing.T) *shop {
	t.Helper()
	sh := newShop(t)
	db, err := sqlite3.Open(sh.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// A few percent fewer in most weeks, so that the series moves: a
	// z-score needs a spread to divide by (watch does not judge a series
	// that never moved).
	if err := db.Exec(`DELETE FROM orders WHERE id % 7 != 0 OR ordered_at >= '2025-10-06' AND ordered_at < '2025-10-13' AND id % 14 = 0
		OR (id / 7) % 50 < CAST(strftime('%W', ordered_at) AS INTEGER) % 5`); err != nil {
		t.Fatal(err)
	}
	return sh
}

// monitorsServer serves the dip shop with four monitors: weekly orders
// (run before), by country (never run), muted, and one whose verified
// query is gone (it cannot be read).
func monitorsServer(t *testing.T) (*testServer, *shopMonitors) {
	t.Helper()
	th, _ := watch.Threshold(watch.ZScore, "medium")
	base := watch.Monitor{Metric: "order_count", Grain: semantic.GrainWeek, Schedule: "every Monday at 9", Cron: "0 9 * * 1", Detector: watch.ZScore, Sensitivity: "medium", Threshold: th, Direction: watch.Both}
	mk := func(name string, edit func(*watch.Monitor)) watch.Monitor {
		m := base
		m.Name, m.File = name, "monitors/"+name+".yaml"
		if edit != nil {
			edit(&m)
		}
		return m
	}
	var mons *shopMonitors
	s := serve(t, dipShop(t), options{monitors: func(start StartFunc, k *analyst.Knowledge, st Store) Monitors {
		mons = &shopMonitors{start: start, k: k, st: st,
			monitors: []watch.Monitor{
				mk("weekly_orders", nil),
				mk("orders_by_country", func(m *watch.Monitor) { m.Dimensions = []string{"country"} }),
				mk("quiet", func(m *watch.Monitor) { m.MutedUntil = "2999-12-31" }),
				mk("gone", func(m *watch.Monitor) { m.Metric, m.Query = "", "What was the weekly revenue?" }),
			},
			state: watch.State{Monitors: map[string]watch.MonitorState{"weekly_orders": {LastRun: time.Date(2025, 12, 1, 9, 0, 0, 0, time.UTC)}}},
			alerts: []KeptAlert{
				{At: "2025-10-13T09:00:01Z", Alert: watch.Alert{Monitor: "weekly_orders", Kind: watch.KindAlert, PeriodStart: "2025-10-06", PeriodEnd: "2025-10-12", Value: 480, Run: "r_series",
					Investigation: &watch.Investigation{BaselineStart: "2025-08-11", BaselineEnd: "2025-10-05", Contributors: []watch.Contribution{{Dimension: "country", Value: "Spain", Current: 160, Baseline: 320, Delta: -160, Share: 0.33}}, Runs: []string{"r_breakdown"}}}},
				{At: "2025-10-20T09:00:01Z", Alert: watch.Alert{Monitor: "weekly_orders", Kind: watch.KindRecovery, PeriodStart: "2025-10-13", PeriodEnd: "2025-10-19", Value: 959}},
				{At: "2025-10-13T09:00:02Z", Alert: watch.Alert{Monitor: "orders_by_country", Kind: watch.KindAlert, Segment: "country=Spain", PeriodStart: "2025-10-06", PeriodEnd: "2025-10-12"}},
			},
		}
		return mons
	}})
	return s, mons
}

// monitorListJSON is GET /api/monitors as the tests read it.
type monitorListJSON struct {
	AsOf     string        `json:"as_of"`
	Monitors []monitorJSON `json:"monitors"`
}

// TestMonitorEndpoints runs every endpoint of the Monitors page on one
// server over the dip shop.
func TestMonitorEndpoints(t *testing.T) {
	s, mons := monitorsServer(t)
	t.Run("list", func(t *testing.T) { monitorsList(t, s) })
	t.Run("series", func(t *testing.T) { monitorSeries(t, s) })
	t.Run("alerts", func(t *testing.T) { monitorAlertsNewestFirst(t, s) })
	t.Run("mute and test", func(t *testing.T) { monitorMuteAndTest(t, s, mons) })
	t.Run("refusals", func(t *testing.T) { monitorRoutesRefuse(t, s) })
}

func monitorsList(t *testing.T, s *testServer) {
	type row struct {
		Name, Status, Latest string
		Anomalous            bool
		Segments, Spark      int
		Problem              bool
	}
	for _, tt := range []struct {
		name, asOf string
		want       []row
	}{
		{"the week of the dip", "2025-10-12", []row{
			{"weekly_orders", statusAlerting, "2025-10-06", true, 1, 26, false},
			{"orders_by_country", statusAlerting, "2025-10-06", true, 3, 26, false},
			{"quiet", statusMuted, "2025-10-06", true, 1, 26, false},
			{"gone", statusFailing, "", false, 0, 0, true},
		}},
		{"the year's end", "2025-12-31", []row{
			{"weekly_orders", statusOK, "2025-12-22", false, 1, 26, false},
			{"orders_by_country", statusNotRun, "2025-12-22", false, 3, 26, false},
			{"quiet", statusMuted, "2025-12-22", false, 1, 26, false},
			{"gone", statusFailing, "", false, 0, 0, true},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got monitorListJSON
			s.getJSON(t, "/api/monitors?as_of="+tt.asOf, 200, &got)
			if got.AsOf != tt.asOf {
				t.Errorf("as_of %q", got.AsOf)
			}
			var rows []row
			for _, m := range got.Monitors {
				r := row{Name: m.Name, Status: m.Status, Segments: m.Segments, Problem: m.Problem != ""}
				if m.Latest != nil {
					r.Latest, r.Anomalous = m.Latest.PeriodStart, m.Latest.Anomalous
				}
				if m.Spark != nil {
					r.Spark = len(m.Spark.Points)
				}
				rows = append(rows, r)
				if m.Latest != nil && m.Spark != nil && !cmp.Equal(*m.Latest, withSegment(m.Spark.Points[len(m.Spark.Points)-1], m.Spark.Segment)) {
					t.Errorf("%s: the latest period is not the sparkline's last: %+v", m.Name, *m.Latest)
				}
				if m.Cron != "0 9 * * 1" || m.Watches == "" || m.Reads == "" || m.NextRun == "" {
					t.Errorf("%s: schedule %q, %q, next %q, watches %q", m.Name, m.Cron, m.Reads, m.NextRun, m.Watches)
				}
			}
			if diff := cmp.Diff(tt.want, rows); diff != "" {
				t.Errorf("monitors (-want +got):\n%s", diff)
			}
			gone := got.Monitors[len(got.Monitors)-1]
			if !strings.Contains(gone.Problem, "What was the weekly revenue?") {
				t.Errorf("the failing monitor's problem: %q", gone.Problem)
			}
		})
	}
}

func withSegment(p pointJSON, seg string) pointJSON {
	p.Segment = seg
	return p
}

func monitorSeries(t *testing.T, s *testServer) {
	var got seriesJSON
	s.getJSON(t, "/api/monitors/weekly_orders/series?as_of=2025-12-31&periods=20", 200, &got)
	if got.Monitor.Name != "weekly_orders" || got.Monitor.Status != statusOK || got.Monitor.AsOf != "2025-12-31" || len(got.Monitor.Runs) != 1 {
		t.Errorf("the monitor: %+v", got.Monitor)
	}
	if len(got.Segments) != 1 || len(got.Segments[0].Points) != 20 {
		t.Fatalf("segments: %+v", got.Segments)
	}
	var anomalous []string
	for _, p := range got.Segments[0].Points {
		if p.Anomalous {
			anomalous = append(anomalous, p.PeriodStart)
		}
		if !p.Judged {
			t.Errorf("%s is not judged", p.PeriodStart)
			continue
		}
		// The band is the detector's: a value outside it is anomalous,
		// one inside is not, and it holds the baseline.
		if p.Baseline == nil || p.Low == nil || p.High == nil || *p.Low > *p.Baseline || *p.Baseline > *p.High {
			t.Fatalf("%s: baseline %v, band %v – %v", p.PeriodStart, p.Baseline, p.Low, p.High)
		}
		if outside := p.Value < *p.Low || p.Value > *p.High; outside != p.Anomalous {
			t.Errorf("%s: value %g, band %g – %g, anomalous %v", p.PeriodStart, p.Value, *p.Low, *p.High, p.Anomalous)
		}
	}
	if diff := cmp.Diff([]string{"2025-10-06"}, anomalous); diff != "" {
		t.Errorf("anomalous periods (-want +got):\n%s", diff)
	}
	var notices []string
	for _, n := range got.Segments[0].Notices {
		notices = append(notices, n.Kind+" "+n.PeriodStart+" – "+n.PeriodEnd)
	}
	if diff := cmp.Diff([]string{"alert 2025-10-06 – 2025-10-12", "recovery 2025-10-13 – 2025-10-19"}, notices); diff != "" {
		t.Errorf("notices (-want +got):\n%s", diff)
	}
	last := got.Segments[0].Points[19]
	if last.PeriodStart != "2025-12-22" || last.PeriodEnd != "2025-12-28" {
		t.Errorf("the last complete week: %s – %s", last.PeriodStart, last.PeriodEnd)
	}

	// By country: one series per country, each with the dip.
	s.getJSON(t, "/api/monitors/orders_by_country/series?as_of=2025-12-31&periods=20", 200, &got)
	var segs []string
	for _, seg := range got.Segments {
		segs = append(segs, seg.Segment)
		if len(seg.Notices) == 0 || seg.Notices[0].PeriodStart != "2025-10-06" {
			t.Errorf("%s: notices %+v", seg.Segment, seg.Notices)
		}
	}
	if diff := cmp.Diff([]string{"country=Finland", "country=Germany", "country=Spain"}, segs); diff != "" {
		t.Errorf("segments (-want +got):\n%s", diff)
	}
}

func monitorAlertsNewestFirst(t *testing.T, s *testServer) {
	var got struct {
		Monitor string      `json:"monitor"`
		Alerts  []KeptAlert `json:"alerts"`
	}
	s.getJSON(t, "/api/monitors/weekly_orders/alerts", 200, &got)
	var kinds []string
	for _, a := range got.Alerts {
		kinds = append(kinds, a.Kind+" "+a.PeriodStart)
	}
	if diff := cmp.Diff([]string{"recovery 2025-10-13", "alert 2025-10-06"}, kinds); diff != "" {
		t.Errorf("alerts (-want +got):\n%s", diff)
	}
	if inv := got.Alerts[1].Investigation; inv == nil || len(inv.Contributors) != 1 || inv.Runs[0] != "r_breakdown" || got.Alerts[1].Run != "r_series" {
		t.Errorf("the alert's investigation: %+v", got.Alerts[1])
	}
	s.getJSON(t, "/api/monitors/quiet/alerts", 200, &got)
	if got.Alerts == nil || len(got.Alerts) != 0 {
		t.Errorf("a monitor without alerts: %#v", got.Alerts)
	}

	// Pages: limit, and next_before while older ones remain.
	var page struct {
		Alerts     []KeptAlert `json:"alerts"`
		NextBefore int         `json:"next_before"`
	}
	s.getJSON(t, "/api/monitors/weekly_orders/alerts?limit=1", 200, &page)
	if len(page.Alerts) != 1 || page.Alerts[0].Kind != "recovery" || page.NextBefore != page.Alerts[0].Seq || page.NextBefore == 0 {
		t.Fatalf("the first page: %+v", page)
	}
	next := page.NextBefore
	page.NextBefore = 0
	s.getJSON(t, "/api/monitors/weekly_orders/alerts?limit=1&before="+strconv.Itoa(next), 200, &page)
	if len(page.Alerts) != 1 || page.Alerts[0].Kind != "alert" || page.NextBefore != 0 {
		t.Errorf("the last page: %+v", page)
	}
}

// monitorMuteAndTest leaves weekly_orders unmuted, as it found it.
func monitorMuteAndTest(t *testing.T, s *testServer, mons *shopMonitors) {
	today := time.Now()
	for _, tt := range []struct {
		name, body string
		wantMuted  string // muted_until after
	}{
		{"until a day", `{"until":"2999-01-15"}`, "2999-01-15"},
		{"for some days", `{"days":7}`, today.AddDate(0, 0, 7).Format(time.DateOnly)},
		{"off", `{"off":true}`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, b := s.do(t, "POST", "/api/monitors/weekly_orders/mute", tt.body)
			if res.StatusCode != 200 {
				t.Fatalf("%d %s", res.StatusCode, b)
			}
			var got monitorJSON
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			ms, _, _ := mons.List(context.Background())
			if got.MutedUntil != tt.wantMuted || ms[0].MutedUntil != tt.wantMuted {
				t.Errorf("muted until %q, kept %q, want %q", got.MutedUntil, ms[0].MutedUntil, tt.wantMuted)
			}
			wantStatus := ""
			if tt.wantMuted >= today.Format(time.DateOnly) {
				wantStatus = statusMuted
			}
			if got.Status != wantStatus || got.Muted != (wantStatus == statusMuted) {
				t.Errorf("status %q, muted %v", got.Status, got.Muted)
			}
		})
	}

	res, b := s.do(t, "POST", "/api/monitors/orders_by_country/test", `{"as_of":"2025-10-12"}`)
	if res.StatusCode != 200 {
		t.Fatalf("test: %d %s", res.StatusCode, b)
	}
	var tested testJSON
	if err := json.Unmarshal(b, &tested); err != nil {
		t.Fatal(err)
	}
	if tested.AsOf != "2025-10-12" || len(tested.Runs) != 1 || tested.Threshold != 4 || len(tested.Segments) != 3 {
		t.Fatalf("test: %+v", tested)
	}
	for _, p := range tested.Segments {
		if p.PeriodStart != "2025-10-06" || !p.Anomalous || p.Score > -4 {
			t.Errorf("test %s: %+v", p.Segment, p)
		}
	}
}

func monitorRoutesRefuse(t *testing.T, s *testServer) {
	for _, tt := range []struct {
		name, method, path, body string
		status                   int
		kind, msg                string
	}{
		{"bad as_of", "GET", "/api/monitors?as_of=last+week", "", 400, "input", "YYYY-MM-DD"},
		{"bad periods", "GET", "/api/monitors/weekly_orders/series?periods=0", "", 400, "input", "periods"},
		{"too many periods", "GET", "/api/monitors?periods=100000", "", 400, "input", "periods"},
		{"unknown monitor's series", "GET", "/api/monitors/nope/series", "", 404, "not_found", `no monitor "nope"`},
		{"unknown monitor's alerts", "GET", "/api/monitors/nope/alerts", "", 404, "not_found", `no monitor "nope"`},
		{"unknown monitor muted", "POST", "/api/monitors/nope/mute", `{"off":true}`, 404, "not_found", `no monitor "nope"`},
		{"unknown monitor tested", "POST", "/api/monitors/nope/test", `{}`, 404, "not_found", `no monitor "nope"`},
		{"a series that cannot be read", "GET", "/api/monitors/gone/series", "", 400, "config", "is gone"},
		{"mute without a length", "POST", "/api/monitors/weekly_orders/mute", `{}`, 400, "input", "say how long"},
		{"mute two ways", "POST", "/api/monitors/weekly_orders/mute", `{"days":3,"off":true}`, 400, "input", `give one of "days" and "off", not both`},
		{"mute for 0 days", "POST", "/api/monitors/weekly_orders/mute", `{"days":0}`, 400, "input", "days is 0; mute for 1 to 3660 days"},
		{"mute off false", "POST", "/api/monitors/weekly_orders/mute", `{"off":false}`, 400, "input", `"off" unmutes`},
		{"mute until a past day", "POST", "/api/monitors/weekly_orders/mute", `{"until":"2001-01-01"}`, 400, "input", "in the past"},
		{"mute with an array", "POST", "/api/monitors/weekly_orders/mute", `[1]`, 400, "input", "the body must be a JSON object, not a JSON array"},
		{"mute with days a string", "POST", "/api/monitors/weekly_orders/mute", `{"days":"3"}`, 400, "input", `field "days" must be a whole number, not a JSON string`},
		{"mute until no date", "POST", "/api/monitors/weekly_orders/mute", `{"until":"soon"}`, 400, "input", "YYYY-MM-DD"},
		{"mute for too long", "POST", "/api/monitors/weekly_orders/mute", `{"days":100000}`, 400, "input", "days"},
		{"mute with an unknown field", "POST", "/api/monitors/weekly_orders/mute", `{"for":"2w"}`, 400, "input", `unknown field "for"`},
		{"a future as_of", "GET", "/api/monitors?as_of=9999-12-31", "", 400, "input", "after today"},
		{"a future series", "GET", "/api/monitors/weekly_orders/series?as_of=2999-01-01", "", 400, "input", "after today"},
		{"test of a future day", "POST", "/api/monitors/weekly_orders/test", `{"as_of":"9999-12-31"}`, 400, "input", "after today"},
		{"test with a bad day", "POST", "/api/monitors/weekly_orders/test", `{"as_of":"2025-13-01"}`, 400, "input", "YYYY-MM-DD"},
		{"alerts: limit 0", "GET", "/api/monitors/weekly_orders/alerts?limit=0", "", 400, "input", "from 1 to 500"},
		{"alerts: limit over 500", "GET", "/api/monitors/weekly_orders/alerts?limit=501", "", 400, "input", "from 1 to 500"},
		{"alerts: before no number", "GET", "/api/monitors/weekly_orders/alerts?before=abc", "", 400, "input", "next_before"},
		{"GET mute", "GET", "/api/monitors/weekly_orders/mute", "", 404, "not_found", "no API route"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, b := s.do(t, tt.method, tt.path, tt.body)
			if res.StatusCode != tt.status {
				t.Fatalf("%d %s", res.StatusCode, b)
			}
			if tt.kind == "" {
				return
			}
			var e struct{ Error apiError }
			if err := json.Unmarshal(b, &e); err != nil || e.Error.Kind != tt.kind || !strings.Contains(e.Error.Message, tt.msg) {
				t.Errorf("error %s, want kind %s with %q", b, tt.kind, tt.msg)
			}
		})
	}
	// Another site's page cannot read the monitors.
	if res, b := s.do(t, "GET", "/api/monitors", "", "Origin", "http://evil.example"); res.StatusCode != 403 {
		t.Errorf("a cross-origin read: %d %s", res.StatusCode, b)
	}
	if res, b := s.do(t, "POST", "/api/monitors/weekly_orders/mute", `{"off":true}`, "Sec-Fetch-Site", "cross-site"); res.StatusCode != 403 {
		t.Errorf("a cross-site mute: %d %s", res.StatusCode, b)
	}
	// A server without monitors has none.
	bare := serve(t, s.shop, options{})
	if res, b := bare.do(t, "GET", "/api/monitors", ""); res.StatusCode != 404 || !strings.Contains(string(b), "this server has no monitors") {
		t.Errorf("no monitors: %d %s", res.StatusCode, b)
	}
}

// TestStatusOfAStoppedMetric: a monitor whose metric stopped (no rows in
// any segment for its latest complete periods) is "no_data" with the
// reason, not "ok" at zero against a zero; a muted one stays muted.
func TestStatusOfAStoppedMetric(t *testing.T) {
	c := &watch.Checked{NoDataSince: "2026-07-06", NoData: "no data since 2026-07-06"}
	for _, tt := range []struct {
		muted       bool
		status, why string
	}{{false, statusNoData, "no data since 2026-07-06"}, {true, statusMuted, ""}} {
		v := monitorJSON{Muted: tt.muted, LastRun: "2026-12-01"}
		judged(&v, c, nil)
		if v.Status != tt.status || v.Problem != tt.why {
			t.Errorf("muted %v: status %q, problem %q; want %q, %q", tt.muted, v.Status, v.Problem, tt.status, tt.why)
		}
	}
}
