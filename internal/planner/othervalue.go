package planner

import (
	"fmt"
	"strings"
)

// A column named right before a value another column holds: "employees
// with the title Sales". The question says which column, and the
// knowledge lists that column's values without this one. Where the scan
// holds the value to the named column ("whose title is Sales") it is read
// literally and the answer says whose value it is; where it leaves the
// value to its own column, the question would be answered as another
// ("department = Sales", at full confidence), so it is refused with what
// the value is and the named column's values to ask with.

// valueOfAnother refuses a question that names a column and, right after
// it, a value only another column holds; nil otherwise.
func (p *Planner) valueOfAnother(items []item) *Plan {
	for i := 0; i+1 < len(items); i++ {
		col, ok := onlyColumn(items[i])
		if !ok {
			continue
		}
		// "orders with a discount code web": a code, whichever, and the
		// web channel (the planner reads that; docs/planner.md); "revenue
		// by channel, business customers only": a grouping, then a value.
		if i > 0 {
			ws := strings.Fields(items[i-1].text)
			if len(ws) > 0 && (ws[len(ws)-1] == "a" || ws[len(ws)-1] == "an" || ws[len(ws)-1] == "any" || ws[len(ws)-1] == "some") ||
				items[i-1].kind == itKw && (items[i-1].kw == "by" || items[i-1].kw == "per") {
				continue
			}
		}
		// Right after it: "which continent is Anguilla in" asks for the
		// continent of Anguilla.
		v := items[i+1]
		if v.kind != itTerm || col.numeric || col.temporal {
			continue
		}
		// A value the scan held to the named column is read literally
		// ("customers whose city is Germany" is no customer: TestBindNamedColumn),
		// and the answer says whose value it is. One it left to its own
		// column would be read as that column's, silently.
		other, value := "", ""
		for _, s := range v.senses {
			if s.kind != sValue {
				continue
			}
			if strings.EqualFold(s.entity+"."+s.column, col.entity+"."+col.column) {
				other = ""
				break
			}
			other, value = s.entity+"."+s.column, s.value
		}
		if other == "" {
			continue
		}
		known := p.knownValuesOf(col.entity + "." + col.column)
		if len(known) == 0 {
			continue // the column's values are not listed: it may hold this one
		}
		held := false
		for _, k := range known {
			held = held || strings.EqualFold(k, value)
		}
		if held {
			continue
		}
		shown := known[:min(len(known), 6)]
		more := ""
		if len(known) > 6 {
			more = ", …"
		}
		return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("%q is not a %s quarry knows (it is a value of %s); ask for it by %s, or for a %s such as %s%s",
			value, display(col.column), other, display(fieldColumn(other)), display(col.column), strings.Join(shown, ", "), more)}
	}
	return nil
}

// onlyColumn is the one column an item names, if it names one and only
// that.
func onlyColumn(it item) (sense, bool) {
	if it.kind != itTerm || len(it.senses) == 0 {
		return sense{}, false
	}
	c := it.senses[0]
	for _, s := range it.senses {
		if s.kind != sColumn || !strings.EqualFold(s.entity+"."+s.column, c.entity+"."+c.column) {
			return sense{}, false
		}
	}
	return c, c.column != ""
}
