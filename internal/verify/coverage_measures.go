package verify

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// The measures and columns a question names (Coverage).

// columns: a numeric column the question names ("unit price", "cost") is
// used by the query: measured, filtered on, grouped or sorted by.
func (c *cover) columns() (ok, bad []string) {
	if len(c.q.Metrics) == 0 {
		return nil, nil
	}
	u := c.usedText()
	// The numeric columns the question names, in groups that share the
	// words it names them by ("price": products.unit_price and
	// plans.monthly_price): the query must use one of each group.
	groups := map[string][]string{}
	var order []string
	for _, e := range c.m.Entities {
		for _, col := range e.Columns {
			if !col.Type.IsNumeric() || strings.EqualFold(col.Name, e.PrimaryKey) || strings.HasSuffix(strings.ToLower(col.Name), "id") {
				continue
			}
			said := c.saysColumn(col.Name)
			if said == "" {
				said = c.saysOwn(e.Name, col.Name)
			}
			if said == "" {
				continue
			}
			if _, seen := groups[said]; !seen {
				order = append(order, said)
			}
			groups[said] = append(groups[said], e.Name+"."+col.Name)
		}
	}
	have := c.filterValues()
	for _, said := range order {
		if have[said] {
			// "active order lines" is status = 'active', not a
			// number named is_active elsewhere.
			ok = append(ok, said)
			continue
		}
		cols := groups[said]
		var usedCol string
		for _, col := range cols {
			// By its whole reference first: "age" of pet_age is not
			// students.age.
			if strings.Contains(u, strings.ToLower(col)) {
				usedCol = col
				break
			}
		}
		for _, col := range cols {
			_, name, _ := strings.Cut(col, ".")
			if usedCol == "" && strings.Contains(u, strings.ToLower(name)) {
				usedCol = col
				break
			}
		}
		if usedCol == "" && c.flagsSaidElsewhere(cols, said, u) {
			// "how many students were deleted": students.deleted_at,
			// not the staff's is_deleted flag (found from outside:
			// refused).
			ok = append(ok, said)
			continue
		}
		if usedCol == "" {
			bad = append(bad, "the question names "+said+" ("+strings.Join(cols, " or ")+"), which the query does not use")
			continue
		}
		missing := false
		for _, a := range c.aggregatesOf(said) {
			if !c.aggregates(a.fn, usedCol) {
				bad = append(bad, fmt.Sprintf("the question asks for the %s %s, but the query computes no %s of %s", a.word, said, a.fn, usedCol))
				missing = true
			}
		}
		if !missing {
			ok = append(ok, said)
		}
	}
	return ok, bad
}

// saysOwn is how the question names a numeric column named after its own
// table by the rest of its name ("age" of Pets.pet_age, "amount" of
// charge_amount), where it also names the table ("the age for each type
// of pet"); "" when it does not.
func (c *cover) saysOwn(table, column string) string {
	tw, cw := splitName(table), splitName(column)
	if len(tw) == 0 || len(cw) < 2 {
		return ""
	}
	sg := append(append([]string(nil), tw[:len(tw)-1]...), Singular(tw[len(tw)-1]))
	for _, t := range [][]string{tw, sg} {
		if len(cw) <= len(t) {
			continue
		}
		var rest []string
		switch {
		case slices.Equal(cw[:len(t)], t):
			rest = cw[len(t):]
		case slices.Equal(cw[len(cw)-len(t):], t):
			rest = cw[:len(cw)-len(t)]
			if n := len(rest); n > 1 && rest[n-1] == "of" {
				rest = rest[:n-1]
			}
		default:
			continue
		}
		phrase := strings.Join(rest, " ")
		if len(phrase) < 3 || !c.has(strings.Join(tw, " ")) && !c.has(strings.Join(sg, " ")) {
			continue
		}
		if c.has(phrase) {
			return phrase
		}
		if c.has(phrase + "s") {
			return phrase + "s"
		}
	}
	return ""
}

