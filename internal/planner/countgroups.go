package planner

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// countGroups reads "how many customers had revenue over 1000 last year"
// and "how many products sold more than 100 units": a count of one
// table's rows, shown, beside a measure the question only puts a
// condition on, with nothing to group by. The measure is grouped by the
// table's key, the groups that pass are kept, and they are counted
// (semantic.Query.CountGroups). It applies where the count is a plain
// count of the table's rows and every condition on a measure is on that
// one measure, and each of the measure's rows belongs to one row of the
// table; the zero_groups check refuses a condition that a row with
// none of the measure's rows would pass ("revenue under 100"). It reports
// whether it rewrote the query.
func (b *builder) countGroups() bool {
	q := &b.q
	if len(q.Dimensions) > 0 || len(q.Metrics) != 2 || len(q.Compare) > 0 || q.Share || q.Limit > 0 || len(q.Order) > 0 || q.Rows != nil || q.Percentile != 0 {
		return false
	}
	var count, m string
	for _, x := range q.Metrics {
		switch {
		case b.shown[x] && count == "":
			count = x
		case !b.shown[x] && m == "":
			m = x
		default:
			return false
		}
	}
	if count == "" || m == "" {
		return false
	}
	ent := b.p.entity(b.countedEntity(count))
	if ent == nil || ent.PrimaryKey == "" {
		return false
	}
	if mt := b.p.m.Metric(count); mt != nil && len(mt.Filters) > 0 {
		return false // a count of some of the rows ("active customers")
	}
	// Each of the measure's rows belongs to one row of the table counted
	// (order lines to one customer); reached the other way (employees
	// through the tickets they handled), rows would be shared between
	// groups and the groups are not the table's.
	if me := b.p.metricEntity(m, b.adhoc); me == "" || !strings.EqualFold(me, ent.Name) && !b.p.upOf(lower(me))[lower(ent.Name)] {
		return false
	}
	conds := 0
	for _, f := range q.Filters {
		if !b.isMetricField(f.Field) {
			continue
		}
		if f.Field != m || f.OnRelated() {
			return false
		}
		conds++
	}
	if conds == 0 {
		return false
	}
	q.Metrics = []string{m}
	q.Dimensions = []semantic.DimRef{{Name: ent.Name + "." + ent.PrimaryKey}}
	q.CountGroups = count
	b.und("count of %s whose %s passes the condition", ent.Name, strings.ReplaceAll(m, "_", " "))
	return true
}
