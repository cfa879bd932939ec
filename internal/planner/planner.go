// Package planner is quarry's builtin deterministic planner: it turns a
// plain-language question into a semantic metric query (or a rows query, or
// a verified query's SQL) using only the knowledge — entity, column, metric
// and dimension names, their synonyms and known values — and a date parser.
//
// It never guesses. Every word of a question must be accounted for: a known
// term, a value, a date phrase, a number or a structural word ("by", "top",
// "how many"…). When a word cannot be mapped the plan is "unanswered" and
// says what was understood, what was not, and the closest known terms. When
// two meanings fit equally the plan is "clarify" with one precise question.
// Questions about restricted columns and requests to change data are
// "refuse". The planner is pure: today is passed in.
package planner

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Kind says what a Plan is.
type Kind string

// The plan kinds.
const (
	KindMetric     Kind = "metric"     // Query holds a metric query
	KindRows       Kind = "rows"       // Query holds a rows query (Query.Rows set)
	KindVerified   Kind = "verified"   // SQL holds a verified query's SQL
	KindClarify    Kind = "clarify"    // Question and Options say what to choose
	KindRefuse     Kind = "refuse"     // policy refuses the question; Reason says why
	KindUnanswered Kind = "unanswered" // the question could not be mapped with confidence
)

// Verified is a question with SQL a person has checked.
type Verified struct {
	Question string
	SQL      string
}

// Plan is the planner's answer to one question.
type Plan struct {
	Kind  Kind            `json:"kind"`
	Query *semantic.Query `json:"query,omitempty"`
	// AdHoc are metrics the planner defined for this question (a count of
	// an entity, an average of a column, a ratio); compile Query against
	// Model(base), which adds them.
	AdHoc []semantic.Metric `json:"ad_hoc,omitempty"`
	// ShareCases are the conditions of a share the planner defined
	// ("churned" of "what share of subscriptions churned"), which its
	// metric holds as SQL: the checks of the rows a question picks read
	// them as the query's own filters.
	ShareCases []semantic.Filter `json:"share_cases,omitempty"`
	SQL        string            `json:"sql,omitempty"`   // for KindVerified
	Title      string            `json:"title,omitempty"` // e.g. "Revenue by month, 2025"
	// Period labels the plan's time range, as the title ends with it:
	// "2025", "last month (May 2026)"; empty when there is none.
	Period string `json:"period,omitempty"`
	// PeriodEnd is the end of the period the question names, where the
	// planner ended Query.TimeRange with the day after the as-of day
	// ("leases that end this month" on the 1st: nothing after today has
	// happened yet). A date that holds days ahead (a lease's end, an
	// appointment) has rows there the question asks for: the analyst
	// runs the range to PeriodEnd when a control query finds some.
	PeriodEnd string `json:"period_end,omitempty"`
	// Understood lists what mapped ("metric revenue", "filter country = Germany").
	Understood []string `json:"understood,omitempty"`
	// Ignored lists the words the planner read past as carrying nothing
	// the query needs ("placed", "still", "total"), shown with the answer
	// so that a reader can tell whether one mattered.
	Ignored []string `json:"ignored,omitempty"`
	// Read is the question as the plan answers it, when the planner
	// wrote it in other words of the knowledge ("tickets by assignee" as
	// "tickets by employee", the role named as the table it points at);
	// the checks hold the plan to it. Empty when the question is read as
	// asked.
	Read string `json:"read,omitempty"`
	// Notes say how the answer reads what the query alone does not show
	// ("every customer counted, those with no orders as 0"), shown with
	// the reading.
	Notes []string `json:"notes,omitempty"`
	// Unknown lists the words or phrases that did not map.
	Unknown []string `json:"unknown,omitempty"`
	// Suggestions are the closest known terms to the unknown words.
	Suggestions []string `json:"suggestions,omitempty"`
	// DidYouMean is the question with each unknown word replaced by the
	// closest known term, when that question plans ("revnue by chanel" →
	// "revenue by channel"); empty when there is none.
	DidYouMean string   `json:"did_you_mean,omitempty"`
	Question   string   `json:"question,omitempty"` // for KindClarify: the one question to ask
	Options    []string `json:"options,omitempty"`  // for KindClarify
	Reason     string   `json:"reason,omitempty"`   // for KindRefuse and KindUnanswered
	// othersAmount is, for a ranking refused because it is by an amount
	// of other rows ("top 5 volunteers by hours"), the words of that
	// amount, which childTotals reads as their total.
	othersAmount string
	// valueNoun, valueIs and valueOf: refused for counting a value said
	// as a noun ("the most no-shows"), the words said, the value and the
	// table whose rows hold it, which valueRows reads as those rows.
	valueNoun, valueIs, valueOf string
	// roleOpts: asked back which link reaches a table, the links'
	// words, which roleSaid reads from the question's verbs.
	roleOpts []string
	// bareComparison: refused for a comparison with a number and nothing
	// it compares ("donations over $1,000"), which bareAmount reads.
	bareComparison bool
	// avgOf: refused for an average of a table's rows ("average claim
	// amount"), the table, whose amounts whichAmount offers.
	avgOf string
	// centsOf and centsNum: a question asked back, whether centsNum is in
	// dollars or in cents, as centsOf holds cents (whichUnit); a reading
	// of the question in other words asks it in the question's own.
	centsOf  string
	centsNum float64
	// flagCounted: refused for a count of a yes/no column said before the
	// rows it qualifies ("how many neutered dogs"), the column's word,
	// which flagCount reads as a condition.
	flagCounted string
	flagEntity  string // the table of that yes/no column
	// rankUnknown: refused for a ranking with no measure ("top 5 products
	// by unit price"), which rankedByColumn reads as a list.
	rankUnknown bool
	// DatedBy is, for rows with no date of their own and no period, the
	// date of the one table they belong to (a fine's loan), which the
	// analyst keeps them to as of an earlier day.
	DatedBy string `json:"-"`
	// final: refused for what the words say, so that no other reading of
	// them (a direction's link without its verb) may answer instead.
	final bool
}

