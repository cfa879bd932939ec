package semantic

import (
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Medians and percentiles. A percentile is taken of the row values a
// metric averages: for a metric AVG(x), the median of x over the same
// rows. The SQL is the same on every engine, window functions and no
// percentile function: each group's non-NULL values are numbered in
// order (ROW_NUMBER) and counted (COUNT(*) OVER), and the median is the
// average of the one or two middle rows, those with 2·rn in (n, n+1,
// n+2) — division-free, so exact under decimal arithmetic. Another
// percentile p interpolates between the two rows around rank
// 1 + p·(n−1)/100, weighting each by its distance from it, in hundredths.

// AveragedValue is x of a metric whose expression is one AVG(x) (not of
// distinct values) and which is not derived; false for any other metric,
// whose percentile quarry does not take.
func AveragedValue(mt *Metric) (string, bool) {
	if mt == nil || mt.Derived != "" {
		return "", false
	}
	x := strings.TrimSpace(mt.Expr)
	if len(x) < 5 || !strings.EqualFold(x[:4], "AVG(") || x[len(x)-1] != ')' {
		return "", false
	}
	inner := strings.TrimSpace(x[4 : len(x)-1])
	if f := strings.Fields(inner); len(f) > 0 && strings.EqualFold(f[0], "DISTINCT") {
		return "", false
	}
	depth := 0
	for i, ch := range x {
		switch ch {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(x)-1 {
				return "", false // "AVG(a) / AVG(b)"
			}
		}
	}
	if inner == "" {
		return "", false
	}
	return inner, true
}

// PercentileName is the result column of percentile p of the metric
// named metric: "median_resolution_hours" for the median of
// average_resolution_hours, "p90_pages_per_session" for its 90th
// percentile. The word for the average is dropped from the name.
func PercentileName(metric string, p int) string {
	base := metric
	for _, pre := range []string{"average_", "avg_", "mean_"} {
		if len(base) > len(pre) && strings.EqualFold(base[:len(pre)], pre) {
			base = base[len(pre):]
		}
	}
	for _, suf := range []string{"_average", "_avg", "_mean"} {
		if len(base) > len(suf) && strings.EqualFold(base[len(base)-len(suf):], suf) {
			base = base[:len(base)-len(suf)]
		}
	}
	if p == 50 {
		return "median_" + base
	}
	return "p" + strconv.Itoa(p) + "_" + base
}

// percentileWord is how an error names percentile p.
func percentileWord(p int) string {
	if p == 50 {
		return "a median"
	}
	return "a " + strconv.Itoa(p) + "th percentile"
}

// checkPercentile refuses a percentile query quarry cannot answer
// exactly; mt is its one metric.
func checkPercentile(q Query, outputs []*Metric, havingMetrics []*Metric) error {
	p := q.Percentile
	what := percentileWord(p)
	switch {
	case p < 1 || p > 99:
		return quarry.Errorf(quarry.KindInput, "the percentile must be between 1 and 99 (50 is the median), not %d", p)
	case len(outputs) != 1:
		return quarry.Errorf(quarry.KindUnsupported, "%s is taken of one metric at a time; ask for each on its own", what)
	case len(q.Compare) > 0 || q.Share || len(q.Hidden) > 0:
		return quarry.Errorf(quarry.KindUnsupported, "%s cannot be compared across periods, shared or hidden; ask for it by a time grain instead", what)
	case len(havingMetrics) > 0:
		return quarry.Errorf(quarry.KindUnsupported, "%s cannot be filtered on a metric; filter the rows instead", what)
	}
	if _, ok := AveragedValue(outputs[0]); !ok {
		return quarry.Errorf(quarry.KindUnsupported, "%s is taken of the values a metric averages (AVG of a column), and %s is not such an average, so quarry does not guess which values are meant", what, outputs[0].Name)
	}
	return nil
}

// percentileSelect builds the SELECT of percentile q.Percentile of the
// values base metric mt averages, by the dimensions, named name.
func (c *compiler) percentileSelect(mt *Metric, name string, dims []dimSpec, where []cond, q Query) (metricPart, error) {
	x, _ := AveragedValue(mt)
	val, refs, err := c.render(x, "metric "+mt.Name)
	if err != nil {
		return metricPart{}, err
	}
	notNull := cond{sql: "(" + val + ") IS NOT NULL", refs: refs}
	if !strings.ContainsAny(val, " (") {
		notNull.sql = val + " IS NOT NULL"
	}
	src, err := c.metricSource(mt, x, dims, append(append([]cond{}, where...), notNull), q)
	if err != nil {
		return metricPart{}, err
	}
	from, val, group := src.from, src.expr, src.dimX
	sel := make([]string, 0, len(dims)+3)
	if src.fanOut {
		if from, val, group, err = c.distinctRows(mt, src, x, dims); err != nil {
			return metricPart{}, err
		}
		sel = append(sel, group...)
	} else {
		for i, ds := range dims {
			sel = append(sel, src.dimX[i]+" AS "+c.d.ident(ds.out.Name))
		}
	}
	over := ""
	if len(group) > 0 {
		over = "PARTITION BY " + strings.Join(group, ", ")
	}
	rn, n, v := c.d.ident("quarry_rn"), c.d.ident("quarry_n"), c.d.ident("quarry_value")
	sel = append(sel, val+" AS "+v,
		"ROW_NUMBER() OVER ("+strings.TrimSpace(over+" ORDER BY "+val)+") AS "+rn,
		"COUNT(*) OVER ("+over+") AS "+n)
	inner := "SELECT " + strings.Join(sel, ", ") + "\n" + from
	outer := make([]string, 0, len(dims)+1)
	for _, ds := range dims {
		outer = append(outer, c.d.ident(ds.out.Name))
	}
	var agg, keep string
	if p := q.Percentile; p == 50 {
		agg = "AVG(" + v + ")"
		keep = "2 * " + rn + " IN (" + n + ", " + n + " + 1, " + n + " + 2)"
	} else {
		// t = p·(n−1): the wanted rank is 1 + t/100. The row below it
		// (100·rn ≤ t + 100) weighs 100·rn − t hundredths, the row above
		// it t + 200 − 100·rn; no subtraction from rn, whose type is
		// unsigned on some engines.
		t := itoa(p) + " * (" + n + " - 1)"
		agg = "SUM(" + v + " * CASE WHEN 100 * " + rn + " <= " + t + " + 100 THEN 100 * " + rn + " - " + t + " ELSE " + t + " + 200 - 100 * " + rn + " END) / 100.0"
		keep = "100 * " + rn + " < " + t + " + 200 AND " + t + " < 100 * " + rn
	}
	s := "SELECT " + strings.Join(append(outer, agg+" AS "+c.d.ident(name)), ", ") +
		"\nFROM (\n" + indent(inner, "  ") + "\n) AS " + c.d.ident("quarry_ranked") +
		"\nWHERE " + keep
	if len(outer) > 0 {
		s += "\nGROUP BY " + strings.Join(outer, ", ")
	}
	return metricPart{mt: mt, sql: s, agg: agg}, nil
}
