package planner

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// auxRE is do-support: the auxiliary that puts the verb at the end of a
// question ("how many tickets did Germany customers open").
var auxRE = lazyRE(`\b(did|do|does|didn't|don't|doesn't)\b`)

// auxVerb reads the verb of a question with do-support: "how many tickets
// did Germany customers open" asks how many they opened, not how many of
// theirs are open now (found from outside: it counted the open tickets).
// The verb is the last term of the question, straight after the subject
// the auxiliary introduces; "what did revenue do" has none. The question
// is planned again with the auxiliary dropped and the verb in its past
// form ("… Germany customers opened"); if that is not answered, a verb
// that would otherwise be read as a state or a measure is refused, and
// any other word is left to the rest of the planner.
func (p *Planner) auxVerb(question string, items []item, asOf time.Time) *Plan {
	low := strings.ToLower(question)
	aux := auxRE().FindStringIndex(low)
	if aux == nil {
		return nil
	}
	var after []int // the terms after the auxiliary, in order
	pos := aux[1]
	for i, it := range items {
		// A word read past ("return", "receive") may be the verb too.
		stop := it.kind == itStop && !p.function[it.text] && !auxRE().MatchString(it.text) && !lightVerb(it.text) &&
			!(earnVerb(it.text) && p.namesMoney(items))
		if it.kind != itTerm && it.kind != itUnknown && !stop {
			continue
		}
		at := wordAt(low, it.text, pos)
		if at < 0 {
			continue
		}
		pos = at + len(it.text)
		after = append(after, i)
	}
	if len(after) < 2 {
		return nil
	}
	last := after[len(after)-1]
	it := items[last]
	// The verb comes straight after its subject ("did Germany customers
	// open"); a word after another verb is that verb's object ("do not
	// speak English").
	if prev := items[last-1]; prev.kind != itTerm || prev.verb || after[len(after)-2] != last-1 {
		return nil
	}
	if strings.Contains(it.text, " ") || it.verb {
		return nil
	}
	// refuse: the word would be read as a state or a measure ("tickets …
	// open" as the metric "open tickets", "open" as a status), which the
	// verb is not; otherwise the word is only read as a verb if that
	// reading is answered.
	refuse := true
	if it.kind == itStop {
		// read past, the verb would be dropped: "how many orders did
		// German customers return" counted every order (found from
		// outside).
		refuse = true
	} else if it.kind == itUnknown {
		refuse = p.namesMetricWith(it.text, items)
	} else {
		for _, s := range it.senses {
			// A person's name ("which city does Maria Garcia live in",
			// "did Alex Kim have") is no verb (found from outside: both
			// refused, "garcia" read as one).
			if s.kind == sValue && p.namesRows([]sense{s}) {
				return nil
			}
			refuse = refuse && (s.kind == sValue || s.kind == sMetric)
		}
	}
	reason := fmt.Sprintf("“%s” at the end of the question is a verb (what was done), not the state or measure quarry knows by that name; ask with the measure's own words, such as “tickets opened”", it.text)
	// "how many tickets did German customers open" is "how many tickets
	// German customers opened": read it so, and answer if that reading
	// is answered.
	if past := pastOf(it.text); past != "" && it.kind != itStop {
		at := wordAt(low, it.text, aux[1])
		// A verb whose past form is a state that names a date of the
		// rows ("how many appointments did Maria Garcia book": booked,
		// booked_at) is the event, as "… were booked by Maria Garcia"
		// reads it: every one she booked, not those still 'booked'
		// (found from outside: 3 of her 7).
		if subj := strings.TrimSpace(question[aux[1]:at]); subj != "" {
			passive := question[:aux[0]] + "were " + past + " by " + subj + question[at+len(it.text):]
			if pl := p.replan(passive, asOf); (pl.Kind == KindMetric || pl.Kind == KindRows) && slices.ContainsFunc(pl.Understood, func(u string) bool { return strings.Contains(u, "read as the event") }) {
				pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as %q", question[aux[0]:aux[1]]+" … "+it.text, "were "+past+" by"))
				if pl.Read == "" {
					// The checks hold the plan to the words it answers
					// ("paid", the verb of paid_at), not "did … pay".
					pl.Read = passive
				}
				return pl
			}
		}
		re := question[:aux[0]] + question[aux[1]:at] + past + question[at+len(it.text):]
		if pl := p.replan(re, asOf); pl.Kind == KindMetric || pl.Kind == KindRows {
			pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as %q", question[aux[0]:aux[1]]+" … "+it.text, past))
			return pl
		}
	}
	if !refuse {
		return nil
	}
	return &Plan{Kind: KindUnanswered, Reason: reason}
}

