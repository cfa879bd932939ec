package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestNoneWentThrough: the rows a subject must have none of are those
// that went through where the table's rows are money paid ("donors who
// have never made a donation": no donation that succeeded, a failed
// attempt none) or the verb says they took place ("volunteers who never
// worked a shift": none completed, a no-show none). Found from outside:
// 121 donors for 147 and no volunteer for 1, at 1.00.
func TestNoneWentThrough(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	status := func(vs ...string) semantic.Column {
		return semantic.Column{Name: "status", Type: quarry.TypeText, Values: vs}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "donors", PrimaryKey: "id", Columns: []semantic.Column{id("id")}},
			{Name: "donations", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("donor_id"), {Name: "amount_cents", Type: quarry.TypeInt}, status("succeeded", "failed", "refunded")}},
			{Name: "volunteers", PrimaryKey: "id", Columns: []semantic.Column{id("id")}},
			{Name: "volunteer_shifts", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("volunteer_id"), status("completed", "no_show", "cancelled")}},
		},
		Relationships: []semantic.Relationship{
			{From: "donations", FromColumn: "donor_id", To: "donors", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "volunteer_shifts", FromColumn: "volunteer_id", To: "volunteers", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	sqlHolds(t, p, m, "how many donors have never made a donation", "NOT EXISTS (SELECT 1 FROM donations WHERE donations.donor_id = donors.id AND donations.status = 'succeeded')")
	sqlHolds(t, p, m, "volunteers who never worked a shift", "volunteer_shifts.status = 'completed'")
	// Rows not of money, with no verb of their taking place: any one.
	if sql := sqlHolds(t, p, m, "how many volunteers have no shifts", "NOT EXISTS (SELECT 1 FROM volunteer_shifts"); strings.Contains(sql, "completed") {
		t.Errorf("no shifts read as none completed:\n%s", sql)
	}
}
