package planner

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/quarrydata/quarry/internal/planner/dates"
	"github.com/quarrydata/quarry/internal/semantic"
)

// token is a lower-cased word of the question with its byte span.
type token struct {
	s          string
	start, end int
}

// tokenize splits s into lower-case words of ASCII letters and digits;
// '-', '/' and '.' between digits stay inside a word, '%' is a word of its
// own and a possessive "'s" is dropped. Other characters separate words,
// except that non-ASCII letters are kept as words so that they can be
// reported as unknown.
// thousands reports whether the comma at s[j] separates thousands in the
// number that starts at s[i]: digits only so far, and exactly three digits
// after it ("1,000", "12,500,000"; not "2024,2025").
func thousands(s string, i, j int) bool {
	for k := i; k < j; k++ {
		if !isDigit(s[k]) && s[k] != ',' {
			return false
		}
	}
	if j-i > 3 && !strings.Contains(s[i:j], ",") {
		return false // "2024,2025": a list
	}
	if j+4 > len(s) || !isDigit(s[j+1]) || !isDigit(s[j+2]) || !isDigit(s[j+3]) {
		return false
	}
	return j+4 == len(s) || !isDigit(s[j+4])
}

// listComma reports whether a comma, followed by rest, separates items
// of a list that ends with "and": the words up to the next comma are at
// most three and hold "and" ("refunds and refund rate"), or are one or
// two words before another comma ("tickets, open tickets, and …").
func listComma(rest string) bool {
	seg, more := rest, false
	if k := strings.IndexByte(rest, ','); k >= 0 {
		seg, more = rest[:k], true
	}
	ws := strings.Fields(strings.ToLower(seg))
	if len(ws) == 0 {
		return false
	}
	for i, w := range ws {
		if w == "and" && i > 0 && i <= 3 {
			return true
		}
	}
	return more && len(ws) <= 2 && strings.Contains(" "+strings.ToLower(rest)+" ", " and ")
}

func tokenize(s string) []token {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		if c == '%' {
			// Read as the word, so that "margin %" is the metric named
			// "margin percent".
			toks = append(toks, token{"percent", i, i + 1})
			i++
			continue
		}
		if sign := currencySign(s[i:]); sign > 0 {
			// "over £50": the sign is the number's, not a letter of it
			// (found from outside: "£50" not understood).
			i += sign
			continue
		}
		if !isWordByte(c) {
			if c == ',' && i+1 < len(s) && s[i+1] == ' ' && listComma(s[i+1:]) {
				// "orders, refunds and refund rate": a comma in a list
				// that ends with "and" joins as "and" does.
				toks = append(toks, token{"and", i, i + 1})
			}
			i++
			continue
		}
		j := i
		for j < len(s) {
			c := s[j]
			if isWordByte(c) {
				j++
				continue
			}
			if (c == '-' || c == '/' || c == '.') && j+1 < len(s) && isDigit(s[j+1]) && isDigit(s[j-1]) {
				j++
				continue
			}
			if c == ',' && thousands(s, i, j) {
				j++ // "1,000": a separator inside a number
				continue
			}
			break
		}
		// "B+", "A-", "AB+", "C++": a sign after a short word, before a
		// space or the end, is part of it (found from outside: "B+"
		// read as the grade B).
		if j-i <= 3 && isLetter(s[i]) && j < len(s) && (s[j] == '+' || s[j] == '-') {
			k := j
			for k < len(s) && s[k] == s[j] && k-j < 2 {
				k++
			}
			if k == len(s) || !isWordByte(s[k]) && s[k] != '-' && s[k] != '+' {
				j = k
			}
		}
		word := foldAccents(strings.ToLower(s[i:j]))
		if strings.Contains(word, ",") {
			word = strings.ReplaceAll(word, ",", "")
		}
		toks = append(toks, token{s: word, start: i, end: j})
		if j+1 < len(s) && s[j] == '\'' && (s[j+1] == 's' || s[j+1] == 'S') && (j+2 == len(s) || !isWordByte(s[j+2])) {
			j += 2
		}
		i = j
	}
	return toks
}

