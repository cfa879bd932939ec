package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// peopleWord reports whether w names persons in general, no table in
// particular.
func peopleWord(w string) bool {
	switch w {
	case "people", "persons", "folks", "individuals":
		return true
	}
	return false
}

// peopleAsTable replans a question refused for a word of persons in
// general that names no table ("how many people signed up last year")
// with the one table of persons in its place (the users); nil where the
// word was read, or where no table or several hold persons (customers
// or employees?), so the question stays refused.
func (p *Planner) peopleAsTable(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || !slices.ContainsFunc(pl.Unknown, peopleWord) {
		return nil
	}
	var tables []string
	for _, e := range p.m.Entities {
		if p.ofPersons(e.Name) {
			tables = append(tables, e.Name)
		}
	}
	which := "the one table of persons"
	if len(tables) > 1 {
		which = "of the tables of persons the one whose date the verb names"
		// "how many people did we hire last year", of staff and guests:
		// the table whose own column the question's verb names
		// (staff.hired_on; found from outside: refused, though the docs
		// give the question as answered).
		tables = p.namedByColumn(question, tables)
	}
	if len(tables) != 1 {
		return nil
	}
	table := tables[0]
	var b strings.Builder
	last, word := 0, ""
	for _, t := range tokenize(question) {
		if peopleWord(t.s) {
			b.WriteString(question[last:t.start])
			b.WriteString(display(table))
			last, word = t.end, t.s
		}
	}
	b.WriteString(question[last:])
	return p.readAgain(b.String(), asOf, answered, fmt.Sprintf("%q read as %s, %s", word, display(table), which))
}

// valueOfRows replans a question refused for "value" or "size" said of a
// table's rows ("average order value", "average booking value", "the
// biggest invoice size") with the table's one amount in the word's place
// ("average booking total price"); nil where the word follows no table,
// or the table has no one amount.
func (p *Planner) valueOfRows(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || !slices.ContainsFunc(pl.Unknown, func(u string) bool { return u == "value" || u == "size" }) {
		return nil
	}
	toks := tokenize(question)
	for i := 1; i < len(toks); i++ {
		if toks[i].s != "value" && toks[i].s != "size" {
			continue
		}
		ss, _ := p.lex.get(toks[i-1].s)
		es := strongest(only(ss, sEntity))
		if len(es) != 1 {
			continue
		}
		c := p.oneAmount(es[0].name)
		if c == "" || !recordsMoney(es[0].name) {
			return nil // "customer value" is no balance
		}
		read := question[:toks[i].start] + strings.Join(nameWords(c), " ") + question[toks[i].end:]
		return p.readAgain(read, asOf, isMetric, fmt.Sprintf("%q read as %s.%s, the one amount of each of %s", join(toks[i-1:i+1]), es[0].name, c, display(es[0].name)))
	}
	return nil
}

