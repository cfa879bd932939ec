package verify

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/quarrydata/quarry/internal/semantic"
)

// CheckSatisfiable is the check that a query's filters, with the filters
// its metrics always apply, can all hold of one row.
const CheckSatisfiable = "satisfiable_filters"

// constraint is what the filters on one column allow.
type constraint struct {
	label   string          // the column, as the reader knows it
	allowed map[string]bool // nil: any value; else the only values allowed
	where   []string        // where each equality came from, for the message
	lo, hi  float64         // numeric bounds
	loIncl  bool
	hiIncl  bool
	// isNull says where the column was required to be NULL; valued,
	// where it was required to hold a value (any comparison, a period).
	isNull, valued []string
	// excluded are the values a "not" filter leaves out (which keeps the
	// rows with no value), and where it came from.
	excluded map[string]bool
	notWhere []string
}

// Contradictions says why no row can match a semantic query: for each of
// its metrics, the query's filters and the metric's own filters (which
// apply to that metric alone) are intersected per column, and an empty
// set of values or an empty numeric range is reported ("orders.status
// must be 'completed' (metric completed orders) and 'cancelled' (the
// question)"). It returns nil when every metric can match some row.
// Filters it cannot read (LIKE, a metric filter that is not a plain
// equality, IN or comparison) are left out, so it never reports a
// contradiction that is not one.
func Contradictions(m *semantic.Model, q *semantic.Query) []string {
	if m == nil || q == nil {
		return nil
	}
	base := map[string]*constraint{}
	for _, f := range q.Filters {
		key, label := columnOf(m, f.Field)
		if key == "" || f.Against != "" {
			continue // a comparison with the data's own average bounds nothing known
		}
		addFilter(base, key, label, f.Op, f.Values, "the question")
	}
	out := periodAgainstFilters(m, q)
	report := func(cs map[string]*constraint, metric string) {
		for _, c := range cs {
			if why := c.empty(); why != "" {
				msg := why
				if metric != "" {
					msg += " for " + metric
				}
				out = append(out, msg)
			}
		}
	}
	if len(q.Metrics) == 0 {
		report(base, "")
		return dedupe(out)
	}
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		cs := clone(base)
		if tr := q.TimeRange; tr != nil && (tr.From != "" || tr.To != "") {
			// A period requires the metric's time column to hold a date.
			field := tr.Field
			if field == "" && mt != nil {
				field = timeColumn(m, mt)
			}
			if key, label := columnOf(m, field); key != "" {
				addFilter(cs, key, label, semantic.OpNotNull, nil, "the question's period")
			}
		}
		if mt != nil {
			for _, expr := range mt.Filters {
				key, op, vals, ok := parsePredicate(expr)
				if !ok {
					continue
				}
				addFilter(cs, key, key, op, vals, "metric "+mt.Name)
			}
		}
		report(cs, "")
	}
	return dedupe(out)
}

// periodAgainstFilters is why a query's period and a filter on the same
// date cannot both hold: "how many memberships expire in 2027" read with
// "expired" as membership_expires before the as-of day and the period
// 2027 (found from outside: 0 at 1.00, where 112 expire then). Dates are
// compared as written, YYYY-MM-DD.
func periodAgainstFilters(m *semantic.Model, q *semantic.Query) []string {
	tr := q.TimeRange
	if tr == nil || tr.Field == "" || tr.From == "" && tr.To == "" {
		return nil
	}
	key, label := columnOf(m, tr.Field)
	if key == "" {
		return nil
	}
	var out []string
	for _, f := range q.Filters {
		if k, _ := columnOf(m, f.Field); k != key || f.Against != "" || len(f.Values) != 1 || f.OrNull {
			continue
		}
		v, ok := f.Values[0].(string)
		if !ok || len(v) < 10 || v[4] != '-' || v[7] != '-' {
			continue
		}
		v = v[:10]
		switch f.Op {
		case semantic.OpLt, semantic.OpLe:
			if tr.From != "" && (v < tr.From || f.Op == semantic.OpLt && v == tr.From) {
				out = append(out, fmt.Sprintf("%s must be %s %s, and in the period from %s", label, f.Op, v, tr.From))
			}
		case semantic.OpGt, semantic.OpGe:
			if tr.To != "" && v >= tr.To {
				out = append(out, fmt.Sprintf("%s must be %s %s, and in the period before %s", label, f.Op, v, tr.To))
			}
		}
	}
	return out
}

