package analyst

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestComingBareMonth: on June 30, "total amount due in July" is the
// July to come, on a date set ahead that holds days after today (found
// from outside, on a credit union: July 2025's installments answered, at
// 1.00), and so are the reservations for July. What was paid in July is
// last July's; a month of this year that has begun is this year's.
func TestComingBareMonth(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE reservations (id INTEGER PRIMARY KEY, reserved_for DATE);
INSERT INTO reservations (reserved_for) VALUES ('2025-07-10'), ('2025-07-11'), ('2026-07-04');
CREATE TABLE payments (id INTEGER PRIMARY KEY, due_date DATE, paid_date DATE, amount_due REAL, amount_paid REAL);
INSERT INTO payments (due_date, paid_date, amount_due, amount_paid) VALUES
 ('2025-07-05', '2025-07-06', 100, 100),
 ('2026-05-05', '2026-05-05', 20, 20),
 ('2026-07-05', NULL, 7, 0),
 ('2026-07-20', NULL, 3, 0);`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "reservations", Table: "reservations", PrimaryKey: "id", TimeColumn: "reserved_for", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "reserved_for", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
			{Name: "payments", Table: "payments", PrimaryKey: "id", TimeColumn: "paid_date", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "due_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd},
				{Name: "paid_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "amount_due", Type: quarry.TypeFloat}, {Name: "amount_paid", Type: quarry.TypeFloat}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"total amount due in July":       "10",
		"total amount paid in July":      "100",
		"total amount due in May":        "20",
		"how many reservations for July": "1",
	} {
		if got := oneCell(t, a, k, q, asOf); got != want {
			t.Errorf("%q: %s, want %s", q, got, want)
		}
	}
}
