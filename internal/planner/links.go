package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Verbs of relationships. "car makers who produced a car in 1970",
// "languages spoken in Aruba", "teachers who teach math courses": a verb
// between two tables the question names says that their rows are linked,
// and nothing more. A word the knowledge does not otherwise know is read
// so when
//
//   - its stem is a verb the knowledge lists on a relationship
//     (Relationship.Verbs), or one of the few generic verbs of a link
//     (genericLinkVerbs), in any form ("spoken", "went through");
//   - a table is named on each side of it (by its name, a column of it, a
//     value of it or a measure of it), the two tables differ, and the join
//     graph links them by exactly one path of at most three joins, which
//     runs through a relationship that lists the verb unless the verb is
//     a generic one. Several paths, and the planner asks which is meant:
//     the rest of the plan could not keep to the one the verb names.
//
// The verb is then read as that link: the plan says so ("read
// \"produced\" as the link from car makers to cars") and the question is
// planned as if the verb were not there, so that the rows of the two
// tables are related through the joins the link names. A word that names
// a column, a value or a measure keeps that meaning (the scan reads known
// terms first); a verb that is none of these, or with no table on one
// side, stays unknown and the question is refused as before.

// genericLinkVerbs are verbs that name a link between two tables whatever
// the tables are, in their base form. Keep the list short: any other verb
// must be listed in the knowledge (docs/knowledge.md).
var genericLinkVerbs = []string{
	"have", "own", "make", "produce", "create", "write", "direct", "use", "contain", "include",
	"belong", "speak", "teach", "play", "go through", "receive", "take", "handle", "process", "serve",
	"submit", "file", "raise", "lodge", "place", "run",
}

// maxLinkJoins is the longest path, in joins, that a verb is read as.
const maxLinkJoins = 3

// linkCount is a table named after a verb of a link with how many of its
// rows each row of the subject has ("teach at least two courses").
type linkCount struct {
	entity string
	op     string
	num    float64
}

// link is how a verb of the question was read.
type link struct {
	from, to string // the tables on either side, as the question orders them
	// role is the role entity the link's one path reaches its table
	// through ("direct": productions.director_id, the director), which
	// the builder reads the question's values of that table through
	// (builder.viaRole); empty where the path takes no role's link.
	role string
}

// linkVerbAt reports the verb of a link that starts at toks[i]: one word,
// or a word and a particle ("went through"), whose stems are a verb the
// knowledge lists or a generic one. It returns the number of words.
func (p *Planner) linkVerbAt(toks []token, i int) (int, bool) {
	if !isAlpha(toks[i].s) || p.stop[toks[i].s] || p.kws[toks[i].s] != "" {
		return 0, false
	}
	if i+1 < len(toks) && isAlpha(toks[i+1].s) {
		if p.linkVerbs[stemKey(toks[i].s+" "+toks[i+1].s)] {
			return 2, true
		}
	}
	if p.linkVerbs[stemKey(toks[i].s)] {
		return 1, true
	}
	return 0, false
}

// buildLinkVerbs indexes the generic verbs and the knowledge's by stem.
func (p *Planner) buildLinkVerbs() {
	p.linkVerbs, p.genericVerbs = map[string]bool{}, map[string]bool{}
	for _, v := range genericLinkVerbs {
		p.linkVerbs[stemKey(v)] = true
		p.genericVerbs[stemKey(v)] = true
	}
	p.relVerbs = map[*semantic.Relationship][]string{}
	ix := p.m.EntityIndex()
	for k := range p.m.Relationships {
		r := &p.m.Relationships[k]
		for _, v := range r.Verbs {
			p.relVerbs[r] = append(p.relVerbs[r], stemKey(strings.ToLower(v)))
		}
		if v := p.describedVerb(ix, r); v != "" {
			p.relVerbs[r] = append(p.relVerbs[r], v)
		}
		// The past participle in the key's name says it too:
		// assigned_staff_id ("requests assigned", "staff assigned").
		for _, w := range nameWords(r.FromColumn) {
			if pastForm(w) {
				p.relVerbs[r] = append(p.relVerbs[r], stemKey(w))
			}
		}
		for _, v := range p.relVerbs[r] {
			p.linkVerbs[v] = true
		}
	}
}

