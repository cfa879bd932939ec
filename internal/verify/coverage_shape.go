package verify

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// The shape a question asks for: groupings, breakdowns, one figure or a
// table, the grain, the direction of a ranking (Coverage).

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
		if by := c.nameBesideKey(d); by != "" {
			ok = append(ok, "by "+d.Name+", which names each "+by+" beside its key")
			continue
		}
		if c.asksFor(d) {
			ok = append(ok, "by "+d.Name)
		} else {
			bad = append(bad, "the query groups by "+d.Name+", which the question does not ask for")
		}
		if d.Grain != "" && !strings.Contains(d.Name, ".") && c.m.Dimension(d.Name) == nil {
			if other := c.otherDateBefore(string(d.Grain)); other != "" {
				// "tickets by customer signup year": the year of the
				// signup, not of the ticket.
				bad = append(bad, fmt.Sprintf("the question asks for the %s of %s, but the query groups by the %s of the measure's own date", d.Grain, other, d.Grain))
			}
		}
		if d.Grain == "" && c.rawDate(d.Name) && !c.has("date") && !c.has("dates") && !c.has("day") && !c.has("days") && !c.has("daily") && !c.has("time") {
			// "units sold by launch year" grouped by each launch date, and
			// "orders by channel placed in 2025" by each order's day.
			bad = append(bad, "the query groups by each value of "+d.Name+", a date, which the question does not ask for")
		}
		if ent, key, isCol := strings.Cut(d.Name, "."); isCol {
			if e := c.m.Entity(ent); e != nil && strings.EqualFold(e.PrimaryKey, key) {
				for _, name := range c.q.Metrics {
					if mt := c.m.Metric(name); mt != nil && strings.EqualFold(mt.Entity, ent) && countsRows(mt.Expr) {
						// "customers by signup year" counted each customer on
						// a row of its own: every count is 1.
						bad = append(bad, fmt.Sprintf("the query counts %s within each %s row, so every count is 1", ent, ent))
					}
				}
			}
		}
	}
	if m := c.weekMissing(); m != "" {
		bad = append(bad, m)
	}
	dims := slices.Clone(c.m.Dimensions)
	// The columns of the knowledge too ("each country": singer.Country),
	// as dimensions over themselves.
	for _, e := range c.m.Entities {
		for _, col := range e.Columns {
			if col.Type.IsNumeric() || col.Temporal() || strings.EqualFold(col.Name, e.PrimaryKey) {
				continue
			}
			if !c.mayNameOf(e.Name, ".", col.Name) && !c.maySplitName(col.Name) && !slices.ContainsFunc(col.Synonyms, c.mayName) {
				continue // a schema of ten thousand tables: most columns are not in the question
			}
			name := strings.Join(splitName(col.Name), " ")
			dims = append(dims, semantic.Dimension{Name: e.Name + "." + col.Name, Entity: e.Name, Expr: e.Name + "." + col.Name, Synonyms: append([]string{name}, col.Synonyms...)})
		}
		// The entity itself ("in each stadium"), grouped by its key or
		// label.
		key := e.Label
		if key == "" {
			key = e.PrimaryKey
		}
		if key != "" {
			// singularOf only shortens a name, and lower-casing keeps an
			// ASCII one's length: a name the question cannot hold
			// split cannot be held singular either.
			if !c.mayNameOf(e.Name, ".", key) && !c.maySplitName(e.Name) && !c.maySingular(e.Name) && !slices.ContainsFunc(e.Synonyms, c.mayName) {
				continue
			}
			names := []string{strings.ToLower(Singular(strings.Join(splitName(e.Name), " ")))}
			if !c.mayNameOf(e.Name, ".", key) && !c.mayName(names[0]) && !slices.ContainsFunc(e.Synonyms, c.mayName) {
				continue
			}
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
			if c.measuresNamed(p) {
				continue // "top 10 customers by orders": ranked by the orders measure
			}
			asked, request := false, false
			for i, lead := range groupLeads {
				if lead == "by" && c.madeBy(p) {
					continue // "orders placed by customers in Berlin": whose
				}
				if lead == "per" && (c.averagedOver(d.Entity) || c.averageOfRows(d.Entity)) {
					continue // "average revenue per customer": divided by their number
				}
				if lead == "across" && c.measuresOwn(d.Entity) {
					continue // "total seats across aircraft": over their own rows
				}
				if i >= firstRequestLead && c.leadNamed(lead, p) {
					// "rentals by return branch": a return branch, not a
					// request to return the branches (found from outside:
					// refused as not grouped by branch).
					continue
				}
				if c.has(lead+" "+p) || c.has(lead+" "+p+"s") || strings.HasSuffix(p, "y") && c.has(lead+" "+strings.TrimSuffix(p, "y")+"ies") {
					asked, request = true, request || i >= firstRequestLead
				}
				if lead == "which" && c.oneWordBetween(lead, p) {
					// "which discontinued products sold this year": the
					// products, one word qualifying them (found from
					// outside: one total for a list).
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
				if c.ownerOf(d.Entity, p, qd) {
					grouped = true // "revenue by account plan": the plan of each account
				}
				// "what is the name of the breed …" asks for a name, which
				// breeds.breed_name is.
				if request && strings.Contains(" "+strings.ReplaceAll(strings.ToLower(qd.Name), "_", " ")+" ", " "+p+" ") {
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

// measuresOwn reports whether every measure of the query is of entity's
// own rows.
func (c *cover) measuresOwn(entity string) bool {
	if entity == "" || len(c.q.Metrics) == 0 {
		return false
	}
	for _, n := range c.q.Metrics {
		mt := c.m.Metric(n)
		if mt == nil || !strings.EqualFold(mt.Entity, entity) {
			return false
		}
	}
	return true
}

// oneWordBetween reports whether the question says lead, one word, then
// p (or its plural): "which discontinued products".
func (c *cover) oneWordBetween(lead, p string) bool {
	ws := strings.Fields(c.text)
	ps := strings.Fields(p)
	for i := 0; i+2+len(ps) <= len(ws); i++ {
		if ws[i] != lead {
			continue
		}
		rest := strings.Join(ws[i+2:i+2+len(ps)], " ")
		if rest == p || rest == p+"s" || strings.HasSuffix(p, "y") && rest == strings.TrimSuffix(p, "y")+"ies" {
			return true
		}
	}
	return false
}

// groupLeads are the words before a name that ask for a value of it per
// group: "by channel", "which category", and the requests that name what
// to show, "list all document ids …", "show the names of singers …",
// "what is the record company used by the most orchestras".
var groupLeads = []string{"by", "per", "each", "every", "which", "across",
	// from here on, requests (firstRequestLead)
	"list", "list all", "list the", "list all the", "show", "show the", "show all", "show all the",
	"return", "return the", "return all", "find", "find the", "find all", "find all the",
	"give", "give the", "give me the", "what is the", "what are the", "what are all the", "name the"}

// whoRE asks for people by name.
var whoRE = lazyRE(`^ (who|whom|who's|who’s|whos|who're|which employees?|which customers?) `)

// who: "who works in Finance" asks for names; a count, or a list without
// the rows' names ("who was hired most recently" answered with a date),
// answers another question.
func (c *cover) who() (ok, bad []string) {
	if !whoRE().MatchString(c.text) {
		return nil, nil
	}
	if r := c.q.Rows; r != nil {
		e := c.m.Entity(r.Entity)
		if e != nil && e.Label == "" {
			// "who ordered in 2025" listed the orders' ids.
			return nil, []string{fmt.Sprintf("\"who\" asks for names, but the query lists %s, which have none", r.Entity)}
		}
		if e != nil && e.Label != "" && slices.ContainsFunc(c.q.Filters, func(f semantic.Filter) bool {
			fd, ok := c.m.ColumnField(f.Field)
			return ok && (f.Op == semantic.OpEq || f.Op == semantic.OpIn) && strings.EqualFold(fd.Entity.Name, e.Name) && strings.EqualFold(fd.Column.Name, e.Label)
		}) {
			// "who works at Rive Gauche Paris" listed the hotel named
			// (found from outside: "works" was not known).
			return nil, []string{fmt.Sprintf("%q asks for names, but the query lists the %s the question names itself", "who", r.Entity)}
		}
		if e == nil || len(r.Columns) == 0 {
			return []string{"who: " + r.Entity}, nil
		}
		for _, col := range r.Columns {
			if strings.EqualFold(strings.TrimPrefix(col, e.Name+"."), e.Label) {
				return []string{"who: " + r.Entity}, nil
			}
		}
		return nil, []string{fmt.Sprintf("\"who\" asks for names, but the query lists %s without %s.%s", strings.Join(r.Columns, ", "), e.Name, e.Label)}
	}
	if len(c.q.Dimensions) == 0 {
		return nil, []string{"\"who\" asks for names, but the query computes one figure"}
	}
	return nil, nil
}

// perEntity: "revenue per customer" is, to most who ask it, the average
// per customer; quarry gives each customer's revenue only when the
// question says so ("by customer", "for each customer", "top 10
// customers").
func (c *cover) perEntity() (ok, bad []string) {
	for _, d := range c.q.Dimensions {
		ent, _, isCol := strings.Cut(d.Name, ".")
		e := c.m.Entity(ent)
		if !isCol || e == nil {
			continue
		}
		for _, n := range append([]string{e.Name}, e.Synonyms...) {
			p := Singular(strings.ToLower(strings.ReplaceAll(n, "_", " ")))
			if !c.has("per " + p) {
				continue
			}
			if c.has("by "+p) || c.has("each "+p) || c.has("every "+p) || breakdownOther().MatchString(c.text) {
				continue
			}
			if c.countPer(e) || c.averagesPer(e) {
				continue
			}
			return nil, []string{fmt.Sprintf("\"per %s\" may mean the average per %s, but the query gives each %s's figure; ask for the average per %s, or for the figure by %s", p, p, p, p, p)}
		}
	}
	return nil, nil
}

// perOther: "average donation per individual donor" is each donor's
// total averaged over the donors; an average of the donations (one
// figure, or groups of anything but the donors) answers another question.
// A few words may stand between "per" and the table (a value of its:
// "individual"), which is how the words came to be read as a filter.
func (c *cover) perOther() (ok, bad []string) {
	avgOf := map[string]bool{}
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil && mt.Entity != "" && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "AVG(") {
			avgOf[strings.ToLower(mt.Entity)] = true
		}
	}
	if len(avgOf) == 0 || !c.has("per") {
		return nil, nil
	}
	words := strings.Fields(c.text)
	for i, w := range words {
		if w != "per" {
			continue
		}
		for j := i + 1; j < len(words) && j <= i+3; j++ {
			e := ""
			if j+1 < len(words) {
				// "per room kind": the table of kinds, not the rooms.
				if e = c.entityOfWord(strings.Trim(words[j], ",.?!;:") + " " + strings.Trim(words[j+1], ",.?!;:")); e != "" {
					j++
				}
			}
			if e == "" {
				e = c.entityOfWord(strings.Trim(words[j], ",.?!;:"))
			}
			if e == "" {
				continue
			}
			if avgOf[strings.ToLower(e)] || c.groupsBy(e) {
				break
			}
			p := Singular(words[j])
			return nil, []string{fmt.Sprintf("\"per %s\" asks for each %s's total averaged over the %ss, but the query averages single rows of another table; ask for the total by %s", strings.Join(words[i+1:j+1], " "), p, p, p)}
		}
	}
	return nil, nil
}

// averagesPer reports whether the question asks for an average per the
// rows of e, a table of a few rows (100 at most, as countPer), and every
// measure of the query is an average of single rows: "average rating per
// room kind" is each kind's average rating, which the query gives (found
// from outside: asked back). "Revenue per customer", a total, may be its
// average over the customers, and "average donation per donor", over
// thousands, each donor's total averaged: both still asked.
func (c *cover) averagesPer(e *semantic.Entity) bool {
	if e.RowCount <= 0 || e.RowCount > 100 || !c.has("average") && !c.has("avg") && !c.has("mean") || len(c.q.Metrics) == 0 {
		return false
	}
	for _, name := range c.q.Metrics {
		mt := c.m.Metric(name)
		if mt == nil || !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "AVG(") {
			return false
		}
	}
	return true
}

// groupsBy reports whether the query groups by a column of e.
func (c *cover) groupsBy(e string) bool {
	for _, d := range c.q.Dimensions {
		ent, _, isCol := strings.Cut(d.Name, ".")
		if dim := c.m.Dimension(d.Name); !isCol && dim != nil {
			ent = dim.Entity
		}
		if strings.EqualFold(ent, e) {
			return true
		}
	}
	return false
}

// countPer reports whether the question asks for a count "per" the rows
// of e, a table of a few rows (100 at most, as the knowledge records):
// "number of subscriptions per plan" reads as a row for each plan (found
// from outside: refused); "how many orders per customer", over thousands,
// as an average, and so does any question that says average.
func (c *cover) countPer(e *semantic.Entity) bool {
	if e.RowCount <= 0 || e.RowCount > 100 || !countAsked().MatchString(c.text) || c.has("average") || c.has("avg") || c.has("mean") {
		return false
	}
	for _, n := range append([]string{e.Name}, e.Synonyms...) {
		if c.has("per " + Singular(strings.ToLower(strings.ReplaceAll(n, "_", " ")))) {
			return true
		}
	}
	return false
}

// countPerDims reports whether the query groups by the rows of a table
// the question counts "per" (countPer).
func (c *cover) countPerDims() bool {
	for _, d := range c.q.Dimensions {
		ent, _, ok := strings.Cut(d.Name, ".")
		if dim := c.m.Dimension(d.Name); !ok && dim != nil {
			ent = dim.Entity // "plan": a dimension over plans
		}
		if e := c.m.Entity(ent); e != nil && d.Grain == "" && c.countPer(e) {
			return true
		}
	}
	return false
}

// countAsked opens a question that asks for a count.
var countAsked = lazyRE(`^ (the )?(number of|count of|how many) `)

// breakdownOther are the words that ask for a row per entity outright.
var breakdownOther = lazyRE(` (top|bottom|list|show|which|each|every|rank|ranking|most|least|highest|lowest) `)

// makingVerbs say a row was made; "by" after one names who made it.
var makingVerbs = []string{"placed", "opened", "made", "created", "submitted", "filed", "raised", "bought", "purchased", "logged"}

// madeBy reports whether "by <phrase>" follows a verb of making ("orders
// placed by customers in Berlin", "tickets opened last month by customers
// in Germany"): whose, not a grouping.
func (c *cover) madeBy(phrase string) bool {
	i := strings.Index(c.text, " by "+phrase)
	if i < 0 {
		return false
	}
	// … and qualified: "by customers in Berlin", "by customers who …", "by
	// business customers"; "orders placed by customer" groups.
	rest := c.text[i+len(" by "+phrase):]
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, "s "), " ")
	qualified := false
	for _, w := range []string{"in ", "from ", "who ", "that ", "with ", "based "} {
		qualified = qualified || strings.HasPrefix(rest, w)
	}
	if !qualified {
		return false
	}
	for _, v := range makingVerbs {
		if strings.Contains(c.text[:i+1], " "+v+" ") {
			return true
		}
	}
	// "revenue generated by customers who joined": any participle right
	// before "by", as the planner reads it (byWhom).
	before := strings.Fields(c.text[:i])
	return len(before) > 0 && participle(before[len(before)-1]) || c.oneNumberWhose(strings.Fields(c.text[i+len(" by "):]))
}