// usedText is every column reference of the query, lower case: its
// metrics' formulas and conditions, filters, groupings and order.
func (c *cover) usedText() string {
	var used strings.Builder
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil {
			used.WriteString(" " + strings.ToLower(mt.Expr+" "+mt.Derived+" "+strings.Join(mt.Filters, " ")))
			for _, part := range metricRefRE().FindAllStringSubmatch(mt.Derived, -1) {
				if sub := c.m.Metric(part[1]); sub != nil {
					used.WriteString(" " + strings.ToLower(sub.Expr+" "+strings.Join(sub.Filters, " ")))
				}
			}
		}
	}
	for _, f := range c.q.Filters {
		used.WriteString(" " + strings.ToLower(f.Field))
		if d := c.m.Dimension(f.Field); d != nil {
			used.WriteString(" " + strings.ToLower(d.Expr))
		}
		for _, w := range f.Where { // the related rows' conditions
			used.WriteString(" " + strings.ToLower(w.Field))
		}
	}
	for _, d := range c.q.Dimensions {
		used.WriteString(" " + strings.ToLower(d.Name))
		if dd := c.m.Dimension(d.Name); dd != nil {
			used.WriteString(" " + strings.ToLower(dd.Expr))
		}
	}
	for _, o := range c.q.Order {
		used.WriteString(" " + strings.ToLower(o.Field))
	}
	// A role read through ("referrer.name", a customer with a referrer)
	// uses the link's column (customers.referred_by).
	roles := slices.Clone(c.q.Via)
	for _, f := range c.q.Filters {
		ent, _, _ := strings.Cut(f.Field, ".")
		roles = append(roles, ent)
	}
	for _, r := range roles {
		if e := c.m.Entity(r); e != nil && e.Role != nil {
			used.WriteString(" " + strings.ToLower(e.Role.From+"."+e.Role.FromColumn))
		}
		// A filter on a table one link leads to ("staff.name" of
		// refund requests, through approved_by) uses that link's column.
		var links []semantic.Relationship
		for _, rel := range c.m.Relationships {
			if strings.EqualFold(rel.To, r) && !strings.EqualFold(rel.From, r) {
				links = append(links, rel)
			}
		}
		for _, rel := range links {
			if !slices.ContainsFunc(links, func(o semantic.Relationship) bool {
				return strings.EqualFold(o.From, rel.From) && !strings.EqualFold(o.FromColumn, rel.FromColumn)
			}) {
				used.WriteString(" " + strings.ToLower(rel.From+"."+rel.FromColumn))
			}
		}
	}
	return used.String()
}

// saysColumn is how the question names a numeric column: all its words
// ("unit price"), or its last word when that is distinctive ("price"),
// or "" when it does not; never a word inside a longer name it uses or a
// metric's name (the measures check holds the query to those).
func (c *cover) saysColumn(name string) string {
	words := splitName(name)
	full := strings.Join(words, " ")
	// A unit at the end of the name is not how a question says it: "net
	// worth" names Net_Worth_Millions.
	bare := words
	for len(bare) > 1 && unitWords[bare[len(bare)-1]] {
		bare = bare[:len(bare)-1]
	}
	for i, phrase := range []string{full, strings.Join(bare, " ")} {
		if i == 1 && phrase == full || len(phrase) < 3 || genericWords[phrase] {
			continue
		}
		said := ""
		switch {
		case c.has(phrase):
			said = phrase
		case c.has(phrase + "s"):
			said = phrase + "s"
		case strings.HasSuffix(phrase, "y") && c.has(strings.TrimSuffix(phrase, "y")+"ies"):
			said = strings.TrimSuffix(phrase, "y") + "ies"
		}
		// The costlier tests only for a phrase the question says.
		if said != "" && !c.inName(phrase) && !c.isMetricName(phrase) {
			return said
		}
	}
	if len(words) < 2 {
		return ""
	}
	last := words[len(words)-1]
	if len(last) < 5 || genericWords[last] || !c.has(last) || c.inName(last) || c.isMetricName(last) || c.isName(last) {
		return ""
	}
	return last
}

