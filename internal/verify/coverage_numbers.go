package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// The numbers, periods and dates a question names (Coverage).

// periodWords name a time span in a question.
var periodWords = map[string]bool{
	"day": true, "days": true, "week": true, "weeks": true, "month": true, "months": true, "quarter": true, "quarters": true,
	"year": true, "years": true, "today": true, "yesterday": true, "ytd": true, "mtd": true, "qtd": true,
}

var (
	yearRE    = lazyRE(`^(19|20)\d\d$`)
	quarterRE = lazyRE(`^q[1-4]$`)
	numberRE  = lazyRE(`^\d+(\.\d+)?%?$`)
	dateRE    = lazyRE(`^\d{4}-\d{2}(-\d{2})?$`)
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
	if c.q.Limit > 1 && (oneOfRE().MatchString(c.text) || c.oneAtTheEnd()) {
		bad = append(bad, fmt.Sprintf("the question asks for the one at the top, but the query lists %d", c.q.Limit))
	}
	// "more than one document", "at least two paragraphs": a number in
	// words after a comparison is a filter's value.
	for _, m := range comparedWordRE().FindAllStringSubmatch(c.text, -1) {
		n := strconv.Itoa(numberWords[m[2]])
		if have[n] || c.numericFilter(n, false) {
			ok = append(ok, m[1]+" "+m[2])
		} else {
			bad = append(bad, "\""+m[1]+" "+m[2]+"\" is not in the query")
		}
	}
	// "ordered twice": a count of rows of 2, as "exactly 2 orders".
	if !comparedWordRE().MatchString(c.text) {
		for _, m := range timesRE().FindAllStringSubmatch(c.text, -1) {
			if n := strconv.Itoa(numberWords[m[1]]); have[n] || c.numericFilter(n, false) {
				ok = append(ok, m[1])
			} else {
				bad = append(bad, "\""+m[1]+"\" is not in the query")
			}
		}
	}
	for i, w := range c.words {
		if !numberRE().MatchString(w) && !dateRE().MatchString(w) {
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
		pct := n != w || next == "percent" || next == "pct"
		switch {
		case yearRE().MatchString(w) && (semantic.ComparesNumber(prev) || c.amountAt(i)) && (have[n] || c.numericFilter(n, pct)):
			// "claims over 2000": an amount compared, no year (found
			// from outside: read as the year 2000).
			ok = append(ok, w)
		case dateRE().MatchString(w), yearRE().MatchString(w) && !limitWord(prev):
			if c.spans(w) {
				ok = append(ok, w)
			} else {
				bad = append(bad, "the period "+w+" is not the query's")
			}
		case periodWords[next] || periodWords[strings.TrimSuffix(next, "s")] || monthNames[next] || monthNames[prev]:
			// "last 30 days", "3 months ago", "March 5": a relative or
			// calendar period, read into the time range.
			if c.timeRange() != nil || len(c.q.Compare) > 0 || c.ageOf(prev, w, next) {
				ok = append(ok, w+" "+next)
			} else {
				bad = append(bad, "the period \""+strings.TrimSpace(w+" "+next)+"\" is not applied")
			}
		case c.q.Limit > 0 && strconv.Itoa(c.q.Limit) == n:
			ok = append(ok, w)
		case have[n] || c.numericFilter(n, pct):
			ok = append(ok, w)
		case c.inValue(n, have):
			// "Acme Inc 100": a word of a value filtered on.
			ok = append(ok, w)
		case c.birthAge(n):
			// "employees older than 60": a date of birth 60 or 61 years
			// before the as-of day.
			ok = append(ok, w)
		case c.inName(w):
		default:
			bad = append(bad, "the number "+w+" is not in the query")
		}
	}
	return ok, bad
}

// birthAge reports whether the number n is an age in years the query
// puts on a date of birth, as a day n or n+1 years before the as-of day,
// or on a column of years, as the as-of year less n (the planner's
// readings of "older than n", "younger than n").
func (c *cover) birthAge(n string) bool {
	age, err := strconv.Atoi(n)
	if err != nil || c.asOf.IsZero() || !c.has("older") && !c.has("younger") && !c.has("age") && !c.has("aged") {
		return false
	}
	for _, f := range c.q.Filters {
		fd, err := c.m.ResolveField(f.Field)
		if err != nil || fd.Kind != semantic.FieldColumn || len(f.Values) != 1 {
			continue
		}
		switch v := f.Values[0].(type) {
		case string:
			if birthColumn(fd.Column) && (v == c.asOf.AddDate(-age, 0, 0).Format(time.DateOnly) || v == c.asOf.AddDate(-age-1, 0, 0).Format(time.DateOnly)) {
				return true
			}
		case int64:
			if fd.Column.Type.IsNumeric() && semantic.YearsName(fd.Column.Name) && int(v) == c.asOf.Year()-age {
				return true
			}
		}
	}
	return false
}

// birthColumn reports whether col is a date of birth: by its role, or
// birth or dob in its name.
func birthColumn(col *semantic.Column) bool {
	ws := semantic.NameWords(col.Name)
	return col.TimeRole == semantic.TimeRoleBirth || slices.Contains(ws, "birth") || slices.Contains(ws, "dob")
}

// oneOfRE asks for the one row at an end: "what is the most expensive
// product", "which was the best month".
var oneOfRE = lazyRE(`^ (what|which|who) (is|was) the (most|least|highest|lowest|cheapest|biggest|largest|smallest|best|worst|top|fewest|greatest) `)

// numberWords are numbers written in words.
var numberWords = map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "once": 1, "twice": 2, "thrice": 3}