// Model returns base with the role entities the planner reads
// (semantic.WithRoles) and the plan's ad-hoc metrics added: a copy where
// either adds something, base itself where neither does. base is not
// modified. It costs a pass over base's entities and links: call it once
// per plan.
func (pl *Plan) Model(base *semantic.Model) *semantic.Model {
	return pl.over(semantic.WithRoles(base))
}

// over is m with the plan's ad-hoc metrics added; m itself when it has
// none. m is not modified.
func (pl *Plan) over(m *semantic.Model) *semantic.Model {
	if len(pl.AdHoc) == 0 {
		return m
	}
	c := *m
	c.Metrics = make([]semantic.Metric, 0, len(m.Metrics)+len(pl.AdHoc))
	c.Metrics = append(c.Metrics, m.Metrics...)
	c.Metrics = append(c.Metrics, pl.AdHoc...)
	return &c
}

// model is pl.Model(p.m) without deriving p.m's role entities again:
// newPlanner already did, and on a wide model that costs a pass over
// every entity and link.
func (p *Planner) model(pl *Plan) *semantic.Model {
	return pl.over(p.m)
}

// PlanModel is pl.Model of the model p was made with, its role entities
// derived once, by New.
func (p *Planner) PlanModel(pl *Plan) *semantic.Model { return p.model(pl) }

// Planner plans questions against one semantic model. It is safe for
// concurrent use: New precomputes everything and Plan only reads it.
type Planner struct {
	m        *semantic.Model
	verified map[string]Verified
	lex      lexicon
	graph    map[string][]string // entity → entities it joins with (either direction)
	// direct holds, by lower-cased entity, the entities one link to one
	// row leads to; upOf walks it.
	direct   map[string][]string
	up       *sync.Map         // lower-cased entity → upOf's map, made when first asked
	scopes   *scopeMemo        // the last scope's entities, for ScopeModel
	kws      map[string]string // structural phrases
	stop     map[string]bool   // words without meaning
	function map[string]bool   // stopwords with no content at all: not listed as ignored
	writes   map[string]bool   // verbs that change data
	// linkVerbs are the stems of the verbs read as a link between two
	// tables (links.go): genericVerbs and the knowledge's.
	linkVerbs, genericVerbs map[string]bool
	// relVerbs are the stems of each relationship's verbs: those the
	// knowledge lists and the one its column's description gives.
	relVerbs map[*semantic.Relationship][]string
	// ents finds m's entities by name in one look-up: the planner asks
	// for them by name many times a question, and a wide model has
	// thousands.
	ents semantic.EntityIndex
	// wide marks a model whose lexicon is built per question (scope.go);
	// allTerms are then its terms, built when first asked for.
	wide     bool
	allTerms func() []string
	formLen  int // the longest phrase of a wide model, up to three words
	// undirected marks the copy that plans a question a word of direction
	// was read in (directed): the link's own name may hold such a word
	// ("departure station"), never read again.
	undirected bool
	// optionCheck marks the copy that plans a clarifying question's
	// options again (ownLinkNamed): an option that is itself ambiguous
	// is no answer, and is never asked back in turn.
	optionCheck bool
	// uncoded marks the copy that plans a question without reading its
	// country names as codes (countryReading).
	uncoded bool
}

