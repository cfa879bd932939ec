// Package dates reads relative and absolute date phrases ("last month",
// "Q3 2024", "between March 2025 and May 2025", "since 2024") out of a
// question and turns them into half-open date ranges [From, To) against a
// given today (asOf). It is pure: today is always passed in.
//
// Conventions (documented for users in docs/planner.md):
//
//   - Weeks start on Monday.
//   - "this week/month/quarter/year" is the whole calendar period that
//     contains asOf.
//   - "last/previous/past/prior month" (and week, quarter, year) is the
//     previous complete calendar period: on 2026-06-30 "last month" is May 2026.
//   - "last N days/weeks/months/quarters/years" is the N complete periods
//     before the current one; today and the current period are excluded
//     because they are not over yet. On 2026-06-30 "last 30 days" is
//     2026-05-31 – 2026-06-29 and "last 3 months" is March–May 2026.
//   - "year to date", "month to date", "quarter to date" and "week to date"
//     run from the start of the period up to and including asOf.
//   - "since X" and "after X" run up to and including asOf.
//   - A month or quarter named without a year ("in March", "Q1") is the
//     latest one that has started on or before asOf.
package dates

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Range is a date phrase found in a text: the half-open range [From, To) as
// "YYYY-MM-DD" strings (an empty bound is open), a human label, the grain of
// the period it names ("day", "week", "month", "quarter", "year" or "" for a
// span of several periods) and the byte span [Start, End) of the text it
// consumed.
type Range struct {
	From  string
	To    string
	Label string
	Grain string
	Start int
	End   int
	// Cut is the period's own end where the planner ended it with the
	// as-of day ("this month" on the 1st); "" where it did not.
	Cut string
}

// Days returns the number of days in the range, or 0 when a bound is open.
func (r Range) Days() int {
	f, err1 := time.Parse(layout, r.From)
	t, err2 := time.Parse(layout, r.To)
	if err1 != nil || err2 != nil {
		return 0
	}
	return int(t.Sub(f).Hours() / 24)
}

const layout = "2006-01-02"

// token is a lower-cased word of the text with its byte span.
type token struct {
	s          string
	start, end int
}

// tokenize splits s into words of ASCII letters and digits; '-' and '/'
// between digits stay inside a word (ISO dates), "'s" is dropped. Offsets
// refer to s.
func tokenize(s string) []token {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		if !isAlnum(c) {
			i++
			continue
		}
		j := i
		for j < len(s) {
			c := s[j]
			if isAlnum(c) {
				j++
				continue
			}
			if (c == '-' || c == '/') && j+1 < len(s) && isDigit(s[j+1]) && isDigit(s[j-1]) {
				j++
				continue
			}
			break
		}
		toks = append(toks, token{s: strings.ToLower(s[i:j]), start: i, end: j})
		// Drop a possessive "'s".
		if j+1 < len(s) && (s[j] == '\'') && (s[j+1] == 's' || s[j+1] == 'S') && (j+2 == len(s) || !isAlnum(s[j+2])) {
			j += 2
		}
		i = j
	}
	return toks
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// Find returns the first date phrase in s (the longest one starting at the
// earliest position).
func Find(s string, asOf time.Time) (Range, bool) {
	all := FindAll(s, asOf)
	if len(all) == 0 {
		return Range{}, false
	}
	return all[0], true
}