// verbedMost replans "which guests booked the most" (refused: "booked"
// is the date of bookings, not a single row of each guest) as "which
// guests have the most bookings": the verb is the date of another
// table's rows, and the most of it is the most of those rows. The
// reading says so; "the least" and "the fewest" read alike.
func (p *Planner) verbedMost(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered {
		return nil
	}
	toks := tokenize(question)
	for i := 1; i+1 < len(toks); i++ {
		at := i + 1
		if toks[at].s == "the" && at+1 < len(toks) {
			at++
		}
		if toks[at].s != "most" && toks[at].s != "least" && toks[at].s != "fewest" {
			continue
		}
		if at+1 < len(toks) && !isPeriodStart(toks[at+1].s) {
			continue // "booked the most rooms": the most of what follows
		}
		ss, _ := p.lex.get(toks[i].s)
		table := ""
		for _, s := range ss {
			if s.kind == sColumn && s.temporal && (table == "" || table == s.entity) {
				table = s.entity
			} else if s.kind == sColumn && s.temporal {
				return nil // the date of two tables: which?
			}
		}
		if table == "" {
			continue
		}
		if c := p.oneAmount(table); c != "" && payVerb(toks[i].s) {
			// "which member paid the most": the money, not how many
			// payments (found from outside: ranked by their number, a
			// nine-way tie, with a warning of the tie alone).
			most := "highest"
			if toks[at].s != "most" {
				most = "lowest"
			}
			rows := display(table)
			if p.statusValue(table, toks[i].s) {
				rows = toks[i].s + " " + rows // "paid payments": not those failed or refunded
			}
			read := question[:toks[i].start] + "have the " + most + " " + totalWords(c) + " of " + rows + question[toks[at].end:]
			return p.readAgain(read, asOf, isMetric, fmt.Sprintf("%q read as the %s %s of %s", join(toks[i:at+1]), most, totalWords(c), display(table)))
		}
		read := question[:toks[i].start] + "have " + question[toks[i+1].start:toks[at].end] + " " + display(table) + question[toks[at].end:]
		return p.readAgain(read, asOf, p.countsOnly, fmt.Sprintf("%q read as the number of %s", join(toks[i:at+1]), display(table)))
	}
	return nil
}

// statusValue reports whether word is a value of a status column of
// table ('paid' of payments.status).
func (p *Planner) statusValue(table, word string) bool {
	e := p.entity(table)
	if e == nil {
		return false
	}
	for _, c := range e.Columns {
		if semantic.StatusName(c.Name) && !p.m.IsRestricted(e.Name, c.Name) && slices.ContainsFunc(c.Values, func(v string) bool { return semantic.SameSpelling(v, word) }) {
			return true
		}
	}
	return false
}

// payVerb reports whether w says money was paid: "which customer paid the
// most", "spent the least".
func payVerb(w string) bool {
	switch w {
	case "paid", "pay", "pays", "spent", "spend", "spends", "spending", "paying":
		return true
	}
	return false
}

// isPeriodStart reports whether w starts a period or a condition after a
// verb's most ("the most last year", "the most in 2025").
func isPeriodStart(w string) bool {
	switch w {
	case "in", "last", "this", "since", "during", "over", "between", "from", "before", "after", "on", "per", "by":
		return true
	}
	return false
}

// popularAsTop replans "the most popular products" (refused: "popular"
// not understood) as "the top products", which asks by what where the
// knowledge has more than one measure to rank by; "least popular" as
// "bottom". nil where the question says no such thing.
func (p *Planner) popularAsTop(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || !slices.Contains(pl.Unknown, "popular") {
		return nil
	}
	toks := tokenize(question)
	var b strings.Builder
	last := 0
	for i, t := range toks {
		if t.s != "popular" {
			continue
		}
		word, from := "top", t.start
		if i > 0 {
			switch toks[i-1].s {
			case "most", "more":
				from = toks[i-1].start
			case "least", "less":
				word, from = "bottom", toks[i-1].start
			}
		}
		b.WriteString(question[last:from])
		b.WriteString(word)
		last = t.end
	}
	if last == 0 {
		return nil
	}
	b.WriteString(question[last:])
	return p.readAgain(b.String(), asOf, answered, fmt.Sprintf("%q read as a ranking", "popular"))
}

// othersAmountText is the words of an amount of other rows to read as
// their total: the column's term, with the word of its table said right
// before it ("invoice amount").
func (b *builder) othersAmountText(t *term) string {
	for i, u := range b.st.terms {
		if u == t && i > 0 {
			prev := b.st.terms[i-1]
			if prev.pos == t.pos-1 && prev.cands[0].kind == sEntity && strings.EqualFold(prev.cands[0].name, t.cands[0].entity) {
				return prev.it.text + " " + t.it.text
			}
		}
	}
	return t.it.text
}

// otherTableNamed reports whether the question names a table other than
// entity (the rows ranked by an amount of entity's rows).
func (b *builder) otherTableNamed(entity string) bool {
	return slices.ContainsFunc(b.st.terms, func(u *term) bool {
		return u.cands[0].kind == sEntity && !strings.EqualFold(u.cands[0].name, entity)
	})
}

