package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Durations: how long rows last, from the date each starts to the date
// it ends ("average subscription length", "how long do subscriptions
// last", "average time to resolve tickets", "average resolution time in
// hours"). The rest of the question is planned as a count of the rows
// ("subscriptions by plan in 2025"), and the count is swapped for the
// average of days_between(start, end), which the compiler renders in
// each engine's SQL. Only the rows that have ended are averaged, and the
// reading says so; a table with no end, or several ends the words do not
// choose between, is refused, and a duration is never added up.

// durationNoun reports whether w names how long a row lasts.
func durationNoun(w string) bool {
	switch w {
	case "length", "duration", "lifetime", "lifespan", "stay", "stays":
		return true
	}
	return false
}

// durationFiller reports whether w is a word of the question's frame
// around a duration, dropped before the rest is planned.
func durationFiller(w string) bool {
	switch w {
	case "what", "whats", "s", "is", "was", "are", "were", "the", "a", "an", "our", "do", "does", "did", "it", "on",
		"last", "lasts", "lasted", "take", "takes", "took", "stay", "stays", "stayed", "run", "runs", "ran":
		return true
	}
	return false
}

// durationAsked plans a question refused for asking how long rows last;
// nil where it asks no such thing.
func (p *Planner) durationAsked(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered {
		return nil
	}
	toks := tokenize(question)
	drop := make([]bool, len(toks))
	avg, asked, howLong := false, false, false
	hint, unit := "", "days"
	var lasting []string
	for i, t := range toks {
		switch {
		case t.s == "average" || t.s == "avg" || t.s == "mean" || t.s == "typical" || t.s == "typically" || t.s == "usually":
			avg, drop[i] = true, true
		case durationNoun(t.s):
			asked, drop[i] = true, true
			// The table whose rows last: named right before the noun
			// ("loan duration") or after its "of" ("length of loans").
			if i > 0 {
				lasting = append(lasting, toks[i-1].s)
			}
			if i+2 < len(toks) && toks[i+1].s == "of" {
				lasting = append(lasting, toks[i+2].s)
			}
		case t.s == "long" && i > 0 && toks[i-1].s == "how":
			asked, howLong, drop[i-1], drop[i] = true, true, true, true
		case t.s == "time" && i+2 < len(toks) && toks[i+1].s == "to":
			// "average time to resolve tickets"
			asked, hint = true, toks[i+2].s
			drop[i], drop[i+1], drop[i+2] = true, true, true
		case (t.s == "days" || t.s == "hours") && i+2 < len(toks) && toks[i+1].s == "to":
			// "average days to close a ticket", "average number of hours
			// to resolve tickets" (found from outside: "days" not
			// understood, where "time" was).
			asked, hint, unit = true, toks[i+2].s, t.s
			drop[i], drop[i+1], drop[i+2] = true, true, true
			if i >= 2 && toks[i-1].s == "of" && toks[i-2].s == "number" {
				drop[i-1], drop[i-2] = true, true
			}
		case t.s == "time" && i > 0 && !drop[i-1] && len(toks[i-1].s) >= 5:
			// "average resolution time"
			asked, hint = true, toks[i-1].s
			drop[i-1], drop[i] = true, true
		case t.s == "take" || t.s == "takes" || t.s == "took":
			if howLong && i+2 < len(toks) && toks[i+1].s == "to" {
				// "how long does it take to resolve tickets"
				hint = toks[i+2].s
				drop[i+1], drop[i+2] = true, true
			}
		case (t.s == "hours" || t.s == "days") && i > 0 && toks[i-1].s == "in":
			unit, drop[i-1], drop[i] = t.s, true, true
		}
	}
	if !asked || !avg && !howLong {
		return nil // "total subscription length": a duration is not added up
	}
	// The frame's words around the phrase, and "of" right after it.
	var rest []string
	for i, t := range toks {
		if drop[i] || durationFiller(t.s) || t.s == "of" && i > 0 && drop[i-1] {
			continue
		}
		rest = append(rest, question[t.start:t.end])
	}
	read := "how many " + strings.Join(rest, " ")
	again := p.planQuestion(read, asOf)
	if sp := p.oneSpanned(); sp != "" && (again.Kind != KindMetric || !p.spanned(again) && !p.ending(again)) {
		// "average length of stay", "… by room type": no table named
		// whose rows last, the one table whose rows start and end. A
		// table named that has ends of its own keeps the question
		// ("average loan duration for returned loans" is not the
		// length of the borrowers' memberships; found from outside).
		read = "how many " + display(sp) + " " + strings.Join(rest, " ")
		again = p.planQuestion(read, asOf)
	}
	if t := p.hinted(hint); t != nil && (again.Kind != KindMetric || !p.spanned(again)) {
		// "average delivery time": no table named, the one with a date
		// named for delivery.
		if m := p.planQuestion("how many "+display(t.Name)+" "+strings.Join(rest, " "), asOf); m.Kind == KindMetric {
			read, again = "how many "+display(t.Name)+" "+strings.Join(rest, " "), m
		}
	}
	if again.Kind != KindMetric || len(again.Query.Metrics) != 1 || !p.countsOnly(again) {
		return nil
	}
	count := p.planMetric(again, again.Query.Metrics[0])
	entity := p.metricEntity(count.Name, again.AdHoc)
	e := p.entity(entity)
	if e == nil || len(count.Filters) > 0 {
		return nil
	}
	for _, d := range again.Query.Dimensions {
		if ent, col, ok := strings.Cut(d.Name, "."); ok && strings.EqualFold(ent, e.Name) && (strings.EqualFold(col, e.PrimaryKey) || strings.EqualFold(col, e.Label)) {
			// "average length of stay by hotel": the rows grouped one by
			// one are no rows that last, each its own group (found from outside:
			// the one closed hotel's years open, at 1.00).
			return p.unanswered(&state{}, fmt.Sprintf("quarry cannot tell whose length is asked: %s are what the answer is grouped by; name the rows that last (“average length of … by %s”)", display(e.Name), singular(display(e.Name))))
		}
	}
	start, end, why := p.span(e, hint)
	if why != "" && hint == "" {
		// "average loan duration for returned loans": of the table's
		// ends, the one a word of the question names.
		if w := p.endNamed(e, rest); w != "" {
			start, end, why = p.span(e, w)
		}
	}
	if t := p.hinted(hint); why != "" && t != nil && !strings.EqualFold(t.Name, e.Name) {
		// "average delivery time by carrier": the one table with a date
		// named for delivery, by carrier (found from outside: the
		// carriers, which have none, refused).
		read = "how many " + display(t.Name) + " " + strings.Join(rest, " ")
		if m := p.planQuestion(read, asOf); m.Kind == KindMetric && len(m.Query.Metrics) == 1 && p.countsOnly(m) {
			if c := p.planMetric(m, m.Query.Metrics[0]); strings.EqualFold(p.metricEntity(c.Name, m.AdHoc), t.Name) && len(c.Filters) == 0 {
				again, count, e = m, c, t
				start, end, why = p.span(e, hint)
			}
		}
	}
	if t := p.tableOfWords(lasting); why == "" && t != nil && !strings.EqualFold(t.Name, e.Name) {
		// "average loan duration to due on" read as a count of
		// patrons: the rows that last are the loans, not those counted.
		why = fmt.Sprintf("the question asks how long %s last, but quarry read it as about %s; ask “average %s duration” with conditions on %s", display(t.Name), display(e.Name), singular(display(t.Name)), display(t.Name))
	}
	if why != "" {
		// "how long do tickets take to resolve": a measure the knowledge
		// names "time to resolve" may say it, where no date does.
		if said := "average time to " + hint + " " + strings.Join(rest, " "); hint != "" && !strings.HasPrefix(strings.ToLower(question), "average time to ") {
			if m := p.planQuestion(said, asOf); m.Kind == KindMetric && !p.countsOnly(m) {
				m.readAs(said, fmt.Sprintf("how long %s take to %s read as %q", display(e.Name), hint, said))
				return m
			}
		}
		return p.unanswered(&state{}, why)
	}
	times := ""
	if unit == "hours" {
		times = " * 24"
	}
	conv := semantic.Metric{
		Name:        "average_" + e.Name + "_" + unit,
		Description: fmt.Sprintf("average %s from %s to %s of %s", unit, strings.Join(nameWords(start), " "), strings.Join(nameWords(end), " "), display(e.Name)),
		Entity:      e.Name,
		Expr:        "AVG(days_between(" + semantic.Ref(e.Name, start) + ", " + semantic.Ref(e.Name, end) + ")" + times + ")",
		Time:        e.Name + "." + start,
		Format:      "number",
		Unit:        unit,
	}
	desc := count.Description
	if desc == "" {
		desc = display(count.Name)
	}
	out := swapMetric(again, count.Name, desc, conv)
	if out.Title == again.Title {
		// Titled by the table ("Subscriptions by plan"), not by the
		// count's description.
		out.Title = upperFirst(conv.Description)
		for _, head := range []string{capital(display(count.Name)), capital(display(e.Name))} {
			if rest, ok := strings.CutPrefix(again.Title, head); ok {
				out.Title += rest
				break
			}
		}
	}
	out.Query.Filters = append(slices.Clone(out.Query.Filters), semantic.Filter{Field: e.Name + "." + end, Op: semantic.OpNotNull})
	out.readAs(read, fmt.Sprintf("how long %s last read as the %s from %s.%s to %s.%s, over those that have ended (the rows with no %s are left out)", display(e.Name), unit, e.Name, start, e.Name, end, end))
	return out
}

