package verify

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// CheckGrainDate is the check that a query's period and its time grain are
// on the same date of the measured rows.
const CheckGrainDate = "grain_date"

// GrainDate says when a query puts its period on one date of a table and
// cuts it by a time grain on another date of the same table: "work orders
// completed by month in 2025" filtered on completed_at and grouped by the
// month scheduled, so that December's work appeared in a 2025 answer
// (found by building it). Each month would count rows of other months.
// It returns "" when there is no named period date, no grain, or both are
// on one date.
func GrainDate(m *semantic.Model, q *semantic.Query) string {
	if m == nil || q == nil || q.TimeRange == nil || q.TimeRange.Field == "" {
		return ""
	}
	period, _ := columnOf(m, q.TimeRange.Field)
	ent, _, ok := strings.Cut(period, ".")
	if !ok {
		return ""
	}
	for _, d := range q.Dimensions {
		if d.Grain == "" {
			continue
		}
		var cols []string
		if d.Name == string(d.Grain) || d.Name == "time" || d.Name == "" {
			// The grain on each metric's own date.
			for _, name := range q.Metrics {
				if mt := m.Metric(name); mt != nil {
					cols = append(cols, strings.ToLower(timeColumn(m, mt)))
				}
			}
		} else if c, _ := columnOf(m, d.Name); c != "" {
			cols = append(cols, c)
		}
		for _, c := range cols {
			if e, _, _ := strings.Cut(c, "."); e == ent && c != period {
				return fmt.Sprintf("the period is on %s but the %ss are cut on %s, another date of the same rows, so a %s would count rows of other %ss; ask by %s",
					q.TimeRange.Field, d.Grain, c, d.Grain, d.Grain, q.TimeRange.Field)
			}
		}
	}
	return ""
}
