package verify

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

func table(cols []string, rows ...[]any) *quarry.Table {
	t := &quarry.Table{}
	for _, c := range cols {
		t.Columns = append(t.Columns, quarry.Column{Name: c})
	}
	t.Rows = rows
	return t
}

func TestRun(t *testing.T) {
	byCountry := table([]string{"country", "revenue"},
		[]any{"Germany", 120.5}, []any{"France", 99.0}, []any{"Spain", 10.0})
	tests := []struct {
		name string
		in   Input
		want Report
	}{
		{
			name: "clean ranking",
			in: Input{Table: byCountry, TotalRows: 3, MetricColumns: []string{"revenue"}, DimensionColumns: []string{"country"},
				ExpectRows: &Range{Max: 5}, Filters: []FilterLiteral{{Field: "channel", Value: "web", Known: true}}, FanOutGuarded: true},
			want: Report{Confidence: 1, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckNullMeasure, Pass, "revenue has values"},
				{CheckDuplicates, Pass, "every dimension key appears once"},
				{CheckRowCount, Pass, "3 rows, as expected (at most 5 rows)"},
				{CheckTruncated, Pass, "the whole result was read (3 rows)"},
				{CheckFilters, Pass, `"web" is a known value of channel`},
				{CheckFanOut, Pass, "each measure was aggregated at its own grain before joining"},
			}},
		},
		{
			name: "empty with unknown filter",
			in: Input{Table: table([]string{"revenue"}), MetricColumns: []string{"revenue"}, ExpectRows: &Range{Min: 1, Max: 1},
				Filters: []FilterLiteral{{Field: "country", Value: "Germny"}, {Field: "channel", Value: "web", Known: true}}, Period: "2025"},
			want: Report{Confidence: 0.34, Checks: []Check{
				{CheckEmpty, Fail, `the query returned no rows; the filter country = "Germny" matches no known value and may have excluded everything`},
				{CheckTruncated, Pass, "the whole result was read (0 rows)"},
				{CheckFilters, Warn, `"Germny" is not a known value of country`},
			}},
		},
		{
			name: "empty with known filters and a period",
			in:   Input{Table: table([]string{"revenue"}), Filters: []FilterLiteral{{Field: "country", Value: "Germany", Known: true}}, Period: "March 2031"},
			want: Report{Confidence: 0.4, Checks: []Check{
				{CheckEmpty, Fail, `the query returned no rows; the filter country = "Germany" or the period March 2031 may have excluded everything`},
				{CheckTruncated, Pass, "the whole result was read (0 rows)"},
				{CheckFilters, Pass, `"Germany" is a known value of country`},
			}},
		},
		{
			name: "empty with only a period",
			in:   Input{Period: "last 7 days"},
			want: Report{Confidence: 0.4, Checks: []Check{
				{CheckEmpty, Fail, "the query returned no rows; the period last 7 days may hold no data"},
				{CheckTruncated, Pass, "the whole result was read (0 rows)"},
			}},
		},
		{
			name: "all-NULL measure",
			in:   Input{Table: table([]string{"revenue", "orders"}, []any{nil, int64(3)}), TotalRows: 1, MetricColumns: []string{"revenue", "orders"}, ExpectRows: &Range{Min: 1, Max: 1}},
			want: Report{Confidence: 0.4, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckNullMeasure, Fail, "revenue is NULL in every row"},
				{CheckRowCount, Pass, "1 row, as expected (exactly 1 row)"},
				{CheckTruncated, Pass, "the whole result was read (1 row)"},
			}},
		},
		{
			name: "duplicate dimension keys, numbers compared by value",
			in: Input{Table: table([]string{"month", "channel", "orders"},
				[]any{"2025-01", "web", int64(1)}, []any{"2025-01", "web", int64(2)}, []any{"2025-02", "web", int64(3)},
				[]any{int64(7), "x", int64(1)}, []any{7.0, "x", int64(1)}),
				TotalRows: 5, MetricColumns: []string{"orders"}, DimensionColumns: []string{"month", "channel"}},
			want: Report{Confidence: 0.85, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckNullMeasure, Pass, "orders has values"},
				{CheckDuplicates, Warn, "2 dimension keys appear more than once, first (2025-01, web); a join may have duplicated rows"},
				{CheckTruncated, Pass, "the whole result was read (5 rows)"},
			}},
		},
		{
			name: "identical rows in a row list",
			in:   Input{Table: table([]string{"name", "price"}, []any{"a", 1.0}, []any{"a", 1.0}, []any{"a", 2.0}), TotalRows: 3},
			want: Report{Confidence: 0.85, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckDuplicates, Warn, "1 row appears more than once, first (a, 1); a join may have duplicated rows"},
				{CheckTruncated, Pass, "the whole result was read (3 rows)"},
			}},
		},
		{
			// Two customers of one name in a semantic list of customers:
			// two records, not a join's duplicate.
			name: "identical rows in a list of one table's rows",
			in:   Input{Table: table([]string{"name"}, []any{"a"}, []any{"a"}), TotalRows: 2, OneRowEach: true},
			want: Report{Confidence: 1, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckTruncated, Pass, "the whole result was read (2 rows)"},
			}},
		},
		{
			name: "distinct strings and numbers do not collide",
			in:   Input{Table: table([]string{"k"}, []any{"1"}, []any{int64(1)}, []any{nil}, []any{"NULL"}), TotalRows: 4, DimensionColumns: []string{"k"}},
			want: Report{Confidence: 1, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckDuplicates, Pass, "every dimension key appears once"},
				{CheckTruncated, Pass, "the whole result was read (4 rows)"},
			}},
		},
		{
			name: "too many rows for a top 5",
			in: Input{Table: byCountry, TotalRows: 7, MetricColumns: []string{"revenue"}, DimensionColumns: []string{"country"},
				ExpectRows: &Range{Min: 1, Max: 2}},
			want: Report{Confidence: 0.85, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckNullMeasure, Pass, "revenue has values"},
				{CheckDuplicates, Pass, "every dimension key appears once"},
				{CheckRowCount, Warn, "expected between 1 and 2 rows, got 7 rows"},
				{CheckTruncated, Pass, "the whole result was read (7 rows)"},
			}},
		},
		{
			name: "too few rows for a trend",
			in:   Input{Table: byCountry, TotalRows: 3, ExpectRows: &Range{Min: 12}, MetricColumns: []string{"revenue"}},
			want: Report{Confidence: 0.85, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckNullMeasure, Pass, "revenue has values"},
				{CheckRowCount, Warn, "expected at least 12 rows, got 3 rows"},
				{CheckTruncated, Pass, "the whole result was read (3 rows)"},
			}},
		},
		{
			name: "truncated preview with a NULL measure in the rows read",
			in: Input{Table: table([]string{"id", "amount"}, []any{int64(1), nil}, []any{int64(2), nil}), Truncated: true,
				MetricColumns: []string{"amount"}, DimensionColumns: []string{"id"}, ExpectRows: &Range{Max: 1}},
			want: Report{Confidence: 0.29, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckNullMeasure, Fail, "amount is NULL in every row read"},
				{CheckDuplicates, Pass, "every dimension key appears once"},
				{CheckRowCount, Warn, "expected at most 1 row, got at least 2 rows"},
				{CheckTruncated, Warn, "the result was cut at 2 rows by the row cap; figures over the whole result may be incomplete"},
			}},
		},
		{
			name: "several filters, two unknown",
			in: Input{Table: byCountry, TotalRows: 3, Filters: []FilterLiteral{
				{Field: "country", Value: "Germany", Known: true}, {Field: "channel", Value: "fax"}, {Field: "segment", Value: "VIP"}}},
			want: Report{Confidence: 0.85, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckDuplicates, Pass, "every row appears once"},
				{CheckTruncated, Pass, "the whole result was read (3 rows)"},
				{CheckFilters, Warn, `"fax" is not a known value of channel; "VIP" is not a known value of segment`},
			}},
		},
		{
			name: "several filters, all known",
			in: Input{Table: byCountry, TotalRows: 3, DimensionColumns: []string{"missing"}, Filters: []FilterLiteral{
				{Field: "country", Value: "Germany", Known: true}, {Field: "channel", Value: "web", Known: true}}},
			want: Report{Confidence: 1, Checks: []Check{
				{CheckEmpty, Pass, "the query returned rows"},
				{CheckTruncated, Pass, "the whole result was read (3 rows)"},
				{CheckFilters, Pass, "all 2 filter values are known values"},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Run(tt.in)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Run() mismatch (-want +got):\n%s", d)
			}
			if c := Confidence(got.Checks); c != got.Confidence {
				t.Errorf("Confidence(checks) = %v, report says %v", c, got.Confidence)
			}
		})
	}
}

