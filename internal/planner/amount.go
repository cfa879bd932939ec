package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// A table of money, added up or averaged: "total fines", "total payments
// by method", "average salary" (a table salaries). The rows of such a
// table are amounts of money, and "total" or "average" of them is of
// their one amount column (found from outside: "total fines" was the
// number of fines, "average salary" refused). An average of any table is
// read so, as an average of rows means nothing else; a total only of a
// table whose name is a word of money, as "total orders" is a count.

// moneyNoun reports whether a table's word names rows that are each an
// amount of money.
func moneyNoun(w string) bool {
	switch w {
	case "payment", "fine", "fee", "charge", "refund", "donation", "expense", "salary", "salarie", "wage", "cost", "bill",
		"deposit", "withdrawal", "premium", "tip", "payout", "contribution", "reimbursement", "remittance", "pledge":
		return true
	}
	return false
}

// moneyDocument reports whether a table's word names rows that each
// record an amount of money among other things: "the largest invoice" is
// its amount, but "total invoices" may be their number.
func moneyDocument(w string) bool {
	switch w {
	case "invoice", "receipt", "transaction", "sale", "purchase", "order", "transfer":
		return true
	}
	return false
}

// moneyName reports whether a column's name says it holds money: a word
// of it, or the word a short form of it stands for (amt), is money's.
func moneyName(column string) bool {
	for _, w := range nameWords(column) {
		if moneyWord(w) || moneyWord(semantic.ShortForm(w)) {
			return true
		}
	}
	return false
}

// moneyWord reports whether a word of a column's name says it holds
// money.
func moneyWord(w string) bool {
	switch w {
	case "amount", "price", "cost", "fee", "salary", "total", "value", "charge", "paid", "payment", "balance", "wage",
		"pay", "fine", "usd", "eur", "gbp", "sum":
		return true
	}
	return false
}

// amountOf is the sense of entity's one amount column when term t adds
// up ("total") or averages the table's rows; false otherwise.
func (b *builder) amountOf(t *term, entity string) (sense, bool) {
	if len(t.aggs) != 1 || t.aggs[0] != "sum" && t.aggs[0] != "avg" && t.aggs[0] != "max" && t.aggs[0] != "min" {
		return sense{}, false
	}
	e := b.p.entity(entity)
	if e == nil {
		return sense{}, false
	}
	if s, ok := b.namedAmount(t, e); ok {
		return s, true
	}
	if last := lower(lastWordOf(t.it.text)); t.aggs[0] == "avg" && singular(last) != last && strings.Contains(" "+b.st.text+" ", " "+lower(t.it.text)+" per ") {
		// "average invoices per customer": how many each has, as
		// "average number of invoices per customer" reads it (averagePer),
		// not the average invoice's amount (found from outside).
		return sense{}, false
	}
	if (t.aggs[0] == "max" || t.aggs[0] == "min") && b.saidAsNumber(t) {
		// "the most transfers", "the fewest payments": how many, not
		// the largest amount (found from outside: MAX(fee) by month
		// for "which month had the most transfers").
		return sense{}, false
	}
	noun := singular(lastWordOf(t.it.text))
	if t.it.via != "" && strings.HasSuffix(noun, "ed") {
		// "total donated": the verb read as its table's noun
		// (donation), which says the rows are money.
		noun = singular(lastWordOf(t.it.via))
	}
	if t.aggs[0] != "avg" && !moneyNoun(noun) && !(moneyDocument(noun) && (t.aggs[0] == "max" || t.aggs[0] == "min")) {
		// "total orders" is a count; "the largest order" is which?
		// Only a table of money: "the largest payment" is its amount.
		return sense{}, false
	}
	for _, c := range e.Columns {
		if b.p.m.IsRestricted(e.Name, c.Name) && c.Type.IsNumeric() {
			if moneyName(c.Name) {
				return sense{}, false // never picked unasked; the question is refused as before
			}
		}
	}
	c := b.p.oneAmount(e.Name)
	if c == "" && t.aggs[0] == "avg" {
		// "average csat": the one score of a table of ratings (found
		// from outside: refused on a helpdesk's csat_ratings).
		c = b.p.oneScore(e)
	}
	if c == "" {
		return sense{}, false
	}
	return sense{kind: sColumn, entity: e.Name, column: c, field: e.Name + "." + c, numeric: true, strength: strName}, true
}

// oneScore is the one number a table of ratings, reviews or survey
// responses holds besides its keys (score, rating, stars), "" where its
// name says no such table or it holds none or several.
func (p *Planner) oneScore(e *semantic.Entity) string {
	ws := nameWords(e.Name)
	if len(ws) == 0 {
		return ""
	}
	switch singular(ws[len(ws)-1]) {
	case "rating", "review", "response", "survey", "score", "feedback", "evaluation", "assessment":
	default:
		return ""
	}
	found := ""
	for _, c := range e.Columns {
		if !c.Type.IsNumeric() || strings.EqualFold(c.Name, e.PrimaryKey) || p.isForeignKey(e.Name, c.Name) || semantic.YesNo(c) || p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		if found != "" {
			return ""
		}
		found = c.Name
	}
	return found
}