// oneNumberWhose reports whether, in a question asking for one number,
// the words after "by" are a table and a clause ("how many orders by
// customers who signed up in 2025"): whose rows, not a grouping, as the
// planner reads it (byWhom).
func (c *cover) oneNumberWhose(rest []string) bool {
	if len(rest) < 2 || !oneNumberRE().MatchString(c.text) || !c.isEntityWord(rest[0]) {
		return false
	}
	switch rest[1] {
	case "who", "that", "which":
		return true
	}
	return false
}

// measuresNamed reports whether phrase (or its plural) names a metric the
// query measures.
func (c *cover) measuresNamed(phrase string) bool {
	for _, name := range c.q.Metrics {
		mt := c.m.Metric(name)
		if mt == nil {
			continue
		}
		names := append([]string{mt.Name}, mt.Synonyms...)
		if countsRows(mt.Expr) && mt.Entity != "" {
			// "top 3 courses by enrollments": the count of the
			// enrollments rows, an ad-hoc measure named count_enrollments
			// (found from outside: refused as a grouping by enrollment).
			names = append(names, mt.Entity)
		}
		for _, n := range names {
			n = strings.ToLower(strings.ReplaceAll(n, "_", " "))
			if n == phrase || n == phrase+"s" || Singular(n) == phrase {
				return true
			}
		}
	}
	return false
}

