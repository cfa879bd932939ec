package narrate

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// readingModel has two date columns that a misreading could confuse: a
// customer's signup and an order's date.
func readingModel() *semantic.Model {
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "id", TimeColumn: "signed_up_at", Columns: []semantic.Column{{Name: "id"}, {Name: "country"}, {Name: "signed_up_at"}}},
			{Name: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{{Name: "id"}, {Name: "customer_id"}, {Name: "status"}, {Name: "total"}, {Name: "ordered_at"}}},
		},
		Metrics: []semantic.Metric{
			{Name: "revenue", Entity: "orders", Expr: "SUM(orders.total)", Filters: []string{"orders.status = 'completed'"}},
			{Name: "customers", Entity: "customers", Expr: "COUNT(customers.id)"},
			{Name: "revenue_per_customer", Derived: "{revenue} / {customers}"},
		},
		Dimensions: []semantic.Dimension{
			{Name: "country", Entity: "customers", Expr: "customers.country"},
			{Name: "signup_date", Entity: "customers", Expr: "customers.signed_up_at", Type: "time"},
		},
	}
}

func TestRead(t *testing.T) {
	m := readingModel()
	for _, tc := range []struct {
		name string
		q    semantic.Query
		want []string // in the text, in this order
	}{
		{"a measure, how it is computed, its period and date column",
			semantic.Query{Metrics: []string{"revenue"}, TimeRange: &semantic.TimeRange{From: "2025-01-01", To: "2026-01-01"}},
			[]string{"revenue (SUM(orders.total) over orders where orders.status = 'completed')", "from 2025-01-01 to 2025-12-31 by orders.ordered_at"}},
		{"a period on another date column says which",
			semantic.Query{Metrics: []string{"customers"}, TimeRange: &semantic.TimeRange{Field: "signup_date", From: "2025-01-01", To: "2026-01-01"}},
			[]string{"customers (COUNT(customers.id) over customers)", "by customers.signed_up_at"}},
		{"a filter names its column, a grouping its grain and column",
			semantic.Query{Metrics: []string{"revenue"}, Filters: []semantic.Filter{{Field: "country", Op: semantic.OpIn, Values: []any{"Germany", "France"}}},
				Dimensions: []semantic.DimRef{{Name: "month", Grain: semantic.GrainMonth}}},
			[]string{"where country is one of 'Germany', 'France' (customers.country)", "by month of orders.ordered_at"}},
		// "not X" keeps the empty values, and says so, but where the
		// query groups by the same field, as the compiler writes it.
		{"not X keeps the empty values",
			semantic.Query{Metrics: []string{"revenue"}, Filters: []semantic.Filter{{Field: "country", Op: semantic.OpNe, Values: []any{"Germany"}}}},
			[]string{"where country ≠ 'Germany' (or empty) (customers.country)"}},
		{"not X grouped by its field leaves the empty group out",
			semantic.Query{Metrics: []string{"revenue"}, Filters: []semantic.Filter{{Field: "country", Op: semantic.OpNe, Values: []any{"Germany"}}}, Dimensions: []semantic.DimRef{{Name: "country"}}},
			[]string{"where country ≠ 'Germany' (customers.country)"}},
		{"a grouping by the day of the week says so, in words",
			semantic.Query{Metrics: []string{"revenue"}, Dimensions: []semantic.DimRef{{Name: "day_of_week", Grain: semantic.GrainDayOfWeek}}, TimeRange: &semantic.TimeRange{From: "2025-01-01", To: "2026-01-01"}},
			[]string{"from 2025-01-01 to 2025-12-31", "by day of week of orders.ordered_at"}},
		{"a grain of a named date is that date's (found from outside: \"tickets closed by month\" read as by opening month)",
			semantic.Query{Metrics: []string{"customers"}, Dimensions: []semantic.DimRef{{Name: "orders.ordered_at", Grain: semantic.GrainMonth}}},
			[]string{"by month of orders.ordered_at"}},
		{"a derived measure takes its parts' date columns",
			semantic.Query{Metrics: []string{"revenue_per_customer"}, TimeRange: &semantic.TimeRange{From: "2025-01-01", To: "2026-01-01"}},
			[]string{"revenue_per_customer ({revenue} / {customers})", "by orders.ordered_at, customers.signed_up_at"}},
		{"a ranking says its direction and size",
			semantic.Query{Metrics: []string{"revenue"}, Dimensions: []semantic.DimRef{{Name: "country"}}, Order: []semantic.Order{{Field: "revenue"}}, Limit: 3},
			[]string{"by country (customers.country)", "bottom 3 by revenue"}},
		{"a list names its entity and columns",
			semantic.Query{Rows: &semantic.RowsQuery{Entity: "customers", Columns: []string{"country"}}, Filters: []semantic.Filter{{Field: "customers.country", Op: semantic.OpEq, Values: []any{"Germany"}}}},
			[]string{"a list of customers: country", "where customers.country = 'Germany'"}},
		{"a value in several spellings is one value, its spellings named",
			semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{{Field: "customers.country", Op: semantic.OpEq, Values: []any{"GERMANY", "Germany", "germany "}}}},
			[]string{"where customers.country = 'germany' (3 spellings: 'GERMANY', 'Germany', 'germany ')"}},
		{"spellings of two values, and a value that differs in more than case",
			semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{{Field: "customers.country", Op: semantic.OpNe, Values: []any{"France", "france", "Franc"}}}},
			[]string{"where customers.country is none of 'france' (2 spellings: 'France', 'france'), 'Franc'"}},
		{"groups whose measure, hidden, is compared say what they are",
			semantic.Query{Metrics: []string{"revenue"}, Dimensions: []semantic.DimRef{{Name: "country"}}, Hidden: []string{"revenue"},
				Filters: []semantic.Filter{{Field: "revenue", Op: semantic.OpGt, Values: []any{100}}}},
			[]string{"the groups whose revenue meet the conditions, where revenue > 100", "by country"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Read(m, &tc.q, "metric")
			at := 0
			for _, w := range tc.want {
				i := strings.Index(r.Text[at:], w)
				if i < 0 {
					t.Fatalf("reading %q lacks %q (after byte %d)", r.Text, w, at)
				}
				at += i + len(w)
			}
		})
	}
	r := Read(m, &semantic.Query{Metrics: []string{"customers"}, Dimensions: []semantic.DimRef{{Name: "country"}}}, "model")
	if r.Source != "model" || r.Population == "" || len(r.GroupBy) != 1 || r.GroupBy[0].Column != "customers.country" {
		t.Errorf("structured reading = %+v", r)
	}
}

// TestChartSkipsEntityKeys: a ranking of products grouped by id and name
// is a bar chart of the names, not a table the chart chooser gives up on.
func TestChartSkipsEntityKeys(t *testing.T) {
	tbl := &quarry.Table{
		Columns: []quarry.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}, {Name: "revenue", Type: quarry.TypeFloat}},
		Rows:    [][]any{{int64(7), "Dumbbells", 168799.66}, {int64(3), "Earbuds", 138453.55}, {int64(9), "Headphones", 127488.78}},
	}
	infos := []ColumnInfo{{Name: "id", Role: RoleDimension}, {Name: "name", Role: RoleDimension}, {Name: "revenue", Role: RoleMetric}}
	spec := ChooseChart(tbl, infos, "Revenue by products")
	if spec.Kind != ChartBar || len(spec.Labels) != 3 || spec.Labels[0] != "Dumbbells" {
		t.Errorf("chart = %s %v, want a bar chart labelled by name", spec.Kind, spec.Labels)
	}
}
