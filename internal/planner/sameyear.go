package planner

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner/dates"
	"github.com/quarrydata/quarry/internal/semantic"
)

// sameOfYear reads a comparison of a period shorter than a year with a
// year as the same period of that year: "revenue this month compared to
// last year" is June 2026 against June 2025, not against all of 2025
// (found from outside: the month was set beside the whole year);
// "revenue in May compared to 2025" is May 2025; "Q1 revenue 2025 vs
// 2026", a quarter named without a year before two years, is Q1 of each.
// The period comes first and every other one is a whole year, named
// ("2025") or one before it ("last year", "the previous year", "a year
// ago"); "this year vs last year" and "2025 vs Q1 2026" are read as they
// are written, and "last year's average" is not a year of its own.
// Where a period of the comparison holds the as-of day, each is cut to
// the same days.
func (b *builder) sameOfYear() *Plan {
	st := b.st
	if !st.compare && !st.growth || len(st.dates) < 2 || len(st.grains) > 0 || st.trend {
		return nil
	}
	base := st.dates[0]
	if !dates.Shorter(base) || base.End > len(st.raw) {
		return nil
	}
	from, err := time.Parse("2006-01-02", base.From)
	if err != nil {
		return nil
	}
	type target struct {
		years int    // how many years from base
		when  string // "last year", "a year earlier", "" for a named year
		text  string // as written
	}
	var ts []target
	for _, r := range st.dates[1:] {
		text, rel, y, ok := yearPhrase(st.raw, r)
		if !ok {
			return nil
		}
		t := target{text: text}
		if rel {
			t.years, t.when = -1, "a year earlier"
			if from.Year()-1 == st.asOf.Year()-1 {
				t.when = "last year"
			}
		} else {
			t.years = y - from.Year()
		}
		ts = append(ts, t)
	}
	// "Q1 revenue 2025 vs 2026": the quarter names no year of its own,
	// so it is Q1 of each year, not a third period.
	template := len(ts) > 1 && dates.BareName(st.raw[base.Start:base.End])
	// A period that holds the as-of day ends with it: so does each of
	// the others, on the same day of its year.
	day, next := st.asOf.Format("2006-01-02"), st.asOf.AddDate(0, 0, 1).Format("2006-01-02")
	for _, t := range append([]target{{}}, ts...) {
		e, ok := dates.Shift(base, t.years)
		if !ok {
			return nil
		}
		if e.From <= day && day < e.To && next < e.To {
			if cut, ok := dates.Shift(dates.Range{From: e.From, To: next, Grain: e.Grain}, -t.years); ok && cut.To < base.To {
				base.To = cut.To
				if t.years != 0 {
					// "June 2025 vs 2026" on June 15th: the same days
					// of each June.
					b.und("%s cut to %s, the days of %s so far", base.Label, cut.Label, e.Label)
					base.Label = cut.Label
				}
			}
		}
	}
	var out []dates.Range
	var pos []int
	if !template {
		out, pos = append(out, base), append(pos, st.datePos[0])
	}
	for i, t := range ts {
		e, ok := dates.Shift(base, t.years)
		if !ok {
			return nil
		}
		if e.From > day {
			return b.fail(fmt.Sprintf("quarry reads %q after %q as %s, which has not started on %s; ask for periods up to today", t.text, st.raw[base.Start:base.End], e.Label, day))
		}
		switch {
		case t.years == 0:
			e = base
		case t.when != "":
			e.Label = dates.SameLabel(base, e, t.when)
		case !template:
			e.Label = dates.SameLabel(base, e, "in "+strconv.Itoa(from.Year()+t.years))
		}
		e.Start, e.End = st.dates[i+1].Start, st.dates[i+1].End
		dup := false
		for _, o := range out {
			dup = dup || o.From == e.From && o.To == e.To
		}
		if dup {
			continue
		}
		out, pos = append(out, e), append(pos, st.datePos[i+1])
		b.und("read %q after %q as %s", t.text, st.raw[base.Start:base.End], e.Label)
	}
	st.dates, st.datePos = out, pos
	return nil
}

// yearPhrase reads the date phrase r of raw as a whole year the question
// names: a year written out ("2025": rel false, y 2025) or the one before
// ("last year", "the previous year", "a year ago": rel true). A year
// named with a possessive ("last year's average") is not one.
func yearPhrase(raw string, r dates.Range) (text string, rel bool, y int, ok bool) {
	if r.Grain != "year" || r.Start < 0 || r.End > len(raw) || r.Start >= r.End {
		return "", false, 0, false
	}
	text = raw[r.Start:r.End]
	rest := raw[r.End:]
	if strings.HasPrefix(rest, "'s") || strings.HasPrefix(rest, "’s") || strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, "’") {
		return "", false, 0, false
	}
	// "all of last year", "the whole of 2025", "the full year": the
	// year itself, as said (found from outside: it was shifted too).
	before := strings.Fields(strings.ToLower(raw[:r.Start]))
	if n := len(before); n > 0 && (before[n-1] == "all" || before[n-1] == "whole" || before[n-1] == "entire" || before[n-1] == "full" ||
		before[n-1] == "of" && n > 1 && (before[n-2] == "all" || before[n-2] == "whole" || before[n-2] == "entirety")) {
		return "", false, 0, false
	}
	w := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	w = strings.TrimPrefix(w, "the ")
	for _, all := range []string{"whole ", "entire ", "full "} {
		if strings.HasPrefix(w, all) {
			return "", false, 0, false
		}
	}
	switch w {
	case "last year", "previous year", "prior year", "a year ago", "one year ago", "1 year ago":
		return text, true, 0, dates.Whole(r)
	}
	if n, err := strconv.Atoi(w); err == nil && len(w) == 4 && strings.HasPrefix(r.From, w+"-01-01") {
		return text, false, n, true
	}
	return "", false, 0, false
}

// lengthFree reports whether every measure of the query is an average or
// a ratio (semantic.Model.Intensive, ad-hoc metrics included), whose
// figures over periods of different lengths still compare: "aov growth
// this year vs last year" is answered, "revenue growth this year vs last
// year" is not.
func (b *builder) lengthFree() bool {
	if len(b.q.Metrics) == 0 {
		return false
	}
	m := b.p.m
	if len(b.adhoc) > 0 {
		c := *b.p.m
		c.Metrics = append(append([]semantic.Metric{}, b.p.m.Metrics...), b.adhoc...)
		m = &c
	}
	for _, name := range b.q.Metrics {
		if !m.Intensive(name) {
			return false
		}
	}
	return true
}