func TestConfidence(t *testing.T) {
	mk := func(statuses ...string) []Check {
		var cs []Check
		for _, s := range statuses {
			cs = append(cs, Check{Name: "x", Status: s})
		}
		return cs
	}
	tests := []struct {
		checks []Check
		want   float64
	}{
		{nil, 1},
		{mk(Pass, Pass), 1},
		{mk(Warn), 0.85},
		{mk(Warn, Warn), 0.72},
		{mk(Warn, Warn, Warn), 0.61},
		{mk(Fail), 0.4},
		{mk(Fail, Warn), 0.34},
		{mk(Fail, Fail), 0.16},
		{mk(Fail, Fail, Fail, Fail, Fail, Fail, Fail), 0},
		{mk("unknown"), 1},
	}
	for _, tt := range tests {
		if got := Confidence(tt.checks); got != tt.want {
			t.Errorf("Confidence(%v) = %v, want %v", tt.checks, got, tt.want)
		}
	}
}

func TestConfidenceNeverRises(t *testing.T) {
	// Adding a warning or a failure never raises confidence; a pass never changes it.
	base := []Check{}
	prev := Confidence(base)
	for _, s := range []string{Warn, Pass, Fail, Warn, Fail, Pass} {
		base = append(base, Check{Status: s})
		c := Confidence(base)
		if c > prev || (s == Pass && c != prev) {
			t.Fatalf("after %s: confidence %v, before %v", s, c, prev)
		}
		prev = c
	}
}

