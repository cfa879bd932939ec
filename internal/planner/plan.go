package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner/dates"
	"github.com/quarrydata/quarry/internal/semantic"
)

// term is a known term of the question with the meaning chosen for it.
type term struct {
	it  *item
	pos int // index among the meaningful items
	// afterStop: a stopword came right before it ("cats had
	// appointments"), so it does not qualify the term before it.
	afterStop bool
	// ofBefore: "of", "through" or "via" came right before it, among
	// stopwords ("the team of their agents").
	ofBefore bool
	// dir: the direction said right before it ("to JFK", "from LHR",
	// "arriving at JFK"), which picks between a table's two columns of
	// opposite directions that hold the value (direction.go).
	dir int
	// place: "home" or "work", said by the verb right before it ("live
	// in Denver", "works in Denver"), which picks between a table's home
	// and work columns that hold the value (direction.go).
	place   string
	cands   []sense // the meanings still possible
	role    string  // what the term does in the query; "" = not yet used
	neg     bool    // a value after "not"
	conj    bool    // joined to the previous value by "and"/"or"
	conjAnd bool    // … by "and" itself
	byMode  bool    // came after "by"
	mode    bool    // the column whose most common value is asked for (mode.go)
	sortBy  bool    // came after "ordered by", "in descending order of"
	aggs    []string
	rowsQ   bool // came right after "which"/"what"/"list"
	named   bool // came right after "name(s) of": "names of teachers"
	op      string
	num     float64
	pct     bool // num was written as a percent
	money   bool // num was written as money ("$70", "70 dollars")
	cents   bool // num was written in cents ("7000 cents")
	hasNum  bool
	// aggName is the measure made of the column by its aggregate word
	// ("average rating": avg_reviews_rating), where that measure is
	// compared with num ("rooms with an average rating below 4").
	aggName string
	// against is the aggregate the term is compared with instead of num
	// ("weight below the average": "avg").
	against string
	// withA marks a column named after "with a", "have a" or "used a":
	// the rows that have one ("orders with a promo code").
	withA bool
	// adjFlag marks a yes/no column said as the adjective of its table
	// named next ("which discontinued product", "each discontinued
	// product"): the rows that are so, not a grouping by yes and no.
	adjFlag bool
	// ofCounted marks a value said between a count's number and the
	// table it counts ("more than 3 completed bookings"): a condition on
	// the rows counted, not on the subject's having one.
	ofCounted bool
}

// state is what one pass over the question collected.
type state struct {
	// byValue are the values said right after "by" or "per" ("average tip
	// by server", Server a role), no grouping: finish refuses them unless
	// they are of the measured rows' own table ("average hourly rate per
	// manager").
	byValue []byValue
	// bareComparison: a comparison with a number and nothing it compares
	// ("donations over $1,000"), which bareAmount may read.
	bareComparison bool
	// currentOf is the table whose rows currentWord ("current",
	// "active") is said of through a value of its right after the word
	// ("restaurants with a current manager": staff); currentOnRelated
	// keeps its rows not closed on the related row.
	currentOf, currentWord string
	// byLinks are the groupings said by the name of a link to a table,
	// where the words are also a value of it ("by house manager").
	byLinks []byLink
	// linkRole is the role entity a verb read as a link reaches its
	// table through (link.role), which the builder reads that table's
	// values through.
	linkRole string
	// usedWords are stopwords a reading used ("still" of "still
	// enrolled"), which the plan does not list as ignored.
	usedWords []string
	terms     []*term
	dates     []dates.Range
	datePos   []int // where each date phrase is among the meaningful items
	// signedPos is where "signed up" was said, among the meaningful
	// items: the period right after it is the signup's (signedUp).
	signedPos  []int
	grains     []semantic.Grain
	grainAt    []int    // where each grain said by the question is among the items
	grainWord  []string // and its words ("month", "per month", "monthly")
	rowsLead   bool
	whoLead    bool // the question starts with "who"
	share      bool
	compare    bool
	growth     bool // "revenue growth": the change between two periods
	whichDay   bool // "which day" read as one day of a ranking, not "when"
	trend      bool
	count      bool
	bareSum    bool // "total" or "sum" with nothing after it to add up ("total received by method")
	distinct   bool
	limit      int
	order      string // "desc", "asc" from top/bottom/most/least
	colSup     string // expensive, cheap, young, old, new, early
	unknown    []string
	understood []string
	having     []*term
	oneGrain   bool // "which month …": one period is asked for
	ageOp      string
	ageNum     float64
	hasAge     bool   // "older than 30"
	ageUnit    string // "older than 30 days": the rows' own age, in days, weeks, months or years
	rowsNewer  bool   // "newer than 30 days": the rows' age, never a person's
	wantLabel  bool   // "names" where no column is called name: the label
	sup        bool   // a superlative word ("most", "highest", "least") set order
	perGroup   bool   // a group named with each/per/every ("in each category")
	andPos     []int
	allInfo    bool          // "all the information about": every column
	text       string        // the question's words, lower case, single spaces
	when       bool          // "when was the first order placed"
	sortDir    string        // "asc" or "desc" from "ordered by … descending"
	sortDirBy  string        // what a direction said alone may sort by: "measure" ("lowest first", "ascending"), "" ("alphabetically")
	sortTerms  int           // terms sorted by
	eachAfter  bool          // "the codes and the number of templates for each": a group named before
	none       []string      // tables the subject must have no row of ("never ordered")
	some       []string      // tables the subject must have a row of, named after a verb of a link ("went through a treatment")
	someMade   []int         // where each of some named after a verb of making is among the meaningful items ("submitted a ticket")
	linkedNone []string      // of none, those named after a verb of a link ("not playing any cartoon written by X")
	linkCounts []linkCount   // tables named after a verb of a link with how many ("teach at least two courses")
	ageOf      string        // the table named after a verb of a link before "older than": whose age it is
	supLinked  bool          // a superlative of a column said after a verb of a link
	both       bool          // "both cats and dogs": each value on its own, all required
	bothOf     []string      // tables st.some names whose rows of both of two values are required (bothOfSome)
	breakdown  bool          // "break down …": a grouping must be named
	howDoing   bool          // "how are we doing on …": a metric must be named
	related    []relatedRows // "customers with a refunded order": rows of another table that must exist
	nulls      []sense       // "orders with no discount code": columns that must be empty
	raw        string        // the question as asked
	asOf       time.Time     // the day the question is read as of
	mode       int           // "the most common nationality": 1 + the position of "most common"; 0 when none (mode.go)
	modeBack   bool          // "the nationality that is most common": "that" right before it
}

