package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Averages per entity and per period unit. "Average revenue per
// customer", "orders per customer on average", "average orders per day
// last month": a sum or a count spread over the rows of a table its rows
// belong to, or over the days (months) of a period. The question without
// its average and its "per …" is planned on its own, and must give one
// additive figure (a SUM or a COUNT, no grouping); the answer is that
// figure divided by
//   - the number of rows of the table, every row counted, those with
//     nothing to add up included (the average over customers of each
//     customer's revenue, a customer with no orders adding 0). Only with
//     no period and no filter: a period would leave it open which
//     customers are counted (those who signed up then, those who existed,
//     those who bought), and a filter may hold of the figure's rows only;
//   - the number of days (or whole months) of the period, those with none
//     included. Only over a period that is over: the days of one not over
//     yet are not known.
//
// The reading says which. The shape is tried only where the question is
// otherwise not answered.

// averageWord starts an average spread over something.
func averageWord(w string) bool { return w == "average" || w == "avg" || w == "mean" }

// perUnit is the period unit an average may be spread over that w
// names: "day" or "month"; "" for any other word.
func perUnit(w string) string {
	switch w {
	case "day", "days":
		return "day"
	case "month", "months":
		return "month"
	}
	return ""
}

// averagePer plans question as an average per entity or per period
// unit; nil when the question does not have that shape.
func (p *Planner) averagePer(question string, asOf time.Time) *Plan {
	toks := tokenize(question)
	per, avgAt, avgLen := -1, -1, 0
	for i, t := range toks {
		switch {
		case t.s == "per" && per < 0:
			per = i
		case t.s == "on" && i+1 < len(toks) && toks[i+1].s == "average" && avgAt < 0:
			avgAt, avgLen = i, 2
		case averageWord(t.s) && avgAt < 0:
			avgAt, avgLen = i, 1
			// "average number of orders per day": the number is what is
			// averaged.
			if i+2 < len(toks) && toks[i+1].s == "number" && toks[i+2].s == "of" {
				avgLen = 3
			}
		}
	}
	if per < 0 || avgAt < 0 || per+1 >= len(toks) || avgAt > per && avgLen == 1 {
		return nil
	}
	// "average order value per customer": the average is part of a name
	// the knowledge knows, not the question's.
	if avgLen == 1 {
		for n := 2; n <= 4 && avgAt+n <= len(toks); n++ {
			if _, ok := p.lex.get(join(toks[avgAt : avgAt+n])); ok {
				return nil
			}
		}
	}
	unit, unitLen := perUnit(toks[per+1].s), 1
	ent := ""
	if unit == "" {
		ent, unitLen = p.perEntity(toks[per+1:])
		if ent == "" {
			return nil
		}
	}
	// The question without its average and its "per …".
	var rest []string
	for i, t := range toks {
		// "average number of order items per order": the number of
		// order items is what is averaged, a count however the table
		// is named.
		if avgLen == 3 && i == avgAt || avgLen != 3 && i >= avgAt && i < avgAt+avgLen || i >= per && i <= per+unitLen {
			continue
		}
		rest = append(rest, question[t.start:t.end])
	}
	if len(rest) == 0 {
		return nil
	}
	inner := p.planWhole(strings.Join(rest, " "), asOf)
	if inner.Kind == KindRows && inner.Query != nil && inner.Query.Rows != nil && avgLen == 1 && !moneyNoun(singular(lower(lastWordOf(display(inner.Query.Rows.Entity))))) {
		// "average bookings per member": the number of bookings, as
		// "average number of bookings per member" reads it (found from
		// outside: refused); not of a table of money ("average payments
		// per member": amounts or how many?).
		inner = p.planWhole("number of "+strings.Join(rest, " "), asOf)
	}
	if inner.Kind != KindMetric || inner.Query == nil {
		return nil
	}
	q := inner.Query
	if len(q.Metrics) != 1 || len(q.Dimensions) > 0 || q.Rows != nil || len(q.Compare) > 0 || len(q.Order) > 0 || q.Limit > 0 || q.Share || len(q.Hidden) > 0 {
		return nil
	}
	m := p.model(inner)
	mt := m.Metric(q.Metrics[0])
	what := display(mt.Name)
	if mt.Entity != "" && inner.isCountAdHoc(mt.Name) {
		what = display(mt.Entity)
	}
	if mt == nil || !additive(mt) {
		return &Plan{Kind: KindUnanswered, Understood: inner.Understood, Reason: fmt.Sprintf("%s is not a sum or a count, so quarry cannot spread it per %s; ask for it by %s instead", what, strings.Join(wordsOf(toks[per+1:per+1+unitLen]), " "), strings.Join(wordsOf(toks[per+1:per+1+unitLen]), " "))}
	}
	if avgAt < per && per-(avgAt+avgLen) == 1 && inner.isCountAdHoc(mt.Name) {
		// "average number of items per sale", sale_items holding a
		// quantity: its rows (lines) or the units they hold? (found
		// from outside: 2.00 lines per sale, where 3.98 units were
		// meant, at 1.00).
		if w := toks[avgAt+avgLen].s; unitsWord(w) && p.quantityOf(mt.Entity) != "" {
			return &Plan{Kind: KindUnanswered, Understood: inner.Understood, Reason: fmt.Sprintf("%q may be the rows of %s or the %s they hold, and quarry does not guess; ask for “average number of %s per %s” for the rows", w, display(mt.Entity), p.quantityOf(mt.Entity), strings.ToLower(display(mt.Entity)), strings.Join(wordsOf(toks[per+1:per+1+unitLen]), " "))}
		}
	}
	if unit != "" {
		return p.perPeriodUnit(inner, mt, unit, what, asOf)
	}
	return p.perEntityAverage(inner, mt, ent, what)
}

