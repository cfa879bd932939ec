package verify

import (
	"fmt"
	"regexp"
	"slices"
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
	CheckPartial  = "partial_period"    // a ranking of periods that counts one not yet over
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
	for _, f := range []func() ([]string, []string){c.values, c.ordinaryValues, c.otherColumn, c.numbers, c.period, c.relative, c.periodDate, c.stockPeriod, c.spanPeriod, c.measures, c.columns, c.groupings, c.direction, c.when, c.countOfAmount, c.negation, c.against, c.who, c.perEntity, c.perOther, c.percentile, c.selfGrouped, c.parentStateForOwnDate} {
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
	if ch, ok := c.partial(); ok {
		checks = append(checks, ch)
	}
	return checks
}

// cover is one question read against one query.
type cover struct {
	asOf time.Time // the day relative periods are read against; zero when unknown
	raw  string    // the question as written
	q    *semantic.Query
	m    *semantic.Model
	text string // the question, lower case, words separated by single spaces
	// scratch and split are mayName's buffers, textb the text it searches.
	scratch, split, textb []byte
	words                 []string // its words
	// names are the phrases of the knowledge (entities, metrics,
	// dimensions, columns, their synonyms), lower case: a value inside one
	// ("web" in "web sessions") is part of a name, not a filter.
	names []string
	// terms are the names that can be a measure, a set of rows or a
	// grouping (metrics, entities, dimensions and their synonyms), lower
	// case: a value that is also one of these is ambiguous.
	terms []string
}

// thousandsRE is a thousands separator inside a number.
var thousandsRE = lazyRE(`(\d),(\d{3})\b`)

// pctWordRE is a % sign that is not a number's.
var pctWordRE = lazyRE(`(^|[^\p{N}.%])%`)

var wordRE = lazyRE(`[\p{L}\p{N}][\p{L}\p{N}'’._%-]*`)

func newCover(question string, m *semantic.Model, q *semantic.Query) *cover {
	// The values other names stand for ("the US"), read as the planner
	// reads them.
	question = semantic.ExpandAliases(question, m.HasValue)
	// "1,000" is one number, as the planner reads it.
	for thousandsRE().MatchString(question) {
		question = thousandsRE().ReplaceAllString(question, "$1$2")
	}
	// "what % of orders", "margin %": the word, as the planner reads it
	// ("50%" stays a number).
	question = pctWordRE().ReplaceAllString(question, "$1 percent")
	var words []string
	for _, w := range wordRE().FindAllString(strings.ToLower(question), -1) {
		words = append(words, strings.TrimRight(w, ".-'’"))
	}
	c := &cover{q: q, m: m, raw: question, words: words, text: " " + strings.Join(words, " ") + " "}
	// add puts a name and its synonyms in names, and, for a term (a
	// measure, a set of rows or a grouping), in terms.
	// names only matter where the question holds them (inName), so a
	// column name it does not hold is not kept: a schema of ten thousand
	// tables has eighty thousand.
	add := func(isTerm bool, names ...string) {
		for _, n := range names {
			n = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(n, "_", " ")))
			if n == "" {
				continue
			}
			if strings.Contains(c.text, n) {
				c.names = append(c.names, n)
			}
			if isTerm {
				c.terms = append(c.terms, n)
			}
		}
	}
	for _, e := range m.Entities {
		add(true, e.Name)
		add(true, e.Synonyms...)
		for _, col := range e.Columns {
			if c.mayName(col.Name) || len(col.Synonyms) > 0 {
				add(false, col.Name)
				add(false, col.Synonyms...)
			}
		}
	}
	for _, mt := range m.Metrics {
		add(true, append([]string{mt.Name}, mt.Synonyms...)...)
	}
	for _, d := range m.Dimensions {
		add(true, append([]string{d.Name}, d.Synonyms...)...)
	}
	return c
}

// overdueRead reports whether the query keeps rows of one table due
// before a day (a date named for being due) and not done (a date not
// set): "overdue" said of them, where it is also another table's value
// (fines.reason).
func (c *cover) overdueRead() bool {
	for _, due := range c.q.Filters {
		e, col, ok := strings.Cut(due.Field, ".")
		if !ok || due.Op != semantic.OpLt || !slices.Contains(semantic.NameWords(col), "due") {
			continue
		}
		for _, done := range c.q.Filters {
			if de, _, ok := strings.Cut(done.Field, "."); ok && done.Op == semantic.OpNull && strings.EqualFold(de, e) {
				return true
			}
		}
	}
	return false
}