// unitWords end a column's name with the unit its values are in.
var unitWords = map[string]bool{
	"millions": true, "million": true, "thousands": true, "thousand": true, "billions": true, "billion": true,
	"usd": true, "eur": true, "gbp": true, "dollars": true, "euros": true, "pct": true, "percent": true,
	"kg": true, "kgs": true, "lbs": true, "km": true, "cm": true, "mm": true, "mph": true, "kmh": true,
	"hours": true, "hrs": true, "minutes": true, "mins": true, "seconds": true, "secs": true, "ms": true,
}

// aggregateWords map a question's words to the aggregate they ask for.
var aggregateWords = []struct{ word, fn string }{
	{"highest", "max"}, {"maximum", "max"}, {"max", "max"}, {"largest", "max"}, {"biggest", "max"}, {"most expensive", "max"},
	{"lowest", "min"}, {"minimum", "min"}, {"min", "min"}, {"smallest", "min"}, {"cheapest", "min"},
	{"average", "avg"}, {"mean", "avg"}, {"avg", "avg"},
}

// aggregatesOf are the aggregates the question asks of a column it names
// ("the highest product price", "the minimum and maximum monthly
// price"): the words of aggregateWords within the four words before it,
// one per function.
func (c *cover) aggregatesOf(said string) []struct{ word, fn string } {
	i := strings.Index(c.text, " "+said+" ")
	if i < 0 {
		return nil
	}
	// Walk back from the column over aggregate words, "and", "the",
	// "of" and the names of rows ("the highest product price"); any other
	// word ends the phrase ("average weight and year": weight's, not
	// year's).
	before := strings.Fields(c.text[:i])
	var out []struct{ word, fn string }
	seen := map[string]bool{}
	for j := len(before) - 1; j >= 0 && j >= len(before)-5; j-- {
		w := before[j]
		matched := false
		for _, a := range aggregateWords {
			if a.word == w || j > 0 && a.word == before[j-1]+" "+w {
				matched = true
				if !seen[a.fn] {
					seen[a.fn] = true
					out = append(out, a)
				}
			}
		}
		if matched || w == "and" || w == "the" || w == "of" || w == "," || c.isEntityWord(w) || w == "expensive" {
			continue
		}
		break
	}
	// "the highest average market rent": the highest of averages, which
	// a ranking orders by, not a maximum beside the average.
	if len(c.q.Order) > 0 && slices.ContainsFunc(out, func(a struct{ word, fn string }) bool { return a.fn == "avg" || a.fn == "sum" }) {
		out = slices.DeleteFunc(out, func(a struct{ word, fn string }) bool { return a.fn == "max" || a.fn == "min" })
	}
	return out
}

// isEntityWord reports whether w names an entity (singular or plural).
func (c *cover) isEntityWord(w string) bool {
	for _, e := range c.m.Entities {
		for _, n := range append([]string{e.Name}, e.Synonyms...) {
			n = strings.ToLower(strings.ReplaceAll(n, "_", " "))
			if n == w || n == w+"s" || n+"s" == w {
				return true
			}
		}
	}
	return false
}

// aggregates reports whether a metric of the query computes fn over col.
func (c *cover) aggregates(fn, col string) bool {
	re := regexp.MustCompile(`(?i)\b` + fn + `\s*\([^)]*` + regexp.QuoteMeta(strings.ToLower(col)))
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil && re.MatchString(strings.ToLower(mt.Expr)) {
			return true
		}
	}
	return false
}

// isMetricName reports whether phrase names a metric: the measures check
// holds the query to it.
func (c *cover) isMetricName(phrase string) bool {
	for _, mt := range c.m.Metrics {
		for _, n := range append([]string{mt.Name}, mt.Synonyms...) {
			if strings.EqualFold(strings.ReplaceAll(n, "_", " "), phrase) {
				return true
			}
		}
	}
	return false
}

