package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// shares reads "share of revenue by channel" (each group's share of the
// total) and "what percentage of orders were refunded" (a ratio).
func (b *builder) shares() *Plan {
	q := &b.q
	if q.Limit > 0 && topShareRE().MatchString(strings.ToLower(b.st.raw)) {
		// "share of revenue from the top 10 products" is one figure, the
		// ten together; quarry does not add up a ranking's rows yet.
		return b.fail("quarry cannot add up the share of the top or bottom rows of a ranking yet; ask for the shares by the grouping (“share of revenue by product”) and add the top rows")
	}
	var grouped []semantic.Filter // the condition of a share in each group
	if len(q.Dimensions) > 0 {
		// "share of revenue by channel" is each channel's part of the
		// total (of each period's, by a time grain as well); "what share of
		// orders were refunded by channel", "mobile share of orders by
		// year" and "share of revenue from Electronics by month" the
		// condition's share within each group, a ratio per group.
		cases, ok := b.groupedShare(q.Filters)
		if !ok {
			return b.fail("quarry could not tell whether the share is each group's part of the total or a condition's part within each group; say “mobile share of orders by year” or “share of orders by channel for business customers”")
		}
		if len(cases) == 0 && asShareRE().MatchString(strings.ToLower(b.st.raw)) {
			// "cancelled orders as a share of all orders by channel": one
			// measure over another, not each group's part of the total.
			return b.fail("quarry cannot take one measure as a share of another yet; ask for the condition's share, as in “what percentage of orders were cancelled by channel”")
		}
		if len(cases) == 0 && len(q.Metrics) == 1 && b.subsetBeforeShare(q.Metrics[0]) {
			// "refund % by channel": the refund rate in each channel, or
			// each channel's part of all refunds?
			m := display(q.Metrics[0])
			return b.fail(fmt.Sprintf("quarry could not tell whether this is a rate in each group or each group's part of all %s; ask for the rate by its name or with “what percentage of … were …”, or for the parts with “share of %s by …”", m, m))
		}
		if len(cases) == 0 {
			for _, m := range q.Metrics {
				// Each group's part of the total adds up only for a sum or
				// a count of rows: the parts of an average, a ratio or a
				// distinct count (a customer buys in several channels)
				// are no shares of anything (found from outside).
				if !b.additive(m) {
					return b.fail(fmt.Sprintf("quarry cannot take each group's share of %s: it is not a sum or a count of rows, so the groups' parts do not add up to a total; ask for %s by one of its dimensions", display(m), display(m)))
				}
			}
			if nonTime := b.nonTimeDimensions(); nonTime > 1 {
				// "share of revenue by category within each channel": of
				// the total, or of each channel's? quarry takes a share
				// within each group only by a time grain (found from
				// outside: it was of the total).
				return b.fail("quarry takes each group's share within a larger group only by a time grain (“share of revenue by category by quarter”); ask for one grouping, with the other as a filter (“share of revenue by category for mobile”)")
			}
			if pl := b.ambiguousShare(); pl != nil {
				return pl
			}
			if b.rankedShareOfSome() && !distShareRE().MatchString(strings.ToLower(b.st.raw)) {
				return b.fail("quarry could not tell whether this ranks the groups by their part of the total or by the condition's rate in each; ask “which channel has the highest refund rate” or “which channel has the most refunded orders”")
			}
			q.Share = true
			b.und("share of total")
			return nil
		}
		grouped = cases
	}
	if len(q.Metrics) != 1 || len(q.Filters) == 0 {
		return b.fail("a share needs a breakdown (“share of revenue by channel”) or a condition (“percentage of orders that were refunded”)")
	}
	base := q.Metrics[0]
	var expr, entity, timeCol string
	var filters []string
	for _, a := range b.adhoc {
		if a.Name == base {
			expr, entity = a.Expr, a.Entity
		}
	}
	if m := b.p.m.Metric(base); m != nil {
		if m.Derived != "" {
			return b.fail(fmt.Sprintf("quarry cannot take a share of %s, which is a ratio itself; ask for %s by one of its dimensions", display(base), display(base)))
		}
		expr, entity, filters, timeCol = m.Expr, b.p.metricEntity(base, nil), m.Filters, m.Time
	}
	x := strings.TrimSpace(expr)
	up := strings.ToUpper(x)
	var inner, fn string
	switch {
	case strings.HasPrefix(up, "SUM(") && strings.HasSuffix(x, ")"):
		fn, inner = "SUM", x[4:len(x)-1]
	case strings.HasPrefix(up, "COUNT(") && strings.HasSuffix(x, ")") && !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(x[6:])), "DISTINCT"):
		fn, inner = "COUNT", x[6:len(x)-1]
	default:
		return b.fail(fmt.Sprintf("quarry cannot take a share of %s; ask for %s by one of its dimensions with “share of”", display(base), display(base)))
	}
	if strings.Count(inner, "(") != strings.Count(inner, ")") {
		return b.fail(fmt.Sprintf("quarry cannot take a share of %s", display(base)))
	}
	cases, pop, ok := b.splitShare(q.Filters)
	if grouped != nil {
		cases, pop, ok = grouped, nil, true
		for _, f := range q.Filters {
			if !slices.ContainsFunc(grouped, func(g semantic.Filter) bool { return sameFilter(f, g) }) {
				pop = append(pop, f)
			}
		}
	}
	if !ok {
		return b.fail("quarry could not tell which condition the share is of and which rows it is a share of; put the condition after “were” or “are” (“what percentage of UK orders were refunded”)")
	}
	var conds []string
	for _, f := range cases {
		// The condition in every spelling its column holds, as a filter
		// is (found from outside: the share of invoices paid by
		// insurance left out those whose status is spelled 'Paid').
		f.Values = slices.Clone(f.Values)
		if b.p.spell(&f) {
			for _, n := range spelledNotes(f) {
				b.und("%s", n)
			}
		}
		c, ok := b.condSQL(f)
		if !ok {
			return b.fail("quarry can only take shares over values of plain columns")
		}
		// "refunded share of revenue", where revenue counts completed
		// orders only: the condition is outside the measure's rows, and
		// the share would be 0 (found from outside).
		col, _, _ := strings.Cut(c, " ")
		for _, mf := range filters {
			if strings.Contains(strings.ToLower(mf), strings.ToLower(col)) {
				return b.fail(fmt.Sprintf("%s is outside the rows %s counts (%s), so its share of %s is not defined; ask for the share of a measure that includes them", shareText([]semantic.Filter{f}), display(base), mf, display(base)))
			}
		}
		conds = append(conds, c)
	}
	cond := strings.Join(conds, " AND ")
	var num, den string
	if fn == "SUM" {
		num = fmt.Sprintf("SUM(CASE WHEN %s THEN %s ELSE 0 END)", cond, inner)
		den = "SUM(" + inner + ")"
	} else {
		num = fmt.Sprintf("SUM(CASE WHEN %s THEN 1 ELSE 0 END)", cond)
		den = "COUNT(" + inner + ")"
	}
	name := "share_of_" + base
	m := semantic.Metric{Name: name, Entity: entity, Expr: num + " * 1.0 / NULLIF(" + den + ", 0)", Filters: filters, Time: timeCol,
		Format: "percent", Description: "share of " + display(base) + " where " + shareText(cases)}
	pop = b.realShare(entity, cases, pop)
	q.Filters = pop // the rows it is a share of: both sides of the fraction
	b.adhoc = nil
	q.Metrics = nil
	b.addAdHoc(m)
	for i := range q.Order {
		if q.Order[i].Field == base {
			// "which restaurant has the highest no-show rate": ranked by
			// the rate, not by the count it was made of (found from
			// outside: "cannot sort by count_reservations").
			q.Order[i].Field = q.Metrics[0]
		}
	}
	b.shareCases = cases
	b.und("share of %s where %s", base, cond)
	return nil
}