// saidAsNumber reports whether term t follows a word that ranks by how
// many: "most", "fewest", "least".
func (b *builder) saidAsNumber(t *term) bool {
	text := " " + b.st.text + " "
	for _, w := range []string{"most", "fewest", "least"} {
		if strings.Contains(text, " "+w+" "+lower(t.it.text)+" ") {
			return true
		}
	}
	return false
}

// namedAmount is the number column of e that the last word of the
// table's name in t names: "total volunteer hours" adds up
// volunteer_hours.hours, not the rows (found from outside: 648 time
// sheets read as hours).
func (b *builder) namedAmount(t *term, e *semantic.Entity) (sense, bool) {
	last := lower(lastWordOf(t.it.text))
	for _, c := range e.Columns {
		if !c.Type.IsNumeric() || strings.EqualFold(c.Name, e.PrimaryKey) || b.p.isForeignKey(e.Name, c.Name) || b.p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		if n := lower(c.Name); n == last || n == singular(last) {
			return sense{kind: sColumn, entity: e.Name, column: c.Name, field: e.Name + "." + c.Name, numeric: true, strength: strName}, true
		}
	}
	return sense{}, false
}

// isForeignKey reports whether column of entity refers to another table.
func (p *Planner) isForeignKey(entity, column string) bool {
	return slices.ContainsFunc(p.m.Relationships, func(r semantic.Relationship) bool {
		return strings.EqualFold(r.From, entity) && strings.EqualFold(r.FromColumn, column) || strings.EqualFold(r.To, entity) && strings.EqualFold(r.ToColumn, column) && !strings.EqualFold(column, p.entity(entity).PrimaryKey)
	})
}

// validUntil is the column of entity that ends each row's period of
// validity (a time role "end", or a name such as effective_to,
// valid_until, end_date), "" when none: its rows are versions over time
// ("salaries" with effective_from and effective_to), not events.
func (p *Planner) validUntil(entity string) string {
	e := p.entity(entity)
	if e == nil {
		return ""
	}
	if c := e.Column(e.TimeColumn); c != nil && c.TimeRole == semantic.TimeRoleEvent {
		// Rows dated by the event each records (a rental booked on
		// bkg_dt) are events, whatever ends some of them (cancelled_at):
		// no row holds for a period (found from outside: "average
		// rental cost" was refused).
		return ""
	}
	for _, c := range e.Columns {
		ws := nameWords(c.Name)
		if c.TimeRole == semantic.TimeRoleEnd && !slices.ContainsFunc(ws, deadlineWord) {
			return c.Name
		}
		if len(ws) < 2 {
			continue
		}
		switch ws[len(ws)-1] {
		case "to", "until", "thru":
			// A date (effective_to, valid_until), not an address
			// (ship_to, reply_to).
			if c.Temporal() || slices.ContainsFunc(ws, func(w string) bool { return w == "effective" || w == "valid" || w == "active" || w == "date" }) {
				return c.Name
			}
		}
		if ws[0] == "valid" && (ws[1] == "to" || ws[1] == "until") || ws[0] == "end" && (ws[1] == "date" || ws[1] == "on" || ws[1] == "at") {
			return c.Name
		}
	}
	return ""
}

// deadlineWord reports whether a word of an end date's name says it is a
// deadline (due_on, promised_by): the day a row should be done by, no end
// of a period the row holds for (found from outside: "largest invoice"
// refused for an invoice's due_on).
func deadlineWord(w string) bool {
	switch w {
	case "due", "deadline", "promised", "target", "eta":
		return true
	}
	return false
}

// metricOfColumn reads a column's word as the metric that aggregates
// that column where the question measures it by groups or ranks by it:
// "satisfaction by ticket category", "the category with the worst
// satisfaction" are the average satisfaction metric, not the column
// (found from outside: refused, while "average satisfaction by …" was
// answered). A column compared with a number, listed, or aggregated in
// the question's own words keeps its column meaning.
func (b *builder) metricOfColumn(t *term) {
	if t.hasNum || t.byMode || len(t.aggs) > 0 {
		return
	}
	grouped := b.st.order != "" || b.st.sup
	for _, u := range b.st.terms {
		grouped = grouped || u != t && u.byMode
	}
	if !grouped {
		return
	}
	var keep []sense
	for _, m := range only(t.cands, sMetric) {
		mt := b.p.m.Metric(m.name)
		if mt == nil {
			continue
		}
		x := strings.ToUpper(strings.ReplaceAll(mt.Expr, " ", ""))
		for _, c := range only(t.cands, sColumn) {
			f := strings.ToUpper(c.entity + "." + c.column)
			if x == "AVG("+f+")" || x == "SUM("+f+")" {
				keep = append(keep, m)
				break
			}
		}
	}
	if len(keep) > 0 {
		t.cands = keep
	}
}

