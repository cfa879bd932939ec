package verify

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Check names of the question's coverage: what the question says that
// the query must reflect.
const (
	CheckCoverage = "question_coverage" // values, numbers, periods and measures the question names
	CheckShape    = "result_shape"      // one number asked for, a table given (or the other way)
	CheckGrain    = "time_grain"        // "by month" answered by another grain
)

// Coverage holds a semantic query to the question it answers, read
// independently of any planner: a known value, a number, a period or a
// measure the question names must be in the query; a question that asks
// for one number ("how many", "total") must not be grouped, and one that
// asks for a breakdown ("by", "per", "each", "monthly") must be; a time
// grain the question names must be the grouping's. A term the query
// ignores could change the result, so it fails; a query that reflects
// everything passes with what it checked. m must hold q's metrics.
func Coverage(question string, m *semantic.Model, q *semantic.Query) []Check {
	if m == nil || q == nil || strings.TrimSpace(question) == "" {
		return nil
	}
	c := newCover(question, m, q)
	var checks []Check
	var missing, seen []string
	for _, f := range []func() ([]string, []string){c.values, c.numbers, c.period, c.measures} {
		ok, bad := f()
		seen, missing = append(seen, ok...), append(missing, bad...)
	}
	switch {
	case len(missing) > 0:
		checks = append(checks, Check{Name: CheckCoverage, Status: Fail,
			Detail: "the query ignores what the question says: " + strings.Join(dedupe(missing), "; ")})
	case len(seen) > 0:
		checks = append(checks, Check{Name: CheckCoverage, Status: Pass,
			Detail: "the query uses every value, number, period and measure the question names (" + strings.Join(dedupe(seen), ", ") + ")"})
	}
	if ch, ok := c.shape(); ok {
		checks = append(checks, ch)
	}
	if ch, ok := c.grain(); ok {
		checks = append(checks, ch)
	}
	return checks
}

// cover is one question read against one query.
type cover struct {
	q     *semantic.Query
	m     *semantic.Model
	text  string   // the question, lower case, words separated by single spaces
	words []string // its words
	// names are the phrases of the knowledge (entities, metrics,
	// dimensions, columns, their synonyms), lower case: a value inside one
	// ("web" in "web sessions") is part of a name, not a filter.
	names []string
}

var wordRE = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}'’._%-]*`)

func newCover(question string, m *semantic.Model, q *semantic.Query) *cover {
	var words []string
	for _, w := range wordRE.FindAllString(strings.ToLower(question), -1) {
		words = append(words, strings.TrimRight(w, ".-'’"))
	}
	c := &cover{q: q, m: m, words: words, text: " " + strings.Join(words, " ") + " "}
	add := func(s string) {
		s = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(s, "_", " ")))
		if s != "" {
			c.names = append(c.names, s)
		}
	}
	for _, e := range m.Entities {
		add(e.Name)
		for _, s := range e.Synonyms {
			add(s)
		}
		for _, col := range e.Columns {
			add(col.Name)
			for _, s := range col.Synonyms {
				add(s)
			}
		}
	}
	for _, mt := range m.Metrics {
		add(mt.Name)
		for _, s := range mt.Synonyms {
			add(s)
		}
	}
	for _, d := range m.Dimensions {
		add(d.Name)
		for _, s := range d.Synonyms {
			add(s)
		}
	}
	return c
}

// has reports whether the question contains phrase as whole words.
func (c *cover) has(phrase string) bool {
	p := strings.Join(strings.Fields(strings.ToLower(phrase)), " ")
	return p != "" && strings.Contains(c.text, " "+p+" ")
}

// inName reports whether every occurrence of phrase in the question is
// inside a longer name of the knowledge ("web" in "web sessions").
func (c *cover) inName(phrase string) bool {
	p := strings.ToLower(phrase)
	for _, n := range c.names {
		if n != p && strings.Contains(" "+n+" ", " "+p+" ") && c.has(n) {
			return true
		}
	}
	return false
}

// isName reports whether phrase is itself a name of the knowledge ("sales"
// is a department and a synonym of revenue): the question may mean either,
// and the check does not guess which.
func (c *cover) isName(phrase string) bool {
	for _, n := range c.names {
		if n == phrase {
			return true
		}
	}
	return false
}

