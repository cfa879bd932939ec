package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// saidCurrency is the currency a question names right after a number
// ("above 1000 euros") or with the sign of one before it ("over €1000";
// not "$", which people write of money in general), and the words that
// say it; "" where it names none.
func saidCurrency(question string) (code, said string) {
	toks := tokenize(question)
	for i, t := range toks {
		if !isNumber(t.s) {
			continue
		}
		if i+1 < len(toks) {
			if c := semantic.CurrencyCode(toks[i+1].s); c != "" {
				return c, toks[i+1].s
			}
		}
		before := strings.TrimRight(question[:t.start], " ")
		switch {
		case strings.HasSuffix(before, "€"):
			return "EUR", "€"
		case strings.HasSuffix(before, "£"):
			return "GBP", "£"
		}
	}
	return "", ""
}

// inCurrency is the currency a question asks its money in ("in
// dollars", "in EUR"), with no number before the word, and the words
// that say it; "" where it names none. "In dollars" is US dollars.
func inCurrency(question string) (code, said string) {
	toks := tokenize(question)
	for i := 1; i < len(toks); i++ {
		if toks[i-1].s != "in" {
			continue
		}
		if c := semantic.CurrencyCode(toks[i].s); c != "" {
			return c, "in " + toks[i].s
		}
	}
	return "", ""
}

// dollarCode reports whether c is the code of a currency called dollars.
func dollarCode(c string) bool {
	switch c {
	case "USD", "CAD", "AUD", "NZD", "HKD", "SGD", "TWD", "JMD", "BSD", "BBD", "BZD", "FJD", "LRD", "NAD", "SBD", "TTD", "XCD", "BND", "GYD", "SRD", "KYD", "BMD":
		return true
	}
	return false
}

// dollarSaid is "USD" and "$" where the question writes a number with a
// dollar sign before it ("over $500"), else "".
func dollarSaid(question string) (code, said string) {
	for _, t := range tokenize(question) {
		if isNumber(t.s) && strings.HasSuffix(strings.TrimRight(question[:t.start], " "), "$") {
			return "USD", "$"
		}
	}
	return "", ""
}

// currencySaid holds an answered plan to the currency its question names
// with an amount ("payments above 1000 euros"), where the rows it
// compares an amount of, or the rows they belong to, have a currency
// column: the rows in that currency, where the column holds it, else a
// refusal, as quarry does not convert. The currency word was read as the
// number's alone and dropped (found from outside: 36 payments in francs
// among those "above 1000 euros", at full confidence).
func (p *Planner) currencySaid(question string, pl *Plan) *Plan {
	if pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	code, said := saidCurrency(question)
	loose, measured := false, false
	if code == "" {
		// "total invoiced in dollars", "average invoice in euros": the
		// measure's rows in that currency (found from outside: three
		// currencies summed and called dollars).
		code, said = inCurrency(question)
		measured = code != ""
	}
	if code == "" {
		// "$", which people write of money in general: dollars where
		// the rows hold US dollars beside other currencies (found from
		// outside: "payments over $500" counted 795 in four currencies
		// for 183 in dollars), nothing where they hold none.
		if code, said = dollarSaid(question); code == "" {
			return pl
		}
		loose = true
	}
	var ents []string
	for _, f := range pl.Query.Filters {
		if !numericOp(f.Op) {
			continue
		}
		if ent, _, ok := strings.Cut(f.Field, "."); ok && !slices.Contains(ents, ent) {
			ents = append(ents, ent)
		}
	}
	if measured {
		m := pl.over(p.m)
		for _, name := range pl.Query.Metrics {
			if mt := m.Metric(name); mt != nil && mt.Entity != "" && !slices.Contains(ents, mt.Entity) {
				ents = append(ents, mt.Entity)
			}
		}
	}
	for _, name := range ents {
		e := p.entity(name)
		if e == nil {
			continue
		}
		field, col := p.currencyColumn(e)
		if col == nil {
			continue
		}
		for _, f := range pl.Query.Filters {
			if !strings.EqualFold(f.Field, field) {
				continue
			}
			// The question names the currency's column itself: the same
			// currency, or another, which quarry does not convert to
			// (found from outside: "expenses in GBP over 100 dollars"
			// compared pounds with 100).
			for _, v := range f.Values {
				if s, ok := v.(string); !ok || !strings.EqualFold(strings.TrimSpace(s), code) || f.Op != semantic.OpEq && f.Op != semantic.OpIn {
					return &Plan{Kind: KindUnanswered, Understood: pl.Understood, Reason: fmt.Sprintf(
						"the question names an amount in %s (%q) of rows whose %s is %v, and quarry does not convert currencies; ask in one currency", code, said, field, f.Values)}
				}
			}
			return pl
		}
		i := slices.IndexFunc(col.Values, func(v string) bool { return strings.EqualFold(strings.TrimSpace(v), code) })
		if loose && i < 0 {
			continue
		}
		if loose {
			for _, v := range col.Values {
				if c := strings.ToUpper(strings.TrimSpace(v)); c != "USD" && dollarCode(c) {
					return &Plan{Kind: KindUnanswered, Understood: pl.Understood, Reason: fmt.Sprintf(
						"the question names an amount in dollars (%q), and %s holds %s and %s; ask with the currency named (“… where %s is …”)", said, field, col.Values[i], v, display(col.Name))}
				}
			}
		}
		if i < 0 {
			held := "values quarry does not know"
			if len(col.Values) > 0 {
				held = strings.Join(col.Values, ", ")
			}
			return &Plan{Kind: KindUnanswered, Understood: pl.Understood, Reason: fmt.Sprintf(
				"the question names an amount in %s (%q), but %s holds %s, and quarry does not convert currencies; ask with a currency it holds (“… where %s is …”)",
				code, said, field, held, display(col.Name))}
		}
		out := *pl
		q := *pl.Query
		q.Filters = append(slices.Clone(q.Filters), semantic.Filter{Field: field, Op: semantic.OpEq, Values: []any{col.Values[i]}})
		out.Query = &q
		out.Understood = append(slices.Clone(pl.Understood), fmt.Sprintf("%q read as %s = '%s'", said, field, col.Values[i]))
		return &out
	}
	return pl
}

