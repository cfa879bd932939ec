package planner

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// recordsMoney reports whether a table's rows each record an amount of
// money by their name (payments, invoices, orders), so that their
// "value" or "total" is that amount; people and things are not.
func recordsMoney(entity string) bool {
	ws := nameWords(entity)
	// A copy kept by year or stage is named for the same rows:
	// invoices_archive, invoices_2019 (found from outside: "total of
	// invoices_archive in 2022" counted them).
	for len(ws) > 1 && semantic.CopyWord(ws[len(ws)-1]) {
		ws = ws[:len(ws)-1]
	}
	if len(ws) == 0 {
		return false
	}
	w := singular(ws[len(ws)-1])
	return moneyNoun(w) || moneyDocument(w)
}

// totalWords is the total of a column in words: "total amount", and
// "total price" for total_price, not "total total price".
func totalWords(column string) string {
	ws := nameWords(column)
	if len(ws) > 0 && ws[0] == "total" {
		return strings.Join(ws, " ")
	}
	return "total " + strings.Join(ws, " ")
}

// auxVerb reports whether w is a helping verb after "what" in a question
// of money made ("what did we make").
func auxVerb(w string) bool {
	switch w {
	case "did", "do", "does", "have", "has", "had", "will", "would":
		return true
	}
	return false
}

// amountAsked replans or refuses a list given to a question that asks for
// an amount: "what was the donation total in Q4" (the total said after
// what it adds up) is read as "the total donation"; "how much was donated
// by stock" with nothing to add up is refused, never answered with the
// rows (found from outside: both listed the donations). A list of the
// column asked ("how much does the most recent treatment cost") is the
// amount.
func (p *Planner) amountAsked(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindRows && !p.countsOnly(pl) {
		return nil
	}
	toks := tokenize(question)
	for i := 1; i < len(toks); i++ {
		if toks[i].s != "total" || toks[i-1].s == "the" || toks[i-1].s == "a" || i+1 < len(toks) && toks[i+1].s == "of" {
			continue
		}
		if p.function[toks[i-1].s] || toks[i-1].s == "of" || toks[i-1].s == "total" {
			// "the total of total orders", as totalOf reads "total of
			// orders" where the amount is named total: no term before
			// it, and read again it would grow without end (found from
			// outside: the stack overflowed).
			continue
		}
		if _, known := p.lex.get(toks[i-1].s + " total"); known {
			continue // a name of its own ("order total")
		}
		if ss, known := p.lex.get(toks[i-1].s); !known || len(ss) == 0 {
			continue // "in total", "grand total": no term before it
		}
		read := question[:toks[i-1].start] + "total " + question[toks[i-1].start:toks[i-1].end] + question[toks[i].end:]
		again := p.planQuestion(read, asOf)
		if again.Kind == KindMetric && !p.countsOnly(again) {
			note := fmt.Sprintf("%q read as %q", join(toks[i-1:i+1]), "total "+toks[i-1].s)
			again.readAs(read, note)
			return again
		}
		return p.unanswered(&state{}, fmt.Sprintf("the question asks for a total of %s, which quarry could not read as an amount to add up; name it (“total amount of …”)", toks[i-1].s))
	}
	if pl.Kind == KindRows && pl.Query != nil && pl.Query.Rows != nil && len(pl.Query.Rows.Columns) == 0 && howMuch(toks) && !strings.Contains(" "+strings.ToLower(question)+" ", " how much of ") {
		return p.unanswered(&state{}, "“how much” asks for an amount, but quarry read the question as a list of rows; name the amount to add up (“total amount of …”), or ask “how many …” for a count")
	}
	return nil
}