// pastOf is the past form of a bare verb, or "" when quarry does not know
// how to write it.
func pastOf(w string) string {
	switch w {
	case "pay":
		return "paid"
	case "buy":
		return "bought"
	case "sell":
		return "sold"
	case "make":
		return "made"
	case "send":
		return "sent"
	case "spend":
		return "spent"
	case "win":
		return "won"
	case "run":
		return "ran"
	case "lose":
		return "lost"
	case "build":
		return "built"
	case "cancel":
		return "cancelled"
	}
	if len(w) < 3 || !isAlpha(w) {
		return ""
	}
	switch {
	case strings.HasSuffix(w, "e"):
		return w + "d"
	case strings.HasSuffix(w, "y") && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ied"
	case len(w) <= 4 && strings.IndexAny(w, "aeiou") == len(w)-2 &&
		!strings.ContainsRune("aeiouwxy", rune(w[len(w)-1])):
		return w + string(w[len(w)-1]) + "ed" // one syllable: ship → shipped, stop → stopped
	}
	return w + "ed"
}

// wordAt is the index of the whole word w in s at or after from, or -1.
func wordAt(s, w string, from int) int {
	for from <= len(s) {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(w)
		if (i == 0 || !isWordByte(s[i-1]) && s[i-1] != '_') && (end == len(s) || !isWordByte(s[end]) && s[end] != '_') {
			return i
		}
		from = i + 1
	}
	return -1
}

// namesMetricWith reports whether word, put before one of the question's
// terms, names a metric ("open" + "tickets").
func (p *Planner) namesMetricWith(word string, items []item) bool {
	for _, t := range items {
		if t.kind != itTerm {
			continue
		}
		if ss := p.lex.senses(word + " " + t.text); len(ss) > 0 && len(only(ss, sMetric)) == len(ss) {
			return true
		}
	}
	return false
}

// bareMeasure refuses a list plan of a bare measure column (measureList).
func (p *Planner) bareMeasure(pl *Plan, rowsLead bool, toks []token) *Plan {
	if pl.Kind != KindRows || rowsLead || !p.measureList(pl, toks) {
		return nil
	}
	c := display(pl.Query.Rows.Columns[0])
	return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("the question names only %s, a measure, without asking for a list or a figure; ask for its average (“average %s for …”) or for the rows (“list … with their %s”)", c, c, c)}
}

// measureList reports whether a list plan shows only numeric columns that
// are not keys, for a question with no word that asks for a list ("list",
// "show", "which", "each", "all"...): "satisfaction score for urgent
// tickets" wants a figure (an average, most likely), and a list of 547
// scores answers another question (found from outside).
func (p *Planner) measureList(pl *Plan, toks []token) bool {
	r := pl.Query.Rows
	if r == nil || len(r.Columns) == 0 || pl.Query.Limit > 0 || len(pl.Query.Order) > 0 {
		// "the price of the most recent order": one row's figure.
		return false
	}
	for _, t := range toks {
		switch t.s {
		case "how", "list", "lists", "show", "display", "which", "what", "who", "give", "find", "get", "all", "each", "every", "per", "rows", "records", "details", "distinct", "different", "unique", "values", "return":
			return false
		}
	}
	e := p.entity(r.Entity)
	if e == nil {
		return false
	}
	for _, name := range r.Columns {
		c := e.Column(name)
		if c == nil || !c.Type.IsNumeric() || strings.EqualFold(c.Name, e.PrimaryKey) || strings.HasSuffix(strings.ToLower(c.Name), "_id") {
			return false
		}
	}
	return true
}

