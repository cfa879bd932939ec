package watch

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// flat is n weekly points from 2025-01-06 at 100, with the values of
// changes (by index) replaced.
func flat(n int, changes map[int]float64) []Point {
	start := day("2025-01-06")
	var out []Point
	for i := range n {
		v := 100 + float64(i%3) // a little movement, so the spread is not nothing
		if c, ok := changes[i]; ok {
			v = c
		}
		out = append(out, Point{Start: start.AddDate(0, 0, 7*i), Value: v})
	}
	return out
}

func TestIncidentsOneAlertThenRecovery(t *testing.T) {
	m := Monitor{Name: "orders", Metric: "orders", Grain: semantic.GrainWeek, Threshold: 4}
	pts := flat(30, map[int]float64{22: 40, 23: 42, 24: 41})
	rs, err := Judge(pts, m.Config(true), day("2025-08-04"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range Incidents(m, "", rs) {
		got = append(got, a.Kind+" "+a.PeriodStart+" "+a.PeriodEnd+" "+a.Direction+" since "+a.IncidentStart)
	}
	want := []string{
		"alert 2025-06-09 2025-06-15 down since 2025-06-09",
		"recovery 2025-06-30 2025-07-06 down since 2025-06-09",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("notices (-want +got):\n%s", d)
	}
}

func TestOnlyCompletePeriods(t *testing.T) {
	m := Monitor{Name: "orders", Metric: "orders", Grain: semantic.GrainWeek, Threshold: 4}
	// The last week (2025-06-09) is half over on 2025-06-12 and falls to
	// 40: it is not judged until it ends.
	pts := flat(23, map[int]float64{22: 40})
	for _, tt := range []struct {
		asOf   string
		alerts int
	}{{"2025-06-12", 0}, {"2025-06-15", 0}, {"2025-06-16", 1}} {
		rs, err := Judge(pts, m.Config(true), day(tt.asOf))
		if err != nil {
			t.Fatal(err)
		}
		if got := len(Incidents(m, "", rs)); got != tt.alerts {
			t.Errorf("as of %s: %d alerts, want %d", tt.asOf, got, tt.alerts)
		}
	}
}

func TestMissingPeriodsAreZeroForCounts(t *testing.T) {
	pts := []Point{{day("2025-01-06"), 5}, {day("2025-01-20"), 7}}
	rs, err := Judge(pts, Config{Grain: semantic.GrainWeek, FillZero: true}, day("2025-01-27"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 || rs[1].Value != 0 || !rs[1].Start.Equal(day("2025-01-13")) {
		t.Errorf("readings %+v, want the missing week as a zero", rs)
	}
	rs, _ = Judge(pts, Config{Grain: semantic.GrainWeek}, day("2025-01-27"))
	if len(rs) != 2 {
		t.Errorf("an average's missing week was filled: %+v", rs)
	}
}

func TestRowsStopComing(t *testing.T) {
	m := Monitor{Name: "orders", Metric: "orders", Grain: semantic.GrainWeek, Threshold: 4}
	// Thirty weeks of orders, then none for two weeks: the first empty
	// week is an alert.
	rs, err := Judge(flat(30, nil), m.Config(true), day("2025-08-18"))
	if err != nil {
		t.Fatal(err)
	}
	a := Incidents(m, "", rs)
	if len(a) != 1 || a[0].PeriodStart != "2025-08-04" || a[0].Value != 0 {
		t.Errorf("alerts %+v, want one for the week of 2025-08-04", a)
	}
}

func TestMinVolume(t *testing.T) {
	m := Monitor{Name: "orders", Metric: "orders", Grain: semantic.GrainWeek, Threshold: 4, MinVolume: 500}
	rs, _ := Judge(flat(30, map[int]float64{22: 40}), m.Config(true), day("2025-08-04"))
	if a := Incidents(m, "", rs); len(a) != 0 {
		t.Errorf("alerts below the minimum volume: %v", a)
	}
}

func TestDirection(t *testing.T) {
	m := Monitor{Name: "orders", Metric: "orders", Grain: semantic.GrainWeek, Threshold: 4, Direction: Up}
	rs, _ := Judge(flat(30, map[int]float64{22: 40}), m.Config(true), day("2025-08-04"))
	if a := Incidents(m, "", rs); len(a) != 0 {
		t.Errorf("a monitor of rises alerted on a fall: %v", a)
	}
}

func TestSeriesOf(t *testing.T) {
	tab := &quarry.Table{
		Columns: []quarry.Column{{Name: "week"}, {Name: "channel"}, {Name: "orders"}},
		Rows: [][]any{
			{"2026-04-13", "web", int64(300)}, {"2026-04-13", "store", int64(50)},
			{"2026-04-20", "web", int64(100)}, {"2026-04-20", "store", nil},
		},
	}
	got, err := SeriesOf(tab, semantic.GrainWeek)
	if err != nil {
		t.Fatal(err)
	}
	want := []Series{
		{Segment: "channel=store", Key: []string{"store"}, Points: []Point{{day("2026-04-13"), 50}, {day("2026-04-20"), 0}}},
		{Segment: "channel=web", Key: []string{"web"}, Points: []Point{{day("2026-04-13"), 300}, {day("2026-04-20"), 100}}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("series (-want +got):\n%s", d)
	}
	if _, err := SeriesOf(&quarry.Table{Columns: tab.Columns, Rows: [][]any{{"soon", "web", 1}}}, semantic.GrainWeek); err == nil {
		t.Error("a period that is not a date was read")
	}
}

func TestPeriods(t *testing.T) {
	tue := day("2026-06-30")
	for _, tt := range []struct {
		g           semantic.Grain
		start, next string
	}{
		{semantic.GrainDay, "2026-06-30", "2026-07-01"},
		{semantic.GrainWeek, "2026-06-29", "2026-07-06"},
		{semantic.GrainMonth, "2026-06-01", "2026-07-01"},
	} {
		s := PeriodStart(tue, tt.g)
		if s.Format(time.DateOnly) != tt.start || PeriodEnd(s, tt.g).Format(time.DateOnly) != tt.next {
			t.Errorf("%s: %s to %s, want %s to %s", tt.g, s.Format(time.DateOnly), PeriodEnd(s, tt.g).Format(time.DateOnly), tt.start, tt.next)
		}
	}
}

func TestContributions(t *testing.T) {
	cur := &quarry.Table{Columns: []quarry.Column{{Name: "channel"}, {Name: "orders"}},
		Rows: [][]any{{"web", int64(100)}, {"mobile", int64(60)}, {"store", int64(40)}}}
	base := &quarry.Table{Columns: cur.Columns,
		Rows: [][]any{{"web", int64(2400)}, {"mobile", int64(640)}, {"store", int64(320)}}}
	cs, err := Contributions("channel", cur, base, 8, true)
	if err != nil {
		t.Fatal(err)
	}
	got := Top(cs, 2, -1)
	want := []Contribution{
		{Dimension: "channel", Value: "web", Current: 100, Baseline: 300, Delta: -200, Share: 0.909091},
		{Dimension: "channel", Value: "mobile", Current: 60, Baseline: 80, Delta: -20, Share: 0.0909091},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("contributions (-want +got):\n%s", d)
	}
}

func TestSplits(t *testing.T) {
	m := &semantic.Model{
		Metrics: []semantic.Metric{
			{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"},
			{Name: "revenue", Entity: "order_items", Expr: "SUM(order_items.price)"},
			{Name: "aov", Derived: "{revenue} / {orders}"},
		},
		Dimensions: []semantic.Dimension{
			{Name: "channel", Entity: "orders"}, {Name: "country", Entity: "customers"},
			{Name: "category", Entity: "products"}, {Name: "device", Entity: "web_sessions"},
		},
		Relationships: []semantic.Relationship{
			{From: "orders", To: "customers", Cardinality: semantic.ManyToOne},
			{From: "order_items", To: "orders", Cardinality: semantic.ManyToOne},
			{From: "order_items", To: "products", Cardinality: semantic.ManyToOne},
			{From: "customers", To: "web_sessions", Cardinality: semantic.OneToMany},
		},
	}
	for _, tt := range []struct {
		metric, dim string
		want        bool
	}{
		{"orders", "channel", true}, {"orders", "country", true}, {"revenue", "country", true},
		{"revenue", "category", true}, {"orders", "category", false}, {"orders", "device", false},
		{"aov", "channel", true}, {"aov", "category", false}, {"nothing", "channel", false},
	} {
		if got := Splits(m, tt.metric, tt.dim); got != tt.want {
			t.Errorf("Splits(%s, %s) = %v, want %v", tt.metric, tt.dim, got, tt.want)
		}
	}
}
