package semantic

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
)

var dialects = []quarry.Dialect{quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL, quarry.DialectDuckDB}

func loadModel(t testing.TB) *Model {
	t.Helper()
	b, err := os.ReadFile("testdata/model.json")
	if err != nil {
		t.Fatal(err)
	}
	var m Model
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

// openFixture builds the small hand-computed database of testdata/fixture.sql.
func openFixture(t testing.TB) *sqlite3.Conn {
	t.Helper()
	b, err := os.ReadFile("testdata/fixture.sql")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := sqlite3.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	if err := conn.Exec(string(b)); err != nil {
		t.Fatal(err)
	}
	return conn
}

// query runs sql and returns its rows as text: NULL, integers, and floats
// rounded to six decimals.
func query(t testing.TB, conn *sqlite3.Conn, sql string) [][]string {
	t.Helper()
	stmt, tail, err := conn.Prepare(sql)
	if err != nil {
		t.Fatalf("prepare: %v\n%s", err, sql)
	}
	defer stmt.Close()
	if strings.TrimSpace(tail) != "" {
		t.Fatalf("more than one statement: %q", tail)
	}
	var rows [][]string
	for stmt.Step() {
		row := make([]string, stmt.ColumnCount())
		for i := range row {
			switch stmt.ColumnType(i) {
			case sqlite3.NULL:
				row[i] = "NULL"
			case sqlite3.INTEGER:
				row[i] = strconv.FormatInt(stmt.ColumnInt64(i), 10)
			case sqlite3.FLOAT:
				row[i] = strconv.FormatFloat(math.Round(stmt.ColumnFloat(i)*1e6)/1e6, 'f', -1, 64)
			default:
				row[i] = stmt.ColumnText(i)
			}
		}
		rows = append(rows, row)
	}
	if err := stmt.Err(); err != nil {
		t.Fatalf("step: %v\n%s", err, sql)
	}
	return rows
}

type compileCase struct {
	name string
	q    Query
	want [][]string // rows on the fixture database
}

func str(vs ...string) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

var (
	jan = Period{Label: "January 2025", From: "2025-01-01", To: "2025-02-01"}
	feb = Period{Label: "February 2025", From: "2025-02-01", To: "2025-03-01"}
	q1  = &TimeRange{From: "2025-01-01", To: "2025-04-01"}
)

func compileCases() []compileCase {
	return append(append(weekendCases(), semiJoinCases()...), []compileCase{
		{"revenue_total", Query{Metrics: []string{"revenue"}}, [][]string{{"330"}}},
		// "How many orders had revenue over 40": orders 1, 2, 3 and 7
		// (45, 45, 110, 100); order 5 has 30, orders 4 and 6 none.
		{"orders_with_revenue_over_40_count", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "orders.id"}},
			Filters: []Filter{{Field: "revenue", Op: OpGt, Values: []any{int64(40)}}}, CountGroups: "orders"}, [][]string{{"4"}}},
		{"orders_with_revenue_between_40_and_100_count", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "orders.id"}},
			Filters: []Filter{{Field: "revenue", Op: OpGe, Values: []any{int64(40)}}, {Field: "revenue", Op: OpLe, Values: []any{int64(100)}}}, CountGroups: "orders"}, [][]string{{"3"}}},
		{"revenue_by_month", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "month"}}},
			[][]string{{"2025-01-01", "90"}, {"2025-02-01", "110"}, {"2025-03-01", "30"}, {"2025-05-01", "100"}}},
		{"orders_by_week", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Grain: GrainWeek}}},
			[][]string{{"2025-01-06", "1"}, {"2025-01-20", "1"}, {"2025-02-03", "1"}, {"2025-02-10", "1"}, {"2025-02-24", "1"}, {"2025-03-24", "1"}, {"2025-05-05", "1"}}},
		{"revenue_by_quarter", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "time", Grain: GrainQuarter}}},
			[][]string{{"2025-01-01", "230"}, {"2025-04-01", "100"}}},
		{"orders_by_order_date_year", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "order_date", Grain: GrainYear}}},
			[][]string{{"2025-01-01", "7"}}},
		{"orders_by_day_in_january", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "day"}}, TimeRange: &TimeRange{From: "2025-01-01", To: "2025-02-01"}},
			[][]string{{"2025-01-10", "1"}, {"2025-01-20", "1"}}},
		{"revenue_by_country", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "country"}}},
			[][]string{{"France", "140"}, {"Germany", "190"}}},
		{"revenue_share_by_channel", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "channel"}}, Share: true},
			[][]string{{"mobile", "45", "0.136364"}, {"store", "30", "0.090909"}, {"web", "255", "0.772727"}}},
		{"orders_by_category_fanout", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "category"}}},
			[][]string{{"Books", "3"}, {"Home", "3"}, {"Toys", "3"}}},
		{"revenue_and_orders_by_channel", Query{Metrics: []string{"revenue", "orders"}, Dimensions: []DimRef{{Name: "channel"}}},
			[][]string{{"mobile", "45", "2"}, {"store", "30", "1"}, {"web", "255", "4"}}},
		{"average_order_value", Query{Metrics: []string{"average_order_value"}}, [][]string{{"66"}}},
		{"average_order_value_by_category", Query{Metrics: []string{"average_order_value"}, Dimensions: []DimRef{{Name: "category"}}},
			[][]string{{"Books", "27.5"}, {"Home", "65"}, {"Toys", "40"}}},
		{"revenue_compare_months", Query{Metrics: []string{"revenue"}, Compare: []Period{jan, feb}},
			[][]string{{"January 2025", "90"}, {"February 2025", "110"}}},
		{"orders_compare_months_by_channel", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "channel"}}, Compare: []Period{jan, feb}},
			[][]string{{"January 2025", "mobile", "1"}, {"January 2025", "web", "1"}, {"February 2025", "web", "2"}}},
		{"top_country_by_revenue", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "country"}}, Order: []Order{{Field: "revenue", Desc: true}}, Limit: 1},
			[][]string{{"Germany", "190"}}},
		{"top_country_by_revenue_hidden", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "country"}}, Order: []Order{{Field: "revenue", Desc: true}}, Limit: 1, Hidden: []string{"revenue"}},
			[][]string{{"Germany"}}},
		// Ties: every category has 3 orders, so the one with the most is
		// all three; the one with the least revenue is Home alone.
		{"top_category_by_orders_ties", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "category"}}, Order: []Order{{Field: "orders", Desc: true}}, Limit: 1, Ties: true},
			[][]string{{"Books", "3"}, {"Home", "3"}, {"Toys", "3"}}},
		{"top_category_by_orders_ties_hidden", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "category"}}, Order: []Order{{Field: "orders", Desc: true}}, Limit: 1, Ties: true, Hidden: []string{"orders"}},
			[][]string{{"Books"}, {"Home"}, {"Toys"}}},
		{"bottom_country_by_revenue_ties", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "country"}}, Order: []Order{{Field: "revenue"}}, Limit: 1, Ties: true},
			[][]string{{"France", "140"}}},
		{"rows_customers_last_country_ties", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"name"}}, Order: []Order{{Field: "country", Desc: true}}, Limit: 1, Ties: true},
			[][]string{{"Ann"}, {"Cid"}}},
		// Counts per row in a period, none counting 0: only Ann has no
		// order in February 2025.
		{"rows_customers_without_orders_in_february", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"name"}}, Filters: []Filter{{Field: "orders", Op: OpLt, Values: []any{int64(1)}, Count: true, Where: []Filter{
			{Field: "orders.ordered_at", Op: OpGe, Values: str("2025-02-01")}, {Field: "orders.ordered_at", Op: OpLt, Values: str("2025-03-01")}}}}},
			[][]string{{"Ann"}}},
		{"channels_with_more_than_one_order_hidden", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "channel"}}, Filters: []Filter{{Field: "orders", Op: OpGt, Values: []any{int64(1)}}}, Hidden: []string{"orders"}},
			[][]string{{"mobile"}, {"web"}}},
		{"revenue_in_germany", Query{Metrics: []string{"revenue"}, Filters: []Filter{{Field: "country", Op: OpEq, Values: str("Germany")}}},
			[][]string{{"190"}}},
		{"revenue_product_like", Query{Metrics: []string{"revenue"}, Filters: []Filter{{Field: "product", Op: OpLike, Values: str("_B 100%")}}},
			[][]string{{"80"}}},
		// The value's own '_' and '%' match only themselves.
		{"revenue_product_starts_with", Query{Metrics: []string{"revenue"}, Filters: []Filter{{Field: "product", Op: OpPrefix, Values: str("TOY_b")}}},
			[][]string{{"80"}}},
		{"revenue_product_ends_with", Query{Metrics: []string{"revenue"}, Filters: []Filter{{Field: "product", Op: OpSuffix, Values: str(" 100%")}}},
			[][]string{{"80"}}},
		{"orders_by_status_channel_in", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "order_status"}}, Filters: []Filter{{Field: "orders.channel", Op: OpIn, Values: str("web", "store")}}},
			[][]string{{"completed", "4"}, {"refunded", "1"}}},
		{"revenue_by_country_over_150", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "country"}}, Filters: []Filter{{Field: "revenue", Op: OpGt, Values: []any{int64(150)}}}},
			[][]string{{"Germany", "190"}}},
		{"subscribers_and_mrr_by_plan", Query{Metrics: []string{"active_subscribers", "mrr"}, Dimensions: []DimRef{{Name: "plan"}}},
			[][]string{{"Basic", "1", "10"}, {"Plus", "1", "20"}, {"Premium", "1", "40"}}},
		{"mrr_total", Query{Metrics: []string{"mrr"}}, [][]string{{"70"}}},
		{"conversion_rate_by_source", Query{Metrics: []string{"conversion_rate"}, Dimensions: []DimRef{{Name: "source"}}},
			[][]string{{"ads", "0.5"}, {"email", "0"}, {"organic", "1"}}},
		{"conversion_rate_by_country", Query{Metrics: []string{"conversion_rate"}, Dimensions: []DimRef{{Name: "country"}}},
			[][]string{{"NULL", "0"}, {"France", "1"}, {"Germany", "1"}}},
		{"customers_by_category_fanout", Query{Metrics: []string{"customers"}, Dimensions: []DimRef{{Name: "category"}}},
			[][]string{{"Books", "3"}, {"Home", "2"}, {"Toys", "3"}}},
		{"rows_products_launched_2025", Query{Rows: &RowsQuery{Entity: "products"}, TimeRange: &TimeRange{From: "2025-01-01", To: "2026-01-01"}, Order: []Order{{Field: "name"}}},
			[][]string{{"Lamp C", "Home", "50", "30", "2025-04-15", "1"}, {"Toy_B 100%", "Toys", "20", "8", "2025-02-01", "0"}}},
		{"rows_customers_in_germany", Query{Rows: &RowsQuery{Entity: "customers"}, Filters: []Filter{{Field: "country", Op: OpEq, Values: str("Germany")}}, Order: []Order{{Field: "name"}}},
			[][]string{{"Ann", "Germany", "Berlin", "consumer", "2024-01-05"}, {"Cid", "Germany", "Munich", "business", "2024-03-15"}}},
		{"rows_orders_of_germany", Query{Rows: &RowsQuery{Entity: "orders", Columns: []string{"id", "ordered_at", "customers.name"}}, Filters: []Filter{{Field: "country", Op: OpEq, Values: str("Germany")}, {Field: "status", Op: OpNe, Values: str("pending")}}, Order: []Order{{Field: "ordered_at", Desc: true}}, Limit: 2},
			[][]string{{"7", "2025-05-05 11:00:00", "Ann"}, {"4", "2025-02-14 18:00:00", "Cid"}}},
		{"orders_q1_by_month", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "month"}}, TimeRange: q1},
			[][]string{{"2025-01-01", "2"}, {"2025-02-01", "2"}, {"2025-03-01", "2"}}},
		{"tickets_and_satisfaction_by_department", Query{Metrics: []string{"tickets", "avg_satisfaction"}, Dimensions: []DimRef{{Name: "department"}}},
			[][]string{{"NULL", "1", "NULL"}, {"Support", "2", "4"}}},
		{"revenue_and_orders_by_month_q1", Query{Metrics: []string{"revenue", "orders"}, Dimensions: []DimRef{{Name: "month"}}, TimeRange: q1},
			[][]string{{"2025-01-01", "90", "2"}, {"2025-02-01", "110", "2"}, {"2025-03-01", "30", "2"}}},
		{"orders_without_discount_code", Query{Metrics: []string{"orders"}, Filters: []Filter{{Field: "orders.discount_code", Op: OpNull}}},
			[][]string{{"5"}}},
		{"revenue_per_customer_by_country", Query{Metrics: []string{"revenue_per_customer"}, Dimensions: []DimRef{{Name: "country"}}},
			[][]string{{"France", "140"}, {"Germany", "95"}}},
		{"revenue_share_compare_months_by_channel", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "channel"}}, Compare: []Period{jan, feb}, Share: true},
			[][]string{{"January 2025", "mobile", "45", "0.5"}, {"January 2025", "web", "45", "0.5"}, {"February 2025", "web", "110", "1"}}},
		{"rows_distinct_customer_countries", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"country"}, Distinct: true}, Order: []Order{{Field: "country"}}},
			[][]string{{"France"}, {"Germany"}}},
		{"rows_orders_default_columns", Query{Rows: &RowsQuery{Entity: "orders"}, Filters: []Filter{{Field: "channel", Op: OpEq, Values: str("store")}}},
			[][]string{{"5", "2025-03-01 08:00:00", "completed", "store", "SPRING"}}},
		{"orders_by_order_date_default_day", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "order_date"}}, TimeRange: &TimeRange{Field: "order_date", From: "2025-03-01", To: "2025-04-01"}},
			[][]string{{"2025-03-01", "1"}, {"2025-03-30", "1"}}},
		// Medians: pages 3, 1, 5, 2 (even: 2 and 3), satisfaction 5,
		// NULL, 3 (the NULL left out), per group odd and even.
		{"median_pages_per_session", Query{Metrics: []string{"pages_per_session"}, Percentile: 50}, [][]string{{"2.5"}}},
		{"median_pages_by_device", Query{Metrics: []string{"pages_per_session"}, Dimensions: []DimRef{{Name: "device"}}, Percentile: 50},
			[][]string{{"desktop", "4"}, {"mobile", "1.5"}}},
		{"median_pages_top_month", Query{Metrics: []string{"pages_per_session"}, Dimensions: []DimRef{{Name: "month"}}, Order: []Order{{Field: "pages_per_session", Desc: true}}, Limit: 1, Percentile: 50},
			[][]string{{"2025-01-01", "3"}}},
		{"median_satisfaction_january", Query{Metrics: []string{"avg_satisfaction"}, TimeRange: &TimeRange{From: "2025-01-01", To: "2025-02-01"}, Percentile: 50},
			[][]string{{"5"}}},
		{"median_satisfaction_by_category_fanout", Query{Metrics: []string{"avg_satisfaction"}, Dimensions: []DimRef{{Name: "category"}}, Percentile: 50},
			[][]string{{"Books", "4"}, {"Home", "5"}, {"Toys", "4"}}},
		// 90th percentile of 1, 2, 3, 5: rank 1 + 0.9·3 = 3.7, so 3 + 0.7·2.
		{"p90_pages_per_session", Query{Metrics: []string{"pages_per_session"}, Percentile: 90}, [][]string{{"4.4"}}},
		// "not X" keeps the rows with no value: 5 of the 7 orders have no
		// code, and are not WINTER (found from outside: <> dropped them).
		{"orders_not_winter", Query{Metrics: []string{"orders"}, Filters: []Filter{{Field: "orders.discount_code", Op: OpNe, Values: str("WINTER")}}}, [][]string{{"6"}}},
		{"orders_not_winter_or_spring", Query{Metrics: []string{"orders"}, Filters: []Filter{{Field: "orders.discount_code", Op: OpNotIn, Values: str("WINTER", "SPRING")}}}, [][]string{{"5"}}},
		{"items_sold_by_category_and_segment", Query{Metrics: []string{"items_sold"}, Dimensions: []DimRef{{Name: "category"}, {Name: "segment"}}, Filters: []Filter{{Field: "category", Op: OpNe, Values: str("Home")}}},
			[][]string{{"Books", "business", "5"}, {"Books", "consumer", "3"}, {"Toys", "business", "4"}, {"Toys", "consumer", "1"}}},
	}...)
}

func TestCompileGolden(t *testing.T) {
	m := loadModel(t)
	conn := openFixture(t)
	for _, tc := range compileCases() {
		t.Run(tc.name, func(t *testing.T) {
			for _, d := range dialects {
				c, err := Compile(m, tc.q, d)
				if err != nil {
					t.Fatalf("%s: %v", d, err)
				}
				got := c.SQL + "\n"
				for _, n := range c.Notes {
					got += "-- note: " + n + "\n"
				}
				path := filepath.Join("testdata", "golden", tc.name+"."+string(d)+".sql")
				if goldentest.Update() {
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("%s SQL differs from %s (-want +got):\n%s", d, path, diff)
				}
				if d == quarry.DialectSQLite {
					rows := query(t, conn, c.SQL)
					if diff := cmp.Diff(tc.want, rows); diff != "" {
						t.Errorf("sqlite rows differ (-want +got):\n%s\n%s", diff, c.SQL)
					}
					if len(rows) > 0 && len(rows[0]) != len(c.Columns) {
						t.Errorf("%d result columns, %d described", len(rows[0]), len(c.Columns))
					}
				}
			}
		})
	}
}