// firstRequestLead is the index in groupLeads of the first request to show.
const firstRequestLead = 6

// leadNamed reports whether a request word is said with phrase after a
// word that makes it a name's first word: "by return branch", "per show
// date".
func (c *cover) leadNamed(lead, phrase string) bool {
	for _, prep := range []string{"by", "per", "each", "every", "of", "the", "for", "at", "from", "to", "in", "on"} {
		if c.has(prep + " " + lead + " " + phrase) {
			return true
		}
	}
	return false
}

// startsName reports whether phrase begins a candidate the question
// names whole: "which template type code" groups by template_type_code,
// "template" being the first word of its name.
func (c *cover) startsName(phrase string, cands []string) bool {
	for _, cand := range cands {
		// "by room kind" names room_kinds, not rooms (found from outside:
		// refused as leaving the rooms out).
		if strings.HasPrefix(cand, phrase+" ") && (c.has(cand) || c.hasWords(cand) || c.has(Singular(cand))) {
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
		// "pets owned by students older than 20": the pets that have
		// such a student filter on the students, and do not group.
		if f.OnRelated() && d.Entity != "" && strings.EqualFold(f.Field, d.Entity) {
			return true
		}
	}
	return false
}

// asksFor reports whether the question asks for grouping d: by its name,
// a synonym, its column's or entity's name, or, for a time grain, a word
// of time.
func (c *cover) asksFor(d semantic.DimRef) bool {
	switch d.Grain {
	case semantic.GrainDayOfWeek:
		return c.asksDayOfWeek()
	case semantic.GrainPartOfWeek:
		return c.asksPartOfWeek()
	}
	if d.Grain != "" {
		if c.has(string(d.Grain)) || c.has(string(d.Grain)+"s") {
			return true
		}
		for phrase, g := range grainWords {
			if g == d.Grain && c.has(phrase) {
				return true
			}
		}
		for _, w := range []string{"trend", "trends", "trending", "over time", "timeline", "evolution", "history", "per period", "trajectory", "time series"} {
			if c.has(w) {
				return true
			}
		}
		return false
	}
	if c.whoDoes(d) || c.rowsOfValue(d) {
		return true
	}
	for _, p := range c.candidates(d) {
		if c.has(p) || c.has(strings.TrimSuffix(p, "s")) || c.has(Singular(p)) || c.has(p+"s") || c.has(strings.TrimSuffix(p, "ies")+"y") || (strings.HasSuffix(p, "y") && c.has(strings.TrimSuffix(p, "y")+"ies")) || c.hasWords(p) {
			return true
		}
	}
	return c.comparesValues(d.Name)
}

// whoDoes reports whether "who <verb> …" asks for the rows of the table
// that d is the key or the label of: a relationship from a measure's rows
// to that table has a column whose description or synonyms say the verb
// ("who handled the most tickets": support_tickets.assignee_id, "The
// employee handling the ticket").
func (c *cover) whoDoes(d semantic.DimRef) bool {
	if len(c.words) < 2 || c.words[0] != "who" || len(c.words[1]) < 4 || d.Grain != "" {
		return false
	}
	ent, col, ok := strings.Cut(d.Name, ".")
	e := c.m.Entity(ent)
	if !ok || e == nil || !strings.EqualFold(col, e.PrimaryKey) && !strings.EqualFold(col, e.Label) {
		return false
	}
	verb := c.words[1][:4]
	for _, r := range c.m.Relationships {
		if !strings.EqualFold(r.To, e.Name) || strings.EqualFold(r.From, r.To) || !c.measuresOver(r.From) {
			continue
		}
		from := c.m.Entity(r.From)
		if from == nil {
			continue
		}
		fc := from.Column(r.FromColumn)
		if fc == nil {
			continue
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(fc.Description+" "+strings.Join(fc.Synonyms, " ")), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if len(w) >= 4 && w[:4] == verb {
				return true
			}
		}
	}
	return false
}

// measuresOver reports whether a metric of the query is over entity's rows.
func (c *cover) measuresOver(entity string) bool {
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil && strings.EqualFold(mt.Entity, entity) {
			return true
		}
	}
	return false
}