// totalOf replans "the total of <table>" counted as its rows as the total
// of the table's one amount ("the total of invoices not paid": the
// amount of each added up), and refuses where it cannot be read so; nil
// where the question says no "total of", or the table has no one amount
// (a count is its only reading). "The total number of" counts (found
// from outside: "what's the total of invoices not paid" answered 500,
// the number of them).
func (p *Planner) totalOf(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered && !p.countsOnly(pl) {
		return nil
	}
	toks := tokenize(question)
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].s != "total" || toks[i+1].s != "of" {
			continue
		}
		entity, column := "", ""
		for j := i + 2; j < min(i+6, len(toks)) && entity == ""; j++ {
			for k := min(3, len(toks)-j); k >= 1; k-- {
				ss, ok := p.lex.get(join(toks[j : j+k]))
				if !ok {
					continue
				}
				for _, s := range strongest(only(ss, sEntity)) {
					if entity == "" {
						entity, column = s.name, p.oneAmount(s.name)
					}
				}
				break
			}
		}
		if entity == "" || column == "" || !recordsMoney(entity) {
			return nil // "the total of customers" is their number, not their balances
		}
		words := strings.Join(nameWords(column), " ")
		read := question[:toks[i].end] + " " + words + question[toks[i].end:]
		again := p.planQuestion(read, asOf)
		field := entity + "." + column
		if again.Kind == KindMetric && len(again.Query.Metrics) == 1 && !p.countsOnly(again) &&
			summed(p.planMetric(again, again.Query.Metrics[0]), entity, column) {
			again.readAs(read, fmt.Sprintf("%q read as the total of %s, the amount of each of %s", "total of", field, display(entity)))
			return again
		}
		if strings.EqualFold(column, "total") {
			// A column named total reads as the word of adding up: the
			// question it would suggest is the one asked.
			return p.unanswered(&state{}, fmt.Sprintf("“the total of %s” may be their number or their amount added up, and quarry reads “total” as adding up, not as the column %s; ask for the “number of %s”, or give %s a synonym in the knowledge folder (such as “order value”) and ask by it", display(entity), field, display(entity), field))
		}
		return p.unanswered(&state{}, fmt.Sprintf("“the total of %s” may be their number or their amount added up, and quarry could not read it as the total of %s; ask for the “number of %s” or the “%s of %s”", display(entity), field, display(entity), totalWords(column), display(entity)))
	}
	return nil
}

// countsOnly reports whether every measure of a plan counts rows.
func (p *Planner) countsOnly(pl *Plan) bool {
	if pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) == 0 {
		return false
	}
	for _, name := range pl.Query.Metrics {
		if m := p.planMetric(pl, name); m == nil || !isCount(m) {
			return false
		}
	}
	return true
}

// summed reports whether m adds up column of entity.
func summed(m *semantic.Metric, entity, column string) bool {
	if m == nil || !strings.EqualFold(m.Entity, entity) {
		return false
	}
	e := strings.ReplaceAll(strings.ToLower(m.Expr), " ", "")
	c := strings.ToLower(column)
	return e == "sum("+c+")" || e == "sum("+strings.ToLower(entity)+"."+c+")"
}

// planMetric is the metric of a plan named name: one it defined, else
// the knowledge's; nil if neither.
func (p *Planner) planMetric(pl *Plan, name string) *semantic.Metric {
	for i := range pl.AdHoc {
		if pl.AdHoc[i].Name == name {
			return &pl.AdHoc[i]
		}
	}
	return p.m.Metric(name)
}

// additiveColumn reports whether every sense is a number column whose name
// says it holds an amount that adds up (money, a quantity, hours), not a
// rate, a price or a score.
func (p *Planner) additiveColumn(ss []sense) bool {
	for _, s := range ss {
		if s.kind != sColumn || !s.numeric || s.key {
			return false
		}
		add := false
		ws := nameWords(s.column)
		for i, w := range ws {
			switch w {
			case "amount", "amt", "total", "cost", "costs", "fee", "fees", "paid", "payment", "charge", "charged", "revenue", "sales",
				"qty", "quantity", "units", "hours", "hrs", "minutes", "mins", "tip", "tips", "spend", "spent", "donated", "raised",
				"mrr", "arr", "gmv", "income", "profit", "earnings", "commission":
				add = true
			case "price":
				if i > 0 && ws[i-1] == "total" {
					continue // a booking's total_price is what it cost in all
				}
				return false
			case "rate", "ratio", "pct", "percent", "score", "rating", "avg", "average", "per", "unit":
				return false
			}
		}
		if !add {
			return false
		}
	}
	return len(ss) > 0
}