// measures: a metric the question names by name or synonym is measured,
// unless the measure asked for is another one whose name contains it
// ("revenue" in "revenue per customer").
func (c *cover) measures() (ok, bad []string) {
	used := map[string]bool{}
	for _, name := range c.q.Metrics {
		used[strings.ToLower(name)] = true
		if mt := c.m.Metric(name); mt != nil {
			for _, part := range metricRefRE().FindAllStringSubmatch(mt.Derived, -1) {
				used[strings.ToLower(part[1])] = true
			}
		}
	}
	if len(c.q.Metrics) == 0 {
		if c.q.Rows != nil {
			// "what's our headcount" listed the employees: a measure
			// named, rows given.
			for _, mt := range c.m.Metrics {
				for _, n := range append([]string{mt.Name}, mt.Synonyms...) {
					p := strings.ReplaceAll(strings.ToLower(n), "_", " ")
					if len(p) > 3 && c.has(p) && !c.inName(p) && !c.isName(p) && c.entityOfWord(p) == "" {
						return nil, []string{fmt.Sprintf("the question names %s (%s), a measure, but the query lists %s rows", mt.Name, p, c.q.Rows.Entity)}
					}
				}
			}
		}
		return nil, nil
	}
	type named struct {
		mt   semantic.Metric
		said string
	}
	var all []named
	for _, mt := range c.m.Metrics {
		for _, n := range append([]string{mt.Name}, mt.Synonyms...) {
			if p := strings.ReplaceAll(strings.ToLower(n), "_", " "); len(p) > 2 && c.has(p) && !c.inName(p) {
				all = append(all, named{mt, p})
				break
			}
		}
	}
	// A measure the question names that the query measures, itself or
	// under another name of the same definition.
	measured := func(x named) bool {
		// "what percentage of revenue": a share of the measure measures
		// it too.
		return used[strings.ToLower(x.mt.Name)] || used["share_of_"+strings.ToLower(x.mt.Name)] || c.namedByUsed(x.said) || c.sameAsUsed(&x.mt)
	}
	anyMeasured := c.namesUsedColumn() || measureWordRE().MatchString(c.text)
	for _, x := range all {
		if measured(x) {
			anyMeasured = true
		}
	}
	filtered := c.filterValues()
	for _, x := range all {
		switch {
		case measured(x):
			ok = append(ok, x.said)
		case c.population(&x.mt, anyMeasured):
			// the rows a named measure runs over, or the rows grouped
			ok = append(ok, x.said)
		case c.countsSubsetOf(&x.mt):
			// "open urgent tickets": open_tickets counts some of the tickets
			ok = append(ok, x.said)
		case c.existsOn(x.mt.Entity):
			// "customers with no orders": the rows each row must lack
			ok = append(ok, x.said)
		case c.periodOn(x.mt.Entity):
			// "revenue from customers who signed up in 2025": the rows
			// whose date the period is on, which periodDate checks the
			// question names
			ok = append(ok, x.said)
		case filtered[x.said]:
			// "employees in Sales": the word is the value filtered on
			// (a department), not the measure it also names
			ok = append(ok, x.said)
		default:
			bad = append(bad, fmt.Sprintf("the question names %s (%s), which the query does not measure", x.mt.Name, x.said))
		}
	}
	return ok, bad
}

var metricRefRE = lazyRE(`\{([^{}]+)\}`)

// measureWordRE names a measure over a set of rows without naming a
// metric: "percentage of orders", "average pages per session".
var measureWordRE = lazyRE(` (percentage|percent|share|proportion|ratio|rate|average|mean|median) `)

// namesUsedColumn reports whether the question names a column that a
// metric of the query computes over ("countries" for COUNT(DISTINCT
// customers.country)): then the measure asked for is that one, and a
// count of rows the question also names is only whose.
func (c *cover) namesUsedColumn() bool {
	for _, name := range c.q.Metrics {
		mt := c.m.Metric(name)
		if mt == nil {
			continue
		}
		for _, ref := range columnRefRE().FindAllStringSubmatch(mt.Expr, -1) {
			e := c.m.Entity(ref[1])
			if e == nil || strings.EqualFold(ref[2], e.PrimaryKey) {
				continue
			}
			words := strings.Join(splitName(ref[2]), " ")
			if c.has(words) || c.has(words+"s") || strings.HasSuffix(words, "y") && c.has(strings.TrimSuffix(words, "y")+"ies") {
				return true
			}
		}
	}
	return false
}