func (p *Planner) plan(question string, asOf time.Time) *Plan {
	norm := normalise(question)
	if norm == "" {
		return &Plan{Kind: KindUnanswered, Reason: "the question is empty; ask about a metric such as " + p.someMetrics()}
	}
	if v, ok := p.verified[norm]; ok {
		return &Plan{Kind: KindVerified, SQL: v.SQL, Title: strings.TrimSpace(v.Question), Understood: []string{"verified query: " + v.Question}}
	}
	// "the US", "German customers": the values they name.
	question = semantic.ExpandAliases(question, p.m.HasValue)
	if coded := p.m.ExpandCountryNames(question); coded != question && !p.uncoded {
		return p.countryReading(question, coded, asOf)
	}
	aliased := question
	question, abbrevs := p.expandAbbreviations(question)
	if q, read := p.readStars(question); read != "" {
		question, abbrevs = q, append(abbrevs, read)
	}
	toks := tokenize(question)
	if verb := p.writeRequest(question, toks); verb != "" {
		return &Plan{Kind: KindRefuse, Reason: fmt.Sprintf("%q asks to change data; quarry only reads the database and never writes to it", verb)}
	}
	rngs := p.valueDates(toks, notDates(question, dates.FindAll(question, asOf)))
	if pl := currentMonthNamed(question, rngs, asOf); pl != nil {
		return pl
	}
	if pl := p.yearOrTable(question, toks, rngs); pl != nil {
		return pl
	}
	items := p.scan(question, toks, rngs, asOf)
	p.dropUnnamedRoles(items)
	if pl := p.auxVerb(question, items, asOf); pl != nil {
		return pl
	}
	for i := range items {
		if pl := p.restricted(items, i); pl != nil {
			return pl
		}
	}
	if pl := p.valueOfAnother(items); pl != nil {
		return pl
	}
	items = p.whoDoes(items)
	if pl := p.readLinks(items); pl != nil {
		return pl
	}
	p.reorder(items)
	items = ranges(p.comparatives(items))
	st := &state{text: join(toks), raw: question, asOf: asOf}
	for _, it := range items {
		if it.link != nil && it.link.role != "" {
			st.linkRole = it.link.role
		}
	}
	p.walk(items, st)
	if len(st.unknown) > 0 {
		if pl := p.soldAsOrdered(question, st.unknown, asOf); pl != nil {
			return pl
		}
		if pl := p.madeAsEntered(question, st.unknown, asOf); pl != nil {
			return pl
		}
		return p.unanswered(st, notKnown(st))
	}
	pl := p.build(st)
	if r := p.bareMeasure(pl, st.rowsLead, toks); r != nil {
		return r
	}
	if pl.Kind == KindMetric || pl.Kind == KindRows {
		pl.Ignored = slices.DeleteFunc(p.ignored(items), func(w string) bool { return slices.Contains(st.usedWords, w) })
		if pl.Query != nil && len(pl.Query.Via) > 0 {
			// "through agents": said of the way, which Via holds.
			pl.Ignored = slices.DeleteFunc(pl.Ignored, func(w string) bool { return w == "through" || w == "via" })
		}
		p.tookPlace(question, pl, items)
		if r := p.stillReadPast(pl); r != nil {
			return r
		}
		if r := p.usedReadPast(question, pl); r != nil {
			return r
		}
		if r := p.otherStatus(pl, items); r != nil {
			return r
		}
		pl.Understood = append(pl.Understood, abbrevs...)
		if question != aliased && pl.Read == "" {
			pl.Read = question // "by qtr": the checks read "by quarter"
		}
	}
	for _, it := range items {
		if it.via != "" && it.via != it.text {
			pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as %q", it.text, it.via))
		}
		if it.link != nil {
			pl.Understood = append(pl.Understood, linkText(it))
		}
	}
	return pl
}

// lastLinked is the table last named after a verb of a link so far, or "".
func lastLinked(st *state) string {
	switch {
	case len(st.linkedNone) > 0:
		return st.linkedNone[len(st.linkedNone)-1]
	case len(st.some) > 0:
		return st.some[len(st.some)-1]
	case len(st.linkCounts) > 0:
		return st.linkCounts[len(st.linkCounts)-1].entity
	}
	return ""
}

// negated reports whether a negation comes among the items: a table
// named after a verb of a link then is not one the rows must have
// ("teachers who have not been arranged to teach courses").
func negated(items []*item) bool {
	for _, it := range items {
		if it.kind == itKw && (it.kw == "none" || it.kw == "not") {
			return true
		}
	}
	return false
}