// countedBy is the title of a count of rows by periods of a date that
// names what happened to them ("Employees hired" for a headcount by year
// of hired_on: a reader took "Headcount by year, 15 in 2023" for the
// staff then), or "".
func (b *builder) countedBy() string {
	q := &b.q
	if len(q.Metrics) != 1 || len(q.Dimensions) != 1 || q.Dimensions[0].Grain == "" {
		return ""
	}
	mt := b.p.m.Metric(q.Metrics[0])
	if mt == nil {
		for i := range b.adhoc {
			if b.adhoc[i].Name == q.Metrics[0] {
				mt = &b.adhoc[i]
			}
		}
	}
	if mt == nil || !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "COUNT(") || strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "COUNT(DISTINCT") || len(mt.Filters) > 0 {
		return ""
	}
	e := b.p.entity(mt.Entity)
	if e == nil {
		return ""
	}
	tc := mt.Time
	if tc == "" && e.TimeColumn != "" {
		tc = e.Name + "." + e.TimeColumn
	}
	ent, col, ok := strings.Cut(tc, ".")
	d := q.Dimensions[0]
	onTime := strings.EqualFold(d.Name, tc) || strings.EqualFold(d.Name, col) || strings.EqualFold(d.Name, string(d.Grain)) // "year": the metric's own time
	if !ok || !strings.EqualFold(ent, e.Name) || !onTime {
		return ""
	}
	w := strings.ToLower(strings.Split(col, "_")[0])
	switch {
	case len(w) < 5 || !strings.HasSuffix(w, "ed"):
		return ""
	case w == "started" || w == "created" || w == "opened" || w == "added" || w == "inserted" || w == "recorded" || w == "logged" || w == "registered" || w == "submitted":
		return "" // the rows' own making: their count says as much
	}
	if stem := strings.TrimSuffix(strings.TrimSuffix(w, "ed"), "e"); len(stem) >= 3 && strings.HasPrefix(strings.ToLower(e.Name), stem[:3]) {
		return "" // "orders ordered"
	}
	return capital(display(e.Name)) + " " + w
}

// amounts are the senses that are numeric columns and not yes/no flags
// (a flag's name, or known values of 0 and 1 alone).
func (b *builder) amounts(ss []sense) []sense {
	var out []sense
	for _, s := range ss {
		if !s.numeric || s.flag != nil || s.key {
			continue
		}
		if e := b.p.entity(s.entity); e != nil {
			if c := e.Column(s.column); c != nil && len(c.Values) > 0 && len(c.Values) <= 2 && !slices.ContainsFunc(c.Values, func(v string) bool { return v != "0" && v != "1" }) {
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// rankedByMoneyRows asks, of a ranking by a table of money said plainly
// ("top 5 campaigns by expenses"), whether their number or their amount
// is meant: each is a reading people use, and they rank differently
// (found from outside: ranked by the number of expenses, at 1.00). The
// options are the question asked each way, offered where both are
// answered; nil where the table is no table of money with one amount, or
// the question says which ("by number of expenses").
func (b *builder) rankedByMoneyRows(t *term, entity string) *Plan {
	ws := strings.Fields(lower(t.it.text))
	if len(ws) == 0 || !t.byMode || !moneyNoun(singular(ws[len(ws)-1])) || singular(ws[len(ws)-1]) == ws[len(ws)-1] {
		return nil
	}
	c := b.p.oneAmount(entity)
	if c == "" || b.p.m.IsRestricted(entity, c) {
		return nil
	}
	q := b.st.raw
	at := wordAt(lower(q), lower(t.it.text), 0)
	if at < 0 || strings.HasSuffix(strings.TrimSpace(lower(q[:at])), "number of") {
		return nil
	}
	return b.p.numberOrTotal(q, at, at+len(t.it.text), c, b.st.asOf)
}

// numberOrTotal asks whether the rows of a table of money said at
// question[start:end] are meant by their number or by the total of their
// amount column: the question asked each way, offered where both are
// answered; nil otherwise.
func (p *Planner) numberOrTotal(question string, start, end int, amount string, asOf time.Time) *Plan {
	word := question[start:end]
	var opts []string
	for _, with := range []string{"number of " + word, totalWords(amount) + " of " + word} {
		asked := question[:start] + with + question[end:]
		if pl := p.replan(asked, asOf); pl.Kind == KindMetric && pl.Query != nil {
			opts = append(opts, asked)
		}
	}
	if len(opts) < 2 {
		return nil
	}
	return clarify(fmt.Sprintf("By %q do you mean how many there were, or their total %s?", lower(word), amount), opts...)
}