// notClosedRead reports whether the query keeps its rows to those a
// date closes that is not set ("active employees": terminated_on empty),
// which is how the planner reads "active" and "current" of a table with
// such a date, whatever other table holds 'active' as a value (found from
// outside, on a schema of 8,750 tables).
func (c *cover) notClosedRead() bool {
	for _, f := range c.q.Filters {
		if f.Op != semantic.OpNull {
			continue
		}
		if fd, ok := c.m.ColumnField(f.Field); ok && fd.Column.Temporal() && (fd.Column.TimeRole == semantic.TimeRoleEnd || semantic.ClosingName(fd.Column.Name)) {
			return true
		}
	}
	return false
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
		if _, col, ok := strings.Cut(f.Field, "."); ok && semantic.FlagName(col) {
			// "active employees" is is_active = 1: the word "active"
			// is filtered on, whatever other column holds it as text.
			if adj := semantic.FlagAdjective(col); adj != "" {
				out[adj] = true
			}
		}
		for _, v := range f.Values {
			out[strings.ToLower(strings.TrimSpace(fmt.Sprint(v)))] = true
		}
		for _, w := range f.Where { // the related rows' conditions
			for _, v := range w.Values {
				out[strings.ToLower(strings.TrimSpace(fmt.Sprint(v)))] = true
			}
		}
	}
	for _, name := range c.q.Metrics {
		mt := c.m.Metric(name)
		if mt == nil {
			continue
		}
		for _, f := range append([]string{mt.Expr}, mt.Filters...) {
			for _, lit := range literalRE().FindAllStringSubmatch(f, -1) {
				out[strings.ToLower(lit[1])] = true
			}
		}
	}
	return out
}

// datesEvent reports whether v is the verb of the date the query's period
// is on, or of a date its rows must have ("how many orders were
// shipped": orders.shipped_at is not null), a date named by its event and
// a suffix ("booked" of booked_at).
func (c *cover) datesEvent(v string) bool {
	var fields []string
	for _, f := range c.q.Filters {
		if f.Op == semantic.OpNotNull {
			fields = append(fields, f.Field)
		}
	}
	if tr := c.q.TimeRange; tr == nil && len(c.q.Compare) == 0 {
		// only the dates the rows must have
	} else if tr != nil && tr.Field != "" {
		fields = append(fields, tr.Field)
	} else {
		for _, name := range c.q.Metrics {
			if mt := c.m.Metric(name); mt != nil {
				fields = append(fields, c.m.MetricTime(mt))
			}
		}
	}
	for _, f := range fields {
		ent, col, _ := strings.Cut(f, ".")
		if ws := strings.Split(strings.ToLower(col), "_"); len(ws) == 2 && ws[0] == v {
			return true
		}
		if c.madeDate(ent, col, v) {
			// "lessons booked last month": the lessons made then, by
			// created_at, not the status 'booked'.
			return true
		}
	}
	return false
}

// madeDate reports whether col is the date rows of ent were entered on
// (semantic.ExistedBy), where their own date is the event each is made
// for, and the question says the verb of making v ("booked") of them:
// "lessons booked last month" are those made then.
func (c *cover) madeDate(ent, col, v string) bool {
	e := c.m.Entity(ent)
	if e == nil || !semantic.MakingWord(v) || !c.has(v) {
		return false
	}
	by := semantic.ExistedBy(e)
	return !strings.EqualFold(by, e.Name+"."+e.TimeColumn) && strings.EqualFold(by, ent+"."+col)
}

var literalRE = lazyRE(`'((?:[^']|'')*)'`)