// describedVerbRE reads a column's description that says what the row it
// refers to does: "The employee handling the ticket".
var describedVerbRE = lazyRE(`^(?i)the ([a-z]+(?: [a-z]+)?) ([a-z]+ing) (?:the|this|each)\b`)

// describedVerb is the stem of the verb that a relationship's column's
// description gives the row it refers to ("assignee_id: The employee
// handling the ticket": employees handle tickets), or "". The noun must
// name the table referred to, and the verb be no form of be or have.
func (p *Planner) describedVerb(ix semantic.EntityIndex, r *semantic.Relationship) string {
	from, to := ix.Get(r.From), ix.Get(r.To)
	if from == nil || to == nil || strings.EqualFold(r.From, r.To) {
		return ""
	}
	col := from.Column(r.FromColumn)
	if col == nil {
		return ""
	}
	m := describedVerbRE().FindStringSubmatch(strings.TrimSpace(col.Description))
	if m == nil {
		return ""
	}
	noun := stemKey(strings.ToLower(m[1]))
	names := false
	for _, n := range append([]string{to.Name}, to.Synonyms...) {
		names = names || stemKey(strings.ToLower(strings.ReplaceAll(n, "_", " "))) == noun
	}
	verb := strings.ToLower(m[2])
	if !names || verb == "being" || verb == "having" || verb == "doing" || p.stop[verb] || p.kws[verb] != "" {
		return ""
	}
	return stemWord(verb)
}

// directPath is the one path of a single join among paths of more, or nil
// when there is none or more than one ("books by author_id or by
// editor_id" stays a question), or when a longer path runs through rows
// that refer to both ends (a rental refers to its customer and its
// branch: "which branch served the most customers" may mean through
// rentals, and is asked).
func directPath(paths [][]pathStep) []pathStep {
	var d []pathStep
	for _, p := range paths {
		if len(p) == 1 {
			if d != nil {
				return nil
			}
			d = p
			continue
		}
		if len(p) == 2 && p[0].rel != nil && p[1].rel != nil && strings.EqualFold(p[0].rel.From, p[0].to) && strings.EqualFold(p[1].rel.From, p[1].from) {
			return nil // the middle table refers to both
		}
	}
	if len(paths) < 2 {
		return nil
	}
	return d
}

// madeDirect is, among paths, the one single join from the table whose
// rows a verb of making makes (made, its object) to the other end: the
// made row's own reference. Nil where there is none, or several.
func madeDirect(paths [][]pathStep, made string) []pathStep {
	var d []pathStep
	for _, p := range paths {
		if len(p) != 1 || p[0].rel == nil || !strings.EqualFold(p[0].rel.From, made) {
			continue
		}
		if d != nil {
			return nil
		}
		d = p
	}
	return d
}

// directPaths are, among paths, those of a single join, and those of two
// through rows that refer to both ends (a rental, of its customer and its
// branch), which directPath keeps asking about too.
func directPaths(paths [][]pathStep) [][]pathStep {
	var out [][]pathStep
	for _, p := range paths {
		if len(p) == 1 || len(p) == 2 && p[0].rel != nil && p[1].rel != nil && strings.EqualFold(p[0].rel.From, p[0].to) && strings.EqualFold(p[1].rel.From, p[1].from) {
			out = append(out, p)
		}
	}
	return out
}