// walk reads the items left to right, collecting terms with their local
// context (after "by", after an aggregate word, after "not"…).
func (p *Planner) walk(items []item, st *state) {
	var mean []*item
	// qualifies marks the items after "for", "from" or "among": "revenue
	// by channel for business customers" groups by channel for those
	// customers, not by customer.
	qualifies := map[*item]bool{}
	// agent marks a "by" after a verb of making: "orders placed by
	// customers in Berlin" says whose, not how to group.
	agent := map[*item]bool{}
	// afterStop marks the items with a stopword right before them ("cats
	// had appointments": "had" before appointments).
	afterStop := map[*item]bool{}
	// haveBefore marks the items right after "have", "has" or "had" ("how
	// many units have 2 bedrooms").
	haveBefore := map[*item]bool{}
	// afterVerb marks a "by" right after a past form ("paid by
	// insurance", "placed by …"): how or by whom, not a grouping.
	afterVerb := map[*item]bool{}
	// ofBefore marks the items with "of", "through" or "via" among the
	// stopwords right before them ("team of their agents").
	ofBefore := map[*item]bool{}
	dirBefore, placeBefore := map[*item]int{}, map[*item]string{}
	// madeBefore marks the items after a verb of making read as a link
	// ("customers who submitted a ticket"): its object's rows were made.
	madeBefore := map[*item]bool{}
	prevStop, made, of, madeLink := "", false, false, false
	withA, be := afterWithA(items), afterBe(items)
	for i := range items {
		for _, w := range strings.Fields(items[i].text) {
			if creationVerbs[w] && w != "have" && w != "had" && w != "get" && w != "got" {
				made = true // "placed", "opened" … said before
			}
		}
		if items[i].link != nil {
			madeLink = madeForm(items[i].text) || items[i].text == "placed"
		}
		if items[i].kind != itStop {
			mean = append(mean, &items[i])
			madeBefore[&items[i]], madeLink = madeLink, false
			qualifies[&items[i]] = prevStop == "for" || prevStop == "from" || prevStop == "among"
			haveBefore[&items[i]] = prevStop == "have" || prevStop == "has" || prevStop == "had"
			afterVerb[&items[i]] = i > 0 && pastForm(lastWord(items[i-1].text))
			afterStop[&items[i]] = prevStop != "" || i > 0 && items[i-1].kind == itKw && (items[i-1].text == "with" || items[i-1].text == "that" || items[i-1].text == "who")
			if items[i].kind == itKw && items[i].text == "by" && made && i+1 < len(items) {
				// The rows that follow, qualified by a value ("customers in
				// Berlin", "business customers"), say whose; "orders placed
				// by customer" still groups.
				var next []*item
				for j := i + 1; j < len(items) && len(next) < 4; j++ {
					if items[j].kind != itStop {
						next = append(next, &items[j])
					}
				}
				entity, value := false, false
				for k, n := range next {
					if n.kind == itTerm && len(only(n.senses, sEntity)) > 0 && (k <= 1) {
						entity = true
					}
					if n.kind == itTerm && len(only(n.senses, sValue)) == len(n.senses) && len(n.senses) > 0 {
						value = true
					}
				}
				agent[&items[i]] = entity && value
			}
			ofBefore[&items[i]] = of
			dirBefore[&items[i]] = saidDirection(items, i)
			placeBefore[&items[i]] = saidPlace(items, i)
			prevStop, of = "", false
		} else {
			prevStop = items[i].text
			of = of || prevStop == "of" || prevStop == "through" || prevStop == "via"
		}
	}
	var pendingAggs []string
	pendingNot, byMode, pendingTop := false, false, false
	pendingNone := "" // the words of a negation of having, until what follows it
	pendingSort, sortVerb, rankDesc := false, false, false
	pendingOp := ""
	var pendingNum *item
	var last *term
	var against *term // a term just compared with an aggregate of itself
	prevKw := ""
	overAll := false // the "all" of "across all", read with it
	for i, it := range mean {
		kw := ""
		if it.kind == itKw {
			kw = it.kw
			if overAll {
				// "across all years", "across all time": no grouping.
				overAll = i+1 < len(mean) && mean[i+1].kind == itKw && strings.HasPrefix(mean[i+1].kw, "unit:") && it.kw != "unit:"
				if strings.HasPrefix(kw, "unit:") {
					overAll = false
				}
				continue
			}
			if kw == "filler" {
				if strings.HasPrefix(it.text, "sign") {
					st.signedPos = append(st.signedPos, i)
				}
				continue
			}
			if kw == "breakverb" {
				st.breakdown = true
				continue
			}
			if kw == "howdoing" {
				// Only in "how … doing": "what are we doing about
				// refunds" asks for no figure.
				if h := strings.Index(" "+st.text+" ", " how"); h < 0 || h > strings.Index(" "+st.text+" ", " "+it.text+" ") {
					st.unknown = append(st.unknown, it.text)
				}
				st.howDoing = true
				continue
			}
		}
		if pendingNone != "" && it.kind != itKw {
			// "never ordered", "no orders", "without any tickets"
			aux := pendingNone
			pendingNone = ""
			if ent, ok := p.noneEntity(it); ok {
				if it.linkObj {
					st.linkedNone = append(st.linkedNone, ent)
					continue
				}
				st.none = append(st.none, ent)
				continue
			}
			if rr, ok := p.relatedMeasure(it, st, true); ok {
				// "customers with no cancelled orders"
				rr.neg = true
				st.related = append(st.related, rr)
				continue
			}
			if rr, ok := p.measureRows(it, st); ok {
				// "products with no sales": no order line of a
				// completed order.
				rr.neg = true
				st.related = append(st.related, rr)
				continue
			}
			if f, ok := emptyColumn(it); ok && (strings.HasPrefix(aux, "no") || strings.HasPrefix(aux, "without") || strings.HasSuffix(aux, "no")) {
				// "orders with no discount code", "employees without a
				// manager": the column is empty.
				st.nulls = append(st.nulls, f)
				continue
			}
			if creationVerbs[it.text] || p.makingBefore(mean, i) {
				if e := p.madeOn(it.senses); e != "" && (i+1 == len(mean) || objectless(mean[i+1])) {
					// "customers who haven't bought anything": the
					// table the verb's date is of.
					st.none = append(st.none, e)
					continue
				}
				pendingNone = aux // "never placed an order": the order follows
				continue
			}
			noneOfValue := false
			if (strings.HasPrefix(aux, "no") || strings.HasPrefix(aux, "without") || strings.HasSuffix(aux, "no")) && len(only(it.senses, sValue)) > 0 && i+1 < len(mean) {
				// "guests with no active loyalty membership": no row of
				// the table named next with that value, as "guests who
				// don't have an active membership" reads it (found from
				// outside: not understood).
				_, noneOfValue = p.noneEntity(mean[i+1])
			}
			// "vouchers never redeemed": a date of the row's own that was
			// never set, as "not redeemed" reads it (found from outside:
			// refused as unknown words).
			neverDated := aux == "never" && len(it.senses) > 0 && !slices.ContainsFunc(it.senses, func(s sense) bool {
				return s.kind != sColumn || !s.temporal || !entityBefore(mean[:i], s.entity)
			})
			if !noneOfValue && !neverDated && !strings.Contains(aux, "not") && !strings.Contains(aux, "n't") {
				st.unknown = append(st.unknown, aux+" "+it.text)
				continue
			}
			// "who do not live in Germany": a value's negation.
			pendingNot = true
		}
		if it.linkObj && !negated(mean[:i]) {
			// "dogs that went through a treatment": the subject's rows
			// that have a row of the table the verb links them to.
			// "teachers who teach at least two courses": how many.
			if ent, ok := p.noneEntity(it); ok && (pendingNum == nil) == (pendingOp == "") {
				if pendingNum != nil {
					st.linkCounts = append(st.linkCounts, linkCount{entity: ent, op: pendingOp, num: pendingNum.num})
					pendingNum, pendingOp = nil, ""
				} else {
					st.some = append(st.some, ent)
					if madeBefore[it] {
						st.someMade = append(st.someMade, i)
					}
				}
				continue
			}
		}
		switch it.kind {
		case itUnknown:
			if (it.text == "member" || it.text == "members") && i > 0 && mean[i-1].kind == itTerm && len(only(mean[i-1].senses, sEntity)) > 0 {
				// "which staff member", "team members": the rows of the
				// table just named (found from outside: "member" not
				// understood).
				continue
			}
			st.unknown = append(st.unknown, it.text)
		case itDate:
			st.dates = append(st.dates, it.rng)
			st.datePos = append(st.datePos, i)
			// "by category last month for discontinued products": the
			// period ends the groups; what follows it qualifies.
			byMode = false
			if pendingNot {
				st.unknown = append(st.unknown, "not "+it.text)
				pendingNot = false
			}
		case itNum:
			if pendingNot {
				st.unknown = append(st.unknown, "not "+it.text)
				pendingNot = false
			}
			if it.pct && pendingOp == "" {
				// A percent compares a rate: "a refund rate above 5%".
				st.unknown = append(st.unknown, it.text+" compared with nothing")
			}
			switch {
			case st.ageOp != "" && !st.hasAge:
				st.ageNum, st.hasAge = it.num, true
			case pendingOp != "" && last != nil && last.role == "" && !last.hasNum && numericColumn(last.cands) && (prevKw != "" || i > 0 && mean[i-1] == last.it && i > 1 && mean[i-2].kind == itKw && (mean[i-2].kw == "gt" || mean[i-2].kw == "lt")) && !(i+1 < len(mean) && mean[i+1].kind == itTerm && takesNumber(mean[i+1].senses)):
				// "price above 400", "above age 20"; also before a value
				// ("price over 100 in Electronics"): a value is never what
				// a number counts (found from outside: the number went to
				// the value and vanished, and the price became a grouping)
				last.op, last.num, last.hasNum, last.pct, last.money, last.cents = pendingOp, it.num, true, it.pct, it.money, it.cents
				pendingOp = ""
				if aggregated(last) {
					// "rooms with an average rating below 4": the measure
					// the aggregate makes of the column, per room (found
					// from outside: refused).
					st.having = append(st.having, last)
				}
			case pendingOp != "" && last != nil && last.role == "" && !last.hasNum && i > 1 && mean[i-2] == last.it && len(only(last.cands, sMetric)) == len(last.cands) && prevKw != "":
				// "customers with revenue over 10000": a condition on the
				// measure just named
				last.op, last.num, last.hasNum, last.pct, last.money, last.cents = pendingOp, it.num, true, it.pct, it.money, it.cents
				st.having = append(st.having, last)
				pendingOp = ""
			case pendingOp == "" && ofBefore[it] && last != nil && last.role == "" && !last.hasNum && i > 0 && mean[i-1] == last.it && numericColumn(last.cands) && !it.pct &&
				!termSoon(mean, i+1):
				// "tickets with a satisfaction rating of 1", "order lines
				// with a quantity of 3": the column's value (found from
				// outside: the number not understood).
				last.op, last.num, last.hasNum, last.money, last.cents = "=", it.num, true, it.money, it.cents
			case pendingOp != "":
				pendingNum = it // "more than 2 singers": the term follows
			case (prevKw == "with" || haveBefore[it] && prevKw == "") && i+1 < len(mean) && mean[i+1].kind == itTerm && numericColumn(mean[i+1].senses):
				// "sessions with 1 page", "how many units have 2
				// bedrooms": the column's value, not a limit
				pendingOp, pendingNum = "=", it
			case prevKw == "" && i+2 < len(mean) && mean[i+1].kind == itTerm && numericColumn(mean[i+1].senses) &&
				mean[i+2].kind == itTerm && len(only(mean[i+2].senses, sEntity)) == len(mean[i+2].senses) && len(mean[i+2].senses) > 0:
				// "3 bedroom units": the value of the column that follows,
				// said before the rows it picks
				pendingOp, pendingNum = "=", it
			case i+1 < len(mean) && mean[i+1].kind == itKw && (mean[i+1].text == "or more" || mean[i+1].text == "or less"):
				pendingNum = it
			case (prevKw == "top" || prevKw == "bottom" || termSoon(mean, i+1)) && it.num >= 1 && it.num <= 1000 && it.num == float64(int(it.num)):
				st.limit = int(it.num)
			default:
				st.unknown = append(st.unknown, it.text)
			}
		case itKw:
			if (kw == "count" || kw == "sum" || kw == "avg") && last != nil && i > 0 && mean[i-1] == last.it && len(only(last.cands, sValue)) == len(last.cands) {
				// "a normal number of tickets": a value right before
				// "number of" qualifies nothing counted; "normal" is a
				// word here, not the priority.
				st.unknown = append(st.unknown, last.it.text+" (a value before “"+it.text+"”)")
			}
			switch {
			case (kw == "avg" || kw == "max" || kw == "min") && pendingOp != "" && last != nil && last.role == "" && !last.hasNum && numericColumn(last.cands) && i > 0 && mean[i-1].kind == itKw && (mean[i-1].kw == "gt" || mean[i-1].kw == "lt"):
				// "weight below the average", "price above the average
				// price": the column against its own average over all rows.
				last.op, last.against, last.hasNum = pendingOp, kw, true
				last.byMode = false // compared, not grouped by
				pendingOp, against = "", last
				continue
			case kw == "mode":
				st.mode, st.order, st.sup = i+1, "desc", true
				st.modeBack = i >= 2 && mean[i-1].kind == itKw && mean[i-1].kw == "with" && (mean[i-1].text == "that" || mean[i-1].text == "which" || mean[i-1].text == "who")
				byMode = false
				continue
			case st.mode > 0 && (it.text == "across" || it.text == "of all" || kw == "rows" && it.text == "all"):
				// "the nationality that is most common across all people":
				// the rows counted, not a grouping.
				continue
			case against != nil && (it.text == "across" || it.text == "of all" || kw == "rows" && it.text == "all"):
				// "… than the average population across all cities": the
				// rows the average is over, not a grouping.
				continue
			case it.text == "across" && i+1 < len(mean) && mean[i+1].kind == itKw && (mean[i+1].text == "all" || mean[i+1].text == "every"):
				// "the average earnings across all poker players": the rows
				// the aggregate is over, not a grouping.
				overAll, byMode = true, false
				continue
			case kw == "by" && sortVerb:
				// "sort employee names by their age": a sort, not a group.
				pendingSort, sortVerb = true, false
			case kw == "by" && agent[it]:
				// whose: the rows that follow qualify what is counted
			case kw == "by":
				byMode = true
				// "total received by method": a total of nothing named.
				st.bareSum = st.bareSum || slices.Equal(pendingAggs, []string{"sum"})
				pendingAggs = nil
				if t := strings.ToLower(it.text); t != "by" && !strings.Contains(t, "by") && t != "across" {
					st.perGroup = true // "in each", "per", "for every"
				}
			case strings.HasPrefix(kw, "grain:"):
				st.grains = append(st.grains, semantic.Grain(strings.TrimPrefix(kw, "grain:")))
				st.grainAt, st.grainWord = append(st.grainAt, i), append(st.grainWord, it.text)
			case strings.HasPrefix(kw, "unit:") && st.ageOp != "" && st.ageUnit == "" && (prevKw == "agegt" || prevKw == "agelt" || st.hasAge && i > 0 && mean[i-1].kind == itNum):
				// "open tickets older than 30 days", "older than a week":
				// how long ago the rows began.
				if !st.hasAge {
					st.ageNum, st.hasAge = 1, true
				}
				st.ageUnit = strings.TrimPrefix(kw, "unit:")
			case strings.HasPrefix(kw, "unit:"):
				// "best month for revenue", "worst week": one period, ranked.
				// "busiest day of the week", "quietest month": a
				// superlative before the period too.
				ranked := (prevKw == "top" || prevKw == "bottom" || prevKw == "max" || prevKw == "min") && singular(it.text) == it.text
				if byMode || prevKw == "rows" || ranked {
					st.grains = append(st.grains, semantic.Grain(strings.TrimPrefix(kw, "unit:")))
					st.grainAt, st.grainWord = append(st.grainAt, i), append(st.grainWord, it.text)
					if (prevKw == "rows" || ranked) && singular(it.text) == it.text {
						st.oneGrain = true // "which month had the highest revenue"
					}
				} else {
					st.unknown = append(st.unknown, it.text)
				}
			case kw == "count":
				pendingAggs = append(pendingAggs, "count")
				byMode = false
			case (kw == "sum" || kw == "avg") && len(pendingAggs) > 0 && (pendingAggs[len(pendingAggs)-1] == "max" || pendingAggs[len(pendingAggs)-1] == "min"):
				// "the highest total amount": a ranking by the total, not
				// the largest amount beside the total (found from outside:
				// both, month by month).
				st.order = map[string]string{"max": "desc", "min": "asc"}[pendingAggs[len(pendingAggs)-1]]
				pendingAggs[len(pendingAggs)-1] = kw
				byMode = false
			case kw == "sum" || kw == "avg":
				pendingAggs = append(pendingAggs, kw)
				byMode = false
				if kw == "sum" && i == len(mean)-1 && (it.text == "total" || it.text == "sum") {
					// "how many void invoices and their total": a total
					// of nothing named (found from outside: the count
					// alone answered, at 1.00).
					st.unknown = append(st.unknown, "a total of nothing named after it (“… and their total amount”)")
				}
			case (kw == "max" || kw == "min") && rankedBy(mean, i):
				// "the biggest channel by revenue": a ranking of the
				// channels, as "the top channel by revenue".
				st.order = map[string]string{"max": "desc", "min": "asc"}[kw]
				pendingTop = true
				if st.limit == 0 && pluralRanked(mean, i) {
					// "the biggest customers by revenue": the top few, not
					// every customer (found from outside: 4,459 rows, and
					// the rows with no discount code ranked first).
					st.limit = pluralTop
				}
			case kw == "max" || kw == "min":
				pendingAggs = append(pendingAggs, kw)
				byMode = false
				st.sup = true
			case kw == "distinct":
				st.distinct = true
			case kw == "top" || kw == "bottom":
				st.order = map[string]string{"top": "desc", "bottom": "asc"}[kw]
				pendingTop = true
			case supAdjective(kw):
				st.colSup = kw
				st.supLinked = lastLinked(st) != "" // "the owner owning the youngest dog"
			case kw == "label":
				// "the name Robbin CV" names a value, not a column to list.
				if !(i+1 < len(mean) && mean[i+1].kind == itTerm && len(only(mean[i+1].senses, sValue)) == len(mean[i+1].senses)) {
					st.wantLabel = true
				}
			case kw == "share":
				st.share = true
			case kw == "compare":
				st.compare = true
			case kw == "growth":
				st.growth = true
			case kw == "trend":
				st.trend = true
			case kw == "agegt" || kw == "agelt":
				st.ageOp = map[string]string{"agegt": ">", "agelt": "<"}[kw]
				st.rowsNewer = strings.HasPrefix(it.text, "newer") || strings.HasPrefix(it.text, "more recent")
				st.ageOf = lastLinked(st) // "pets owned by students older than 20": the students' age
			case (kw == "gt" || kw == "lt") && (it.text == "over" || it.text == "under") && i+1 < len(mean) && mean[i+1].kind == itDate:
				// "over the last 4 weeks": a period, not a comparison.
			case kw == "when" && (it.text == "which day" || it.text == "what day") && (i+1 >= len(mean) || mean[i+1].text != "of"):
				// "which day had the most orders last month": one day,
				// ranked, as "which month had the most orders".
				st.grains = append(st.grains, semantic.GrainDay)
				st.oneGrain, st.whichDay = true, true
			case kw == "when":
				st.when = true
			case kw == "sortverb":
				sortVerb = true
				// "rank categories by revenue": the highest first, as a
				// ranking is read, unless the question says otherwise
				// (found from outside: ascending).
				rankDesc = rankDesc || strings.HasPrefix(it.text, "rank")
			case strings.HasPrefix(kw, "sortby"):
				pendingSort = true
				if d, ok := strings.CutPrefix(kw, "sortby:"); ok {
					st.sortDir = d
				}
				rankDesc = rankDesc || it.text == "ranked by"
				byMode = false
			case strings.HasPrefix(kw, "dir:"):
				if st.sortDir != "" && st.sortDir != kw[4:] {
					st.unknown = append(st.unknown, "two sort directions")
				}
				st.sortDir = kw[4:]
				st.sortDirBy = dirSorts(it.text)
			case kw == "lt" && it.text == "under" && i+1 < len(mean) && mean[i+1].kind == itTerm && len(mean[i+1].senses) > 0 &&
				!slices.ContainsFunc(mean[i+1].senses, func(s sense) bool { return s.kind != sValue }):
				// "units under renovation": a state the rows are in, no
				// comparison (found from outside: refused).
			case kw == "gt" || kw == "lt":
				if (it.text == "or more" || it.text == "or less") && pendingNum != nil {
					op := map[string]string{"gt": ">=", "lt": "<="}[kw]
					pendingOp = op
				} else {
					pendingOp = map[string]string{"gt": ">", "lt": "<"}[kw]
					if it.text == "at least" || it.text == "no less than" {
						pendingOp = ">="
					} else if it.text == "at most" || it.text == "no more than" {
						pendingOp = "<="
					}
				}
			case kw == "eq":
				pendingOp = "=" // "exactly 2 orders"
			case kw == "not":
				if w := prevWord(mean, i); (w == "have" || w == "has" || w == "had") && i+1 < len(mean) && (creationVerbs[mean[i+1].text] || p.makingBefore(mean, i+1)) {
					// "customers that have not bought anything": no
					// such rows, as after "never".
					pendingNone = w + " not"
					continue
				}
				pendingNot = true
			case kw == "none":
				pendingNone = it.text
			case kw == "and":
				st.andPos = append(st.andPos, i)
			case kw == "allinfo":
				st.allInfo = true
			case kw == "both":
				st.both = true
			case kw == "rows":
				// "what's our headcount" asks for a figure, not a list.
				if i <= 1 && !ourFigure(st.text) {
					st.rowsLead = true
				}
			case kw == "with":
				byMode = false
				if i == 0 && (it.text == "who" || it.text == "whom") {
					st.whoLead = true
				}
			}
			if kw != "and" {
				prevKw = kw
			}
			if kw != "and" && kw != "by" && kw != "rows" && kw != "with" && kw != "distinct" && kw != "top" && kw != "bottom" {
				// keep by-mode across "and" only
				if !strings.HasPrefix(kw, "grain:") && !strings.HasPrefix(kw, "unit:") {
					byMode = byMode && kw == "and"
				}
			}
			continue
		case itTerm:
			if (prevKw == "with" || afterHave(items, it) || verbedTable(items, it)) && pendingNum == nil && pendingOp == "" && len(pendingAggs) == 0 && !byMode && !pendingNot && pendingNone == "" {
				if ent, ok := p.hadRows(it, st, mean, i); ok {
					// "customers with orders", "how many customers had an
					// order last month": the rows that have one, a period
					// after it that row's (found from outside: refused as
					// not related).
					st.some = append(st.some, ent)
					st.someMade = append(st.someMade, i)
					continue
				}
			}
			if rr, ok := p.relatedMeasure(it, st, (prevKw == "with" || afterHave(items, it)) && pendingNum == nil && pendingOp == "" && len(pendingAggs) == 0 && !byMode); ok {
				// "customers with a refunded order", "who have no
				// cancelled orders": rows that have (or lack) a row the
				// measure counts.
				rr.neg, pendingNot = pendingNot, false
				st.related = append(st.related, rr)
				continue
			}
			if a := against; a != nil {
				if sameField(a.cands, it.senses) {
					continue // "… than the average weight": the same column again
				}
				against = nil
				if ofEntity(a.cands, it.senses) && i > 0 && mean[i-1].kind == itKw && (mean[i-1].text == "across" || mean[i-1].text == "all" || mean[i-1].text == "of all") {
					continue // "… across all cities": the rows of the column's own table
				}
			}
			if byMode && i > 0 && mean[i-1].kind == itKw && groupWord(mean[i-1].text) && len(it.senses) > 0 && len(only(it.senses, sValue)) == len(it.senses) {
				if r := p.linkNamedAs(it.text, it.senses[0].entity); r != nil {
					// "performances by house manager": the name of the one
					// link to staff (performances.house_manager_id), though
					// staff.role holds the words too.
					it.senses = []sense{{kind: sEntity, name: r.To, entity: r.To, strength: strName}}
					st.byLinks = append(st.byLinks, byLink{rel: r, words: it.text})
				}
			}
			if byMode && i > 0 && mean[i-1].kind == itKw && groupWord(mean[i-1].text) && !afterVerb[mean[i-1]] && len(it.senses) > 0 && len(only(it.senses, sValue)) == len(it.senses) && !(i+1 < len(mean) && mean[i+1].kind == itTerm) && !p.namesRows(it.senses) {
				// "average tip by server": Server is a value (a role), not
				// something to group by; the grouping is not dropped for a
				// filter (found from outside: one figure for servers).
				st.byValue = append(st.byValue, byValue{words: strings.TrimSpace(mean[i-1].text) + " " + it.text, entity: it.senses[0].entity})
			}
			if byMode && (qualifies[it] || len(only(it.senses, sValue)) == len(it.senses) || be[it] && hasFlag(it.senses)) {
				// "… in each category are discontinued": a state said of
				// the rows, not a second grouping.
				// "by channel for business customers", "by channel,
				// business customers only": what follows qualifies.
				byMode = false
			}
			if last != nil && i > 0 && mean[i-1] == last.it && len(only(last.cands, sValue)) == len(last.cands) && aggregateLead(it.text) {
				// The same before a measure named with its aggregate ("a
				// normal number of tickets", a metric's synonym).
				st.unknown = append(st.unknown, last.it.text+" (a value before “"+it.text+"”)")
			}
			t := &term{it: it, pos: i, cands: it.senses, byMode: byMode, rowsQ: prevKw == "rows" || pendingTop || st.limit > 0 && prevKw == "", named: prevKw == "label", withA: withA[it], afterStop: afterStop[it], ofBefore: ofBefore[it], dir: dirBefore[it], place: placeBefore[it]}
			if i+1 < len(mean) && flagOfNext(it.senses, mean[i+1]) {
				// "which discontinued product made the most revenue":
				// the products that are discontinued, ranked (found from
				// outside: ranked by discontinued, 0 first, at 1.00).
				t.adjFlag, t.byMode = true, false
			}
			if i > 0 && mean[i-1].kind == itKw && mean[i-1].kw == "and" && last != nil {
				t.conj, t.conjAnd = true, strings.TrimSpace(mean[i-1].text) == "and"
			}
			if pendingNot {
				// "customers not in orders" is a value's negation unless
				// the term names only a table.
				if ent, ok := p.noneEntity(it); ok {
					pendingNot = false
					if it.linkObj {
						st.linkedNone = append(st.linkedNone, ent)
						continue
					}
					st.none = append(st.none, ent)
					continue
				}
				t.neg, pendingNot = true, false
				if len(only(it.senses, sValue)) == 0 && len(only(it.senses, sMetric, sEntity)) > 0 {
					// "non-refunded orders", "non-members": a measure or a
					// table cannot be negated; read as the measure it
					// would answer the opposite (found from outside).
					st.unknown = append(st.unknown, "not "+it.text+" (quarry cannot negate a measure; ask for the rows that are not, such as “orders that were not refunded”)")
					continue
				}
			}
			if pendingSort {
				t.sortBy, pendingSort = true, false
				t.byMode = false
				st.sortTerms++
			}
			if len(pendingAggs) > 0 && !byMode {
				t.aggs, pendingAggs = pendingAggs, nil
			}
			if pendingNum != nil && pendingOp != "" && countedNext(t, mean, i) {
				// "owners with more than 3 completed bookings": the number
				// counts the rows named next, of which the value is said
				// (found from outside: the number went to the value and
				// the question was refused).
				t.ofCounted = true
			} else if pendingNum != nil && pendingOp != "" {
				t.op, t.num, t.hasNum, t.pct, t.money, t.cents = pendingOp, pendingNum.num, true, pendingNum.pct, pendingNum.money, pendingNum.cents
				pendingNum, pendingOp = nil, ""
				st.having = append(st.having, t)
			}
			pendingTop = false
			st.terms = append(st.terms, t)
			last = t
			prevKw = ""
			continue
		}
		if it.kind != itKw {
			prevKw = ""
		}
	}
	if len(pendingAggs) > 0 {
		for _, a := range pendingAggs {
			switch a {
			case "count":
				st.count = true
			case "sum":
				st.bareSum = true
			case "max":
				if st.order == "" {
					st.order = "desc"
				}
			case "min":
				if st.order == "" {
					st.order = "asc"
				}
			case "avg":
				st.unknown = append(st.unknown, "an average of nothing named after it")
			}
		}
	}
	if pendingNot {
		st.unknown = append(st.unknown, "not")
	}
	if pendingNone != "" {
		st.unknown = append(st.unknown, pendingNone)
	}
	if len(mean) > 0 && mean[len(mean)-1].kind == itKw && mean[len(mean)-1].kw == "by" && (mean[len(mean)-1].text == "for each" || mean[len(mean)-1].text == "each" || mean[len(mean)-1].text == "for every" || mean[len(mean)-1].text == "in each") {
		st.eachAfter = true
	}
	if rankDesc && st.sortDir == "" {
		st.sortDir = "desc"
	}
	if pendingSort || sortVerb {
		st.unknown = append(st.unknown, "a sort without a column to sort by")
	}
	if pendingOp != "" || pendingNum != nil || st.ageOp != "" && !st.hasAge {
		st.unknown = append(st.unknown, "a comparison without a number or a measure")
		st.bareComparison = pendingNum != nil
	}
}