// amountSaid reports whether text names what the column of each sense
// holds an amount of ("hours" of hours_worked, "fee" of
// delivery_fee_cents), not only what it is an amount for: "top 5
// couriers by deliveries" is no ranking by delivery fees (found from
// outside: it summed them, at 0.85).
func amountSaid(text string, ss []sense) bool {
	said := map[string]bool{}
	for _, w := range nameWords(text) {
		said[w], said[singular(w)], said[plural(w)] = true, true, true
		if long := semantic.ShortForm(w); long != "" {
			said[long] = true
		}
	}
	for _, s := range ss {
		hit := false
		for _, w := range nameWords(s.column) {
			if long := semantic.ShortForm(w); long != "" && said[long] {
				hit = true
			}
			if said[w] && !partOnly(w) {
				hit = true
			}
		}
		if !hit {
			return false
		}
	}
	return len(ss) > 0
}

// partOnly reports whether a word of an amount column's name says only
// what the amount is for, never the amount: "delivery" of
// delivery_fee_cents, a thing counted in rows of its own.
func partOnly(w string) bool {
	switch w {
	case "delivery", "shipping", "order", "booking", "service", "late", "handling", "cents", "usd", "eur", "gbp", "dollars":
		return true
	}
	return false
}

// valueRows replans a count refused because it counts a status value
// said as a noun, in the plural ("which vet had the most no-shows this
// year", appointments.status 'no_show') as the rows that hold it ("the
// most no_show appointments"), which is how a manager means it (found
// from outside: refused, though the question back named that reading).
// nil where that reading is not answered either.
func (p *Planner) valueRows(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || pl.valueNoun == "" {
		return nil
	}
	// The words as written: "no-shows", "no shows".
	words := strings.Fields(pl.valueNoun)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	re, err := regexp.Compile(`(?i)\b` + strings.Join(words, `[\s_-]+`) + `\b`)
	if err != nil {
		return nil
	}
	loc := re.FindStringIndex(question)
	if loc == nil {
		return nil
	}
	read := question[:loc[0]] + pl.valueIs + " " + display(pl.valueOf) + question[loc[1]:]
	again := p.planQuestion(read, asOf)
	if again.Kind != KindMetric {
		return nil
	}
	again.readAs(read, fmt.Sprintf("%q read as the %s that are so", pl.valueNoun, display(pl.valueOf)))
	return again
}

// othersTotal replans a ranking refused because it is by an amount of
// other rows ("top 5 volunteers by hours", "top 3 locations by total
// amt") as a ranking by that amount's total over each one's rows, which
// is how "top 5 volunteers by total hours" reads (found from outside:
// refused). Only an amount that adds up; nil otherwise.
func (p *Planner) othersTotal(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || pl.othersAmount == "" {
		return nil
	}
	low := strings.ToLower(question)
	i := strings.Index(low, pl.othersAmount)
	if i < 0 {
		return nil
	}
	read := question[:i] + "total " + question[i:]
	again := p.planQuestion(read, asOf)
	if again.Kind == KindClarify && again.centsOf != "" {
		// Dollars or cents, asked in the question's own words.
		return whichUnit(question, again.centsNum, again.centsOf)
	}
	if again.Kind != KindMetric {
		return nil
	}
	note := fmt.Sprintf("%q read as their total", pl.othersAmount)
	again.readAs(read, note)
	return again
}

// comparisonWord reports whether w starts a comparison with a number.
func comparisonWord(w string) bool {
	switch w {
	case "over", "above", "under", "below", "exceeding", "more", "less", "greater", "fewer", "least", "most", "between":
		return true
	}
	return false
}

// partWords name a part of what a row is worth, not its amount.
var partWords = map[string]bool{"tip": true, "tips": true, "gratuity": true, "tax": true, "taxes": true, "vat": true, "gst": true, "fee": true, "fees": true,
	"shipping": true, "freight": true, "delivery": true, "discount": true, "discounts": true, "deposit": true, "surcharge": true, "commission": true,
	"refund": true, "refunded": true, "credit": true, "penalty": true, "late": true, "handling": true}