// abbreviations are the short forms people type for words of analysis,
// read as the word unless the knowledge knows the short form itself.
var abbreviations = sync.OnceValue(func() []abbreviation {
	return []abbreviation{
		{regexp.MustCompile(`(?i)\bavg\b\.?`), "avg", "average"},
		{regexp.MustCompile(`(?i)\bpct\b\.?`), "pct", "percent"},
		{regexp.MustCompile(`(?i)\bqty\b\.?`), "qty", "quantity"},
		{regexp.MustCompile(`(?i)\bamt\b\.?`), "amt", "amount"},
		{regexp.MustCompile(`(?i)\byrs\b\.?`), "yrs", "years"},
		{regexp.MustCompile(`(?i)\byr\b\.?`), "yr", "year"},
		{regexp.MustCompile(`(?i)\bmths\b\.?`), "mths", "months"},
		{regexp.MustCompile(`(?i)\bmth\b\.?`), "mth", "month"},
		{regexp.MustCompile(`(?i)\bqtrs\b\.?`), "qtrs", "quarters"},
		{regexp.MustCompile(`(?i)\bqtr\b\.?`), "qtr", "quarter"},
		{regexp.MustCompile(`(?i)\bwks\b\.?`), "wks", "weeks"},
		{regexp.MustCompile(`(?i)\bwk\b\.?`), "wk", "week"},
		{regexp.MustCompile(`(?i)\byoy\b`), "yoy", "year over year"},
		{regexp.MustCompile(`(?i)\by/y\b`), "y/y", "year over year"},
		{regexp.MustCompile(`(?i)\bm/m\b`), "m/m", "month over month"},
		{regexp.MustCompile(`(?i)\bq/q\b`), "q/q", "quarter over quarter"},
		{regexp.MustCompile(`(?i)\brev\b\.?`), "rev", "revenue"},
		{regexp.MustCompile(`(?i)\bsubs\b`), "subs", "subscriptions"},
		{regexp.MustCompile(`(?i)\bgimme\b`), "gimme", "give me"},
		{regexp.MustCompile(`(?i)\btix\b`), "tix", "tickets"},
		{regexp.MustCompile(`(?i)\bppl\b`), "ppl", "people"},
		{regexp.MustCompile(`(?i)\btxns?\b`), "txn", "transactions"},
		// "payouts by month", "how much did we pay out": payments, and
		// the verb without its particle (found from outside: "out" and
		// "payouts" not understood).
		{regexp.MustCompile(`(?i)\bpayouts\b`), "payouts", "payments"},
		{regexp.MustCompile(`(?i)\bpayout\b`), "payout", "payment"},
		{regexp.MustCompile(`(?i)\b(pay|pays|paid|paying) out\b`), "pay out", "$1"},
		{regexp.MustCompile(`(?i)\bcusts?\b\.?`), "cust", "customers"},
		// "last 30d", "past 7d": days, after last or past only.
		{regexp.MustCompile(`(?i)\b(last|past) (\d+) ?d\b`), "d", "$1 $2 days"},
		{regexp.MustCompile(`(?i)\b(?:um+|uh+|erm)\b,?`), "um", ""},
		// "revenue-wise": the word itself.
		{regexp.MustCompile(`(?i)\b([a-z]+)-wise\b`), "-wise", "$1"},
		{regexp.MustCompile(`(?i)\bmom\b`), "mom", "month over month"},
		{regexp.MustCompile(`(?i)\bqoq\b`), "qoq", "quarter over quarter"},
		{regexp.MustCompile(`(?i)\bjan\b\.?`), "jan", "january"},
		{regexp.MustCompile(`(?i)\bfeb\b\.?`), "feb", "february"},
		{regexp.MustCompile(`(?i)\bmar\b\.?`), "mar", "march"},
		{regexp.MustCompile(`(?i)\bapr\b\.?`), "apr", "april"},
		{regexp.MustCompile(`(?i)\bjun\b\.?`), "jun", "june"},
		{regexp.MustCompile(`(?i)\bjul\b\.?`), "jul", "july"},
		{regexp.MustCompile(`(?i)\baug\b\.?`), "aug", "august"},
		{regexp.MustCompile(`(?i)\bsept?\b\.?`), "sep", "september"},
		{regexp.MustCompile(`(?i)\boct\b\.?`), "oct", "october"},
		{regexp.MustCompile(`(?i)\bnov\b\.?`), "nov", "november"},
		{regexp.MustCompile(`(?i)\bdec\b\.?`), "dec", "december"},
		// "sales q4 '25", "revenue march '24": a year written short after
		// a period's name.
		{regexp.MustCompile(`(?i)\b(q[1-4]|h[12]|fy|january|february|march|april|may|june|july|august|september|october|november|december) ?['’](\d\d)\b`), "'", "$1 20$2"},
		// "orders in Q1 25": after a quarter or a half, two digits are a
		// year (after a month they are a day: "March 25").
		{regexp.MustCompile(`(?i)\b(q[1-4]|h[12]) (\d\d)\b`), "q1 25", "$1 20$2"},
		// "customers by country excl US", "revenue excluding Germany":
		// a value left out.
		{regexp.MustCompile(`(?i)\b(?:excluding\b|excl\b\.?|except(?: for)?\b|other than\b|apart from\b|aside from\b)(?:\s+the\b)?`), "excluding", "not"},
	}
})