// unitsWord reports whether w names things counted in units as well as
// in rows: "items", "units", "pieces".
func unitsWord(w string) bool {
	switch w {
	case "items", "item", "units", "unit", "pieces", "piece":
		return true
	}
	return false
}

// quantityOf is entity's column of how many units a row holds
// (quantity, qty, units), "" where it has none.
func (p *Planner) quantityOf(entity string) string {
	e := p.entity(entity)
	if e == nil {
		return ""
	}
	for _, c := range e.Columns {
		if !c.Type.IsNumeric() {
			continue
		}
		for _, w := range nameWords(c.Name) {
			if w == "quantity" || w == "qty" || w == "units" {
				return c.Name
			}
		}
	}
	return ""
}

// perEntity is the one entity the words after "per" name (up to three of
// them), and how many words name it; "" when they name none or several.
func (p *Planner) perEntity(toks []token) (string, int) {
	for n := min(3, len(toks)); n >= 1; n-- {
		ss, ok := p.lex.get(join(toks[:n]))
		if !ok {
			continue
		}
		ent := ""
		for _, s := range ss {
			if s.kind != sEntity {
				continue
			}
			if ent != "" && !strings.EqualFold(ent, s.name) {
				return "", 0
			}
			ent = s.name
		}
		if ent != "" {
			return ent, n
		}
		return "", 0
	}
	return "", 0
}

