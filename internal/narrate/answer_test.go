package narrate

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

func col(name string, typ quarry.Type) quarry.Column { return quarry.Column{Name: name, Type: typ} }

func months(year int, values ...float64) [][]any {
	var rows [][]any
	for i, v := range values {
		rows = append(rows, []any{fmt.Sprintf("%d-%02d-01", year, i+1), v})
	}
	return rows
}

type answerCase struct {
	name   string
	in     AnswerInput
	verify verify.Input // Table, TotalRows and Truncated are copied from in
	shape  string
	chart  string
}

func answerCases() []answerCase {
	metric := func(name, format string) ColumnInfo { return ColumnInfo{Name: name, Role: RoleMetric, Format: format} }
	dim := func(name string) ColumnInfo { return ColumnInfo{Name: name, Role: RoleDimension} }
	var products [][]any
	for i := range 25 {
		products = append(products, []any{int64(i + 1), fmt.Sprintf("Product %02d", i+1), "Garden", 9.5 + float64(i)})
	}
	return []answerCase{
		{
			name: "figure",
			in: AnswerInput{Question: "what was revenue in 2025", Title: "Revenue", Period: "2025", Currency: "$", AsOf: "2026-01-31",
				Table:   &quarry.Table{Columns: []quarry.Column{col("revenue", quarry.TypeFloat)}, Rows: [][]any{{1234567.891}}},
				Columns: []ColumnInfo{metric("revenue", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"revenue"}, ExpectRows: &verify.Range{Min: 1, Max: 1}},
			shape:  ShapeFigure, chart: ChartFigure,
		},
		{
			name: "figure_count_read",
			in: AnswerInput{Question: "how many orders were placed in 2025", Title: "Orders, 2025", Period: "2025", AsOf: "2026-06-30",
				Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "orders", How: "COUNT(orders.id) over orders"}}},
				Table:   &quarry.Table{Columns: []quarry.Column{col("orders", quarry.TypeInt)}, Rows: [][]any{{int64(22807)}}},
				Columns: []ColumnInfo{metric("orders", FormatInteger)}},
			verify: verify.Input{MetricColumns: []string{"orders"}, ExpectRows: &verify.Range{Min: 1, Max: 1}},
			shape:  ShapeFigure, chart: ChartFigure,
		},
		{
			name: "figure_amount_read_relative",
			in: AnswerInput{Question: "revenue in Germany last month", Title: "Revenue (Germany), last month (May 2026)", Period: "last month (May 2026)",
				AsOf: "2026-06-30", Currency: "$",
				Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "revenue", How: "SUM(order_items.quantity * order_items.unit_price) over order_items"}}},
				Table:   &quarry.Table{Columns: []quarry.Column{col("revenue", quarry.TypeFloat)}, Rows: [][]any{{316888.38}}},
				Columns: []ColumnInfo{metric("revenue", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"revenue"}, ExpectRows: &verify.Range{Min: 1, Max: 1}},
			shape:  ShapeFigure, chart: ChartFigure,
		},
		{
			name: "figure_verified_how_many",
			in: AnswerInput{Question: "How many customers do we have?", Title: "How many customers do we have?", AsOf: "2026-06-30",
				Reading: &event.ReadingData{Source: "verified_query", Text: "the verified query approved for this question"},
				Table:   &quarry.Table{Columns: []quarry.Column{col("customers", quarry.TypeInt)}, Rows: [][]any{{int64(5000)}}}},
			verify: verify.Input{},
			shape:  ShapeFigure, chart: ChartFigure,
		},
		{
			name: "figure_count_no_period",
			in: AnswerInput{Question: "how many active subscriptions", Title: "Active subscriptions", AsOf: "2026-06-30",
				Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "active_subscriptions", How: "COUNT(DISTINCT subscriptions.id) over subscriptions where subscriptions.status = 'active'"}}},
				Table:   &quarry.Table{Columns: []quarry.Column{col("active_subscriptions", quarry.TypeInt)}, Rows: [][]any{{int64(1234)}}},
				Columns: []ColumnInfo{metric("active_subscriptions", FormatInteger)}},
			verify: verify.Input{MetricColumns: []string{"active_subscriptions"}, ExpectRows: &verify.Range{Min: 1, Max: 1}},
			shape:  ShapeFigure, chart: ChartFigure,
		},
		{
			name: "ranking_title_ends_with_period",
			in: AnswerInput{Question: "top 2 products by revenue last month", Title: "Revenue by products, top 2, last month (May 2026)", Period: "last month (May 2026)", Currency: "$",
				Table:   &quarry.Table{Columns: []quarry.Column{col("name", quarry.TypeText), col("revenue", quarry.TypeFloat)}, Rows: [][]any{{"Dumbbells", 17894.63}, {"Earbuds", 13822.52}}},
				Columns: []ColumnInfo{dim("name"), metric("revenue", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"revenue"}, DimensionColumns: []string{"name"}},
			shape:  ShapeRanking, chart: ChartBar,
		},
		{
			name: "figure_count_of_one",
			in: AnswerInput{Question: "open tickets in May 2026", Title: "Open tickets (web), May 2026", Period: "May 2026",
				Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "open_tickets", How: "COUNT(support_tickets.id) over support_tickets"}}},
				Table:   &quarry.Table{Columns: []quarry.Column{col("open_tickets", quarry.TypeInt)}, Rows: [][]any{{int64(1)}}},
				Columns: []ColumnInfo{metric("open_tickets", FormatInteger)}},
			verify: verify.Input{MetricColumns: []string{"open_tickets"}, ExpectRows: &verify.Range{Min: 1, Max: 1}},
			shape:  ShapeFigure, chart: ChartFigure,
		},
		{
			name: "figure_count_dated_by_event",
			in: AnswerInput{Question: "how many employees were hired in 2024", Title: "Headcount, 2024", Period: "2024", AsOf: "2026-06-30",
				Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "headcount", How: "COUNT(employees.id) over employees"}},
					Period: &event.ReadPeriod{From: "2024-01-01", To: "2024-12-31", Column: "employees.hired_on"}},
				Table:   &quarry.Table{Columns: []quarry.Column{col("headcount", quarry.TypeInt)}, Rows: [][]any{{int64(20)}}},
				Columns: []ColumnInfo{metric("headcount", FormatInteger)}},
			verify: verify.Input{MetricColumns: []string{"headcount"}, ExpectRows: &verify.Range{Min: 1, Max: 1}},
			shape:  ShapeFigure, chart: ChartFigure,
		},
		{
			// As of a day, the bound on the rows' date says no event:
			// the title's condition stays (found from outside: "29
			// students admitted in all" for those with no enrollments).
			name: "figure_count_bounded_as_of",
			in: AnswerInput{Question: "how many students have no enrollments", Title: "Number of students with no enrollments", AsOf: "2026-06-30",
				Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "count_students", How: "COUNT(students.student_id) over students"}},
					Period: &event.ReadPeriod{To: "2026-06-30", Column: "students.admitted_on"}},
				Table:   &quarry.Table{Columns: []quarry.Column{col("count_students", quarry.TypeInt)}, Rows: [][]any{{int64(29)}}},
				Columns: []ColumnInfo{metric("count_students", FormatInteger)}},
			verify: verify.Input{MetricColumns: []string{"count_students"}, ExpectRows: &verify.Range{Min: 1, Max: 1}},
			shape:  ShapeFigure, chart: ChartFigure,
		},
		{
			name: "breakdown_unranked_names_the_largest",
			in: AnswerInput{Question: "orders by city", Title: "Orders by city",
				Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "orders", How: "COUNT(orders.id) over orders"}}},
				Table: &quarry.Table{Columns: []quarry.Column{col("city", quarry.TypeText), col("orders", quarry.TypeInt)},
					Rows: [][]any{{"Bath", int64(3)}, {"Berlin", int64(40)}, {"Bremen", int64(7)}, {"Paris", int64(12)}}},
				Columns: []ColumnInfo{dim("city"), metric("orders", FormatInteger)}},
			verify: verify.Input{MetricColumns: []string{"orders"}, DimensionColumns: []string{"city"}},
			shape:  ShapeRanking, chart: ChartBar,
		},
		{
			name: "figure_verified_metric_column",
			in: AnswerInput{Question: "What is the refund rate?", Title: "What is the refund rate?", AsOf: "2026-06-30",
				Reading: &event.ReadingData{Source: "verified_query", Text: "the verified query approved for this question"},
				Table:   &quarry.Table{Columns: []quarry.Column{col("refund_rate", quarry.TypeFloat)}, Rows: [][]any{{0.0503}}},
				Columns: []ColumnInfo{metric("refund_rate", FormatPercent)}},
			verify: verify.Input{},
			shape:  ShapeFigure, chart: ChartFigure,
		},
		{
			name: "figure_percent_last_days",
			in: AnswerInput{Question: "conversion rate in the last 30 days", Title: "Conversion rate", Period: "last 30 days",
				Table:   &quarry.Table{Columns: []quarry.Column{col("conversion_rate", quarry.TypeFloat)}, Rows: [][]any{{0.03456}}},
				Columns: []ColumnInfo{metric("conversion_rate", FormatPercent)}},
			verify: verify.Input{MetricColumns: []string{"conversion_rate"}, ExpectRows: &verify.Range{Min: 1, Max: 1}},
			shape:  ShapeFigure, chart: ChartFigure,
		},
		{
			name: "figure_two_measures",
			in: AnswerInput{Question: "revenue and orders this year", Period: "this year", Currency: "$",
				Table: &quarry.Table{Columns: []quarry.Column{col("revenue", quarry.TypeFloat), col("orders", quarry.TypeInt)},
					Rows: [][]any{{98765.4, int64(1234)}}},
				Columns: []ColumnInfo{metric("revenue", FormatCurrency), metric("orders", FormatInteger)}},
			verify: verify.Input{MetricColumns: []string{"revenue", "orders"}},
			shape:  ShapeFigure, chart: ChartNone,
		},
		{
			name: "ranking",
			in: AnswerInput{Question: "top 5 countries by revenue in 2025", Title: "Revenue by country", Period: "2025", Currency: "$",
				Table: &quarry.Table{Columns: []quarry.Column{col("country", quarry.TypeText), col("revenue", quarry.TypeFloat)},
					Rows: [][]any{{"Germany", 412345.5}, {"France", 300100.25}, {"Spain", 210000.0}, {"Italy", 99000.1}, {"Poland", 5000.0}}},
				Columns: []ColumnInfo{dim("country"), metric("revenue", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"revenue"}, DimensionColumns: []string{"country"}, ExpectRows: &verify.Range{Min: 1, Max: 5}, FanOutGuarded: true},
			shape:  ShapeRanking, chart: ChartBar,
		},
		{
			name: "ranking_bottom",
			in: AnswerInput{Question: "which 3 channels had the fewest orders", Title: "Orders by channel",
				Table: &quarry.Table{Columns: []quarry.Column{col("channel", quarry.TypeText), col("orders", quarry.TypeInt)},
					Rows: [][]any{{"phone", int64(12)}, {"store", int64(340)}, {"web", int64(12004)}}},
				Columns: []ColumnInfo{dim("channel"), metric("orders", FormatInteger)}},
			verify: verify.Input{MetricColumns: []string{"orders"}, DimensionColumns: []string{"channel"}, ExpectRows: &verify.Range{Max: 3}},
			shape:  ShapeRanking, chart: ChartBar,
		},
		{
			name: "trend",
			in: AnswerInput{Question: "revenue by month in 2025", Title: "Revenue by month", Period: "2025", Currency: "$",
				Table: &quarry.Table{Columns: []quarry.Column{col("month", quarry.TypeText), col("revenue", quarry.TypeFloat)},
					Rows: months(2025, 81000, 79500.5, 90210, 95000, 101000, 99000, 120500.75, 118000, 110000, 105000, 112000, 130250)},
				Columns: []ColumnInfo{{Name: "month", Role: RoleDimension, Format: FormatDate, Grain: "month"}, metric("revenue", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"revenue"}, DimensionColumns: []string{"month"}, ExpectRows: &verify.Range{Min: 1, Max: 13}},
			shape:  ShapeTrend, chart: ChartLine,
		},
		{
			name: "trend_by_channel",
			in: AnswerInput{Question: "orders by quarter and channel in 2025", Period: "2025",
				Table: &quarry.Table{Columns: []quarry.Column{col("quarter", quarry.TypeDate), col("channel", quarry.TypeText), col("orders", quarry.TypeInt)},
					Rows: [][]any{
						{"2025-01-01", "store", int64(120)}, {"2025-01-01", "web", int64(300)},
						{"2025-04-01", "store", int64(110)}, {"2025-04-01", "web", int64(340)},
						{"2025-07-01", "store", int64(90)}, {"2025-07-01", "web", int64(390)},
					}},
				Columns: []ColumnInfo{{Name: "quarter", Role: RoleDimension, Format: FormatDate, Grain: "quarter"}, dim("channel"), metric("orders", FormatInteger)}},
			verify: verify.Input{MetricColumns: []string{"orders"}, DimensionColumns: []string{"quarter", "channel"}},
			shape:  ShapeList, chart: ChartLine,
		},
		{
			name: "compare",
			in: AnswerInput{Question: "revenue in January 2025 vs February 2025", Title: "Revenue", Currency: "$",
				Table: &quarry.Table{Columns: []quarry.Column{col("period", quarry.TypeText), col("revenue", quarry.TypeFloat)},
					Rows: [][]any{{"January 2025", 81000.0}, {"February 2025", 79500.5}}},
				Columns: []ColumnInfo{{Name: "period", Role: RolePeriod}, metric("revenue", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"revenue"}, DimensionColumns: []string{"period"}, ExpectRows: &verify.Range{Min: 2, Max: 2}},
			shape:  ShapeCompare, chart: ChartBar,
		},
		{
			// This year cut at the as-of day against a whole year: the
			// figures are given, no change between them.
			name: "compare_uneven",
			in: AnswerInput{Question: "revenue this year vs last year", Title: "Revenue", Currency: "$",
				Table: &quarry.Table{Columns: []quarry.Column{col("period", quarry.TypeText), col("revenue", quarry.TypeFloat)},
					Rows: [][]any{{"last year (2025)", 3139915.48}, {"this year (2026)", 1467269.70}}},
				Columns: []ColumnInfo{{Name: "period", Role: RolePeriod}, metric("revenue", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"revenue"}, DimensionColumns: []string{"period"}, ExpectRows: &verify.Range{Min: 2, Max: 2},
				Coverage: []verify.Check{{Name: verify.CheckPartial, Status: verify.Warn, Detail: "this year (2026) is not over: it holds the days up to 2026-06-15 only (166 days), against 365 days, so the figures are not like for like; compare the same days of the other period"}}},
			shape: ShapeCompare, chart: ChartBar,
		},
		{
			// An average over half a year against one over a whole
			// year: the change is given, with the note on the lengths.
			name: "compare_uneven_rate",
			in: AnswerInput{Question: "aov this year vs last year", Title: "Average order value", Currency: "$",
				Table: &quarry.Table{Columns: []quarry.Column{col("period", quarry.TypeText), col("average_order_value", quarry.TypeFloat)},
					Rows: [][]any{{"last year (2025)", 151.110038}, {"this year (2026)", 158.034591}}},
				Columns: []ColumnInfo{{Name: "period", Role: RolePeriod}, metric("average_order_value", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"average_order_value"}, DimensionColumns: []string{"period"}, ExpectRows: &verify.Range{Min: 2, Max: 2},
				Coverage: []verify.Check{{Name: verify.CheckPartial, Status: verify.Warn, Detail: "last year (2025) (365 days) and this year (2026) (181 days) differ in length; average order value is an average or a ratio, which " + verify.LengthFree}}},
			shape: ShapeCompare, chart: ChartBar,
		},
		{
			// A range that cuts the first month: the change is read
			// between the whole months, and the cut one is named.
			name: "trend_cut",
			in: AnswerInput{Question: "revenue by month since January 15", Title: "Revenue by month", Currency: "$",
				Table: &quarry.Table{Columns: []quarry.Column{col("month", quarry.TypeText), col("revenue", quarry.TypeFloat)},
					Rows: [][]any{{"2026-01-01", 129969.87}, {"2026-02-01", 239886.21}, {"2026-03-01", 286333.85}}},
				Columns: []ColumnInfo{{Name: "month", Role: RoleDimension, Format: FormatDate, Grain: "month"}, metric("revenue", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"revenue"}, DimensionColumns: []string{"month"},
				Coverage: []verify.Check{{Name: verify.CheckPartial, Status: verify.Warn, Detail: "the first month of the series (2026-01-01) starts before the period asked for: it holds the days from 2026-01-15 only, so it is not like the whole ones after it"}}},
			shape: ShapeTrend, chart: ChartLine,
		},
		{
			// 2023 starts before the data: the change is given between
			// the whole years.
			name: "compare_before_data",
			in: AnswerInput{Question: "revenue 2023 vs 2024 vs 2025", Title: "Revenue", Currency: "$",
				Table: &quarry.Table{Columns: []quarry.Column{col("period", quarry.TypeText), col("revenue", quarry.TypeFloat)},
					Rows: [][]any{{"2023", 1058202.56}, {"2024", 2411993.27}, {"2025", 3139915.48}}},
				Columns: []ColumnInfo{{Name: "period", Role: RolePeriod}, metric("revenue", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"revenue"}, DimensionColumns: []string{"period"}, ExpectRows: &verify.Range{Min: 3, Max: 3},
				Coverage: []verify.Check{{Name: verify.CheckPartial, Status: verify.Warn, Detail: "2023 " + verify.StartsBeforeData + " 2023-07-01: it holds the days from then only, so the figures are not like for like (control query: SELECT MIN(orders.ordered_at) AS quarry_first_day FROM orders)"}}},
			shape: ShapeCompare, chart: ChartBar,
		},
		{
			name: "share",
			in: AnswerInput{Question: "share of revenue by channel in 2025", Period: "2025", Currency: "$",
				Table: &quarry.Table{Columns: []quarry.Column{col("channel", quarry.TypeText), col("revenue", quarry.TypeFloat), col("revenue_share", quarry.TypeFloat)},
					Rows: [][]any{{"store", 250000.0, 0.25}, {"web", 600000.0, 0.6}, {"phone", 50000.0, 0.05}, {"partner", 100000.0, 0.1}}},
				Columns: []ColumnInfo{dim("channel"), metric("revenue", FormatCurrency), {Name: "revenue_share", Role: RoleShare, Format: FormatPercent}}},
			verify: verify.Input{MetricColumns: []string{"revenue", "revenue_share"}, DimensionColumns: []string{"channel"}},
			shape:  ShapeShare, chart: ChartBar,
		},
		{
			name: "list",
			in: AnswerInput{Question: "list the garden products", Currency: "$", PreviewRows: 20,
				Table: &quarry.Table{Columns: []quarry.Column{col("id", quarry.TypeInt), col("name", quarry.TypeText), col("category", quarry.TypeText), col("price", quarry.TypeFloat)},
					Rows: products},
				Columns: []ColumnInfo{{Name: "id", Role: RoleColumn}, {Name: "name", Role: RoleColumn}, {Name: "category", Role: RoleColumn}, {Name: "price", Role: RoleColumn, Format: FormatCurrency}}},
			verify: verify.Input{Filters: []verify.FilterLiteral{{Field: "category", Value: "Garden", Known: true}}},
			shape:  ShapeList, chart: ChartNone,
		},
		{
			name: "list_truncated",
			in: AnswerInput{Question: "list orders", PreviewRows: 3, Truncated: true,
				Table: &quarry.Table{Columns: []quarry.Column{col("id", quarry.TypeInt), col("status", quarry.TypeText), col("ordered_at", quarry.TypeTimestamp)},
					Rows: [][]any{{int64(1), "done | shipped", time.Date(2025, 3, 1, 10, 30, 0, 0, time.UTC)}, {int64(2), "open", time.Date(2025, 3, 2, 0, 0, 0, 0, time.UTC)},
						{int64(3), "open", nil}, {int64(4), "done", nil}}}},
			verify: verify.Input{},
			shape:  ShapeList, chart: ChartNone,
		},
		{
			name: "scatter",
			in: AnswerInput{Question: "price and quantity of order items",
				Table: &quarry.Table{Columns: []quarry.Column{col("unit_price", quarry.TypeFloat), col("quantity", quarry.TypeInt)},
					Rows: [][]any{{9.99, int64(3)}, {19.5, int64(1)}, {4.25, int64(7)}, {120.0, int64(1)}}}},
			verify: verify.Input{},
			shape:  ShapeList, chart: ChartScatter,
		},
		{
			name: "empty",
			in: AnswerInput{Question: "revenue in Germny in 2025", Title: "Revenue", Period: "2025",
				Table:   &quarry.Table{Columns: []quarry.Column{col("revenue", quarry.TypeFloat)}},
				Columns: []ColumnInfo{metric("revenue", FormatCurrency)}},
			verify: verify.Input{MetricColumns: []string{"revenue"}, Period: "2025", Filters: []verify.FilterLiteral{{Field: "country", Value: "Germny"}}},
			shape:  ShapeEmpty, chart: ChartNone,
		},
	}
}

func (c answerCase) input() AnswerInput {
	in := c.in
	v := c.verify
	v.Table, v.TotalRows, v.Truncated = in.Table, in.TotalRows, in.Truncated
	in.Report = verify.Run(v)
	return in
}

func TestComposeGolden(t *testing.T) {
	for _, c := range answerCases() {
		t.Run(c.name, func(t *testing.T) {
			in := c.input()
			a := Compose(in)
			if got := Shape(in.Table, in.Columns); got != c.shape {
				t.Errorf("Shape = %q, want %q", got, c.shape)
			}
			if a.Chart.Kind != c.chart {
				t.Errorf("chart kind = %q, want %q", a.Chart.Kind, c.chart)
			}
			spec, err := json.MarshalIndent(a.Chart, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got := "# markdown\n" + a.Markdown + "\n# headline\n" + a.Headline + "\n\n# plain\n" + Plain(a.Markdown) + "\n# chart\n" + string(spec) + "\n"
			goldentest.AssertString(t, filepath.Join("testdata", "answers", c.name+".golden"), got)
		})
	}
}

// ungrounded removes from headline every allowed string, longest first, and
// returns the first number left, or "".
func ungrounded(headline string, allowed []string) string {
	sort.Slice(allowed, func(i, j int) bool { return len(allowed[i]) > len(allowed[j]) })
	rest := headline
	for _, s := range allowed {
		if s != "" {
			rest = strings.ReplaceAll(rest, s, "")
		}
	}
	return regexp.MustCompile(`[0-9]+`).FindString(rest)
}

// grounds lists what a headline's numbers may come from: every cell,
// formatted and raw, the row counts and the input's own labels.
func grounds(in AnswerInput) []string {
	allowed := []string{in.Period, in.Title, in.Question, in.AsOf, fmt.Sprint(len(in.Table.Rows)), fmt.Sprint(in.TotalRows)}
	for _, r := range in.Table.Rows {
		for _, cl := range resolve(in.Table, in.Columns) {
			allowed = append(allowed, cl.text(r, in.Currency), fmt.Sprint(cl.cell(r)))
		}
	}
	return allowed
}

// TestHeadlineNumbersComeFromCells checks that no headline holds a number
// that is not a result cell, a row count or part of the input's labels.
func TestHeadlineNumbersComeFromCells(t *testing.T) {
	for _, c := range answerCases() {
		t.Run(c.name, func(t *testing.T) {
			in := c.input()
			a := Compose(in)
			if n := ungrounded(a.Headline, grounds(in)); n != "" {
				t.Errorf("headline %q has the number %q that is not a result cell", a.Headline, n)
			}
		})
	}
}

// TestUngroundedNumberIsCaught makes sure the check above fails on a
// headline with an invented figure or a computed change.
func TestUngroundedNumberIsCaught(t *testing.T) {
	c := answerCases()[0] // figure: revenue 1234567.891 in 2025
	in := c.input()
	for _, h := range []string{
		"Revenue in 2025 was $1,234,567.89, up 12% on 2024.",
		"Revenue in 2025 was $1,234,568.",
	} {
		if ungrounded(h, grounds(in)) == "" {
			t.Errorf("the invented figure in %q went unnoticed", h)
		}
	}
}

func TestPeriodPhrase(t *testing.T) {
	for p, want := range map[string]string{
		"": "", "2025": "in 2025", "March 2025": "in March 2025", "last 30 days": "in the last 30 days",
		"this month": "this month", "year to date": "year to date", "since 2024-01-01": "since 2024-01-01", "Q3 2024": "in Q3 2024",
		// Not "from year to date (…)".
		"year to date (2026-01-01 – 2026-12-05)": "year to date (2026-01-01 – 2026-12-05)",
	} {
		if got := periodPhrase(p); got != want {
			t.Errorf("periodPhrase(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestSoFar: a period the question named that is not over is said to be
// so (found from outside: "revenue in December", asked on the 5th, was
// "revenue in December 2026", five days of it, with no word); "this
// month" says so itself.
func TestSoFar(t *testing.T) {
	tbl := &quarry.Table{Columns: []quarry.Column{col("revenue", quarry.TypeFloat)}, Rows: [][]any{{2.5}}}
	infos := []ColumnInfo{{Name: "revenue", Role: RoleMetric}}
	rd := &event.ReadingData{Measures: []event.ReadMeasure{{Name: "revenue", How: "SUM(orders.amount)"}}}
	for period, want := range map[string]string{
		"December 2026":              "Revenue was **2.50** in December 2026 so far (to 2026-12-05).",
		"this month (December 2026)": "Revenue was **2.50** this month (December 2026).",
	} {
		a := Compose(AnswerInput{Title: "Revenue", Table: tbl, Columns: infos, Period: period, SoFar: "2026-12-05", AsOf: "2026-12-05", Reading: rd})
		if !strings.Contains(a.Markdown, want) {
			t.Errorf("%s: want %q in\n%s", period, want, a.Markdown)
		}
	}
}

func TestComposeRowCounts(t *testing.T) {
	tbl := &quarry.Table{Columns: []quarry.Column{col("country", quarry.TypeText), col("orders", quarry.TypeInt)},
		Rows: [][]any{{"a", int64(3)}, {"b", int64(2)}, {"c", int64(1)}}}
	infos := []ColumnInfo{{Name: "country", Role: RoleDimension}, {Name: "orders", Role: RoleMetric, Format: FormatInteger}}
	a := Compose(AnswerInput{Title: "Orders by country", Table: tbl, Columns: infos, TotalRows: 40, PreviewRows: 2})
	for _, want := range []string{"Orders by country: a leads with **3**, then b **2** and c **1**; 40 rows in all.", "| b | 2 |\n\n… 38 more rows\n"} {
		if !strings.Contains(a.Markdown, want) {
			t.Errorf("the answer lacks %q:\n%s", want, a.Markdown)
		}
	}
	one := Compose(AnswerInput{Title: "Top country", Table: &quarry.Table{Columns: tbl.Columns, Rows: tbl.Rows[:1]}, Columns: infos})
	if one.Headline != "Top country: a, 3." || one.Chart.Kind != ChartFigure {
		t.Errorf("one row: headline %q, chart %q", one.Headline, one.Chart.Kind)
	}
}

func TestComposeWithoutChecks(t *testing.T) {
	a := Compose(AnswerInput{Title: "Revenue", AsOf: "2026-01-31",
		Table: &quarry.Table{Columns: []quarry.Column{col("revenue", quarry.TypeFloat)}, Rows: [][]any{{2.5}}}})
	if !strings.HasSuffix(a.Markdown, "Checks: none ran.\n\nAs of 2026-01-31.\n") || strings.Contains(a.Markdown, "Confidence") {
		t.Errorf("an answer whose checks did not run states a confidence or misses the note:\n%s", a.Markdown)
	}
}

// TestQuestionTitleHeadline: a verified query titled with its question is
// answered, not turned into "How many customers do we have? was 5,000."
func TestQuestionTitleHeadline(t *testing.T) {
	a := Compose(AnswerInput{Question: "How many customers do we have?", Title: "How many customers do we have?",
		Table: &quarry.Table{Columns: []quarry.Column{{Name: "customers", Type: quarry.TypeInt}}, Rows: [][]any{{int64(5000)}}}})
	if a.Headline != "How many customers do we have? 5,000." {
		t.Errorf("headline = %q", a.Headline)
	}
}

// TestNullFigureSaysWhy: a figure with no value says that no rows were
// found, and that the period starts after the day the answer is as of
// where it does (found from outside: "Revenue was NULL in Q3 2026").
func TestNullFigureSaysWhy(t *testing.T) {
	in := func(from string) AnswerInput {
		return AnswerInput{Question: "what was revenue in Q3 2026", Title: "Revenue", Period: "Q3 2026", AsOf: "2026-06-30", Currency: "$",
			Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "revenue", How: "SUM(order_items.amount) over order_items"}}, Period: &event.ReadPeriod{From: from}},
			Table:   &quarry.Table{Columns: []quarry.Column{{Name: "revenue", Type: quarry.TypeFloat}}, Rows: [][]any{{nil}}},
			Columns: []ColumnInfo{{Name: "revenue", Role: RoleMetric, Format: FormatCurrency}}}
	}
	for from, want := range map[string]string{
		"2026-07-01": "Revenue in Q3 2026 has no value: no rows were found to compute it from; the period starts after 2026-06-30.",
		"2026-04-01": "Revenue in Q3 2026 has no value: no rows were found to compute it from.",
	} {
		if a := Compose(in(from)); a.Headline != want {
			t.Errorf("from %s: headline %q; want %q", from, a.Headline, want)
		}
	}
}

// TestZeroCountNotBegun: a count of none in a period after the as-of day
// says the period has not begun (found from outside: "0 orders in July
// 2026", asked on June 30th, read as a fact).
func TestZeroCountNotBegun(t *testing.T) {
	in := AnswerInput{Question: "how many orders in July 2026", Title: "Orders, July 2026", Period: "July 2026", AsOf: "2026-06-30",
		Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "orders", How: "COUNT(orders.id) over orders"}}, Period: &event.ReadPeriod{From: "2026-07-01"}},
		Table:   &quarry.Table{Columns: []quarry.Column{{Name: "orders", Type: quarry.TypeInt}}, Rows: [][]any{{int64(0)}}},
		Columns: []ColumnInfo{{Name: "orders", Role: RoleMetric, Format: FormatInteger}}}
	if a := Compose(in); !strings.HasSuffix(a.Headline, "; the period starts after 2026-06-30.") {
		t.Errorf("headline %q", a.Headline)
	}
	in.Reading.Period.From = "2026-06-01"
	if a := Compose(in); strings.Contains(a.Headline, "starts after") {
		t.Errorf("a period begun: headline %q", a.Headline)
	}
}

// TestDistinctCountNotRows: a count of a column's distinct values is not
// stated as a count of the rows (found from outside: "61 work orders
// created in 2025" for 61 customers).
func TestDistinctCountNotRows(t *testing.T) {
	in := AnswerInput{Question: "how many distinct customers had work orders in 2025", Title: "Number of distinct customer ref of work orders", Period: "2025", AsOf: "2025-12-31",
		Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "distinct_work_orders_customer_ref", How: "COUNT(DISTINCT work_orders.customer_ref) over work_orders"}},
			Period: &event.ReadPeriod{From: "2025-01-01", To: "2026-01-01", Column: "work_orders.created_dt"}},
		Table:   &quarry.Table{Columns: []quarry.Column{{Name: "distinct_work_orders_customer_ref", Type: quarry.TypeInt}}, Rows: [][]any{{int64(61)}}},
		Columns: []ColumnInfo{{Name: "distinct_work_orders_customer_ref", Role: RoleMetric, Format: FormatInteger}}}
	if a := Compose(in); strings.Contains(a.Headline, "work orders created") {
		t.Errorf("headline %q counts work orders", a.Headline)
	}
}

// TestTrendGap: a series with a period of no rows between its first and
// last says so and names no low among the others (found from outside:
// "the low was 103 in 2025-05" of check-ins by month, February missing).
func TestTrendGap(t *testing.T) {
	rows := [][]any{{"2025-01-01", int64(117)}, {"2025-03-01", int64(231)}, {"2025-04-01", int64(128)}, {"2025-05-01", int64(103)}, {"2025-06-01", int64(121)}}
	in := AnswerInput{Question: "check-ins by month in 2025", Title: "Check-ins by month", Period: "2025",
		Table:   &quarry.Table{Columns: []quarry.Column{{Name: "month", Type: quarry.TypeText}, {Name: "checkins", Type: quarry.TypeInt}}, Rows: rows},
		Columns: []ColumnInfo{{Name: "month", Role: RoleDimension, Format: FormatDate, Grain: "month"}, {Name: "checkins", Role: RoleMetric, Format: FormatInteger}}}
	a := Compose(in)
	if strings.Contains(a.Headline, "the low was") || !strings.Contains(a.Headline, "2025-02 has no rows") {
		t.Errorf("headline %q", a.Headline)
	}
	in.Table.Rows = append(rows[:1:1], append([][]any{{"2025-02-01", int64(90)}}, rows[1:]...)...)
	if a := Compose(in); strings.Contains(a.Headline, "no rows") {
		t.Errorf("no gap: headline %q", a.Headline)
	}
}

// TestSameNameNote: a figure for a name that several rows share says so
// beside it, not only among the checks (found from outside).
func TestSameNameNote(t *testing.T) {
	in := AnswerInput{Question: "how many enrollments does Maria Lopez have", Title: "Enrollments (Maria Lopez)",
		Table:   &quarry.Table{Columns: []quarry.Column{{Name: "enrollments", Type: quarry.TypeInt}}, Rows: [][]any{{int64(10)}}},
		Columns: []ColumnInfo{{Name: "enrollments", Role: RoleMetric, Format: FormatInteger}},
		Report: verify.Report{Checks: []verify.Check{{Name: "same_name", Status: verify.Warn,
			Detail: "2 rows of students are named Maria Lopez (student_id 17, 842); the answer adds them together — ask by students to tell them apart (control query: SELECT …)"}}}}
	if a := Compose(in); !strings.Contains(a.Markdown, "2 rows of students are named Maria Lopez: the answer takes them together.") {
		t.Errorf("markdown %q", a.Markdown)
	}
}

// TestOneRowListIsNoFigure: a list of rows that comes back as one row of
// one number ("guests with more than 10 bookings": the id 183) is said as
// the row listed, not "Guests … was 183" (found from outside).
func TestOneRowListIsNoFigure(t *testing.T) {
	a := Compose(AnswerInput{Title: "Guests (bookings more than 10)", Reading: &event.ReadingData{List: "guests: id"},
		Table:   &quarry.Table{Columns: []quarry.Column{{Name: "id", Type: quarry.TypeInt}}, Rows: [][]any{{int64(183)}}},
		Columns: []ColumnInfo{{Name: "id", Role: RoleColumn}}})
	if strings.Contains(a.Headline, " was ") || !strings.Contains(a.Headline, "183") {
		t.Errorf("headline = %q", a.Headline)
	}
}

// TestYearsAreNoAmounts: a column of years shows 2013, not 2,013 (found
// from outside: "2,013 is largest with 14").
func TestYearsAreNoAmounts(t *testing.T) {
	for name, want := range map[string]string{"published_year": "2013", "Year": "2013", "yr": "2013", "amount": "2,013"} {
		if got := Value(int64(2013), ColumnInfo{Name: name, Role: RoleDimension}, ""); got != want {
			t.Errorf("Value(2013) of %s = %q, want %q", name, got, want)
		}
	}
}

// TestIdsAreNoAmounts: a row's id or number is written as stored, never
// grouped by thousands ("24234 leads", found from outside as "24,234
// leads"); a count is.
func TestIdsAreNoAmounts(t *testing.T) {
	for name, want := range map[string]string{"id": "24234", "order_id": "24234", "Order ID": "24234", "invoice_no": "24234", "order_number": "24234",
		"orders": "24,234", "paid": "24,234", "number_of_seats": "24,234"} {
		if got := Value(int64(24234), ColumnInfo{Name: name, Role: RoleDimension}, ""); got != want {
			t.Errorf("Value(24234) of %s = %q, want %q", name, got, want)
		}
	}
}

// TestNoValueLeadsNoBreakdown: the lessons with no accompanist are no
// accompanist who leads the breakdown ("(no name) is largest with
// 1,147", found from outside): the named groups lead, and the rows with
// none are said after them, by the table the name is of.
func TestNoValueLeadsNoBreakdown(t *testing.T) {
	a := Compose(AnswerInput{Title: "Number of lessons by accompanist",
		Reading: &event.ReadingData{Source: "metric", Measures: []event.ReadMeasure{{Name: "count_lessons", How: "COUNT(lessons.id) over lessons"}},
			GroupBy: []event.ReadGrouping{{Name: "accompanist.id", Column: "accompanist.id"}, {Name: "accompanist.name", Column: "accompanist.name"}}},
		Table: &quarry.Table{Columns: []quarry.Column{{Name: "name", Type: quarry.TypeText}, {Name: "count_lessons", Type: quarry.TypeInt}},
			Rows: [][]any{{nil, int64(1147)}, {"Nils Engel", int64(98)}, {"Theo Engel", int64(121)}}},
		Columns: []ColumnInfo{{Name: "name", Role: RoleDimension}, {Name: "count_lessons", Role: RoleMetric, Format: FormatInteger}}})
	if !strings.Contains(a.Headline, "Theo Engel is largest with 121") || !strings.Contains(a.Headline, "(no accompanist): 1,147") {
		t.Errorf("headline = %q", a.Headline)
	}
}
