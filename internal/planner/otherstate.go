package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// otherStatus refuses a state of another table said of the rows measured
// where those rows have a state of their own that does not hold it and
// the question does not name the other table: "how many refunds are
// pending" counted the refunds whose ticket is pending, 55, where 127
// refunds wait on a decision (status 'requested'), at 1.00 (found from
// outside). "Refunds of pending tickets" names the tickets, and is read
// so.
func (p *Planner) otherStatus(pl *Plan, items []item) *Plan {
	if pl == nil || pl.Query == nil {
		return nil
	}
	m := pl.over(p.m)
	subject := ""
	if pl.Query.Rows != nil {
		subject = pl.Query.Rows.Entity
	}
	for _, name := range pl.Query.Metrics {
		if mt := m.Metric(name); mt != nil && subject == "" {
			subject = mt.Entity
		}
	}
	own := m.Entity(subject)
	if own == nil {
		return nil
	}
	var ownState *semantic.Column
	for i, c := range own.Columns {
		if semantic.StatusName(c.Name) && len(c.Values) > 0 && !m.IsRestricted(own.Name, c.Name) {
			ownState = &own.Columns[i]
			break
		}
	}
	if ownState == nil {
		return nil
	}
	for _, f := range pl.Query.Filters {
		if f.Op != semantic.OpEq && f.Op != semantic.OpIn || len(f.Values) == 0 {
			continue
		}
		fd, ok := m.ColumnField(f.Field)
		if !ok || strings.EqualFold(fd.Entity.Name, own.Name) || !semantic.StatusName(fd.Column.Name) {
			continue
		}
		v, _ := f.Values[0].(string)
		if v == "" || slices.ContainsFunc(ownState.Values, func(x string) bool { return strings.EqualFold(x, v) }) {
			continue
		}
		if namedEntity(items, fd.Entity.Name) {
			continue
		}
		return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("%q is a %s of %s, not of %s, whose %s is %s; ask for %s of %s %s, or for %s with one of their own states",
			v, display(fd.Column.Name), display(fd.Entity.Name), display(own.Name), display(ownState.Name), orList(quotedAll(ownState.Values)),
			display(own.Name), v, display(fd.Entity.Name), display(own.Name))}
	}
	return nil
}

// namedEntity reports whether an item of the question names entity.
func namedEntity(items []item, entity string) bool {
	for _, it := range items {
		for _, s := range it.senses {
			if s.kind == sEntity && strings.EqualFold(s.name, entity) {
				return true
			}
		}
	}
	return false
}

// quotedAll is each value in single quotes, as the reading writes them.
func quotedAll(values []string) []string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "'" + v + "'"
	}
	return q
}