// span is the columns e's rows start and end on: the one end the hint
// names by its first letters ("resolve", "resolution": resolved_at), else
// e's one end; its start, else its time column. why says what is missing
// or which to choose, "" when both are found.
func (p *Planner) span(e *semantic.Entity, hint string) (start, end, why string) {
	var ends, starts []string
	for _, c := range e.Columns {
		if !c.Temporal() || p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		switch c.TimeRole {
		case semantic.TimeRoleEnd:
			if hint == "" || slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return samePrefix(w, hint) }) {
				ends = append(ends, c.Name)
			}
		case semantic.TimeRoleStart:
			starts = append(starts, c.Name)
		default:
			// "average delivery time": the date named for it ends the
			// span, whatever its role (delivered_at, an event of the
			// shipment; found from outside: refused).
			if hint != "" && !strings.EqualFold(c.Name, e.TimeColumn) && slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return samePrefix(w, hint) }) {
				ends = append(ends, c.Name)
			}
		}
	}
	switch {
	case len(ends) == 0 && hint != "":
		return "", "", fmt.Sprintf("%s has no date named for %q, so quarry cannot tell how long that takes; name the date it ends on", display(e.Name), hint)
	case len(ends) == 0:
		return "", "", fmt.Sprintf("%s has no date they end on, so quarry cannot tell how long they last", display(e.Name))
	case len(ends) > 1:
		return "", "", fmt.Sprintf("%s end on %s; say which (“average %s duration to %s”)", display(e.Name), displayJoin(ends), singular(display(e.Name)), display(ends[len(ends)-1]))
	}
	switch {
	case len(starts) == 1:
		start = starts[0]
	case slices.Contains(starts, e.TimeColumn) || len(starts) == 0 && e.TimeColumn != "" && !strings.EqualFold(e.TimeColumn, ends[0]):
		start = e.TimeColumn
	default:
		return "", "", fmt.Sprintf("quarry could not tell the date %s start on; name it in the knowledge (a time role of start)", display(e.Name))
	}
	return start, ends[0], ""
}

