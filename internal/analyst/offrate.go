package analyst

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
)

// calledOffRate leaves out, of a rate of a state among a table's rows
// ("no-show rate by teacher": the share of lessons that were no-shows),
// the rows called off, as a count of those rows leaves them out: a
// cancelled lesson was never one a student could miss (found from
// outside, on a music school: cancelled lessons in each teacher's
// denominator). Not where the rate is of a state called off itself
// ("cancellation rate"), nor where the question names a status; only on
// rows dated by the day their thing takes place (tookPlaceOn).
func calledOffRate(m *semantic.Model, pl *planner.Plan) *planner.Plan {
	q := pl.Query
	if q == nil || q.Rows != nil || len(q.Metrics) != 1 || q.Share {
		return pl
	}
	mt := m.Metric(q.Metrics[0])
	if mt == nil || mt.Derived != "" {
		return pl
	}
	x := strings.ToUpper(strings.Join(strings.Fields(mt.Expr), " "))
	if !strings.HasPrefix(x, "SUM(CASE WHEN ") || !strings.Contains(x, "/ NULLIF(COUNT(") {
		return pl
	}
	e := m.Entity(mt.Entity)
	if e == nil || e.TimeColumn == "" || !tookPlaceOn(e, e.Name+"."+e.TimeColumn) {
		return pl
	}
	f, note, ok := calledOff(m, e, q, false)
	if !ok {
		return pl
	}
	for _, v := range f.Values {
		if strings.Contains(strings.ToLower(mt.Expr), "'"+strings.ToLower(fmt.Sprint(v))+"'") {
			return pl // the rate of a state called off: "cancellation rate"
		}
	}
	c := *q
	c.Filters = append(slices.Clone(q.Filters), f)
	o := *pl
	o.Query = &c
	o.Notes = append(slices.Clone(pl.Notes), strings.Replace(note, "they will not happen", fmt.Sprintf("they are none of the %s the rate is of", e.Name), 1))
	return &o
}
