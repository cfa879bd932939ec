package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
)

// seriesAhead handles a series of periods, asked with no period of its
// own, on a date that holds days after today: appointments booked ahead,
// visits scheduled to the end of the month.
//
// "Which month had the most visits" ranked December, with 6 visits made
// and 49 booked, above every whole month, and warned that December was
// short, not that it held the future (found from outside, at 0.85). A
// ranking now runs to the start of the period that holds the as-of day:
// whole periods that are over; a series that is not ranked, to the as-of
// day, where the partial_period check says its last period is not over.
// A note says what was left out; a question that names a period ahead
// ("visits by month next quarter") is not read here.
//
// The control query counts the rows dated after today; where it cannot
// run, or finds none, pl is returned as it is.
func (a *Analyst) seriesAhead(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time) *planner.Plan {
	q := pl.Query
	if q == nil || q.TimeRange != nil || len(q.Compare) > 0 || a.Conn == nil {
		return pl
	}
	var g semantic.Grain
	field := ""
	for _, d := range q.Dimensions {
		if d.Grain == "" || d.Grain == semantic.GrainDay || d.Grain.Cyclic() {
			continue
		}
		if field != "" {
			return pl // two series: not read here
		}
		g, field = d.Grain, groupedDate(m, d.Name)
		if field == "" && strings.EqualFold(d.Name, string(d.Grain)) {
			field = rangeDate(m, q) // "by month": of the measure's date
		}
	}
	if field == "" {
		return pl
	}
	if n, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", a.tomorrow()); !ok || n <= 0 {
		return pl
	}
	c := *q
	o := *pl
	o.Query = &c
	next := asOf.AddDate(0, 0, 1)
	if start := g.Start(next); ranked(m, q) {
		c.TimeRange = &semantic.TimeRange{Field: field, To: start.Format("2006-01-02")}
		o.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("the %ss from %s on are left out of the ranking: %s holds dates after today (set ahead), and the %s that holds today is not over", g.Words(), start.Format("2006-01-02"), field, g.Words()))
		return &o
	}
	c.TimeRange = &semantic.TimeRange{Field: field, To: next.Format("2006-01-02")}
	o.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("the series ends at %s: %s holds dates after it (set ahead), which have not happened yet; name a period to take them in", asOf.Format("2006-01-02"), field))
	return &o
}

// groupedDate is the column a query's time dimension groups by: a column
// named as table.column, or a dimension of the model that is one; "" for
// any other expression.
func groupedDate(m *semantic.Model, name string) string {
	if d := m.Dimension(name); d != nil {
		name = strings.TrimSpace(d.Expr)
	}
	ent, col, ok := strings.Cut(name, ".")
	if e := m.Entity(ent); !ok || e == nil || e.Column(col) == nil {
		return ""
	}
	return name
}

// ranked reports whether a query orders its groups by a measure: a
// ranking, which only whole periods may enter.
func ranked(m *semantic.Model, q *semantic.Query) bool {
	for _, o := range q.Order {
		if m.Metric(o.Field) != nil || slices.Contains(q.Metrics, o.Field) {
			return true
		}
	}
	return false
}
