package verify

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// The dates a question asks about: "when", periods not yet over, compared
// periods of unequal length, the grain of another date, raw dates grouped
// (Coverage).

// whenRE asks for a date: "when was the first order placed".
var whenRE = lazyRE(`^ (when|on what date|on which date|what date|which date|what day|which day|what time) `)

// when: a question that asks when is answered with a date — the earliest
// or latest of a date column, a grouping by a date or a grain, or rows
// that show a date — not with a count or an amount.
func (c *cover) when() (ok, bad []string) {
	if !whenRE().MatchString(c.text) || len(c.q.Compare) > 0 {
		return nil, nil
	}
	temporal := func(field string) bool {
		f, err := c.m.ResolveField(field)
		if err != nil {
			return false
		}
		return f.Kind == semantic.FieldColumn && f.Column.Temporal() || f.Kind == semantic.FieldDimension && f.Dimension.Type == "time"
	}
	for _, d := range c.q.Dimensions {
		if d.Grain != "" || temporal(d.Name) {
			return []string{"when: by " + d.Name}, nil
		}
	}
	if r := c.q.Rows; r != nil {
		for _, col := range r.Columns {
			if temporal(r.Entity+"."+col) || temporal(col) {
				return []string{"when: " + col}, nil
			}
		}
		if len(r.Columns) == 0 {
			return nil, nil // the entity's own columns: the date may be among them
		}
	}
	for _, name := range c.q.Metrics {
		if slices.Contains(c.q.Hidden, name) {
			continue
		}
		mt := c.m.Metric(name)
		if mt == nil {
			continue
		}
		u := strings.ToUpper(strings.TrimSpace(mt.Expr))
		if strings.HasPrefix(u, "MIN(") || strings.HasPrefix(u, "MAX(") {
			for _, g := range qualifiedRE().FindAllString(mt.Expr, -1) {
				if !temporal(g) {
					continue
				}
				if ev := c.eventOtherThan(g); ev != "" {
					// "when was the last subscription cancelled" answered
					// with the last start date of cancelled subscriptions.
					return nil, []string{fmt.Sprintf("%q happened on a date of its own, but the query gives %s of the rows in that state", ev, g)}
				}
				return []string{"when: " + name}, nil
			}
		}
	}
	return nil, []string{"the question asks when, but the query returns no date"}
}

// eventOtherThan is the event a "when" question's rows are picked by — a
// state that happened ("cancelled", "refunded", a flag such as
// "discontinued") — when the date asked for (entity.column) is not one the
// question names; "" otherwise.
func (c *cover) eventOtherThan(date string) string {
	ent, col, _ := strings.Cut(date, ".")
	e := c.m.Entity(ent)
	if e == nil {
		return ""
	}
	if cc := e.Column(col); cc != nil {
		for _, w := range c.namingWords(e.Name, cc) {
			if Singular(w) == Singular(strings.ToLower(strings.ReplaceAll(e.Name, "_", " "))) || strings.Contains(strings.ToLower(e.Name), Singular(w)) {
				continue // "order" of orders is the rows, not ordered_at
			}
			return "" // the question names the date ("… opened", "… started")
		}
	}
	for _, f := range c.q.Filters {
		if f.Op != semantic.OpEq && f.Op != semantic.OpIn {
			continue
		}
		key, _ := columnOf(c.m, f.Field)
		fe, fc, ok := strings.Cut(key, ".")
		if !ok || !strings.EqualFold(fe, e.Name) {
			continue
		}
		if strings.HasSuffix(fc, "ed") && truthy(f.Values) {
			return fc
		}
		if !stateColumn().MatchString(fc) {
			continue
		}
		for _, v := range f.Values {
			if sv, ok := v.(string); ok && strings.HasSuffix(strings.ToLower(sv), "ed") {
				return sv
			}
		}
	}
	return ""
}

