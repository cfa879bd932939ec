package narrate

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// Series and compared periods: the change they state, read only between
// whole periods (verify's partial_period).

func (w writer) trend(d, m column) (string, string) {
	ps := w.points(d, m)
	subj := w.subject(w.metricTitle(m))
	if len(ps) == 0 {
		return subj + ": " + humanize(m.Name) + " is NULL in every row.", ""
	}
	first, last := ps[0], ps[len(ps)-1]
	if len(ps) == 1 {
		return subj + " was **" + first.text + "** in " + first.label + ".", ""
	}
	// A period that holds only part of its days (cut by the period asked
	// for, or not over yet) is shown, but neither the change nor a peak
	// or low is read from it: its figure is part of one.
	cut := w.partial(d)
	var whole []point
	for _, p := range ps {
		if !cut(p) {
			whole = append(whole, p)
		}
	}
	s := subj + " went from **" + first.text + "** in " + first.label + " to **" + last.text + "** in " + last.label
	if cut(last) && w.unfinished() {
		s += ", which is not over yet"
	}
	if len(whole) == 0 {
		return s + ".", ""
	}
	hi, lo := whole[0], whole[0]
	for _, p := range whole[1:] {
		if p.value > hi.value {
			hi = p
		}
		if p.value < lo.value {
			lo = p
		}
	}
	a, b := whole[0], whole[len(whole)-1]
	var extremes []string
	if hi.value > math.Max(a.value, b.value) {
		extremes = append(extremes, "the peak was **"+hi.text+"** in "+hi.label)
	}
	gaps := w.gaps(d, ps)
	if lo.value < math.Min(a.value, b.value) && len(whole) == len(ps) && len(gaps) == 0 {
		extremes = append(extremes, "the low was **"+lo.text+"** in "+lo.label)
	}
	if len(extremes) > 0 {
		s += "; " + joinWords(extremes)
	}
	s += "."
	if len(gaps) > 0 {
		// A period with no rows is no row of the result: its figure is
		// none, not the lowest shown (found from outside: "the low was
		// 103 in 2025-05" of a series without February).
		s += " " + gapText(gaps) + " " + map[bool]string{true: "has", false: "have"}[len(gaps) == 1] + " no rows, so " + map[bool]string{true: "it is", false: "they are"}[len(gaps) == 1] + " not in the series."
	}
	if len(whole) == len(ps) {
		return s, w.change(first.value, last.value, m, "first and last "+periodNoun(d))
	}
	var parts []string
	for _, p := range ps {
		if cut(p) {
			parts = append(parts, p.label)
		}
	}
	noun := periodNoun(d)
	s += " " + joinWords(parts) + " " + map[bool]string{true: "holds", false: "hold"}[len(parts) == 1] + " only part of " + map[bool]string{true: "a " + noun, false: "their " + noun + "s"}[len(parts) == 1]
	if len(whole) < 2 {
		return s + ", so no change is given.", ""
	}
	s += ", so the change leaves " + map[bool]string{true: "it", false: "them"}[len(parts) == 1] + " out."
	return s, w.change(a.value, b.value, m, "first and last whole "+noun+"s ("+a.label+" and "+b.label+")")
}

// gaps are the periods between a series' first and last that it has no
// row for, written as its labels are (at most maxGaps and then how many
// more); none for a grouping that is no grain of time.
func (w writer) gaps(d column, ps []point) []string {
	g := semantic.Grain(d.Grain)
	switch g {
	case semantic.GrainDay, semantic.GrainWeek, semantic.GrainMonth, semantic.GrainQuarter, semantic.GrainYear:
	default:
		return nil
	}
	seen := map[time.Time]bool{}
	var first, last time.Time
	for i, p := range ps {
		day, ok := verify.DayOf(p.cell)
		if !ok {
			return nil
		}
		start := g.Start(day)
		seen[start] = true
		if i == 0 || start.Before(first) {
			first = start
		}
		if i == 0 || start.After(last) {
			last = start
		}
	}
	var out []string
	n := 0
	for t := first; t.Before(last) && n < 1000; t = g.Add(t, 1) {
		n++
		if seen[t] {
			continue
		}
		label, ok := dateLabel(t, string(g))
		if !ok {
			return nil
		}
		out = append(out, label)
	}
	if len(out) > maxGaps {
		out = append(out[:maxGaps], fmt.Sprintf("%d more", len(out)-maxGaps))
	}
	return out
}