// filterValues are the values the query filters on, and those of its
// metrics' own conditions and formulas, lower case.
func (c *cover) filterValues() map[string]bool {
	out := map[string]bool{}
	for _, f := range c.q.Filters {
		for _, v := range f.Values {
			out[strings.ToLower(strings.TrimSpace(fmt.Sprint(v)))] = true
		}
	}
	for _, name := range c.q.Metrics {
		mt := c.m.Metric(name)
		if mt == nil {
			continue
		}
		for _, f := range append([]string{mt.Expr}, mt.Filters...) {
			for _, lit := range literalRE.FindAllStringSubmatch(f, -1) {
				out[strings.ToLower(lit[1])] = true
			}
		}
	}
	return out
}

var literalRE = regexp.MustCompile(`'((?:[^']|'')*)'`)

// values: a known value of a column the question names is a filter value
// (or a condition of a metric the query uses).
func (c *cover) values() (ok, bad []string) {
	have := c.filterValues()
	seen := map[string]bool{}
	check := func(v, where string) {
		lv := strings.ToLower(strings.TrimSpace(v))
		if len([]rune(lv)) < 2 || seen[lv] || !c.has(lv) || c.inName(lv) || c.isName(lv) {
			return
		}
		seen[lv] = true
		if have[lv] {
			ok = append(ok, "'"+v+"'")
			return
		}
		for hv := range have {
			if strings.Contains(" "+hv+" ", " "+lv+" ") {
				return // part of a longer value filtered on ("JetBlue" in "JetBlue Airways")
			}
		}
		// A value that names a grouping's column or a listed column is
		// what the question groups or lists by, not a filter.
		bad = append(bad, fmt.Sprintf("'%s' (a value of %s) is not filtered on", v, where))
	}
	for _, e := range c.m.Entities {
		for _, col := range e.Columns {
			for _, v := range col.Values {
				check(v, e.Name+"."+col.Name)
			}
		}
	}
	for _, d := range c.m.Dimensions {
		for _, v := range d.Values {
			check(v, d.Expr)
		}
	}
	return ok, bad
}

// periodWords name a time span in a question.
var periodWords = map[string]bool{
	"day": true, "days": true, "week": true, "weeks": true, "month": true, "months": true, "quarter": true, "quarters": true,
	"year": true, "years": true, "today": true, "yesterday": true, "ytd": true, "mtd": true, "qtd": true,
}

var (
	yearRE    = regexp.MustCompile(`^(19|20)\d\d$`)
	quarterRE = regexp.MustCompile(`^q[1-4]$`)
	numberRE  = regexp.MustCompile(`^\d+(\.\d+)?%?$`)
	dateRE    = regexp.MustCompile(`^\d{4}-\d{2}(-\d{2})?$`)
)

var monthNames = map[string]bool{
	"january": true, "february": true, "march": true, "april": true, "may": true, "june": true, "july": true,
	"august": true, "september": true, "october": true, "november": true, "december": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
}

// numbers: a number the question names is the query's limit, a filter
// value, a year its period spans, or the length of a relative period.
func (c *cover) numbers() (ok, bad []string) {
	have := c.filterValues()
	for i, w := range c.words {
		if !numberRE.MatchString(w) && !dateRE.MatchString(w) {
			continue
		}
		next, prev := "", ""
		if i+1 < len(c.words) {
			next = c.words[i+1]
		}
		if i > 0 {
			prev = c.words[i-1]
		}
		n := strings.TrimSuffix(w, "%")
		switch {
		case dateRE.MatchString(w), yearRE.MatchString(w) && !limitWord(prev):
			if c.spans(w) {
				ok = append(ok, w)
			} else {
				bad = append(bad, "the period "+w+" is not the query's")
			}
		case periodWords[next] || periodWords[strings.TrimSuffix(next, "s")] || monthNames[next] || monthNames[prev]:
			// "last 30 days", "3 months ago", "March 5": a relative or
			// calendar period, read into the time range.
			if c.q.TimeRange != nil || len(c.q.Compare) > 0 {
				ok = append(ok, w+" "+next)
			} else {
				bad = append(bad, "the period \""+strings.TrimSpace(w+" "+next)+"\" is not applied")
			}
		case c.q.Limit > 0 && strconv.Itoa(c.q.Limit) == n:
			ok = append(ok, w)
		case have[n] || c.numericFilter(n):
			ok = append(ok, w)
		case c.inName(w):
		default:
			bad = append(bad, "the number "+w+" is not in the query")
		}
	}
	return ok, bad
}