// comparesValues reports whether the question sets two values of a
// grouping's column against each other ("web vs store", "Germany
// compared to France"), which asks for a row for each, and the query
// keeps only those values. "France and Spain" asks for one total.
func (c *cover) comparesValues(dim string) bool {
	known := knownValues(c.m, dim)
	var kept []string
	for _, f := range c.q.Filters {
		if (f.Op == semantic.OpIn || f.Op == semantic.OpEq) && (strings.EqualFold(f.Field, dim) || sameField(c.m, f.Field, dim)) {
			for _, v := range f.Values {
				kept = append(kept, strings.ToLower(fmt.Sprint(v)))
			}
		}
	}
	if len(kept) < 2 {
		return false
	}
	// Each value as the question says it: itself or its plural
	// ("consumers vs businesses").
	said := map[string]string{}
	for _, v := range kept {
		if !containsFold(known, v) {
			return false
		}
		for _, f := range []string{v, v + "s", v + "es"} {
			if c.has(f) {
				said[v] = f
				break
			}
		}
		if said[v] == "" {
			return false
		}
	}
	// Not "and" or "or": "revenue from France and Spain" is one total.
	// Up to two words may follow each value ("business customers vs
	// consumers", "urgent tickets vs low").
	for _, a := range kept {
		for _, b := range kept {
			if a == b {
				continue
			}
			re, err := regexp.Compile(` ` + regexp.QuoteMeta(said[a]) + `( [a-z]+){0,2} (vs\.?|versus|compared to|compared with|against)( [a-z]+){0,2} ` + regexp.QuoteMeta(said[b]) + ` `)
			if err == nil && re.MatchString(c.text) {
				return true
			}
		}
	}
	return false
}

