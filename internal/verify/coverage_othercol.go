package verify

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// The value a question puts in one column that the query filters in
// another (Coverage).

// otherColumn: "tickets in category urgent", "orders in status mobile",
// "the Billing priority": the question sets a value beside the name of a
// column whose known values do not hold it, and the query filters it in
// another column of the table, where it is. That is another question (or
// a slip), not a reading to answer at full confidence.
func (c *cover) otherColumn() (ok, bad []string) {
	for _, f := range c.q.Filters {
		if f.Op != semantic.OpEq && f.Op != semantic.OpIn {
			continue
		}
		key, _ := columnOf(c.m, f.Field)
		ent, colName, found := strings.Cut(key, ".")
		if !found {
			continue
		}
		e := c.m.Entity(ent)
		if e == nil {
			continue
		}
		for _, v := range f.Values {
			s, isText := v.(string)
			lv := strings.ToLower(strings.TrimSpace(s))
			if !isText || len(lv) < 2 || !c.has(lv) {
				continue
			}
			for _, other := range e.Columns {
				if strings.EqualFold(other.Name, colName) || len(other.Values) == 0 || holdsValue(other.Values, lv) || c.filtersColumn(e.Name+"."+other.Name) {
					continue // a column the query filters too is read ("with a discount code web": one is set)
				}
				for _, w := range columnWords(c.m, e, other) {
					if len(w) >= 3 && (c.has(w+" "+lv) || c.has(lv+" "+w)) {
						return nil, []string{fmt.Sprintf("the question puts %q in %s, whose values are %s, but the query filters it in %s.%s",
							s, w, strings.Join(other.Values[:min(len(other.Values), 6)], ", "), e.Name, colName)}
					}
				}
			}
		}
	}
	return nil, nil
}

// holdsValue reports whether values hold v, without regard to case.
func holdsValue(values []string, v string) bool {
	for _, x := range values {
		if strings.EqualFold(strings.TrimSpace(x), v) {
			return true
		}
	}
	return false
}

// columnWords are the words a question names a column by: its name with
// spaces, its last word ("category" of ticket_category), its synonyms and
// those of the dimensions over it.
func columnWords(m *semantic.Model, e *semantic.Entity, col semantic.Column) []string {
	name := strings.ToLower(strings.ReplaceAll(col.Name, "_", " "))
	words := []string{name}
	if f := strings.Fields(name); len(f) > 1 {
		words = append(words, f[len(f)-1])
	}
	for _, s := range col.Synonyms {
		words = append(words, strings.ToLower(s))
	}
	for _, d := range m.Dimensions {
		if strings.EqualFold(d.Expr, e.Name+"."+col.Name) {
			words = append(words, strings.ToLower(strings.ReplaceAll(d.Name, "_", " ")))
			for _, s := range d.Synonyms {
				words = append(words, strings.ToLower(s))
			}
		}
	}
	return words
}

// filtersColumn reports whether the query filters on the column ref.
func (c *cover) filtersColumn(ref string) bool {
	for _, f := range c.q.Filters {
		if key, _ := columnOf(c.m, f.Field); strings.EqualFold(key, ref) {
			return true
		}
	}
	return false
}