// partial: "which week had the fewest orders this year" ranked the week
// of the as-of day, two days old, with the full weeks. A ranking of
// periods whose range runs to the as-of day or past it ranks one that is
// not over yet.
func (c *cover) partial() (Check, bool) {
	if ch, ok := c.unevenCompare(); ok {
		return ch, true
	}
	if ch, ok := c.unevenWeekdays(); ok {
		return ch, true
	}
	if ch, ok := c.unfinishedSeries(); ok {
		return ch, true
	}
	if c.asOf.IsZero() || len(c.q.Order) == 0 || c.q.TimeRange == nil || c.q.TimeRange.To == "" {
		return Check{}, false
	}
	var grain semantic.Grain
	for _, d := range c.q.Dimensions {
		if d.Grain != "" && !d.Grain.Cyclic() {
			grain = d.Grain
		}
	}
	if grain == "" || c.m.Metric(c.q.Order[0].Field) == nil {
		return Check{}, false
	}
	to, err := time.Parse("2006-01-02", c.q.TimeRange.To)
	if err != nil || !to.After(c.asOf) {
		return Check{}, false
	}
	return Check{Name: CheckPartial, Status: Warn, Detail: fmt.Sprintf("the %s of %s is not over (the range runs to %s), yet it is ranked with the whole ones", grain, c.asOf.Format("2006-01-02"), to.AddDate(0, 0, -1).Format("2006-01-02"))}, true
}

// unfinishedSeries: "revenue by month this year" on December 2nd ends
// with a December of two days, which the series sets beside whole months
// ("went from $223,907 in January to $9,576 in December"). A series by a
// calendar grain (not ranked: a ranking is told below) whose range reaches
// the as-of day, when that day does not end its period, warns that its
// last period is not over. So does a series whose range starts or ends
// inside a period ("revenue by month since January 15": a January of 17
// days; "orders by week in 2025": weeks of five and three days at either
// end), naming the period cut; the answer leaves such periods out of the
// change it states (PartialEnds).
func (c *cover) unfinishedSeries() (Check, bool) {
	tr := c.q.TimeRange
	if len(c.q.Order) > 0 || len(c.q.Compare) > 0 || tr == nil {
		return Check{}, false
	}
	var grain semantic.Grain
	for _, d := range c.q.Dimensions {
		if d.Grain != "" && !d.Grain.Cyclic() {
			grain = d.Grain
		}
	}
	if grain == "" || grain == semantic.GrainDay {
		return Check{}, false
	}
	var parts []string
	from, ferr := time.Parse("2006-01-02", tr.From)
	if ferr == nil && !startsPeriod(from, grain) {
		parts = append(parts, fmt.Sprintf("the first %s of the series (%s) starts before the period asked for: it holds the days from %s only, so it is not like the whole ones after it", grain, grain.Start(from).Format("2006-01-02"), from.Format("2006-01-02")))
	}
	to, err := time.Parse("2006-01-02", tr.To)
	next := c.asOf.AddDate(0, 0, 1)
	// The as-of day cuts a period of the series only when the series
	// holds it: one wholly after it (events booked for next year) does
	// not.
	holdsAsOf := !c.asOf.IsZero() && (ferr != nil || !from.After(c.asOf))
	switch {
	case err != nil:
	case holdsAsOf && !to.Before(next) && !startsPeriod(next, grain):
		parts = append(parts, fmt.Sprintf("the last %s of the series is not over: it holds the days up to %s only, so it is not like the whole ones before it", grain, c.asOf.Format("2006-01-02")))
	case (!holdsAsOf || !to.After(next)) && !startsPeriod(to, grain):
		last := to.AddDate(0, 0, -1)
		parts = append(parts, fmt.Sprintf("the last %s of the series (%s) ends after the period asked for: it holds the days up to %s only, so it is not like the whole ones before it", grain, grain.Start(last).Format("2006-01-02"), last.Format("2006-01-02")))
	}
	if len(parts) == 0 {
		return Check{}, false
	}
	return Check{Name: CheckPartial, Status: Warn, Detail: strings.Join(parts, "; ")}, true
}

// StartsBeforeData and EndsBeforeData say, in a partial_period warning
// of compared periods, that a period starts before the first day of the
// measure's data, or ends before it (CutCompared reads them back).
const (
	StartsBeforeData = "starts before the data, whose first day is"
	EndsBeforeData   = "ends before the data starts"
)