func TestEventChecks(t *testing.T) {
	r := Report{Checks: []Check{{CheckEmpty, Fail, "no rows"}, {CheckTruncated, Pass, ""}}}
	want := []event.Check{{Name: "empty_result", Status: "fail", Detail: "no rows"}, {Name: "truncated", Status: "pass"}}
	if d := cmp.Diff(want, r.EventChecks()); d != "" {
		t.Error(d)
	}
	if r.Count(Fail) != 1 || r.Count(Pass) != 1 || r.Count(Warn) != 0 {
		t.Errorf("Count: %d %d %d", r.Count(Fail), r.Count(Pass), r.Count(Warn))
	}
}

func TestColumnsByRole(t *testing.T) {
	m, d := ColumnsByRole([]semantic.OutColumn{
		{Name: "period", Role: semantic.RolePeriod}, {Name: "month", Role: semantic.RoleDimension},
		{Name: "revenue", Role: semantic.RoleMetric}, {Name: "revenue_share", Role: semantic.RoleShare},
		{Name: "name", Role: semantic.RoleColumn},
	})
	if d := cmp.Diff([]string{"revenue", "revenue_share"}, m); d != "" {
		t.Error(d)
	}
	if diff := cmp.Diff([]string{"period", "month"}, d); diff != "" {
		t.Error(diff)
	}
}

// TestPlaceholderLabels: rows named by "-" name nobody (found from
// outside: learn chose a name column that is mostly "-", and the answer
// to "which member owes the most" was "-").
func TestPlaceholderLabels(t *testing.T) {
	tbl := &quarry.Table{Columns: []quarry.Column{{Name: "name", Type: quarry.TypeText}, {Name: "fines", Type: quarry.TypeFloat}},
		Rows: [][]any{{"-", 120.0}, {"-", 80.0}, {"Ana", 20.0}}}
	rep := Run(Input{Table: tbl, MetricColumns: []string{"fines"}, DimensionColumns: []string{"name"}})
	var got Check
	for _, c := range rep.Checks {
		if c.Name == CheckLabels {
			got = c
		}
	}
	if got.Status != Fail || !strings.Contains(got.Detail, `"-"`) || rep.Confidence >= 0.9 {
		t.Errorf("placeholder labels: %+v, confidence %v", got, rep.Confidence)
	}
	tbl.Rows[0][0], tbl.Rows[1][0] = "Ben", "Cy"
	rep = Run(Input{Table: tbl, MetricColumns: []string{"fines"}, DimensionColumns: []string{"name"}})
	for _, c := range rep.Checks {
		if c.Name == CheckLabels {
			t.Errorf("real names: %+v", c)
		}
	}
	// A list of whole rows with an optional column left empty ("the most
	// recent cancellation": an order with no discount code) still names
	// its rows; a placeholder in it does not.
	rows := &quarry.Table{Columns: []quarry.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "status", Type: quarry.TypeText}, {Name: "discount_code", Type: quarry.TypeText}},
		Rows: [][]any{{int64(7), "cancelled", nil}}}
	for _, c := range Run(Input{Table: rows}).Checks {
		if c.Name == CheckLabels {
			t.Errorf("an empty optional column in a list: %+v", c)
		}
	}
	rows.Rows[0][2] = "-"
	if rep := Run(Input{Table: rows}); rep.Confidence >= 0.9 {
		t.Errorf("a placeholder in a list: %+v", rep.Checks)
	}
	// A ranking whose first place is the rows with no country.
	tbl.Rows[0][0] = nil
	rep = Run(Input{Table: tbl, MetricColumns: []string{"fines"}, DimensionColumns: []string{"name"}})
	if rep.Confidence >= 0.9 {
		t.Errorf("a NULL first place: %+v", rep.Checks)
	}
	// A breakdown sorted by its groups, the group with none first by
	// the sort: no ranking (found from outside: "orders by customer
	// city" failed at 0.40).
	byCity := &quarry.Table{Columns: []quarry.Column{{Name: "city", Type: quarry.TypeText}, {Name: "orders", Type: quarry.TypeInt}},
		Rows: [][]any{{nil, int64(451)}, {"Austin", int64(402)}, {"Boston", int64(473)}, {"Chicago", int64(842)}}}
	for _, c := range Run(Input{Table: byCity, MetricColumns: []string{"orders"}, DimensionColumns: []string{"city"}}).Checks {
		if c.Name == CheckLabels {
			t.Errorf("a breakdown in the order of its groups: %+v", c)
		}
	}
	// Sorted by a hidden key (the staff's id), not by the name nor the
	// measure: no ranking either (found from outside: "performances by
	// house manager" failed at 0.29).
	byKey := &quarry.Table{Columns: []quarry.Column{{Name: "name", Type: quarry.TypeText}, {Name: "performances", Type: quarry.TypeInt}},
		Rows: [][]any{{nil, int64(139)}, {"George Green", int64(183)}, {"Maria Lopez", int64(181)}, {"Alfie Wood", int64(194)}}}
	for _, c := range Run(Input{Table: byKey, MetricColumns: []string{"performances"}, DimensionColumns: []string{"name"}}).Checks {
		if c.Name == CheckLabels {
			t.Errorf("a breakdown in the order of a hidden key: %+v", c)
		}
	}
}