// values: a known value of a column the question names is a filter value
// (or a condition of a metric the query uses).
func (c *cover) values() (ok, bad []string) {
	have := c.filterValues()
	seen := map[string]bool{}
	check := func(v string, where func() string) {
		if !c.mayName(v) {
			return // cheaply ruled out: the question does not hold v, or v+"s"
		}
		lv := strings.ToLower(strings.TrimSpace(v))
		if len(lv) < 2 || seen[lv] {
			return
		}
		if !c.has(lv) && (len(lv) < 4 || !c.has(lv+"s")) {
			return // neither the value nor its plural ("tablets")
		}
		if !c.has(lv) && have[lv+"s"] {
			return // "books" is the value Books filtered on, not a plural of Book
		}
		if sg := semantic.IrregularSingular(lv); sg != "" && have[sg] {
			return // "children" is the value child filtered on
		}
		if lv == "overdue" && c.overdueRead() {
			return // read by the rows' dates: due before today, not done
		}
		if (lv == "active" || lv == "current") && c.notClosedRead() {
			return // read by the rows' dates: not closed ("active employees")
		}
		if c.datesEvent(lv) {
			// "reservations booked last month": the verb of the date the
			// period is on, booked_at, not the status 'booked'.
			return
		}
		if c.howOftenVerb(lv) {
			// "candidates who applied more than once": the verb of the
			// counted rows, not the stage 'applied'.
			return
		}
		if c.madeNone(lv) {
			// "guests who never booked a lesson": the verb of making
			// the rows they have none of, not the status 'booked'.
			return
		}
		if !c.has(lv) && c.isName(lv+"s") {
			// "average rating of interviews": the plural as written is a
			// table's name, not the stage 'interview' (found from outside
			// on a learned database).
			return
		}
		if c.inName(lv) || c.isName(lv) || c.ordinaryUse(v) || c.namesTable(v) || c.readsTableNamed(lv) || c.groupsTableNamed(v) || c.timeWord(v, where()) || functionWord(lv) && !c.writes(v) {
			return
		}
		seen[lv] = true
		if have[lv] {
			ok = append(ok, "'"+v+"'")
			return
		}
		for hv := range have {
			if strings.Contains(" "+hv+" ", " "+lv+" ") || strings.Contains(" "+hv+" ", " "+lv+"s ") || strings.Contains(" "+hv+" ", " "+lv+"es ") {
				// part of a longer value filtered on ("JetBlue" in
				// "JetBlue Airways"), or its plural ("rock" of the venue
				// "Red Rocks"; found from outside)
				return
			}
		}
		if c.countedInOwnGroups(v, where()) || c.personsCounted(v) || c.newOfOthers(lv, where()) {
			return
		}
		// A value that names a grouping's column or a listed column is
		// what the question groups or lists by, not a filter.
		bad = append(bad, fmt.Sprintf("'%s' (a value of %s) is not filtered on", v, where()))
	}
	// Never a restricted column's: its values are no more the checks' to
	// read than the answer's (found by an attacker: "count of warehouses"
	// was refused naming 'of', a value of warehouses.secret_code).
	restricted := c.m.RestrictedCheck()
	for i := range c.m.Entities {
		e := &c.m.Entities[i]
		for _, col := range e.Columns {
			if restricted(e, col.Name) || yesNoValues(col.Values) {
				// A yes/no column's 'no' is the question's "no", read by
				// the column's name when it is meant ("accounts with no
				// invoices" is no condition on is_refund).
				continue
			}
			for _, v := range col.Values {
				check(v, func() string { return e.Name + "." + col.Name })
			}
		}
	}
	for _, d := range c.m.Dimensions {
		if c.readsRestricted(d.Expr) {
			continue
		}
		for _, v := range d.Values {
			check(v, func() string { return d.Expr })
		}
	}
	return ok, bad
}

// newOfOthers reports whether "new" is read as the rows made in the
// query's period rather than the value 'new' of another table's column
// (where): "new patients last month", 'new' a visit type of appointments.
func (c *cover) newOfOthers(lv, where string) bool {
	if lv != "new" || c.q.TimeRange == nil && len(c.q.Compare) == 0 {
		return false
	}
	ent, _, _ := strings.Cut(where, ".")
	var measured []string
	if c.q.Rows != nil {
		measured = append(measured, c.q.Rows.Entity)
	}
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil {
			measured = append(measured, mt.Entity)
		}
	}
	return len(measured) > 0 && !slices.ContainsFunc(measured, func(m string) bool { return strings.EqualFold(m, ent) })
}

// yesNoValues reports whether a column's known values are only how a
// yes/no column writes yes and no.
func yesNoValues(vals []string) bool {
	for _, v := range vals {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "yes", "no", "y", "n", "true", "false", "t", "f":
		default:
			return false
		}
	}
	return len(vals) > 0
}

