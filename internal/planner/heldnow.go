package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// heldNow asks which rows are meant where a count with no period asks
// what is held now ("how many subscriptions do we have", "… right now")
// of a table whose status column holds "active" among other states: every
// row on record, or the active ones (found from outside: 2,500
// subscriptions, cancelled and paused ones included, where a manager
// meant those running). A count that says its status, a period, or "in
// all" is left as it is. Each option is the question, said plainly
// either way ("… in all", "… that are active").
func (p *Planner) heldNow(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric || len(pl.Query.Metrics) != 1 || pl.Query.TimeRange != nil || len(pl.Query.Compare) > 0 {
		return pl
	}
	name := pl.Query.Metrics[0]
	mt := p.m.Metric(name)
	if k := pl.adHoc(name); k >= 0 {
		mt = &pl.AdHoc[k]
	}
	if mt == nil || !isCount(mt) || exprStarts(mt.Expr, "COUNT(DISTINCT") || !heldNowSaid(tokenize(question)) {
		return pl
	}
	e := p.entity(mt.Entity)
	if e == nil {
		return pl
	}
	for _, f := range pl.Query.Filters {
		// "how many patients are currently admitted": the state asked of
		// is another's (an admission's), or a status the question names.
		if f.OnRelated() || statusField(f.Field) {
			return pl
		}
	}
	for _, c := range e.Columns {
		if !slices.ContainsFunc(c.Values, func(v string) bool { return strings.EqualFold(v, "active") }) || p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		states := map[string]bool{}
		for _, v := range c.Values {
			states[lower(v)] = true
		}
		if len(states) < 2 || p.saysColumn(mt.Filters, pl.Query.Filters, e.Name, c.Name) {
			continue
		}
		things := lower(display(e.Name))
		asked := strings.TrimRight(strings.TrimSpace(question), "?.! ")
		return clarify(fmt.Sprintf("Every one of the %s on record, whatever its %s, or only those whose %s is active?", things, display(c.Name), display(c.Name)),
			asked+" in all", asked+" that are active")
	}
	return pl
}

// statusField reports whether a field is a status column by its name
// (status, state, stage).
func statusField(field string) bool {
	for _, w := range words(field) {
		switch w {
		case "status", "state", "stage":
			return true
		}
	}
	return false
}

// heldNowSaid reports whether the words ask what is held now: "do we
// have", "does the company have", "currently", "right now", "at the
// moment", "today"; and say nothing of "all" or "ever".
func heldNowSaid(toks []token) bool {
	now := false
	for i, t := range toks {
		switch t.s {
		case "all", "ever", "total", "overall", "altogether":
			return false
		case "currently", "today":
			now = true
		case "now":
			now = now || i > 0 && toks[i-1].s == "right" || i+1 == len(toks)
		case "moment":
			now = now || i > 1 && toks[i-1].s == "the" && toks[i-2].s == "at"
		case "have", "has":
			for k := max(0, i-4); k < i; k++ {
				if toks[k].s == "do" || toks[k].s == "does" {
					now = true
				}
			}
		}
	}
	return now
}

// saysColumn reports whether a metric's filters or a query's filters
// hold entity.column, by its name or a dimension's.
func (p *Planner) saysColumn(predicates []string, filters []semantic.Filter, entity, column string) bool {
	field := lower(entity + "." + column)
	for _, f := range predicates {
		if strings.Contains(lower(f), field) {
			return true
		}
	}
	for _, f := range filters {
		if lower(f.Field) == field || lower(f.Field) == lower(column) {
			return true
		}
		if d := p.m.Dimension(f.Field); d != nil && strings.Contains(lower(d.Expr), field) {
			return true
		}
	}
	return false
}