// takesNumber reports whether a term a number is said right before may
// be what the number counts or compares: rows, a measure or a number
// column ("over 2 orders"), not a value or a date ("amount over 400
// issued this year": issued a status, and the verb of issued_on; found
// from outside: the number went to "issued" and was refused).
func takesNumber(ss []sense) bool {
	for _, s := range ss {
		if s.kind == sEntity || s.kind == sMetric || s.kind == sColumn && s.numeric {
			return true
		}
	}
	return false
}

// valuesOnly reports whether every sense is a value.
func valuesOnly(ss []sense) bool {
	return len(ss) > 0 && len(only(ss, sValue)) == len(ss)
}

func only(ss []sense, kinds ...senseKind) []sense {
	var out []sense
	for _, s := range ss {
		for _, k := range kinds {
			if s.kind == k {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// strongest keeps the senses of the highest strength.
func strongest(ss []sense) []sense {
	best := -1
	for _, s := range ss {
		best = max(best, s.strength)
	}
	var out []sense
	for _, s := range ss {
		if s.strength == best {
			out = append(out, s)
		}
	}
	return out
}

func (p *Planner) unanswered(st *state, reason string) *Plan {
	pl := &Plan{Kind: KindUnanswered, Reason: reason, Understood: st.understood, Unknown: st.unknown, bareComparison: st.bareComparison}
	pl.Suggestions = p.suggest(st.unknown)
	return pl
}

func clarify(question string, options ...string) *Plan {
	return &Plan{Kind: KindClarify, Question: question, Options: options}
}

// restricted refuses a question that names a restricted column. A word
// that is also a known value ("email" as a traffic source) is read as the
// value when the question names the value's table or metric.
func (p *Planner) restricted(items []item, i int) *Plan {
	it := &items[i]
	var r *sense
	for k := range it.senses {
		if it.senses[k].kind == sRestricted {
			r = &it.senses[k]
			break
		}
	}
	if r == nil {
		return nil
	}
	// A view's column the guard refuses, named by a word that also names
	// a column the policy allows ("users by country": users.country, not
	// user_tags.country): read as that column. The guard holds the SQL.
	if allowed := only(it.senses, sColumn, sDim, sEntity, sMetric); len(allowed) > 0 {
		withheld := true
		for _, s := range it.senses {
			withheld = withheld && (s.kind != sRestricted || s.withheld)
		}
		if withheld {
			var keep []sense
			for _, s := range it.senses {
				if s.kind != sRestricted {
					keep = append(keep, s)
				}
			}
			it.senses = keep
			return nil
		}
	}
	for _, v := range only(it.senses, sValue) {
		for j, other := range items {
			if j == i {
				continue
			}
			for _, s := range other.senses {
				if (s.kind == sEntity || s.kind == sMetric) && strings.EqualFold(s.entity, v.entity) || s.kind == sColumn && s.field == v.field {
					it.senses = only(it.senses, sValue)
					return nil
				}
			}
		}
	}
	return &Plan{Kind: KindRefuse, Reason: fmt.Sprintf("%q refers to %s, which the column policy restricts; quarry does not select, filter, sort or aggregate it", it.text, r.field)}
}

func numericColumn(ss []sense) bool {
	for _, s := range ss {
		if s.kind == sColumn && s.numeric {
			return true
		}
	}
	return false
}

// reorder reads "tickets … open" as the metric "open tickets": an unknown
// word that, put before a known term, makes a metric name or synonym.
func (p *Planner) reorder(items []item) {
	for i := range items {
		if items[i].kind != itUnknown {
			continue
		}
		for j := range items {
			if items[j].kind != itTerm {
				continue
			}
			ss := p.lex.senses(items[i].text + " " + items[j].text)
			if len(ss) > 0 && len(only(ss, sMetric)) == len(ss) {
				items[j].senses, items[j].text = ss, items[i].text+" "+items[j].text
				items[i].kind = itStop
				break
			}
		}
	}
}

// sameField reports whether two terms can name the same column.
func sameField(a, b []sense) bool {
	for _, x := range a {
		for _, y := range b {
			if x.field != "" && x.field == y.field {
				return true
			}
		}
	}
	return false
}

// ofEntity reports whether b names the table of one of a's columns.
func ofEntity(a, b []sense) bool {
	for _, x := range a {
		for _, y := range b {
			if y.kind == sEntity && strings.EqualFold(x.entity, y.name) {
				return true
			}
		}
	}
	return false
}

// afterHave reports whether the words right before it are "have", "has"
// or "had", with an article between: "customers that have a refunded
// order".
func afterHave(items []item, it *item) bool {
	before := itemsBefore(items, it)
	for j := len(before) - 1; j >= 0 && before[j].kind == itStop; j-- {
		switch before[j].text {
		case "have", "has", "had", "made", "make", "makes":
			// "customers who made a booking last month" (found from
			// outside: refused as not related).
			return true
		case "a", "an", "any", "some", "the", "one":
			continue
		}
		return false
	}
	return false
}

// emptyColumn reads a term after "no" or "without" as a column that must
// be empty: one column, not a number's or a date's measure word.
func emptyColumn(it *item) (sense, bool) {
	if it.kind != itTerm || len(it.senses) == 0 {
		return sense{}, false
	}
	fields := map[string]bool{}
	for _, s := range it.senses {
		if s.kind != sColumn || s.strength == strAlias && !s.key {
			return sense{}, false
		}
		fields[s.field] = true
	}
	if len(fields) != 1 {
		return sense{}, false
	}
	return it.senses[0], true
}

// dirSorts says what a sort direction said without a column may sort:
// "measure" for any but an order of names ("alphabetically"), which
// sorts by a name, not by a measure.
func dirSorts(text string) string {
	if strings.Contains(text, "alphabetic") {
		return ""
	}
	for _, w := range []string{"high", "low", "larg", "small", "big", "most", "fewest", "least"} {
		if strings.Contains(text, w) {
			return "value" // "lowest first": the measure's values, even of periods
		}
	}
	return "measure"
}

// namesRows reports whether a value names rows by their label (a
// customer's name) or a part of their names (last_name, surname): "orders
// by Priya Dawson" says whose.
func (p *Planner) namesRows(ss []sense) bool {
	for _, s := range ss {
		if e := p.entity(s.entity); e != nil && (strings.EqualFold(p.label(e), s.column) || semantic.NamePart(s.column)) {
			return true
		}
	}
	return false
}

// groupWord reports whether a keyword asks for a group per row of what
// follows it: "by", "per", "for each".
func groupWord(w string) bool {
	switch strings.TrimSpace(w) {
	case "by", "per", "each", "for each", "for every", "every":
		return true
	}
	return false
}

// measureHaving reports whether a condition with a number is on a count
// or a measure ("customers with more than 5 orders"), which needs
// groups, rather than on a column of each row ("leases for 2 bedroom
// units": units.bedrooms = 2, no grouping by unit; found from outside).
func (st *state) measureHaving() bool {
	return slices.ContainsFunc(st.having, func(h *term) bool {
		k := h.cands[0].kind
		return k == sEntity || k == sMetric || aggregated(h)
	})
}

// byValue is a value said right after "by" or "per", and its table.
type byValue struct{ words, entity string }

// byLink is a grouping said by the name of a link to a table (linkNamedAs).
type byLink struct {
	rel   *semantic.Relationship
	words string
}
