package planner

import (
	"fmt"
	"strings"
)

// bindNamed holds a value to the column the question names for it.
// "customers whose city is Germany", "employees whose title is
// Engineering", "products with product name Books": the value is a known
// value of another column (country, department, category), and reading
// it there answers a question that was not asked. A text column named
// after "whose", "with" or "where" and right before a value (with only
// "is", "was", "equals", "named", "called" or "of" between) takes the
// value literally when no meaning of
// the value is a value of that column; "whose name is Germany" (the
// label word) with a value of no table's name column is not read. Found
// by an outside test: 13 of its 16 wrong answers were this.
func (p *Planner) bindNamed(items []item) []item {
	for i := range items {
		j := i + 1
		for j < len(items) && items[j].kind == itStop && bindingWord(items[j].text) {
			j++
		}
		// "whose city is X", "with product name X": "whose"/"with"/
		// "where" before the column; not "by channel, business
		// customers", nor "what grade is Kyle in", which asks for the
		// column of the row the value names.
		k := i - 1
		for k >= 0 && items[k].kind == itStop {
			k--
		}
		if k < 0 || items[k].kind != itKw || items[k].kw != "with" {
			continue
		}
		if indefinite(items[k+1:i]) && (onlyBe(items[i+1:j]) || j == i+1) {
			// "orders with a discount code were refunded": what follows
			// "were" is said of the orders, which have a code. "orders
			// with a discount code web": "a" says the orders have some
			// code, not which (that is "the code X"), so a value right
			// after it is not held to the column.
			continue
		}
		// A value that is also a name ("Sales": a department and a
		// synonym of revenue) is still a value after "whose title is".
		if j >= len(items) || items[j].kind != itTerm || len(only(items[j].senses, sValue)) == 0 {
			continue
		}
		if len(only(items[j].senses, sValue)) != len(items[j].senses) {
			if j == i+1 {
				continue // "with discount code sales": no "is" says it is the code
			}
			items[j].senses = only(items[j].senses, sValue)
		}
		v := &items[j]
		switch a := &items[i]; {
		case a.kind == itKw && a.kw == "label":
			named := false
			for _, s := range v.senses {
				if e := p.entity(s.entity); e != nil && strings.EqualFold(p.label(e), s.column) {
					named = true
				}
			}
			if !named {
				*v = item{kind: itUnknown, text: fmt.Sprintf("%s (a value of %s, not a name)", v.text, fieldsOf(v.senses))}
			}
		case a.kind == itTerm && len(a.senses) > 0 && len(only(a.senses, sColumn)) == len(a.senses):
			cols := map[string]bool{}
			for _, s := range a.senses {
				cols[s.field] = true
			}
			var of []sense
			for _, s := range v.senses {
				if cols[s.field] {
					of = append(of, s)
				}
			}
			if len(of) > 0 {
				// "vets who never had a visit with reason Surgery": the
				// visits' reason, not the vets' specialty, which holds
				// Surgery too (found from outside: read as surgeons).
				v.senses = of
				continue
			}
			if p.linksToValue(a.senses, v.senses) || verbObject(a.senses, v.senses) {
				continue
			}
			var lit []sense
			for _, s := range a.senses {
				if s.numeric || s.temporal || s.key || s.flag != nil {
					lit = nil
					break
				}
				lit = append(lit, sense{kind: sValue, entity: s.entity, column: s.column, field: s.field, value: v.senses[0].value, strength: strName})
			}
			if lit == nil {
				*v = item{kind: itUnknown, text: fmt.Sprintf("%s (a value of %s, not of %s)", v.text, fieldsOf(v.senses), a.text)}
				continue
			}
			v.senses = lit
		}
	}
	return items
}

// linksToValue reports whether a column of cols links to the table a
// value of vals is of: "customers who were referred by Grace Dawson"
// names the referrer by a value of customers, the table referred_by
// leads to (selfRole reads it), not a value of the key itself.
func (p *Planner) linksToValue(cols, vals []sense) bool {
	for _, c := range cols {
		if !c.key {
			continue
		}
		for _, v := range vals {
			if v.kind != sValue {
				continue
			}
			for _, r := range p.m.Relationships {
				if strings.EqualFold(r.From, c.entity) && strings.EqualFold(r.FromColumn, c.column) && strings.EqualFold(r.To, v.entity) {
					return true
				}
			}
		}
	}
	return false
}

// bindingWord is a word that may stand between a column and its value.
func bindingWord(w string) bool {
	switch w {
	case "is", "was", "are", "were", "equals", "equal", "to", "named", "called", "of", "be":
		return true
	}
	return false
}

func fieldsOf(ss []sense) string {
	var out []string
	for _, s := range ss {
		f := s.entity + "." + s.column
		if !hasString(out, f) {
			out = append(out, f)
		}
	}
	return strings.Join(out, " or ")
}

// indefinite reports whether the stopwords end with "a" or "an".
func indefinite(stops []item) bool {
	n := len(stops)
	return n > 0 && (stops[n-1].text == "a" || stops[n-1].text == "an")
}

// onlyBe reports whether the words are forms of "be" and nothing else.
func onlyBe(ws []item) bool {
	for _, w := range ws {
		switch w.text {
		case "is", "are", "was", "were":
		default:
			return false
		}
	}
	return len(ws) > 0
}

// verbObject reports whether cols are dates said as verbs and a value of
// vals is of the same table: "guests who rented skis" names the rental's
// item after its date's verb (rented_at), not a value of the date (found
// from outside: "skis" not understood).
func verbObject(cols, vals []sense) bool {
	for _, c := range cols {
		if !c.temporal {
			return false
		}
	}
	for _, v := range vals {
		for _, c := range cols {
			if strings.EqualFold(v.entity, c.entity) {
				return true
			}
		}
	}
	return false
}
