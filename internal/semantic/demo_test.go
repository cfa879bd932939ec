package semantic

import (
	"context"
	"math"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/quarry"
)

// sameRows compares result sets cell by cell, numbers to a relative
// tolerance (sums over many rows depend on the order of addition).
func sameRows(t *testing.T, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d\ngot  %v\nwant %v", len(got), len(want), got, want)
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("row %d: %d columns, want %d", i, len(got[i]), len(want[i]))
		}
		for j := range got[i] {
			g, errG := strconv.ParseFloat(got[i][j], 64)
			w, errW := strconv.ParseFloat(want[i][j], 64)
			if errG == nil && errW == nil {
				if math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w)) {
					t.Errorf("row %d col %d: %v, want %v", i, j, g, w)
				}
			} else if got[i][j] != want[i][j] {
				t.Errorf("row %d col %d: %q, want %q", i, j, got[i][j], want[i][j])
			}
		}
	}
}

// TestDemoDatabase checks compiled metrics on the real demo database
// against SQL written by hand, independently of the compiler.
func TestDemoDatabase(t *testing.T) {
	if raceEnabled {
		// The compiler is pure and the comparison one goroutine; building
		// the demo takes about two minutes under the race detector.
		t.Skip("runs in the plain test pass")
	}
	path := filepath.Join(t.TempDir(), "demo.db")
	anchor := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	if _, err := demo.Build(context.Background(), path, demo.Options{Anchor: anchor}); err != nil {
		t.Fatal(err)
	}
	conn, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	m := loadModel(t)
	cases := []struct {
		name string
		q    Query
		hand string
	}{
		{"revenue", Query{Metrics: []string{"revenue"}},
			`SELECT SUM(i.quantity * i.unit_price * (1 - i.discount)) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 'completed'`},
		{"orders by category", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "category"}}},
			`SELECT p.category, COUNT(DISTINCT o.id) FROM orders o LEFT JOIN order_items i ON i.order_id = o.id LEFT JOIN products p ON p.id = i.product_id GROUP BY p.category ORDER BY p.category`},
		{"average order value by quarter", Query{Metrics: []string{"average_order_value"}, Dimensions: []DimRef{{Name: "quarter"}}, TimeRange: &TimeRange{From: "2025-01-01", To: "2026-01-01"}},
			`WITH r AS (SELECT substr(o.ordered_at, 1, 4) || CASE WHEN substr(o.ordered_at, 6, 2) <= '03' THEN '-01-01' WHEN substr(o.ordered_at, 6, 2) <= '06' THEN '-04-01' WHEN substr(o.ordered_at, 6, 2) <= '09' THEN '-07-01' ELSE '-10-01' END AS q,
			        o.id AS oid, i.quantity * i.unit_price * (1 - i.discount) AS v
			   FROM orders o LEFT JOIN order_items i ON i.order_id = o.id
			  WHERE o.status = 'completed' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01')
			 SELECT q, SUM(v) / COUNT(DISTINCT oid) FROM r GROUP BY q ORDER BY q`},
		{"orders by week", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "week"}}, TimeRange: &TimeRange{From: "2026-03-01", To: "2026-05-01"}},
			`SELECT date(ordered_at, '-' || ((CAST(strftime('%w', ordered_at) AS INTEGER) + 6) % 7) || ' days') AS w, COUNT(*) FROM orders
			  WHERE ordered_at >= '2026-03-01' AND ordered_at < '2026-05-01' GROUP BY w ORDER BY w`},
		{"orders by day of week", Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "day_of_week"}}, TimeRange: &TimeRange{From: "2025-01-01", To: "2026-01-01"}},
			`SELECT CASE strftime('%w', ordered_at) WHEN '0' THEN 'Sunday' WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday' WHEN '3' THEN 'Wednesday' WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday' ELSE 'Saturday' END, COUNT(*) FROM orders
			  WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY strftime('%w', ordered_at) ORDER BY (strftime('%w', ordered_at) + 6) % 7`},
		{"top day of week by revenue", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "day_of_week"}}, Order: []Order{{Field: "revenue", Desc: true}}, Limit: 2},
			`SELECT CASE strftime('%w', o.ordered_at) WHEN '0' THEN 'Sunday' WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday' WHEN '3' THEN 'Wednesday' WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday' ELSE 'Saturday' END, SUM(i.quantity * i.unit_price * (1 - i.discount)) AS v
			   FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 'completed' GROUP BY 1 ORDER BY v DESC LIMIT 2`},
		{"subscribers and mrr by plan", Query{Metrics: []string{"active_subscribers", "mrr"}, Dimensions: []DimRef{{Name: "plan"}}},
			`SELECT p.name, COUNT(DISTINCT s.customer_id), SUM(p.monthly_price) FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE s.status = 'active' GROUP BY p.name ORDER BY p.name`},
		{"conversion rate by device", Query{Metrics: []string{"conversion_rate"}, Dimensions: []DimRef{{Name: "device"}}},
			`SELECT device, AVG(converted) FROM web_sessions GROUP BY device ORDER BY device`},
		{"revenue by country in Germany or France", Query{Metrics: []string{"revenue", "orders"}, Dimensions: []DimRef{{Name: "country"}}, Filters: []Filter{{Field: "country", Op: OpIn, Values: str("Germany", "France")}}},
			`SELECT c.country,
			        (SELECT SUM(i.quantity * i.unit_price * (1 - i.discount)) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN customers c2 ON c2.id = o.customer_id WHERE o.status = 'completed' AND c2.country = c.country),
			        (SELECT COUNT(*) FROM orders o JOIN customers c2 ON c2.id = o.customer_id WHERE c2.country = c.country)
			   FROM (SELECT DISTINCT country FROM customers WHERE country IN ('Germany', 'France')) c ORDER BY c.country`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compile(m, tc.q, quarry.DialectSQLite)
			if err != nil {
				t.Fatal(err)
			}
			got := query(t, conn, c.SQL)
			if len(got) == 0 {
				t.Fatalf("no rows:\n%s", c.SQL)
			}
			sameRows(t, got, query(t, conn, tc.hand))
		})
	}
}

