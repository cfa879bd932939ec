package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Medians and percentiles. "median resolution time for tickets this
// year", "90th percentile of pages per session by device", "p90 pages
// per session", "the middle value of ticket resolution time": the
// question without its median words is planned on its own and must give
// one metric that averages row values, AVG(x); the answer is the median
// (percentile) of x over the same rows, per group (semantic.Query's
// Percentile). Anything else is refused with a reason that names what
// quarry can take a median of: a sum or a count of rows ("median
// revenue") has no row values to take the middle of without choosing
// them, a ratio of two metrics ("median order value", revenue over
// orders) would need each order's own figure, and a rate of a yes/no
// column is a share, whose median is 0 or 1.

// percentileAsked finds the words that ask for a median or a percentile:
// the percentile (50 for the median), where its words start and how many
// there are (with a following "of"); 0 when there are none.
func percentileAsked(toks []token) (p, at, n int) {
	for i, t := range toks {
		switch {
		case t.s == "median" || t.s == "medians":
			p, at, n = 50, i, 1
		case t.s == "middle" && i+1 < len(toks) && (toks[i+1].s == "value" || toks[i+1].s == "values"):
			p, at, n = 50, i, 2
		case len(t.s) >= 2 && t.s[0] == 'p' && isDigits(t.s[1:]):
			p, _ = strconv.Atoi(t.s[1:])
			at, n = i, 1
		case i+1 < len(toks) && (toks[i+1].s == "percentile" || toks[i+1].s == "pct"):
			v := strings.TrimRight(t.s, "stndrh")
			if !isDigits(v) || v == t.s && !isDigits(t.s) {
				continue
			}
			p, _ = strconv.Atoi(v)
			at, n = i, 2
		default:
			continue
		}
		if at+n < len(toks) && toks[at+n].s == "of" {
			n++
		}
		return p, at, n
	}
	return 0, 0, 0
}

func isDigits(s string) bool {
	if s == "" || len(s) > 3 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// readAsTotal ends the reading's note on an amount named alone read as
// its total (impliedTotal), which a median is not of.
const readAsTotal = "read as its total"

// percentileWords is how a reading names percentile p.
func percentileWords(p int) string {
	if p == 50 {
		return "median"
	}
	return ordinal(p) + " percentile"
}

func ordinal(n int) string {
	suf := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suf = "st"
	case n%10 == 2:
		suf = "nd"
	case n%10 == 3:
		suf = "rd"
	}
	return strconv.Itoa(n) + suf
}

