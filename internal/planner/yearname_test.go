package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestTableNamedAfterAYear: orders_2019 is a table, not orders in 2019
// (an outside tester got 0 at confidence 1 for "how many orders_2019",
// whose table holds 5,000 rows); "orders 2019" is asked about.
func TestTableNamedAfterAYear(t *testing.T) {
	cols := func() []semantic.Column {
		return []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "status", Type: quarry.TypeText}, {Name: "ordered_at", Type: quarry.TypeDate}}
	}
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: cols()},
		{Name: "orders_2019", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: cols()},
		{Name: "orders_archive", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: cols()},
	}}
	for _, p := range []*Planner{New(m, nil), newPlanner(m, nil, -1)} {
		for _, tc := range []struct {
			q, entity, period string
			kind              Kind
		}{
			{q: "how many orders_2019", kind: KindMetric, entity: "orders_2019"},
			{q: "count of orders_2019 by status", kind: KindMetric, entity: "orders_2019"},
			{q: "how many 2019_orders", kind: KindUnanswered},
			{q: "how many orders 2019", kind: KindClarify},
			{q: "how many orders in 2019", kind: KindMetric, entity: "orders", period: "2019-01-01"},
			{q: "orders in 2019 by status", kind: KindMetric, entity: "orders", period: "2019-01-01"},
			{q: "how many orders_archive in 2019", kind: KindMetric, entity: "orders_archive", period: "2019-01-01"},
			{q: "how many orders_2019 in 2019", kind: KindMetric, entity: "orders_2019", period: "2019-01-01"},
		} {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != tc.kind {
				t.Errorf("%q: %s %s %v, want %s", tc.q, pl.Kind, pl.Reason, pl.Understood, tc.kind)
				continue
			}
			switch pl.Kind {
			case KindClarify:
				if len(pl.Options) != 2 || pl.Options[0] != "how many orders_2019" || pl.Options[1] != "how many orders in 2019" {
					t.Errorf("%q: options %q", tc.q, pl.Options)
				}
			case KindMetric:
				m := pl.Model(m)
				mt := m.Metric(pl.Query.Metrics[0])
				if mt == nil || mt.Entity != tc.entity {
					t.Errorf("%q: metric %+v, want one of %s", tc.q, mt, tc.entity)
				}
				from := ""
				if pl.Query.TimeRange != nil {
					from = pl.Query.TimeRange.From
				}
				if from != tc.period {
					t.Errorf("%q: period from %q, want %q", tc.q, from, tc.period)
				}
			}
		}
	}
}