// FindAll returns every non-overlapping date phrase in s, left to right,
// taking the longest phrase at each position.
func FindAll(s string, asOf time.Time) []Range {
	p := parser{toks: tokenize(s), today: day(asOf), raw: s}
	var out []Range
	var bares []bool // whether each named months or quarters with no year
	for i := 0; i < len(p.toks); {
		if n := p.sameLastYear(i); n > 0 && len(out) > 0 {
			// "revenue last month vs the same month last year": the
			// period before it, a year earlier.
			// A period that holds the as-of day ends with it (as the
			// planner reads it), and so does the same period a year
			// earlier: like for like.
			if r, ok := yearEarlier(p.cutAt(out[len(out)-1])); ok {
				r.Start, r.End = p.toks[i].start, p.toks[i+n-1].end
				out, bares = append(out, r), append(bares, false)
				i += n
				continue
			}
		}
		if n := p.unitBefore(i); n > 0 && len(out) > 0 {
			// "revenue last quarter vs the quarter before": the whole
			// period of the same length just before it.
			if r, ok := periodBefore(out[len(out)-1], p.tok(i+n-2)); ok {
				r.Start, r.End = p.toks[i].start, p.toks[i+n-1].end
				out, bares = append(out, r), append(bares, false)
				i += n
				continue
			}
			// "revenue in June vs the year before": a period shorter
			// than a year, a year earlier (the year before June is no
			// one period).
			if prev := out[len(out)-1]; p.tok(i+n-2) == "year" && shorter(prev) {
				if r, ok := Shift(p.cutAt(prev), -1); ok {
					r.Label = SameLabel(prev, r, "the year before")
					r.Start, r.End = p.toks[i].start, p.toks[i+n-1].end
					out, bares = append(out, r), append(bares, false)
					i += n
					continue
				}
			}
		}
		r, n := p.longest(i)
		if n == 0 {
			i++
			continue
		}
		// "revenue last 7 days vs the previous 7 days": the same span
		// read twice is the second one's span just before the first.
		if len(out) > 0 && lastWords[p.tok(i)] && p.tok(i) != "last" && out[len(out)-1].From == r.From && out[len(out)-1].To == r.To {
			if b, ok := spanBefore(r); ok {
				r = b
			}
		}
		// "this month last year", "ytd last year", "May a year ago": the
		// period a year earlier (found from outside: compared with all of
		// last year).
		// Only a period named relative to today: "December last year" is
		// last year's December, which the month name and "last year" name
		// on their own (and overlap, which the planner refuses).
		if k := p.yearAgo(i + n); k > 0 && r.Grain != "year" && p.relativeAt(i, n) {
			if e, ok := yearEarlier(r); ok {
				e.Label = r.Label + ", a year earlier"
				r, n = e, n+k
			}
		}
		// "Q3 last year", "March last year", "June this year": a month or
		// quarter named without a year is the one of that year, not the
		// latest one set beside the whole year (found from outside:
		// "revenue in March last year" compared March 2026 with 2025).
		bare := p.namesNoYear(i, n)
		if y, k := p.ofYear(i + n); k > 0 && p.bare(i, n, r) {
			if e, ok := inYear(r, y); ok && e.From <= p.today.Format(layout) {
				r, n = e, n+k
				p.sameYear(out, bares, i, y)
			}
		} else if k > 0 && bare {
			// "from January to March last year", "since March last
			// year": the months of that year (found from outside: the
			// months of this year compared with all of last year).
			if e, ok := p.toYear(r, y); ok {
				r, n = e, n+k
				p.sameYear(out, bares, i, y)
			}
		}
		r.Start = p.toks[i].start
		r.End = p.toks[i+n-1].end
		out = append(out, r)
		bares = append(bares, bare)
		i += n
	}
	return out
}

// namesNoYear reports whether the n words at i name months or quarters
// with no year and nothing relative to today ("March", "from January to
// March", "since Q2"; not "last March", "March 2025").
func (p *parser) namesNoYear(i, n int) bool {
	if p.yearSaid(i, n) {
		return false
	}
	named := false
	for k := i; k < i+n; k++ {
		switch w := p.tok(k); {
		case w == "last" || w == "this" || w == "next" || w == "ago" || w == "previous" || w == "past" || w == "current" || w == "today" || w == "yesterday":
			return false
		default:
			_, month := months[w]
			_, quarter := quarterTok(w)
			named = named || month || quarter
		}
	}
	return named
}

// sameYear moves into year y the period before the one at word i, where
// it named months or quarters with no year and only a comparison's
// words stand between them: "Q1 vs Q2 last year" is Q1 and Q2 of last
// year (found from outside: Q2 2025 compared with Q1 2026).
func (p *parser) sameYear(out []Range, bares []bool, i, y int) {
	if len(out) == 0 || !bares[len(out)-1] {
		return
	}
	prev := out[len(out)-1]
	for _, w := range strings.Fields(strings.ToLower(p.raw[prev.End:p.toks[i].start])) {
		switch strings.Trim(w, ",.;:") {
		case "vs", "versus", "v", "and", "or", "compared", "to", "with", "against", "":
		default:
			return
		}
	}
	if e, ok := p.toYear(prev, y); ok {
		e.Start, e.End = prev.Start, prev.End
		out[len(out)-1] = e
	}
}

