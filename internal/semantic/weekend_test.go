package semantic

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/quarry"
)

// weekendCases are the golden cases of the part of the week and of
// filters by days of the week. The fixture's orders fall on Friday
// 2025-01-10, Monday 01-20, Monday 02-03, Friday 02-14, Saturday 03-01,
// Sunday 03-30 and Monday 05-05.
func weekendCases() []compileCase {
	weekend := Filter{Field: "part_of_week", Op: OpEq, Values: str("weekend")}
	return []compileCase{
		{"revenue_by_part_of_week", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "part_of_week"}}},
			[][]string{{"weekday", "300"}, {"weekend", "30"}}},
		{"orders_and_revenue_by_part_of_week_q1", Query{Metrics: []string{"orders", "revenue"}, Dimensions: []DimRef{{Name: "time", Grain: GrainPartOfWeek}}, TimeRange: q1},
			[][]string{{"weekday", "4", "200"}, {"weekend", "2", "30"}}},
		{"orders_on_weekends", Query{Metrics: []string{"orders"}, Filters: []Filter{weekend}},
			[][]string{{"2"}}},
		{"revenue_on_weekdays_by_channel_q1", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "channel"}}, Filters: []Filter{{Field: "time", Grain: GrainPartOfWeek, Op: OpIn, Values: str("Weekday")}}, TimeRange: q1},
			[][]string{{"mobile", "45"}, {"web", "155"}}},
		{"orders_on_mondays", Query{Metrics: []string{"orders"}, Filters: []Filter{{Field: "day_of_week", Op: OpEq, Values: str("Monday")}}},
			[][]string{{"3"}}},
		{"orders_not_on_weekends_of_order_date", Query{Metrics: []string{"orders"}, Filters: []Filter{{Field: "order_date", Grain: GrainPartOfWeek, Op: OpNe, Values: str("weekend")}}},
			[][]string{{"5"}}},
		{"rows_orders_on_weekends", Query{Rows: &RowsQuery{Entity: "orders", Columns: []string{"id", "ordered_at"}}, Filters: []Filter{weekend}, Order: []Order{{Field: "id"}}},
			[][]string{{"5", "2025-03-01 08:00:00"}, {"6", "2025-03-30 23:59:59"}}},
		{"orders_by_part_of_week_compare_months", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "part_of_week"}}, Compare: []Period{jan, {Label: "March 2025", From: "2025-03-01", To: "2025-04-01"}}},
			[][]string{{"January 2025", "weekday", "2"}, {"March 2025", "weekend", "2"}}},
	}
}

// TestCycleFilterErrors: a filter by a day of the week takes the grain's
// own values and only equality; anything else is an input error, never a
// filter quietly dropped.
func TestCycleFilterErrors(t *testing.T) {
	m := loadModel(t)
	for _, tt := range []struct {
		f    Filter
		want string
	}{
		{Filter{Field: "part_of_week", Op: OpEq, Values: str("holiday")}, "use weekday, weekend"},
		{Filter{Field: "day_of_week", Op: OpEq, Values: str("Funday")}, "use Monday"},
		{Filter{Field: "part_of_week", Op: OpGt, Values: str("weekday")}, "takes =, !=, in or not_in"},
		{Filter{Field: "part_of_week", Op: OpEq}, "needs at least one value"},
		{Filter{Field: "part_of_week", Op: OpNotIn, Values: str("weekday", "weekend")}, "keeps no day"},
		{Filter{Field: "order_date", Grain: GrainMonth, Op: OpEq, Values: str("2025-01-01")}, "takes the grain day_of_week or part_of_week"},
	} {
		_, err := Compile(m, Query{Metrics: []string{"orders"}, Filters: []Filter{tt.f}}, quarry.DialectSQLite)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v; want one saying %q", tt.f, err, tt.want)
		}
	}
	// A metric without a date cannot be cut by the part of the week.
	m.Entity("orders").TimeColumn = ""
	if _, err := Compile(m, Query{Metrics: []string{"orders"}, Filters: []Filter{{Field: "part_of_week", Op: OpEq, Values: str("weekend")}}}, quarry.DialectSQLite); err == nil || !strings.Contains(err.Error(), "no time dimension") {
		t.Errorf("orders on weekends without a date: error %v; want one saying it has no time dimension", err)
	}
}