// timeColumn is the entity.column that places a metric in time.
func timeColumn(m *semantic.Model, mt *semantic.Metric) string {
	if mt.Time != "" {
		return mt.Time
	}
	if e := m.Entity(mt.Entity); e != nil && e.TimeColumn != "" {
		return e.Name + "." + e.TimeColumn
	}
	return ""
}

func dedupe(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func clone(cs map[string]*constraint) map[string]*constraint {
	out := make(map[string]*constraint, len(cs))
	for k, c := range cs {
		cc := *c
		if c.allowed != nil {
			cc.allowed = make(map[string]bool, len(c.allowed))
			for v := range c.allowed {
				cc.allowed[v] = true
			}
		}
		cc.where = append([]string(nil), c.where...)
		out[k] = &cc
	}
	return out
}

// columnOf resolves a filter's field to the column it reads: a dimension
// over one plain entity.column, or an entity.column. Other fields (a
// dimension over an expression) are not compared.
func columnOf(m *semantic.Model, field string) (key, label string) {
	expr := field
	if d := m.Dimension(field); d != nil {
		expr = d.Expr
	}
	if !plainColumn().MatchString(expr) {
		return "", ""
	}
	return strings.ToLower(expr), expr
}

var plainColumn = lazyRE(`^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$`)

func addFilter(cs map[string]*constraint, key, label string, op semantic.Op, vals []any, from string) {
	c := cs[key]
	if c == nil {
		c = &constraint{label: label, lo: math.Inf(-1), hi: math.Inf(1), loIncl: true, hiIncl: true}
		cs[key] = c
	}
	switch op {
	case semantic.OpNull:
		c.isNull = append(c.isNull, "empty ("+from+")")
		return
	case semantic.OpNotNull:
		c.valued = append(c.valued, "set ("+from+")")
		return
	case semantic.OpNe, semantic.OpNotIn:
		// "not X" keeps the rows with no value (semantic.OrNull): no
		// value is required, only X left out.
		if c.excluded == nil {
			c.excluded = map[string]bool{}
		}
		for _, v := range vals {
			c.excluded[valueKey(v)] = true
			if c.allowed != nil {
				delete(c.allowed, valueKey(v))
			}
		}
		c.notWhere = append(c.notWhere, "not "+valuesText(vals)+" ("+from+")")
		return
	case semantic.OpLike, semantic.OpPrefix, semantic.OpSuffix:
		c.valued = append(c.valued, string(op)+" "+valuesText(vals)+" ("+from+")")
		return
	}
	c.valued = append(c.valued, string(op)+" "+valuesText(vals)+" ("+from+")")
	switch op {
	case semantic.OpEq, semantic.OpIn:
		set := map[string]bool{}
		var shown []string
		for _, v := range vals {
			set[valueKey(v)] = true
			shown = append(shown, valueText(v))
		}
		if c.allowed == nil {
			c.allowed = set
		} else {
			for v := range c.allowed {
				if !set[v] {
					delete(c.allowed, v)
				}
			}
		}
		for v := range c.excluded {
			delete(c.allowed, v)
		}
		c.where = append(c.where, strings.Join(shown, " or ")+" ("+from+")")
		for _, v := range vals {
			if f, ok := semantic.NumberOf(v); ok {
				c.number(semantic.OpGe, f)
				c.number(semantic.OpLe, f)
				break
			}
		}
	case semantic.OpLt, semantic.OpLe, semantic.OpGt, semantic.OpGe:
		if len(vals) == 1 {
			if f, ok := semantic.NumberOf(vals[0]); ok {
				c.number(op, f)
				c.where = append(c.where, string(op)+" "+valueText(vals[0])+" ("+from+")")
			}
		}
	}
}

func (c *constraint) number(op semantic.Op, f float64) {
	switch op {
	case semantic.OpGt, semantic.OpGe:
		if f > c.lo || f == c.lo && op == semantic.OpGt {
			c.lo, c.loIncl = f, op == semantic.OpGe
		}
	case semantic.OpLt, semantic.OpLe:
		if f < c.hi || f == c.hi && op == semantic.OpLt {
			c.hi, c.hiIncl = f, op == semantic.OpLe
		}
	}
}

// empty says why no value satisfies c, or "".
func (c *constraint) empty() string {
	if len(c.isNull) > 0 && len(c.valued) > 0 {
		return fmt.Sprintf("%s must be %s and %s at once; no row can match", c.label, c.isNull[0], c.valued[0])
	}
	numeric := c.lo > c.hi || c.lo == c.hi && !(c.loIncl && c.hiIncl)
	if c.allowed != nil && len(c.allowed) == 0 || numeric && len(c.where) > 1 {
		return fmt.Sprintf("%s must be %s at once; no row can match", c.label, strings.Join(append(slices.Clone(c.where), c.notWhere...), " and "))
	}
	return ""
}

// valueKey is what two values compare equal by, erring towards equal: a
// false contradiction would refuse a fair question. A text that reads as a
// number is that number (engines compare a number column with '30' as
// 30).
func valueKey(v any) string {
	if f, ok := semantic.NumberOf(v); ok {
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	if s, ok := v.(string); ok {
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
			return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	// Case is ignored: MySQL's usual collations compare text without it.
	return "s:" + strings.ToLower(fmt.Sprint(v))
}

func valueText(v any) string {
	if s, ok := v.(string); ok {
		return "'" + s + "'"
	}
	return fmt.Sprint(v)
}

// parsePredicate reads a metric filter in its plain forms
// (semantic.ParsePredicate): the lower-cased entity.column, the operator
// and the literals.
func parsePredicate(expr string) (key string, op semantic.Op, vals []any, ok bool) {
	f, ok := semantic.ParsePredicate(expr)
	return strings.ToLower(f.Field), f.Op, f.Values, ok
}

// CheckZeroGroups is the check that a condition on a per-group count or
// sum that admits zero ("fewer than 2 sections", "less than 500 revenue")
// was not computed from the counted rows alone, which leaves out the
// groups that have none.
const CheckZeroGroups = "zero_groups"

// ZeroGroup is a filter on a count that admits zero over a grouping by
// another entity: Group's rows with no Counted row are missing from such a
// result, unless none exist.
type ZeroGroup struct {
	Counted, Group string // entity names (Group: the dimension, for an attribute of the counted rows)
	Dimension      string // the query's grouping
	Why            string // one line, for a check or a refusal
}

// ZeroGroupsMissing finds each filter on a count that admits zero where the
// count is grouped by another entity's columns: the compiler reads the
// counted entity's rows, so a group with none of them never appears
// ("every course with fewer than 2 sections" would leave out the courses
// with no section). It returns nil when no such filter is present.
func ZeroGroupsMissing(m *semantic.Model, q *semantic.Query) []ZeroGroup {
	if m == nil || q == nil || len(q.Dimensions) == 0 {
		return nil
	}
	var out []ZeroGroup
	conds := q.Filters
	// "the customer with the fewest orders", "bottom 3 products by units
	// sold": ranking up from the smallest counts would start at zero. So
	// would a whole list lowest first over a period or a filter ("worst
	// selling products last month"), whose first row is read as the
	// lowest; a whole list of every row's count is a listing.
	if q.Limit > 0 || q.TimeRange != nil || len(Conditions(q)) > 0 {
		for _, o := range q.Order {
			if !o.Desc {
				conds = append(conds, semantic.Filter{Field: o.Field, Op: semantic.OpLe, Values: []any{int64(0)}})
			}
		}
	}
	// A condition on the same measure that 0 fails ("at least 2 orders
	// and at most 3") keeps the groups with none out whatever the others.
	nonZero := map[string]bool{}
	for _, f := range q.Filters {
		if m.Metric(f.Field) != nil && !f.OnRelated() && !admitsZero(f) {
			nonZero[strings.ToLower(f.Field)] = true
		}
	}
	for i, f := range conds {
		ranking := i >= len(q.Filters)
		mt := m.Metric(f.Field)
		if mt == nil || f.OnRelated() || !mt.Additive() || !admitsZero(f) || nonZero[strings.ToLower(f.Field)] {
			continue
		}
		for _, d := range q.Dimensions {
			ent := dimensionEntity(m, d.Name)
			if ent == "" && d.Grain != "" {
				// "which month had the fewest …": a period of the counted
				// rows' own date, whose buckets with none have no row.
				ent = mt.Entity
			}
			if ent == "" {
				continue
			}
			if strings.EqualFold(ent, mt.Entity) {
				// An attribute of the counted rows themselves: its values
				// all have rows, unless a period or a filter leaves some
				// out ("the channel with the fewest orders today", "cities
				// with fewer than 3 signups this month").
				others := 0
				for _, g := range Conditions(q) {
					if m.Metric(g.Field) == nil {
						others++
					}
				}
				if q.TimeRange == nil && others == 0 && len(mt.Filters) == 0 {
					continue
				}
				why := fmt.Sprintf("the lowest %s is computed from the %s rows the period and filters keep, so a %s with none of them would be missing from the bottom", metricLabel(mt), mt.Entity, d.Name)
				if !ranking {
					why = fmt.Sprintf("%s %s %s is computed from the %s rows the period and filters keep, so a %s with none of them would be missing", metricLabel(mt), f.Op, valuesText(f.Values), mt.Entity, d.Name)
				}
				out = append(out, ZeroGroup{Counted: mt.Entity, Group: d.Name, Dimension: d.Name, Why: why})
				break
			}
			// A ranking from the lowest misses the groups with none: the
			// rows of the entity it ranks ("the customer with the fewest
			// orders") and the values of an attribute of another entity
			// ("the department with the fewest tickets": departments whose
			// employees have no ticket).
			groups := ent // the rows of the entity ranked ("customers") …
			if !strings.Contains(d.Name, ".") {
				groups = d.Name + " values" // … or the values of an attribute of it ("department values")
			}
			why := fmt.Sprintf("%s %s %s is computed from the %s rows, so %s with no %s would be missing", metricLabel(mt), f.Op, valuesText(f.Values), mt.Entity, groups, mt.Entity)
			if ranking {
				why = fmt.Sprintf("the lowest %s is computed from the %s rows, so %s with no %s would be missing from the bottom", metricLabel(mt), mt.Entity, groups, mt.Entity)
			}
			out = append(out, ZeroGroup{Counted: mt.Entity, Group: ent, Dimension: d.Name, Why: why})
			break
		}
	}
	return out
}

// Conditions are the query's filters less those that only keep a
// grouping's missing value out of a ranking (is_not_null on a field it
// groups by: "which discount code has the most orders" ranks codes, not
// the orders with none): they leave every group of a value as it is.
func Conditions(q *semantic.Query) []semantic.Filter {
	var out []semantic.Filter
	for _, f := range q.Filters {
		if f.Op == semantic.OpNotNull && groupsBy(q, f.Field) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func groupsBy(q *semantic.Query, field string) bool {
	for _, d := range q.Dimensions {
		if strings.EqualFold(d.Name, field) {
			return true
		}
	}
	return false
}

// metricLabel names a metric in a sentence: its description when that is
// a short phrase ("number of Sections"), else its name.
func metricLabel(mt *semantic.Metric) string {
	if d := strings.TrimSpace(mt.Description); d != "" && len(d) <= 40 && !strings.ContainsAny(d, ".;:") {
		return d
	}
	return strings.ReplaceAll(mt.Name, "_", " ")
}

func valuesText(vals []any) string {
	var parts []string
	for _, v := range vals {
		parts = append(parts, valueText(v))
	}
	return strings.Join(parts, ", ")
}

// admitsZero reports whether a count of 0 satisfies f.
func admitsZero(f semantic.Filter) bool { return semantic.CountAdmitsZero(f) }

// dimensionEntity returns the entity a query dimension groups by.
func dimensionEntity(m *semantic.Model, name string) string {
	if d := m.Dimension(name); d != nil {
		return d.Entity
	}
	if ent, _, ok := strings.Cut(name, "."); ok {
		if e := m.Entity(ent); e != nil {
			return e.Name
		}
	}
	return ""
}

// CheckPeriodDate is the check that a question's period was applied to
// the date it most likely means.
const CheckPeriodDate = "period_date"

var stateColumn = lazyRE(`(?i)(status|state|stage)`)

// PeriodDate says when a period was applied to a metric's default date
// while the question filters its rows by a state that is an event (a
// status column's "cancelled", "closed", "shipped") and the table has
// other dates that could be when that event happened:
// "subscriptions cancelled last month" filtered on the start date. It
// returns "" when the period names its date, or the table has one date.
func PeriodDate(m *semantic.Model, q *semantic.Query) string {
	// A time grain on the measure's own date ("cancelled subscriptions by
	// month") dates the rows as a period does.
	if m == nil || q == nil || (q.TimeRange == nil || q.TimeRange.Field != "") && (q.TimeRange != nil || OwnGrain(m, q) == "") || len(q.Compare) > 0 {
		return ""
	}
	var dated []string // the measures' dates, or the listed rows'
	for _, name := range q.Metrics {
		if mt := m.Metric(name); mt != nil {
			dated = append(dated, timeColumn(m, mt))
		}
	}
	if q.Rows != nil && len(q.Metrics) == 0 {
		// "checked_out reservations last month": listed by the day they
		// were booked (found from outside).
		if e := m.Entity(q.Rows.Entity); e != nil && e.TimeColumn != "" {
			dated = append(dated, e.Name+"."+e.TimeColumn)
		}
	}
	for _, tc := range dated {
		ent, col, ok := strings.Cut(tc, ".")
		e := m.Entity(ent)
		if !ok || e == nil {
			continue
		}
		var others []string
		for _, c := range e.Columns {
			if c.Temporal() && !strings.EqualFold(c.Name, col) && !m.IsRestricted(e.Name, c.Name) && !semantic.DeletionDate(c) && semantic.PlanWord(c.Name) == "" {
				others = append(others, c.Name)
			}
		}
		states, flagged := eventStates(m, e, q.Filters)
		if len(states) == 0 {
			continue
		}
		all := others
		// A decision may have come at the end of rows dated by their
		// making (a claim's reported_at, a start by its role), not of
		// rows that run from a day named so (a leave's start_dt).
		others = datesOf(e, states, others, !startNamed(col))
		// A decision on rows dated by their making (requested_at, not a
		// start_date the row runs from) may be when it was decided:
		// "total amount of approved refunds in 2025" by requested_at,
		// where refunds have decided_at (found from outside: 89,891.31
		// against 104,302.64 decided in 2025, at 1.00).
		decision := slices.ContainsFunc(states, func(s string) bool {
			return slices.ContainsFunc(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }), semantic.DecisionState)
		})
		if decision && !startNamed(col) {
			for _, name := range all {
				if semantic.DecisionDate(name) && !slices.Contains(others, name) {
					others = append(others, name)
				}
			}
		}
		if len(others) == 0 {
			if c := e.Column(col); !flagged && c != nil && c.TimeRole == semantic.TimeRoleStart && laterState(states) {
				// "paused subscriptions last month": in that state now,
				// since a day no column holds; not those started then.
				return fmt.Sprintf("the period was applied to %s.%s, the day each row began, but the question picks %s that are %s, which came about later; if the period is when that happened, %s has no date of it",
					e.Name, col, e.Name, strings.Join(states, ", "), e.Name)
			}
			if !flagged {
				continue
			}
			// "products discontinued last year": no date says when.
			return fmt.Sprintf("the question picks %s that are %s in a period, but %s has no date of that; the period would be applied to %s.%s, which is another event",
				e.Name, strings.Join(states, ", "), e.Name, e.Name, col)
		}
		return fmt.Sprintf("the period was applied to %s.%s, but the question picks %s rows that are %s and %s also has %s; if the period is when that happened, name that date",
			e.Name, col, e.Name, strings.Join(states, ", "), e.Name, strings.Join(others, ", "))
	}
	return ""
}

// PeriodUndated says when a period was applied to the date a table's rows
// were made while the question picks them by a state they came to later
// (delivered, cancelled, refunded) of which the table holds no date at
// all: "orders delivered last month", where orders have only ordered_at,
// are the orders of that month that are delivered now, not those
// delivered in it. That is the best the data allows, so it is said, not
// refused (found from outside: "how many orders were delivered last
// month" answered by order date at confidence 1.00, without a word). It
// returns "" where PeriodDate speaks, or the state is the time column's
// own event (shipped, by ship_dt).
func PeriodUndated(m *semantic.Model, q *semantic.Query) string {
	// A time grain on the measure's own date ("refunded invoices by
	// month") dates the rows as a period does.
	if m == nil || q == nil || (q.TimeRange == nil || q.TimeRange.Field != "") && (q.TimeRange != nil || OwnGrain(m, q) == "") || len(q.Compare) > 0 || PeriodDate(m, q) != "" {
		return ""
	}
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil {
			continue
		}
		ent, col, ok := strings.Cut(timeColumn(m, mt), ".")
		e := m.Entity(ent)
		if !ok || e == nil || begins(e.Column(col)) {
			continue
		}
		states, flagged := eventStates(m, e, q.Filters)
		if len(states) == 0 || flagged || !laterState(states) || sharesStart(col, states) {
			continue
		}
		var others []string
		for _, c := range e.Columns {
			if c.Temporal() && !strings.EqualFold(c.Name, col) && !m.IsRestricted(e.Name, c.Name) && semantic.PlanWord(c.Name) == "" {
				others = append(others, c.Name) // a planned date (requested_delivery_on) is none of it
			}
		}
		if len(datesOf(e, states, others, true)) > 0 {
			continue
		}
		what := "period"
		if q.TimeRange == nil {
			what = string(OwnGrain(m, q))
		}
		return fmt.Sprintf("%s has no date of when its rows became %s: each %s is by %s.%s, so these are the %s of that %s that are %s now, not those that became so in it",
			e.Name, strings.Join(states, ", "), what, e.Name, col, e.Name, what, strings.Join(states, ", "))
	}
	return ""
}

// sharesStart reports whether a column's name and one of the states share
// the start of a word (shipped: ship_dt), so the column is that state's date.
func sharesStart(col string, states []string) bool {
	for _, cw := range strings.FieldsFunc(strings.ToLower(col), func(r rune) bool { return !unicode.IsLetter(r) }) {
		for _, s := range states {
			for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
				if len(cw) >= 4 && len(w) >= 4 && cw[:4] == w[:4] {
					return true
				}
			}
		}
	}
	return false
}

// datesOf are the dates of e, among others, that may be when one of the
// states came about: one whose name shares the start of a state's word
// (cancelled: cancellation_date; delivered: delivery_dt; shipped:
// ship_dt), or, for a state that ends the row (cancelled, closed,
// terminated …), an end date. The end of a leave is not when it was
// approved (found from outside: "days of approved leave in 2025" was
// refused for end_dt).
//
// A decision (approved, denied …) on rows dated by something that came
// before it, not by their start (a claim by its incident), may be when
// they were closed too: decided says so (found from outside: "approved
// claims last month" were counted by incident date). A leave dated by
// its start was approved before it, not when it ended.
func datesOf(e *semantic.Entity, states, others []string, decided bool) []string {
	var words []string
	for _, s := range states {
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len(w) >= 4 {
				words = append(words, w)
			}
		}
	}
	ends := slices.ContainsFunc(words, endingState) || decided && slices.ContainsFunc(words, semantic.DecisionState)
	var out []string
	for _, name := range others {
		c := e.Column(name)
		cws := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) })
		// An end date that names another way of ending (cancelled_dt,
		// for "completed") is not when this one came about.
		other := slices.ContainsFunc(cws, func(cw string) bool {
			return endingState(cw) && !genericEnd(cw) && !slices.ContainsFunc(words, func(w string) bool { return cw[:4] == w[:4] })
		})
		keep := ends && !other && (c != nil && c.TimeRole == semantic.TimeRoleEnd || slices.ContainsFunc(cws, endingState))
		for _, cw := range cws {
			if len(cw) < 4 {
				continue
			}
			for _, w := range words {
				keep = keep || cw[:4] == w[:4]
			}
		}
		if keep {
			out = append(out, name)
		}
	}
	return out
}