// CutCompared reads the labels of the compared periods that a
// partial_period warning says start or end before the data.
func CutCompared(checks []Check) []string {
	var labels []string
	for _, c := range checks {
		if c.Name != CheckPartial || c.Status != Warn {
			continue
		}
		for _, part := range strings.Split(c.Detail, "; ") {
			for _, lead := range []string{" " + StartsBeforeData, " " + EndsBeforeData} {
				if label, _, ok := strings.Cut(part, lead); ok {
					labels = append(labels, label)
				}
			}
		}
	}
	return labels
}

// PartialDays reads the partial_period warnings of a series: a day of
// each of its periods that holds only part of its days (cut by the period
// asked for, or not over on the as-of day), so that an answer leaves those
// periods out of the change it states.
func PartialDays(checks []Check) []time.Time {
	var days []time.Time
	for _, c := range checks {
		if c.Name != CheckPartial || c.Status != Warn {
			continue
		}
		for _, part := range strings.Split(c.Detail, "; ") {
			if !strings.Contains(part, " of the series") {
				continue
			}
			for _, lead := range []string{"holds the days from ", "holds the days up to "} {
				if _, rest, ok := strings.Cut(part, lead); ok && len(rest) >= 10 {
					if d, err := time.Parse("2006-01-02", rest[:10]); err == nil {
						days = append(days, d)
					}
				}
			}
		}
	}
	return days
}

// unfinishedRows: "revenue by year" asked on June 30th names no period,
// so the query has no range for unfinishedSeries to read, yet its last
// row is a half year set beside whole ones ("+50.2% between the first and
// last year"). Read from the result: when the latest period of a calendar
// grain in the rows is the one holding the as-of day, and that day does
// not end it, the series warns as unfinishedSeries does. Rows that end
// before the as-of day's period (a database whose data stopped years
// ago) do not.
func unfinishedRows(in Input) (Check, bool) {
	if in.AsOf.IsZero() || in.Table == nil || in.Scheduled || slices.ContainsFunc(in.Coverage, func(c Check) bool { return c.Name == CheckPartial }) {
		return Check{}, false
	}
	for _, col := range in.Columns {
		g := col.Grain
		if g == "" || g == semantic.GrainDay || g.Cyclic() {
			continue
		}
		i := columnIndex(in.Table, col.Name)
		if i < 0 {
			continue
		}
		var last time.Time
		for _, row := range in.Table.Rows {
			if d, ok := DayOf(row[i]); ok && d.After(last) {
				last = d
			}
		}
		next := in.AsOf.AddDate(0, 0, 1)
		if last.IsZero() || last.After(in.AsOf) || !g.End(last).After(next) {
			continue
		}
		return Check{Name: CheckPartial, Status: Warn, Detail: fmt.Sprintf("the last %s of the series is not over: it holds the days up to %s only, so it is not like the whole ones before it", g, in.AsOf.Format("2006-01-02"))}, true
	}
	return Check{}, false
}

// overSeries is in.Coverage less the warning that a series' last period
// is not over, where the query is Scheduled, or where the rows end
// before that period: "check-ins by
// month this year" on December 1st has no December row, and November,
// its last, is whole (found from outside: the warning named it, at 0.85).
func overSeries(in Input) []Check {
	if in.AsOf.IsZero() || in.Table == nil {
		return in.Coverage
	}
	var g semantic.Grain
	var last time.Time
	for _, col := range in.Columns {
		if col.Grain == "" || col.Grain == semantic.GrainDay || col.Grain.Cyclic() {
			continue
		}
		if i := columnIndex(in.Table, col.Name); i >= 0 {
			g = col.Grain
			for _, row := range in.Table.Rows {
				if d, ok := DayOf(row[i]); ok && d.After(last) {
					last = d
				}
			}
		}
	}
	if !in.Scheduled && (g == "" || last.IsZero() || !last.Before(g.Start(in.AsOf))) {
		return in.Coverage
	}
	out := make([]Check, 0, len(in.Coverage))
	for _, c := range in.Coverage {
		if c.Name == CheckPartial {
			parts := strings.Split(c.Detail, "; ")
			parts = slices.DeleteFunc(parts, func(p string) bool {
				return strings.HasPrefix(p, "the last ") && strings.Contains(p, " of the series is not over: ") // unfinishedSeries'
			})
			if len(parts) == 0 {
				continue
			}
			c.Detail = strings.Join(parts, "; ")
		}
		out = append(out, c)
	}
	return out
}