// sortedBy reports whether t is sorted by, itself or as the column after
// its table's word ("ranked by invoice amount").
func (b *builder) sortedBy(t *term) bool {
	if t.sortBy {
		return true
	}
	for i, u := range b.st.terms {
		if u == t && i > 0 {
			prev := b.st.terms[i-1]
			return prev.sortBy && prev.pos == t.pos-1 && prev.cands[0].kind == sEntity && strings.EqualFold(prev.cands[0].name, t.cands[0].entity)
		}
	}
	return false
}

// beforeItsMetric reports whether t, a table's word, comes right before a
// metric over that table's rows or rows joined to it ("order revenue",
// "ticket resolution time"): the word says whose the measure is, which
// it already is.
func (b *builder) beforeItsMetric(t *term, entity string) bool {
	for i, u := range b.st.terms {
		if u != t || i+1 >= len(b.st.terms) {
			continue
		}
		next := b.st.terms[i+1]
		if next.pos != t.pos+1 || next.cands[0].kind != sMetric || len(t.aggs) > 0 && !(len(t.aggs) == 1 && t.aggs[0] == "avg" && b.p.isAverage(next.cands[0].name)) {
			return false
		}
		me := b.p.metricEntity(next.cands[0].name, b.adhoc)
		return strings.EqualFold(me, entity) || b.p.reachable(me, entity)
	}
	return false
}

// wordsReplanned are a manager's words for what the planner reads in
// other words, each replaced where the question is refused for them:
// the change verbs of a comparison ("has AOV gone up this year compared
// to last year": the comparison gives the change), money with the one
// measure of income ("which category brings in the most money"), "take
// us to" ("how long does it take us to resolve tickets") and nobody
// assigned ("tickets that have nobody assigned": unassigned).
func (p *Planner) wordsReplanned(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered {
		return nil
	}
	toks := tokenize(question)
	compared := slices.ContainsFunc(toks, func(t token) bool {
		return t.s == "compared" || t.s == "vs" || t.s == "versus" || t.s == "than"
	})
	if slices.ContainsFunc(toks, func(t token) bool { return rankWords[t.s] }) {
		// "which country grew revenue the most this year vs last" ranks
		// by the change, which the comparison does not: without the verb
		// it ranked by revenue (found from outside).
		compared = false
	}
	money := p.moneyMetric()
	var out []string
	said := ""
	for i := 0; i < len(toks); i++ {
		w := toks[i].s
		switch {
		case compared && i == 0 && (w == "has" || w == "have" || w == "did" || w == "is" || w == "are"):
			said = "a change"
			continue
		case compared && changeVerb(w):
			if i+1 < len(toks) && (toks[i+1].s == "up" || toks[i+1].s == "down") {
				i++
			}
			said = "a change"
			continue
		case (w == "money" || w == "cash") && money != "" && slices.Contains(pl.Unknown, w):
			out = append(out, display(money))
			said = fmt.Sprintf("%q as %s", w, display(money))
			continue
		case (w == "take" || w == "takes" || w == "took") && i+2 < len(toks) && (toks[i+1].s == "us" || toks[i+1].s == "me" || toks[i+1].s == "you" || toks[i+1].s == "them") && toks[i+2].s == "to":
			out = append(out, w)
			i++ // "take us to": "take to"
			said = "take to"
			continue
		case (w == "nobody" || w == "noone") && i+1 < len(toks) && toks[i+1].s == "assigned" ||
			w == "no" && i+2 < len(toks) && toks[i+1].s == "one" && toks[i+2].s == "assigned":
			if len(out) > 0 && (out[len(out)-1] == "have" || out[len(out)-1] == "has") {
				out[len(out)-1] = "are"
			}
			out = append(out, "unassigned")
			i = slices.IndexFunc(toks[i:], func(t token) bool { return t.s == "assigned" }) + i
			said = "nobody assigned as unassigned"
			continue
		}
		out = append(out, question[toks[i].start:toks[i].end])
	}
	if said == "" {
		return nil
	}
	read := strings.Join(out, " ")
	return p.readAgain(read, asOf, answered, "read as "+read)
}