var columnRefRE = lazyRE(`([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)`)

// sameAsUsed reports whether a metric the query measures has mt's
// definition under another name (new_customers and customers are both
// COUNT(customers.id) dated by signup).
func (c *cover) sameAsUsed(mt *semantic.Metric) bool {
	names := slices.Clone(c.q.Metrics)
	for _, name := range c.q.Metrics {
		if d := c.m.Metric(name); d != nil {
			// "average number of orders per customer": the orders of
			// each customer, a part of the average, measure orders too.
			for _, part := range metricRefRE().FindAllStringSubmatch(d.Derived, -1) {
				names = append(names, part[1])
			}
		}
	}
	for _, name := range names {
		u := c.m.Metric(name)
		if u == nil || u.Expr == "" || mt.Expr == "" || !strings.EqualFold(u.Expr, mt.Expr) || !strings.EqualFold(u.Entity, mt.Entity) {
			continue
		}
		if strings.Join(u.Filters, "&") == strings.Join(mt.Filters, "&") {
			return true
		}
		// The same rows, those of some row of another table: the only
		// conditions added say the row has one (orders.customer_id, as
		// customers.id IS NOT NULL).
		if len(u.Filters) > len(mt.Filters) && slices.Equal(u.Filters[:len(mt.Filters)], mt.Filters) &&
			!slices.ContainsFunc(u.Filters[len(mt.Filters):], func(f string) bool { return !strings.HasSuffix(strings.ToUpper(strings.TrimSpace(f)), " IS NOT NULL") }) {
			return true
		}
	}
	return false
}

// countRE is a count of rows: COUNT(*) or COUNT(column), not a count of
// distinct values.
var countRE = lazyRE(`(?i)^\s*count\s*\(\s*(\*|[^()]*)\)\s*$`)

func countsRows(expr string) bool {
	return countRE().MatchString(expr) && !strings.Contains(strings.ToLower(expr), "distinct")
}

// population reports whether mt only counts the rows of an entity the
// query is about: "customers" in "top 10 customers by revenue" names the
// rows grouped, "traffic" in "conversion rate for traffic from ads" the
// rows a rate runs over. A sum or an average the question names must be
// measured itself.
func (c *cover) population(mt *semantic.Metric, otherNamed bool) bool {
	if !countsRows(mt.Expr) || len(mt.Filters) > 0 {
		return false
	}
	ent := strings.ToLower(mt.Entity)
	for _, name := range c.q.Metrics {
		// Another measure of the same rows that the question names too
		// (a rate or an average over them); another count of them, or a
		// measure the question does not name, is another question.
		if u := c.m.Metric(name); otherNamed && u != nil && strings.EqualFold(u.Entity, ent) && !countsRows(u.Expr) {
			return true
		}
	}
	// The rows themselves grouped (by their key or label: "top 10
	// customers"), filtered ("revenue from customers in France") or
	// listed; a grouping by one of their attributes ("orders by status")
	// still asks to count them.
	e := c.m.Entity(mt.Entity)
	for _, d := range c.q.Dimensions {
		ent2, col, ok := strings.Cut(d.Name, ".")
		if ok && e != nil && strings.EqualFold(ent2, ent) && (strings.EqualFold(col, e.PrimaryKey) || strings.EqualFold(col, e.Label) || strings.EqualFold(col, "id") || strings.EqualFold(col, "name")) {
			return true
		}
	}
	// Filtered or listed, when the query measures other rows ("revenue
	// from customers in France"): a measure of these rows themselves must
	// be the count the question names.
	for _, name := range c.q.Metrics {
		if u := c.m.Metric(name); u != nil && strings.EqualFold(u.Entity, ent) {
			return false
		}
	}
	refs := []string{}
	for _, f := range c.q.Filters {
		refs = append(refs, f.Field)
	}
	if c.q.Rows != nil {
		refs = append(refs, c.q.Rows.Entity+".")
	}
	for _, r := range refs {
		if strings.HasPrefix(strings.ToLower(r), ent+".") {
			return true
		}
		if d := c.m.Dimension(r); d != nil && (strings.EqualFold(d.Entity, ent) || strings.HasPrefix(strings.ToLower(d.Expr), ent+".")) {
			return true
		}
	}
	return false
}

