package watch

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// weeks is weekly points from 2025-01-06, one a value.
func weeks(vals ...float64) []Point {
	var out []Point
	for i, v := range vals {
		out = append(out, Point{Start: day("2025-01-06").AddDate(0, 0, 7*i), Value: v})
	}
	return out
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestUndefinedScoresAreNotJudged: a baseline of 0 (no percent change)
// or a spread of 0 (no z-score) is not judged by that detector, with the
// reason recorded, rather than given a capped score of 1000 or -100.
func TestUndefinedScoresAreNotJudged(t *testing.T) {
	tests := []struct {
		name     string
		detector Detector
		vals     []float64
		why      string // the last period's reason; "" when it is judged
	}{
		{"zscore, zeros then 2", ZScore, append(repeat(0, 20), 2), "baseline is 0"},
		{"percent, zeros then 2", PercentChange, append(repeat(0, 20), 2), "baseline is 0"},
		{"zscore, no movement then a fall", ZScore, append(repeat(50, 20), 0), "has not moved"},
		{"percent, no movement then a fall", PercentChange, append(repeat(50, 20), 0), ""},
		{"zscore, some movement then a fall", ZScore, append(weeksOf(20), 0), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, _ := Threshold(tt.detector, "medium")
			cfg := Config{Grain: semantic.GrainWeek, Detector: tt.detector, Threshold: th}
			pts := weeks(tt.vals...)
			rs, err := Judge(pts, cfg, PeriodEnd(pts[len(pts)-1].Start, semantic.GrainWeek))
			if err != nil {
				t.Fatal(err)
			}
			last := rs[len(rs)-1]
			for _, r := range rs {
				if r.Score > 100 || r.Score < -100 {
					t.Errorf("%s: a made-up score %g", r.Start.Format(time.DateOnly), r.Score)
				}
			}
			if tt.why == "" {
				if !last.Judged || !last.Anomalous {
					t.Errorf("last period not judged anomalous: %+v", last)
				}
				return
			}
			if last.Judged || !strings.Contains(last.NotJudged, tt.why) {
				t.Errorf("last period judged %v, reason %q; want not judged because %q", last.Judged, last.NotJudged, tt.why)
			}
		})
	}
}

// weeksOf is n values around 100 that move a little.
func weeksOf(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 100 + float64(i%3)
	}
	return out
}

// TestStopsCompletely: a count whose rows stop for good alerts once and
// never recovers while it stays at zero, however far the baseline
// drifts, and a recovery needs the value back in the range of the
// baseline the incident started from.
func TestStopsCompletely(t *testing.T) {
	m := Monitor{Name: "orders", Metric: "orders", Grain: semantic.GrainWeek, Threshold: 4}
	pts := weeks(weeksOf(60)...)
	// Rows stop after 60 weeks; judged 40 weeks later.
	asOf := pts[len(pts)-1].Start.AddDate(0, 0, 7*41)
	rs, err := Judge(pts, m.Config(true), asOf)
	if err != nil {
		t.Fatal(err)
	}
	as := Incidents(m, "", rs)
	if len(as) != 1 || as[0].Kind != KindAlert || as[0].Value != 0 {
		t.Fatalf("notices %+v, want one alert and no recovery", as)
	}
	// A fall to half that stays: the baseline learns the new level after
	// a few periods, but half is no recovery.
	vals := append(weeksOf(60), repeat(50, 20)...)
	vals = append(vals, weeksOf(5)...)
	pts = weeks(vals...)
	rs, err = Judge(pts, m.Config(true), PeriodEnd(pts[len(pts)-1].Start, semantic.GrainWeek))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range Incidents(m, "", rs) {
		got = append(got, a.Kind+" "+a.PeriodStart)
	}
	want := []string{"alert 2026-03-02", "recovery 2026-07-20"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("notices %v, want %v", got, want)
	}
}

// TestCheckSaysNoData: when no segment has a row for the latest complete
// periods, the check says since when, rather than reading zeros as
// normal; rows up to the latest complete period say nothing.
func TestCheckSaysNoData(t *testing.T) {
	tests := []struct {
		asOf, since, note string
	}{
		{"2026-07-01", "", ""},
		{"2026-07-06", "", ""}, // the week of 2026-06-29 is complete and has rows
		{"2026-07-13", "2026-07-06", "no data since 2026-07-06: no rows in any segment for the last complete week"},
		{"2026-12-02", "2026-07-06", "no data since 2026-07-06: no rows in any segment for the last 21 complete weeks"},
	}
	for _, tt := range tests {
		r := &Runner{Model: demoModel(), Source: &sqlSource{t: t}, Verified: map[string]string{"q": "SELECT 1"}}
		m := Monitor{Name: "m", Query: "q", Grain: semantic.GrainWeek, Threshold: 4, Direction: Both}
		c, err := r.Check(context.Background(), m, time.Time{}, day(tt.asOf))
		if err != nil {
			t.Fatal(err)
		}
		if c.NoDataSince != tt.since || !strings.HasPrefix(c.NoData, tt.note) {
			t.Errorf("as of %s: no data since %q, %q; want %q, %q", tt.asOf, c.NoDataSince, c.NoData, tt.since, tt.note)
		}
	}
}

func TestMessages(t *testing.T) {
	tests := []struct {
		grain semantic.Grain
		kind  string
		want  string
	}{
		{semantic.GrainDay, KindAlert, "orders fell 63% on 2026-04-20: 37 against a baseline of 100"},
		{semantic.GrainWeek, KindAlert, "orders fell 63% in the week of 2026-04-20: 37 against"},
		{semantic.GrainDay, KindRecovery, "orders returned to the expected range on 2026-04-20: 37 against"},
		{semantic.GrainMonth, KindRecovery, "orders returned to the expected range in the month of 2026-04-20: 37"},
	}
	for _, tt := range tests {
		m := Monitor{Name: "m", Metric: "orders", Grain: tt.grain, Threshold: 4}
		a := Alert{Kind: tt.kind, PeriodStart: "2026-04-20", Value: 37, Baseline: 100, Change: -0.63, Direction: "down", IncidentStart: "2026-04-13"}
		if got := message(m, a); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s %s: %q, want it to start %q", tt.grain, tt.kind, got, tt.want)
		}
	}
}

// TestFirstRunTellsOfAStop: a monitor first run long after its rows
// stopped tells of the incident still open (its latest periods are not
// judged: their baseline has fallen to 0), not of nothing.
func TestFirstRunTellsOfAStop(t *testing.T) {
	tell := &told{}
	r := &Runner{Model: demoModel(), Source: &csvSource{t: t, file: "demo_weekly_orders.csv"}, Notifier: tell, State: &memState{}}
	out, err := r.Run(context.Background(), []Monitor{weeklyOrders()}, day("2026-12-02").Add(9*time.Hour), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(out[0].Alerts) != 1 || out[0].Alerts[0].Kind != KindAlert || out[0].Alerts[0].PeriodStart != "2026-06-29" {
		t.Errorf("first run tells %+v, want the alert of the week of 2026-06-29", out[0].Alerts)
	}
}