// toYear is r, a period of months or quarters read as the latest one,
// moved by whole years so that it starts in year y; an open end (up to
// today) stays. False where it would start after today.
func (p *parser) toYear(r Range, y int) (Range, bool) {
	from, err := time.Parse(layout, r.From)
	if err != nil {
		return Range{}, false
	}
	d := y - from.Year()
	if d == 0 {
		return r, true
	}
	out := r
	out.From = from.AddDate(d, 0, 0).Format(layout)
	if r.To != p.today.AddDate(0, 0, 1).Format(layout) {
		to, err := time.Parse(layout, r.To)
		if err != nil {
			return Range{}, false
		}
		out.To = to.AddDate(d, 0, 0).Format(layout)
		out.Label = strings.ReplaceAll(r.Label, strconv.Itoa(to.AddDate(0, 0, -1).Year()), strconv.Itoa(to.AddDate(d, 0, -1).Year()))
	}
	out.Label = strings.ReplaceAll(out.Label, strconv.Itoa(from.Year()), strconv.Itoa(y))
	if out.From > p.today.Format(layout) {
		return Range{}, false
	}
	return out, true
}

// ofYear reads "last year", "a year ago" or "this year" at i, after a
// month or quarter named without a year, and returns the year it names
// and how many words it took, or 0.
func (p *parser) ofYear(i int) (int, int) {
	if k := p.yearAgo(i); k > 0 {
		return p.today.Year() - 1, k
	}
	if (p.tok(i) == "this" || p.tok(i) == "current") && p.tok(i+1) == "year" {
		return p.today.Year(), 2
	}
	return 0, 0
}

// bare reports whether the n words at i are one month name or quarter
// ("March", "Q3") with no year: r is then the latest one that has started.
func (p *parser) bare(i, n int, r Range) bool {
	if n != 1 || (r.Grain != "month" && r.Grain != "quarter") {
		return false
	}
	_, month := months[p.tok(i)]
	_, quarter := quarterTok(p.tok(i))
	return month || quarter
}

// yearSaid reports whether the n words at i name a year (2025, FY25 is
// not read so).
func (p *parser) yearSaid(i, n int) bool {
	for k := i; k < i+n; k++ {
		if _, ok := year(p.tok(k)); ok {
			return true
		}
	}
	return false
}

// yearsBack is r moved back by whole years, as few as put its start
// before end; r itself when two years back do not.
func yearsBack(r Range, end string) Range {
	from, err1 := time.Parse(layout, r.From)
	to, err2 := time.Parse(layout, r.To)
	if err1 != nil || err2 != nil {
		return r
	}
	for k := 1; k <= 2; k++ {
		f := from.AddDate(-k, 0, 0)
		if f.Format(layout) < end {
			out := r
			out.From, out.To = f.Format(layout), to.AddDate(-k, 0, 0).Format(layout)
			out.Label = strings.ReplaceAll(r.Label, strconv.Itoa(from.Year()), strconv.Itoa(f.Year()))
			return out
		}
	}
	return r
}

// inYear is the month or quarter r in year y.
func inYear(r Range, y int) (Range, bool) {
	from, err := time.Parse(layout, r.From)
	if err != nil {
		return Range{}, false
	}
	s := time.Date(y, from.Month(), 1, 0, 0, 0, 0, time.UTC)
	if r.Grain == "quarter" {
		return Range{From: s.Format(layout), To: s.AddDate(0, 3, 0).Format(layout), Label: fmt.Sprintf("Q%d %d", (int(s.Month())-1)/3+1, y), Grain: "quarter"}, true
	}
	return Range{From: s.Format(layout), To: s.AddDate(0, 1, 0).Format(layout), Label: s.Format("January 2006"), Grain: "month"}, true
}

// Parse reads s as exactly one date phrase (surrounding "in", "on",
// "during", "for" and "the" are allowed).
func Parse(s string, asOf time.Time) (Range, error) {
	p := parser{toks: tokenize(s), today: day(asOf), raw: s}
	i := 0
	for i < len(p.toks) && fillers[p.toks[i].s] && p.tok(i+1) != "or" {
		i++
	}
	r, n := p.longest(i)
	if n == 0 || i+n != len(p.toks) {
		return Range{}, fmt.Errorf("%q is not a date phrase quarry knows", s)
	}
	r.Start, r.End = p.toks[i].start, p.toks[i+n-1].end
	return r, nil
}

// sameLastYear reads "same month last year", "same period a year ago",
// "same time last year" at i, and returns how many words it took, or 0.
func (p *parser) sameLastYear(i int) int {
	if p.tok(i) != "same" {
		return 0
	}
	switch p.tok(i + 1) {
	case "day", "week", "month", "quarter", "period", "time", "days", "weeks", "months":
	default:
		return 0
	}
	switch {
	case p.tok(i+2) == "last" && p.tok(i+3) == "year":
		return 4
	case (p.tok(i+2) == "a" || p.tok(i+2) == "one") && p.tok(i+3) == "year" && p.tok(i+4) == "ago":
		return 5
	case p.tok(i+2) == "the" && p.tok(i+3) == "year" && p.tok(i+4) == "before":
		return 5
	}
	return 0
}