// New builds a planner over m and the verified queries.
func New(m *semantic.Model, verified []Verified) *Planner {
	return newPlanner(m, verified, wideEntities)
}

// newPlanner is New with the number of entities above which the lexicon
// is built per question.
func newPlanner(m *semantic.Model, verified []Verified, wideAt int) *Planner {
	// A table reached through one of several links is an entity of its
	// own, named by the link ("origin_warehouse"): semantic.WithRoles.
	// Wide is said of the tables the knowledge holds.
	tables := len(m.Entities)
	m = semantic.WithRoles(m)
	p := &Planner{m: m, ents: m.EntityIndex(), verified: map[string]Verified{}, kws: keywords(), stop: stopwords(), function: functionWords(), writes: writeVerbs()}
	for _, v := range verified {
		k := normalise(v.Question)
		if k != "" && v.SQL != "" {
			if _, dup := p.verified[k]; !dup {
				p.verified[k] = v
			}
		}
	}
	if tables > wideAt {
		p.wide = true
		p.formLen = longestPhrase(m, 3)
		p.allTerms = sync.OnceValue(func() []string { return modelTerms(m) })
	} else {
		p.lex = buildLexicon(m, nil)
	}
	p.buildLinkVerbs()
	p.graph = map[string][]string{}
	direct := map[string][]string{}
	for _, r := range m.Relationships {
		f, t := lower(r.From), lower(r.To)
		p.graph[f] = append(p.graph[f], t)
		p.graph[t] = append(p.graph[t], f)
		switch r.Cardinality {
		case semantic.OneToMany:
			direct[t] = append(direct[t], f)
		case semantic.ManyToMany:
		case semantic.OneToOne:
			// One row at each end either way: a hiring's employee, an
			// employee's one hiring (its key is the hiring's).
			direct[f] = append(direct[f], t)
			direct[t] = append(direct[t], f)
		default:
			direct[f] = append(direct[f], t)
		}
	}
	p.direct, p.up, p.scopes = direct, &sync.Map{}, &scopeMemo{}
	return p
}

// upOf is the set of entities (lower-cased) reached from the entity e
// (lower-cased) along links to one row, nil for a name that is no
// entity. It is walked at the first question that asks, not for every
// entity of a wide model at New.
func (p *Planner) upOf(e string) map[string]bool {
	if v, ok := p.up.Load(e); ok {
		return v.(map[string]bool)
	}
	var seen map[string]bool
	if p.ents.Get(e) != nil {
		seen = map[string]bool{}
		stack := []string{e}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range p.direct[x] {
				if !seen[y] && y != e {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
	}
	v, _ := p.up.LoadOrStore(e, seen)
	return v.(map[string]bool)
}

// normalise lower-cases q, keeps letters, digits and single spaces.
func normalise(q string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(q) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			continue
		}
		space = true
	}
	return b.String()
}

func lower(s string) string { return strings.ToLower(s) }

// Plan plans one question as of the given day.
func (p *Planner) Plan(question string, asOf time.Time) *Plan {
	// heldNow asks of the whole question's reading, never of a reading
	// of its words rephrased (a count of a value replanned).
	pl := p.planWhole(question, asOf)
	if p.othersListed(pl) && pl.Query.Limit > 1 {
		// "the age of the oldest dog" is the one dog's age; "5 cities
		// with the highest order total" no list of 5 cities.
		cols := make([]string, len(pl.Query.Rows.Columns))
		for i, c := range pl.Query.Rows.Columns {
			cols[i] = display(c[strings.LastIndex(c, ".")+1:])
		}
		what := strings.Join(cols, ", ")
		return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("this would list the %s of the top %d %s, not rank each %s by all of its %s; to rank them by a total, ask for the sum (“top %d … by sum of …”)",
			what, pl.Query.Limit, display(pl.Query.Rows.Entity), what, display(pl.Query.Rows.Entity), pl.Query.Limit)}
	}
	inner := p.realRows(p.madeInPeriod(question, p.openStates(question, p.flowAtADay(question, p.heldOrAll(question, p.heldAt(question, asOf, p.heldNow(question, p.currencySaid(question, p.verbCounted(question, pl)))))))))
	return fewOptions(p.latestSnapshot(p.inForce(p.valueOfRelated(question, inner), asOf)))
}

