package analyst

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPastDayOfBookedRows: asked as of an earlier day, rows dated after
// it had not happened then, where the date also holds days after today
// (appointments booked ahead) and where the question keeps a state
// ('failed'); a state that rows leave when their date comes (scheduled)
// or when an end passes (active, expired) is today's, and refused
// (found from outside, a clinic: "how many treatments" 2,642 for 1,029,
// "how many failed lab tests" 86 for 36, "expired contracts" 33 for 28,
// at 1.00).
func TestPastDayOfBookedRows(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE appointments (id INTEGER PRIMARY KEY, scheduled_at DATE, status TEXT);
CREATE TABLE treatments (id INTEGER PRIMARY KEY, appointment_id INTEGER REFERENCES appointments (id), fee REAL);
CREATE TABLE contracts (id INTEGER PRIMARY KEY, signed_on DATE, valid_until DATE, status TEXT);
INSERT INTO appointments VALUES (1, '2026-01-10', 'completed'), (2, '2026-03-10', 'failed'), (3, '2026-05-10', 'failed'), (4, '2026-09-01', 'scheduled');
INSERT INTO treatments VALUES (1, 1, 10), (2, 2, 20), (3, 3, 30), (4, 4, 40);
INSERT INTO contracts VALUES (1, '2025-01-01', '2026-02-01', 'expired'), (2, '2025-01-01', '2026-05-01', 'expired'), (3, '2025-06-01', '2027-01-01', 'active');
CREATE TABLE bills (id INTEGER PRIMARY KEY, issued_on DATE, due_on DATE, status TEXT, deleted_at DATE);
INSERT INTO bills VALUES (1, '2026-01-05', '2026-03-05', 'issued', NULL), (2, '2026-02-05', '2026-04-05', 'void', NULL), (3, '2026-02-10', '2026-04-10', 'issued', '2026-05-01'), (4, '2025-12-10', '2026-01-10', 'paid', NULL);
CREATE TABLE promos (id INTEGER PRIMARY KEY, valid_until DATE, status TEXT);
INSERT INTO promos VALUES (1, '2026-01-15', 'active'), (2, '2026-04-01', 'active'), (3, '2026-06-01', 'active'), (4, '2026-05-01', 'disabled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "appointments", Table: "appointments", PrimaryKey: "id", TimeColumn: "scheduled_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "scheduled_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"completed", "failed", "scheduled"}}}},
			{Name: "treatments", Table: "treatments", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "appointment_id", Type: quarry.TypeInt}, {Name: "fee", Type: quarry.TypeFloat}}},
			{Name: "contracts", Table: "contracts", PrimaryKey: "id", TimeColumn: "signed_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "signed_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "valid_until", Type: quarry.TypeDate},
				{Name: "status", Type: quarry.TypeText, Values: []string{"active", "expired"}}}},
			{Name: "bills", Table: "bills", PrimaryKey: "id", TimeColumn: "issued_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "issued_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "due_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd},
				{Name: "status", Type: quarry.TypeText, Values: []string{"issued", "paid", "void"}}, {Name: "deleted_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
			// Dated by the last day each is valid, as learn may date them.
			{Name: "promos", Table: "promos", PrimaryKey: "id", TimeColumn: "valid_until", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "valid_until", Type: quarry.TypeDate}, {Name: "status", Type: quarry.TypeText, Values: []string{"active", "disabled"}}}},
		},
		Relationships: []semantic.Relationship{{From: "treatments", FromColumn: "appointment_id", To: "appointments", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]int64{
		"how many treatments":             1,
		"how many failed appointments":    0,
		"how many scheduled appointments": -1,
		"how many expired contracts":      -1,
	} {
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if want < 0 {
			if err == nil || !strings.Contains(quarry.Message(err), "holds today's") {
				t.Errorf("%q: %v %+v; want refused, the status being today's", q, err, out.Table)
			}
			continue
		}
		if err != nil || out.Table == nil || out.Table.Rows[0][0] != want {
			t.Errorf("%q: %v %+v; want %d", q, err, out.Table, want)
		}
	}
}
