package planner

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// A table of money, added up or averaged: "total fines", "total payments
// by method", "average salary" (a table salaries). The rows of such a
// table are amounts of money, and "total" or "average" of them is of
// their one amount column (found from outside: "total fines" was the
// number of fines, "average salary" refused). An average of any table is
// read so, as an average of rows means nothing else; a total only of a
// table whose name is a word of money, as "total orders" is a count.

// moneyNouns are tables whose rows are each an amount of money.
var moneyNouns = map[string]bool{
	"payment": true, "fine": true, "fee": true, "charge": true, "refund": true, "donation": true,
	"expense": true, "salary": true, "salarie": true, "wage": true, "cost": true, "bill": true, "deposit": true,
	"withdrawal": true, "premium": true, "tip": true, "payout": true, "contribution": true, "reimbursement": true,
}

// moneyWords are words of a column's name that say it holds money.
var moneyWords = map[string]bool{
	"amount": true, "price": true, "cost": true, "fee": true, "salary": true, "total": true, "value": true,
	"charge": true, "paid": true, "payment": true, "balance": true, "wage": true, "pay": true, "fine": true,
	"usd": true, "eur": true, "gbp": true, "sum": true,
}

// amountOf is the sense of entity's one amount column when term t adds
// up ("total") or averages the table's rows; false otherwise.
func (b *builder) amountOf(t *term, entity string) (sense, bool) {
	if len(t.aggs) != 1 || t.aggs[0] != "sum" && t.aggs[0] != "avg" {
		return sense{}, false
	}
	if t.aggs[0] == "sum" && !moneyNouns[singular(lastWordOf(t.it.text))] {
		return sense{}, false
	}
	e := b.p.m.Entity(entity)
	if e == nil {
		return sense{}, false
	}
	var hits []sense
	for _, c := range e.Columns {
		if !c.Type.IsNumeric() || strings.EqualFold(c.Name, e.PrimaryKey) || b.p.isForeignKey(e.Name, c.Name) {
			continue
		}
		money := len(c.Unit) == 3 && strings.ToUpper(c.Unit) == c.Unit
		for _, w := range nameWords(c.Name) {
			money = money || moneyWords[w]
		}
		if !money {
			continue
		}
		if b.p.m.IsRestricted(e.Name, c.Name) {
			return sense{}, false // never picked unasked; the question is refused as before
		}
		hits = append(hits, sense{kind: sColumn, entity: e.Name, column: c.Name, field: e.Name + "." + c.Name, numeric: true, strength: strName})
	}
	if len(hits) != 1 {
		return sense{}, false
	}
	return hits[0], true
}

// isForeignKey reports whether column of entity refers to another table.
func (p *Planner) isForeignKey(entity, column string) bool {
	return slices.ContainsFunc(p.m.Relationships, func(r semantic.Relationship) bool {
		return strings.EqualFold(r.From, entity) && strings.EqualFold(r.FromColumn, column) || strings.EqualFold(r.To, entity) && strings.EqualFold(r.ToColumn, column) && !strings.EqualFold(column, p.m.Entity(entity).PrimaryKey)
	})
}

// validUntil is the column of entity that ends each row's period of
// validity (a time role "end", or a name such as effective_to,
// valid_until, end_date), "" when none: its rows are versions over time
// ("salaries" with effective_from and effective_to), not events.
func (p *Planner) validUntil(entity string) string {
	e := p.m.Entity(entity)
	if e == nil {
		return ""
	}
	for _, c := range e.Columns {
		if c.TimeRole == semantic.TimeRoleEnd {
			return c.Name
		}
		ws := nameWords(c.Name)
		if len(ws) < 2 {
			continue
		}
		switch ws[len(ws)-1] {
		case "to", "until", "thru":
			return c.Name
		}
		if ws[0] == "valid" && (ws[1] == "to" || ws[1] == "until") || ws[0] == "end" && (ws[1] == "date" || ws[1] == "on" || ws[1] == "at") {
			return c.Name
		}
	}
	return ""
}