// laterState reports whether one of the states is one a row comes to be in
// after it began (paused, cancelled, expired), not a decision made on it
// before (approved, rejected, scheduled, confirmed).
func laterState(states []string) bool {
	for _, s := range states {
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
			switch w {
			case "approved", "rejected", "denied", "declined", "accepted", "confirmed", "scheduled", "booked", "planned", "requested", "submitted":
			default:
				if pastWord(w) {
					return true
				}
			}
		}
	}
	return false
}

// pastWord reports whether a state's word is a past form, a thing that
// happened: cancelled, shipped, and the irregular ones (sold, paid, lost).
func pastWord(w string) bool {
	if parts := strings.FieldsFunc(w, func(r rune) bool { return r == '_' || r == ' ' || r == '-' }); len(parts) > 1 {
		// "checked_out", "checked in": a past form among its words
		// (found from outside: "reservations checked out in January"
		// by the day they were booked).
		return slices.ContainsFunc(parts, pastWord)
	}
	switch w {
	case "sold", "paid", "lost", "won", "sent", "bought", "spent", "held", "left", "made", "built", "taken", "given", "written", "done", "withdrawn", "shown", "drawn":
		return true
	}
	return strings.HasSuffix(w, "ed")
}

// startNamed reports whether a date's name says its rows run from it
// (start_dt, begin_date, effective_from), not that they were made then.
func startNamed(col string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(col), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if strings.HasPrefix(w, "start") || strings.HasPrefix(w, "begin") || w == "effective" || w == "from" {
			return true
		}
	}
	return false
}