// perEntityAverage divides the one figure of inner by the number of rows
// of entity ent.
func (p *Planner) perEntityAverage(inner *Plan, mt *semantic.Metric, ent, what string) *Plan {
	q := inner.Query
	e := p.entity(ent)
	one := singular(strings.ToLower(display(e.Name)))
	if len(q.Filters) > 0 || q.TimeRange != nil {
		return &Plan{Kind: KindUnanswered, Understood: inner.Understood, Reason: fmt.Sprintf("an average of %s per %s with a period or a condition leaves open which %s are counted (those made then, those that existed, those with any %s); quarry answers it over all time and every %s only", what, one, display(e.Name), what, one)}
	}
	if e.PrimaryKey == "" || strings.EqualFold(mt.Entity, e.Name) || !p.upOf(lower(mt.Entity))[lower(e.Name)] {
		return &Plan{Kind: KindUnanswered, Understood: inner.Understood, Reason: fmt.Sprintf("%s is not made of rows that each belong to one %s, so quarry cannot spread it per %s", what, one, one)}
	}
	count := semantic.Metric{Name: "number_of_" + lower(e.Name), Entity: e.Name, Expr: "COUNT(" + e.Name + "." + e.PrimaryKey + ")", Format: "integer", Description: "number of " + display(e.Name) + ", all of them"}
	all := "all " + display(e.Name) + ", those with none included (each counts as 0)"
	if ro := e.Role; ro != nil {
		// "average number of claims per adjuster": an adjuster is a
		// member of staff some claim names as its adjuster, not every
		// member of staff (found from outside: 2,650 claims over all 72
		// staff, 36.81 for 67.95, at 1.00).
		count = semantic.Metric{Name: count.Name, Entity: ro.From, Expr: "COUNT(DISTINCT " + ro.Via() + ")", Format: "integer",
			Description: fmt.Sprintf("number of %s that some %s names through %s", display(ro.Of), singular(strings.ToLower(display(ro.From))), ro.Via())}
		all = fmt.Sprintf("%s that are the %s of some %s (%s)", display(ro.Of), one, singular(strings.ToLower(display(ro.From))), ro.Via())
	}
	// "average revenue per order", where revenue is of completed orders:
	// per completed order, as the measure keeps them (found from outside:
	// divided by every order, cancelled ones too, $136.07 for $150.77).
	var kept []string
	for _, expr := range mt.Filters {
		if f, ok := semantic.ParsePredicate(expr); ok {
			if ent, _, _ := strings.Cut(f.Field, "."); strings.EqualFold(ent, e.Name) {
				count.Filters = append(count.Filters, expr)
				kept = append(kept, expr)
			}
		}
	}
	if len(kept) > 0 {
		count.Description = "number of " + display(e.Name) + " where " + strings.Join(kept, " and ")
	}
	// Only the rows that are some row's of ent's: an order with no
	// customer (a guest's) is no customer's (found from outside: 2,032
	// guest orders spread over the customers, 10.21 for 7.59, at 1.00).
	theirs := *mt
	theirs.Name = mt.Name + "_of_" + lower(e.Name)
	theirs.Filters = append(slices.Clone(mt.Filters), e.Name+"."+e.PrimaryKey+" IS NOT NULL")
	for p.m.Metric(theirs.Name) != nil {
		theirs.Name += "_q"
	}
	avg := semantic.Metric{
		Name:        mt.Name + "_per_" + strings.ReplaceAll(one, " ", "_"),
		Derived:     "{" + theirs.Name + "} / {" + count.Name + "}",
		Format:      averageFormat(mt),
		Unit:        mt.Unit,
		Description: fmt.Sprintf("%s divided by the number of %s, every %s counted (those with none count as 0)", mt.Name, display(e.Name), one),
	}
	for p.m.Metric(count.Name) != nil {
		count.Name += "_q"
		avg.Derived = "{" + theirs.Name + "} / {" + count.Name + "}"
	}
	for p.m.Metric(avg.Name) != nil {
		avg.Name += "_q"
	}
	out := *inner
	out.AdHoc = append(append([]semantic.Metric{}, inner.AdHoc...), theirs, count, avg)
	out.Query = &semantic.Query{Metrics: []string{avg.Name}}
	out.Title = fmt.Sprintf("Average %s per %s", what, one)
	note := fmt.Sprintf("the average per %s is %s divided by the number of %s", one, what, all)
	if len(kept) > 0 {
		note = fmt.Sprintf("the average per %s is %s divided by the number of %s where %s, as %s keeps them", one, what, display(e.Name), strings.Join(kept, " and "), what)
	}
	out.Understood = append(append([]string{}, inner.Understood...), note)
	out.Notes = append(append([]string{}, inner.Notes...), note)
	return &out
}

