package planner

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// A column named right before a value another column holds: "employees
// with the title Sales". The question says which column, and the
// knowledge lists that column's values without this one. Where the scan
// holds the value to the named column ("whose title is Sales") it is read
// literally, and refused after planning where the named column lists its
// values without this one (heldElsewhere: the query would find nothing
// and answer 0); where it leaves the value to its own column, the
// question would be answered as another ("department = Sales", at full
// confidence), so it is refused with what the value is and the named
// column's values to ask with.

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
		// "high priority Shipping tickets": the column names the kind of
		// the value before it, a value of its own; what follows is not
		// said of it.
		if i > 0 && items[i-1].kind == itTerm && valueOfColumn(items[i-1].senses, col) {
			continue
		}
		// Right after it: "which continent is Anguilla in" asks for the
		// continent of Anguilla. Or after a negation ("priority is not
		// Shipping", "priority not Shipping"): the value is still said of
		// the column, and read as its own column's it would answer
		// another question.
		j, negated := i+1, false
		for j < len(items) && (items[j].kind == itStop && bindingWord(items[j].text) || items[j].kind == itKw && items[j].kw == "not") {
			negated = negated || items[j].kind == itKw
			j++
		}
		if !negated {
			j = i + 1
		}
		if j >= len(items) {
			continue
		}
		v := items[j]
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
		return &Plan{Kind: KindUnanswered, Reason: notAValueOf(value, col.column, []string{other}, known)}
	}
	return nil
}

// valueOfColumn reports whether one of senses is a value of col's column.
func valueOfColumn(senses []sense, col sense) bool {
	for _, s := range senses {
		if s.kind == sValue && strings.EqualFold(s.entity+"."+s.column, col.entity+"."+col.column) {
			return true
		}
	}
	return false
}

// notAValueOf says that value is not one of column's known values but one
// of the others' (entity.column), and how to ask instead.
func notAValueOf(value, column string, others, known []string) string {
	shown := known[:min(len(known), 6)]
	more := ""
	if len(known) > 6 {
		more = ", …"
	}
	by := make([]string, len(others))
	for i, o := range others {
		by[i] = display(fieldColumn(o))
	}
	return fmt.Sprintf("%q is not a %s quarry knows (it is a value of %s); ask for it by %s, or for a %s such as %s%s",
		value, display(column), strings.Join(others, " and of "), strings.Join(by, " or "), display(column), strings.Join(shown, ", "), more)
}

// heldElsewhere refuses a plan that filters a column whose values the
// knowledge lists on a literal that is not among them (nor a stored value
// of that column a value index found) but is a known value of another
// column, of the same table or of one joined to it: "tickets with priority
// Shipping", where Shipping is a category. However the question held the
// value to the column ("with priority X", "whose priority is X"), the
// query would return nothing and answer 0 with good confidence; the
// refusal names where the value is instead. nil otherwise: a column whose
// values are not listed (a name) may hold any value, and is read
// literally.
func (p *Planner) heldElsewhere(pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return nil
	}
	var check func(fs []semantic.Filter) *Plan
	check = func(fs []semantic.Filter) *Plan {
		for _, f := range fs {
			if r := check(f.Where); r != nil {
				return r
			}
			switch f.Op {
			case semantic.OpEq, semantic.OpIn, semantic.OpNe, semantic.OpNotIn:
			default:
				continue
			}
			ent, col, ok := p.filterColumn(f.Field)
			if !ok {
				continue
			}
			known := p.knownValuesOf(f.Field)
			if len(known) == 0 {
				continue
			}
			for _, v := range f.Values {
				s, isText := v.(string)
				if !isText || hasFold(known, s) || p.storedValueOf(ent, col, s) {
					continue
				}
				if others := p.columnsHolding(s, ent, col); len(others) > 0 {
					r := &Plan{Kind: KindUnanswered, Reason: notAValueOf(s, col, others, known), Understood: pl.Understood}
					return r
				}
			}
		}
		return nil
	}
	return check(pl.Query.Filters)
}

// filterColumn is the entity and column a filter's field is: an
// entity.column, or a dimension that is a plain column.
func (p *Planner) filterColumn(field string) (ent, col string, ok bool) {
	fd, err := p.m.ResolveField(field)
	if err != nil {
		return "", "", false
	}
	switch fd.Kind {
	case semantic.FieldColumn:
		return fd.Entity.Name, fd.Column.Name, true
	case semantic.FieldDimension:
		e, c, ok := strings.Cut(strings.TrimSpace(fd.Dimension.Expr), ".")
		if !ok || p.entity(e) == nil || p.entity(e).Column(c) == nil {
			return "", "", false
		}
		return p.entity(e).Name, p.entity(e).Column(c).Name, true
	}
	return "", "", false
}

// storedValueOf reports whether a value index found value as a stored
// value of ent.col for this question (PlanValues).
func (p *Planner) storedValueOf(ent, col, value string) bool {
	for _, s := range p.lex.extra[strings.Join(words(value), " ")] {
		if s.kind == sValue && strings.EqualFold(s.entity, ent) && strings.EqualFold(s.column, col) {
			return true
		}
	}
	return false
}

// columnsHolding are the other columns (entity.column) of ent or of a
// table joined to it whose known values, or stored values a value index
// found for this question, hold value.
func (p *Planner) columnsHolding(value, ent, col string) []string {
	var out []string
	add := func(e, c string) {
		name := e + "." + c
		if strings.EqualFold(e, ent) && strings.EqualFold(c, col) || hasFold(out, name) || !p.reachable(ent, e) || p.m.IsRestricted(e, c) {
			return
		}
		out = append(out, name)
	}
	for i := range p.m.Entities {
		e := &p.m.Entities[i]
		for _, c := range e.Columns {
			if hasFold(c.Values, value) {
				add(e.Name, c.Name)
			}
		}
	}
	for _, s := range p.lex.extra[strings.Join(words(value), " ")] {
		if s.kind == sValue && strings.EqualFold(s.value, value) {
			add(s.entity, s.column)
		}
	}
	return out
}

// hasFold reports whether list holds s, ignoring case.
func hasFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
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