// begins reports whether c is the day its rows begin: a start date by its
// role or its name (start_dt, begin_date, effective_from).
func begins(c *semantic.Column) bool {
	if c == nil {
		return false
	}
	return c.TimeRole == semantic.TimeRoleStart || startNamed(c.Name)
}

// genericEnd reports whether a word of a date's name says the row ended
// without saying how: end, ended, closed, finished.
func genericEnd(w string) bool {
	for _, p := range []string{"end", "close", "finish"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// endingState reports whether a word says a row's life ended: cancelled,
// closed, terminated, expired, churned, resolved …
func endingState(w string) bool {
	for _, p := range []string{"cancel", "close", "terminat", "end", "expir", "churn", "finish", "complet", "resolv", "depart", "discontinu", "withdr", "lapse", "discharg", "graduat"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return w == "left" || w == "quit"
}

// eventStates are the states of e's rows that filters pick that are
// events, which happened on a date of their own: a status column's
// "cancelled", "closed", "shipped" ("active" did not happen), or a flag
// named for an event ("discontinued", "churned") that holds (flagged).
func eventStates(m *semantic.Model, e *semantic.Entity, filters []semantic.Filter) (states []string, flagged bool) {
	for _, f := range filters {
		if f.Op != semantic.OpEq && f.Op != semantic.OpIn {
			continue
		}
		key, _ := columnOf(m, f.Field)
		if _, col, ok := strings.Cut(key, "."); ok && strings.HasPrefix(key, strings.ToLower(e.Name)+".") && strings.HasSuffix(col, "ed") && truthy(f.Values) {
			states = append(states, col)
			flagged = true
			continue
		}
		if !strings.HasPrefix(key, strings.ToLower(e.Name)+".") || !stateColumn().MatchString(key) {
			continue
		}
		for _, v := range f.Values {
			if s, ok := v.(string); ok && pastWord(strings.ToLower(s)) {
				states = append(states, valuesText(f.Values))
				break
			}
		}
	}
	return states, flagged
}

// OrderDate says when a list of rows is sorted by one of its table's
// dates while the question picks the rows by a state that is an event
// and the table has other dates that could be when it happened: "which
// subscription was cancelled most recently" sorted by the start date.
// It returns "" when the table has no other date.
func OrderDate(m *semantic.Model, q *semantic.Query) string {
	if m == nil || q == nil || q.Rows == nil || len(q.Order) == 0 {
		return ""
	}
	e := m.Entity(q.Rows.Entity)
	if e == nil {
		return ""
	}
	for _, o := range q.Order {
		field := o.Field
		if !strings.Contains(field, ".") {
			field = e.Name + "." + field
		}
		key, _ := columnOf(m, field)
		ent, colName, ok := strings.Cut(key, ".")
		if !ok || !strings.EqualFold(ent, e.Name) {
			continue
		}
		col := e.Column(colName)
		if col == nil || !col.Temporal() {
			continue
		}
		var others []string
		for _, c := range e.Columns {
			if c.Temporal() && !strings.EqualFold(c.Name, col.Name) && !m.IsRestricted(e.Name, c.Name) {
				others = append(others, c.Name)
			}
		}
		if states, _ := eventStates(m, e, q.Filters); len(states) > 0 && len(datesOf(e, states, others, !begins(col))) > 0 {
			others = datesOf(e, states, others, !begins(col))
			return fmt.Sprintf("the rows were sorted by %s.%s, but the question picks %s rows that are %s and %s also has %s; if the order is by when that happened, name that date",
				e.Name, col.Name, e.Name, strings.Join(states, ", "), e.Name, strings.Join(others, ", "))
		}
		// "customers who cancelled their subscriptions most recently":
		// the rows are picked by an event of another table's rows, which
		// has a date of its own there; sorted by the list's own date.
		for _, f := range q.Filters {
			if f.Op != semantic.OpSome {
				continue
			}
			re := m.Entity(f.Field)
			if re == nil {
				continue
			}
			var dates []string
			for _, c := range re.Columns {
				if c.Temporal() && !m.IsRestricted(re.Name, c.Name) {
					dates = append(dates, c.Name)
				}
			}
			if states, _ := eventStates(m, re, f.Where); len(states) > 0 && len(dates) > 0 {
				return fmt.Sprintf("the rows were sorted by %s.%s, but the question picks %s by %s rows that are %s, which have dates of their own (%s); if the order is by when that happened, ask for the %s themselves",
					e.Name, col.Name, e.Name, re.Name, strings.Join(states, ", "), strings.Join(dates, ", "), re.Name)
			}
		}
	}
	return ""
}

// truthy reports whether a filter's values say a flag holds (1, true,
// 'yes').
func truthy(vals []any) bool {
	for _, v := range vals {
		switch x := v.(type) {
		case bool:
			return x
		case int64:
			return x == 1
		case float64:
			return x == 1
		case string:
			switch strings.ToLower(x) {
			case "1", "true", "t", "yes", "y":
				return true
			}
		}
	}
	return false
}

// knownElsewhere names the columns (entity.column) whose known values
// hold v, without regard to case: where a value filtered on a column
// that does not list it is known.
func knownElsewhere(m *semantic.Model, v string) []string {
	var out []string
	for _, e := range m.Entities {
		for _, c := range e.Columns {
			if containsFold(c.Values, v) {
				out = append(out, e.Name+"."+c.Name)
			}
		}
	}
	return out
}
