package planner

import (
	"fmt"
	"slices"
	"strings"
)

// orList is "a", "a or b", "a, b or c".
func orList(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
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
	if b.st.raw == "" || ranked == "" || money == "" || len(b.groups) > 0 || slices.ContainsFunc(b.st.terms, func(t *term) bool { return t.byMode }) {
		return nil // "best selling products by category": ranked within what, first
	}
	base := strings.TrimRight(strings.TrimSpace(b.st.raw), "?.! ")
	bys := []string{display(money)}
	// The knowledge's counts of rows that each belong to one of those
	// ranked ("orders" of customers), else the rows the money is of.
	for _, m := range b.p.m.Metrics {
		if len(bys) < 3 && m.Entity != "" && b.p.isCountOf(m.Name, m.Entity) && b.p.up[lower(m.Entity)][lower(ranked)] {
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
