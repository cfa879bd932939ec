package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// weekPart is what a question says of the days of the week beyond a
// grouping by the day of the week: weekends against weekdays ("weekend
// vs weekday revenue": a grouping by the part of the week), or some days
// only ("on weekends", "weekend revenue", "during the week", "on
// Mondays": a filter on the measure's date).
type weekPart struct {
	grain  semantic.Grain
	values []string // the filter's values; nil for a grouping
	words  string   // the words read, as the question has them
}

// weekWords are the words of the part of the week and of the days,
// singular and plural, with what each names.
func weekWords(w string) (semantic.Grain, string, bool) {
	switch w {
	case "weekend", "weekends":
		return semantic.GrainPartOfWeek, semantic.Weekend, true
	case "weekday", "weekdays":
		return semantic.GrainPartOfWeek, semantic.Weekday, true
	}
	// The days in the plural only: "on Mondays" is every Monday, "on
	// Monday" one day.
	for _, d := range semantic.DayNames {
		if w == strings.ToLower(d)+"s" {
			return semantic.GrainDayOfWeek, d, true
		}
	}
	return "", "", false
}

// readWeekPart finds a part of the week in toks. It returns the part and
// the question without its words; or a reason to refuse ("last weekend",
// one weekend, is a date range this reading does not give); or nothing,
// when the question says nothing of the kind, or says it as part of a
// name the knowledge holds ("Weekend Bag"), or uses "weekday" as the
// grouping by the day of the week it already is ("orders by weekday").
func (p *Planner) readWeekPart(q string, toks []token) (*weekPart, string, string) {
	at := func(i int) string {
		if i >= 0 && i < len(toks) {
			return toks[i].s
		}
		return ""
	}
	var found []int
	for i, t := range toks {
		if _, _, ok := weekWords(t.s); ok {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		return nil, "", ""
	}
	// A name or value the knowledge holds that has the word in it
	// ("weekend bag", "saturday special") is that name, not the days.
	for _, i := range found {
		for n := 2; n <= p.lex.maxLen; n++ {
			for s := i - n + 1; s <= i; s++ {
				if s < 0 || s+n > len(toks) {
					continue
				}
				if _, ok := p.lex.get(join(toks[s : s+n])); ok {
					return nil, "", ""
				}
			}
		}
	}
	for _, i := range found {
		w := toks[i].s
		if ss, ok := p.lex.get(w); ok && len(ss) > 0 && w != "weekday" {
			return nil, fmt.Sprintf("%q names something the knowledge holds and also the days of the week; quarry does not guess which is meant", w), ""
		}
		if w == "weekend" || w == "weekends" {
			switch at(i - 1) {
			case "last", "this", "next", "past", "previous", "coming", "that", "one":
				return nil, fmt.Sprintf("%q is one weekend, a date range quarry does not work out; ask for its dates (\"from 2026-06-27 to 2026-06-28\"), or for every weekend (\"on weekends\")", at(i-1)+" "+w), ""
			case "the":
				if w == "weekend" {
					return nil, "\"the weekend\" may be one weekend or every weekend; ask \"on weekends\" for every weekend, or give the weekend's dates", ""
				}
			}
			if at(i+1) == "of" || at(i+1) == "before" || at(i+1) == "after" {
				return nil, fmt.Sprintf("%q names one weekend, a date range quarry does not work out; give its dates, or ask \"on weekends\"", w+" "+at(i+1)), ""
			}
		}
	}
	// One reading only: the days of one grain, either split or kept.
	var wp weekPart
	var drop []int // tokens read
	split := false
	for _, i := range found {
		g, v, _ := weekWords(toks[i].s)
		if (toks[i].s == "weekday" || toks[i].s == "weekdays") && groupedBy(at(i-1)) && !(at(i+1) == "or" || at(i+1) == "vs" || at(i+1) == "and") {
			// "by weekday", "per weekday", "which weekday": the day of
			// the week, read as before ("weekend revenue by weekday":
			// the weekend's days); "by weekday or weekend" is the split.
			continue
		}
		if wp.grain != "" && wp.grain != g {
			return nil, "a question that names both days and parts of the week is not read; ask for one of them", ""
		}
		wp.grain = g
		if !slices.Contains(wp.values, v) {
			wp.values = append(wp.values, v)
		}
		drop = append(drop, i)
		// "weekend vs weekday", "weekends and weekdays", "weekend or
		// weekday": the two parts side by side.
		if j := slices.Index(found, i); j+1 < len(found) && g == semantic.GrainPartOfWeek {
			between := toks[i+1 : found[j+1]]
			if len(between) == 1 && slices.Contains([]string{"vs", "versus", "and", "or", "against"}, between[0].s) ||
				len(between) == 2 && between[0].s == "compared" && (between[1].s == "to" || between[1].s == "with") {
				split = true
				for k := i + 1; k < found[j+1]; k++ {
					drop = append(drop, k)
				}
			}
		}
		// The small words that tie it to the question: "on", "on a",
		// "during the", "at", "only on", and "days" after it ("weekend
		// days").
		k := i - 1
		for k >= 0 && slices.Contains([]string{"on", "a", "the", "during", "at", "only", "over", "by", "between", "for"}, at(k)) {
			if at(k) == "over" {
				return nil, "\"over the weekend\" may be one weekend; ask \"on weekends\" for every weekend, or give the weekend's dates", ""
			}
			drop = append(drop, k)
			k--
		}
		if at(i+1) == "days" {
			drop = append(drop, i+1)
		}
	}
	if split && len(wp.values) == 2 {
		wp.values = nil
	} else if wp.grain == semantic.GrainPartOfWeek && len(wp.values) > 1 {
		// "weekends and weekdays" without a comparison: every day.
		wp.values = nil
	}
	if wp.grain == "" {
		return nil, "", ""
	}
	slices.Sort(drop)
	drop = slices.Compact(drop)
	var b strings.Builder
	var words []string
	last := 0
	for _, i := range drop {
		b.WriteString(q[last:toks[i].start])
		last = toks[i].end
		words = append(words, q[toks[i].start:toks[i].end])
	}
	b.WriteString(q[last:])
	wp.words = strings.Join(words, " ")
	return &wp, "", strings.Join(strings.Fields(b.String()), " ")
}

// groupedBy reports whether w makes the word after it a grouping or a
// ranking ("by weekday", "which weekday", "busiest weekday").
func groupedBy(w string) bool {
	return slices.Contains([]string{"by", "per", "each", "every", "which", "what", "busiest", "quietest", "best", "worst"}, w)
}

// duringTheWeek rewrites "during the week" as "on weekdays".
func duringTheWeek(q string) string {
	toks := tokenize(q)
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].s == "during" && toks[i+1].s == "the" && toks[i+2].s == "week" && (i+3 == len(toks) || toks[i+3].s != "of") {
			return q[:toks[i].start] + "on weekdays" + q[toks[i+2].end:]
		}
	}
	return q
}