// rankWords rank groups by what follows them.
var rankWords = map[string]bool{"most": true, "least": true, "top": true, "bottom": true, "highest": true, "lowest": true, "biggest": true, "smallest": true, "fastest": true, "slowest": true, "best": true, "worst": true, "largest": true, "which": true}

// changeVerb reports whether w says a measure changed ("gone up",
// "increased", "dropped"), which a comparison of two periods answers.
func changeVerb(w string) bool {
	switch w {
	case "gone", "go", "went", "increased", "increase", "decreased", "decrease", "grown", "grow", "grew", "dropped", "drop",
		"fallen", "fall", "fell", "risen", "rise", "rose", "improved", "improve", "declined", "decline", "changed", "change":
		return true
	}
	return false
}

// repeatRows replans "how many repeat customers" (refused: "repeat" not
// understood) as "how many customers with more than 1 orders": the rows
// of the one table of events that refer to the persons directly (orders,
// dated by an event; not tickets or sessions, dated by their start).
// Only where the reading groups by nothing the question did not ask
// ("revenue from repeat customers" would be each one's revenue).
func (p *Planner) repeatRows(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || !slices.Contains(pl.Unknown, "repeat") && !slices.Contains(pl.Unknown, "returning") {
		return nil
	}
	toks := tokenize(question)
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].s != "repeat" && toks[i].s != "returning" {
			continue
		}
		ss, _ := p.lex.get(toks[i+1].s)
		es := strongest(only(ss, sEntity))
		if len(es) != 1 || !p.ofPersons(es[0].name) {
			return nil
		}
		events := ""
		for _, r := range p.m.Relationships {
			if !strings.EqualFold(r.To, es[0].name) || r.Cardinality == semantic.OneToMany {
				continue
			}
			e := p.entity(r.From)
			if e == nil || e.TimeColumn == "" {
				continue
			}
			if c := e.Column(e.TimeColumn); c == nil || c.TimeRole != semantic.TimeRoleEvent {
				continue
			}
			if events != "" && events != e.Name {
				return nil // orders or bookings?
			}
			events = e.Name
		}
		if events == "" {
			return nil
		}
		read := question[:toks[i].start] + question[toks[i+1].start:toks[i+1].end] + " with more than 1 " + display(events) + question[toks[i+1].end:]
		grouped := strings.Contains(" "+strings.ToLower(question)+" ", " by ")
		return p.readAgain(read, asOf, func(pl *Plan) bool { return isMetric(pl) && (grouped || len(pl.Query.Dimensions) == 0) },
			fmt.Sprintf("%q read as %s with more than one of their %s", join(toks[i:i+2]), display(es[0].name), display(events)))
	}
	return nil
}