// realShare adds to the rows a share is of the condition that leaves out
// the entity's rows of no real data (void, test, deleted), as a count of
// them does: "what share of 2025 bills were paid" is of the bills
// issued, not of the voided too (found from outside: 84.9% for 87.3%).
// Not where the share's own condition asks for those rows ("what share
// of bills were void").
func (b *builder) realShare(entity string, cases, pop []semantic.Filter) []semantic.Filter {
	e := b.p.entity(entity)
	if e == nil {
		return pop
	}
	for _, c := range e.Columns {
		w, ok := unrealFilter(b.p.m, e, c)
		if !ok || slices.ContainsFunc(pop, func(f semantic.Filter) bool { return strings.EqualFold(f.Field, w.Field) }) ||
			slices.ContainsFunc(cases, func(f semantic.Filter) bool { return asksUnreal(f, w) }) {
			continue
		}
		pop = append(pop, w)
		b.notes = append(b.notes, fmt.Sprintf("%s %s are left out of the share (%s); ask for them by name to count them", unrealWord(e, c), display(e.Name), w.Field))
		b.und("leave out %s rows (%s)", unrealWord(e, c), w.Field)
	}
	return pop
}

// asksUnreal reports whether a share's condition f is on the rows the
// real-rows condition w leaves out: a condition on a flag or a deletion
// date itself, or one naming a state w excludes ("void", "not void").
// "Not paid" names none: the bills not paid are of the real ones.
func asksUnreal(f, w semantic.Filter) bool {
	if !strings.EqualFold(f.Field, w.Field) {
		return false
	}
	if w.Op != semantic.OpNotIn {
		return true
	}
	for _, v := range f.Values {
		for _, x := range w.Values {
			if strings.EqualFold(fmt.Sprint(v), fmt.Sprint(x)) {
				return true
			}
		}
	}
	return false
}