// DayOf reads a period cell as the day it starts: a time, text that
// starts with YYYY-MM-DD (SQLite's strftime) or is YYYY-MM or YYYY, or a
// year as a number.
func DayOf(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.UTC), true
	case string:
		if len(x) >= 10 {
			if d, err := time.Parse("2006-01-02", x[:10]); err == nil {
				return d, true
			}
		}
		for _, layout := range []string{"2006-01", "2006"} {
			if d, err := time.Parse(layout, x); err == nil {
				return d, true
			}
		}
	case int64:
		if x >= 1000 && x <= 9999 {
			return time.Date(int(x), 1, 1, 0, 0, 0, 0, time.UTC), true
		}
	}
	return time.Time{}, false
}

// startsPeriod reports whether day is the first of a period of grain
// (weeks start on Monday): the as-of day before it ends a whole one.
func startsPeriod(day time.Time, grain semantic.Grain) bool {
	switch grain {
	case semantic.GrainWeek:
		return day.Weekday() == time.Monday
	case semantic.GrainMonth:
		return day.Day() == 1
	case semantic.GrainQuarter:
		return day.Day() == 1 && (day.Month()-1)%3 == 0
	case semantic.GrainYear:
		return day.YearDay() == 1
	}
	return true
}

// unevenWeekdays: "which weekday had the most revenue last month" over
// May 2026 counts five Fridays, Saturdays and Sundays and four of each
// other day, so the days' totals are not like for like. A grouping by the
// day of the week over a range that is not whole weeks warns, naming the
// days it holds more of, where one more day weighs over 5% (under 20
// weeks: a year's one extra day does not).
func (c *cover) unevenWeekdays() (Check, bool) {
	tr := c.q.TimeRange
	if tr == nil || tr.From == "" || tr.To == "" || len(c.q.Compare) > 0 {
		return Check{}, false
	}
	cyclic := false
	for _, d := range c.q.Dimensions {
		cyclic = cyclic || d.Grain.Cyclic()
	}
	from, err1 := time.Parse("2006-01-02", tr.From)
	to, err2 := time.Parse("2006-01-02", tr.To)
	if !cyclic || err1 != nil || err2 != nil || !to.After(from) {
		return Check{}, false
	}
	days := int(to.Sub(from).Hours()/24 + 0.5)
	if days%7 == 0 || days/7 >= 20 {
		return Check{}, false
	}
	// The first days%7 weekdays from the range's start occur once more.
	var more []string
	for i := range days % 7 {
		more = append(more, from.AddDate(0, 0, i).Weekday().String())
	}
	return Check{Name: CheckPartial, Status: Warn, Detail: fmt.Sprintf("the range (%d days) is not whole weeks: it holds %d each of %s and %d of every other day, so the days' totals are not like for like", days, days/7+1, strings.Join(more, ", "), days/7)}, true
}

// unevenCompare: "revenue ytd vs last year" set half a year against a
// whole one. Compared periods whose lengths differ by more than months do
// (15%) warn; so does a period not over on the as-of day ("this year" on
// December 2nd: 336 days) set against one of another length (last year's
// 365), which the 15% would let pass. The same days of last year, or a
// whole month against another, do not.
func (c *cover) unevenCompare() (Check, bool) {
	type span struct {
		from, to time.Time
		days     float64
	}
	read := func(p semantic.Period) (span, bool) {
		from, err1 := time.Parse("2006-01-02", p.From)
		to, err2 := time.Parse("2006-01-02", p.To)
		if err1 != nil || err2 != nil || !to.After(from) {
			return span{}, false
		}
		return span{from, to, to.Sub(from).Hours() / 24}, true
	}
	for i, a := range c.q.Compare {
		for _, b := range c.q.Compare[i+1:] {
			sa, ok1 := read(a)
			sb, ok2 := read(b)
			if !ok1 || !ok2 {
				continue
			}
			da, db := sa.days, sb.days
			if rate := c.lengthFree(); rate != "" && math.Abs(da-db) > 1 {
				// "aov this year vs last year": an average over half a
				// year is like an average over a whole one.
				return Check{Name: CheckPartial, Status: Warn, Detail: fmt.Sprintf("%s (%.0f days) and %s (%.0f days) differ in length; %s", a.Label, da, b.Label, db, rate)}, true
			}
			if max(da, db)/min(da, db) > 1.15 {
				return Check{Name: CheckPartial, Status: Warn, Detail: fmt.Sprintf("%s (%.0f days) and %s (%.0f days) differ in length, so their figures are not like for like", a.Label, da, b.Label, db)}, true
			}
			if math.Abs(da-db) <= 1 {
				continue
			}
			for _, o := range []struct {
				p semantic.Period
				s span
			}{{a, sa}, {b, sb}} {
				if c.open(o.s.from, o.s.to) {
					return Check{Name: CheckPartial, Status: Warn, Detail: fmt.Sprintf("%s is not over: it holds the days up to %s only (%.0f days), against %.0f days, so the figures are not like for like; compare the same days of the other period", o.p.Label, c.asOf.Format("2006-01-02"), o.s.days, da+db-o.s.days)}, true
				}
			}
		}
	}
	return Check{}, false
}