// namedByUsed reports whether phrase also names a metric the query
// measures (two metrics may share a synonym; either is a reading of it).
func (c *cover) namedByUsed(phrase string) bool {
	for _, name := range c.q.Metrics {
		mt := c.m.Metric(name)
		if mt == nil {
			continue
		}
		for _, n := range append([]string{mt.Name}, mt.Synonyms...) {
			if strings.ToLower(strings.ReplaceAll(n, "_", " ")) == phrase {
				return true
			}
		}
	}
	return false
}

// existsOn reports whether the query keeps rows by whether (or how many)
// rows of entity ent they have (OpNone, OpSome, Count), directly or through a table that links
// them ("products never ordered": no order_items row).
func (c *cover) existsOn(ent string) bool {
	if ent == "" {
		return false
	}
	for _, f := range c.q.Filters {
		if f.Op != semantic.OpNone && f.Op != semantic.OpSome && !f.Count {
			continue
		}
		if strings.EqualFold(f.Field, ent) {
			return true
		}
		for _, r := range c.m.Relationships {
			if strings.EqualFold(r.From, f.Field) && strings.EqualFold(r.To, ent) && r.Cardinality == semantic.ManyToOne {
				return true
			}
		}
	}
	return false
}

// periodOn reports whether the query's period is on a date of entity
// ent that is not the date of any measure it asks for.
func (c *cover) periodOn(ent string) bool {
	tr := c.q.TimeRange
	if ent == "" || tr == nil || tr.Field == "" {
		return false
	}
	f, ok := c.m.ColumnField(tr.Field)
	if !ok || !strings.EqualFold(f.Entity.Name, ent) {
		return false
	}
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil && strings.EqualFold(c.m.MetricTime(mt), f.Entity.Name+"."+f.Column.Name) {
			return false
		}
	}
	return true
}

// countOfAmount: "how many sales last week" asks for a count; answered
// with revenue (a sum of amounts, whose synonym "sales" is) it gives
// dollars for a number of sales.
func (c *cover) countOfAmount() (ok, bad []string) {
	if c.q.CountGroups != "" {
		return nil, nil // "how many customers with revenue over 1000": the count is of the groups
	}
	var amounts []*semantic.Metric
	for _, name := range c.q.Metrics {
		mt := c.m.Metric(name)
		if mt == nil || Additive(mt.Expr) != "sum" || mt.Format != "currency" && mt.Unit == "" {
			continue // a sum of quantities (units sold) is a count
		}
		amounts = append(amounts, mt)
	}
	if len(amounts) == 0 {
		return nil, nil
	}
	for _, loc := range countLeadRE().FindAllStringSubmatchIndex(c.text, -1) {
		lead := c.text[loc[2]:loc[3]]
		after := strings.Fields(c.text[loc[1]:])
		if len(after) > 5 {
			after = after[:5]
		}
		window := " " + strings.Join(after, " ") + " "
		for _, mt := range amounts {
			for _, n := range append([]string{mt.Name}, mt.Synonyms...) {
				p := strings.ReplaceAll(strings.ToLower(n), "_", " ")
				if strings.Contains(window, " "+p+" ") {
					return nil, []string{fmt.Sprintf("%q asks for a count, but %s is an amount (%s)", lead+" "+p, mt.Name, mt.Expr)}
				}
			}
		}
	}
	// "sales count by month": the count after the name.
	for _, mt := range amounts {
		for _, n := range append([]string{mt.Name}, mt.Synonyms...) {
			p := strings.ReplaceAll(strings.ToLower(n), "_", " ")
			for _, tail := range []string{" count ", " counts "} {
				if strings.Contains(c.text, " "+p+tail) {
					return nil, []string{fmt.Sprintf("%q asks for a count, but %s is an amount (%s)", p+tail[:len(tail)-1], mt.Name, mt.Expr)}
				}
			}
		}
	}
	return nil, nil
}

