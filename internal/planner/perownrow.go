package planner

import (
	"fmt"
	"strings"
)

// perOwnRow drops a grouping by the very rows an average is taken over
// where the question asks the average "per" one of them ("average
// overtime hours per payslip", "average freight cost per shipment by
// carrier"): the average of a column of a table is already one per row,
// and a figure for each row answers another question (found from outside:
// read as each payslip's figure, and refused).
func (p *Planner) perOwnRow(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric || len(pl.Query.Metrics) != 1 || len(pl.Query.Dimensions) == 0 || pl.Query.Limit > 0 {
		return pl
	}
	k := pl.adHoc(pl.Query.Metrics[0])
	if k < 0 || !exprStarts(pl.AdHoc[k].Expr, "AVG(") {
		return pl
	}
	e := p.entity(pl.AdHoc[k].Entity)
	if e == nil {
		return pl
	}
	text := " " + strings.Join(words(question), " ") + " "
	one := singular(lower(display(e.Name)))
	if ws := words(e.Name); !strings.Contains(text, " per "+one+" ") && len(ws) > 1 {
		// "per ticket" of maint_tickets: the grouping dropped below is
		// by those rows, which the word named (found from outside: each
		// ticket's cost, 4,915 rows, for "average parts cost per
		// ticket").
		one = singular(lower(ws[len(ws)-1]))
	}
	if !strings.Contains(text, " per "+one+" ") {
		return pl
	}
	for _, w := range []string{" by ", " each ", " every "} {
		if strings.Contains(text, w+one+" ") || strings.Contains(text, w+lower(display(e.Name))+" ") || strings.Contains(text, w+plural(one)+" ") {
			return pl
		}
	}
	q := *pl.Query
	q.Dimensions = nil
	dropped := false
	for _, d := range pl.Query.Dimensions {
		if ent, c, ok := strings.Cut(d.Name, "."); ok && strings.EqualFold(ent, e.Name) && d.Grain == "" && (strings.EqualFold(c, e.PrimaryKey) || e.Label != "" && strings.EqualFold(c, e.Label)) {
			dropped = true
			continue
		}
		q.Dimensions = append(q.Dimensions, d)
	}
	if !dropped {
		return pl
	}
	for _, h := range q.Hidden {
		if ent, _, ok := strings.Cut(h, "."); ok && strings.EqualFold(ent, e.Name) {
			return pl // a hidden key of those rows: another shape
		}
	}
	again := *pl
	again.Query = &q
	again.Understood = nil
	for _, u := range pl.Understood {
		if !strings.HasPrefix(u, "group by "+e.Name+", by its") {
			again.Understood = append(again.Understood, u)
		}
	}
	again.Notes = append([]string(nil), pl.Notes...)
	again.readAs("", fmt.Sprintf("\"per %s\" read as the average over each of %s, not a figure for each", one, display(e.Name)))
	return &again
}