// oneAmount is entity's one amount column (a number, not a key, named
// for money or with a currency unit, and not restricted), or of several
// the one named a total; "" when it has none, or several and no one
// total.
func (p *Planner) oneAmount(entity string) string {
	e := p.entity(entity)
	if e == nil {
		return ""
	}
	var hits, totals, plain []string
	parts := 0 // of the hits, those that are part of what a row is worth
	for _, c := range e.Columns {
		if !c.Type.IsNumeric() || strings.EqualFold(c.Name, e.PrimaryKey) || p.isForeignKey(e.Name, c.Name) {
			continue
		}
		money, total, part := len(c.Unit) == 3 && strings.ToUpper(c.Unit) == c.Unit, false, false
		amount := true // the name says "amount" and nothing else
		for _, w := range nameWords(c.Name) {
			money = money || moneyWord(w) || moneyWord(semantic.ShortForm(w)) // amt
			total = total || w == "total"
			// A price of one unit, where rows hold several ("the biggest
			// sale" is no highest unit_price; found from outside).
			// A table of fees is worth its fee (found from outside:
			// "total late fees" counted the fees).
			part = part || partWords[w] && !ownNameWord(e.Name, w) || (w == "unit" || w == "each" || w == "per") && hasQuantity(e)
			amount = amount && (w == "amount" || semantic.ShortForm(w) == "amount" || semantic.CurrencyWord(w) || w == "cents")
		}
		if !money {
			continue
		}
		if p.m.IsRestricted(e.Name, c.Name) {
			return ""
		}
		hits = append(hits, c.Name)
		if part && !total {
			parts++
		}
		if total {
			totals = append(totals, c.Name)
		}
		if amount {
			plain = append(plain, c.Name)
		}
	}
	switch {
	case len(hits) == 1 && parts == 1:
		// A tip, a tax or a fee alone is part of what a row is worth,
		// never its amount (found from outside: an order's value read
		// as its tip_amount, at 1.00).
		return ""
	case len(hits) == 1:
		return hits[0]
	case len(totals) == 1:
		return totals[0] // an order's total_amt, not its tip_amt
	case len(totals) == 0 && len(plain) == 1:
		return plain[0] // a payment's amount, not its late_fee
	}
	return ""
}

// bareAmount replans a comparison with a number and nothing it compares
// ("how many donations were over $1,000") as one of the one amount of the
// one table the question names that has one ("… with an amount over
// $1,000"); nil otherwise (found from outside: refused, while the same
// question naming the amount was answered).
func (p *Planner) bareAmount(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || !pl.bareComparison {
		return nil
	}
	toks := tokenize(question)
	at := -1
	for i, t := range toks {
		if comparisonWord(t.s) {
			at = i
			if i > 0 && (toks[i-1].s == "at" || toks[i-1].s == "no") {
				at = i - 1
			}
			break
		}
	}
	if at < 0 {
		return nil
	}
	// The tables the question names before the comparison, each by its
	// longest name ("order lines", not "order").
	entity, column := "", ""
	var named []string // every table named before the comparison
	for i := 0; i < at; {
		n := 1
		var ss []sense
		for k := min(3, at-i); k >= 1; k-- {
			if got, ok := p.lex.get(join(toks[i : i+k])); ok && len(got) > 0 {
				n, ss = k, got
				break
			}
		}
		for _, s := range strongest(only(ss, sEntity)) {
			if !slices.Contains(named, s.name) {
				named = append(named, s.name)
			}
			if c := p.oneAmount(s.name); c != "" && s.name != entity {
				if entity != "" {
					return nil // two tables with an amount: which?
				}
				entity, column = s.name, c
			}
		}
		i += n
	}
	if entity == "" || !moneySaid(question[toks[at].start:]) && p.otherNumber(entity, column) {
		// "over 10" of rows with an amount and a number of hours, or
		// with two amounts and no one total: which?
		if len(named) == 1 {
			return p.whichNumber(question, asOf, toks, at, named[0])
		}
		return nil
	}
	words := strings.Join(nameWords(column), " ")
	if strings.Contains(strings.ToLower(question), "with an "+words+" ") {
		// Read so already, and still bare ("above € 50"): planned again,
		// it would be read again without end (found from outside: a
		// question that never returned).
		return nil
	}
	read := question[:toks[at].start] + "with an " + words + " " + question[toks[at].start:]
	again := p.planQuestion(read, asOf)
	if again.Kind == KindClarify && again.centsOf != "" {
		// Dollars or cents, asked in the question's own words.
		return whichUnit(question, again.centsNum, again.centsOf)
	}
	if again.Kind != KindMetric && again.Kind != KindRows || again.Query == nil {
		return nil
	}
	// The amount must be of the rows counted or listed, not of another
	// table the question names (found from outside: "order lines over
	// $30" compared each order's total).
	counted := ""
	if again.Query.Rows != nil {
		counted = again.Query.Rows.Entity
	} else if len(again.Query.Metrics) == 1 {
		counted = p.metricEntity(again.Query.Metrics[0], again.AdHoc)
	}
	if !strings.EqualFold(counted, entity) {
		return nil
	}
	note := fmt.Sprintf("the comparison read as one of %s.%s, the amount of each of %s", entity, column, display(entity))
	again.readAs(read, note)
	return again
}

