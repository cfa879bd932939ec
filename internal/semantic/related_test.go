package semantic

import "testing"

// TestRelated: the rows of one table reach another's through the one
// chain of references, the shortest where several lead there; two of
// the shortest length are refused.
func TestRelated(t *testing.T) {
	ent := func(name string, cols ...string) Entity {
		e := Entity{Name: name, Table: name, PrimaryKey: "id", Columns: []Column{{Name: "id", Type: "int"}}}
		for _, c := range cols {
			e.Columns = append(e.Columns, Column{Name: c, Type: "int"})
		}
		return e
	}
	ref := func(from, col, to string) Relationship {
		return Relationship{From: from, FromColumn: col, To: to, ToColumn: "id", Cardinality: ManyToOne}
	}
	m := &Model{
		Entities: []Entity{ent("accounts"), ent("subscriptions", "account_id"), ent("invoices", "sub_id", "account_id"), ent("payments", "invoice_id"),
			ent("customers"), ent("orders", "customer_id"), ent("order_items", "order_id", "product_id"), ent("products"),
			ent("stores"), ent("visits", "store_id", "customer_id"), ent("returns", "store_id", "customer_id"),
			ent("owners"), ent("pets", "owner_id"), ent("appointments", "pet_id"), ent("bills", "appointment_id", "owner_id")},
		Relationships: []Relationship{ref("subscriptions", "account_id", "accounts"), ref("invoices", "sub_id", "subscriptions"), ref("invoices", "account_id", "accounts"),
			ref("payments", "invoice_id", "invoices"), ref("orders", "customer_id", "customers"), ref("order_items", "order_id", "orders"), ref("order_items", "product_id", "products"),
			ref("visits", "store_id", "stores"), ref("visits", "customer_id", "customers"), ref("returns", "store_id", "stores"), ref("returns", "customer_id", "customers"),
			ref("pets", "owner_id", "owners"), ref("appointments", "pet_id", "pets"), ref("bills", "appointment_id", "appointments"), ref("bills", "owner_id", "owners")},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		outer, related, link string // link "": refused
		steps                int
	}{
		{"accounts", "payments", "payments", 2},     // through the invoice, not its subscription
		{"customers", "products", "order_items", 3}, // order lines to both
		{"customers", "order_items", "order_items", 2},
		{"stores", "customers", "", 0}, // visits and returns both link them
		// An appointment's owner is its pet's, not the one its bill
		// names (found from outside: owners with no bill left out).
		{"owners", "appointments", "appointments", 2},
	} {
		p, ok := m.Related(tt.outer, tt.related)
		if ok != (tt.link != "") || ok && (p.Link != tt.link || p.steps() != tt.steps) {
			t.Errorf("Related(%s, %s) = %+v, %v; want link %q in %d steps", tt.outer, tt.related, p, ok, tt.link, tt.steps)
		}
	}
}
