package analyst

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCalledOffRate: the no-show rate is of the lessons that were to
// take place: a cancelled lesson is none a student could miss (found
// from outside, on a music school: cancelled lessons in the denominator,
// 9.6% for 11.5%). The cancellation rate keeps them, and so does a rate
// of rows dated by the day each was made (orders).
func TestCalledOffRate(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE lessons (id INTEGER PRIMARY KEY, scheduled_for DATE, status TEXT);
INSERT INTO lessons (scheduled_for, status) VALUES ('2026-06-01', 'completed'), ('2026-06-02', 'no_show'), ('2026-06-03', 'cancelled'), ('2026-06-04', 'cancelled');
CREATE TABLE orders (id INTEGER PRIMARY KEY, ordered_at DATE, status TEXT);
INSERT INTO orders (ordered_at, status) VALUES ('2026-06-01', 'delivered'), ('2026-06-02', 'refunded'), ('2026-06-03', 'cancelled'), ('2026-06-04', 'cancelled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "lessons", Table: "lessons", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "scheduled_for", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "completed", "no_show"}}}},
			{Name: "orders", Table: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "ordered_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "delivered", "refunded"}}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"no_show rate of lessons":   "0.5",
		"cancelled rate of lessons": "0.5",
		"refunded rate of orders":   "0.25",
	} {
		if got := oneCell(t, a, k, q, asOf); got != want {
			t.Errorf("%q: %s, want %s", q, got, want)
		}
	}
}
