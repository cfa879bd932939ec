package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// latestSnapshot keeps a total of a level that a table records on
// snapshot dates (inventory_snapshots.on_hand by snapshot_date) to the
// latest snapshot in the query's period: stock added up over its dates
// is no stock (found from outside: "total on hand this year" added two
// snapshots, 12,126 for 6,765 on the latest). By periods or compared
// periods, each would need its own latest snapshot, which quarry does
// not write yet: refused. The reading says which snapshot.
func (p *Planner) latestSnapshot(pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric {
		return pl
	}
	m := pl.over(p.m)
	for _, name := range pl.Query.Metrics {
		mt := m.Metric(name)
		if mt == nil || mt.Derived != "" || !exprStarts(mt.Expr, "SUM(") {
			continue
		}
		e := m.Entity(mt.Entity)
		if e == nil {
			continue
		}
		date := m.MetricTime(mt)
		ent, col, ok := strings.Cut(date, ".")
		if !ok || !strings.EqualFold(ent, e.Name) || !snapshotDated(e.Name, col) {
			continue
		}
		q := *pl.Query
		if len(q.Compare) > 0 || slices.ContainsFunc(q.Dimensions, func(d semantic.DimRef) bool { return d.Grain != "" }) {
			return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("%s is a level %s records on each %s, which quarry does not add up across dates, and it cannot yet take the latest snapshot of each period; ask for one period (“… this month”) or one date", display(name), display(e.Name), display(col))}
		}
		if readsColumn(m, &q, []*semantic.Metric{mt}, date, col) && q.TimeRange == nil {
			return pl // a snapshot the question names ("on hand on 2026-03-31")
		}
		q.Filters = append(slices.Clone(q.Filters), semantic.Filter{Field: date, Op: semantic.OpEq, Against: "max"})
		pl.Query = &q
		pl.Understood = append(pl.Understood, fmt.Sprintf("the latest %s only: %s is a level, not added up across dates", date, display(name)))
		pl.Notes = append(pl.Notes, fmt.Sprintf("%s on the latest %s (of the period), as a level is not added up across snapshots", display(name), display(col)))
		return pl
	}
	return pl
}

// snapshotDated reports whether a table's date says its rows are
// snapshots of a level taken on that date: the date or the table is
// named for a snapshot (snapshot_date, inventory_snapshots).
func snapshotDated(entity, column string) bool {
	for _, w := range append(semantic.NameWords(entity), semantic.NameWords(column)...) {
		if w == "snapshot" || w == "snapshots" {
			return true
		}
	}
	return false
}
