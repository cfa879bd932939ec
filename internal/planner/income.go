package planner

import (
	"fmt"
	"github.com/quarrydata/quarry/internal/semantic"
	"slices"
	"strings"
	"time"
)

// How money taken in is read: its one measure in the verb's place, or a
// question back where the knowledge defines none ("revenue last month",
// "total sales").

// Money made: "what did we make from Electronics in 2025", "how much did
// we bring in last month", "how much money did the web channel make".
// The verb asks for the money taken in, which is the knowledge's one
// measure of it: a currency metric named (or with a one-word synonym)
// revenue, sales, income, turnover or earnings. The question is read
// with that metric in the verb's place; without one such metric it is
// refused, never read as a list or count of what the other words name
// (found from outside: "what did we make from Electronics in 2025" listed
// the Electronics products launched in 2025).

// earnedVerb is the length of the verb of money made at toks[i] ("make",
// "brought in"), 0 when there is none. After "how much", selling is too
// ("how much did we sell last month": the sales, not which things).
func earnedVerb(toks []token, i int) int {
	switch toks[i].s {
	case "make", "made", "earn", "earned", "gross", "grossed", "generate", "generated":
		return 1
	case "sell", "sold":
		if toks[0].s == "how" && toks[1].s == "much" {
			return 1
		}
	case "bring", "brought", "take", "took", "pull", "pulled", "rake", "raked":
		if i+1 < len(toks) && toks[i+1].s == "in" {
			return 2
		}
	}
	return 0
}

// incomeWord reports whether w names the money a business takes in.
func incomeWord(w string) bool {
	switch w {
	case "revenue", "sales", "income", "turnover", "earnings":
		return true
	}
	return false
}

// moneyMetric is the one currency metric named as money taken in; "" when
// none or several are.
func (p *Planner) moneyMetric() string {
	hit := ""
	for _, m := range p.m.Metrics {
		if m.Format != "currency" {
			continue
		}
		named := incomeWord(lower(m.Name))
		for _, s := range m.Synonyms {
			named = named || incomeWord(lower(strings.TrimSpace(s)))
		}
		if !named {
			continue
		}
		if hit != "" {
			return ""
		}
		hit = m.Name
	}
	return hit
}

// moneyMade replans a question of money made with the money metric in the
// verb's place; nil when the question asks no such thing, or already names
// a measure the knowledge defines.
func (p *Planner) moneyMade(question string, asOf time.Time, pl *Plan) *Plan {
	toks := tokenize(question)
	if len(toks) < 3 || !(toks[0].s == "what" && auxVerb(toks[1].s) || toks[0].s == "how" && toks[1].s == "much") {
		return nil // "what products did we make" asks which
	}
	at, n := -1, 0
	for i := 1; i < len(toks); i++ {
		if n = earnedVerb(toks, i); n > 0 {
			at = i
			break
		}
	}
	if at < 0 {
		return nil
	}
	if pl.Kind == KindMetric && pl.Query != nil {
		for _, m := range pl.Query.Metrics {
			if p.m.Metric(m) != nil {
				return nil // "how much revenue did we make": named
			}
		}
	}
	// "how much did Finn Costa make": what a person is paid, not money
	// taken in; a person named by their name is never read so ("how much
	// did the Widget make" still is).
	for i := 1; i < at; i++ {
		for k := min(3, at-i); k >= 1; k-- {
			if ss, ok := p.lex.get(join(toks[i : i+k])); ok && p.namesPerson(only(ss, sValue)) {
				return nil
			}
		}
	}
	verb := join(toks[at : at+n])
	metric := p.moneyMetric()
	if metric == "" {
		return p.unanswered(&state{}, fmt.Sprintf("%q asks for money taken in, and the knowledge names no one measure of it (a currency metric called revenue or sales); name the amount to add up, or define it in metrics.yaml", verb))
	}
	// What the question says between its opening and the verb ("the web
	// channel" in "how much did the web channel make"), and after it.
	var before []string
	for _, t := range toks[1:at] {
		switch t.s {
		case "much", "did", "do", "does", "have", "has", "had", "will", "we", "i", "you", "our", "us", "money", "cash", "dollars", "was", "were", "is", "are", "the":
			continue
		}
		before = append(before, question[t.start:t.end])
	}
	read := strings.ReplaceAll(metric, "_", " ")
	if len(before) > 0 {
		read += " of " + strings.Join(before, " ")
	}
	read += question[toks[at+n-1].end:]
	again := p.planQuestion(read, asOf)
	if again.Kind == KindClarify && again.centsOf != "" {
		// Dollars or cents, asked in the question's own words.
		return whichUnit(question, again.centsNum, again.centsOf)
	}
	if again.Kind != KindMetric && again.Kind != KindClarify {
		return again
	}
	note := fmt.Sprintf("%q read as %s", verb, strings.ReplaceAll(metric, "_", " "))
	again.readAs(read, note)
	return again
}

