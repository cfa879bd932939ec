package verify

import (
	"fmt"
	"slices"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// CutPeriods says why a query cannot rank its periods as asked, or "":
// a ranking of weeks, months or quarters by a measure over a time range
// that starts or ends inside one of them ("which week had the fewest
// orders in 2025": the week of 2024-12-30 holds five days of 2025) would
// compare part of a period with whole ones, and the part wins the
// lowest place. The range is the query's own; the data's first and last
// days are the partial_period check's.
func CutPeriods(m *semantic.Model, q *semantic.Query) string {
	if m == nil || q == nil || q.TimeRange == nil || len(q.Order) == 0 {
		return ""
	}
	byMeasure := false
	for _, o := range q.Order {
		byMeasure = byMeasure || m.Metric(o.Field) != nil || slices.Contains(q.Metrics, o.Field)
	}
	if !byMeasure {
		return ""
	}
	from, okFrom := time.Parse("2006-01-02", q.TimeRange.From)
	to, okTo := time.Parse("2006-01-02", q.TimeRange.To)
	for _, d := range q.Dimensions {
		g := d.Grain
		if g == "" || g == semantic.GrainDay {
			continue
		}
		if okFrom == nil && !g.Start(from).Equal(from) {
			return cutPeriod(g, g.Start(from), from, q.TimeRange)
		}
		if okTo == nil && !g.Start(to).Equal(to) {
			return cutPeriod(g, g.Start(to), to, q.TimeRange)
		}
	}
	return ""
}

func cutPeriod(g semantic.Grain, start, cut time.Time, r *semantic.TimeRange) string {
	return fmt.Sprintf("the period from %s to %s cuts the %s that starts %s at %s, so a ranking of %ss would set part of a %s against whole ones; ask for a period of whole %ss",
		r.From, lastDay(r.To), g, start.Format("2006-01-02"), cut.Format("2006-01-02"), g, g, g)
}

// lastDay is the day before an exclusive end.
func lastDay(to string) string {
	d, err := time.Parse("2006-01-02", to)
	if err != nil {
		return to
	}
	return d.AddDate(0, 0, -1).Format("2006-01-02")
}