type abbreviation struct {
	re   *regexp.Regexp
	abbr string
	word string
}

// periodWith reads "the month with the most orders" as "which month had
// the most orders": a period ranked by a measure, which the planner reads
// in that form.
var periodWith = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(?:(?:what|which) (?:was|is) )?(?:the )?(day|week|month|quarter|year) with the (most|highest|fewest|lowest|least|biggest|largest|smallest)\b`)
})

// thisVsLast finds "this year vs last" (or month, quarter, week; versus,
// and, compared to or with, against): group 1 is the unit, group 3 ends at
// "last", group 4 is a unit after it when one is said.
var thisVsLast = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bthis (year|month|quarter|week)\b.*?\b(vs\.?|versus|and|compared (?:to|with)|against) (last)\b(\s+(?:year|month|quarter|week)s?\b)?`)
})

// contractions writes out "n't" ("customers who haven't ordered" →
// "have not ordered"), with either apostrophe, so that the negation is
// read as the words are.
var contractions = sync.OnceValue(func() *strings.Replacer {
	var pairs []string
	for _, w := range []string{"do", "does", "did", "have", "has", "had", "is", "are", "was", "were", "could", "would", "should", "must", "need"} {
		for _, a := range []string{"'", "’"} {
			for _, c := range []string{w, strings.ToUpper(w[:1]) + w[1:], strings.ToUpper(w)} {
				pairs = append(pairs, c+"n"+a+"t", c+" not", c+"N"+a+"T", c+" NOT")
			}
		}
	}
	for _, a := range []string{"'", "’"} {
		pairs = append(pairs, "can"+a+"t", "cannot", "Can"+a+"t", "Cannot", "won"+a+"t", "will not", "Won"+a+"t", "Will not")
	}
	return strings.NewReplacer(pairs...)
})

// shortAux writes out the other contractions of a word and an auxiliary
// ("who're our top customers", "we've had", "how'd we do"), each only
// right after a word's letters and before a word's end, so that a quoted
// value ('returned') or a name (O'Reilly) is left alone. "'d" is "did"
// after a question word and "would" after a pronoun; after anything else
// it is left as written. "hows", "whos", "whats" and "wheres", typed
// without the apostrophe, are the question word and "is".
var shortAux = sync.OnceValue(func() []struct {
	re *regexp.Regexp
	to string
} {
	return []struct {
		re *regexp.Regexp
		to string
	}{
		{regexp.MustCompile(`(?i)\b([a-z]+)['’]re\b`), "$1 are"},
		{regexp.MustCompile(`(?i)\b([a-z]+)['’]ve\b`), "$1 have"},
		{regexp.MustCompile(`(?i)\b([a-z]+)['’]ll\b`), "$1 will"},
		{regexp.MustCompile(`(?i)\b(i)['’]m\b`), "$1 am"},
		{regexp.MustCompile(`(?i)\b(how|what|where|when|who|why)['’]d\b`), "$1 did"},
		{regexp.MustCompile(`(?i)\b(how|what|where|who)s\b`), "$1 is"}, // "hows revenue", the apostrophe left out
		{regexp.MustCompile(`(?i)\b(i|we|you|they|he|she|it)['’]d\b`), "$1 would"},
	}
})