// hinted is the one table with a date named for hint ("delivery":
// shipments.delivered_at), other than the date it is dated by; nil where
// none or several are.
func (p *Planner) hinted(hint string) *semantic.Entity {
	if hint == "" {
		return nil
	}
	var found *semantic.Entity
	for i := range p.m.Entities {
		e := &p.m.Entities[i]
		for _, c := range e.Columns {
			if !c.Temporal() || strings.EqualFold(c.Name, e.TimeColumn) || p.m.IsRestricted(e.Name, c.Name) || !slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return samePrefix(w, hint) }) {
				continue
			}
			if found != nil && found != e {
				return nil
			}
			found = e
		}
	}
	return found
}

// samePrefix reports whether two words begin alike for five letters (or
// the whole of the shorter): "resolution" and "resolved", "close" and
// "closed", "delivery" and "delivered".
func samePrefix(a, b string) bool {
	if a == b || a == b+"ed" || a == b+"d" || b == a+"ed" || b == a+"d" {
		return true // "end" and "ended"
	}
	n := min(5, len(a), len(b))
	return n >= 4 && a[:n] == b[:n]
}

// oneSpanned is the one table whose rows have a start and one end, ""
// when none or several do.
func (p *Planner) oneSpanned() string {
	found := ""
	for i := range p.m.Entities {
		e := &p.m.Entities[i]
		if _, _, why := p.span(e, ""); why == "" && e.Role == nil {
			if found != "" {
				return ""
			}
			found = e.Name
		}
	}
	return found
}

// tableOfWords is the one table a word of words names by its name
// (singular or plural), nil where none or several are.
func (p *Planner) tableOfWords(words []string) *semantic.Entity {
	var found *semantic.Entity
	for _, w := range words {
		w = singular(strings.ToLower(w))
		for i := range p.m.Entities {
			e := &p.m.Entities[i]
			if w != singular(strings.ToLower(display(e.Name))) {
				continue
			}
			if found != nil && found != e {
				return nil
			}
			found = e
		}
	}
	return found
}