// readsRestricted reports whether a dimension's expression names a
// restricted column (entity.column, as knowledge writes it).
func (c *cover) readsRestricted(expr string) bool {
	restricted := c.m.RestrictedCheck()
	for i := range c.m.Entities {
		e := &c.m.Entities[i]
		for _, col := range e.Columns {
			if restricted(e, col.Name) && strings.Contains(strings.ToLower(expr), strings.ToLower(e.Name+"."+col.Name)) {
				return true
			}
		}
	}
	return false
}

// countedInOwnGroups reports whether value v of column where (entity.column)
// is an ordinary word for the rows the query counts by that same column:
// "which department has the most people" counts employees by department,
// and the People department by department is no question. The word must
// be written in lower case where the value is capitalized, the query
// group by the column and count the rows of its table.
func (c *cover) countedInOwnGroups(v, where string) bool {
	if strings.ToLower(v) == v || strings.Contains(c.raw, v) {
		return false
	}
	ent, _, _ := strings.Cut(where, ".")
	grouped := false
	for _, d := range c.q.Dimensions {
		expr := d.Name
		if dm := c.m.Dimension(d.Name); dm != nil {
			expr = dm.Expr
		}
		grouped = grouped || d.Grain == "" && strings.EqualFold(strings.TrimSpace(expr), where)
	}
	if !grouped {
		return false
	}
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil && countsRows(mt.Expr) && len(mt.Filters) == 0 && strings.EqualFold(mt.Entity, ent) {
			return true
		}
	}
	return false
}

// madeNone reports whether the question says the verb of making word
// after a negation ("never booked a lesson", "have not reserved a room")
// and the query keeps rows that have none of another table's.
func (c *cover) madeNone(word string) bool {
	if !semantic.MakingWord(word) || !slices.ContainsFunc(c.q.Filters, func(f semantic.Filter) bool { return f.Op == semantic.OpNone }) {
		return false
	}
	for _, neg := range []string{" never ", " not ", "n't ", " no "} {
		if strings.Contains(c.text, neg+word+" ") {
			return true
		}
	}
	return false
}

// howOftenVerb reports whether the question says how often right after
// word ("applied more than once", "ordered twice", "bought 3 times") and
// the query counts related rows per row.
func (c *cover) howOftenVerb(word string) bool {
	counted := false
	for _, f := range c.q.Filters {
		counted = counted || f.Count
	}
	if !counted {
		return false
	}
	re, err := regexp.Compile(` ` + regexp.QuoteMeta(word) + ` ((more|fewer|less) than |at (least|most) |exactly |only |just )?(once|twice|thrice|[0-9]+ times|[0-9]+ or (more|less|fewer) times) `)
	if err == nil && re.MatchString(c.text) {
		return true
	}
	// "guests who booked more than 5 lessons": the verb of making the
	// rows counted, right before their number.
	made, err := regexp.Compile(` ` + regexp.QuoteMeta(word) + ` ((more|fewer|less) than|at (least|most)|over|under|exactly) [0-9]+ `)
	return err == nil && semantic.MakingWord(word) && made.MatchString(c.text)
}

// personsCounted reports whether v is a value named like persons
// ("People", a department) that the question writes as the common word
// ("how many people work in Engineering") while the query counts or
// lists rows: the persons themselves, not the value.
func (c *cover) personsCounted(v string) bool {
	switch lv := strings.ToLower(v); {
	case lv != "people" && lv != "persons" && lv != "person", strings.Contains(c.raw, v):
		return false
	}
	if c.q.Rows != nil {
		return true
	}
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil && countsRows(mt.Expr) {
			return true
		}
	}
	return false
}

// idioms are phrases in which a word that may be a category value is an
// ordinary word: "revenue at home", "delivered on time", "paid in person".
var idioms = []string{"at home", "at work", "at risk", "at cost", "on time", "in person", "on hold", "in stock",
	"on sale", "by hand", "for free", "in general", "in time", "on average", "in total", "in all", "at all"}

// joinWords join terms in lower case ("revenue plus orders") and are
// values only as written ("the Plus plan").
var joinWords = map[string]bool{"plus": true, "and": true, "or": true, "with": true, "minus": true, "versus": true}

// nothingToJoin are the words after which a joining word joins nothing
// ("how many plus subscribers", "on plus"): there it is the value.
var nothingToJoin = map[string]bool{"": true, "many": true, "much": true, "what": true, "which": true, "the": true, "our": true,
	"of": true, "for": true, "all": true, "are": true, "is": true, "on": true, "in": true, "with": true}