// foldAccents drops the accents of a word ("são" → "sao", "zürich" →
// "zurich"), so that a question and the knowledge match whichever of
// them writes the accents. ASCII words are returned as they are.
func foldAccents(w string) string {
	ascii := true
	for i := 0; i < len(w) && ascii; i++ {
		ascii = w[i] < 0x80
	}
	if ascii {
		return w
	}
	out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), w)
	if err != nil {
		return w
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// titleCase reports whether a question of three words or more writes
// every word of letters with a capital ("Show A List Of Students"), so
// that a capital says nothing of a value.
func titleCase(q string, toks []token) bool {
	n, caps := 0, 0
	for _, t := range toks {
		if t.end > t.start && isLetter(q[t.start]) {
			n++
			if q[t.start] >= 'A' && q[t.start] <= 'Z' {
				caps++
			}
		}
	}
	return n >= 3 && caps == n
}

// currencySign is the length of the currency sign s starts with (€, £,
// ¥, which UTF-8 writes in bytes a word is made of), or 0.
func currencySign(s string) int {
	for _, sign := range []string{"€", "£", "¥"} {
		if strings.HasPrefix(s, sign) {
			return len(sign)
		}
	}
	return 0
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isWordByte(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

type itemKind int

const (
	itTerm itemKind = iota
	itKw
	itNum
	itDate
	itStop
	itUnknown
)

// item is one recognised piece of the question.
type item struct {
	kind itemKind
	via  string // the knowledge's phrase, when the words are another form of it
	verb bool   // a form of the verb in a measure's name ("sell" for units sold)
	// linkVerb is the stem of a verb that may name a link between two
	// tables ("produced", "went through"); link is the link it was read
	// as (links.go).
	linkVerb string
	link     *link
	linkObj  bool // the first term after a verb read as a link
	// clauseEnd: the verb of a link ends its clause ("the courses they
	// teach.").
	clauseEnd bool
	// countVerb: a verb of a table's date that says how often ("ordered
	// more than once"), the count's, never the date of a period.
	countVerb bool
	text      string // the words as written (lower case)
	senses    []sense
	kw        string
	num       float64
	pct       bool // a number written as a percent ("5%", "5 percent")
	money     bool // a number written as money ("$70", "70 dollars")
	cents     bool // a number written in cents ("7000 cents")
	rng       dates.Range
}

// entityAfter reports whether the last item is a term naming a table:
// "flight numbers of …" is then no count.
func entityAfter(items []item) bool {
	if len(items) == 0 || items[len(items)-1].kind != itTerm {
		return false
	}
	for _, t := range items[len(items)-1].senses {
		if t.kind == sEntity {
			return true
		}
	}
	return false
}

// moneyAt reports whether the number of toks[i] is written as money: a
// currency sign right before it ("$70", "€ 50").
func moneyAt(q string, toks []token, i int) bool { return semantic.MoneyBefore(q[:toks[i].start]) }

// keywords maps structural phrases to what they mean.
func keywords() map[string]string {
	k := map[string]string{}
	set := func(kw string, phrases ...string) {
		for _, p := range phrases {
			k[p] = kw
		}
	}
	set("count", "how many", "number of", "count of", "count", "the number of", "total number of", "tally of", "numbers of", "the numbers of")
	set("sum", "total", "sum of", "sum", "overall", "combined", "in total", "altogether", "all together")
	set("avg", "average", "avg", "mean", "typical")
	set("min", "minimum", "min", "lowest", "smallest", "least", "fewest", "lowest number of", "least number of", "quietest")
	set("max", "maximum", "max", "highest", "largest", "biggest", "most", "greatest", "highest number of", "largest number of", "top-selling", "best-selling", "best selling", "top selling", "busiest")
	set("distinct", "distinct", "unique", "different", "separate")
	set("top", "top", "best")
	set("bottom", "bottom", "worst")
	set("by", "by", "per", "for each", "for every", "broken down by", "break down by", "breakdown by", "split by", "grouped by", "group by",
		"across", "each", "every", "in each", "within each", "by each", "broken out by", "segmented by", "for the different",
		"for different", "for all the different", "for all different", "of each", "of every")
	set("grain:day", "daily", "day by day", "per day")
	set("grain:week", "weekly", "week by week", "week over week", "per week")
	set("grain:month", "monthly", "month by month", "month over month", "per month")
	set("grain:quarter", "quarterly", "quarter by quarter", "quarter over quarter", "per quarter")
	set("grain:year", "yearly", "annual", "annually", "year by year", "year over year", "per year")
	set("unit:day", "day", "days")
	set("unit:week", "week", "weeks")
	set("unit:month", "month", "months")
	set("unit:quarter", "quarter", "quarters")
	set("unit:year", "year", "years")
	// The day of the week: a grouping after "by", "per", "each" or
	// "which"; "weekdays" (a filter: "on weekdays") is not one.
	set("unit:day_of_week", "day of week", "day of the week", "days of the week", "days of week", "weekday", "week day", "day-of-week")
	// Growth is read only as the change between two compared periods
	// (finish.go), which a comparison's answer states.
	set("growth", "growth", "growth rate", "grow", "grew", "grown", "growing")
	set("trend", "trend", "trends", "over time", "evolution", "history", "time series", "trajectory", "trend of", "trending", "development")
	set("compare", "vs", "versus", "compare", "compared to", "compared with", "against", "comparison", "comparison of", "compare to", "compare with", "vs.", "relative to")
	set("share", "share", "share of", "percentage", "percentage of", "percent", "percent of", "%", "proportion", "proportion of", "fraction", "fraction of", "what part of", "breakdown", "mix", "mix of", "split of", "percentage split of")
	set("gt", "more than", "greater than", "over", "above", "exceeding", "higher than", "larger than", "bigger than", "at least", "or more", "no less than")
	set("eq", "exactly", "precisely")
	set("lt", "less than", "fewer than", "under", "below", "lower than", "smaller than", "cheaper than", "at most", "or less", "no more than")
	set("not", "not", "excluding", "except", "other than", "apart from", "aside from", "besides", "non", "outside", "outside of", "but not", "exclude")
	set("none", "never", "no", "without", "without any", "with no", "has no", "have no", "had no", "not any", "never any",
		"did not", "do not", "does not", "didn't", "don't", "doesn't", "have not", "has not", "haven't", "hasn't", "never been",
		"have never", "has never", "had never", "did not have", "do not have", "does not have", "don't have", "doesn't have", "didn't have")
	set("and", "and", "or", "as well as", "plus", "along with", "together with")
	set("rows", "list", "show", "display", "which", "what", "who", "give", "find", "get", "show me", "list of", "all", "details of", "details",
		"write", "write down", "write out") // "Write the names of …" (a write to the data is refused before: writeRequest)
	set("allinfo", "all the information", "all information", "all the info", "all info", "all the details", "all details", "all the data", "all data", "all the information about", "all information about", "all the details of", "all details of")
	set("label", "name", "names", "name of", "names of")
	set("with", "with", "that have", "who have", "having", "that has", "which have", "which has", "with the", "where", "whose", "who", "that")
	set("expensive", "expensive", "most expensive", "priciest", "pricey", "costliest", "most costly")
	set("cheap", "cheapest", "least expensive", "cheap", "inexpensive", "least costly")
	set("filler", "signed up", "sign up", "signing up", "set up", "either",
		// A manager's preamble: "quick one:", "can you pull …", "split
		// revenue by country", "top customers, all time" (no period).
		"quick one", "quick question", "pull", "pull up", "split", "all time", "of all time", "all-time", "ever",
		// "Q2 revenue so far": the period holding today ends with it.
		"so far")
	// "break down orders by channel": the grouping the "by" names; with
	// none, refused (finish.go).
	set("breakverb", "break down", "break out", "split out")
	// "how are we doing on revenue": the measure named, read as asked;
	// without one, refused (finish.go).
	set("howdoing", "doing", "looking", "tracking", "performing")
	set("both", "both")
	set("when", "when", "what date", "which date", "what day", "which day")
	set("sortby", "ordered by", "sorted by", "sort by", "sorted on", "in order of", "ordered according to", "sorted according to", "arranged by", "ranked by", "order them by", "sort them by", "order the results by", "sort the results by")
	set("sortby:desc", "in descending order of", "in descending order by", "sorted descending by", "ordered descending by", "in decreasing order of", "descending order of")
	set("sortby:asc", "in ascending order of", "in ascending order by", "sorted ascending by", "ordered ascending by", "in increasing order of", "ascending order of", "in alphabetical order of", "in alphabetical order by", "alphabetical order of")
	set("dir:desc", "descending", "in descending order", "desc", "decreasing", "in decreasing order", "from high to low", "from highest to lowest", "high to low", "highest to lowest", "from largest to smallest", "largest to smallest", "descending order",
		"highest first", "largest first", "biggest first", "most first")
	set("dir:asc", "ascending", "in ascending order", "asc", "increasing", "in increasing order", "from low to high", "from lowest to highest", "low to high", "lowest to highest", "from smallest to largest", "smallest to largest", "alphabetically", "in alphabetical order", "alphabetical order", "ascending order", "in ascending alphabetical order", "ascending alphabetical order",
		"lowest first", "smallest first", "fewest first", "least first")
	set("sortverb", "sort", "order", "rank")
	set("young", "youngest")
	set("agegt", "older than", "over the age of", "aged over", "aged more than")
	set("agelt", "younger than", "under the age of", "aged under", "aged less than", "newer than", "more recent than")
	set("old", "oldest")
	// A measure's superlatives: "the heaviest shipment" by its weight.
	set("heavy", "heaviest", "most heavy")
	set("light", "lightest")
	set("tall", "tallest")
	set("long", "longest")
	set("short", "shortest")
	set("new", "newest", "latest", "most recent", "most recently", "recent", "last")
	set("early", "earliest", "first")
	set("mode", "most common", "most frequent", "most used", "the most used", "used most", "used the most", "used most often", "most often used", "the most common", "the most frequent", "commonest", "most frequently occurring", "most often occurring")
	return k
}

// stopwords carry no meaning for the planner.
func stopwords() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at for to from is are was were be been being do does did done
		have has had there what's whats it its this that these those me my our we us i you your please can could would should
		will shall let know want need like tell see return so much many as their them they any some currently current active overdue
		right now exist exists existing recorded registered made placed happened occur occurred come came comes coming
		belong belongs work works worked working use used using generated brought earned got get
		make here figures numbers data info information overview summary report
		just only also then about ever via into how what and or count counts total number there's hi hey thanks
		thank quick quickly roughly approximately around actual actually signed joined created happen live lives living alive
		located based situated give given did ones still yet during through take took taken receive received
		contain contains containing include includes his her hers its corresponding correspond corresponds
		named called listed among within collect collects collected collecting
		bring brings bringing generate generates generating earn earns earning drive drives driving
		makes making gets getting anything something anyone someone anybody somebody drove driven – — but
		manufactured built
		lead leads led leading organise organises organised organising organize organizes organized organizing
		host hosts hosted hosting oversee oversees oversaw overseen`) {
		m[w] = true
	}
	// Above, verbs of doing that say nothing of which rows ("which
	// coordinator organised the most events": found from outside,
	// refused as unknown words); not "ran", which may say a span
	// ("campaigns that ran in 2025" are not those that began then). Each
	// in its irregular past, as its base is: gave as give.
	for form, base := range irregulars().past {
		if m[base] {
			m[form] = true
		}
	}
	return m
}

// ofWeek reports whether toks start with "of week" or "of the week".
func ofWeek(toks []token) bool {
	return len(toks) >= 2 && toks[0].s == "of" && toks[1].s == "week" ||
		len(toks) >= 3 && toks[0].s == "of" && toks[1].s == "the" && toks[2].s == "week"
}

// maxKwLen is the most words in a keyword phrase.
const maxKwLen = 4

// scan reads the question into items: date phrases first, then the longest
// known term or keyword at each position, numbers, stopwords and unknown
// words. rngs are the question's date phrases (dates.FindAll, less those
// inside a name: notDates); scan ends a period that holds the as-of day
// with it.
func (p *Planner) scan(q string, toks []token, rngs []dates.Range, asOf time.Time) []item {
	// As of a day, nothing after it has happened yet: a period that holds
	// the day ends with it ("this year" as of 2026-03-15 is 2026-01-01 to
	// 2026-03-15, not the rest of the year's rows, which a replay as of an
	// earlier day would otherwise count).
	day, next := asOf.Format("2006-01-02"), asOf.AddDate(0, 0, 1).Format("2006-01-02")
	for i := range rngs {
		if r := &rngs[i]; r.From != "" && r.To != "" && r.From <= day && day < r.To && next < r.To {
			r.Cut, r.To = r.To, next
		}
	}
	var items []item
	for i := 0; i < len(toks); {
		// A date phrase starting here?
		if r, n, ok := dateAt(rngs, toks, i); ok {
			items = append(items, item{kind: itDate, rng: r, text: q[r.Start:r.End]})
			i += n
			continue
		}
		limit := len(toks) - i
		for k := 0; k < limit; k++ { // never run a phrase into a date
			if inDate(rngs, toks[i+k]) {
				limit = k
				break
			}
		}
		bestL, bestK := 0, 0
		var lexSenses []sense
		var kw string
		for n := min(limit, p.lex.maxLen); n >= 1; n-- {
			if splitsAtLeast(toks, i+n) {
				continue // "ordered at least twice": not the column ordered_at
			}
			if s, ok := p.lex.get(join(toks[i : i+n])); ok {
				if ownOnly(s) && (p.kws[join(toks[i:i+n])] != "" || n == 1 && p.stop[toks[i].s]) {
					// "names", "number": the rest of a column's name
					// after its table's never hides a structural word.
					continue
				}
				bestL, lexSenses = n, s
				break
			}
		}
		if bestL == 1 && (p.stop[toks[i].s] || p.function[toks[i].s]) && len(only(lexSenses, sValue)) == len(lexSenses) && titleCase(q, toks) {
			bestL = 0 // "Show A List Of Students": every word is capitalised
		}
		if bestL == 1 && (p.stop[toks[i].s] || p.function[toks[i].s]) && len(only(lexSenses, sValue)) == len(lexSenses) {
			// "flights in 2025", "students in a grade": a function word
			// is a value ('IN', grade 'A') only as the value is written
			// (found from outside: "in" filtered on nationality IN).
			raw := q[toks[i].start:toks[i].end]
			var kept []sense
			for _, v := range lexSenses {
				if v.value == raw {
					kept = append(kept, v)
				}
			}
			if lexSenses = kept; len(kept) == 0 {
				bestL = 0
			}
		}
		if bestL == 0 && i > 0 && q[toks[i].start:toks[i].end] == "A" && !titleCase(q, toks) {
			// "how many students got an A": a capital A inside the
			// question is a value, a grade or a class, that no column is
			// known to hold; never the article dropped (found from
			// outside: every student counted, at full confidence).
			items = append(items, item{kind: itUnknown, text: "A"})
			i++
			continue
		}
		for n := min(limit, maxKwLen); n >= 1; n-- {
			if k, ok := p.kws[join(toks[i:i+n])]; ok {
				bestK, kw = n, k
				break
			}
		}
		// "which day of the week", "per day of the week": the day is the
		// day of the week's, not the keyword's ("which day" asks when,
		// "per day" is daily).
		if bestK > 1 && toks[i+bestK-1].s == "day" && ofWeek(toks[i+bestK:]) {
			bestK--
			kw = p.kws[join(toks[i:i+bestK])]
		}
		// Another form of a known name ("superheroes", "sold", "high
		// schoolers"), where it says more than what is known as written
		// and more than a structural word.
		via := ""
		for n := min(limit, p.lex.maxLen, 3); n > max(bestL, bestK); n-- {
			if n > 1 && p.allKnown(toks[i:i+n]) || splitsAtLeast(toks, i+n) {
				continue // "orders status": two known words, read each as known
			}
			if n == 2 && bestL >= 1 && atWord(toks[i+1].s) {
				// "bookings at French hotels": a known name and the word
				// after it, not a date named with it (booked_at; found
				// from outside: the hotels listed for the bookings).
				continue
			}
			if h, ok := p.form(toks[i : i+n]); ok {
				bestL, lexSenses, via = n, h.senses, h.phrase
				break
			}
		}
		// A column named like a keyword ("share", "rank") is the column
		// when an aggregate word comes right before it: "the maximum share".
		if bestK > 0 && bestL > 0 && bestK <= bestL+1 && afterAggregate(items) && len(only(p.lex.senses(join(toks[i:i+bestL])), sColumn)) > 0 && !strongKw(kw) {
			bestK = 0
		}
		// A keyword written as a value is ("Plus members": the Plus plan,
		// not "and"): capitalized in the question, a known value.
		capitalValue := bestL > 0 && bestL >= bestK && toks[i].start < len(q) && q[toks[i].start] >= 'A' && q[toks[i].start] <= 'Z' && i > 0 &&
			len(only(lexSenses, sValue)) == len(lexSenses)
		// "how many plus subscribers": a joining word with nothing to
		// join before it is the value it also spells (found from
		// outside: "plus" was read as "and" and dropped).
		capitalValue = capitalValue || kw == "and" && bestL > 0 && bestL >= bestK && len(lexSenses) > 0 && len(only(lexSenses, sValue)) == len(lexSenses) && !termBefore(items)
		if bestL == 0 && bestK == 0 && !p.isVerb(toks[i]) {
			if n, ok := p.linkVerbAt(toks, i); ok {
				text := join(toks[i : i+n])
				end := len(q)
				if i+n < len(toks) {
					end = toks[i+n].start
				}
				// Only a period after a verb put last by do-support ("how
				// many bookings did each host handle last quarter") leaves
				// it the clause's end (found from outside: refused as an
				// unknown word); "cars were produced in 1980" is passive.
				rest := i + n
				if !slices.ContainsFunc(toks[:i], func(t token) bool { return t.s == "did" || t.s == "do" || t.s == "does" }) {
					rest = 0
				}
				for rest > 0 && rest < len(toks) {
					if inDate(rngs, toks[rest]) {
						rest++
						continue
					}
					j := rest // "in the last quarter": words of no content before it
					for j < len(toks) && p.function[toks[j].s] {
						j++
					}
					if j == rest || j == len(toks) || !inDate(rngs, toks[j]) {
						break
					}
					rest = j
				}
				items = append(items, item{kind: itUnknown, text: text, linkVerb: stemKey(text),
					clauseEnd: strings.TrimSpace(q[toks[i+n-1].end:end]) == "" && i+n == len(toks) || rest == len(toks) && rest > i+n || strings.ContainsAny(q[toks[i+n-1].end:end], ".?!;")})
				i += n
				continue
			}
		}
		// "average satisfaction score": an aggregate word and the longer
		// term after it ("satisfaction score"), not a measure named with
		// the word ("average satisfaction") and a word left over.
		if bestK > 0 && bestL > bestK && aggregateKw(kw) && p.termEndsAfter(toks[:i+limit], i+bestK, i+bestL) {
			bestL = 0
		}
		// "the flight numbers of flights": the rest of a column's name
		// (FlightNo) right after its table's word, not "numbers of" a
		// count (found on Spider: the flight numbers answered with a
		// count of flights). Left to be read as a name, or not at all.
		if kw == "count" && bestL == 0 && (toks[i].s == "number" || toks[i].s == "numbers") && entityAfter(items) && i > 0 && toks[i-1].end+1 >= toks[i].start {
			bestK = 0
		}
		// "orders with a total over 500": the column named total,
		// compared, not a sum of what follows (found from outside: no
		// comparison of a column named "total" could be asked).
		if bestL > 0 && bestL == bestK && aggregateKw(kw) && i+bestL < len(toks) && comparisonWord(toks[i+bestL].s) && slices.ContainsFunc(lexSenses, func(s sense) bool { return s.kind == sColumn && s.numeric }) {
			bestK = 0
		}
		switch {
		case bestL > 0 && (bestL > bestK || bestL == bestK && (!strongKw(kw) && !(i > 0 && grainWordBefore(toks[i-1].s) && grainOverAlias(kw, lexSenses)) || capitalValue)):
			items = append(items, item{kind: itTerm, text: join(toks[i : i+bestL]), senses: lexSenses, via: via})
			i += bestL
		case bestK > 0 && kw == "max" && strings.HasSuffix(join(toks[i:i+bestK]), "selling"):
			// "best selling products": the most of the measure the verb
			// names, as "products selling the most" reads it; with no one
			// such measure, nothing to rank by.
			// "best selling products" ranks them all (as "top"), "the best
			// selling product" names one (as "most").
			text, k := join(toks[i:i+bestK]), "top"
			if i+bestK < len(toks) && singular(toks[i+bestK].s) == toks[i+bestK].s {
				k = "max"
			}
			items = append(items, item{kind: itKw, kw: k, text: strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(text, "selling"), "-"))})
			by := false // "best selling products by revenue": ranked by what "by" names
			for _, t := range toks[i+bestK:] {
				by = by || t.s == "by"
			}
			if h, ok := p.verb(token{s: "selling"}); ok && !by {
				items = append(items, item{kind: itTerm, text: "selling", senses: h.senses, via: h.phrase, verb: true})
			}
			i += bestK
		case bestK > 0:
			items = append(items, item{kind: itKw, kw: kw, text: join(toks[i : i+bestK])})
			i += bestK
		case bestL == 0 && bestK == 0 && p.isVerb(toks[i]) && !howMuch(toks):
			// Not after "how much": "how much did we sell" asks for money
			// or for units, and quarry does not guess which.
			h, _ := p.verb(toks[i])
			items = append(items, item{kind: itTerm, text: toks[i].s, senses: h.senses, via: h.phrase, verb: true})
			i++
		case isNumber(toks[i].s) && i+1 < len(toks) && toks[i+1].s == "percent" && (i+2 == len(toks) || toks[i+2].s != "of"):
			// "above 5%": a number in hundredths (not "5% of orders").
			items = append(items, item{kind: itNum, num: parseNum(toks[i].s), text: join(toks[i : i+2]), pct: true})
			i += 2
		case isNumber(toks[i].s) && i+1 < len(toks) && (toks[i+1].s == "cents" || toks[i+1].s == "cent"):
			// "over 7000 cents": the unit a column of cents holds.
			items = append(items, item{kind: itNum, num: parseNum(toks[i].s), text: join(toks[i : i+2]), cents: true})
			i += 2
		case isNumber(toks[i].s) && i+1 < len(toks) && semantic.CurrencyWord(toks[i+1].s):
			// "over 70 dollars": the currency's name is the number's.
			items = append(items, item{kind: itNum, num: parseNum(toks[i].s), text: join(toks[i : i+2]), money: true})
			i += 2
		case isNumber(toks[i].s):
			items = append(items, item{kind: itNum, num: parseNum(toks[i].s), text: toks[i].s, money: moneyAt(q, toks, i)})
			i++
		case numberWord(toks[i].s) > 0:
			items = append(items, item{kind: itNum, num: float64(numberWord(toks[i].s)), text: toks[i].s})
			i++
		case (toks[i].s == "report" || toks[i].s == "reports" || toks[i].s == "reporting" || toks[i].s == "reported") && i+1 < len(toks) && toks[i+1].s == "to":
			// "employees who report to Walter Perez": a link to a
			// manager, never a word read past (found from outside: the
			// employees named Walter Perez counted, at 1.00).
			items = append(items, item{kind: itUnknown, text: toks[i].s + " to"})
			i += 2
		case p.stop[toks[i].s] || upcomingWord(toks, i) && periodAhead(rngs, asOf):
			// "how many recitals are coming up next quarter": of a
			// period that runs after today, "upcoming" says no more than
			// the period does (found from outside: "up" not understood).
			items = append(items, item{kind: itStop, text: toks[i].s})
			i++
		default:
			if ss := p.unDone(toks[i].s); len(ss) > 0 {
				// "unpaid fines", "unreturned loans": not paid, the
				// date of it not set, as "not paid" reads (found from
				// outside: not understood).
				items = append(items, item{kind: itKw, kw: "not", text: "un"}, item{kind: itTerm, text: toks[i].s[2:], senses: ss})
				i++
				continue
			}
			items = append(items, item{kind: itUnknown, text: toks[i].s})
			i++
		}
	}
	return p.bindNamed(p.absorbVerbs(p.readTimes(byWhom(valueRate(p.dateRate(p.predicates(p.valueNouns(mergeAliases(p.newRows(items))))))))))
}

// unDone is the meaning of a word "un" + a past form ("unpaid",
// "unreturned", "unresolved") where the past form names only date
// columns, yes/no columns or values (a status 'paid'): the rows where
// that did not happen, as "not paid" reads. nil otherwise, and where the
// word itself is known (the scan reads known words first).
func (p *Planner) unDone(w string) []sense {
	if !strings.HasPrefix(w, "un") || !pastForm(w[2:]) {
		return nil
	}
	ss, ok := p.lex.get(w[2:])
	if !ok || len(ss) == 0 {
		return nil
	}
	for _, s := range ss {
		if s.kind != sValue && (s.kind != sColumn || !s.temporal && s.flag == nil) {
			return nil
		}
	}
	return ss
}

func howMuch(toks []token) bool {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].s == "how" && toks[i+1].s == "much" {
			return true
		}
	}
	return false
}

// allKnown reports whether every word is a known term or a structural
// word as written.
func (p *Planner) allKnown(toks []token) bool {
	for _, t := range toks {
		if s, ok := p.lex.get(t.s); (!ok || ownOnly(s)) && p.kws[t.s] == "" {
			return false
		}
	}
	return true
}

func (p *Planner) isVerb(t token) bool {
	_, ok := p.verb(t)
	return ok
}

// mergeAliases joins two adjacent words that are each a part of the same
// column's name ("net worth" for Net_Worth_Millions) into one term.
func mergeAliases(items []item) []item {
	out := items[:0]
	for i := 0; i < len(items); i++ {
		it := items[i]
		if it.kind == itTerm {
			j := i + 1
			if j+1 < len(items) && items[j].kind == itStop && (items[j].text == "of" || items[j].text == "the") {
				j++ // "years of work"
			}
			if j < len(items) && items[j].kind == itTerm {
				if common := commonAliases(it.senses, items[j].senses); len(common) > 0 {
					for k := i + 1; k <= j; k++ {
						it.text += " " + items[k].text
					}
					it.senses = common
					i = j
				}
			}
		}
		out = append(out, it)
	}
	return out
}

func commonAliases(a, b []sense) []sense {
	var out []sense
	for _, x := range a {
		if x.kind != sColumn || x.strength != strAlias {
			return nil
		}
	}
	for _, y := range b {
		if y.kind != sColumn || y.strength != strAlias {
			return nil
		}
	}
	for _, x := range a {
		for _, y := range b {
			if x.field == y.field {
				out = append(out, x)
			}
		}
	}
	return out
}

// afterAggregate reports whether the last meaningful item is an aggregate
// word.
func afterAggregate(items []item) bool {
	for k := len(items) - 1; k >= 0; k-- {
		switch items[k].kind {
		case itStop:
			continue
		case itKw:
			switch items[k].kw {
			case "max", "min", "avg", "sum":
				return true
			}
		}
		return false
	}
	return false
}

// strongKw are keywords that win over a known term of the same length.
func strongKw(kw string) bool {
	switch kw {
	case "count", "by", "and", "not", "with", "rows", "compare", "gt", "lt", "eq", "top", "bottom", "avg", "sum", "max", "min", "agegt", "agelt",
		"sortby", "sortby:desc", "sortby:asc", "dir:desc", "dir:asc":
		return true
	}
	return false
}

// grainOverAlias reports whether a time unit ("month") is read as the
// unit rather than as a word of a column's name that stands for it alone
// (period_month): "maintenance requests by month" groups by month, where
// a text column rent_payments.period_month had taken the word for every
// table (found from outside). A column named month is still the column.
func grainOverAlias(kw string, senses []sense) bool {
	if !strings.HasPrefix(kw, "unit:") && !strings.HasPrefix(kw, "grain:") || len(senses) == 0 {
		return false
	}
	for _, s := range senses {
		if s.strength != strAlias {
			return false
		}
	}
	return true
}

// grainWordBefore reports whether w, right before a time unit, makes it
// a grouping or a ranking of periods: "by month", "per week", "each
// year", "which month". Elsewhere ("in descending order of years") the
// unit may be a word of a column's name.
func grainWordBefore(w string) bool {
	switch w {
	case "by", "per", "each", "every", "which", "what":
		return true
	}
	return false
}

// termBefore reports whether a term or a number was read before: what a
// joining word ("and", "plus") could join.
func termBefore(items []item) bool {
	for _, it := range items {
		if it.kind == itTerm || it.kind == itNum || it.kind == itDate {
			return true
		}
	}
	return false
}

// splitsAtLeast reports whether a phrase ending before toks[end] would
// take the "at" of "at least" or "at most".
func splitsAtLeast(toks []token, end int) bool {
	return end > 0 && end < len(toks) && toks[end-1].s == "at" && (toks[end].s == "least" || toks[end].s == "most")
}

func dateAt(rngs []dates.Range, toks []token, i int) (dates.Range, int, bool) {
	for _, r := range rngs {
		if toks[i].start == r.Start {
			n := 0
			for i+n < len(toks) && toks[i+n].start < r.End {
				n++
			}
			return r, n, true
		}
	}
	return dates.Range{}, 0, false
}

func inDate(rngs []dates.Range, t token) bool {
	for _, r := range rngs {
		if t.start >= r.Start && t.start < r.End {
			return true
		}
	}
	return false
}

func join(toks []token) string {
	if len(toks) == 1 {
		return toks[0].s
	}
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.s)
	}
	return b.String()
}

func parseNum(s string) float64 {
	var n, frac, scale float64 = 0, 0, 1
	dot := false
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			dot = true
			continue
		}
		d := float64(s[i] - '0')
		if dot {
			scale /= 10
			frac += d * scale
		} else {
			n = n*10 + d
		}
	}
	return n + frac
}

func numberWord(s string) int {
	switch s {
	case "one":
		return 1
	case "two":
		return 2
	case "three":
		return 3
	case "four":
		return 4
	case "five":
		return 5
	case "six":
		return 6
	case "seven":
		return 7
	case "eight":
		return 8
	case "nine":
		return 9
	case "ten":
		return 10
	case "eleven":
		return 11
	case "twelve":
		return 12
	case "fifteen":
		return 15
	case "twenty":
		return 20
	case "thirty":
		return 30
	case "forty":
		return 40
	case "fifty":
		return 50
	case "sixty":
		return 60
	case "ninety":
		return 90
	case "hundred":
		return 100
	}
	return 0
}

// writeVerbs are verbs that ask to change data.
func writeVerbs() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`delete insert update drop truncate alter remove add change set cancel modify rename
		create erase wipe purge replace upsert merge grant revoke edit refund reset increase decrease raise lower
		mark assign fix correct overwrite write save store put move archive restore deactivate activate disable enable
		unsubscribe subscribe discontinue close reopen approve reject promote fire hire pay charge credit debit deduct`) {
		m[w] = true
	}
	return m
}

// writesSomewhere reports whether the words say where to write: "to a
// table", "into the database", "to a file".
func writesSomewhere(toks []token) bool {
	for i, t := range toks {
		if (t.s == "to" || t.s == "into" || t.s == "in") && i+1 < len(toks) {
			for _, u := range toks[i+1 : min(len(toks), i+3)] {
				switch u.s {
				case "table", "tables", "file", "database", "db", "disk", "column", "row", "sheet":
					return true
				}
			}
		}
	}
	return false
}

// phrasalNoun reports whether verb and the token after it are a noun made
// of a verb and its particle: joined by a hyphen in the question
// ("charge-off", "write-off", "sign-up"), or the particle in the plural
// ("charge offs", "sign ups").
func phrasalNoun(question string, verb, next token) bool {
	switch next.s {
	case "offs", "ups", "ins", "outs", "overs", "backs", "downs":
		return true
	case "off", "up", "in", "out", "over", "back", "down":
		return verb.end < next.start && next.start <= len(question) && strings.TrimSpace(question[verb.end:next.start]) == "-"
	}
	return false
}

// sqlWriteWords change data wherever they appear.
func sqlWriteWord(w string) bool {
	switch w {
	case "delete", "insert", "truncate", "upsert", "overwrite", "purge":
		return true
	}
	return false
}

// writeRequest reports the verb when the question asks to change data:
// a data-changing verb in command position (first, or after "please",
// "can you", "i want to", "let's", "go ahead and"…), or an SQL write
// keyword anywhere.
func (p *Planner) writeRequest(question string, toks []token) string {
	lead := map[string]bool{"please": true, "can": true, "could": true, "would": true, "will": true, "you": true,
		"i": true, "want": true, "to": true, "need": true, "let": true, "lets": true, "us": true, "go": true,
		"ahead": true, "and": true, "kindly": true, "quarry": true, "we": true, "should": true, "must": true, "just": true, "now": true, "also": true, "then": true, "d": true, "like": true}
	for i, t := range toks {
		if sqlWriteWord(t.s) {
			return t.s
		}
		if (t.s == "drop" || t.s == "alter" || t.s == "create") && i+1 < len(toks) {
			switch toks[i+1].s {
			case "table", "tables", "column", "columns", "database", "schema", "index", "view", "row", "rows", "user", "role":
				return t.s
			}
		}
		if p.writes[t.s] && i+1 < len(toks) && (t.s == "change" || t.s == "increase" || t.s == "decrease") {
			// "change in revenue", "increase of orders" are questions about data.
			switch toks[i+1].s {
			case "in", "of", "between", "from", "over", "since", "vs", "versus":
				continue
			}
		}
		if p.writes[t.s] && i+1 < len(toks) && phrasalNoun(question, t, toks[i+1]) {
			// "charge-offs in Q1", "write-off totals": the noun made of
			// the verb and its particle (found from outside: refused as
			// a request to write).
			continue
		}
		if p.writes[t.s] && i+1 < len(toks) {
			if _, ok := p.lex.get(t.s + " " + toks[i+1].s); ok {
				continue // "refund rate", a known term
			}
			// "store revenue last quarter": the word is a known value (the
			// store channel) and a known term follows; "store the
			// results" stays a write.
			_, known := p.lex.get(t.s)
			_, next := p.lex.get(toks[i+1].s)
			if known && next {
				continue
			}
			// "store share of revenue", "refund % by channel": a noun
			// before a word of analysis, not an order to change data.
			switch k := p.kws[toks[i+1].s]; {
			case k == "share", k == "by", k == "compare":
				continue
			}
			switch toks[i+1].s {
			case "rate", "rates", "ratio", "trend", "trends", "count", "counts", "total", "totals", "per", "vs", "versus",
				"amount", "amounts", "value", "values", "sum", "sums", "number", "numbers", "figure", "figures":
				// "refund amount last quarter": a noun before what is
				// asked of it.
				continue
			case "as":
				// "store as a share of revenue"
				if i+3 < len(toks) && (toks[i+2].s == "a" || toks[i+2].s == "an") && p.kws[toks[i+3].s] == "share" {
					continue
				}
			}
		}
		if t.s == "write" && i+1 < len(toks) && !writesSomewhere(toks[i+1:]) {
			// "Write the names of …": a request to show, unless it names
			// where to write ("write the results into a table").
			switch toks[i+1].s {
			case "the", "down", "out", "me", "all":
				continue
			}
		}
		if p.writes[t.s] {
			allLead := true
			for _, u := range toks[:i] {
				allLead = allLead && lead[u.s]
			}
			if allLead {
				return t.s
			}
		}
		if t.s == "set" || t.s == "mark" {
			// "set X to Y" / "mark … as …" anywhere.
			for _, u := range toks[i+1:] {
				if u.s == "to" && t.s == "set" || u.s == "as" && t.s == "mark" {
					return t.s
				}
			}
		}
	}
	return ""
}

// atWord reports whether w is a word of place or time that date columns
// end their names with (booked_at, shipped_on) and a question puts after
// a name ("bookings at", "orders on").
func atWord(w string) bool {
	switch w {
	case "at", "on", "in", "by", "for", "to", "from":
		return true
	}
	return false
}

// upcomingWord reports whether toks[i] says "upcoming": the word, or
// "up" of "coming up".
func upcomingWord(toks []token, i int) bool {
	return toks[i].s == "upcoming" || toks[i].s == "up" && i > 0 && toks[i-1].s == "coming"
}

// periodAhead reports whether one of the question's periods runs after
// the as-of day: one that begins after it, or one the planner ended with
// it ("this month").
func periodAhead(rngs []dates.Range, asOf time.Time) bool {
	today := asOf.Format(time.DateOnly)
	for _, r := range rngs {
		if r.Cut != "" || r.From > today {
			return true
		}
	}
	return false
}