// hasQuantity reports whether e's rows each hold a number of units
// (quantity, qty, units).
func hasQuantity(e *semantic.Entity) bool {
	return slices.ContainsFunc(e.Columns, func(c semantic.Column) bool {
		return c.Type.IsNumeric() && slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return w == "quantity" || w == "qty" || w == "units" })
	})
}

// moneySaid reports whether the words of a comparison say its number is
// money: a currency's sign or name.
func moneySaid(text string) bool {
	if strings.ContainsAny(text, "$€£¥") {
		return true
	}
	for _, t := range tokenize(text) {
		switch unitWord(t.s) {
		case "usd", "eur", "gbp":
			return true
		}
	}
	return false
}

// otherNumber reports whether entity has a number besides column that a
// bare number may be compared with: a measure in another unit (hours, a
// quantity, a weight), neither its key, a reference, a yes/no flag nor
// another amount of money (oneAmount has chosen among those).
func (p *Planner) otherNumber(entity, column string) bool {
	e := p.entity(entity)
	if e == nil {
		return false
	}
	for _, c := range e.Columns {
		if !c.Type.IsNumeric() || strings.EqualFold(c.Name, column) || strings.EqualFold(c.Name, e.PrimaryKey) || p.isForeignKey(e.Name, c.Name) || flagName(c.Name) {
			continue
		}
		if len(c.Values) > 0 && !slices.ContainsFunc(c.Values, func(v string) bool { return v != "0" && v != "1" }) {
			continue // holds 0 and 1 alone
		}
		if !moneyName(c.Name) {
			return true
		}
	}
	return false
}

// unitWord is the unit the knowledge writes for a unit a question may
// name its measure in ("in hours"), "" for another word.
func unitWord(w string) string {
	switch w {
	case "hours", "hour", "hrs":
		return "hours"
	case "minutes", "minute", "mins":
		return "minutes"
	case "days", "day":
		return "days"
	case "seconds", "secs":
		return "seconds"
	}
	return strings.ToLower(semantic.CurrencyCode(w))
}

// unitSaid replans a question that names its measure's unit ("average
// resolution time in hours last month") without it, where the measure is
// in that unit; where it is in another, it is refused, as quarry does not
// convert (found from outside: "hours" not understood).
func (p *Planner) unitSaid(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || len(pl.Unknown) != 1 {
		return nil
	}
	toks := tokenize(question)
	for i := 1; i < len(toks); i++ {
		unit := unitWord(toks[i].s)
		if unit == "" || toks[i-1].s != "in" || toks[i].s != pl.Unknown[0] {
			continue
		}
		read := strings.TrimSpace(question[:toks[i-1].start] + question[toks[i].end:])
		again := p.planQuestion(read, asOf)
		if again.Kind != KindMetric || again.Query == nil || len(again.Query.Metrics) != 1 {
			return nil
		}
		m := p.model(again).Metric(again.Query.Metrics[0])
		if m == nil {
			return nil
		}
		if conv := p.inMajorUnits(again, m, read, toks[i].s, unit); conv != nil {
			return conv
		}
		has := strings.ToLower(strings.Fields(m.Unit + " ?")[0])
		if m.Unit == "" {
			has = nameUnit(m.Expr) // duration_min: minutes
		}
		if has == "" {
			return p.unanswered(&state{}, fmt.Sprintf("the knowledge gives %s no unit, so quarry cannot tell whether it is in %s; ask without “in %s”", display(m.Name), toks[i].s, toks[i].s))
		}
		shown := m.Unit
		if shown == "" {
			shown = has
		}
		if unitWord(has) != unit && has != unit {
			return p.unanswered(&state{}, fmt.Sprintf("%s is not known to be in %s (it is in %s), and quarry does not convert units; ask without “in %s”", display(m.Name), toks[i].s, shown, toks[i].s))
		}
		note := fmt.Sprintf("%q: %s is in %s", "in "+toks[i].s, display(m.Name), shown)
		again.readAs(read, note)
		return again
	}
	return nil
}