// percentilePlan plans a question that asks for a median or a
// percentile; nil when it asks for none.
func (p *Planner) percentilePlan(question string, asOf time.Time) *Plan {
	toks := tokenize(question)
	pct, at, n := percentileAsked(toks)
	if pct == 0 && n == 0 {
		return nil
	}
	what := percentileWords(pct)
	if pct < 1 || pct > 99 {
		return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("a percentile is between 1 and 99 (the median is the 50th), not %d", pct)}
	}
	var rest []string
	for i, t := range toks {
		if i < at || i >= at+n {
			rest = append(rest, question[t.start:t.end])
		}
	}
	can := p.averagedMetrics()
	refuse := func(inner *Plan, why string) *Plan {
		pl := &Plan{Kind: KindUnanswered, Reason: why + "; quarry takes a " + what + " of a metric that averages a value per row: " + can}
		if inner != nil {
			pl.Understood = inner.Understood
		}
		return pl
	}
	if len(rest) == 0 {
		return refuse(nil, "the question does not say of what")
	}
	for i, t := range toks {
		if (i < at || i >= at+n) && (t.s == "average" || t.s == "avg" || t.s == "mean" || t.s == "averages") {
			// "average and median resolution time": one answer holds one
			// of them (found from outside: the average was dropped).
			return refuse(nil, fmt.Sprintf("quarry answers a %s or an average, not both at once; ask for each on its own", what))
		}
	}
	inner := p.planWhole(strings.Join(rest, " "), asOf)
	impliedTotal := slices.ContainsFunc(inner.Understood, func(u string) bool { return strings.HasSuffix(u, " "+readAsTotal) })
	if inner.Kind != KindMetric || impliedTotal {
		// An amount named alone with a period reads as its total ("tips
		// last month"); the median of it is of each row's value.
		// "median order value", "median resolution hours by priority":
		// the metric is named for its average.
		avg := make([]string, 0, len(rest)+1)
		for i, t := range toks {
			if i == at {
				avg = append(avg, "average")
			}
			if i < at || i >= at+n {
				avg = append(avg, question[t.start:t.end])
			}
		}
		if a := p.planWhole(strings.Join(avg, " "), asOf); a.Kind == KindMetric || a.Kind == KindRefuse {
			inner = a
		}
	}
	if inner.Kind == KindRefuse {
		return inner // "median salary": the column policy's refusal, as for its average
	}
	if inner.Kind != KindMetric || inner.Query == nil || inner.Query.Rows != nil || len(inner.Query.Metrics) != 1 {
		return refuse(inner, fmt.Sprintf("quarry did not read %q as one figure averaged over rows", strings.Join(rest, " ")))
	}
	q := inner.Query
	for i, t := range toks {
		if t.s == "per" && i > at && i+1 < len(toks) && p.m.Metric(q.Metrics[0]) != nil {
			if _, ok := semantic.AveragedValue(p.m.Metric(q.Metrics[0])); !ok {
				return refuse(inner, fmt.Sprintf("a %s per %s would be the middle of each one's own %s, which quarry does not work out yet", what, toks[i+1].s, display(q.Metrics[0])))
			}
		}
	}
	if len(q.Compare) > 0 || q.Share || len(q.Hidden) > 0 || q.Percentile != 0 {
		return refuse(inner, fmt.Sprintf("a %s is answered for one metric, by groups or a time grain, not compared, shared or ranked by a hidden figure", what))
	}
	m := p.model(inner)
	mt := m.Metric(q.Metrics[0])
	for _, f := range q.Filters {
		if fd, err := m.ResolveField(f.Field); err == nil && fd.Kind == semantic.FieldMetric && !f.OnRelated() {
			return refuse(inner, fmt.Sprintf("a %s cannot be filtered on a figure", what))
		}
	}
	name := display(mt.Name)
	if _, ok := semantic.AveragedValue(mt); !ok {
		kind := "not an average of a value per row"
		switch {
		case mt.Derived != "":
			kind = "a ratio of two figures (" + strings.ReplaceAll(strings.ReplaceAll(mt.Derived, "{", ""), "}", "") + "), whose " + what + " would need each row's own figure, which quarry does not work out"
		case additive(mt) && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "COUNT("):
			kind = "a count of rows, which has no value per row to take the middle of"
		case additive(mt):
			kind = "a total, and which rows' values (each item, each order, each customer) would be meant is not said"
		}
		return refuse(inner, fmt.Sprintf("%s is %s", name, kind))
	}
	if mt.Format == "percent" {
		return refuse(inner, fmt.Sprintf("%s is a rate (the share of rows with a yes), and the %s of yes/no values is 0 or 1, not a figure", name, what))
	}
	col := semantic.PercentileName(mt.Name, pct)
	out := *inner
	nq := *q
	nq.Percentile = pct
	out.Query = &nq
	title := display(col)
	if pct != 50 {
		title = ordinal(pct) + " percentile of " + strings.TrimPrefix(display(col), display(strings.SplitN(col, "_", 2)[0])+" ")
	}
	if len(inner.Title) >= len(name) && strings.EqualFold(inner.Title[:len(name)], name) {
		out.Title = upperFirst(title) + inner.Title[len(name):]
	} else {
		out.Title = upperFirst(title)
	}
	note := fmt.Sprintf("the %s is the middle value of what %s averages, over the same rows (those with no value left out); with an even count, the average of the two middle ones", what, name)
	if pct != 50 {
		note = fmt.Sprintf("the %s is the value below which %d%% of what %s averages falls, over the same rows (those with no value left out), between two rows in proportion", what, pct, name)
	}
	out.Understood = append(append([]string{}, inner.Understood...), what+" of "+name)
	out.Notes = append(append([]string{}, inner.Notes...), note)
	return &out
}

// averagedMetrics names the metrics quarry can take a median of.
func (p *Planner) averagedMetrics() string {
	var names []string
	for i := range p.m.Metrics {
		mt := &p.m.Metrics[i]
		if _, ok := semantic.AveragedValue(mt); ok && mt.Format != "percent" {
			names = append(names, display(mt.Name))
		}
	}
	if len(names) == 0 {
		return "the knowledge defines none (a metric whose expr is AVG of a column)"
	}
	return strings.Join(names, ", ")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