// TestDemoWeekend checks weekend and weekday figures compiled for the
// real demo database against the same figures computed in Go from its raw
// rows, each date's day read by time.Weekday, independently of the SQL.
func TestDemoWeekend(t *testing.T) {
	if raceEnabled {
		t.Skip("runs in the plain test pass")
	}
	path := filepath.Join(t.TempDir(), "demo.db")
	if _, err := demo.Build(context.Background(), path, demo.Options{Anchor: time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	conn, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	m := loadModel(t)

	// The raw rows: each order's date, status and channel, each item's
	// amount, each ticket's opening date.
	day := func(s string) time.Time {
		d, err := time.Parse("2006-01-02 15:04:05", s)
		if err != nil {
			t.Fatalf("date %q: %v", s, err)
		}
		return d
	}
	type order struct {
		at              time.Time
		status, channel string
	}
	orders := map[string]order{}
	for _, r := range query(t, conn, "SELECT id, ordered_at, status, channel FROM orders") {
		orders[r[0]] = order{day(r[1]), r[2], r[3]}
	}
	type item struct {
		order  string
		amount float64
	}
	var items []item
	for _, r := range query(t, conn, "SELECT order_id, quantity * unit_price * (1 - discount) FROM order_items") {
		a, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, item{r[0], a})
	}
	var tickets []time.Time
	for _, r := range query(t, conn, "SELECT opened_at FROM support_tickets") {
		tickets = append(tickets, day(r[0]))
	}
	isWeekend := func(d time.Time) bool { return d.Weekday() == time.Saturday || d.Weekday() == time.Sunday }
	part := func(d time.Time) string {
		if isWeekend(d) {
			return "weekend"
		}
		return "weekday"
	}
	in := func(d time.Time, from, to string) bool {
		return !d.Before(day(from+" 00:00:00")) && d.Before(day(to+" 00:00:00"))
	}
	// revenue by a key of the order, over completed orders in [from, to).
	revenue := func(from, to string, key func(order) string) map[string]float64 {
		out := map[string]float64{}
		for _, it := range items {
			o, ok := orders[it.order]
			if ok && o.status == "completed" && in(o.at, from, to) {
				if k := key(o); k != "" {
					out[k] += it.amount
				}
			}
		}
		return out
	}
	count := func(from, to string, keep func(time.Time) bool) int {
		n := 0
		for _, o := range orders {
			if in(o.at, from, to) && keep(o.at) {
				n++
			}
		}
		return n
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	n := func(x int) string { return strconv.Itoa(x) }
	thisYear := &TimeRange{From: "2026-01-01", To: "2026-07-01"}
	weekend := Filter{Field: "part_of_week", Op: OpEq, Values: []any{"weekend"}}
	weekday := Filter{Field: "part_of_week", Op: OpEq, Values: []any{"weekday"}}

	byPart := revenue("2026-01-01", "2026-07-01", func(o order) string { return part(o.at) })
	weekendByChannel := revenue("2026-01-01", "2026-07-01", func(o order) string {
		if isWeekend(o.at) {
			return o.channel
		}
		return ""
	})
	var channelRows [][]string
	for _, ch := range []string{"marketplace", "mobile", "store", "web"} {
		if v, ok := weekendByChannel[ch]; ok {
			channelRows = append(channelRows, []string{ch, f(v)})
		}
	}
	if len(channelRows) != len(weekendByChannel) {
		t.Fatalf("channels %v: update the list of the demo's channels", weekendByChannel)
	}
	saturdays := revenue("2026-01-01", "2026-04-01", func(o order) string {
		if o.at.Weekday() == time.Saturday {
			return "x"
		}
		return ""
	})["x"]
	ticketsOnWeekdays := 0
	for _, d := range tickets {
		if !isWeekend(d) && in(d, "2025-01-01", "2026-01-01") {
			ticketsOnWeekdays++
		}
	}
	for _, tc := range []struct {
		name string
		q    Query
		want [][]string
	}{
		{"weekend vs weekday revenue this year", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "part_of_week"}}, TimeRange: thisYear},
			[][]string{{"weekday", f(byPart["weekday"])}, {"weekend", f(byPart["weekend"])}}},
		{"weekend revenue this year", Query{Metrics: []string{"revenue"}, Filters: []Filter{weekend}, TimeRange: thisYear},
			[][]string{{f(byPart["weekend"])}}},
		{"weekend revenue by channel this year", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "channel"}}, Filters: []Filter{weekend}, TimeRange: thisYear},
			channelRows},
		{"orders on weekends last month", Query{Metrics: []string{"orders"}, Filters: []Filter{weekend}, TimeRange: &TimeRange{From: "2026-05-01", To: "2026-06-01"}},
			[][]string{{n(count("2026-05-01", "2026-06-01", isWeekend))}}},
		{"orders on weekdays last month", Query{Metrics: []string{"orders"}, Filters: []Filter{weekday}, TimeRange: &TimeRange{From: "2026-05-01", To: "2026-06-01"}},
			[][]string{{n(count("2026-05-01", "2026-06-01", func(d time.Time) bool { return !isWeekend(d) }))}}},
		{"tickets opened on a weekday in 2025", Query{Metrics: []string{"tickets"}, Filters: []Filter{weekday}, TimeRange: &TimeRange{From: "2025-01-01", To: "2026-01-01"}},
			[][]string{{n(ticketsOnWeekdays)}}},
		{"orders on Mondays", Query{Metrics: []string{"orders"}, Filters: []Filter{{Field: "day_of_week", Op: OpEq, Values: []any{"Monday"}}}},
			[][]string{{n(count("2000-01-01", "2100-01-01", func(d time.Time) bool { return d.Weekday() == time.Monday }))}}},
		{"revenue on Saturdays in Q1 2026", Query{Metrics: []string{"revenue"}, Filters: []Filter{{Field: "day_of_week", Op: OpEq, Values: []any{"saturday"}}}, TimeRange: &TimeRange{From: "2026-01-01", To: "2026-04-01"}},
			[][]string{{f(saturdays)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compile(m, tc.q, quarry.DialectSQLite)
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, query(t, conn, c.SQL), tc.want)
		})
	}
	if byPart["weekend"] == 0 || byPart["weekday"] == 0 || ticketsOnWeekdays == 0 {
		t.Errorf("the demo has no weekend or weekday rows to check: %v, %d tickets", byPart, ticketsOnWeekdays)
	}
}