// sameField reports whether two names of fields resolve to the same
// column ("channel" and "orders.channel").
func sameField(m *semantic.Model, a, b string) bool {
	expr := func(f string) string {
		if d := m.Dimension(f); d != nil {
			return strings.ToLower(d.Expr)
		}
		return strings.ToLower(f)
	}
	return expr(a) == expr(b)
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
		// "maintenance cost by kind": maintenance_kinds, its last word
		// in the singular (found from outside: refused as a grouping not
		// asked for).
		if !c.has(w) && !c.has(w+"s") && !c.has(w+"es") && !c.has(Singular(w)) && !(strings.HasSuffix(w, "y") && c.has(strings.TrimSuffix(w, "y")+"ies")) {
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
					// "which plan": membership_plans by its plan_name, the
					// label's own word (found from outside on a learned
					// database).
					if w := splitName(col); len(w) == 2 && (w[1] == "name" || w[1] == "id") && len(w[0]) > 2 {
						cands = append(cands, w[0])
					}
					// "productions by kind": the name of a link to the
					// table (productions.kind_id, named kind, to
					// show_kinds) names it as well (found from outside:
					// refused, the grouping read as not asked for).
					for _, r := range c.m.Relationships {
						if strings.EqualFold(r.To, e.Name) && !strings.EqualFold(r.From, r.To) && len(r.Name) > 2 {
							cands = append(cands, r.Name)
						}
					}
				} else if w := splitName(col); len(w) >= 2 && len(w[0]) >= 3 && strings.HasPrefix(strings.ToLower(strings.ReplaceAll(e.Name, "_", "")), w[0]) {
					// "installations by status": inst_status, named by
					// a short form of its table (found from outside).
					cands = append(cands, strings.Join(w[1:], " "))
				}
				if w := splitName(col); len(w) == 2 && (w[1] == "code" || w[1] == "iso") && len(w[0]) > 2 {
					// "customers by country": country_code, the code
					// of a thing no table of its own holds.
					cands = append(cands, w[0])
				}
				if w := splitName(col); len(w) == 2 && w[1] == "name" && len(w[0]) > 2 && !strings.EqualFold(col, e.Label) && !strings.EqualFold(col, e.PrimaryKey) {
					// "top 3 drugs": prescriptions.drug_name, the name of
					// a thing no table of its own holds (found from
					// outside).
					cands = append(cands, w[0])
				}
			}
		}
		for _, cand := range cands {
			ws := splitName(cand)
			if p := strings.Join(ws, " "); p != "" {
				out = append(out, p)
			}
			if long, ok := semantic.WrittenOut(ws); ok {
				out = append(out, strings.Join(long, " ")) // appt type: "appointment type"
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
	// "best and worst", "top and bottom": both ends, which one ranking
	// cut by a limit does not give, nor a sorted list without its figure.
	if len(c.q.Order) > 0 && (c.q.Limit > 0 || len(c.q.Hidden) > 0) {
		for _, h := range highWords {
			for _, l := range lowWords {
				for _, join := range []string{" and ", " or ", " & ", " vs ", " versus "} {
					if c.has(h+join+l) || c.has(l+join+h) {
						return nil, []string{"\"" + strings.TrimSpace(h+join+l) + "\" asks for both ends, but the query ranks from one"}
					}
				}
			}
		}
	}
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
	// Age words set a direction by what is ranked: the oldest row has the
	// earliest date but the highest age.
	if high == "" && low == "" {
		temporal, numeric := c.orderKind()
		for _, w := range []string{"oldest", "earliest", "first"} {
			if c.has(w) && (temporal || numeric && w == "oldest") {
				if temporal {
					low = w
				} else {
					high = w
				}
			}
		}
		for _, w := range []string{"youngest", "newest", "latest", "most recent"} {
			if c.has(w) && (temporal || numeric && w == "youngest") {
				if temporal {
					high = w
				} else {
					low = w
				}
			}
		}
	}
	// "The best refund rate" is the lowest: a metric whose knowledge
	// says lower is better turns best and worst round.
	if mt := c.m.Metric(c.q.Order[0].Field); mt != nil && mt.Better == "lower" {
		switch {
		case high == "best" && low == "":
			high, low = "", "best"
		case low == "worst" && high == "":
			high, low = "worst", ""
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

// breakdown words ask for a table of groups.
var breakdownRE = lazyRE(` (by|per|each|every|across|broken down|split by|for each|breakdown|trend|over time|monthly|weekly|daily|quarterly|yearly|annually|which|what are the|list|top|bottom|most|least|highest|lowest|best|worst|cheapest|priciest|largest|smallest|biggest|newest|oldest|youngest|rank|ranking|compared?|vs|versus) `)

// breakdown reports whether the question asks for groups. In a question
// that asks for one number, "by" before the rows that did it ("orders
// placed by customers who signed up in 2025", "opened by business
// customers") says whose, not how to group.
func (c *cover) breakdown() bool {
	for _, loc := range breakdownRE().FindAllStringSubmatchIndex(c.text, -1) {
		word := c.text[loc[2]:loc[3]]
		if word != "by" && word != "per" {
			return true
		}
		rest := strings.Fields(c.text[loc[3]:])
		agent := false
		// As in asksForGroups: a table after "by" is who did it only
		// after a verb ("placed by customers"), else a grouping
		// ("number of tickets by employee").
		before := strings.Fields(c.text[:loc[2]])
		if word == "per" || len(before) > 0 && participle(before[len(before)-1]) {
			for j := 0; j < len(rest) && j < 2; j++ {
				if c.isEntityWord(rest[j]) {
					agent = true
				}
			}
			agent = agent || anyoneWord(rest)
		}
		agent = agent || word == "by" && c.oneNumberWhose(rest)
		if !agent || c.groupNamed(rest) {
			return true
		}
	}
	return false
}

// groupNamed reports whether the words after "by" name a column the
// query groups by, in its first words: "total amount received by
// payment method" groups by payments.method, though "payment" alone
// would name who received it (found from outside: refused as one figure
// asked for).
func (c *cover) groupNamed(rest []string) bool {
	for _, d := range c.q.Dimensions {
		name := d.Name
		if dim := c.m.Dimension(d.Name); dim != nil && strings.Count(dim.Expr, ".") == 1 && !strings.ContainsAny(dim.Expr, " (") {
			name = dim.Expr
		}
		_, col, ok := strings.Cut(name, ".")
		if !ok {
			continue
		}
		for _, w := range strings.Split(strings.ToLower(col), "_") {
			if len(w) > 2 && slices.Contains(rest[:min(len(rest), 3)], w) {
				return true
			}
		}
	}
	return false
}

// eachRE asks for a figure per group, whatever the groups are.
var eachRE = lazyRE(` (each|every|for each|broken down|split by|breakdown) `)

// asksForGroups reports whether the question asks for a figure per group:
// "for each", "every", "broken down", or a "by" that is not whose ("by
// channel", not "placed by customers").
func (c *cover) asksForGroups() bool {
	if eachRE().MatchString(c.text) {
		return true
	}
	have := c.filterValues()
	for _, loc := range byRE().FindAllStringIndex(c.text, -1) {
		rest := strings.Fields(c.text[loc[1]:])
		agent := false
		// "placed by customers" says who did it; "tickets by employee"
		// groups: a table after "by" is the agent only after a verb.
		before := strings.Fields(c.text[:loc[0]])
		if len(before) > 0 && participle(before[len(before)-1]) {
			for j := 0; j < len(rest) && j < 2; j++ {
				if c.isEntityWord(rest[j]) {
					agent = true
				}
			}
			agent = agent || anyoneWord(rest)
		}
		agent = agent || c.oneNumberWhose(rest)
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

var byRE = lazyRE(` by `)

// anyoneWord reports whether the words after a participle's "by" start
// with someone unnamed: "referred by someone in Germany" says who did
// it, as "placed by customers" does, not how to group.
func anyoneWord(rest []string) bool {
	return len(rest) > 0 && slices.Contains([]string{"someone", "somebody", "anyone", "anybody", "another", "others", "people"}, rest[0])
}

// participle reports whether w is a verb's past participle ("placed",
// "written", "sold"), the word before a "by" that names who did it.
func participle(w string) bool {
	if len(w) > 3 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en")) {
		return true
	}
	switch w {
	case "made", "sold", "held", "run", "led", "paid", "bought", "won", "lost", "sent", "built", "taught", "caught",
		"brought", "done", "owned", "kept", "set", "put", "read", "told", "found", "hit", "shot", "fed", "bred", "met", "dealt":
		return true
	}
	return false
}

// oneNumber words ask for a single figure.
var oneNumberRE = lazyRE(`^ (in |for |of |across )?(how many|how much|what is the total|what was the total|what's the total|total|what is our|what was our|what's our|whats our|what are our total|count|number of|sum of) `)

// totalOfTopRE asks for one figure over a ranking: "total revenue of the
// top 5 products".
var totalOfTopRE = lazyRE(`^ (?:what (?:is|was|are|were) |what's )?(?:the |our )?(total|sum|combined)\b.* (top|bottom|largest|biggest|smallest|best|worst) (\d+) `)

// shape: "how many orders in 2025" is one number; grouping it returns a
// table that answers another question.
func (c *cover) shape() (Check, bool) {
	if m := totalOfTopRE().FindStringSubmatch(c.text); m != nil && (len(c.q.Dimensions) > 0 || c.q.Rows != nil) {
		return Check{Name: CheckShape, Status: Fail, Detail: fmt.Sprintf("the question asks for the %s of the %s %s, but the query lists them one by one", m[1], m[2], m[3])}, true
	}
	if !oneNumberRE().MatchString(c.text) || c.breakdown() || len(c.q.Compare) > 0 || c.countPerDims() {
		return Check{}, false
	}
	if c.q.Rows != nil {
		return Check{Name: CheckShape, Status: Fail, Detail: "the question asks for a number, but the query lists " + c.q.Rows.Entity + " rows"}, true
	}
	if c.q.CountGroups != "" {
		return Check{Name: CheckShape, Status: Pass, Detail: "one figure asked for: the number of groups that pass the condition"}, true
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

// asksDayOfWeek reports whether the question names the day of the week
// ("by day of week", "per weekday", "which day of the week").
func (c *cover) asksDayOfWeek() bool {
	for _, w := range []string{"day of week", "day of the week", "days of the week", "days of week", "week day", "day-of-week"} {
		if c.has(w) {
			return true
		}
	}
	return c.dayOfWeekWord()
}

// grain: a grain the question names is the grain of a grouping.
func (c *cover) grain() (Check, bool) {
	var want []semantic.Grain
	dow := c.asksDayOfWeek()
	if dow {
		// "by day of week" asks for the day of the week, not for each day.
		want = append(want, semantic.GrainDayOfWeek)
	}
	for phrase, g := range grainWords {
		if c.has(phrase) && !c.inName(phrase) && !(dow && g == semantic.GrainDay) {
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
				return Check{Name: CheckGrain, Status: Pass, Detail: "grouped by " + g.Words() + ", as asked"}, true
			}
		}
		if d.Grain != "" {
			got = append(got, d.Grain.Words())
		}
	}
	what := "no time grouping"
	if len(got) > 0 {
		what = "a grouping by " + strings.Join(got, ", ")
	}
	return Check{Name: CheckGrain, Status: Fail, Detail: fmt.Sprintf("the question asks for each %s, but the query has %s", want[0].Words(), what)}, true
}

// orderKind says whether the ranking's first order is by a date or by a
// number (an age, a count).
func (c *cover) orderKind() (temporal, numeric bool) {
	f, err := c.m.ResolveField(c.q.Order[0].Field)
	if err != nil {
		return false, false
	}
	switch f.Kind {
	case semantic.FieldColumn:
		// A column of years (year_founded) is a date: the oldest row
		// has the lowest.
		years := f.Column.Type.IsNumeric() && semantic.YearsName(f.Column.Name)
		return f.Column.Temporal() || years, f.Column.Type.IsNumeric() && !years
	case semantic.FieldDimension:
		return f.Dimension.Type == "time", false
	case semantic.FieldMetric:
		return false, true
	}
	return false, false
}

// ownerOf reports whether the question names the grouping qd right
// after p, the name of a table whose rows point at qd's table, one each
// ("by account plan": the plan each account points at): p only says
// whose plan.
func (c *cover) ownerOf(entity, p string, qd semantic.DimRef) bool {
	target := dimensionEntity(c.m, qd.Name)
	if target == "" || strings.EqualFold(target, entity) {
		return false
	}
	oneEach := false
	for _, r := range c.m.Relationships {
		if strings.EqualFold(r.From, entity) && strings.EqualFold(r.To, target) && (r.Cardinality == semantic.ManyToOne || r.Cardinality == semantic.OneToOne || r.Cardinality == "") {
			oneEach = true
		}
	}
	if !oneEach {
		return false
	}
	for _, lead := range []string{"by", "per", "for each", "each"} {
		for _, cand := range c.candidates(qd) {
			if c.has(lead+" "+p+" "+cand) || c.has(lead+" "+p+" "+cand+"s") || c.has(lead+" "+p+" "+Singular(cand)) {
				return true
			}
		}
	}
	return false
}