// LengthFree ends the partial_period detail of compared periods of
// different lengths whose measures do not grow with the number of days
// (averages, ratios): their change is given (LengthFreeCompare reads it
// back).
const LengthFree = "does not grow with the number of days, so the figures compare and the change between them is given"

// lengthFree is the end of the detail of compared periods of different
// lengths when every measure of the query is an average or a ratio
// (semantic.Model.Intensive), "" otherwise.
func (c *cover) lengthFree() string {
	if c.m == nil || len(c.q.Metrics) == 0 {
		return ""
	}
	names := make([]string, len(c.q.Metrics))
	for i, name := range c.q.Metrics {
		if !c.m.Intensive(name) {
			return ""
		}
		names[i] = strings.ReplaceAll(name, "_", " ")
	}
	verb := "is an average or a ratio, which"
	if len(names) > 1 {
		verb = "are averages or ratios, which"
	}
	return strings.Join(names, " and ") + " " + verb + " " + LengthFree
}

// LengthFreeCompare reports whether a partial_period warning is one of
// compared periods of different lengths whose measures do not grow with
// the number of days: the answer gives their change.
func LengthFreeCompare(c Check) bool {
	return c.Name == CheckPartial && strings.HasSuffix(c.Detail, LengthFree)
}

// open reports whether the range [from, to) holds the as-of day and is
// not a whole calendar week, month, quarter or year: a period cut at the
// as-of day, not over yet.
func (c *cover) open(from, to time.Time) bool {
	if c.asOf.IsZero() || c.asOf.Before(from) || !c.asOf.Before(to) {
		return false
	}
	for _, g := range []semantic.Grain{semantic.GrainWeek, semantic.GrainMonth, semantic.GrainQuarter, semantic.GrainYear} {
		if startsPeriod(from, g) && g.End(from).Equal(to) {
			return false
		}
	}
	return true
}

// otherDateBefore is the date column named right before a grain word in
// the question ("signup year": customers.signup_date), when the query's
// measures are dated by another; "" otherwise.
func (c *cover) otherDateBefore(grain string) string {
	own := map[string]bool{}
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil {
			own[strings.ToLower(c.m.MetricTime(mt))] = true
		}
	}
	for i, w := range c.words {
		if i == 0 || Singular(w) != grain {
			continue
		}
		prev := c.words[i-1]
		if len(prev) < 4 {
			continue
		}
		for _, e := range c.m.Entities {
			for _, col := range e.Columns {
				if !col.Temporal() {
					continue
				}
				first := splitName(col.Name)[0]
				if len(first) >= 4 && prev[:4] == first[:4] && !own[strings.ToLower(e.Name+"."+col.Name)] {
					return e.Name + "." + col.Name
				}
			}
		}
	}
	return ""
}

// rawDate reports whether a grouping is a date or time column taken as it
// is, with no grain.
func (c *cover) rawDate(name string) bool {
	f, err := c.m.ResolveField(name)
	if err != nil {
		return false
	}
	return f.Kind == semantic.FieldColumn && f.Column.Temporal() || f.Kind == semantic.FieldDimension && f.Dimension.Type == "time"
}