// unitBefore reads "the quarter before" (day, week, month, quarter, year;
// "the" optional) at i, and returns how many words it took, or 0.
func (p *parser) unitBefore(i int) int {
	k := i
	if p.tok(k) == "the" {
		k++
	}
	switch p.tok(k) {
	case "day", "week", "month", "quarter", "year":
	default:
		return 0
	}
	if p.tok(k+1) != "before" {
		return 0
	}
	return k + 2 - i
}

// Before is the whole period just before r, of r's own grain, when r is
// one whole period of it (or one cut at the as-of day): "last quarter"
// (Q1 2026) gives Q4 2025. It reports false for a span of several periods.
func Before(r Range) (Range, bool) {
	if r.Grain == "" {
		return Range{}, false
	}
	return periodBefore(r, r.Grain)
}

// Whole reports whether r is one whole calendar period of its grain: not
// cut at the as-of day, nor a span of several.
func Whole(r Range) bool {
	from, err1 := time.Parse(layout, r.From)
	to, err2 := time.Parse(layout, r.To)
	if err1 != nil || err2 != nil || r.Grain == "" || !start(from, r.Grain).Equal(from) {
		return false
	}
	return add(from, r.Grain, 1).Equal(to)
}

// periodBefore is the whole period of grain unit just before r, when r is
// one whole period of that grain ("last quarter": Q1 2026, so Q4 2025);
// it reports false otherwise ("the quarter before" 2025 or a day range
// says no one period).
func periodBefore(r Range, unit string) (Range, bool) {
	from, err1 := time.Parse(layout, r.From)
	to, err2 := time.Parse(layout, r.To)
	if err1 != nil || err2 != nil || r.Grain != unit {
		return Range{}, false
	}
	var prev time.Time
	switch unit {
	case "day":
		prev = from.AddDate(0, 0, -1)
	case "week":
		prev = from.AddDate(0, 0, -7)
	case "month":
		prev = from.AddDate(0, -1, 0)
	case "quarter":
		prev = from.AddDate(0, -3, 0)
	case "year":
		prev = from.AddDate(-1, 0, 0)
	}
	// r must be one whole period: the period after prev ends where r does
	// (or r is cut at the as-of day, within it).
	var next time.Time
	switch unit {
	case "day":
		next = from.AddDate(0, 0, 1)
	case "week":
		next = from.AddDate(0, 0, 7)
	case "month":
		next = from.AddDate(0, 1, 0)
	case "quarter":
		next = from.AddDate(0, 3, 0)
	case "year":
		next = from.AddDate(1, 0, 0)
	}
	if to.After(next) || !to.After(from) {
		return Range{}, false
	}
	var label string
	switch unit {
	case "day":
		label = prev.Format(layout)
	case "week":
		label = "week of " + prev.Format(layout)
	case "month":
		label = prev.Format("January 2006")
	case "quarter":
		label = fmt.Sprintf("Q%d %d", (int(prev.Month())-1)/3+1, prev.Year())
	case "year":
		label = prev.Format("2006")
	}
	return Range{From: prev.Format(layout), To: from.Format(layout), Label: "the " + unit + " before (" + label + ")", Grain: unit}, true
}

// spanBefore is the span of r's length just before it: whole months
// (quarters, years) by the calendar, else by days; labelled with its
// days.
func spanBefore(r Range) (Range, bool) {
	from, err1 := time.Parse(layout, r.From)
	to, err2 := time.Parse(layout, r.To)
	if err1 != nil || err2 != nil || !to.After(from) {
		return Range{}, false
	}
	var prev time.Time
	if from.Day() == 1 && to.Day() == 1 {
		months := (to.Year()-from.Year())*12 + int(to.Month()-from.Month())
		prev = from.AddDate(0, -months, 0)
	} else {
		prev = from.AddDate(0, 0, -int(to.Sub(from).Hours()/24))
	}
	return Range{From: prev.Format(layout), To: r.From, Label: fmt.Sprintf("the period before (%s – %s)", prev.Format(layout), from.AddDate(0, 0, -1).Format(layout))}, true
}

// relativeAt reports whether the n words at i name a period relative to
// today: "this month", "last quarter", "ytd", "month to date".
func (p *parser) relativeAt(i, n int) bool {
	switch p.tok(i) {
	case "this", "last", "previous", "prior", "past", "current", "ytd", "mtd", "qtd", "wtd", "next", "coming", "upcoming":
		return true
	}
	for k := i; k < i+n; k++ {
		if p.tok(k) == "date" && p.tok(k-1) == "to" {
			return true
		}
	}
	return false
}