// incomeUnknown asks back, for a question whose word of money taken in
// ("revenue", "sales") the knowledge defines no measure of, which amount
// it means: the question again with each dated table's one amount in the
// word's place, those answered (found from outside: the largest cause of
// easy questions refused, on six databases of seven). It never picks
// one: revenue may be invoiced, paid, net of refunds. Where no amount
// answers, it refuses, naming the amounts it could be; nil where the
// question has no such word or the knowledge defines the measure.
func (p *Planner) incomeUnknown(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || p.moneyMetric() != "" {
		return nil
	}
	word := ""
	for _, u := range pl.Unknown {
		if incomeWord(lower(u)) {
			word = u
		}
	}
	if word == "" {
		return nil
	}
	var amounts, options []string
	for _, e := range p.m.Entities {
		c := p.oneAmount(e.Name)
		if c == "" {
			continue
		}
		said := totalWords(c) + " of " + display(e.Name)
		amounts = append(amounts, "“"+said+"”")
		if ws := nameWords(c); ws[0] == "total" {
			// "what was our total cents of sales" reads the column;
			// its sum is asked in words that cannot.
			said = "sum of " + strings.Join(ws, " ") + " of " + display(e.Name)
		}
		if e.TimeColumn == "" || spentWords(e.Name, c) || len(options) == 4 {
			// A price of a thing (products.price) is no amount taken in;
			// a cost is money paid out.
			continue
		}
		// Said without its unit where that plans ("total price of
		// tickets", not "total price cents"), and in the place of the
		// table's own noun said before the word too ("ticket revenue").
		for _, sd := range slices.Compact([]string{semantic.MinorUnitLess(said), said}) {
			read, ok := replaceNamed(question, word, display(e.Name), sd)
			if !ok {
				continue
			}
			if again := p.planQuestion(read, asOf); again.Kind == KindMetric || again.Kind == KindClarify {
				options = append(options, read)
				break
			}
		}
	}
	if len(options) > 0 {
		return clarify(fmt.Sprintf("%q has no measure in the knowledge (a currency metric named %s in metrics.yaml would define it); which amount is it?", lower(word), lower(word)), options...)
	}
	reason := fmt.Sprintf("the knowledge defines no measure of %s (a currency metric named %s in metrics.yaml), and quarry does not guess which amount it is", lower(word), lower(word))
	if len(amounts) > 0 {
		reason += "; ask for " + strings.Join(amounts[:min(3, len(amounts))], " or ")
	}
	out := *pl
	out.Reason = reason
	return &out
}

// salesTotal asks back "total sales", read as a count of the rows of a
// sales table, where the knowledge defines no measure of sales: a manager
// says it of the money (found from outside: "total sales last month" was
// 201 sales, at 1.00). The options are the question with the number of
// sales, and with the sum of the table's one amount, in its place.
func (p *Planner) salesTotal(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) != 1 || p.moneyMetric() != "" {
		return nil
	}
	mt := pl.over(p.m).Metric(pl.Query.Metrics[0])
	if mt == nil || !isCount(mt) || len(mt.Filters) > 0 {
		return nil
	}
	ws := nameWords(mt.Entity)
	if len(ws) == 0 || singular(ws[len(ws)-1]) != "sale" {
		return nil
	}
	c := p.oneAmount(mt.Entity)
	if c == "" {
		return nil
	}
	toks := tokenize(question)
	for i := 0; i+1 < len(toks); i++ {
		a, b := toks[i].s, toks[i+1].s
		if !(a == "total" && b == "sales" || a == "sales" && b == "total") {
			continue
		}
		said := "sum of " + strings.Join(nameWords(c), " ") + " of " + display(mt.Entity)
		if nameWords(c)[0] != "total" {
			said = totalWords(c) + " of " + display(mt.Entity)
		}
		var options []string
		for _, with := range []string{"number of sales", said} {
			read := question[:toks[i].start] + with + question[toks[i+1].end:]
			if again := p.planQuestion(read, asOf); again.Kind == KindMetric || again.Kind == KindClarify {
				options = append(options, read)
			}
		}
		if len(options) == 2 {
			return clarify("“Total sales”: the number of sales, or the money they took in?", options...)
		}
		return nil
	}
	return nil
}

// spentWords reports whether a table or its amount's name says money
// paid out or given back: a cost, an expense, a refund, a wage.
func spentWords(entity, column string) bool {
	for _, w := range append(nameWords(entity), nameWords(column)...) {
		switch singular(w) {
		case "cost", "expense", "refund", "salary", "wage", "payroll", "payout", "scholarship", "discount", "repair", "damage", "penalty", "fine", "tax", "commission", "bonus", "reimbursement", "purchase", "claim", "compensation", "credit", "writeoff", "chargeback", "fuel":
			return true
		}
	}
	return false
}

// replaceNamed is question with word replaced by said, and with the
// table's own noun right before word ("ticket revenue", "concession
// sales") taken into said, which names the table already; a "total"
// right before said is dropped, said holding its own.
func replaceNamed(question, word, table, said string) (string, bool) {
	toks := tokenize(question)
	for i, t := range toks {
		if !strings.EqualFold(question[t.start:t.end], word) {
			continue
		}
		start := t.start
		if i > 0 && (singular(toks[i-1].s) == singular(lower(table)) || toks[i-1].s == lower(table)) {
			start = toks[i-1].start
		}
		read := question[:start] + said + question[t.end:]
		if rt := tokenize(read); len(rt) > 0 {
			// "total revenue": the total is said already.
			for j := 0; j+1 < len(rt); j++ {
				if rt[j].s == "total" && strings.HasPrefix(read[rt[j+1].start:], said) {
					read = read[:rt[j].start] + read[rt[j+1].start:]
					break
				}
			}
		}
		return read, true
	}
	return "", false
}

// replaceWord is question with its first whole-word occurrence of word
// (any case) replaced by with.
func replaceWord(question, word, with string) (string, bool) {
	for _, t := range tokenize(question) {
		if strings.EqualFold(question[t.start:t.end], word) {
			return question[:t.start] + with + question[t.end:], true
		}
	}
	return "", false
}
