package planner

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// What a question lists when it measures nothing: the rows of one table
// and the columns it names.

// columnsOf reports whether the question names columns of entity e
// before term t, none of them after "by".
func (b *builder) columnsOf(e string, t *term) bool {
	n := 0
	for _, u := range b.st.terms {
		if u.pos < t.pos && u.cands[0].kind == sColumn && strings.EqualFold(u.cands[0].entity, e) {
			if u.byMode {
				return false
			}
			n++
		}
	}
	return n > 0 || b.st.wantLabel
}

// onlyTable is the one table every column and value of the question
// can belong to, or "".
func (b *builder) onlyTable() string {
	var common map[string]string
	for _, t := range b.st.terms {
		here := map[string]string{}
		for _, c := range t.cands {
			if c.kind != sColumn && c.kind != sValue {
				return "" // an entity or a metric: not this shape
			}
			here[lower(c.entity)] = c.entity
		}
		if common == nil {
			common = here
			continue
		}
		for k := range common {
			if _, ok := here[k]; !ok {
				delete(common, k)
			}
		}
	}
	if len(common) != 1 {
		return ""
	}
	for _, e := range common {
		return e
	}
	return ""
}

// eachAndIts reports whether the question says "each X and its Y": Y is
// X's own, a column of the same rows.
func eachAndIts(text string) bool {
	i := strings.Index(" "+text+" ", " each ")
	if i < 0 {
		return false
	}
	rest := text[i:]
	return strings.Contains(rest, " and its ") || strings.Contains(rest, " and their ")
}

// showSortColumn adds to a list of an entity's label the column of its
// own that the list is sorted by: "the 5 most expensive products" shows
// each product's price beside its name, so that the reader sees why
// those rows are first.
func (b *builder) showSortColumn(r *semantic.RowsQuery) {
	cs := b.colSort
	if cs == nil || !strings.EqualFold(cs.entity, r.Entity) || hasString(r.Columns, cs.column) {
		return
	}
	// "the name of the youngest singer" asks for the name alone.
	if ent := b.p.entity(r.Entity); ent != nil {
		text := " " + b.st.text + " "
		for _, w := range nameWords(b.p.label(ent)) {
			if strings.Contains(text, " "+w+" ") || strings.Contains(text, " "+plural(w)+" ") {
				return
			}
		}
	}
	r.Columns = append(r.Columns, cs.column)
}