// totalVerbed replans "total invoiced by month" (counted as invoices,
// found from outside: the number of invoices a month given as what was
// invoiced) as "total amt of invoices by month": the verb of a table
// whose rows record money, after "total", is its one amount added up.
// Also "the invoice amount" (or "the invoiced amount") where the table's
// one amount has another name (total_amt) and "amount" would be another
// table's column.
func (p *Planner) totalVerbed(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered && !p.countsOnly(pl) {
		return nil
	}
	toks := tokenize(question)
	for i := 0; i+1 < len(toks); i++ {
		w := toks[i+1].s
		verbed := (toks[i].s == "total" || toks[i].s == "sum") && strings.HasSuffix(w, "ed") && (i+2 >= len(toks) || toks[i+2].s != "amount") // "total invoiced amount": named, below
		named := w == "amount" && pl.Kind == KindUnanswered
		if !verbed && !named {
			continue
		}
		at := i + 1
		if named {
			at = i // "invoice amount": the table's word, then amount
		}
		name := ""
		if ss, _ := p.lex.get(toks[at].s); len(ss) > 0 {
			if es := only(ss, sEntity); len(es) == 1 && len(ss) == 1 {
				name = es[0].name
			}
		}
		if name == "" && (verbed || named && strings.HasSuffix(toks[at].s, "ed")) {
			// "invoiced": the verb of the invoices, as "never booked"
			// reads the bookings; "invoiced amount by clinic" too (found
			// from outside, on a vet chain: refused).
			name, _ = p.noneEntity(&item{kind: itUnknown, text: toks[at].s})
		}
		if name == "" || !recordsMoney(name) {
			continue
		}
		e := p.entity(name)
		c := p.oneAmount(e.Name)
		if c == "" || named && (e.Column("amount") != nil || strings.EqualFold(c, "amount")) {
			continue
		}
		// "total invoiced", "total invoice amount": its total; "average
		// invoice amount": its average; "invoice amount": the column.
		from, amount := toks[i].start, totalWords(c)
		if named {
			lead := ""
			if i > 0 {
				lead = toks[i-1].s
			}
			switch lead {
			case "total":
				from = toks[i-1].start
			case "average", "avg":
				from, amount = toks[i-1].start, lead+" "+strings.Join(nameWords(c), " ")
			default:
				amount = strings.Join(nameWords(c), " ")
			}
		}
		read := question[:from] + amount + " of " + display(e.Name) + question[toks[i+1].end:]
		if again := p.readAgain(read, asOf, func(pl *Plan) bool { return isMetric(pl) && !p.countsOnly(pl) },
			fmt.Sprintf("%q read as %s.%s, the amount of each of %s", strings.TrimSpace(question[from:toks[i+1].end]), e.Name, c, display(e.Name))); again != nil || !verbed {
			return again
		}
		// "Total invoiced" is money, never the number of invoices (found
		// from outside: 839 invoices given as what was invoiced in 2025,
		// where the amount, in a column named total, was not read).
		return p.unanswered(&state{}, fmt.Sprintf("%q is the money of %s, not their number, and quarry could not read %s.%s as it; ask for the “number of %s”, or give %s.%s a synonym in the knowledge folder (such as “amount billed”) and ask by it",
			strings.TrimSpace(question[from:toks[i+1].end]), display(e.Name), e.Name, c, display(e.Name), e.Name, c))
	}
	return nil
}

// readAgain plans read, the question in the words the planner reads, and
// returns the plan with note said in its reading where accept takes it;
// nil otherwise, so the question keeps its first plan.
func (p *Planner) readAgain(read string, asOf time.Time, accept func(*Plan) bool, note string) *Plan {
	again := p.planQuestion(read, asOf)
	if !accept(again) {
		return nil
	}
	again.readAs(read, note)
	return again
}

// answered reports whether a plan answers or asks back: it is not
// refused.
func answered(pl *Plan) bool { return pl.Kind != KindUnanswered }

// isMetric reports whether a plan is a metric query.
func isMetric(pl *Plan) bool { return pl.Kind == KindMetric && pl.Query != nil }

// namedByColumn are those of tables with a date column a word of
// question names, by stem (hired for hired_on), a word of four letters or
// more that is not a person word.
func (p *Planner) namedByColumn(question string, tables []string) []string {
	var out []string
	for _, name := range tables {
		e := p.entity(name)
		if e == nil {
			continue
		}
		hit := false
		for _, t := range tokenize(question) {
			if len(t.s) < 4 || peopleWord(t.s) {
				continue
			}
			for _, c := range e.Columns {
				if !c.Temporal() {
					continue // a verb names a date (hired_on), not "last" a last_name
				}
				for _, w := range nameWords(c.Name) {
					hit = hit || len(w) >= 4 && stemWord(w) == stemWord(t.s)
				}
			}
		}
		if hit {
			out = append(out, name)
		}
	}
	return out
}