// planWeekPart plans a question that names a part of the week: the rest
// of the question planned as if it did not, then the grouping or the
// filter added on the measure's date, or the date its period is on
// ("tickets closed on weekends in 2025": closed_at). nil when the
// question names none.
func (p *Planner) planWeekPart(question string, asOf time.Time, plan func(string) *Plan) *Plan {
	q := duringTheWeek(question)
	wp, refuse, rest := p.readWeekPart(q, tokenize(q))
	if refuse != "" {
		return &Plan{Kind: KindUnanswered, Reason: refuse}
	}
	if wp == nil {
		return nil
	}
	unread := func(why string) *Plan {
		return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("%q: %s", wp.words, why)}
	}
	if len(tokenize(rest)) == 0 {
		return unread("the question names no measure to cut by the days of the week")
	}
	pl := plan(rest)
	switch {
	case (pl.Kind == KindMetric || pl.Kind == KindRows) && pl.Query != nil:
	case pl.Kind == KindUnanswered || pl.Kind == KindClarify || pl.Kind == KindRefuse:
		if pl.Kind == KindUnanswered && pl.Reason == "" {
			pl.Reason = "the rest of the question, " + fmt.Sprintf("%q", rest) + ", could not be mapped"
		}
		return pl
	default:
		// A verified query or anything else without a query to add the
		// days to would answer without them (found from outside: a list
		// of rows came back with the weekend dropped).
		return unread("the rest of the question is answered by a query quarry cannot cut by the days of the week")
	}
	qq := pl.Query
	if qq.Rows != nil && wp.values == nil {
		return unread("a list of rows is not split into weekdays and weekends; ask for a count or a total")
	}
	for _, f := range qq.Filters {
		if p.model(pl).Metric(f.Field) != nil {
			// "revenue on weekends from customers who ordered only
			// once": the condition's count would be cut to weekends too
			// (found from outside).
			return unread("the days of the week would also cut the measure the question's condition is on; ask for the condition without them")
		}
		if f.OnRelated() {
			// "customers who ordered more than once on weekends": the
			// days would be the counted rows', which the filter on them
			// does not say (found from outside: they went on the
			// customers' signup date).
			return unread("the days of the week would apply to the related rows the question counts or requires, which quarry does not read; ask for the rows themselves on weekends")
		}
	}
	field := wp.grain
	date := string(field)
	m := p.model(pl)
	if tr := qq.TimeRange; tr != nil && tr.Field != "" {
		if p.dateOfMeasured(m, qq, tr.Field) {
			date = tr.Field
		}
	} else if tr == nil && len(qq.Compare) == 0 && qq.Rows == nil {
		// The date a period would be on: the question's own verb's
		// ("tickets closed"), else the measure's.
		if pr := plan(rest + " in " + asOf.Format("2006")); pr.Kind == KindMetric && pr.Query != nil && pr.Query.TimeRange != nil && pr.Query.TimeRange.Field != "" && p.dateOfMeasured(m, qq, pr.Query.TimeRange.Field) {
			date = pr.Query.TimeRange.Field
		}
	}
	for _, d := range qq.Dimensions {
		if d.Grain.Cyclic() {
			if wp.values == nil || d.Grain == wp.grain {
				return unread("the question asks for two cycles of the week at once; ask for one")
			}
		}
	}
	for _, f := range qq.Filters {
		if _, ok := p.model(pl).CycleGrain(f); ok {
			return unread("the question names the days of the week twice")
		}
	}
	out := *qq
	if wp.values == nil {
		out.Dimensions = append(slices.Clone(qq.Dimensions), semantic.DimRef{Name: date, Grain: field})
		if date == string(field) {
			out.Dimensions[len(out.Dimensions)-1].Name = string(field)
		}
	} else {
		vals := make([]any, len(wp.values))
		for i, v := range wp.values {
			vals[i] = v
		}
		f := semantic.Filter{Field: date, Grain: field, Op: semantic.OpEq, Values: vals}
		if len(vals) > 1 {
			f.Op = semantic.OpIn
		}
		out.Filters = append(slices.Clone(qq.Filters), f)
	}
	if _, err := semantic.Compile(p.model(pl), out, quarry.DialectSQLite); err != nil {
		return unread(err.Error())
	}
	res := *pl
	res.Query = &out
	on := date
	if date == string(field) {
		on = "the measure's date"
	}
	if wp.values == nil {
		res.Understood = append(slices.Clone(pl.Understood), fmt.Sprintf("by part_of_week of %s (weekday: Monday to Friday, weekend: Saturday and Sunday)", on))
		res.Title = weekTitle(pl.Title, "weekdays vs weekends")
	} else {
		what := strings.Join(wp.values, ", ")
		switch what {
		case semantic.Weekend:
			what = "weekend (Saturday and Sunday)"
		case semantic.Weekday:
			what = "weekday (Monday to Friday)"
		}
		res.Understood = append(slices.Clone(pl.Understood), fmt.Sprintf("filter %s of %s = %s", field, on, what))
		res.Title = weekTitle(pl.Title, "on "+onWords(wp))
	}
	return &res
}