var comparedWordRE = lazyRE(` (more than|less than|fewer than|at least|at most|greater than|over|under|exactly) (zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|once|twice|thrice) `)

// timesRE is how often, with no comparison: "ordered twice".
var timesRE = lazyRE(` (once|twice|thrice) `)

var superlativeRE = lazyRE(` (most|least|highest|lowest|fewest|largest|smallest|cheapest|best|worst|biggest|greatest|oldest|youngest|newest|latest|earliest) `)

// oneAtTheEnd reports whether the question asks for the single row at one
// end of a ranking: a superlative, no number, and a singular ("which year
// has most concerts", "the name of the country with the most car makers"),
// not a list ("which countries are the largest", "top …").
func (c *cover) oneAtTheEnd() bool {
	// A value filtered on is no ranking word ("how many work orders did
	// Best complete": technicians.surname = 'Best').
	text := c.text
	for v := range c.filterValues() {
		if v != "" && !strings.Contains(v, " ") {
			text = strings.ReplaceAll(" "+text+" ", " "+v+" ", " ")
		}
	}
	// A year names the period, not a number of rows: "which channel had
	// the most orders in 2025" asks for one.
	if !superlativeRE().MatchString(text) || digitRE().MatchString(periodYearRE().ReplaceAllString(c.text, " ")) || comparedWordRE().MatchString(c.text) {
		return false
	}
	for _, w := range []string{" are ", " were ", " top ", " bottom ", " all ", " each ", " every ", " names ", " by ", " per ", " for each "} {
		if strings.Contains(c.text, w) {
			return false
		}
	}
	return !c.listsPlural()
}

// listsPlural reports whether a list names its rows, or a ranking its
// one grouping, in the plural only ("the most recent cancelled orders",
// "which cities have the most customers"): several rows, not the one at
// the top ("the most recent cancelled order").
func (c *cover) listsPlural() bool {
	var names []string
	switch {
	case c.q.Rows != nil:
		e := c.m.Entity(c.q.Rows.Entity)
		if e == nil {
			return false
		}
		names = append([]string{e.Name}, e.Synonyms...)
	case len(shownDims(c.q)) == 1:
		// "which cities have the most customers": the groups, plural.
		d := shownDims(c.q)[0]
		if ent, col, ok := strings.Cut(d, "."); ok {
			if e := c.m.Entity(ent); e != nil && (strings.EqualFold(col, e.Label) || strings.EqualFold(col, e.PrimaryKey)) {
				names = append([]string{e.Name}, e.Synonyms...)
			} else {
				names = []string{col}
			}
		} else if dim := c.m.Dimension(d); dim != nil {
			names = append([]string{dim.Name}, dim.Synonyms...)
		} else {
			names = []string{d}
		}
	default:
		return false
	}
	many, one := false, false
	for _, n := range names {
		n = strings.ToLower(strings.Join(splitName(n), " "))
		sing := Singular(n)
		if sing == n {
			n = pluralOf(n)
		}
		one = one || c.has(sing)
		many = many || c.has(n)
	}
	return many && !one
}

// shownDims are the names of q's dimensions that are shown (not hidden
// keys).
func shownDims(q *semantic.Query) []string {
	var out []string
	for _, d := range q.Dimensions {
		if !slices.ContainsFunc(q.Hidden, func(h string) bool { return strings.EqualFold(h, d.Name) }) {
			out = append(out, d.Name)
		}
	}
	return out
}