// readLinks reads each verb of a link found by the scan between the
// tables named on either side. A verb that reads as exactly one link
// becomes a word read past (with the link noted); one that links the
// tables several ways asks which; any other stays unknown.
func (p *Planner) readLinks(items []item) *Plan {
	for i := range items {
		it := &items[i]
		if it.linkVerb == "" {
			continue
		}
		left, right := p.sideEntities(items, i, -1), p.sideEntities(items, i, 1)
		if it.clauseEnd || right == nil && pronounBefore(items, i) {
			// "the courses they teach", "how many models does each maker
			// produce?": the verb ends its clause; its object is the term
			// before it or the one before that, and the other is its
			// subject.
			for j := i - 1; j >= 0; j-- {
				if items[j].kind == itTerm {
					right, left = left, p.sideEntities(items, j, -1)
					break
				}
			}
		}
		left, right = p.rolesOnly(left), p.rolesOnly(right)
		var found []link
		var several [][]pathStep
		for _, a := range left {
			for _, b := range right {
				if strings.EqualFold(a, b) {
					continue
				}
				paths := p.linkPaths(a, b, it.linkVerb, p.genericVerbs[it.linkVerb])
				if listed := p.verbPaths(paths, it.linkVerb); len(listed) > 0 {
					// "how many performances did James Carter direct": the
					// link the knowledge lists the verb on (a production's
					// director), not the performance's own link to staff
					// (its house manager, whose verb is "manage"; found
					// from outside: 0 at 0.72, against 135).
					paths = listed
				}
				if d := directPath(paths); d != nil {
					// "which department handled the most courses": the one
					// reference between them, not a way round through a
					// third table (found from outside: asked which).
					paths = [][]pathStep{d}
				} else if d := madeDirect(paths, b); d != nil && semantic.MakingWord(it.text) {
					// "customers who never booked a charter": a charter
					// made is its own customer's, not the customer of an
					// invoice of it (found from outside: asked which).
					paths = [][]pathStep{d}
				} else if ds := directPaths(paths); len(ds) > 1 && slices.ContainsFunc(ds, func(p []pathStep) bool { return len(p) == 1 }) {
					// "how many bookings did Tom Becker run": the host or
					// the game master, not the technician of a room's
					// maintenance log (found from outside: asked among
					// four ways round).
					paths = ds
				}
				switch {
				case len(paths) == 1:
					found = append(found, link{from: a, to: b, role: p.pathRole(paths[0])})
				case len(paths) > 1 && several == nil:
					several = paths
				}
			}
		}
		switch {
		case several != nil:
			var opts []string
			for _, path := range several {
				opts = append(opts, pathText(path))
			}
			return clarify(fmt.Sprintf("%q links %s and %s in more than one way; which is meant?", it.text, display(several[0][0].from), display(several[0][len(several[0])-1].to)), opts...)
		case len(found) == 1:
			it.kind, it.link = itStop, &found[0]
			j := i + 1
			if j < len(items) && items[j].kind == itKw && items[j].text == "by" && qualifiedAgent(items, j+1) {
				// "pets owned by students who are older than 20": whose,
				// not how to group.
				items[j].kind = itStop
				j++
			}
			for ; j < len(items); j++ {
				if items[j].kind == itTerm {
					items[j].linkObj = true
				}
				// "teach at least two courses": how many, then the table.
				count := items[j].kind == itNum || items[j].kind == itKw && (items[j].kw == "gt" || items[j].kw == "lt")
				if items[j].kind != itStop && !count {
					break
				}
			}
		case right == nil && madeForm(it.text):
			// "cars produced in 1980": said of the rows alone, the verb
			// of making says no more than "made" does.
			it.kind = itStop
		default:
			it.kind = itUnknown
		}
	}
	return nil
}

// madeForm reports whether w is the past form of a verb of making, which
// a row was made by and nothing more ("produced", "created").
func madeForm(w string) bool {
	switch w {
	case "produced", "created", "made", "submitted", "filed", "raised", "lodged":
		// Not "logged": an account "logged in" made nothing (found from
		// outside: read as the accounts created).
		return true
	}
	return false
}

// whoDoes reads "who handled the most tickets" as "which employees
// handled …": a question that starts with "who" and the verb of a link
// asks for the rows of the table that does it, the one the relationship
// with that verb refers to, when that is one table of persons.
func (p *Planner) whoDoes(items []item) []item {
	if len(items) < 3 || items[0].text != "who" || items[1].linkVerb == "" {
		return items
	}
	agent := ""
	for r, vs := range p.relVerbs {
		if !slices.Contains(vs, items[1].linkVerb) {
			continue
		}
		if agent != "" && !strings.EqualFold(agent, r.To) {
			return items // the verb of links to several tables
		}
		agent = r.To
	}
	e := p.entity(agent)
	if e == nil || !p.ofPersons(e.Name) {
		return items
	}
	which := item{kind: itKw, kw: "rows", text: "which"}
	doer := item{kind: itTerm, text: strings.ReplaceAll(strings.ToLower(e.Name), "_", " "), senses: []sense{{kind: sEntity, name: e.Name, entity: e.Name, strength: strName}}}
	return append([]item{which, doer}, items[1:]...)
}

