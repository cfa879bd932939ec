package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestFilterKnownElsewhere: a value filtered on a column that does not
// list it, but another column does ("orders with discount code web"),
// is named with the column it is known in. Adversarial: a value known
// nowhere, and one known in the column itself, name no other column.
func TestFilterKnownElsewhere(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "orders", PrimaryKey: "id", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt},
		{Name: "channel", Type: quarry.TypeText, Values: []string{"web", "store"}},
		{Name: "discount_code", Type: quarry.TypeText, Values: []string{"WELCOME10", "VIP20"}},
	}}}, Metrics: []semantic.Metric{{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"}}}
	for _, tt := range []struct {
		value, want string
	}{
		{"web", `"web" is not a known value of orders.discount_code (it is one of orders.channel)`},
		{"Germny", `"Germny" is not a known value of orders.discount_code`},
		{"VIP20", ""},
	} {
		q := &semantic.Query{Metrics: []string{"orders"}, Filters: []semantic.Filter{{Field: "orders.discount_code", Op: semantic.OpEq, Values: []any{tt.value}}}}
		in := InputFor(m, q, &semantic.Compiled{}, nil, 0, false)
		c, ok := checkFilters(in)
		if !ok {
			t.Fatalf("%s: no filter check", tt.value)
		}
		if tt.want == "" {
			if c.Status != Pass {
				t.Errorf("%s: %+v", tt.value, c)
			}
			continue
		}
		if c.Detail != tt.want || strings.Contains(tt.value, "Germny") && strings.Contains(c.Detail, "one of") {
			t.Errorf("%s: %q, want %q", tt.value, c.Detail, tt.want)
		}
	}
}