// placeWords name columns whose values are places one is "at" ("at the
// Berlin store").
var placeWords = []string{"store", "shop", "branch", "city", "country", "location", "site", "office", "warehouse", "region", "venue", "stadium", "airport", "station", "campus", "school", "hospital"}

// ordinaryUse reports whether every time the question names value v it
// uses the word as an ordinary word: written in lower case where the value
// is capitalized, in an idiom ("at home") or after "at" where v is not a
// place. "revenue at home this month" is not revenue of the Home category.
func (c *cover) ordinaryUse(v string) bool {
	if strings.ToLower(v) == v || strings.ContainsAny(v, " _-") {
		return false
	}
	lv := strings.ToLower(v)
	re, err := regexp.Compile(`(?i)(\pL+\s+)?(?:the\s+|our\s+)?\b` + regexp.QuoteMeta(v) + `\b`)
	if err != nil {
		return false
	}
	found := false
	for _, m := range re.FindAllStringSubmatchIndex(c.raw, -1) {
		word := c.raw[m[1]-len(v) : m[1]]
		if word != lv {
			return false // written as the value is ("Home"): evidence
		}
		prev := ""
		if m[2] >= 0 {
			prev = strings.ToLower(strings.TrimSpace(c.raw[m[2]:m[3]]))
		}
		if !slices.Contains(idioms, prev+" "+lv) && prev != "at" && !(joinWords[lv] && !nothingToJoin[prev]) {
			return false
		}
		found = true
	}
	return found
}

// namesTable reports whether the question writes the capitalized value v
// only in lower case, as the singular of one of the model's plural names:
// "admissions by ward" groups by the wards, whatever doctor is called Ward
// (found from outside on a learned hospital database).
func (c *cover) namesTable(v string) bool {
	lv := strings.ToLower(v)
	if lv == v || strings.ContainsAny(v, " _-") || !(c.isName(lv+"s") || c.isName(lv+"es")) {
		return false
	}
	re, err := regexp.Compile(`(?i)\b` + regexp.QuoteMeta(v) + `\b`)
	if err != nil {
		return false
	}
	found := false
	for _, w := range re.FindAllString(c.raw, -1) {
		if w != lv {
			return false // written as the value is ("Ward"): the value
		}
		found = true
	}
	return found
}

// ordinaryValues: a filter value the question names only as an ordinary
// word ("at home") is no filter the question asks for.
func (c *cover) ordinaryValues() (ok, bad []string) {
	for _, f := range c.q.Filters {
		if f.Op != semantic.OpEq && f.Op != semantic.OpIn {
			continue
		}
		field := strings.ToLower(f.Field)
		if d := c.m.Dimension(f.Field); d != nil {
			field = strings.ToLower(d.Expr)
		}
		place := false
		for _, w := range placeWords {
			place = place || strings.Contains(field, w)
		}
		for _, v := range f.Values {
			s, isStr := v.(string)
			if !isStr || place || !c.ordinaryUse(s) {
				continue
			}
			bad = append(bad, fmt.Sprintf("%q reads as an ordinary word in the question, not the value '%s' of %s; say \"the %s %s\" if that is meant", strings.ToLower(s), s, f.Field, s, lastWord(f.Field)))
		}
	}
	return ok, bad
}

// lastWord is the last word of a field's name: "category" of
// "products.category".
func lastWord(field string) string {
	if _, col, ok := strings.Cut(field, "."); ok {
		field = col
	}
	w := splitName(field)
	if len(w) == 0 {
		return field
	}
	return w[len(w)-1]
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

// functionWord reports whether w is a word of grammar that a value may
// also spell ('IN' for India, grade 'A', 'OR' for Oregon): in a question
// it is the word, unless written as the value is.
func functionWord(w string) bool {
	switch w {
	case "in", "on", "at", "to", "of", "or", "and", "is", "it", "us", "me", "we", "by", "as", "be", "do", "no", "so",
		"up", "if", "my", "an", "for", "the", "all", "any", "per", "our", "not", "are", "was", "has", "had", "who", "how":
		return true
	}
	return false
}

// writes reports whether the question holds v as written, a word of its
// own.
func (c *cover) writes(v string) bool {
	re, err := regexp.Compile(`\b` + regexp.QuoteMeta(v) + `\b`)
	return err == nil && re.MatchString(c.raw)
}