// ending reports whether a plan counts the rows of a table with a date
// they end on, one or several.
func (p *Planner) ending(pl *Plan) bool {
	if pl.Query == nil || len(pl.Query.Metrics) != 1 {
		return false
	}
	e := p.entity(p.metricEntity(pl.Query.Metrics[0], pl.AdHoc))
	return e != nil && slices.ContainsFunc(e.Columns, func(c semantic.Column) bool {
		return c.Temporal() && c.TimeRole == semantic.TimeRoleEnd && !p.m.IsRestricted(e.Name, c.Name)
	})
}

// endNamed is the word of words that names one, and only one, of e's
// ends ("returned" of returned_on, where loans also end on due_on), ""
// where none or several are named.
func (p *Planner) endNamed(e *semantic.Entity, words []string) string {
	found, named := "", ""
	for _, c := range e.Columns {
		if !c.Temporal() || c.TimeRole != semantic.TimeRoleEnd || p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		for _, w := range words {
			for _, t := range tokenize(w) {
				if len(t.s) >= 4 && slices.ContainsFunc(nameWords(c.Name), func(n string) bool { return samePrefix(n, t.s) }) {
					if found != "" && found != c.Name {
						return ""
					}
					found, named = c.Name, t.s
				}
			}
		}
	}
	return named
}

// spanned reports whether a plan counts the rows of a table that start
// and end.
func (p *Planner) spanned(pl *Plan) bool {
	if pl.Query == nil || len(pl.Query.Metrics) != 1 {
		return false
	}
	e := p.entity(p.metricEntity(pl.Query.Metrics[0], pl.AdHoc))
	if e == nil {
		return false
	}
	_, _, why := p.span(e, "")
	return why == ""
}

// ownRowAggregated refuses an average, total, least or most of a column
// of the rows the answer is grouped by one by one ("average rating by
// hotel" of hotels.star_rating), where a table below holds a column of
// the same word (reviews.rating): each group is one row, its figure that
// row's own, and the question may mean the rows below (found from
// outside: each hotel's stars, at 1.00, where the guests' reviews hold
// ratings). "Total seats by aircraft", with no such table, is each one's
// own. pl otherwise.
func (p *Planner) ownRowAggregated(pl *Plan) *Plan {
	if pl == nil || pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) != 1 || len(pl.Query.Dimensions) == 0 {
		return pl
	}
	mt := pl.over(p.m).Metric(pl.Query.Metrics[0])
	if mt == nil || mt.Derived != "" {
		return pl
	}
	x := strings.TrimSpace(mt.Expr)
	agg := ""
	for _, a := range []string{"AVG(", "SUM(", "MIN(", "MAX("} {
		if strings.HasPrefix(strings.ToUpper(x), a) && strings.HasSuffix(x, ")") {
			agg = a
		}
	}
	if agg == "" {
		return pl
	}
	ent, col, ok := simpleRef(x[len(agg) : len(x)-1])
	e := p.entity(ent)
	if !ok || e == nil {
		return pl
	}
	own := false
	for _, d := range pl.Query.Dimensions {
		if de, dc, ok := strings.Cut(d.Name, "."); ok && strings.EqualFold(de, e.Name) && (strings.EqualFold(dc, e.PrimaryKey) || strings.EqualFold(dc, e.Label)) {
			own = true
		}
	}
	if !own {
		return pl
	}
	ws := nameWords(col)
	last := ws[len(ws)-1]
	var below []string
	for i := range p.m.Entities {
		f := &p.m.Entities[i]
		if strings.EqualFold(f.Name, e.Name) || !p.m.Parents(f.Name)[e.Name] {
			continue
		}
		for _, c := range f.Columns {
			if cw := nameWords(c.Name); c.Type.IsNumeric() && cw[len(cw)-1] == last && !p.isForeignKey(f.Name, c.Name) && !p.m.IsRestricted(f.Name, c.Name) {
				below = append(below, display(f.Name))
				break
			}
		}
	}
	if len(below) == 0 {
		return pl // "total seats by aircraft": each one's own, as asked
	}
	word := map[string]string{"AVG(": "average", "SUM(": "total", "MIN(": "lowest", "MAX(": "highest"}[agg]
	why := fmt.Sprintf("each %s is one group here, so the %s %s of one is its own %s; quarry does not guess whose %s is meant", singular(display(e.Name)), word, display(col), display(col), last)
	if len(below) == 1 {
		why += fmt.Sprintf("; ask for the %s %s of %s by %s", word, last, below[0], singular(display(e.Name)))
	}
	return p.unanswered(&state{}, why)
}
