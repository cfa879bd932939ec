package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// inForce reads a status that says rows are in force ("active contracts",
// "customers with an active subscription") with the rows' own dates as
// well: of the rows so marked, those whose end (end_date, valid_until) is
// before the as-of day have ended, and those whose start (start_date,
// valid_from) is after it have not begun, whatever the status says (found
// from outside, three testers: "how many active contracts" 136 where 10
// had ended, and "how many current contracts", which reads the dates, 126;
// "active promo codes" 12 for 4). The reading says which dates were read.
// Rows with no such date keep the status alone.
func (p *Planner) inForce(pl *Plan, asOf time.Time) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows || len(pl.Query.Compare) > 0 {
		return pl
	}
	m := pl.over(p.m)
	day := asOf.Format("2006-01-02")
	q := *pl.Query
	q.Filters = slices.Clone(q.Filters)
	changed := false
	// dated returns fs with the date conditions of each in-force status
	// among them added.
	dated := func(fs []semantic.Filter) []semantic.Filter {
		var add []semantic.Filter
		for _, f := range fs {
			e := inForceStatus(m, f)
			if e == nil {
				continue
			}
			for _, c := range e.Columns {
				if !c.Temporal() || m.IsRestricted(e.Name, c.Name) {
					continue
				}
				field := e.Name + "." + c.Name
				if slices.ContainsFunc(fs, func(g semantic.Filter) bool { return strings.EqualFold(g.Field, field) }) {
					continue // a date the question reads already
				}
				var g semantic.Filter
				switch {
				case semantic.ValidFrom(c.Name) || c.TimeRole == semantic.TimeRoleStart && !strings.EqualFold(c.Name, e.TimeColumn):
					g = semantic.Filter{Field: field, Op: semantic.OpLe, Values: []any{day}, OrNull: true}
					pl.Understood = append(pl.Understood, fmt.Sprintf("%s %s read with the dates: %s not after %s", f.Field, valuesWords(f.Values), field, day))
				case c.TimeRole == semantic.TimeRoleEnd || c.TimeRole == "" && semantic.RunsOut(c.Name) && !semantic.OthersEnd(e.Name, c.Name):
					g = semantic.Filter{Field: field, Op: semantic.OpGe, Values: []any{day}, OrNull: true}
					pl.Understood = append(pl.Understood, fmt.Sprintf("%s %s read with the dates: %s empty or not before %s", f.Field, valuesWords(f.Values), field, day))
				default:
					continue
				}
				add = append(add, g)
			}
		}
		if len(add) == 0 {
			return fs
		}
		changed = true
		return append(slices.Clone(fs), add...)
	}
	q.Filters = dated(q.Filters)
	for i, f := range q.Filters {
		if f.OnRelated() && len(f.Where) > 0 {
			q.Filters[i].Where = dated(f.Where)
		}
	}
	if changed {
		if _, err := semantic.Compile(m, q, "sqlite"); err == nil {
			pl.Query = &q
			pl.Notes = append(pl.Notes, fmt.Sprintf("rows marked in force whose own dates say they had ended, or had not begun, by %s are left out", day))
		}
	}
	p.ownerGone(pl, m, asOf)
	return pl
}

// ownerGone leaves out of the rows a plan keeps in force ("active
// subscriptions") those whose owner was deleted by the day (an account
// deleted in May has no active subscription in June), where the owner
// marks its deletion by a date: what was in force is held by a row that
// exists (found from outside: 74 active subscriptions for 72, two of
// deleted accounts). Dated events of a deleted owner still happened, and
// are kept elsewhere; here the state is of the day.
func (p *Planner) ownerGone(pl *Plan, m *semantic.Model, asOf time.Time) {
	q := *pl.Query
	q.Filters = slices.Clone(q.Filters)
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	var said []string
	for _, f := range pl.Query.Filters {
		e := inForceStatus(m, f)
		if e == nil {
			continue
		}
		for _, r := range m.Relationships {
			if !strings.EqualFold(r.From, e.Name) || r.Cardinality != semantic.ManyToOne && r.Cardinality != semantic.OneToOne || !p.owns(r.To, e.Name) {
				continue
			}
			owner := m.Entity(r.To)
			if owner == nil || owner.Role != nil {
				continue
			}
			for _, c := range owner.Columns {
				field := owner.Name + "." + c.Name
				if !semantic.DeletionDate(c) || m.IsRestricted(owner.Name, c.Name) || slices.ContainsFunc(q.Filters, func(g semantic.Filter) bool { return strings.EqualFold(g.Field, field) }) {
					continue
				}
				q.Filters = append(q.Filters, semantic.Filter{Field: field, Op: semantic.OpGe, Values: []any{next}, OrNull: true})
				said = append(said, fmt.Sprintf("%s %s read of %s not deleted by %s (%s)", f.Field, valuesWords(f.Values), display(owner.Name), asOf.Format("2006-01-02"), field))
			}
		}
	}
	if len(said) == 0 {
		return
	}
	if _, err := semantic.Compile(m, q, "sqlite"); err != nil {
		return
	}
	pl.Query = &q
	pl.Understood = append(pl.Understood, said...)
	pl.Notes = append(pl.Notes, fmt.Sprintf("rows in force of owners deleted by %s are left out", asOf.Format("2006-01-02")))
}

// inForceStatus is the table of a filter that keeps rows to statuses each
// saying a row is in force ('active', 'current'), nil otherwise. Narrower
// than semantic.InForce on purpose: 'enrolled', 'open' and 'published'
// name what a row is, which its end date does not undo (found replaying
// an outside tester's questions: "students with enrolled enrollments"
// after the term's end read as 0 for the 119 the tester counted right).
func inForceStatus(m *semantic.Model, f semantic.Filter) *semantic.Entity {
	if f.Op != semantic.OpEq && f.Op != semantic.OpIn || len(f.Values) == 0 {
		return nil
	}
	fd, ok := m.ColumnField(f.Field)
	if !ok || !semantic.StatusName(fd.Column.Name) {
		return nil
	}
	for _, v := range f.Values {
		if s, ok := v.(string); !ok || !inForceWord(s) {
			return nil
		}
	}
	return fd.Entity
}

// inForceWord reports whether a status value says a row is in force.
func inForceWord(v string) bool {
	switch strings.ReplaceAll(semantic.Fold(v), "_", " ") {
	case "active", "current", "ongoing", "in force", "inforce", "valid", "live", "running", "effective":
		return true
	}
	return false
}

// valuesWords are a filter's values as a reading says them: 'active'.
func valuesWords(vs []any) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprintf("'%v'", v)
	}
	return strings.Join(out, " or ")
}

// inForceOf is the one value of e's status columns that says a row is
// in force ('active'), as a question writes it, and its column; "" where
// there is none, or several.
func inForceOf(e *semantic.Entity) (value, column string) {
	n := 0
	for _, c := range e.Columns {
		if !semantic.StatusName(c.Name) {
			continue
		}
		for _, v := range c.Values {
			if inForceWord(v) {
				value, column, n = v, c.Name, n+1
			}
		}
	}
	if n != 1 {
		return "", ""
	}
	return value, column
}
