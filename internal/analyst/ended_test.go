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