// TestDemoMedians checks medians and a percentile compiled over the demo
// database against the same figures computed in Go from the raw rows.
func TestDemoMedians(t *testing.T) {
	if raceEnabled {
		t.Skip("runs in the plain test pass")
	}
	path := filepath.Join(t.TempDir(), "demo.db")
	anchor := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	if _, err := demo.Build(context.Background(), path, demo.Options{Anchor: anchor}); err != nil {
		t.Fatal(err)
	}
	conn, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	m := loadModel(t)
	cases := []struct {
		name string
		q    Query
		raw  string // group, value
	}{
		{"median pages per session", Query{Metrics: []string{"pages_per_session"}, Percentile: 50},
			`SELECT '', pages FROM web_sessions`},
		{"median pages by device", Query{Metrics: []string{"pages_per_session"}, Dimensions: []DimRef{{Name: "device"}}, Percentile: 50},
			`SELECT device, pages FROM web_sessions`},
		{"median pages by month of 2025", Query{Metrics: []string{"pages_per_session"}, Dimensions: []DimRef{{Name: "month"}}, TimeRange: &TimeRange{From: "2025-01-01", To: "2026-01-01"}, Percentile: 50},
			`SELECT substr(started_at, 1, 7) || '-01', pages FROM web_sessions WHERE started_at >= '2025-01-01' AND started_at < '2026-01-01'`},
		{"median satisfaction by priority", Query{Metrics: []string{"avg_satisfaction"}, Dimensions: []DimRef{{Name: "priority"}}, Percentile: 50},
			`SELECT priority, satisfaction FROM support_tickets`},
		{"90th percentile of satisfaction by priority", Query{Metrics: []string{"avg_satisfaction"}, Dimensions: []DimRef{{Name: "priority"}}, Percentile: 90},
			`SELECT priority, satisfaction FROM support_tickets`},
	}
	odd, even, nulls := false, false, false
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			values := map[string][]float64{}
			for _, r := range query(t, conn, tc.raw) {
				if r[1] == "NULL" {
					nulls = true
					continue
				}
				v, err := strconv.ParseFloat(r[1], 64)
				if err != nil {
					t.Fatal(err)
				}
				values[r[0]] = append(values[r[0]], v)
			}
			c, err := Compile(m, tc.q, quarry.DialectSQLite)
			if err != nil {
				t.Fatal(err)
			}
			got := query(t, conn, c.SQL)
			if len(got) != len(values) {
				t.Fatalf("%d rows, want %d groups:\n%s", len(got), len(values), c.SQL)
			}
			for _, r := range got {
				key, cell := "", r[0]
				if len(r) == 2 {
					key, cell = r[0], r[1]
				}
				xs, ok := values[key]
				if !ok {
					t.Fatalf("group %q is not in the raw rows", key)
				}
				odd, even = odd || len(xs)%2 == 1, even || len(xs)%2 == 0
				if want := percentileOf(xs, tc.q.Percentile); !near(cell, want) {
					t.Errorf("%s: %s, want %v", key, cell, want)
				}
			}
		})
	}
	if !odd || !even || !nulls {
		t.Errorf("the cases must take medians of odd counts (%v), even counts (%v) and over NULLs (%v)", odd, even, nulls)
	}
}