// pluralOf is a singular noun's plural by the common English endings.
func pluralOf(n string) string {
	switch {
	case len(n) > 2 && strings.HasSuffix(n, "y") && !strings.ContainsRune("aeiou", rune(n[len(n)-2])):
		return n[:len(n)-1] + "ies"
	case strings.HasSuffix(n, "s") || strings.HasSuffix(n, "x") || strings.HasSuffix(n, "ch") || strings.HasSuffix(n, "sh"):
		return n + "es"
	}
	return n + "s"
}

var (
	digitRE      = lazyRE(`\d`)
	periodYearRE = lazyRE(` (in|during|of|for) (19|20)\d\d `)
)

var extremeRE = lazyRE(`(?i)^\s*(max|min)\s*\(`)

// extremeAggregate reports whether the query computes a maximum or a
// minimum: "the highest product price" is MAX, not a ranking.
func (c *cover) extremeAggregate() bool {
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil && extremeRE().MatchString(mt.Expr) {
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
	tr := c.timeRange()
	if c.asOf.IsZero() || tr == nil || tr.From == "" || tr.To == "" || len(c.q.Compare) > 0 {
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
		// "the past year", "the last year": the twelve months up to this
		// one, as the planner reads them; "last year" the calendar year.
		{"the past year", month.AddDate(-1, 0, 0), month},
		{"past year", month.AddDate(-1, 0, 0), month},
		{"the last year", month.AddDate(-1, 0, 0), month},
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
	if m := lastNRE().FindStringSubmatch(c.text); m != nil {
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
	from, to := tr.From, tr.To
	for _, s := range spans {
		if !c.has(s.phrase) {
			continue
		}
		f, t := s.from.Format("2006-01-02"), s.to.Format("2006-01-02")
		if strings.HasPrefix(s.phrase, "this ") && c.has(s.phrase+" last year") {
			// "revenue this month last year": this month, a year earlier.
			f, t = s.from.AddDate(-1, 0, 0).Format("2006-01-02"), s.to.AddDate(-1, 0, 0).Format("2006-01-02")
		}
		if from >= f && to <= t && from < to {
			ok = append(ok, s.phrase)
			if len(bad) == 0 {
				return ok, nil
			}
			continue
		}
		if strings.HasSuffix(s.phrase, " year") && from >= f && from < t && strings.Contains(c.text, "since ") &&
			strings.Index(c.text, "since ") < strings.Index(c.text, s.phrase) {
			// "signups since March last year": the year of the start,
			// the period running from it to today.
			ok = append(ok, s.phrase)
			continue
		}
		if (c.has("start of "+s.phrase) || c.has("beginning of "+s.phrase)) && (from == f && to > f || from == "" && to == f) {
			// "since the start of last quarter", "before the beginning
			// of this year": the period's first day is the bound.
			ok = append(ok, s.phrase)
			continue
		}
		if c.dateFilterWithin(f, t) {
			// "revenue this year from customers who signed up last
			// year": the other period is a condition on another date.
			ok = append(ok, s.phrase)
			continue
		}
		bad = append(bad, fmt.Sprintf("\"%s\" is %s to %s as of %s, but the query's period is %s to %s",
			s.phrase, f, s.to.AddDate(0, 0, -1).Format("2006-01-02"), c.asOf.Format("2006-01-02"), from, lastDayOf(to)))
	}
	if len(bad) > 0 && len(ok) > 0 {
		// One phrase is the period, another not it nor a condition.
		return nil, bad
	}
	return ok, bad
}

// dateFilterWithin reports whether the query keeps a date field to a
// range inside [from, to): a filter >= and a filter < on one field.
func (c *cover) dateFilterWithin(from, to string) bool {
	lo, hi := map[string]string{}, map[string]string{}
	for _, f := range c.q.Filters {
		if len(f.Values) != 1 {
			continue
		}
		v, ok := f.Values[0].(string)
		if !ok {
			continue
		}
		switch f.Op {
		case semantic.OpGe:
			lo[f.Field] = v
		case semantic.OpLt:
			hi[f.Field] = v
		}
	}
	for field, l := range lo {
		if h, ok := hi[field]; ok && l >= from && h <= to && l < h {
			return true
		}
	}
	return false
}

var lastNRE = lazyRE(` (last|past|previous) (\d+) (days?|weeks?|months?|quarters?|years?) `)

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
		if len(w) < 3 || genericWords[w] {
			continue
		}
		for _, qw := range c.words {
			switch {
			case len(w) == 3:
				// "ended" and "end" name end_date: a short word only in
				// its own forms (found from outside).
				if qw == w || qw == w+"ed" || qw == w+"s" || qw == w+"ing" {
					out = append(out, qw)
				}
			case len(qw) >= 4 && qw[:4] == w[:4]:
				out = append(out, qw)
			}
		}
	}
	return out
}

// parentDate reports whether the date is the one every row of a table
// has, a table each measured row belongs to (one link, or two: a goal's
// match, an order line's order), where the measured rows have no date of
// their own: "goals in 2025" are those of 2025's matches. Not a date the
// table began on (a member's joining dates none of their fines).
func (c *cover) parentDate(ent string, col *semantic.Column) bool {
	if len(c.q.Metrics) == 0 {
		return false
	}
	for _, name := range c.q.Metrics {
		mt := c.m.Metric(name)
		if mt == nil || c.m.MetricTime(mt) != "" {
			return false
		}
		e := c.m.Entity(mt.Entity)
		if e == nil || e.TimeColumn != "" || slices.ContainsFunc(e.Columns, func(x semantic.Column) bool { return x.Temporal() }) {
			return false
		}
		p := c.m.Entity(ent)
		if p == nil || !strings.EqualFold(p.TimeColumn, col.Name) || col.TimeRole == semantic.TimeRoleStart || col.TimeRole == semantic.TimeRoleBirth || !c.belongsTo(e.Name, p.Name, 2) {
			return false
		}
	}
	return true
}

// attendedDate reports whether the date is the day of the event each
// measured row is for, where the rows are picked by whether they were
// attended (semantic.Model.AttendedOn): "how many no-shows this year".
func (c *cover) attendedDate(ent string, col *semantic.Column) bool {
	if len(c.q.Metrics) != 1 {
		return false
	}
	mt := c.m.Metric(c.q.Metrics[0])
	return mt != nil && strings.EqualFold(c.m.AttendedOn(mt.Entity, c.q.Filters), ent+"."+col.Name)
}

// belongsTo reports whether each row of from refers to one row of to, in
// at most hops links of one row each.
func (c *cover) belongsTo(from, to string, hops int) bool {
	if hops == 0 {
		return false
	}
	for _, r := range c.m.Relationships {
		if !strings.EqualFold(r.From, from) || r.Cardinality == semantic.OneToMany || r.Cardinality == semantic.ManyToMany {
			continue
		}
		if strings.EqualFold(r.To, to) || c.belongsTo(r.To, to, hops-1) {
			return true
		}
	}
	return false
}

// bornDate reports whether col is a date of birth the question names by
// "born" ("employees born before 1970": birth_date, dob).
func (c *cover) bornDate(col *semantic.Column) bool {
	if !c.has("born") {
		return false
	}
	return birthColumn(col) || slices.Contains(semantic.NameWords(col.Name), "born")
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
	made := slices.ContainsFunc(c.words, func(w string) bool { return c.madeDate(ent, col.Name, w) })
	if !c.namesColumn(ent, col) && !c.stateDate(ent, col) && !c.parentDate(ent, col) && !c.bornDate(col) && !c.attendedDate(ent, col) && !made {
		return nil, []string{"the period is applied to " + ent + "." + col.Name + ", a date the question does not name"}
	}
	// The date named by its own words ("moved out" of moved_out_on,
	// beside moved_in_on) is no other's.
	if ws := strings.Split(strings.ToLower(col.Name), "_"); len(ws) > 2 && semantic.DateWord(ws[len(ws)-1]) && c.has(strings.Join(ws[:len(ws)-1], " ")) {
		return []string{ent + "." + col.Name}, nil
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

// numericFilter reports whether a filter compares with the number n.
// amountAt reports whether the number c.words[i] is a bound of a range
// ("between 1000 and 2000") or written as money ("$2000", "2000
// dollars"): an amount, never a year.
func (c *cover) amountAt(i int) bool {
	w := c.words[i]
	switch {
	case i > 0 && c.words[i-1] == "between",
		i > 2 && c.words[i-1] == "and" && c.words[i-3] == "between" && numberRE().MatchString(c.words[i-2]),
		i+1 < len(c.words) && semantic.CurrencyWord(c.words[i+1]):
		return true
	}
	for at := strings.Index(c.raw, w); at >= 0; {
		if semantic.MoneyBefore(c.raw[:at]) {
			return true
		}
		next := strings.Index(c.raw[at+len(w):], w)
		if next < 0 {
			break
		}
		at += len(w) + next
	}
	return false
}

// numericFilter reports whether a filter of the query compares with the
// number n: as written, as a fraction where the question writes it as a
// percent (pct), or in cents against a column or measure in cents.
func (c *cover) numericFilter(n string, pct bool) bool {
	want, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return false
	}
	for _, f := range c.q.Filters {
		for _, v := range f.Values {
			// A percent is a fraction of one (5% filters on 0.05); no
			// other number is (found from outside: "Acme Inc 100" passed
			// by is_test <> 1).
			if x, ok := semantic.NumberOf(v); ok && (x == want || pct && x == want/100 || x == want*100 && c.inCents(f.Field)) {
				return true
			}
		}
	}
	return false
}

// inValue reports whether number n is a word of a value the query
// filters on (have) that the question names whole: "Acme Inc 100".
func (c *cover) inValue(n string, have map[string]bool) bool {
	for v := range have {
		if v != n && strings.Contains(" "+v+" ", " "+n+" ") && c.has(v) {
			return true
		}
	}
	return false
}

// inCents reports whether field, a column (entity.column) or a measure,
// holds money in cents (semantic.MinorUnit): "payments over $70" of
// amount_cents filters on 7000.
func (c *cover) inCents(field string) bool {
	if mt := c.m.Metric(field); mt != nil {
		return semantic.MinorUnit(mt.Unit, mt.Expr)
	}
	ent, col, ok := strings.Cut(field, ".")
	if !ok {
		return false
	}
	if e := c.m.Entity(ent); e != nil {
		if cc := e.Column(col); cc != nil {
			return semantic.MinorUnit(cc.Unit, cc.Name)
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
	// An open start ("until 2025", "by the end of 2025") spans what it
	// ends in.
	in := func(f, t string) bool { return t != "" && f <= to && t > from }
	if tr := c.timeRange(); tr != nil && in(tr.From, tr.To) {
		return true
	}
	// "hired before 2024": a range that ends where the named period
	// starts (found from outside: refused as not the query's period).
	if tr := c.timeRange(); tr != nil && tr.From == "" && tr.To == from && (c.has("before "+w) || c.has("start of "+w) || c.has("beginning of "+w)) {
		return true
	}
	// "hired after 2020": a range that starts where the named period
	// ends (found from outside: refused as not the query's period).
	if tr := c.timeRange(); tr != nil && tr.From != "" && tr.From == periodAfter(w) && (c.has("after "+w) || c.has("end of "+w)) {
		return true
	}
	for _, p := range c.q.Compare {
		if in(p.From, p.To) {
			return true
		}
	}
	if len(w) == 4 && c.yearColumnFilter(w) {
		return true
	}
	for _, f := range c.q.Filters {
		for _, v := range f.Values {
			// "Fall 2025": a value that names the year, a term's name.
			if s, ok := v.(string); ok && (strings.HasPrefix(s, w) || slices.Contains(strings.Fields(s), w)) {
				return true
			}
		}
	}
	return false
}

// periodAfter is the first day after the period w names (a year, a
// month or a day, as spans reads them), "" for any other word.
func periodAfter(w string) string {
	for _, f := range []struct {
		layout     string
		y, m, days int
	}{{"2006", 1, 0, 0}, {"2006-01", 0, 1, 0}, {"2006-01-02", 0, 0, 1}} {
		if t, err := time.Parse(f.layout, w); err == nil && len(w) == len(f.layout) {
			return t.AddDate(f.y, f.m, f.days).Format("2006-01-02")
		}
	}
	return ""
}

// yearColumnFilter reports whether a filter compares a column of years
// (a number column named with "year": year, model_year, year_built) with
// the year w: "cars
// made in 1980" is cars.year = 1980, "before 1980" cars.year < 1980.
func (c *cover) yearColumnFilter(w string) bool {
	want, err := strconv.ParseFloat(w, 64)
	if err != nil {
		return false
	}
	for _, f := range c.q.Filters {
		fl, err := c.m.ResolveField(f.Field)
		if err != nil || fl.Kind != semantic.FieldColumn || !fl.Column.Type.IsNumeric() {
			continue
		}
		if !semantic.YearsName(fl.Column.Name) {
			continue
		}
		for _, v := range f.Values {
			if x, ok := semantic.NumberOf(v); ok && x == want {
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