// expandAbbreviations writes out the short forms of words the knowledge
// does not know as such ("avg order value" → "average order value"), and
// says which it read so.
func (p *Planner) expandAbbreviations(q string) (string, []string) {
	var read []string
	q = contractions().Replace(q)
	for _, c := range shortAux() {
		q = c.re.ReplaceAllString(q, c.to)
	}
	if m := periodWith().FindStringSubmatch(q); m != nil {
		w := strings.ToLower(m[1])
		q = periodWith().ReplaceAllString(q, "which $1 had the $2")
		read = append(read, fmt.Sprintf("%q read as %q", strings.TrimSpace(m[0]), "which "+w+" had the "+strings.ToLower(m[2])))
	}
	if m := thisVsLast().FindStringSubmatchIndex(q); m != nil && m[8] < 0 {
		// "revenue this year vs last": last year, not the latest rows
		// (found from outside: read as "new").
		unit := strings.ToLower(q[m[2]:m[3]])
		q = q[:m[7]] + " " + unit + q[m[7]:]
		read = append(read, fmt.Sprintf("%q read as %q", "last", "last "+unit))
	}
	for _, a := range abbreviations() {
		if len(p.lex.known[a.abbr]) > 0 || !a.re.MatchString(q) {
			continue
		}
		m := strings.TrimSpace(a.re.FindString(q))
		q = a.re.ReplaceAllString(q, a.word)
		switch to := strings.TrimSpace(a.re.ReplaceAllString(m, a.word)); {
		case to == "":
			read = append(read, fmt.Sprintf("%q read past", m))
		case strings.Contains(a.word, "$"):
			read = append(read, fmt.Sprintf("%q read as %q", strings.ToLower(m), strings.ToLower(to)))
		default:
			read = append(read, fmt.Sprintf("%q read as %q", a.abbr, a.word))
		}
	}
	return q, read
}

// lightVerb reports whether w is a verb that says nothing the rows do not
// ("where do our customers come from", "how many orders did we get").
func lightVerb(w string) bool {
	switch w {
	case "come", "get", "have", "make", "use", "exist", "happen", "occur", "belong", "live", "work", "take", "give", "see", "need", "want":
		return true
	}
	return false
}

// earnVerb reports whether w is a verb of bringing in money ("how much
// revenue did the web channel bring in"), which says nothing a measure of
// money does not.
func earnVerb(w string) bool {
	switch w {
	case "bring", "generate", "earn", "drive", "make":
		return true
	}
	return false
}

// namesMoney reports whether a term of the question names only metrics,
// one of them of money (format currency).
func (p *Planner) namesMoney(items []item) bool {
	for _, it := range items {
		if it.kind != itTerm || len(it.senses) == 0 || len(only(it.senses, sMetric)) != len(it.senses) {
			continue
		}
		for _, s := range it.senses {
			if m := p.m.Metric(s.name); m != nil && m.Format == "currency" {
				return true
			}
		}
	}
	return false
}

// pairedPeriods refuses two periods each said with its own value or
// measure ("revenue in Germany in 2025 and France in 2024", "refunded
// orders in 2025 and cancelled orders in 2024"): quarry compares periods
// over the same rows and measures, and would put both values in both
// periods (found from outside).
func (b *builder) pairedPeriods() *Plan {
	st := b.st
	if len(st.datePos) != 2 {
		return nil
	}
	// The one measure of the question, between the periods and with no
	// value anywhere, is the measure of both: "year to date revenue vs
	// last year to date".
	var named []*term
	for _, t := range st.terms {
		if len(only(t.cands, sValue, sMetric)) > 0 {
			named = append(named, t)
		}
	}
	if len(named) == 1 && len(only(named[0].cands, sValue)) == 0 {
		return nil
	}
	for _, t := range st.terms {
		if t.pos <= st.datePos[0] || t.pos >= st.datePos[1] {
			continue
		}
		if len(only(t.cands, sValue, sMetric)) > 0 {
			return b.fail(fmt.Sprintf("quarry compares two periods over the same rows and measures; “%s” between them pairs a value or a measure with one period; ask for each period on its own", t.it.text))
		}
	}
	return nil
}
