package planner

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// rankings keeps the rows with no value of a column grouped by out of a
// ranking cut by a limit, whatever the words that asked for it: "which
// discount code has the most orders" ranked the orders with no code
// first. Those rows are no group to rank, so a ranking of a column gets
// is_not_null on it (or, for a table grouped by its key and label, on the
// key), as "the most common" already does. A breakdown with no limit keeps
// its empty group, as a row of its own. A list sorted and cut ("the
// youngest singer") leaves out the rows with no value of its sort column.
//
// A tie at the limit is not widened here: the answer keeps the rows the
// limit asks for, and the ties check names every row that ties the last
// one (docs/checks.md, `ties`), which the answer states.
func (p *Planner) rankings(pl *Plan) {
	if pl == nil || pl.Query == nil || (pl.Kind != KindMetric && pl.Kind != KindRows) {
		return
	}
	q := pl.Query
	if q.Rows == nil && len(q.Compare) == 0 && (q.Limit <= 0 || len(q.Order) == 0) && p.onMeasure(pl) {
		// "industries with more than 100 accounts": the rows with no
		// industry are no industry to list (found from outside: null
		// listed among them at 1.00).
		for _, f := range p.nullGroups(q) {
			if !filtered(q, f) {
				q.Filters = append(q.Filters, semantic.Filter{Field: f, Op: semantic.OpNotNull})
				pl.Understood = append(pl.Understood, fmt.Sprintf("filter %s is set (the rows with no %s are no group to list)", f, display(fieldColumn(f))))
			}
		}
		return
	}
	if q.Limit <= 0 || len(q.Order) == 0 || len(q.Compare) > 0 {
		return
	}
	if q.Rows == nil && !p.byDimension(q) {
		for _, f := range p.nullGroups(q) {
			q.Filters = append(q.Filters, semantic.Filter{Field: f, Op: semantic.OpNotNull})
			pl.Understood = append(pl.Understood, fmt.Sprintf("filter %s is set (the rows with no %s are no group to rank)", f, display(fieldColumn(f))))
		}
		// "the priority with the lowest average satisfaction yesterday":
		// a group whose average has no value (no scored ticket) is at no
		// end of the ranking; SQLite sorts it first, Postgres first when
		// descending. A count has a value in every group.
		mt := p.model(pl).Metric(q.Order[0].Field)
		if mt != nil && !mt.Additive() && !filtered(q, mt.Name) {
			q.Filters = append(q.Filters, semantic.Filter{Field: mt.Name, Op: semantic.OpNotNull})
			pl.Understood = append(pl.Understood, fmt.Sprintf("filter %s is set (a group with no %s is at no end of the ranking)", mt.Name, display(mt.Name)))
		}
	}
	if q.Rows != nil {
		// "the youngest singer", "the cheapest product": a row with no
		// value is not the one at an end (SQLite sorts it first, Postgres
		// last, so the answer would depend on the engine).
		f := q.Order[0].Field
		if !filtered(q, f) {
			q.Filters = append(q.Filters, semantic.Filter{Field: f, Op: semantic.OpNotNull})
			pl.Understood = append(pl.Understood, fmt.Sprintf("filter %s is set (a row with no %s is at no end of the list)", f, display(fieldColumn(f))))
		}
	}
}

// onMeasure reports whether the plan keeps its groups by a condition on
// a measure of each (HAVING: "with more than 100 accounts").
func (p *Planner) onMeasure(pl *Plan) bool {
	m := p.model(pl)
	for _, f := range pl.Query.Filters {
		if m.Metric(f.Field) != nil && !f.OnRelated() {
			return true
		}
	}
	return false
}

// byDimension reports whether the ranking sorts by one of its groupings
// ("the latest month"), not by a measure.
func (p *Planner) byDimension(q *semantic.Query) bool {
	for _, d := range q.Dimensions {
		if strings.EqualFold(q.Order[0].Field, d.Name) {
			return true
		}
	}
	return false
}

// nullGroups are the fields of a ranking's groupings whose missing value
// would be ranked as a group of its own: a column or a dimension over one
// (not a period, a date nor a grain of one), or, for a table grouped by its
// key and label, its key alone (a row with no name is still a row).
// A grouping the query already filters is left as it is.
func (p *Planner) nullGroups(q *semantic.Query) []string {
	keyed := map[string]bool{}
	for _, d := range q.Dimensions {
		f, err := p.m.ResolveField(d.Name)
		if err == nil && f.Kind == semantic.FieldColumn && strings.EqualFold(f.Entity.PrimaryKey, f.Column.Name) {
			keyed[strings.ToLower(f.Entity.Name)] = true
		}
	}
	var out []string
	for _, d := range q.Dimensions {
		if d.Grain != "" || filtered(q, d.Name) {
			continue
		}
		f, err := p.m.ResolveField(d.Name)
		if err != nil {
			continue
		}
		switch f.Kind {
		case semantic.FieldColumn:
			if f.Column.Temporal() {
				continue
			}
			if keyed[strings.ToLower(f.Entity.Name)] && !strings.EqualFold(f.Entity.PrimaryKey, f.Column.Name) {
				continue
			}
		case semantic.FieldDimension:
			if len(f.Dimension.Grains) > 0 || f.Dimension.Type == "time" || f.Dimension.Type == "date" {
				continue
			}
		default:
			continue
		}
		out = append(out, d.Name)
	}
	return out
}

// filtered reports whether the query filters the field already.
func filtered(q *semantic.Query, field string) bool {
	for _, f := range q.Filters {
		if strings.EqualFold(f.Field, field) {
			return true
		}
	}
	return false
}

// fieldColumn is the column part of "entity.column", or the field.
func fieldColumn(f string) string {
	if _, c, ok := strings.Cut(f, "."); ok {
		return c
	}
	return f
}
