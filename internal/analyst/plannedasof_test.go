package analyst

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPlannedAsOfAnEarlierDay: as of June 30, asked in December, "how
// many lessons are scheduled for next month" counts the July lessons
// booked by June 30 and not called off; it was refused as a forecast,
// the dates being judged set ahead by today alone, where no lesson is
// dated after December (found from outside, on a music school: 202
// lessons on the books for July). A lesson booked in July was not known
// on the day. Orders, with no date set ahead, are still no forecast.
func TestPlannedAsOfAnEarlierDay(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE lessons (id INTEGER PRIMARY KEY, created_at DATE, scheduled_for DATE, status TEXT);
INSERT INTO lessons (created_at, scheduled_for, status) VALUES
 ('2026-06-10', '2026-07-06', 'completed'), ('2026-06-11', '2026-07-07', 'cancelled'), ('2026-06-12', '2026-07-08', 'completed'),
 ('2026-07-02', '2026-07-09', 'completed'), ('2026-06-01', '2026-06-22', 'completed');
CREATE TABLE orders (id INTEGER PRIMARY KEY, ordered_at DATE);
INSERT INTO orders (ordered_at) VALUES ('2026-06-20'), ('2026-07-04');`)
	a.Clock = func() time.Time { return time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC) }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "lessons", Table: "lessons", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "created_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
				{Name: "scheduled_for", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "completed", "scheduled"}}}},
			{Name: "orders", Table: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "ordered_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Metrics: []semantic.Metric{{Name: "lessons", Entity: "lessons", Expr: "COUNT(lessons.id)"}, {Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	if got := oneCell(t, a, k, "how many lessons are scheduled for next month", asOf); got != "2" {
		t.Errorf("lessons next month: %s, want 2 (booked by June 30, not cancelled)", got)
	}
	if _, err := a.Ask(t.Context(), event.NewRecorder("r2", a.Clock, &memSink{}), k, "how many orders next month", asOf); quarry.KindOf(err) != quarry.KindUnanswered {
		t.Errorf("orders next month: %v; want refused as a forecast", err)
	}
}

// TestOpeningThisYear: as of June 30, asked in December, "total budget
// of productions opening this year" is the budget of the productions
// known on June 30 that open in 2026, after the day too: the opening day
// is set ahead; it was cut at the day, 12 productions for 18, at 1.00
// (found from outside, on a theatre company). One made after the day is
// left out.
func TestOpeningThisYear(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE productions (id INTEGER PRIMARY KEY, created_at DATE, opens_on DATE, budget INTEGER);
INSERT INTO productions (created_at, opens_on, budget) VALUES
 ('2025-11-01', '2026-03-01', 100), ('2026-02-01', '2026-09-01', 20), ('2026-09-06', '2026-11-21', 3), ('2025-01-01', '2025-05-01', 4000);`)
	a.Clock = func() time.Time { return time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC) }
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "productions", Table: "productions", PrimaryKey: "id", TimeColumn: "opens_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "created_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
			{Name: "opens_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
			{Name: "budget", Type: quarry.TypeInt}}}},
		Metrics: []semantic.Metric{{Name: "budget", Entity: "productions", Expr: "SUM(productions.budget)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	if got := oneCell(t, a, k, "total budget of productions opening this year", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)); got != "120" {
		t.Errorf("budget of productions opening this year: %s, want 120", got)
	}
}