// spendWord reports whether w says what someone spent.
func spendWord(w string) bool {
	switch w {
	case "spend", "spending", "spent", "spends":
		return true
	}
	return false
}

// theirSpend replans what others spent with us ("top 10 customers by
// lifetime spend", "how much did German customers spend last year") as
// the money we took in from them, the knowledge's one income metric;
// what we spent ("how much did we spend on ads") is never read so.
// "lifetime" is all of the rows, no period.
func (p *Planner) theirSpend(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || len(pl.Unknown) == 0 {
		return nil
	}
	for _, u := range pl.Unknown {
		for _, w := range strings.Fields(u) {
			if !spendWord(w) && w != "lifetime" {
				return nil
			}
		}
	}
	metric := p.moneyMetric()
	if metric == "" {
		return nil
	}
	toks := tokenize(question)
	var b strings.Builder
	last, at := 0, -1
	for i, t := range toks {
		switch {
		case t.s == "we" || t.s == "our" || t.s == "us" || t.s == "i":
			if at < 0 {
				return nil // what we spent is not what others spent with us
			}
		case spendWord(t.s):
			at = i
			b.WriteString(question[last:t.start])
			if noun := i > 0 && (toks[i-1].s == "by" || toks[i-1].s == "lifetime" || toks[i-1].s == "total" || averageWord(toks[i-1].s)); !noun {
				// "which customers spent the most": a verb of the rows,
				// which asks for the top few as "made" does.
				b.WriteString("made ")
			}
			b.WriteString(strings.ReplaceAll(metric, "_", " "))
			last = t.end
		case t.s == "lifetime" || t.s == "total" && i+1 < len(toks) && spendWord(toks[i+1].s):
			b.WriteString(question[last:t.start])
			last = t.end
		case auxVerb(t.s) && slices.ContainsFunc(toks[i+1:], func(u token) bool { return spendWord(u.s) }):
			// "how much did German customers spend": the verb's helper
			// goes with it.
			b.WriteString(question[last:t.start])
			last = t.end
		}
	}
	if at < 0 {
		return nil
	}
	b.WriteString(question[last:])
	read := b.String()
	again := p.planQuestion(read, asOf)
	if again.Kind == KindClarify && again.centsOf != "" {
		// Dollars or cents, asked in the question's own words.
		return whichUnit(question, again.centsNum, again.centsOf)
	}
	if again.Kind != KindMetric {
		return nil
	}
	note := fmt.Sprintf("%q read as %s", toks[at].s, strings.ReplaceAll(metric, "_", " "))
	again.readAs(read, note)
	return again
}

// nameUnit is the unit the last word of the one column an expression
// reads says it is in (appointments.duration_min: minutes), "" where it
// says none.
func nameUnit(expr string) string {
	var col string
	for _, tok := range strings.FieldsFunc(expr, func(r rune) bool {
		return !(r == '.' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if _, c, ok := strings.Cut(tok, "."); ok {
			if col != "" && !strings.EqualFold(col, c) {
				return ""
			}
			col = c
		}
	}
	ws := nameWords(col)
	if len(ws) < 2 {
		return ""
	}
	switch w := ws[len(ws)-1]; w {
	case "min":
		return "minutes"
	case "sec":
		return "seconds"
	default:
		return unitWord(w)
	}
}

// readAs records on a plan made of the question in other words how it was
// read: the note among what was understood and in the answer's notes, and
// the words it answers, where no reading of its own says them.
func (pl *Plan) readAs(read, note string) {
	pl.Understood = append(pl.Understood, note)
	pl.Notes = append(pl.Notes, note)
	if pl.Read == "" {
		pl.Read = read
	}
}

// namesPerson reports whether a value names a row of a table of persons by
// its label (an employee's name).
func (p *Planner) namesPerson(ss []sense) bool {
	for _, s := range ss {
		if p.namesRows([]sense{s}) && p.ofPersons(s.entity) {
			return true
		}
	}
	return false
}