// maxOptions is the most readings a question back offers. More is no
// question a person can answer by picking: on a wide schema a word such
// as "status" is a column of thousands of tables (found from outside: a
// question back of 8,074 options, 620 KB).
const maxOptions = 24

// fewOptions is pl, or, for a question back with more than maxOptions
// readings, a refusal that names a few and says how many there are.
func fewOptions(pl *Plan) *Plan {
	if pl == nil || pl.Kind != KindClarify || len(pl.Options) <= maxOptions {
		return pl
	}
	return &Plan{Kind: KindUnanswered, Understood: pl.Understood, Unknown: pl.Unknown,
		Reason: fmt.Sprintf("the question could mean any of %d things (%s, … and %d more); name the table or column you mean",
			len(pl.Options), strings.Join(pl.Options[:3], ", "), len(pl.Options)-3)}
}

// planWhole is Plan without the questions only the whole question asks
// back: what the replans of a question's words call.
func (p *Planner) planWhole(question string, asOf time.Time) *Plan {
	read := func(q string) *Plan { return p.planQuestion(q, asOf) }
	if pl := p.planWeekPart(question, asOf, read); pl != nil {
		return pl
	}
	return read(question)
}

// withAndWithout reports whether a question asks for rows with and
// without something at once: "with and without", "with or without",
// "with vs without".
func withAndWithout(question string) bool {
	toks := tokenize(question)
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].s == "with" && (toks[i+1].s == "and" || toks[i+1].s == "or" || toks[i+1].s == "vs" || toks[i+1].s == "versus") && toks[i+2].s == "without" {
			return true
		}
	}
	return false
}

// maxQuestion is the longest question, in bytes, the planner reads.
const maxQuestion = 2000

