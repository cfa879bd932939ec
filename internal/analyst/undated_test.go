package analyst

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestUndatedCheck: a figure for a period leaves out the rows whose date
// is empty, and says so where they are many (found from outside: "how
// many class bookings were made in 2025" said 1,344 with no word, where
// a third of the bookings had no booking date); a few pass.
func TestUndatedCheck(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE bookings (id INTEGER PRIMARY KEY, booked_dt TEXT, status TEXT, cancelled_dt TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
INSERT INTO bookings SELECT i, CASE WHEN i % 3 = 0 THEN NULL ELSE '2025-0' || (1 + i % 9) || '-15' END, CASE WHEN i % 3 = 1 THEN 'cancelled' ELSE 'ok' END, CASE WHEN i % 3 = 1 THEN '2025-06-01' END FROM n;
CREATE TABLE visits (id INTEGER PRIMARY KEY, visit_dt TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
INSERT INTO visits SELECT i, CASE WHEN i = 7 THEN NULL ELSE '2025-0' || (1 + i % 9) || '-15' END FROM n;`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "bookings", Table: "bookings", PrimaryKey: "id", TimeColumn: "booked_dt", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "booked_dt", Type: quarry.TypeDate}, {Name: "status", Type: quarry.TypeText}, {Name: "cancelled_dt", Type: quarry.TypeDate}}},
			{Name: "visits", Table: "visits", PrimaryKey: "id", TimeColumn: "visit_dt", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "visit_dt", Type: quarry.TypeDate}}},
		},
		Metrics: []semantic.Metric{
			{Name: "bookings", Entity: "bookings", Expr: "COUNT(bookings.id)"},
			{Name: "visits", Entity: "visits", Expr: "COUNT(visits.id)"},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	check := func(q semantic.Query) verify.Check {
		return runCheck(t, a, m, q, func(ctx context.Context, m *semantic.Model, q *semantic.Query, _ *Result, _ *semantic.Compiled) verify.Check {
			return a.UndatedCheck(ctx, m, q)
		})
	}
	y2025 := &semantic.TimeRange{From: "2025-01-01", To: "2026-01-01"}
	if c := check(semantic.Query{Metrics: []string{"bookings"}, TimeRange: y2025}); c.Status != verify.Warn || !strings.Contains(c.Detail, "33% of the bookings have no booked dt") {
		t.Errorf("a third undated: %s %q", c.Status, c.Detail)
	}
	if c := check(semantic.Query{Metrics: []string{"visits"}, TimeRange: y2025}); c.Status != verify.Pass {
		t.Errorf("one undated: %s %q", c.Status, c.Detail)
	}
	if c := check(semantic.Query{Metrics: []string{"bookings"}}); c.Name != "" {
		t.Errorf("no period: %+v", c)
	}
	// The rows the question picks: every cancelled booking has a date
	// (found from outside: the whole table's undated rows were counted).
	cancelled := []semantic.Filter{{Field: "bookings.status", Op: semantic.OpEq, Values: []any{"cancelled"}}}
	if c := check(semantic.Query{Metrics: []string{"bookings"}, Filters: cancelled, TimeRange: y2025}); c.Status == verify.Warn {
		t.Errorf("the rows picked all dated: %s %q", c.Status, c.Detail)
	}
	// Another date than the rows' own is that of something that happens
	// to some of them: not read.
	if c := check(semantic.Query{Metrics: []string{"bookings"}, TimeRange: &semantic.TimeRange{Field: "bookings.cancelled_dt", From: "2025-01-01", To: "2026-01-01"}}); c.Name != "" {
		t.Errorf("a date of what happens to some rows: %+v", c)
	}
}

// TestUndatedCheckNoneDated: where none of the rows the question picks has
// the date its period is on, the figure is empty whatever happened, and
// the check fails naming the other dates (found from outside: "how many
// missed payments last month" said 0 at 0.72, missed payments having no
// paid_on).
func TestUndatedCheckNoneDated(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE payments (id INTEGER PRIMARY KEY, due_date TEXT, paid_on TEXT, status TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 90)
INSERT INTO payments SELECT i, '2025-05-01', CASE WHEN i % 3 = 0 THEN NULL ELSE '2025-05-0' || (1 + i % 9) END, CASE WHEN i % 3 = 0 THEN 'missed' ELSE 'paid' END FROM n;`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "payments", Table: "payments", PrimaryKey: "id", TimeColumn: "paid_on", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "due_date", Type: quarry.TypeDate}, {Name: "paid_on", Type: quarry.TypeDate}, {Name: "status", Type: quarry.TypeText}}}},
		Metrics: []semantic.Metric{{Name: "payments", Entity: "payments", Expr: "COUNT(payments.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	check := func(q semantic.Query) verify.Check {
		return runCheck(t, a, m, q, func(ctx context.Context, m *semantic.Model, q *semantic.Query, _ *Result, _ *semantic.Compiled) verify.Check {
			return a.UndatedCheck(ctx, m, q)
		})
	}
	may := &semantic.TimeRange{From: "2025-05-01", To: "2025-06-01"}
	missed := []semantic.Filter{{Field: "payments.status", Op: semantic.OpEq, Values: []any{"missed"}}}
	if c := check(semantic.Query{Metrics: []string{"payments"}, Filters: missed, TimeRange: may}); c.Status != verify.Fail || !strings.Contains(c.Detail, "due_date") {
		t.Errorf("missed, none dated: %s %q; want failed, naming due_date", c.Status, c.Detail)
	}
	if c := check(semantic.Query{Metrics: []string{"payments"}, TimeRange: may}); c.Status != verify.Warn {
		t.Errorf("every payment, a third undated: %s %q", c.Status, c.Detail)
	}
}
