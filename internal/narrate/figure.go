package narrate

import (
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

// figure states a single figure from the reading of the question rather
// than from its words: "**22,807** orders in 2025.", "Revenue was
// **$316,888.38** last month (May 2026).", "**5,000** customers in all, as
// of 2026-06-30.". It reports false when the reading does not say what the
// figure is (a model's own SQL, several measures).
func (w writer) figure(n column, r []any) (string, bool) {
	rd := w.in.Reading
	if rd == nil {
		return "", false
	}
	value := "**" + w.fmtCell(n, r) + "**"
	// Without a period, a count or a sum covers everything there is ("in
	// all"); an average or a ratio holds as of the day; the first or last
	// of something is what it is.
	when := w.periodWords()
	if when == "" && w.in.AsOf != "" && len(rd.Measures) <= 1 {
		how := ""
		if len(rd.Measures) == 1 {
			how = strings.ToUpper(strings.TrimSpace(rd.Measures[0].How))
		}
		expr, _, _ := strings.Cut(how, " OVER ")
		switch {
		case strings.HasPrefix(how, "MIN(") || strings.HasPrefix(how, "MAX("):
		case len(rd.Measures) == 0 || verify.Additive(expr) != "":
			when = "in all, as of " + w.in.AsOf
		default:
			when = "as of " + w.in.AsOf
		}
	}
	tail := ""
	if when != "" {
		tail = " " + when
	}
	if f, ok := quarry.Float(n.cell(r)); ok && f == 0 {
		// "0 orders in July 2026", asked on June 30th: none yet, as the
		// month has not begun (found from outside: said as a fact).
		tail += w.notBegun()
	}
	switch {
	case len(rd.Measures) == 1:
		label := w.bareTitle()
		if label == "" {
			label = humanize(rd.Measures[0].Name)
		}
		verb := ""
		if isCount(rd.Measures[0].How) && !distinctOther(rd.Measures[0].How) && w.in.Period != "" {
			// A period said of the rows' event ("hired in 2024"); not the
			// as-of day's bound alone, which says no event (found from
			// outside: "29 students admitted in all" for those with no
			// enrollments).
			verb = eventVerb(rd)
		}
		if isCount(rd.Measures[0].How) && (verb != "" || !strings.Contains(strings.ToLower(label), "share") && !strings.Contains(strings.ToLower(label), "count") &&
			!strings.Contains(strings.ToLower(label), "number")) {
			noun := lowerFirst(label)
			if v := verb; v != "" {
				// "hired_on in 2024": 20 employees hired in 2024, not
				// "headcount"; the title's filters stay ("(urgent)").
				noun = humanize(countedEntity(rd.Measures[0].How))
				if i := strings.Index(label, " ("); i >= 0 {
					noun += label[i:]
				}
				noun += " " + v
				// "Tickets on weekdays": the days kept stay, after the
				// verb ("support tickets opened on weekdays").
				if i := strings.Index(label, " on "); i >= 0 {
					on, _, _ := strings.Cut(label[i:], " (")
					noun += on
				}
			}
			if f, ok := quarry.Float(n.cell(r)); ok && f == 1 {
				noun = singularNoun(noun)
			}
			return value + " " + noun + tail + ".", true
		}
		return capitalize(label) + " was " + value + tail + ".", true
	case len(rd.Measures) == 0 && rd.Source == "verified_query":
		// A verified query: a "how many" question counts what its one
		// column names.
		q := strings.ToLower(strings.TrimSpace(w.in.Question))
		noun := humanize(n.Name)
		if strings.HasPrefix(q, "how many ") && strings.Contains(q, strings.ToLower(noun)) {
			return value + " " + noun + tail + ".", true
		}
		if n.Role == RoleMetric {
			// A column named like a metric: "Refund rate was 5.0% as of …".
			when := "as of " + w.in.AsOf
			if w.in.AsOf == "" {
				when = ""
			}
			return strings.TrimSpace(capitalize(noun)+" was "+value+" "+when) + ".", true
		}
	}
	return "", false
}

// isCount reports whether a measure's computation counts rows.
func isCount(how string) bool {
	return strings.HasPrefix(strings.ToUpper(strings.TrimSpace(how)), "COUNT(")
}

// lowerFirst lower-cases the first letter of a label that is not an
// acronym ("Orders" → "orders", "MRR" stays).
func lowerFirst(s string) string {
	if len(s) < 2 || s[1] >= 'A' && s[1] <= 'Z' {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// singularNoun puts the head noun of a count's label in the singular, for
// a count of one: "open tickets (web)" → "open ticket (web)".
func singularNoun(label string) string {
	head, rest, _ := strings.Cut(label, " (")
	if rest != "" {
		rest = " (" + rest
	}
	switch {
	case strings.HasSuffix(head, "ies") && len(head) > 4:
		head = strings.TrimSuffix(head, "ies") + "y"
	case strings.HasSuffix(head, "s") && !strings.HasSuffix(head, "ss"):
		head = strings.TrimSuffix(head, "s")
	}
	return head + rest
}

// countedEntity is the entity a measure's computation runs over ("COUNT(…)
// over employees where …" → employees), or "".
func countedEntity(how string) string {
	_, rest, ok := strings.Cut(how, " over ")
	if !ok {
		return ""
	}
	ent, _, _ := strings.Cut(rest, " ")
	return ent
}

// eventVerb is the event a count's period is dated by, when its date
// column is named for one that is not the counted rows' own making
// ("hired_on" → "hired", "closed_at" → "closed"; not "ordered_at" for
// orders), or "".
func eventVerb(rd *event.ReadingData) string {
	if rd.Period == nil || rd.Period.Column == "" || rd.Period.From == "" || len(rd.Measures) != 1 {
		// No start: the rows made by a day (the as-of day's bound), not
		// the question's period, which may be another table's ("tenants
		// who signed a lease in 2026" are no tenants created in 2026;
		// found from outside).
		return ""
	}
	ent := countedEntity(rd.Measures[0].How)
	e, col, ok := strings.Cut(rd.Period.Column, ".")
	if !ok || ent == "" || e != ent {
		return ""
	}
	w := strings.Split(col, "_")[0]
	if len(w) < 4 || !strings.HasSuffix(w, "ed") {
		return ""
	}
	for _, f := range rd.Filters {
		if fe, _, _ := strings.Cut(f.Column, "."); fe == ent && strings.Contains(f.Text, " >= ") && strings.HasSuffix(f.Text, orEmptyText) {
			// "employees we had at the end of 2025": those not gone
			// by then, not those hired by then.
			return ""
		}
	}
	if stem := strings.TrimSuffix(strings.TrimSuffix(w, "ed"), "e"); len(stem) >= 3 && strings.HasPrefix(strings.ToLower(ent), stem[:3]) {
		return "" // "orders ordered"
	}
	return w
}

// distinctOther reports whether a count counts the distinct values of a
// column other than its rows' key ("COUNT(DISTINCT work_orders.customer_ref)"):
// customers, not work orders (found from outside: "61 work orders created
// in 2025" for 61 customers).
func distinctOther(how string) bool {
	x := strings.ToUpper(strings.TrimSpace(how))
	if !strings.HasPrefix(x, "COUNT(DISTINCT ") {
		return false
	}
	inner, _, _ := strings.Cut(strings.TrimSpace(how)[len("COUNT(DISTINCT "):], ")")
	ent, col, ok := strings.Cut(strings.TrimSpace(inner), ".")
	if !ok {
		return false
	}
	col = strings.ToLower(col)
	one := strings.TrimSuffix(strings.ToLower(ent), "s")
	return col != "id" && col != one+"_id" && col != one+"id"
}