// yearAgo reads "last year", "a year ago" or "one year ago" at i after a
// period, and returns how many words it took, or 0.
func (p *parser) yearAgo(i int) int {
	switch {
	case p.tok(i) == "last" && p.tok(i+1) == "year":
		return 2
	case (p.tok(i) == "a" || p.tok(i) == "one") && p.tok(i+1) == "year" && p.tok(i+2) == "ago":
		return 3
	}
	return 0
}

// yearEarlier is r a year earlier: by 52 weeks for a week, so that the
// weekdays line up, else by a calendar year.
func yearEarlier(r Range) (Range, bool) {
	e, ok := Shift(r, -1)
	if !ok {
		return Range{}, false
	}
	e.Label = "the same period a year earlier (" + e.Label + ")"
	return e, true
}

var fillers = map[string]bool{"in": true, "on": true, "during": true, "for": true, "the": true, "over": true}

type parser struct {
	toks  []token
	today time.Time
	raw   string // the text, as written
}

// capital reports whether token i is written with a capital letter.
func (p *parser) capital(i int) bool {
	if i < 0 || i >= len(p.toks) {
		return false
	}
	c := p.raw[p.toks[i].start]
	return c >= 'A' && c <= 'Z'
}

func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func (p *parser) tok(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].s
}

// longest tries every rule at i and keeps the longest match.
func (p *parser) longest(i int) (Range, int) {
	best, bestN := Range{}, 0
	for _, rule := range []func(int) (Range, int){p.compound, p.dashed, p.period} {
		if r, n := rule(i); n > bestN {
			best, bestN = r, n
		}
	}
	return best, bestN
}

