package analyst

import (
	"context"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestEndedRelatedRows: rows kept for a related row that has ended
// ("tenants of terminated leases") count only the ends on or before the
// as-of day (found from outside: 17 terminations set ahead counted as
// done, at 1.00), and those kept for one not ended keep the ends that
// lie ahead.
func TestEndedRelatedRows(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE tenants (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE leases (id INTEGER PRIMARY KEY, tenant_id INTEGER REFERENCES tenants(id), kind TEXT, starts_on DATE, terminated_on DATE);
INSERT INTO tenants VALUES (1, 'Ann'), (2, 'Bo'), (3, 'Cy');
INSERT INTO leases VALUES (1, 1, 'residential', '2025-01-01', '2026-03-01'), (2, 2, 'residential', '2025-01-01', '2026-09-01'), (3, 3, 'residential', '2025-01-01', NULL);`)
	col := func(n string, t quarry.Type) semantic.Column { return semantic.Column{Name: n, Type: t} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "tenants", Table: "tenants", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{col("id", quarry.TypeInt), col("name", quarry.TypeText)}},
			{Name: "leases", Table: "leases", PrimaryKey: "id", TimeColumn: "starts_on", Columns: []semantic.Column{col("id", quarry.TypeInt), col("tenant_id", quarry.TypeInt),
				{Name: "kind", Type: quarry.TypeText, Values: []string{"commercial", "residential"}},
				{Name: "starts_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "terminated_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{{From: "leases", FromColumn: "tenant_id", To: "tenants", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]int64{
		"how many tenants of terminated leases": 1, // Ann's; Bo's ends in September
		// Not ended by then: Bo's, ending in September, and Cy's.
		"how many tenants have a current residential lease": 2,
	} {
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || out.Table.Rows[0][0] != want {
			var got any
			if out.Table != nil && len(out.Table.Rows) > 0 {
				got = out.Table.Rows[0][0]
			}
			t.Errorf("%q: %v, got %v, want %d (%s)", q, err, got, want, out.Status)
		}
	}
}

// TestEndedWithPeriodOnIt: a period on the end date itself says which rows
// count; "how many memberships expire in 2027" is not also those expired
// by the as-of day (found from outside: 0 at 1.00, where 2 expire then).
func TestEndedWithPeriodOnIt(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE patrons (id INTEGER PRIMARY KEY, name TEXT, joined_on DATE, membership_expires DATE);
INSERT INTO patrons VALUES (1, 'Ann', '2024-01-01', '2026-03-01'), (2, 'Bo', '2025-01-01', '2027-02-01'), (3, 'Cy', '2025-06-01', '2027-09-01'), (4, 'Di', '2026-01-01', '2028-01-05');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "patrons", Table: "patrons", PrimaryKey: "id", Label: "name", TimeColumn: "joined_on", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
			{Name: "joined_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "membership_expires", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "How many memberships expire in 2027?", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	if err != nil || out.Table == nil || len(out.Table.Rows) != 1 {
		t.Fatalf("%v %s", err, out.Status)
	}
	if got, _ := semantic.NumberOf(out.Table.Rows[0][0]); got != 2 {
		t.Errorf("expiring in 2027: %v, want 2 (%s)", got, out.SQL)
	}
}
