package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// orList is "a", "a or b", "a, b or c".
func orList(ws []string) string { return joinList(ws, "or") }

// andList is "a", "a and b", "a, b and c".
func andList(ws []string) string { return joinList(ws, "and") }

func joinList(ws []string, conj string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " " + conj + " " + ws[len(ws)-1]
}

// rankOptions asks what to rank by where a ranking names no measure ("who
// are our top 10 customers this year"): by the knowledge's one measure of
// money taken in, or by the number of the rows it counts, each the
// question with "by …" at the end and planned again to check that it
// ranks. Nil where fewer than two such readings plan; the question is then
// refused as before.
func (b *builder) rankOptions() *Plan {
	ranked := b.subject
	for _, t := range b.st.terms {
		if ranked == "" && t.cands[0].kind == sEntity {
			ranked = t.cands[0].name
		}
	}
	money := b.p.moneyMetric()
	if b.st.raw == "" || ranked == "" || money == "" || len(b.groups) > 0 || slices.ContainsFunc(b.st.terms, func(t *term) bool { return t.byMode }) ||
		strings.Contains(" "+lower(b.st.raw)+" ", " by ") {
		return nil // "best selling products by category": ranked within what, first
	}
	base := strings.TrimRight(strings.TrimSpace(b.st.raw), "?.! ")
	bys := []string{display(money)}
	// The knowledge's counts of rows that each belong to one of those
	// ranked ("orders" of customers), else the rows the money is of.
	for _, m := range b.p.m.Metrics {
		if len(bys) < 3 && m.Entity != "" && b.p.isCountOf(m.Name, m.Entity) && b.p.upOf(lower(m.Entity))[lower(ranked)] {
			bys = append(bys, display(m.Name))
		}
	}
	// Else the other plain measures of the money's rows, on the same
	// conditions ("units sold").
	mt := b.p.m.Metric(money)
	for _, m := range b.p.m.Metrics {
		if len(bys) == 1 && mt != nil && m.Name != money && m.Derived == "" && slices.Equal(m.Filters, mt.Filters) && strings.EqualFold(m.Entity, mt.Entity) {
			bys = append(bys, display(m.Name))
		}
	}
	if len(bys) == 1 && mt != nil && mt.Entity != "" && !strings.EqualFold(mt.Entity, ranked) {
		bys = append(bys, "number of "+display(mt.Entity))
	}
	var opts []string
	for _, by := range bys {
		opt := base + " by " + by
		if pl := b.p.replan(opt, b.st.asOf); pl.Kind == KindMetric && pl.Query != nil && len(pl.Query.Order) > 0 {
			opts = append(opts, opt)
		}
	}
	if len(opts) < 2 {
		return nil
	}
	return clarify(fmt.Sprintf("the question ranks without saying by what: %s?", orList(bys)), opts...)
}

// valueOptions are the question asked again for each table a value may be
// of, with the table's name before the value ("how many admissions for
// doctor Price", "… for patient Price"), each planned again to check that
// it reads the value so; nil where one does not (found from outside: the
// options were "doctors.last_name = Price", which asked as given listed
// the doctors instead of counting their admissions).
func (b *builder) valueOptions(t *term, keep []sense) []string {
	if !b.p.namesRows(keep) {
		return nil // a status of two tables: the columns say it best
	}
	raw := b.st.raw
	text := t.it.text
	// "Emma Price": the table's name before the whole name.
	if i := slices.Index(b.st.terms, t); i > 0 && b.st.terms[i-1].pos == t.pos-1 && len(only(b.st.terms[i-1].cands, sValue)) > 0 {
		text = b.st.terms[i-1].it.text
	}
	at := strings.Index(strings.ToLower(raw), text)
	if at < 0 {
		return nil
	}
	// Asked again with a table's name before the value and still two
	// tables: the name does not tell them apart; ask by the columns
	// (and never plan the question again and again).
	for _, s := range keep {
		if strings.Contains(strings.ToLower(raw), singular(lower(display(s.entity)))) {
			return nil
		}
	}
	var out []string
	for _, s := range keep {
		opt := raw[:at] + singular(lower(display(s.entity))) + " " + raw[at:]
		pl := b.p.replan(opt, b.st.asOf)
		if pl.Kind != KindMetric && pl.Kind != KindRows || pl.Query == nil || !filtersOn(pl.Query.Filters, s.entity) {
			return nil
		}
		out = append(out, opt)
	}
	return out
}

// filtersOn reports whether a filter, or a condition on related rows, is
// on a column of entity e.
func filtersOn(fs []semantic.Filter, e string) bool {
	for _, f := range fs {
		if ent, _, ok := strings.Cut(f.Field, "."); ok && strings.EqualFold(ent, e) || filtersOn(f.Where, e) {
			return true
		}
	}
	return false
}

// besideName keeps, of the tables a value may be of, the one table whose
// value the term right before or after it is too ("Emma Price": Emma a
// doctor's first name, no patient's); nil where none or several are.
func (b *builder) besideName(t *term, keep []sense) []sense {
	i := slices.Index(b.st.terms, t)
	var hit string
	for _, j := range []int{i - 1, i + 1} {
		if j < 0 || j >= len(b.st.terms) || j == i {
			continue
		}
		n := b.st.terms[j]
		if n.pos != t.pos-1 && n.pos != t.pos+1 || len(only(n.cands, sValue)) != len(n.cands) {
			continue
		}
		ents := map[string]bool{}
		for _, s := range n.cands {
			ents[lower(s.entity)] = true
		}
		for _, s := range keep {
			if ents[lower(s.entity)] {
				if hit != "" && hit != lower(s.entity) {
					return nil
				}
				hit = lower(s.entity)
			}
		}
	}
	if hit == "" {
		return nil
	}
	var out []sense
	for _, s := range keep {
		if lower(s.entity) == hit {
			out = append(out, s)
		}
	}
	return out
}