// limitWord precedes a count of rows: "top 2020" is odd, but "top 5".
func limitWord(w string) bool {
	switch w {
	case "top", "first", "last", "bottom", "best", "worst":
		return true
	}
	return false
}

// numericFilter reports whether a filter compares with the number n.
func (c *cover) numericFilter(n string) bool {
	want, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return false
	}
	for _, f := range c.q.Filters {
		for _, v := range f.Values {
			if x, ok := numberOf(v); ok && (x == want || x == want/100) {
				return true
			}
		}
	}
	return false
}

// spans reports whether the query's period covers the year or date w.
func (c *cover) spans(w string) bool {
	from, to := w, w
	switch len(w) {
	case 4:
		from, to = w+"-01-01", w+"-12-31"
	case 7:
		from, to = w+"-01", w+"-28"
	}
	in := func(f, t string) bool { return f != "" && t != "" && f <= to && t > from }
	if tr := c.q.TimeRange; tr != nil && in(tr.From, tr.To) {
		return true
	}
	for _, p := range c.q.Compare {
		if in(p.From, p.To) {
			return true
		}
	}
	for _, f := range c.q.Filters {
		for _, v := range f.Values {
			if s, ok := v.(string); ok && strings.HasPrefix(s, w) {
				return true
			}
		}
	}
	return false
}

// relativePeriods are phrases that name a period without a number.
var relativePeriods = []string{"last month", "this month", "last year", "this year", "last week", "this week",
	"last quarter", "this quarter", "yesterday", "today", "year to date", "ytd", "month to date", "mtd",
	"previous month", "previous year", "past year", "past month"}

// period: a period the question names without a number ("last month",
// "Q1", "in March") is a time range of the query.
func (c *cover) period() (ok, bad []string) {
	var named []string
	for _, p := range relativePeriods {
		if c.has(p) {
			named = append(named, p)
		}
	}
	for _, w := range c.words {
		if quarterRE.MatchString(w) || monthNames[w] && w != "may" {
			named = append(named, w)
		}
	}
	if len(named) == 0 {
		return nil, nil
	}
	if c.q.TimeRange != nil || len(c.q.Compare) > 0 || c.timeFilter() {
		return named, nil
	}
	return nil, []string{"the period \"" + named[0] + "\" is not applied"}
}

// timeFilter reports whether a filter is on a date column.
func (c *cover) timeFilter() bool {
	for _, f := range c.q.Filters {
		fl, err := c.m.ResolveField(f.Field)
		if err != nil {
			continue
		}
		if fl.Kind == semantic.FieldDimension && fl.Dimension.Type == "time" || fl.Kind == semantic.FieldColumn && fl.Column.Type.IsTemporal() {
			return true
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
			for _, part := range metricRefRE.FindAllStringSubmatch(mt.Derived, -1) {
				used[strings.ToLower(part[1])] = true
			}
		}
	}
	if len(c.q.Metrics) == 0 {
		return nil, nil
	}
	for _, mt := range c.m.Metrics {
		var said string
		for _, n := range append([]string{mt.Name}, mt.Synonyms...) {
			if p := strings.ReplaceAll(strings.ToLower(n), "_", " "); len(p) > 2 && c.has(p) && !c.inName(p) {
				said = p
				break
			}
		}
		if said == "" {
			continue
		}
		if used[strings.ToLower(mt.Name)] || c.namedByUsed(said) || c.sameAsUsed(&mt) || c.population(&mt) {
			ok = append(ok, said)
			continue
		}
		bad = append(bad, fmt.Sprintf("the question names %s (%s), which the query does not measure", mt.Name, said))
	}
	return ok, bad
}

var metricRefRE = regexp.MustCompile(`\{([^{}]+)\}`)

// sameAsUsed reports whether a metric the query measures has mt's
// definition under another name (new_customers and customers are both
// COUNT(customers.id) dated by signup).
func (c *cover) sameAsUsed(mt *semantic.Metric) bool {
	for _, name := range c.q.Metrics {
		u := c.m.Metric(name)
		if u == nil || u.Expr == "" || mt.Expr == "" {
			continue
		}
		if strings.EqualFold(u.Expr, mt.Expr) && strings.EqualFold(u.Entity, mt.Entity) && strings.Join(u.Filters, "&") == strings.Join(mt.Filters, "&") {
			return true
		}
	}
	return false
}

var countRE = regexp.MustCompile(`(?i)^\s*count\s*\(`)