// dateOfMeasured reports whether field is a date of the rows every
// measure of q is made of ("tickets closed": support_tickets.closed_at),
// not of other rows a period may be on ("revenue from customers who
// signed up in 2025": customers.signup_date), where the days of the week
// would cut the wrong rows (found from outside).
func (p *Planner) dateOfMeasured(m *semantic.Model, q *semantic.Query, field string) bool {
	f, ok := m.ColumnField(field)
	if !ok {
		return false
	}
	if q.Rows != nil {
		return strings.EqualFold(q.Rows.Entity, f.Entity.Name)
	}
	if len(q.Metrics) == 0 {
		return false
	}
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil {
			return false
		}
		own, _, _ := strings.Cut(m.MetricTime(mt), ".")
		if !strings.EqualFold(own, f.Entity.Name) {
			return false
		}
	}
	return true
}

// onWords names a filter's days as the title says them: "weekends",
// "weekdays", "Mondays and Fridays".
func onWords(wp *weekPart) string {
	out := make([]string, len(wp.values))
	for i, v := range wp.values {
		out[i] = v + "s"
	}
	return strings.Join(out, " and ")
}

// weekTitle puts what is said of the week into a title before its period:
// "Revenue, 2025" → "Revenue on weekends, 2025".
func weekTitle(title, s string) string {
	if title == "" {
		return ""
	}
	if i := strings.Index(title, ", "); i >= 0 {
		return title[:i] + " " + s + title[i:]
	}
	return title + " " + s
}
