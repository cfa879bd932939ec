package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestRevenueOfANamedTable: "ticket revenue" with no measure of revenue
// is asked back with the tickets' one amount in the place of both words,
// and "total ticket revenue" too, where it was refused (found from
// outside: "what was our ticket total price cents of tickets").
func TestRevenueOfANamedTable(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "tickets", PrimaryKey: "id", TimeColumn: "sold_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "sold_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "price_cents", Type: quarry.TypeInt, Unit: "cents", Synonyms: []string{"price"}}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for _, q := range []string{"what was our ticket revenue in 2025", "total ticket revenue last month"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindClarify || len(pl.Options) == 0 {
			t.Errorf("%q: %s %s %v", q, pl.Kind, pl.Reason, pl.Options)
			continue
		}
		for _, o := range pl.Options {
			if strings.Contains(o, "ticket total") || strings.Contains(o, "total total") || !strings.Contains(o, "of tickets") {
				t.Errorf("%q: option %q", q, o)
			}
		}
	}
}
