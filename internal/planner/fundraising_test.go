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
	sqlHolds(t, p, m, "how many donors have never made a donation", "donors.id NOT IN (SELECT donations.donor_id FROM donations WHERE donations.donor_id IS NOT NULL AND donations.status = 'succeeded')")
	sqlHolds(t, p, m, "volunteers who never worked a shift", "volunteer_shifts.status = 'completed'")
	// Rows not of money, with no verb of their taking place: any one.
	if sql := sqlHolds(t, p, m, "how many volunteers have no shifts", "volunteers.id NOT IN (SELECT volunteer_shifts.volunteer_id FROM volunteer_shifts"); strings.Contains(sql, "completed") {
		t.Errorf("no shifts read as none completed:\n%s", sql)
	}
}

// TestNoneByOwnChain: "customers with no repair orders" are those none of
// whose vehicles has a repair order, not those with no invoice, the table
// that refers to a customer and a repair order both and which a repair
// order may lack (found from outside: 20 for 16, at 1.00).
func TestNoneByOwnChain(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "customer_id", Columns: []semantic.Column{id("customer_id")}},
			{Name: "vehicles", PrimaryKey: "vehicle_id", Columns: []semantic.Column{id("vehicle_id"), id("customer_id")}},
			{Name: "repair_orders", PrimaryKey: "repair_order_id", Columns: []semantic.Column{id("repair_order_id"), id("vehicle_id")}},
			{Name: "invoices", PrimaryKey: "invoice_id", Columns: []semantic.Column{id("invoice_id"), id("customer_id"), id("repair_order_id")}},
		},
		Relationships: []semantic.Relationship{
			{From: "vehicles", FromColumn: "customer_id", To: "customers", ToColumn: "customer_id", Cardinality: semantic.ManyToOne},
			{From: "repair_orders", FromColumn: "vehicle_id", To: "vehicles", ToColumn: "vehicle_id", Cardinality: semantic.ManyToOne},
			{From: "invoices", FromColumn: "customer_id", To: "customers", ToColumn: "customer_id", Cardinality: semantic.ManyToOne},
			{From: "invoices", FromColumn: "repair_order_id", To: "repair_orders", ToColumn: "repair_order_id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	sql := sqlHolds(t, p, m, "how many customers have no repair orders", " NOT IN (SELECT vehicles.customer_id FROM repair_orders JOIN vehicles")
	if strings.Contains(sql, "FROM invoices") {
		t.Errorf("through the invoices:\n%s", sql)
	}
}

// TestUsedReadPast: "total parts used by category" is refused where the
// parts used are rows of job_parts, not the parts in the catalogue (found
// from outside: the catalogue counted, 4 for 3,834, at 1.00); "parts by
// category" is answered.
func TestUsedReadPast(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "parts", PrimaryKey: "part_id", Columns: []semantic.Column{id("part_id"), {Name: "category", Type: quarry.TypeText, Values: []string{"brakes", "engine"}}}},
			{Name: "job_parts", PrimaryKey: "job_part_id", Columns: []semantic.Column{id("job_part_id"), id("part_id"), id("quantity")}},
		},
		Relationships: []semantic.Relationship{{From: "job_parts", FromColumn: "part_id", To: "parts", ToColumn: "part_id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	if pl := p.Plan("total parts used by category", asOf); pl.Kind == KindMetric || !strings.Contains(pl.Reason, "job_parts") {
		t.Errorf("parts used: %s %q", pl.Kind, pl.Reason)
	}
	sqlHolds(t, p, m, "parts by category", "COUNT(parts.part_id)")
}