// condSQL renders a value filter, or one on the column being set or
// empty, as a predicate over entity.column.
func (b *builder) condSQL(f semantic.Filter) (string, bool) {
	col := f.Field
	if d := b.p.m.Dimension(f.Field); d != nil {
		e, c, ok := simpleRef(d.Expr)
		if !ok {
			return "", false
		}
		col = e + "." + c
	}
	flag := false
	if e, c, ok := strings.Cut(col, "."); ok {
		if ent := b.p.m.Entity(e); ent != nil {
			cl := ent.Column(c)
			flag = cl != nil && cl.Type == quarry.TypeBool
		}
	}
	var lits []string
	for _, v := range f.Values {
		if l, ok := semantic.BoolLiteral(v); ok && flag {
			lits = append(lits, l)
			continue
		}
		switch x := v.(type) {
		case string:
			lits = append(lits, "'"+strings.ReplaceAll(x, "'", "''")+"'")
		case bool:
			lits = append(lits, strings.ToUpper(strconv.FormatBool(x)))
		case int, int64, float64:
			lits = append(lits, fmt.Sprint(x))
		default:
			return "", false
		}
	}
	switch {
	case f.Op == semantic.OpNotNull && len(lits) == 0:
		// "the share of orders that used a discount code"
		return col + " IS NOT NULL", true
	case f.Op == semantic.OpNull && len(lits) == 0:
		return col + " IS NULL", true
	case f.Op == semantic.OpEq && len(lits) == 1:
		return col + " = " + lits[0], true
	case f.Op == semantic.OpEq:
		return col + " IN (" + strings.Join(lits, ", ") + ")", true
	case f.Op == semantic.OpNe && len(lits) == 1:
		// "not X" keeps the rows with no value, as the compiler's
		// filters do (found from outside: the share of orders that did
		// not use a code left out those with none, 9.7% for 97.5%).
		return semantic.OrNull(col, col+" <> "+lits[0]), true
	case f.Op == semantic.OpNe, f.Op == semantic.OpNotIn:
		return semantic.OrNull(col, col+" NOT IN ("+strings.Join(lits, ", ")+")"), true
	}
	return "", false
}

// aggregateOf is the upper-cased expression of a metric or an ad hoc
// measure; false for a derived metric (a formula over others).
func (b *builder) aggregateOf(name string) (string, bool) {
	expr := ""
	for _, a := range b.adhoc {
		if a.Name == name {
			expr = a.Expr
		}
	}
	if m := b.p.m.Metric(name); m != nil {
		if m.Derived != "" {
			return "", false
		}
		expr = m.Expr
	}
	return strings.ToUpper(strings.TrimSpace(expr)), true
}

// additive reports whether a metric adds up across groups: a plain sum, or
// a count of rows that is not distinct.
func (b *builder) additive(name string) bool {
	x, ok := b.aggregateOf(name)
	if !ok {
		return false
	}
	switch {
	case strings.HasPrefix(x, "SUM(") && strings.HasSuffix(x, ")"):
		return true
	case strings.HasPrefix(x, "COUNT(") && strings.HasSuffix(x, ")"):
		return !strings.HasPrefix(strings.TrimSpace(x[6:]), "DISTINCT")
	}
	return false
}

// rankedShareOfSome reports whether a ranking of groups is by a share of
// some rows ("which channel has the highest share of refunded orders"):
// by each group's part of all refunds, or by its refund rate?
func (b *builder) rankedShareOfSome() bool {
	if len(b.q.Order) == 0 && b.q.Limit == 0 {
		return false
	}
	if len(b.q.Filters) > 0 {
		return true
	}
	if len(b.q.Metrics) != 1 {
		return false
	}
	m := b.p.m.Metric(b.q.Metrics[0])
	return m != nil && len(m.Filters) > 0 && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(m.Expr)), "COUNT(")
}

// nonTimeDimensions counts the query's dimensions that are not a time
// grain.
func (b *builder) nonTimeDimensions() int {
	// A table's key and label grouped together ("by vehicle class":
	// vehicle_classes.id, .name) are one grouping (found from outside:
	// "share of rentals by vehicle class" refused as two).
	var seen []string
	for _, d := range b.q.Dimensions {
		if d.Grain != "" || isTimeDim(d.Name) {
			continue
		}
		k := lower(d.Name)
		if ent, col, ok := strings.Cut(d.Name, "."); ok {
			if e := b.p.entity(ent); e != nil && (strings.EqualFold(col, e.PrimaryKey) || strings.EqualFold(col, b.p.label(e))) {
				k = lower(e.Name) + "."
			}
		}
		if !slices.Contains(seen, k) {
			seen = append(seen, k)
		}
	}
	return len(seen)
}

// isTimeDim reports whether a dimension reference is the time axis.
func isTimeDim(name string) bool {
	switch semantic.Grain(name) {
	case semantic.GrainDay, semantic.GrainWeek, semantic.GrainMonth, semantic.GrainQuarter, semantic.GrainYear, semantic.GrainDayOfWeek:
		return true
	}
	return name == "time"
}