// perPeriodUnit divides the one figure of inner by the number of days
// (or whole months) of its period.
func (p *Planner) perPeriodUnit(inner *Plan, mt *semantic.Metric, unit, what string, asOf time.Time) *Plan {
	q := inner.Query
	tr := q.TimeRange
	if tr == nil || tr.From == "" || tr.To == "" {
		return &Plan{Kind: KindUnanswered, Understood: inner.Understood, Reason: fmt.Sprintf("an average of %s per %s needs a period that has ended, to count its %ss; ask for it \"last month\" or \"in 2025\"", what, unit, unit)}
	}
	from, err1 := time.Parse(time.DateOnly, tr.From)
	to, err2 := time.Parse(time.DateOnly, tr.To)
	today := time.Date(asOf.Year(), asOf.Month(), asOf.Day(), 0, 0, 0, 0, time.UTC)
	if err1 != nil || err2 != nil || !to.After(from) {
		return nil
	}
	if to.After(today) {
		return &Plan{Kind: KindUnanswered, Understood: inner.Understood, Reason: fmt.Sprintf("the period runs to %s and is not over as of %s, so how many of its %ss will have no %s is not known; ask for a period that has ended", to.AddDate(0, 0, -1).Format(time.DateOnly), today.Format(time.DateOnly), unit, what)}
	}
	n := int(to.Sub(from).Hours()/24 + 0.5)
	if unit == "month" {
		if from.Day() != 1 || to.Day() != 1 {
			return &Plan{Kind: KindUnanswered, Understood: inner.Understood, Reason: fmt.Sprintf("the period %s to %s is not whole months, so quarry cannot spread %s per month over it; ask per day, or for whole months", tr.From, to.AddDate(0, 0, -1).Format(time.DateOnly), what)}
		}
		n = (to.Year()-from.Year())*12 + int(to.Month()) - int(from.Month())
	}
	if n <= 0 {
		return nil
	}
	avg := semantic.Metric{
		Name:        mt.Name + "_per_" + unit,
		Derived:     fmt.Sprintf("{%s} / %d", mt.Name, n),
		Format:      averageFormat(mt),
		Unit:        mt.Unit,
		Description: fmt.Sprintf("%s divided by the %d %ss of the period, %ss with none included", mt.Name, n, unit, unit),
	}
	for p.m.Metric(avg.Name) != nil {
		avg.Name += "_q"
	}
	out := *inner
	out.AdHoc = append(append([]semantic.Metric{}, inner.AdHoc...), avg)
	nq := *q
	nq.Metrics = []string{avg.Name}
	out.Query = &nq
	out.Title = fmt.Sprintf("Average %s per %s", what, unit)
	if inner.Period != "" {
		out.Title += ", " + inner.Period
	}
	note := fmt.Sprintf("the average per %s is %s divided by the %d %ss of the period, %ss with none included", unit, what, n, unit, unit)
	out.Understood = append(append([]string{}, inner.Understood...), note)
	out.Notes = append(append([]string{}, inner.Notes...), note)
	return &out
}

// additive reports whether a metric is one SUM or COUNT (not of distinct
// values), so that it adds up over the rows it is spread across.
func additive(mt *semantic.Metric) bool {
	if mt.Derived != "" {
		return false
	}
	x := strings.ToUpper(strings.Join(strings.Fields(mt.Expr), ""))
	if !strings.HasPrefix(x, "SUM(") && !strings.HasPrefix(x, "COUNT(") || strings.HasPrefix(x, "COUNT(DISTINCT") {
		return false
	}
	depth := 0
	for i, c := range x {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(x)-1 {
				return false // "SUM(a) / SUM(b)"
			}
		}
	}
	return true
}

// averageFormat is how an average of mt is shown: as mt's amounts, or as
// a plain number where mt counts.
func averageFormat(mt *semantic.Metric) string {
	if mt.Format == "currency" {
		return "currency"
	}
	return "number"
}

func wordsOf(toks []token) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.s
	}
	return out
}

// otherShapes tries, for a question the planner did not answer, the
// shapes read from the question as a whole (an average per entity or per
// day); pl itself when none fits.
func (p *Planner) otherShapes(question string, asOf time.Time, pl *Plan) *Plan {
	if a := p.averagePer(question, asOf); a != nil {
		return a
	}
	if r := p.byRole(question, asOf, pl.Unknown); r != nil {
		return r
	}
	if w := p.groupedByRoleValue(question); w != "" {
		if r := p.byRole(question, asOf, []string{w}); r != nil {
			return r
		}
	}
	if r := p.byMissingRole(question, asOf, pl.Unknown); r != nil {
		return r
	}
	if k := p.kindCount(question, asOf); k != nil {
		return k
	}
	if k := p.paidAlone(question, asOf); k != nil {
		return k
	}
	return pl
}

// isCountAdHoc reports whether name is a count the plan defined for the
// question (the rows of a table that no metric counts).
func (pl *Plan) isCountAdHoc(name string) bool {
	k := pl.adHoc(name)
	return k >= 0 && exprStarts(pl.AdHoc[k].Expr, "COUNT(") && !exprStarts(pl.AdHoc[k].Expr, "COUNT(DISTINCT")
}

// adHoc is the index in AdHoc of the metric the plan defined under name,
// or -1.
func (pl *Plan) adHoc(name string) int {
	for i := range pl.AdHoc {
		if pl.AdHoc[i].Name == name {
			return i
		}
	}
	return -1
}

// exprStarts reports whether a metric's expression starts with prefix,
// written in upper case ("AVG(", "COUNT(DISTINCT"), whatever its case and
// leading spaces.
func exprStarts(expr, prefix string) bool {
	return strings.HasPrefix(strings.ToUpper(strings.TrimSpace(expr)), prefix)
}