// compound reads "between A and B", "from A to B", "since A", "after A",
// "before A", "until A", "in or before A", "on or after A", "prior to A",
// "no later than A".
func (p *parser) compound(i int) (Range, int) {
	w := p.tok(i)
	tomorrow := p.today.AddDate(0, 0, 1)
	switch w {
	case "between", "from":
		a, n := p.period(i + 1)
		if n == 0 {
			return Range{}, 0
		}
		sep := p.tok(i + 1 + n)
		ok := (w == "between" && sep == "and") || (w == "from" && (sep == "to" || sep == "through" || sep == "until" || sep == "till" || sep == "thru"))
		if !ok {
			// "from March 2025" alone names the period itself, as a
			// manager says it: "revenue from last year", "orders from
			// 2024" (read as "since" until an outside test showed those
			// answers covering the year after too).
			if w == "from" && a.From != "" && a.From < a.To {
				return a, 1 + n
			}
			return Range{}, 0
		}
		b, m := p.period(i + 2 + n)
		r, ok := p.joined(a, i+1, n, b, m)
		if !ok {
			return Range{}, 0
		}
		return r, 2 + n + m
	case "since", "after", "before", "until", "till", "through", "thru":
		if _, n := p.period(i + 1); n == 0 && p.tok(i+1) == "the" && (p.tok(i+2) == "start" || p.tok(i+2) == "beginning") && p.tok(i+3) == "of" {
			// "since the start of 2025", "before the beginning of Q2":
			// the day the period starts is the bound (found from outside:
			// not understood, though "since 2025" was).
			if a, n := p.period(i + 4); n > 0 && a.From != "" {
				end := tomorrow.Format(layout)
				switch w {
				case "since", "after":
					if a.From < end {
						return Range{From: a.From, To: end, Label: "since the start of " + a.Label}, 4 + n
					}
				case "before", "until", "till":
					return Range{To: a.From, Label: "before the start of " + a.Label}, 4 + n
				}
			}
		}
		a, n := p.period(i + 1)
		if n == 0 {
			return Range{}, 0
		}
		if w == "since" && a.To == tomorrow.Format(layout) {
			return a, 1 + n // "since the beginning of the year": that period to date
		}
		r := p.open(a, w, tomorrow)
		if r.From != "" && r.To != "" && r.From >= r.To {
			return Range{}, 0
		}
		return r, 1 + n
	case "end", "at", "by", "as":
		// "at the end of 2025", "by the end of last year", "as of the
		// end of Q1", "end of 2025": everything up to the period's end,
		// as "until" reads it (found from outside: "end" was read as a
		// subscription's end date).
		k := i
		for _, lead := range []string{"as", "of", "at", "by", "the"} {
			if p.tok(k) == lead && (lead != "of" || k > i) {
				k++
			}
		}
		if (p.tok(k) == "start" || p.tok(k) == "beginning") && p.tok(k+1) == "of" && w != "end" {
			// "at the start of the year", "as of the beginning of Q2":
			// the day the period starts, what was there by then (found
			// from outside: read as the year to date).
			j := k + 2
			if p.tok(j) == "the" || p.tok(j) == "this" {
				j++
			}
			from, what, n := "", "", 0
			if u, ok := units[p.tok(j)]; ok && u != "day" {
				s := start(p.today, u)
				from, what, n = s.Format(layout), name(s, u), 1
			} else if a, m := p.period(j); m > 0 && a.From != "" {
				from, what, n = a.From, a.Label, m
			} else {
				return Range{}, 0
			}
			return Range{To: from, Label: "at the start of " + what + " (" + from + ")"}, j - i + n
		}
		if p.tok(k) != "end" || p.tok(k+1) != "of" {
			return Range{}, 0
		}
		a, n := p.period(k + 2)
		if n == 0 || a.To == "" {
			return Range{}, 0
		}
		lead := "by the end of "
		if w == "at" {
			lead = "at the end of " // a day, as "at the start of"
		}
		return Range{To: a.To, Label: lead + a.Label}, k - i + 2 + n
	case "in", "on":
		// "in or before 2025", "on or after March 3": the period itself
		// and what lies on the one side of it.
		if p.tok(i+1) != "or" || p.tok(i+2) != "before" && p.tok(i+2) != "after" {
			return Range{}, 0
		}
		a, n := p.period(i + 3)
		if n == 0 || a.From == "" || a.To == "" {
			return Range{}, 0
		}
		if p.tok(i+2) == "before" {
			return Range{To: a.To, Label: w + " or before " + a.Label}, 3 + n
		}
		end := tomorrow.Format(layout)
		if a.From >= end {
			return Range{}, 0
		}
		return Range{From: a.From, To: end, Label: w + " or after " + a.Label}, 3 + n
	case "prior":
		if p.tok(i+1) != "to" {
			return Range{}, 0
		}
		a, n := p.period(i + 2)
		if n == 0 || a.From == "" {
			return Range{}, 0
		}
		return p.open(a, "before", tomorrow), 2 + n
	case "no":
		// "no later than 2025" is until its end, "no earlier than 2025"
		// since its start.
		if p.tok(i+2) != "than" || p.tok(i+1) != "later" && p.tok(i+1) != "earlier" {
			return Range{}, 0
		}
		a, n := p.period(i + 3)
		if n == 0 || a.From == "" || a.To == "" {
			return Range{}, 0
		}
		if p.tok(i+1) == "later" {
			return p.open(a, "until", tomorrow), 3 + n
		}
		if end := tomorrow.Format(layout); a.From < end {
			return p.open(a, "since", tomorrow), 3 + n
		}
		return Range{}, 0
	case "up":
		if p.tok(i+1) != "to" {
			return Range{}, 0
		}
		a, n := p.period(i + 2)
		if n == 0 {
			return Range{}, 0
		}
		return p.open(a, "until", tomorrow), 2 + n
	}
	return Range{}, 0
}

// joined is the range from a (the n words at i) to b (m words), or false
// where b does not end after a starts. A start said without a year takes
// the end's: "from January to March 2025" is January 2025 on, not the
// latest January (found from outside: March 2025 compared with January
// 2026).
func (p *parser) joined(a Range, i, n int, b Range, m int) (Range, bool) {
	if m > 0 && a.From != "" && b.To != "" && a.From >= b.To && !p.yearSaid(i, n) {
		a = yearsBack(a, b.To)
	}
	if m == 0 || a.From == "" || b.To == "" || a.From >= b.To {
		return Range{}, false
	}
	return Range{From: a.From, To: b.To, Label: a.Label + " – " + b.Label}, true
}

// dashed reads two periods joined by a dash, "Jan-Mar 2025", "Q1–Q2
// 2025", as the range from the first to the second.
func (p *parser) dashed(i int) (Range, int) {
	a, n := p.period(i)
	if n == 0 || i+n >= len(p.toks) {
		return Range{}, 0
	}
	switch strings.TrimSpace(p.raw[p.toks[i+n-1].end:p.toks[i+n].start]) {
	case "-", "–", "—":
	default:
		return Range{}, 0
	}
	b, m := p.period(i + n)
	r, ok := p.joined(a, i, n, b, m)
	if !ok {
		return Range{}, 0
	}
	return r, n + m
}

func (p *parser) open(a Range, w string, tomorrow time.Time) Range {
	end := tomorrow.Format(layout)
	switch w {
	case "since", "from":
		return Range{From: a.From, To: end, Label: "since " + a.Label}
	case "after":
		return Range{From: a.To, To: end, Label: "after " + a.Label}
	case "before":
		return Range{To: a.From, Label: "before " + a.Label}
	default: // until, till, through
		return Range{To: a.To, Label: "until " + a.Label}
	}
}

