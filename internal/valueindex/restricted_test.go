package valueindex

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestRestrictedNeverIndexed: a restricted column's values never reach
// the index, however the policy entry names its table: by entity, by the
// table's own name holding a dot (written quoted), or schema-qualified.
func TestRestrictedNeverIndexed(t *testing.T) {
	text := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeText} }
	for _, entry := range []string{
		"sales_orders.secret",
		`"sales.orders".secret`,
		"sales.orders.secret",
	} {
		m := &semantic.Model{
			Entities: []semantic.Entity{
				{Name: "sales_orders", Table: "sales.orders", Columns: []semantic.Column{text("note"), text("secret")}},
				{Name: "crm_people", Schema: "crm", Table: "people", Columns: []semantic.Column{text("email"), text("city")}},
			},
			Restricted: []string{entry, "crm.people.email"},
		}
		for _, c := range indexedColumns(m) {
			if c.column == "secret" || c.column == "email" {
				t.Errorf("%s: %s.%s is indexed", entry, c.entity, c.column)
			}
		}
	}
}