// qualifiedAgent reports whether the items from j are a table followed by
// what qualifies its rows: "students who are older than 20", "the maker
// with full name X", "students of Virginia" — the agent of a verb, not a
// grouping.
func qualifiedAgent(items []item, j int) bool {
	for j < len(items) && items[j].kind == itStop {
		j++
	}
	if j >= len(items) || items[j].kind != itTerm || len(only(items[j].senses, sEntity)) == 0 {
		return false
	}
	for j++; j < len(items); j++ {
		switch it := items[j]; it.kind {
		case itStop:
			continue
		case itKw:
			switch it.kw {
			case "with", "agegt", "agelt", "gt", "lt":
				return true
			}
		case itTerm:
			return len(only(it.senses, sValue)) == len(it.senses)
		}
		return false
	}
	return false
}

// pronounBefore reports whether the verb at i follows a pronoun that
// stands for a table named earlier ("they", "it"), with an auxiliary
// between or not ("they have conducted").
func pronounBefore(items []item, i int) bool {
	for j := i - 1; j >= 0 && items[j].kind == itStop; j-- {
		switch items[j].text {
		case "they", "it", "he", "she":
			return true
		case "have", "has", "had", "do", "does", "did", "are", "is", "was", "were":
			continue
		}
		return false
	}
	return false
}

// sideEntities are the tables named by the nearest known term before
// (dir -1) or after (dir 1) item i: its own, a column's, a value's or a
// measure's.
func (p *Planner) sideEntities(items []item, i, dir int) []string {
	for j := i + dir; j >= 0 && j < len(items); j += dir {
		it := items[j]
		switch it.kind {
		case itStop, itKw, itNum, itDate:
			continue
		case itTerm:
		default:
			return nil
		}
		var out []string
		for _, s := range strongest(it.senses) {
			e := s.entity
			switch s.kind {
			case sEntity:
				e = s.name
			case sMetric:
				e = p.metricTable(s.name)
			}
			if e != "" && !containsFold(out, e) {
				out = append(out, e)
			}
		}
		return out
	}
	return nil
}