var units = map[string]string{
	"day": "day", "days": "day", "week": "week", "weeks": "week",
	"month": "month", "months": "month", "quarter": "quarter", "quarters": "quarter",
	"year": "year", "years": "year",
}

var lastWords = map[string]bool{"last": true, "previous": true, "past": true, "prior": true, "trailing": true, "preceding": true}

// period reads one period phrase starting at i.
func (p *parser) period(i int) (Range, int) {
	w := p.tok(i)
	if w == "" {
		return Range{}, 0
	}
	t := p.today
	switch w {
	case "today":
		return p.span(t, t.AddDate(0, 0, 1), "today", "day"), 1
	case "yesterday":
		return p.span(t.AddDate(0, 0, -1), t, "yesterday", "day"), 1
	case "ytd", "mtd", "qtd", "wtd":
		u := map[string]string{"ytd": "year", "mtd": "month", "qtd": "quarter", "wtd": "week"}[w]
		return p.toDate(u), 1
	case "so":
		// "so far this year"
		if p.tok(i+1) == "far" && p.tok(i+2) == "this" {
			if u, ok := units[p.tok(i+3)]; ok && u != "day" {
				return p.toDate(u), 4
			}
		}
	case "the":
		// "since the beginning of the year", "the start of this month":
		// the period holding today, to date.
		if (p.tok(i+1) == "beginning" || p.tok(i+1) == "start") && p.tok(i+2) == "of" {
			k := i + 3
			if p.tok(k) == "the" || p.tok(k) == "this" {
				k++
			}
			if u, ok := units[p.tok(k)]; ok && u != "day" {
				r := p.toDate(u)
				r.Label = "this " + u + " to date (" + r.From + " – " + p.today.Format(layout) + ")"
				return r, k - i + 1
			}
		}
	case "next", "coming", "upcoming":
		// "next month": the whole period after today's, as a date set
		// ahead (a renewal, an appointment) is asked of; of things that
		// have happened, the answer says the period starts after today.
		u, ok := units[p.tok(i+1)]
		if !ok || u == "day" {
			return Range{}, 0
		}
		s := add(start(t, u), u, 1)
		return p.span(s, add(s, u, 1), "next "+u+" ("+name(s, u)+")", u), 2
	case "this", "current":
		u, ok := units[p.tok(i+1)]
		if !ok || u == "day" {
			return Range{}, 0
		}
		if p.tok(i+2) == "so" && p.tok(i+3) == "far" {
			return p.toDate(u), 4
		}
		if p.tok(i+2) == "to" && p.tok(i+3) == "date" {
			return p.toDate(u), 4
		}
		s := start(t, u)
		r := p.span(s, add(s, u, 1), "this "+u+" ("+name(s, u)+")", u)
		return r, 2
	}
	if u := units[w]; u != "" && u != "day" && p.tok(i+1) == "before" && p.tok(i+2) == "last" {
		// "month before last", after a "the" read past
		s := add(start(t, u), u, -2)
		return p.span(s, add(s, u, 1), "the "+u+" before last ("+name(s, u)+")", u), 3
	}
	if units[w] != "" && p.tok(i+1) == "to" && p.tok(i+2) == "date" && w != "day" {
		return p.toDate(units[w]), 3
	}
	if lastWords[w] {
		if r, n := p.quarterWords(i); n > 0 { // "last quarter of 2024"
			return r, n
		}
		if u := units[p.tok(i+1)]; u != "" && u != "day" && p.tok(i+2) == "to" && p.tok(i+3) == "date" {
			// "last year to date": the same days of the period before,
			// like for like with "year to date".
			return p.toDateBefore(u), 4
		}
		j := i + 1
		if m, ok := months[p.tok(j)]; ok && p.tok(j) != "may" {
			// "last November": the latest November before this month.
			y := t.Year()
			if m >= t.Month() {
				y--
			}
			s := time.Date(y, m, 1, 0, 0, 0, 0, t.Location())
			return p.span(s, s.AddDate(0, 1, 0), w+" "+s.Format("January")+" ("+s.Format("January 2006")+")", "month"), 2
		}
		if u, ok := units[p.tok(j)]; ok && u == "year" && (w == "past" || w == "last" && p.tok(i-1) == "the") {
			// "the past year", "in the last year": the twelve months up
			// to this one, as "the last 12 months" (found from outside:
			// read as the calendar year before).
			end := start(t, "month")
			s := end.AddDate(-1, 0, 0)
			return p.span(s, end, fmt.Sprintf("the %s year (the last 12 months: %s – %s)", w, s.Format(layout), end.AddDate(0, 0, -1).Format(layout)), ""), 2
		}
		if u, ok := units[p.tok(j)]; ok {
			s := add(start(t, u), u, -1)
			return p.span(s, add(s, u, 1), w+" "+u+" ("+name(s, u)+")", u), 2
		}
		if n, ok := number(p.tok(j)); ok && n > 0 && n <= 1000 {
			if u, ok := units[p.tok(j+1)]; ok {
				end := start(t, u)
				s := add(end, u, -n)
				lbl := fmt.Sprintf("%s %d %s (%s – %s)", w, n, plural(n, u), s.Format(layout), end.AddDate(0, 0, -1).Format(layout))
				g := ""
				if n == 1 {
					g = u
				}
				return p.span(s, end, lbl, g), 3
			}
		}
		return Range{}, 0
	}
	// N units ago
	if n, ok := number(w); ok && n > 0 && n <= 1000 {
		if u, ok := units[p.tok(i+1)]; ok && p.tok(i+2) == "ago" {
			s := add(start(t, u), u, -n)
			return p.span(s, add(s, u, 1), fmt.Sprintf("%d %s ago (%s)", n, plural(n, u), name(s, u)), u), 3
		}
	}
	if r, n := p.absolute(i); n > 0 {
		return r, n
	}
	return Range{}, 0
}

