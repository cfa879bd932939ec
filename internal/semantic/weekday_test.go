package semantic

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestDayOfWeekEveryDialect: a grouping by the day of the week is the
// day's name from each engine's own ISO day number, sorted Monday first by
// an outer query that names the output column (PostgreSQL cannot name an
// output column inside an ORDER BY expression), partitions a share by
// another dimension as a period grain does ("share of orders by channel by
// day of week": of each day's total), and reads as a name, not a date.
func TestDayOfWeekEveryDialect(t *testing.T) {
	m := loadModel(t)
	engine := map[quarry.Dialect]string{
		quarry.DialectSQLite:   "strftime('%w', orders.ordered_at)",
		quarry.DialectPostgres: "EXTRACT(ISODOW FROM orders.ordered_at)",
		quarry.DialectMySQL:    "WEEKDAY(orders.ordered_at)",
		quarry.DialectDuckDB:   "EXTRACT(ISODOW FROM orders.ordered_at)",
	}
	for d, fn := range engine {
		for _, q := range []Query{
			{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "day_of_week"}}},
			{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "time", Grain: GrainDayOfWeek}, {Name: "channel"}}, Share: true},
			{Metrics: []string{"revenue", "orders"}, Dimensions: []DimRef{{Name: "day_of_week"}}, Order: []Order{{Field: "revenue", Desc: true}}, Limit: 1},
			{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "day_of_week"}}, Compare: []Period{{Label: "a", From: "2025-01-01", To: "2025-02-01"}, {Label: "b", From: "2026-01-01", To: "2026-02-01"}}},
		} {
			c, err := Compile(m, q, d)
			if err != nil {
				t.Fatalf("%s %+v: %v", d, q, err)
			}
			if !strings.Contains(c.SQL, fn) || !strings.Contains(c.SQL, "THEN 'Monday'") || !strings.Contains(c.SQL, "THEN 'Sunday'") {
				t.Errorf("%s: the day is not named from %s:\n%s", d, fn, c.SQL)
			}
			outer := c.SQL[strings.LastIndex(c.SQL, ") AS "):]
			if len(q.Order) == 0 && !strings.Contains(outer, "CASE day_of_week WHEN 'Monday' THEN 1") {
				t.Errorf("%s: not sorted Monday first by the outer query:\n%s", d, c.SQL)
			}
			if q.Share && !strings.Contains(c.SQL, "PARTITION BY") {
				t.Errorf("%s: a share by channel and day of week not of each day's total:\n%s", d, c.SQL)
			}
			found := false
			for _, col := range c.Columns {
				if col.Name == "day_of_week" {
					found = true
					if col.Format == "date" || col.Grain != GrainDayOfWeek {
						t.Errorf("%s: column %+v", d, col)
					}
				}
			}
			if !found {
				t.Errorf("%s: no day_of_week column in %+v", d, c.Columns)
			}
		}
	}
}
