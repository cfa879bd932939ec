package verify

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

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
func Coverage(question, asOf string, m *semantic.Model, q *semantic.Query) []Check {
	if m == nil || q == nil || strings.TrimSpace(question) == "" {
		return nil
	}
	c := newCover(question, m, q)
	c.asOf, _ = time.Parse("2006-01-02", asOf)
	var checks []Check
	var missing, seen []string
	for _, f := range []func() ([]string, []string){c.values, c.numbers, c.period, c.relative, c.periodDate, c.measures, c.columns, c.groupings, c.direction} {
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
	asOf  time.Time // the day relative periods are read against; zero when unknown
	q     *semantic.Query
	m     *semantic.Model
	text  string   // the question, lower case, words separated by single spaces
	words []string // its words
	// names are the phrases of the knowledge (entities, metrics,
	// dimensions, columns, their synonyms), lower case: a value inside one
	// ("web" in "web sessions") is part of a name, not a filter.
	names []string
	// terms are the names that can be a measure, a set of rows or a
	// grouping (metrics, entities, dimensions and their synonyms), lower
	// case: a value that is also one of these is ambiguous.
	terms []string
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
	term := func(s string) {
		s = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(s, "_", " ")))
		if s != "" {
			c.terms = append(c.terms, s)
		}
	}
	for _, e := range m.Entities {
		term(e.Name)
		for _, s := range e.Synonyms {
			term(s)
		}
	}
	for _, mt := range m.Metrics {
		term(mt.Name)
		for _, s := range mt.Synonyms {
			term(s)
		}
	}
	for _, d := range m.Dimensions {
		term(d.Name)
		for _, s := range d.Synonyms {
			term(s)
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
	p := phrase
	if needsNorm(p) {
		p = strings.Join(strings.Fields(strings.ToLower(phrase)), " ")
	}
	if p == "" {
		return false
	}
	// c.text starts and ends with a space, so a match is never at 0.
	for i := 0; i < len(c.text); {
		j := strings.Index(c.text[i:], p)
		if j < 0 {
			return false
		}
		k := i + j
		if c.text[k-1] == ' ' && k+len(p) < len(c.text) && c.text[k+len(p)] == ' ' {
			return true
		}
		i = k + 1
	}
	return false
}

// needsNorm reports whether a phrase is not already lower case with
// single spaces.
func needsNorm(p string) bool {
	for i := 0; i < len(p); i++ {
		b := p[i]
		if 'A' <= b && b <= 'Z' || b == '\t' || b == '\n' || b >= 0x80 || b == ' ' && (i == 0 || i == len(p)-1 || p[i-1] == ' ') {
			return true
		}
	}
	return false
}

// inName reports whether every occurrence of phrase in the question is
// inside a longer name of the knowledge ("web" in "web sessions").
func (c *cover) inName(phrase string) bool {
	p := strings.ToLower(phrase)
	for _, n := range c.names {
		if n != p && strings.Contains(" "+n+" ", " "+p+" ") && (c.has(n) || c.has(n+"s")) {
			return true
		}
	}
	return false
}

// isName reports whether phrase is itself a name of the knowledge ("sales"
// is a department and a synonym of revenue): the question may mean either,
// and the check does not guess which.
func (c *cover) isName(phrase string) bool {
	for _, n := range c.terms {
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
		if len(lv) < 2 || seen[lv] {
			return
		}
		if !c.has(lv) && (len(lv) < 4 || !c.has(lv+"s")) {
			return // neither the value nor its plural ("tablets")
		}
		if c.inName(lv) || c.isName(lv) {
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
	if c.q.Rows == nil && len(c.q.Order) == 0 && len(c.q.Compare) == 0 && !c.extremeAggregate() && c.oneAtTheEnd() {
		bad = append(bad, "the question asks for the one at an end of a ranking, but the query ranks nothing")
	}
	if c.q.Limit > 1 && (oneOfRE.MatchString(c.text) || c.oneAtTheEnd()) {
		bad = append(bad, fmt.Sprintf("the question asks for the one at the top, but the query lists %d", c.q.Limit))
	}
	// "more than one document", "at least two paragraphs": a number in
	// words after a comparison is a filter's value.
	for _, m := range comparedWordRE.FindAllStringSubmatch(c.text, -1) {
		n := strconv.Itoa(numberWords[m[2]])
		if have[n] || c.numericFilter(n) {
			ok = append(ok, m[1]+" "+m[2])
		} else {
			bad = append(bad, "\""+m[1]+" "+m[2]+"\" is not in the query")
		}
	}
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

// oneOfRE asks for the one row at an end: "what is the most expensive
// product", "which was the best month".
var oneOfRE = regexp.MustCompile(`^ (what|which|who) (is|was) the (most|least|highest|lowest|cheapest|biggest|largest|smallest|best|worst|top|fewest|greatest) `)

// numberWords are numbers written in words.
var numberWords = map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20}

var comparedWordRE = regexp.MustCompile(` (more than|less than|fewer than|at least|at most|greater than|over|under|exactly) (zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty) `)

var superlativeRE = regexp.MustCompile(` (most|least|highest|lowest|fewest|largest|smallest|cheapest|best|worst|biggest|greatest|oldest|youngest|newest|latest|earliest) `)

// oneAtTheEnd reports whether the question asks for the single row at one
// end of a ranking: a superlative, no number, and a singular ("which year
// has most concerts", "the name of the country with the most car makers"),
// not a list ("which countries are the largest", "top …").
func (c *cover) oneAtTheEnd() bool {
	if !superlativeRE.MatchString(c.text) || digitRE.MatchString(c.text) || comparedWordRE.MatchString(c.text) {
		return false
	}
	for _, w := range []string{" are ", " were ", " top ", " bottom ", " all ", " each ", " every ", " names ", " by ", " per ", " for each "} {
		if strings.Contains(c.text, w) {
			return false
		}
	}
	return true
}

var digitRE = regexp.MustCompile(`\d`)

var extremeRE = regexp.MustCompile(`(?i)^\s*(max|min)\s*\(`)

// extremeAggregate reports whether the query computes a maximum or a
// minimum: "the highest product price" is MAX, not a ranking.
func (c *cover) extremeAggregate() bool {
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil && extremeRE.MatchString(mt.Expr) {
			return true
		}
	}
	return false
}

// limitWord precedes a count of rows: "top 2020" is odd, but "top 5".
func limitWord(w string) bool {
	switch w {
	case "top", "first", "last", "bottom", "best", "worst":
		return true
	}
	return false
}

// relative: a period named relative to today ("last month", "this year",
// "yesterday", "last quarter") is computed here again, from the as-of
// day, and the query's period must lie within it.
func (c *cover) relative() (ok, bad []string) {
	if c.asOf.IsZero() || c.q.TimeRange == nil || c.q.TimeRange.From == "" || c.q.TimeRange.To == "" || len(c.q.Compare) > 0 {
		return nil, nil
	}
	d := c.asOf
	month := time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
	qStart := time.Date(d.Year(), time.Month((int(d.Month())-1)/3*3+1), 1, 0, 0, 0, 0, time.UTC)
	year := time.Date(d.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	day := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
	spans := []struct {
		phrase   string
		from, to time.Time
	}{
		{"last month", month.AddDate(0, -1, 0), month},
		{"previous month", month.AddDate(0, -1, 0), month},
		{"this month", month, month.AddDate(0, 1, 0)},
		{"last quarter", qStart.AddDate(0, -3, 0), qStart},
		{"this quarter", qStart, qStart.AddDate(0, 3, 0)},
		{"last year", year.AddDate(-1, 0, 0), year},
		{"previous year", year.AddDate(-1, 0, 0), year},
		{"this year", year, year.AddDate(1, 0, 0)},
		{"yesterday", day.AddDate(0, 0, -1), day},
		{"today", day, day.AddDate(0, 0, 1)},
	}
	week := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7)) // Monday
	if m := lastNRE.FindStringSubmatch(c.text); m != nil {
		n, _ := strconv.Atoi(m[2])
		var f, t time.Time
		switch strings.TrimSuffix(m[3], "s") {
		case "day":
			f, t = day.AddDate(0, 0, -n), day
		case "week":
			f, t = week.AddDate(0, 0, -7*n), week
		case "month":
			f, t = month.AddDate(0, -n, 0), month
		case "quarter":
			f, t = qStart.AddDate(0, -3*n, 0), qStart
		case "year":
			f, t = year.AddDate(-n, 0, 0), year
		}
		spans = append([]struct {
			phrase   string
			from, to time.Time
		}{{strings.TrimSpace(m[0]), f, t}}, spans...)
	}
	from, to := c.q.TimeRange.From, c.q.TimeRange.To
	for _, s := range spans {
		if !c.has(s.phrase) {
			continue
		}
		f, t := s.from.Format("2006-01-02"), s.to.Format("2006-01-02")
		if from >= f && to <= t && from < to {
			ok = append(ok, s.phrase)
			return ok, nil
		}
		return nil, []string{fmt.Sprintf("\"%s\" is %s to %s as of %s, but the query's period is %s to %s",
			s.phrase, f, s.to.AddDate(0, 0, -1).Format("2006-01-02"), c.asOf.Format("2006-01-02"), from, lastDayOf(to))}
	}
	return nil, nil
}

var lastNRE = regexp.MustCompile(` (last|past|previous) (\d+) (days?|weeks?|months?|quarters?|years?) `)

func lastDayOf(to string) string {
	t, err := time.Parse("2006-01-02", to)
	if err != nil {
		return to
	}
	return t.AddDate(0, 0, -1).Format("2006-01-02")
}

// genericWords say nothing about which column is meant.
var genericWords = map[string]bool{"date": true, "at": true, "on": true, "time": true, "day": true, "id": true, "the": true, "of": true, "name": true,
	"number": true, "count": true, "total": true, "average": true, "amount": true, "code": true, "type": true, "value": true, "max": true, "min": true, "sum": true}

// namesColumn reports whether the question names a column: one of its
// words (of four letters or more; "signup" for signup_date) shares its
// first four letters with a word of the question ("signed"), or a synonym
// of the column or a dimension over it is in the question.
func (c *cover) namesColumn(ent string, col *semantic.Column) bool {
	return len(c.namingWords(ent, col)) > 0
}

// namingWords are the question's words and phrases that name a column
// (namesColumn).
func (c *cover) namingWords(ent string, col *semantic.Column) []string {
	var out []string
	for _, s := range col.Synonyms {
		// A synonym, or its distinctive first word ("joined" of "joined
		// the club").
		w := strings.Fields(strings.ToLower(s))
		switch {
		case c.has(s):
			out = append(out, strings.ToLower(s))
		case len(w) > 1 && len(w[0]) >= 5 && c.has(w[0]):
			out = append(out, w[0])
		}
	}
	for _, d := range c.m.Dimensions {
		if strings.EqualFold(d.Expr, ent+"."+col.Name) {
			for _, n := range append([]string{d.Name}, d.Synonyms...) {
				if p := strings.ReplaceAll(strings.ToLower(n), "_", " "); c.has(p) {
					out = append(out, p)
				}
			}
		}
	}
	for _, w := range splitName(col.Name) {
		if len(w) < 4 || genericWords[w] {
			continue
		}
		for _, qw := range c.words {
			if len(qw) >= 4 && qw[:4] == w[:4] {
				out = append(out, qw)
			}
		}
	}
	return out
}

// splitName splits a column name into lower-case words: signup_date,
// SignupDate and signup-date are signup and date.
func splitName(name string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, strings.ToLower(b.String()))
			b.Reset()
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
			prevLower = false
		case unicode.IsUpper(r) && prevLower:
			flush()
			b.WriteRune(r)
			prevLower = false
		default:
			b.WriteRune(r)
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		}
	}
	flush()
	return out
}