func (p *parser) toDate(u string) Range {
	s := start(p.today, u)
	end := p.today.AddDate(0, 0, 1)
	return p.span(s, end, fmt.Sprintf("%s to date (%s – %s)", u, s.Format(layout), p.today.Format(layout)), "")
}

// toDateBefore is the period before the one holding today, from its
// start through the same day: "last year to date" on 2026-06-30 is
// 2025-01-01 – 2025-06-30. The last day of a month is the last day of
// the other's ("last quarter to date" on June 30th is all of Q1), and so
// is a day it does not have (March 30th in February).
func (p *parser) toDateBefore(u string) Range {
	s := add(start(p.today, u), u, -1)
	end := p.today.AddDate(0, 0, -6)
	if u != "week" {
		y, m, d := p.today.Date()
		first := add(time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), u, -1)
		last := first.AddDate(0, 1, -1).Day()
		if p.today.AddDate(0, 0, 1).Day() == 1 {
			d = last // the last day of a month: the last of the other
		}
		end = time.Date(first.Year(), first.Month(), min(d, last), 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1)
	}
	return p.span(s, end, fmt.Sprintf("the same days last %s (%s – %s)", u, s.Format(layout), end.AddDate(0, 0, -1).Format(layout)), "")
}

func (p *parser) span(from, to time.Time, label, grain string) Range {
	return Range{From: from.Format(layout), To: to.Format(layout), Label: label, Grain: grain}
}

// start returns the first day of the period of unit u containing t.
func start(t time.Time, u string) time.Time {
	y, m, d := t.Date()
	switch u {
	case "day":
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	case "week":
		wd := (int(t.Weekday()) + 6) % 7 // Monday = 0
		return time.Date(y, m, d-wd, 0, 0, 0, 0, time.UTC)
	case "month":
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	case "quarter":
		return time.Date(y, (m-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
	default:
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	}
}

// add moves t by n periods of unit u.
func add(t time.Time, u string, n int) time.Time {
	switch u {
	case "day":
		return t.AddDate(0, 0, n)
	case "week":
		return t.AddDate(0, 0, 7*n)
	case "month":
		return t.AddDate(0, n, 0)
	case "quarter":
		return t.AddDate(0, 3*n, 0)
	default:
		return t.AddDate(n, 0, 0)
	}
}

// name is the usual name of the period of unit u starting at s.
func name(s time.Time, u string) string {
	switch u {
	case "day":
		return s.Format(layout)
	case "week":
		return "week of " + s.Format(layout)
	case "month":
		return s.Format("January 2006")
	case "quarter":
		return fmt.Sprintf("Q%d %d", (int(s.Month())-1)/3+1, s.Year())
	default:
		return strconv.Itoa(s.Year())
	}
}

var numberWords = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
	"thirty": 30, "sixty": 60, "ninety": 90,
}

// number reads a small count written in digits or words.
func number(s string) (int, bool) {
	if n, ok := numberWords[s]; ok {
		return n, true
	}
	if s == "" || len(s) > 6 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

func plural(n int, u string) string {
	if n == 1 {
		return u
	}
	return u + "s"
}