// maxGaps bounds the empty periods a series' sentence names.
const maxGaps = 6

// gapText joins the empty periods' labels.
func gapText(gaps []string) string { return joinWords(gaps) }

// partial tells the periods of a series that hold only part of their
// days, by the partial_period warnings (verify.PartialDays).
func (w writer) partial(d column) func(point) bool {
	days := verify.PartialDays(w.in.Report.Checks)
	g := semantic.Grain(d.Grain)
	return func(p point) bool {
		day, ok := verify.DayOf(p.cell)
		if !ok || g == "" {
			return false
		}
		for _, x := range days {
			if g.Start(x).Equal(g.Start(day)) {
				return true
			}
		}
		return false
	}
}

// unfinished reports whether the checks found that the answer's last
// period is not over (verify's partial_period).
func (w writer) unfinished() bool {
	for _, c := range w.in.Report.Checks {
		if c.Name == verify.CheckPartial && c.Status == verify.Warn && strings.Contains(c.Detail, "not over") {
			return true
		}
	}
	return false
}

func periodNoun(d column) string {
	if d.Grain != "" {
		return d.Grain
	}
	return "period"
}

func (w writer) compare(d, m column) (string, string) {
	ps := w.points(d, m)
	subj := w.metricTitle(m)
	if len(ps) == 0 {
		return subj + ": " + humanize(m.Name) + " is NULL in every row.", ""
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = "**" + p.text + "** " + periodPhrase(p.label)
	}
	s := subj + " was " + joinWords(parts) + "."
	if rd := w.in.Reading; rd != nil && len(rd.Measures) == 1 && isCount(rd.Measures[0].How) {
		// A count: "1,640 orders in April 2026 and 2,201 in May 2026".
		parts[0] = "**" + ps[0].text + "** " + lowerFirst(subj) + " " + periodPhrase(ps[0].label)
		s = joinWords(parts) + "."
	}
	if len(ps) < 2 {
		return s, ""
	}
	if w.uneven() {
		// A period cut at the as-of day against a whole one: the
		// difference would be mostly the missing days.
		return s + " The periods differ in length, so no change between them is given.", ""
	}
	if cut := verify.CutCompared(w.in.Report.Checks); len(cut) > 0 {
		// A period that starts before the data holds only part of its
		// days: the change is read between the whole ones, if two are.
		var whole []point
		for _, p := range ps {
			if !slices.Contains(cut, p.label) {
				whole = append(whole, p)
			}
		}
		s += " " + joinWords(cut) + " " + map[bool]string{true: "starts", false: "start"}[len(cut) == 1] + " before the data does, so its figure holds only part of its days"
		if len(whole) < 2 {
			return s + "; no change is given.", ""
		}
		a, b := whole[0], whole[len(whole)-1]
		return s + "; the change is given between " + a.label + " and " + b.label + ".", w.change(a.value, b.value, m, a.label+" and "+b.label)
	}
	return s, w.change(ps[0].value, ps[len(ps)-1].value, m, ps[0].label+" and "+ps[len(ps)-1].label)
}

// uneven reports whether the checks found the compared periods of
// unequal length (verify's partial_period, but for a period that starts
// before the data, which compare leaves out of the change).
func (w writer) uneven() bool {
	for _, c := range w.in.Report.Checks {
		if c.Name == verify.CheckPartial && c.Status == verify.Warn && len(verify.CutCompared([]verify.Check{c})) == 0 && !verify.LengthFreeCompare(c) {
			return true
		}
	}
	return false
}