// periodDate: a period applied to a date other than the measure's own
// must be a date the question names ("customers who signed up in 2025").
func (c *cover) periodDate() (ok, bad []string) {
	tr := c.q.TimeRange
	if tr == nil || tr.Field == "" {
		return nil, nil
	}
	f, err := c.m.ResolveField(tr.Field)
	if err != nil {
		return nil, nil
	}
	var ent string
	var col *semantic.Column
	switch f.Kind {
	case semantic.FieldColumn:
		ent, col = f.Entity.Name, f.Column
	case semantic.FieldDimension:
		if fc, err := c.m.ResolveField(f.Dimension.Expr); err == nil && fc.Kind == semantic.FieldColumn {
			ent, col = fc.Entity.Name, fc.Column
		}
	}
	if col == nil {
		return nil, nil
	}
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil && strings.EqualFold(c.m.MetricTime(mt), ent+"."+col.Name) {
			return nil, nil // the measure's own date
		}
	}
	if !c.namesColumn(ent, col) {
		return nil, []string{"the period is applied to " + ent + "." + col.Name + ", a date the question does not name"}
	}
	// The measure's own date, named too ("members joined": the club's
	// start date, not the shop's signup date), is the likelier reading.
	for _, name := range c.q.Metrics {
		mt := c.m.Metric(name)
		if mt == nil {
			continue
		}
		own := c.m.MetricTime(mt)
		oe, oc, ok := strings.Cut(own, ".")
		if !ok || strings.EqualFold(own, ent+"."+col.Name) {
			continue
		}
		// The same word naming both ("joined" is a synonym of both
		// dates); "orders placed by customers who signed up" names each
		// date with its own words.
		if e := c.m.Entity(oe); e != nil {
			if ocol := e.Column(oc); ocol != nil {
				used := c.namingWords(ent, col)
				for _, w := range c.namingWords(e.Name, ocol) {
					if slices.Contains(used, w) {
						return nil, []string{"the question's \"" + w + "\" may be " + own + " (the measure's own date) or " + ent + "." + col.Name + "; the query took the latter"}
					}
				}
			}
		}
	}
	return []string{ent + "." + col.Name}, nil
}

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
				continue
			}
			if _, seen := groups[said]; !seen {
				order = append(order, said)
			}
			groups[said] = append(groups[said], e.Name+"."+col.Name)
		}
	}
	for _, said := range order {
		cols := groups[said]
		var usedCol string
		for _, col := range cols {
			_, name, _ := strings.Cut(col, ".")
			if strings.Contains(u, strings.ToLower(name)) {
				usedCol = col
				break
			}
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

// usedText is every column reference of the query, lower case: its
// metrics' formulas and conditions, filters, groupings and order.
func (c *cover) usedText() string {
	var used strings.Builder
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil {
			used.WriteString(" " + strings.ToLower(mt.Expr+" "+mt.Derived+" "+strings.Join(mt.Filters, " ")))
			for _, part := range metricRefRE.FindAllStringSubmatch(mt.Derived, -1) {
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
	return used.String()
}

// saysColumn is how the question names a numeric column: all its words
// ("unit price"), or its last word when that is distinctive ("price"),
// or "" when it does not; never a word inside a longer name it uses or a
// metric's name (the measures check holds the query to those).
func (c *cover) saysColumn(name string) string {
	words := splitName(name)
	full := strings.Join(words, " ")
	if len(full) >= 3 && !genericWords[full] && !c.inName(full) && !c.isMetricName(full) {
		switch {
		case c.has(full):
			return full
		case c.has(full + "s"):
			return full + "s"
		case strings.HasSuffix(full, "y") && c.has(strings.TrimSuffix(full, "y")+"ies"):
			return strings.TrimSuffix(full, "y") + "ies"
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

// groupings: each grouping of the query is one the question asks for (a
// dimension it names, an entity it ranks or lists, a grain it names), and
// a breakdown the question names ("by channel", "which category") is a
// grouping of the query.
func (c *cover) groupings() (ok, bad []string) {
	if c.q.Rows != nil || len(c.q.Metrics) == 0 {
		return nil, nil
	}
	if len(c.q.Dimensions) == 0 && len(c.q.Compare) == 0 && c.asksForGroups() {
		bad = append(bad, "the question asks for a figure for each group, but the query computes one figure")
	}
	for _, d := range c.q.Dimensions {
		if c.asksFor(d) {
			ok = append(ok, "by "+d.Name)
		} else {
			bad = append(bad, "the query groups by "+d.Name+", which the question does not ask for")
		}
	}
	dims := slices.Clone(c.m.Dimensions)
	// The columns of the knowledge too ("each country": singer.Country),
	// as dimensions over themselves.
	for _, e := range c.m.Entities {
		for _, col := range e.Columns {
			if col.Type.IsNumeric() || col.Type.IsTemporal() || strings.EqualFold(col.Name, e.PrimaryKey) {
				continue
			}
			dims = append(dims, semantic.Dimension{Name: e.Name + "." + col.Name, Entity: e.Name, Expr: e.Name + "." + col.Name, Synonyms: append([]string{strings.Join(splitName(col.Name), " ")}, col.Synonyms...)})
		}
		// The entity itself ("in each stadium"), grouped by its key or
		// label.
		key := e.Label
		if key == "" {
			key = e.PrimaryKey
		}
		if key != "" {
			names := []string{strings.ToLower(singularOf(strings.Join(splitName(e.Name), " ")))}
			dims = append(dims, semantic.Dimension{Name: e.Name + "." + key, Entity: e.Name, Expr: e.Name + "." + key, Synonyms: append(names, e.Synonyms...)})
		}
	}
	for _, d := range dims {
		if d.Type == "time" {
			continue
		}
		for _, n := range append([]string{d.Name}, d.Synonyms...) {
			p := strings.ReplaceAll(strings.ToLower(n), "_", " ")
			if len(p) < 3 || !c.has(p) && !c.has(p+"s") && !(strings.HasSuffix(p, "y") && c.has(strings.TrimSuffix(p, "y")+"ies")) {
				continue
			}
			asked := false
			for _, lead := range []string{"by", "per", "each", "every", "which", "across"} {
				if c.has(lead+" "+p) || c.has(lead+" "+p+"s") || strings.HasSuffix(p, "y") && c.has(lead+" "+strings.TrimSuffix(p, "y")+"ies") {
					asked = true
				}
			}
			if !asked {
				continue
			}
			// Any grouping the phrase names will do: "by status" may be
			// the status of orders or of tickets, "by customer" the
			// customer or the customer's segment.
			grouped := false
			for _, qd := range c.q.Dimensions {
				if strings.EqualFold(qd.Name, d.Name) || strings.EqualFold(qd.Name, d.Expr) || namedBy(c.candidates(qd), p) || c.namedAfter(p, c.candidates(qd)) || c.startsName(p, c.candidates(qd)) {
					grouped = true
				}
			}
			if !grouped && !c.filtersOn(d) {
				bad = append(bad, "the question asks for each "+p+", but the query does not group by it")
			}
			break
		}
	}
	return ok, bad
}

// singularOf drops a plural's s ("stadiums", "countries").
func singularOf(s string) string {
	switch {
	case strings.HasSuffix(s, "ies") && len(s) > 4:
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss") && len(s) > 3:
		return s[:len(s)-1]
	}
	return s
}

// startsName reports whether phrase begins a candidate the question
// names whole: "which template type code" groups by template_type_code,
// "template" being the first word of its name.
func (c *cover) startsName(phrase string, cands []string) bool {
	for _, cand := range cands {
		if strings.HasPrefix(cand, phrase+" ") && (c.has(cand) || c.hasWords(cand)) {
			return true
		}
	}
	return false
}

// namedAfter reports whether one of cands follows phrase within two
// words: "by customer segment" is a grouping by segment, with customer
// saying whose.
func (c *cover) namedAfter(phrase string, cands []string) bool {
	for _, cand := range cands {
		re, err := regexp.Compile(` ` + regexp.QuoteMeta(phrase) + `s? (\S+ ){0,2}` + regexp.QuoteMeta(cand) + `s? `)
		if err == nil && re.MatchString(c.text) {
			return true
		}
	}
	return false
}

// filtersOn reports whether the query filters on dimension d (a breakdown
// narrowed to one value: "which channel, web or store").
func (c *cover) filtersOn(d semantic.Dimension) bool {
	for _, f := range c.q.Filters {
		if strings.EqualFold(f.Field, d.Name) || strings.EqualFold(f.Field, d.Expr) {
			return true
		}
	}
	return false
}

// asksFor reports whether the question asks for grouping d: by its name,
// a synonym, its column's or entity's name, or, for a time grain, a word
// of time.
func (c *cover) asksFor(d semantic.DimRef) bool {
	if d.Grain != "" {
		if c.has(string(d.Grain)) || c.has(string(d.Grain)+"s") {
			return true
		}
		for phrase, g := range grainWords {
			if g == d.Grain && c.has(phrase) {
				return true
			}
		}
		for _, w := range []string{"trend", "over time", "timeline", "evolution", "history", "per period"} {
			if c.has(w) {
				return true
			}
		}
		return false
	}
	for _, p := range c.candidates(d) {
		if c.has(p) || c.has(strings.TrimSuffix(p, "s")) || c.has(p+"s") || c.has(strings.TrimSuffix(p, "ies")+"y") || (strings.HasSuffix(p, "y") && c.has(strings.TrimSuffix(p, "y")+"ies")) || c.hasWords(p) {
			return true
		}
	}
	return false
}

// hasWords reports whether every word of phrase (two or more) is in the
// question, in any order and number: "codes of template types" names
// template_type_code.
func (c *cover) hasWords(phrase string) bool {
	words := strings.Fields(phrase)
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		if !c.has(w) && !c.has(w+"s") && !c.has(w+"es") && !(strings.HasSuffix(w, "y") && c.has(strings.TrimSuffix(w, "y")+"ies")) {
			return false
		}
	}
	return true
}

// candidates are the phrases that name grouping d: its name, the
// dimension's synonyms, its column's and entity's names and synonyms,
// lower case, words split.
func (c *cover) candidates(d semantic.DimRef) []string {
	names := []string{d.Name}
	if dim := c.m.Dimension(d.Name); dim != nil {
		names = append(names, dim.Synonyms...)
		names = append(names, dim.Expr)
	}
	var out []string
	for _, n := range names {
		ent, col, dotted := strings.Cut(n, ".")
		cands := []string{n}
		if dotted {
			cands = []string{col}
			if e := c.m.Entity(ent); e != nil {
				if cc := e.Column(col); cc != nil {
					cands = append(cands, cc.Synonyms...)
				}
				// The entity's own name names a grouping by its key or its
				// label ("top 10 customers"), not by one of its attributes.
				if strings.EqualFold(col, e.PrimaryKey) || strings.EqualFold(col, e.Label) || strings.EqualFold(col, "id") || strings.EqualFold(col, "name") {
					cands = append(cands, ent)
					cands = append(cands, e.Synonyms...)
				}
			}
		}
		for _, cand := range cands {
			if p := strings.Join(splitName(cand), " "); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// namedBy reports whether phrase is one of cands, singular or plural.
func namedBy(cands []string, phrase string) bool {
	for _, p := range cands {
		if p == phrase || p == phrase+"s" || p+"s" == phrase || strings.TrimSuffix(p, "ies")+"y" == phrase || strings.TrimSuffix(phrase, "ies")+"y" == p {
			return true
		}
	}
	return false
}

// Direction words of rankings.
var (
	// Not "oldest" or "newest": the oldest row has the lowest date but
	// the highest age.
	highWords = []string{"top", "most", "highest", "largest", "biggest", "best", "maximum", "max", "greatest", "most expensive", "longest"}
	lowWords  = []string{"bottom", "least", "lowest", "smallest", "fewest", "worst", "minimum", "min", "cheapest", "least expensive", "shortest"}
)

// direction: a ranking runs from the end the question names ("top",
// "cheapest").
func (c *cover) direction() (ok, bad []string) {
	if len(c.q.Order) == 0 || c.q.Limit == 0 {
		return nil, nil
	}
	high, low := "", ""
	for _, w := range highWords {
		if c.has(w) && !c.inName(w) {
			high = w
		}
	}
	for _, w := range lowWords {
		if c.has(w) && !c.inName(w) {
			low = w
		}
	}
	if (high == "") == (low == "") {
		return nil, nil // neither, or both: the question does not say one way
	}
	desc := c.q.Order[0].Desc
	switch {
	case high != "" && desc, low != "" && !desc:
		return []string{high + low}, nil
	case high != "":
		return nil, []string{"\"" + high + "\" asks for the highest first, but the query ranks from the lowest"}
	default:
		return nil, []string{"\"" + low + "\" asks for the lowest first, but the query ranks from the highest"}
	}
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
		return used[strings.ToLower(x.mt.Name)] || c.namedByUsed(x.said) || c.sameAsUsed(&x.mt)
	}
	anyMeasured := c.namesUsedColumn() || measureWordRE.MatchString(c.text)
	for _, x := range all {
		if measured(x) {
			anyMeasured = true
		}
	}
	for _, x := range all {
		switch {
		case measured(x):
			ok = append(ok, x.said)
		case c.population(&x.mt, anyMeasured):
			// the rows a named measure runs over, or the rows grouped
			ok = append(ok, x.said)
		default:
			bad = append(bad, fmt.Sprintf("the question names %s (%s), which the query does not measure", x.mt.Name, x.said))
		}
	}
	return ok, bad
}

var metricRefRE = regexp.MustCompile(`\{([^{}]+)\}`)

// measureWordRE names a measure over a set of rows without naming a
// metric: "percentage of orders", "average pages per session".
var measureWordRE = regexp.MustCompile(` (percentage|percent|share|proportion|ratio|rate|average|mean|median) `)

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
		for _, ref := range columnRefRE.FindAllStringSubmatch(mt.Expr, -1) {
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

var columnRefRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)`)

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

// countRE is a count of rows: COUNT(*) or COUNT(column), not a count of
// distinct values.
var countRE = regexp.MustCompile(`(?i)^\s*count\s*\(\s*(\*|[^()]*)\)\s*$`)

func countsRows(expr string) bool {
	return countRE.MatchString(expr) && !strings.Contains(strings.ToLower(expr), "distinct")
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

// breakdown words ask for a table of groups.
var breakdownRE = regexp.MustCompile(` (by|per|each|every|across|broken down|split by|for each|breakdown|trend|over time|monthly|weekly|daily|quarterly|yearly|annually|which|what are the|list|top|bottom|most|least|highest|lowest|best|worst|rank|ranking|compared?|vs|versus) `)

// breakdown reports whether the question asks for groups. In a question
// that asks for one number, "by" before the rows that did it ("orders
// placed by customers who signed up in 2025", "opened by business
// customers") says whose, not how to group.
func (c *cover) breakdown() bool {
	for _, loc := range breakdownRE.FindAllStringSubmatchIndex(c.text, -1) {
		word := c.text[loc[2]:loc[3]]
		if word != "by" && word != "per" {
			return true
		}
		rest := strings.Fields(c.text[loc[3]:])
		agent := false
		for j := 0; j < len(rest) && j < 2; j++ {
			if c.isEntityWord(rest[j]) {
				agent = true
			}
		}
		if !agent {
			return true
		}
	}
	return false
}

// eachRE asks for a figure per group, whatever the groups are.
var eachRE = regexp.MustCompile(` (each|every|for each|broken down|split by|breakdown) `)

// asksForGroups reports whether the question asks for a figure per group:
// "for each", "every", "broken down", or a "by" that is not whose ("by
// channel", not "placed by customers").
func (c *cover) asksForGroups() bool {
	if eachRE.MatchString(c.text) {
		return true
	}
	have := c.filterValues()
	for _, loc := range byRE.FindAllStringIndex(c.text, -1) {
		rest := strings.Fields(c.text[loc[1]:])
		agent := false
		for j := 0; j < len(rest) && j < 2; j++ {
			if c.isEntityWord(rest[j]) {
				agent = true
			}
		}
		// "written by Joseph Kuhr": by whom, a value filtered on.
		if len(rest) > 0 {
			for v := range have {
				if strings.HasPrefix(v+" ", rest[0]+" ") {
					agent = true
				}
			}
		}
		if !agent && len(rest) > 0 && !periodWords[rest[0]] && rest[0] != "the" {
			return true
		}
	}
	return false
}

var byRE = regexp.MustCompile(` by `)

// oneNumber words ask for a single figure.
var oneNumberRE = regexp.MustCompile(`^ (in |for |of |across )?(how many|how much|what is the total|what was the total|total|what is our|what was our|count|number of|sum of) `)

// shape: "how many orders in 2025" is one number; grouping it returns a
// table that answers another question.
func (c *cover) shape() (Check, bool) {
	if !oneNumberRE.MatchString(c.text) || c.breakdown() || len(c.q.Compare) > 0 {
		return Check{}, false
	}
	if c.q.Rows != nil {
		return Check{Name: CheckShape, Status: Fail, Detail: "the question asks for a number, but the query lists " + c.q.Rows.Entity + " rows"}, true
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