// planQuestion plans a question that says nothing of the part of the
// week (planWeekPart reads that).
func (p *Planner) planQuestion(question string, asOf time.Time) *Plan {
	if len(question) > maxQuestion {
		// A question, or a reading that rewrites one, this long is no
		// question: never planned again and again.
		return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("the question is longer than %d characters; ask it in fewer words", maxQuestion)}
	}
	if withAndWithout(question) {
		// "average order value with and without a coupon": two figures
		// side by side, which no reading here gives (found from
		// outside: the "with" half dropped, at 1.00).
		return &Plan{Kind: KindUnanswered, Reason: "quarry cannot yet set the rows with something beside those without it in one answer; ask for each (“… with a coupon”, then “… without a coupon”)"}
	}
	s := p.scopedTo(question)
	if m := s.patterned(question, asOf); m != nil {
		return m // "customers whose name contains 'smith'"
	}
	if m := s.percentilePlan(question, asOf); m != nil {
		return m
	}
	pl := s.plan(question, asOf)
	if r := averageOfSome(question, pl); r != nil {
		return r
	}
	if r := s.roleSaid(question, asOf, pl); r != nil {
		return r // "rentals picked up at Lisbon": the pickup branch
	}
	if pl.Kind == KindUnanswered {
		pl = s.otherShapes(question, asOf, pl)
	}
	if d := s.directed(question, asOf, pl); d != nil {
		return d // "flights arriving in Aberdeen": the link to where they go
	}
	if m := s.theirSpend(question, asOf, pl); m != nil {
		return m
	}
	if m := s.unitSaid(question, asOf, pl); m != nil {
		return m
	}
	if m := s.flagCount(question, asOf, pl); m != nil {
		return m
	}
	if m := s.rankedByColumn(question, asOf, pl); m != nil {
		return m
	}
	if m := s.bareAmount(question, asOf, pl); m != nil {
		return m
	}
	if m := s.onAverage(question, asOf, pl); m != nil {
		return m // "how many lessons did each student have on average"
	}
	if m := s.rowValue(question, asOf, pl); m != nil {
		return m // "average booking value": its one amount
	}
	if m := s.othersTotal(question, asOf, pl); m != nil {
		return m
	}
	if m := s.valueRows(question, asOf, pl); m != nil {
		return m
	}
	if m := s.verbRows(question, asOf, pl); m != nil {
		return m
	}
	if m := s.leftAsEnd(question, asOf, pl); m != nil {
		return m // "staff who left this year": staff.terminated_on
	}
	if m := s.whichAmount(question, asOf, pl); m != nil {
		return m // "average claim amount": claimed or approved?
	}
	if m := s.stateNounRows(question, asOf, pl); m != nil {
		return m
	}
	if m := s.moneyMade(question, asOf, pl); m != nil {
		return m
	}
	if m := s.amountAsked(question, asOf, pl); m != nil {
		return m
	}
	if m := s.totalOf(question, asOf, pl); m != nil {
		return m
	}
	if m := s.totalVerbed(question, asOf, pl); m != nil {
		return m
	}
	if m := s.amountOfNamed(question, asOf, pl); m != nil {
		return m
	}
	if m := s.mostAmount(question, asOf, pl); m != nil {
		return m // "which boat had the most maintenance cost"
	}
	if m := s.byStateRows(question, asOf, pl); m != nil {
		return m // "top 5 vets by completed appointments"
	}
	if s.countsOnly(pl) {
		// "total paid by owners in Leeds": money, not the number of
		// owners with a paid invoice (found from outside: 138 owners,
		// at 1.00).
		if m := s.paidAlone(question, asOf); m != nil {
			return m
		}
	}
	if m := s.peopleAsTable(question, asOf, pl); m != nil {
		return m
	}
	if m := s.valueOfRows(question, asOf, pl); m != nil {
		return m
	}
	if m := s.verbedMost(question, asOf, pl); m != nil {
		return m
	}
	if m := s.popularAsTop(question, asOf, pl); m != nil {
		return m
	}
	if m := s.wordsReplanned(question, asOf, pl); m != nil {
		return m
	}
	if m := s.repeatRows(question, asOf, pl); m != nil {
		return m
	}
	if m := s.durationAsked(question, asOf, pl); m != nil {
		return m
	}
	if m := s.incomeUnknown(question, asOf, pl); m != nil {
		return m
	}
	if m := s.salesTotal(question, asOf, pl); m != nil {
		return m
	}
	if m := s.collected(question, asOf, pl); m != nil {
		if c := s.moneyRowsCounted(question, asOf, m); c != nil {
			return c // "payments received by base": how many, or their total?
		}
		return m
	}
	pl = s.datesAsEvents(question, pl)
	pl = s.perOwnRow(question, pl)
	s.rankings(pl)
	s.spellAll(pl)
	s.spellGroups(pl)
	pl = s.oneRowConditions(pl)
	pl = s.ownRowAggregated(pl)
	pl = s.relatedStatePeriod(question, pl)
	pl = s.overlapHeld(question, pl)
	pl = s.othersState(pl)
	pl = s.eitherRelated(question, pl)
	pl = s.noneWithPeriod(question, pl)
	if w := s.byWhose(question, asOf, pl); w != nil {
		pl = w
	}
	if r := s.valueMisread(question, pl); r != nil {
		pl = r
	}
	if j := s.judged(question, pl); j != nil {
		pl = j
	}
	if r := p.heldElsewhere(pl); r != nil {
		pl = r
	}
	pl = p.roleReading(pl)
	if r := s.roleAsValue(question, asOf, pl); r != nil {
		pl = r // "how many instructors": staff.role = 'instructor'
	}
	if m := s.moneyRowsCounted(question, asOf, pl); m != nil {
		pl = m // "expenses by category": how many, or their total?
	}
	if pl.Kind == KindUnanswered {
		pl.DidYouMean = s.correct(question, pl.Unknown, asOf)
	}
	if pl.Kind == KindClarify && pl.Reason == "" {
		pl.Reason = "two meanings fit the question"
	}
	return pl
}

// reachableFrom is every entity that can be joined to a, a among them,
// by lower-cased name.
func (p *Planner) reachableFrom(a string) map[string]bool {
	return p.walkLinks(lower(a), "")
}