// TestUnfinishedRows: a series with no range ("revenue by year") whose
// last row is the period holding the as-of day warns, read from the rows;
// one whose data stopped earlier, or asked on its period's last day, or by
// day, does not; a warning the question's range already gave is not
// given twice.
func TestUnfinishedRows(t *testing.T) {
	years := func(last any) *quarry.Table {
		return &quarry.Table{Columns: []quarry.Column{{Name: "year"}, {Name: "revenue"}},
			Rows: [][]any{{"2024-01-01", 10.0}, {last, 5.0}, {"2025-01-01", 12.0}}}
	}
	cols := []semantic.OutColumn{{Name: "year", Role: "dimension", Grain: semantic.GrainYear}, {Name: "revenue", Role: "metric"}}
	day := func(s string) time.Time { d, _ := time.Parse("2006-01-02", s); return d }
	partial := func(in Input) *Check {
		for _, c := range Run(in).Checks {
			if c.Name == CheckPartial {
				return &c
			}
		}
		return nil
	}
	in := Input{Table: years("2026-01-01"), Columns: cols, MetricColumns: []string{"revenue"}, DimensionColumns: []string{"year"}, AsOf: day("2026-06-30")}
	if c := partial(in); c == nil || c.Status != Warn || !strings.Contains(c.Detail, "not over") || !strings.Contains(c.Detail, "2026-06-30") {
		t.Errorf("2026 by year on June 30th: %+v", c)
	}
	in.Table = years(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) // PostgreSQL's date_trunc
	if partial(in) == nil {
		t.Error("a period read as a time did not warn")
	}
	in.AsOf = day("2026-12-31")
	if c := partial(in); c != nil {
		t.Errorf("on the year's last day: %+v", c)
	}
	in.AsOf = day("2026-06-30")
	in.Table = years("2010-01-01")
	if c := partial(in); c != nil {
		t.Errorf("data that stopped in 2025: %+v", c)
	}
	in.Table = years("2026-01-01")
	in.AsOf = time.Time{}
	if c := partial(in); c != nil {
		t.Errorf("no as-of day: %+v", c)
	}
	in.AsOf = day("2026-06-30")
	in.Columns = []semantic.OutColumn{{Name: "year", Role: "dimension", Grain: semantic.GrainDay}, {Name: "revenue", Role: "metric"}}
	if c := partial(in); c != nil {
		t.Errorf("by day: %+v", c)
	}
	in.Columns = cols
	in.Coverage = []Check{{Name: CheckPartial, Status: Warn, Detail: "the last year of the series is not over"}}
	n := 0
	for _, c := range Run(in).Checks {
		if c.Name == CheckPartial {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d partial_period checks, want the one coverage gave", n)
	}
}
