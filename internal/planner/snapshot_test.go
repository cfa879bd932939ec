package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestLatestSnapshot: a total of a level recorded on snapshot dates is
// the latest snapshot's, in the period where one is said; by periods it
// is refused (found from outside: "total on hand this year" added two
// snapshots). A total of another table's amounts is left alone.
func TestLatestSnapshot(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "inventory_snapshots", PrimaryKey: "id", TimeColumn: "snapshot_date", Columns: []semantic.Column{id("id"), id("store_id"), id("on_hand"),
			{Name: "snapshot_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		{Name: "sales", PrimaryKey: "id", TimeColumn: "sold_at", Columns: []semantic.Column{id("id"), id("quantity"),
			{Name: "sold_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
	}}
	p := New(m, nil)
	latest := func(pl *Plan) bool {
		for _, f := range pl.Query.Filters {
			if f.Field == "inventory_snapshots.snapshot_date" && f.Op == semantic.OpEq && f.Against == "max" {
				return true
			}
		}
		return false
	}
	for _, q := range []string{"total on hand", "total on hand this year"} {
		if pl := p.Plan(q, asOf); pl.Query == nil || !latest(pl) {
			t.Errorf("%q: %s %q %+v; want the latest snapshot", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	if pl := p.Plan("total on hand by month", asOf); pl.Query != nil {
		t.Errorf("by month: %+v; want refused", pl.Query)
	}
	if pl := p.Plan("total quantity of sales this year", asOf); pl.Query == nil || len(pl.Query.Filters) != 0 {
		t.Errorf("sales: %s %q %+v; want a plain total", pl.Kind, pl.Reason, pl.Query)
	}
}