// currencyColumn is the currency column of e's rows, as entity.column: e's
// own, else that of the one row each of them refers to (a payment's
// invoice); nil where there is none.
func (p *Planner) currencyColumn(e *semantic.Entity) (string, *semantic.Column) {
	own := func(e *semantic.Entity) *semantic.Column {
		for i, c := range e.Columns {
			for _, w := range semantic.NameWords(c.Name) {
				if w == "currency" || w == "ccy" {
					return &e.Columns[i]
				}
			}
		}
		return nil
	}
	if c := own(e); c != nil {
		return e.Name + "." + c.Name, c
	}
	for _, r := range p.m.Relationships {
		if !strings.EqualFold(r.From, e.Name) || r.Cardinality != semantic.ManyToOne && r.Cardinality != semantic.OneToOne {
			continue
		}
		if to := p.entity(r.To); to != nil {
			if c := own(to); c != nil {
				return to.Name + "." + c.Name, c
			}
		}
	}
	return "", nil
}

// numericOp reports whether op compares with a number.
func numericOp(op semantic.Op) bool {
	switch op {
	case semantic.OpGt, semantic.OpGe, semantic.OpLt, semantic.OpLe:
		return true
	}
	return false
}

// whichUnit asks whether a number compared with an amount in cents
// ("salaries above 150000" of annual_salary_cents) is in dollars or in
// cents: the two readings differ a hundredfold, and neither is the
// safe one (found from outside: compared as cents, every salary
// matched, at full confidence). The options are the question with the
// number written each way. It returns nil where the number cannot be
// found in the question as asked, and the caller reads it as written.
func (b *builder) whichUnit(num float64, what string) *Plan {
	return whichUnit(b.st.raw, num, what)
}

func whichUnit(question string, num float64, what string) *Plan {
	for _, t := range tokenize(question) {
		if !isNumber(t.s) || parseNum(t.s) != num {
			continue
		}
		n := question[t.start:t.end]
		pl := clarify(fmt.Sprintf("Is %s in dollars or in cents? %s holds cents.", n, what),
			question[:t.start]+"$"+n+question[t.end:],
			question[:t.end]+" cents"+question[t.end:])
		pl.centsNum, pl.centsOf = num, what
		return pl
	}
	return nil
}