// reachable reports whether entity b can be joined to a (or is a).
func (p *Planner) reachable(a, b string) bool {
	return p.walkLinks(lower(a), lower(b))[lower(b)]
}

// walkLinks is the entities joined to a along the links, breadth first,
// by lower-cased name, stopping where it reaches stop ("": never).
func (p *Planner) walkLinks(a, stop string) map[string]bool {
	seen := map[string]bool{a: true}
	queue := []string{a}
	for len(queue) > 0 && !seen[stop] {
		x := queue[0]
		queue = queue[1:]
		for _, y := range p.graph[x] {
			if !seen[y] {
				seen[y] = true
				queue = append(queue, y)
			}
		}
	}
	return seen
}

// Value is a stored value of a column that the knowledge does not list,
// found for one question by a value index (a column of any cardinality).
type Value struct {
	Entity string `json:"entity"`
	Column string `json:"column"`
	Value  string `json:"value"`
	// ID marks an identifier or a code in capitals, matched exactly:
	// read beside a value the knowledge lists for the same words.
	ID bool `json:"id,omitempty"`
}

// refersTo is the table a column refers to by a relationship, or "".
func (p *Planner) refersTo(entity, column string) string {
	for _, r := range p.m.Relationships {
		if strings.EqualFold(r.From, entity) && strings.EqualFold(r.FromColumn, column) {
			return r.To
		}
	}
	return ""
}

// PlanValues plans a question as Plan does, also reading the given stored
// values as values of their columns where the question's words mean
// nothing else in the knowledge. Values of unknown or restricted columns
// are left out.
func (p *Planner) PlanValues(question string, asOf time.Time, vals []Value) *Plan {
	if len(vals) == 0 {
		return p.Plan(question, asOf)
	}
	q := *p
	q.lex.extra, q.lex.ids = map[string][]sense{}, map[string][]sense{}
	for _, v := range vals {
		s, ok := p.valueSense(v)
		if !ok {
			continue
		}
		k := strings.Join(words(v.Value), " ")
		if k == "" || isNumber(k) {
			continue
		}
		dup := false
		for _, old := range q.lex.extra[k] {
			dup = dup || old.field == s.field && old.value == s.value
		}
		if !dup {
			if v.ID {
				id := s
				if !strings.Contains(" "+normalise(question)+" ", " "+strings.Join(nameWords(v.Column), " ")+" ") {
					// Unless the question names the code's column ("how
					// many templates have template type code CV").
					id.refersTo = p.refersTo(v.Entity, v.Column)
				}
				q.lex.ids[k] = append(q.lex.ids[k], id)
			}
			q.lex.extra[k] = append(q.lex.extra[k], s)
			if n := strings.Count(k, " ") + 1; n > q.lex.maxLen {
				q.lex.maxLen = n
			}
		}
	}
	return q.Plan(question, asOf)
}

// valueSense is the meaning of a stored value of a column: a value of the
// column, or of the dimension defined over it.
func (p *Planner) valueSense(v Value) (sense, bool) {
	e := p.entity(v.Entity)
	if e == nil {
		return sense{}, false
	}
	c := e.Column(v.Column)
	if c == nil || c.Type.IsNumeric() || c.Type.IsTemporal() {
		return sense{}, false
	}
	if p.m.IsRestricted(e.Name, c.Name) {
		return sense{}, false
	}
	field := e.Name + "." + c.Name
	for i := range p.m.Dimensions {
		d := &p.m.Dimensions[i]
		if de, dc, ok := simpleRef(d.Expr); ok && strings.EqualFold(de, e.Name) && strings.EqualFold(dc, c.Name) {
			field = d.Name
			break
		}
	}
	return sense{kind: sValue, entity: e.Name, column: c.Name, field: field, value: v.Value, strength: strName}, true
}

// entity is the entity named name, as semantic.Model.Entity finds it,
// or nil.
func (p *Planner) entity(name string) *semantic.Entity { return p.ents.Get(name) }

// column is the column named column of the entity named entity, or nil.
func (p *Planner) column(entity, column string) *semantic.Column {
	if e := p.entity(entity); e != nil {
		return e.Column(column)
	}
	return nil
}

// roleOfEntity is the role the entity named name plays, as
// semantic.Model.RoleOf says, or nil.
func (p *Planner) roleOfEntity(name string) *semantic.Role {
	if e := p.entity(name); e != nil {
		return e.Role
	}
	return nil
}