// countLeadRE is a phrase that asks for a count of what follows it.
var countLeadRE = lazyRE(` (how many|number of|numbers of|count of|counts of|tally of|total count of) `)

// negationRE is a negation of having: "never", "no", "without", "not …
// any", "did not".
var negationRE = lazyRE(` (never|no|without|not|didn't|don't|doesn't|haven't|hasn't) `)

// negation: "customers who never ordered", "templates not used by any
// document" keep the rows that have none of a table's; a query without
// that condition (OpNone, or a value excluded) counts or lists them all.
func (c *cover) negation() (ok, bad []string) {
	locs := negationRE().FindAllStringIndex(c.text, -1)
	if len(locs) == 0 {
		return nil, nil
	}
	for _, f := range c.q.Filters {
		switch f.Op {
		case semantic.OpNone, semantic.OpNe, semantic.OpNotIn, semantic.OpNull:
			return []string{"a negation"}, nil
		}
		if f.Op == semantic.OpEq {
			for _, v := range f.Values {
				if b, isBool := v.(bool); isBool && !b || v == int64(0) || v == "0" || v == "f" || v == "false" || v == "n" || v == "no" {
					return []string{"a negation"}, nil // "products that are not discontinued"
				}
			}
		}
	}
	for _, loc := range locs {
		rest := strings.Fields(c.text[loc[1]:])
		if len(rest) > 5 {
			rest = rest[:5]
		}
		for i, w := range rest {
			phrases := []string{w}
			if i+1 < len(rest) {
				phrases = append([]string{w + " " + rest[i+1]}, phrases...) // "car makers"
			}
			for _, p := range phrases {
				if e := c.entityOfWord(p); e != "" && (c.q.Rows == nil || !strings.EqualFold(c.q.Rows.Entity, e)) {
					return nil, []string{fmt.Sprintf("%q asks for those with no %s, but the query keeps them all", strings.TrimSpace(c.text[loc[0]:loc[1]])+" … "+p, e)}
				}
			}
		}
	}
	return nil, nil
}

// entityOfWord is the entity a word names — by its name or a synonym, in
// the singular or plural, or as a verb whose stem names it ("ordered") —
// or "".
func (c *cover) entityOfWord(w string) string {
	forms := []string{w, Singular(w), strings.TrimSuffix(w, "ed"), strings.TrimSuffix(w, "d")}
	for _, e := range c.m.Entities {
		for _, n := range append([]string{e.Name}, e.Synonyms...) {
			n = strings.ToLower(strings.ReplaceAll(n, "_", " "))
			for _, f := range forms {
				if len(f) >= 3 && (f == n || f == Singular(n) || f+"s" == n) {
					return e.Name
				}
			}
		}
	}
	return ""
}

// countsSubsetOf reports whether mt plainly counts an entity's rows and a
// metric the query uses counts some of the same rows under conditions of
// its own ("open tickets": open_tickets is the tickets not closed).
func (c *cover) countsSubsetOf(mt *semantic.Metric) bool {
	if !countsRows(mt.Expr) || len(mt.Filters) > 0 || mt.Entity == "" {
		return false
	}
	for _, name := range c.q.Metrics {
		u := c.m.Metric(name)
		if u != nil && u.Name != mt.Name && strings.EqualFold(u.Entity, mt.Entity) && countsRows(u.Expr) && len(u.Filters) > 0 {
			return true
		}
	}
	return false
}

// flagsSaidElsewhere reports whether every column of cols is a yes/no
// flag of rows that are no real data (is_deleted, is_test), and the query
// uses another column named by the word said (a deletion date): the word
// is the query's.
func (c *cover) flagsSaidElsewhere(cols []string, said, used string) bool {
	for _, ref := range cols {
		ent, name, _ := strings.Cut(ref, ".")
		e := c.m.Entity(ent)
		if e == nil {
			return false
		}
		col := e.Column(name)
		if col == nil || semantic.UnrealFlag(*col) == "" {
			return false
		}
	}
	return strings.Contains(used, strings.ReplaceAll(said, " ", "_"))
}