// metricTable is the entity a defined metric counts over.
func (p *Planner) metricTable(name string) string {
	for _, m := range p.m.Metrics {
		if strings.EqualFold(m.Name, name) {
			return m.Entity
		}
	}
	return ""
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// pathStep is one join of a path between two tables.
type pathStep struct {
	from, to string
	rel      *semantic.Relationship
}

// linkPaths are the paths of at most maxLinkJoins joins from a to b that
// visit no table twice. One path that a verb the knowledge lists does
// not run through (and that is not a generic verb) is none.
func (p *Planner) linkPaths(a, b, verb string, generic bool) [][]pathStep {
	var all [][]pathStep
	var walk func(at string, seen map[string]bool, path []pathStep)
	walk = func(at string, seen map[string]bool, path []pathStep) {
		if strings.EqualFold(at, b) {
			all = append(all, append([]pathStep(nil), path...))
			return
		}
		if len(path) == maxLinkJoins {
			return
		}
		for k := range p.m.Relationships {
			r := &p.m.Relationships[k]
			next := ""
			switch {
			case strings.EqualFold(r.From, at):
				next = r.To
			case strings.EqualFold(r.To, at):
				next = r.From
			default:
				continue
			}
			// A role is its table under another name: a path through
			// both visits the table twice ("director", then staff).
			key := lower(next)
			if ro := p.roleOfEntity(next); ro != nil {
				key = lower(ro.Of)
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			walk(next, seen, append(path, pathStep{from: at, to: next, rel: r}))
			delete(seen, key)
		}
	}
	start := lower(a)
	if ro := p.roleOfEntity(a); ro != nil {
		start = lower(ro.Of)
	}
	walk(a, map[string]bool{start: true}, nil)
	if len(all) == 1 && !generic && !p.pathHasVerb(all[0], verb) {
		return nil // a listed verb of another link
	}
	return all
}

func (p *Planner) pathHasVerb(path []pathStep, verb string) bool {
	for _, s := range path {
		if slices.Contains(p.relVerbs[s.rel], verb) {
			return true
		}
	}
	return false
}

// madePeriod is the question's one period as conditions on the date of
// the one table named right after a verb of making read as a link, where
// the period is said after that table ("customers who submitted a ticket
// this year": the tickets' created_at this year). The verb says the
// rows were made, so the period is of their making, by the date the
// table is dated by; false where the table has none, or the period
// comes before the verb ("customers who joined this year and submitted
// a ticket": whose?), or there is more than one period or table.
func (b *builder) madePeriod(q *semantic.Query) ([]semantic.Filter, bool) {
	st := b.st
	if q.TimeRange == nil || len(q.Compare) > 0 || len(st.some) != 1 || len(st.someMade) != 1 || len(st.linkedNone)+len(st.linkCounts) > 0 || len(st.datePos) != 1 || st.datePos[0] < st.someMade[0] {
		return nil, false
	}
	e := b.p.entity(st.some[0])
	if e == nil || e.TimeColumn == "" || q.TimeRange.Field != "" && !strings.EqualFold(q.TimeRange.Field, e.Name+"."+e.TimeColumn) {
		return nil, false
	}
	c := e.Column(e.TimeColumn)
	if c == nil || c.TimeRole == semantic.TimeRoleEnd || c.TimeRole == semantic.TimeRoleBirth {
		return nil, false
	}
	field := e.Name + "." + e.TimeColumn
	var out []semantic.Filter
	if q.TimeRange.From != "" {
		out = append(out, semantic.Filter{Field: field, Op: semantic.OpGe, Values: []any{q.TimeRange.From}})
	}
	if q.TimeRange.To != "" {
		out = append(out, semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{q.TimeRange.To}})
	}
	return out, len(out) > 0
}

// pathText is a path as an option of a question: "dogs.owner_id →
// owners, then …".
func pathText(path []pathStep) string {
	var parts []string
	for _, s := range path {
		r := s.rel
		parts = append(parts, fmt.Sprintf("%s.%s = %s.%s", r.From, r.FromColumn, r.To, r.ToColumn))
	}
	return "through " + strings.Join(parts, ", then ")
}

// linkText is how the plan says it read a verb.
func linkText(it item) string {
	return fmt.Sprintf("read %q as the link from %s to %s", it.text, display(it.link.from), display(it.link.to))
}

// withSome adds the existence filters of the tables named right after a
// verb read as a link ("dogs that went through a treatment"): the
// subject's rows that have a row of that table (none, after a negation:
// linkedNone), joined directly or through the one table that links them
// (what the compiler can say with EXISTS). Conditions of the query on that
// table's own columns are conditions on those rows; anything else that
// reads them (a column, a group, an order) is refused, and so is a
// period: quarry cannot tell whose date it is.
func (b *builder) withSome(pl *Plan) *Plan {
	if len(b.st.some)+len(b.st.linkedNone)+len(b.st.linkCounts) == 0 || pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	subject := ""
	if q := pl.Query; q.Rows != nil {
		subject = q.Rows.Entity
	} else if len(q.Metrics) > 0 {
		subject = b.p.metricEntity(q.Metrics[0], b.adhoc)
	}
	q := pl.Query
	if b.st.supLinked {
		return b.fail(fmt.Sprintf("quarry cannot yet rank the rows the %s are linked to; ask for the %s with a condition on them instead", display(subject), display(subject)))
	}
	madeIn := ""
	if tr, ok := b.madePeriod(q); ok {
		// "customers who submitted a ticket this year": the tickets made
		// this year, by their own date (found from outside: refused).
		c := *q
		c.TimeRange, c.Filters = nil, append(slices.Clone(q.Filters), tr...)
		pl.Query, q = &c, &c
		madeIn = strings.Join(b.title, ", ")
		title := strings.Replace(pl.Title, ", "+madeIn, "", 1)
		if title == pl.Title {
			title = strings.TrimSpace(strings.Replace(pl.Title, madeIn, "", 1)) // "Customersthis year (2026)" of a list
		}
		pl.Title, pl.Period = title, ""
	}
	if q.TimeRange != nil || len(q.Compare) > 0 {
		return b.fail("quarry cannot yet tell whether the period is of the rows asked about or of the rows they are linked to; ask without the period")
	}
	linked := append(append([]string(nil), b.st.some...), b.st.linkedNone...)
	for _, c := range b.st.linkCounts {
		linked = append(linked, c.entity)
	}
	for k, ent := range linked {
		op, with := semantic.OpSome, "with"
		var count *linkCount
		switch {
		case k >= len(b.st.some)+len(b.st.linkedNone):
			count = &b.st.linkCounts[k-len(b.st.some)-len(b.st.linkedNone)]
			op, with = semantic.Op(count.op), fmt.Sprintf("with %s %s", count.op, numText(count.num))
		case k >= len(b.st.some):
			op, with = semantic.OpNone, "without"
		}
		if subject == "" || strings.EqualFold(subject, ent) {
			return b.fail(fmt.Sprintf("quarry could not tell which rows must have %s", display(ent)))
		}
		if ro := b.p.roleOfEntity(b.st.linkRole); ro != nil && strings.EqualFold(ro.Of, ent) && strings.EqualFold(ro.From, subject) {
			// "flights that departed from airports": the link the verb
			// names, the origin airport's.
			ent = b.st.linkRole
		}
		if !b.p.linked(subject, ent) {
			return b.fail(fmt.Sprintf("quarry can tell which %s have %s only when %s refer to %s directly or through one table that links them", display(subject), display(ent), display(ent), display(subject)))
		}
		var where, keep []semantic.Filter
		for _, f := range q.Filters {
			if e, _, ok := strings.Cut(f.Field, "."); ok && strings.EqualFold(e, ent) && !f.OnRelated() {
				where = append(where, f)
			} else {
				keep = append(keep, f)
			}
		}
		if what := readsEntity(q, pl.AdHoc, ent); what != "" {
			return b.fail(fmt.Sprintf("%s of %s are read beside the %s that have them, which would repeat the %s; quarry does not guess how to combine them", what, display(ent), display(subject), display(subject)))
		}
		if pl := b.eachOrAny(where); pl != nil {
			return pl
		}
		if op == semantic.OpSome && containsFold(b.st.bothOf, ent) {
			// "sellers with listings in both books and toys": a row of
			// each value, said already (bothOfSome).
			if len(where) > 0 {
				return b.fail(fmt.Sprintf("quarry cannot yet tell which of the %s rows of each value %s is said of; ask for each", display(ent), whereText(where)))
			}
			continue
		}
		if op == semantic.OpNone && b.columnOfRows(subject) {
			// "which countries' channels are not playing any cartoon by
			// X": the countries of channels that play none, or the
			// countries none of whose channels play one?
			return b.fail(fmt.Sprintf("quarry could not tell whether the question asks for the %s that have no such %s, or for values none of whose %s have one; ask for the %s", display(subject), display(ent), display(subject), display(subject)))
		}
		f := semantic.Filter{Field: ent, Op: op, Where: where}
		if count != nil {
			// Counted per row, through the linking table too; a row with
			// none counts 0.
			f.Count, f.Values = true, []any{fmtNum(count.num)}
		}
		q.Filters = append(keep, f)
		pl.Understood = dropFilterLines(pl.Understood, where)
		rows := "a " + ent + " row"
		if count != nil {
			rows = ent + " rows"
		}
		if len(where) > 0 {
			pl.Understood = append(pl.Understood, fmt.Sprintf("only %s %s %s where %s", subject, with, rows, whereText(where)))
		} else {
			pl.Understood = append(pl.Understood, fmt.Sprintf("only %s %s %s", subject, with, rows))
		}
		switch {
		case count != nil:
			pl.Title += " with " + filterTitle(semantic.Filter{Field: display(ent), Op: op, Values: f.Values})
		case op == semantic.OpSome && madeIn != "":
			pl.Title += " with " + display(ent) + " " + inLabel(madeIn)
		case op == semantic.OpSome:
			pl.Title += " with " + display(ent)
		default:
			pl.Title += " with no " + display(ent)
		}
	}
	return pl
}

// columnOfRows reports whether a column of the subject is named right
// before the subject ("countries' tv channels"): the values asked for.
func (b *builder) columnOfRows(subject string) bool {
	for _, t := range b.st.terms {
		c := t.cands[0]
		if c.kind != sColumn || c.key || !strings.EqualFold(c.entity, subject) {
			continue
		}
		if e := b.p.entity(subject); e != nil && strings.EqualFold(b.p.label(e), c.column) {
			continue // "the names of channels": the rows themselves
		}
		for _, u := range b.st.terms {
			if u.pos == t.pos+1 && u.cands[0].kind == sEntity && strings.EqualFold(u.cands[0].name, subject) {
				return true
			}
		}
	}
	return false
}

// eachOrAny refuses values of one column joined by "and" among the
// conditions on linked rows ("cartoons directed by Ben Jones and Michael
// Chang"): one row with either, or a row of each? Only "or" says.
func (b *builder) eachOrAny(where []semantic.Filter) *Plan {
	low := strings.ToLower(b.st.raw)
	for _, w := range where {
		if len(w.Values) < 2 {
			continue
		}
		a := strings.Index(low, strings.ToLower(fmt.Sprint(w.Values[0])))
		c := strings.Index(low, strings.ToLower(fmt.Sprint(w.Values[1])))
		if a < 0 || c < 0 || c < a {
			return b.fail("quarry could not tell whether the linked rows need one of the values or each of them")
		}
		if between := low[a:c]; !strings.Contains(" "+between+" ", " or ") {
			return b.fail(fmt.Sprintf("quarry could not tell whether the linked rows need one of %v or each of them; say “or” for either, or ask for each on its own", w.Values))
		}
	}
	return nil
}

// dropFilterLines drops the readings of filters that became conditions
// on linked rows.
func dropFilterLines(und []string, where []semantic.Filter) []string {
	var out []string
	for _, u := range und {
		drop := false
		for _, w := range where {
			drop = drop || strings.HasPrefix(u, "filter "+w.Field+" ") || strings.HasPrefix(u, "or "+w.Field+" ")
		}
		if !drop {
			out = append(out, u)
		}
	}
	return out
}

// linkedRows reports whether entity is a table named right after a verb
// read as a link, whose rows the subject's must have.
func (b *builder) linkedRows(entity string) bool {
	for _, c := range b.st.linkCounts {
		if strings.EqualFold(c.entity, entity) {
			return true
		}
	}
	return containsFold(b.st.some, entity) || containsFold(b.st.linkedNone, entity)
}

// readsEntity names what of a query other than its filters reads columns
// of entity: "columns", "groups", "an order", "a period" or "measures";
// "" when nothing does.
func readsEntity(q *semantic.Query, adhoc []semantic.Metric, entity string) string {
	of := func(field string) bool {
		e, _, ok := strings.Cut(field, ".")
		return ok && strings.EqualFold(e, entity)
	}
	if q.Rows != nil {
		for _, c := range q.Rows.Columns {
			if of(c) {
				return "columns"
			}
		}
	}
	for _, d := range q.Dimensions {
		if of(d.Name) {
			return "groups"
		}
	}
	for _, o := range q.Order {
		if of(o.Field) {
			return "an order"
		}
	}
	if q.TimeRange != nil && of(q.TimeRange.Field) {
		return "a period"
	}
	low := strings.ToLower(entity) + "."
	for _, m := range adhoc {
		if slices.Contains(q.Metrics, m.Name) && strings.Contains(strings.ToLower(m.Expr), low) {
			return "measures"
		}
	}
	return ""
}