// population reports whether mt only counts the rows of an entity the
// query is about: "customers" in "top 10 customers by revenue" names the
// rows grouped, "traffic" in "conversion rate for traffic from ads" the
// rows a rate runs over. A sum or an average the question names must be
// measured itself.
func (c *cover) population(mt *semantic.Metric) bool {
	if !countRE.MatchString(mt.Expr) || len(mt.Filters) > 0 {
		return false
	}
	ent := strings.ToLower(mt.Entity)
	for _, name := range c.q.Metrics {
		if u := c.m.Metric(name); u != nil && strings.EqualFold(u.Entity, ent) {
			return true
		}
	}
	refs := []string{}
	for _, d := range c.q.Dimensions {
		refs = append(refs, d.Name)
	}
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
		for _, n := range append([]string{mt.Name, mt.Description}, mt.Synonyms...) {
			if strings.Contains(" "+strings.ToLower(strings.ReplaceAll(n, "_", " "))+" ", " "+phrase+" ") {
				return true
			}
		}
	}
	return false
}

// breakdown words ask for a table of groups.
var breakdownRE = regexp.MustCompile(` (by|per|each|every|across|broken down|split by|for each|breakdown|trend|over time|monthly|weekly|daily|quarterly|yearly|annually|which|what are the|list|top|bottom|most|least|highest|lowest|best|worst|rank|ranking|compared?|vs|versus) `)

// oneNumber words ask for a single figure.
var oneNumberRE = regexp.MustCompile(`^ (how many|how much|what is the total|what was the total|total|what is our|what was our|count|number of|sum of) `)

// shape: "how many orders in 2025" is one number; grouping it returns a
// table that answers another question.
func (c *cover) shape() (Check, bool) {
	if !oneNumberRE.MatchString(c.text) || breakdownRE.MatchString(c.text) || c.q.Rows != nil || len(c.q.Compare) > 0 {
		return Check{}, false
	}
	if len(c.q.Dimensions) > 0 {
		var names []string
		for _, d := range c.q.Dimensions {
			names = append(names, d.Name)
		}
		return Check{Name: CheckShape, Status: Fail, Detail: "the question asks for one figure, but the query groups by " + strings.Join(names, ", ")}, true
	}
	return Check{Name: CheckShape, Status: Pass, Detail: "one figure asked for, one figure computed"}, true
}

// grainWords map a question's words to the time grain they ask for.
var grainWords = map[string]semantic.Grain{
	"daily": semantic.GrainDay, "by day": semantic.GrainDay, "per day": semantic.GrainDay, "each day": semantic.GrainDay,
	"weekly": semantic.GrainWeek, "by week": semantic.GrainWeek, "per week": semantic.GrainWeek, "each week": semantic.GrainWeek,
	"monthly": semantic.GrainMonth, "by month": semantic.GrainMonth, "per month": semantic.GrainMonth, "each month": semantic.GrainMonth, "month by month": semantic.GrainMonth,
	"quarterly": semantic.GrainQuarter, "by quarter": semantic.GrainQuarter, "per quarter": semantic.GrainQuarter, "each quarter": semantic.GrainQuarter,
	"yearly": semantic.GrainYear, "annually": semantic.GrainYear, "by year": semantic.GrainYear, "per year": semantic.GrainYear, "each year": semantic.GrainYear, "year by year": semantic.GrainYear,
}

// grain: a grain the question names is the grain of a grouping.
func (c *cover) grain() (Check, bool) {
	var want []semantic.Grain
	for phrase, g := range grainWords {
		if c.has(phrase) && !c.inName(phrase) {
			want = append(want, g)
		}
	}
	if len(want) == 0 || c.q.Rows != nil {
		return Check{}, false
	}
	var got []string
	for _, d := range c.q.Dimensions {
		for _, g := range want {
			// A grain, or a column that holds the period itself ("Year").
			if d.Grain == g || d.Grain == "" && strings.Contains(strings.ToLower(d.Name), string(g)) {
				return Check{Name: CheckGrain, Status: Pass, Detail: "grouped by " + string(g) + ", as asked"}, true
			}
		}
		if d.Grain != "" {
			got = append(got, string(d.Grain))
		}
	}
	what := "no time grouping"
	if len(got) > 0 {
		what = "a grouping by " + strings.Join(got, ", ")
	}
	return Check{Name: CheckGrain, Status: Fail, Detail: fmt.Sprintf("the question asks for each %s, but the query has %s", want[0], what)}, true
}
