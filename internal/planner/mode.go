package planner

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// The most common value. "What is the most common nationality of
// people?", "the citizenship that is most common across all singers": the
// column's values grouped, the rows of each counted, the group with the
// most rows first — the question "which nationality has the most
// people?" asked the other way round. The column is the term right after
// "most common" ("the most common singer citizenship": the column after
// its table), or right before it ("the nationality that is most common");
// a question that names another measure, or no column there, is not read.

// modeGroup marks the term whose most common value the question asks for
// as the group, and fails when there is none.
func (b *builder) modeGroup() *Plan {
	st := b.st
	if st.mode == 0 {
		return nil
	}
	at := st.mode - 1 // the position of "most common"
	var g *term
	for i, t := range st.terms {
		if t.pos == at+1 {
			g = t
			// "the most common singer citizenship": the table, then its
			// column.
			if i+1 < len(st.terms) {
				if n := st.terms[i+1]; n.pos == t.pos+1 {
					if e, ent := b.termTable(t); ent && len(only(n.cands, sColumn)) > 0 && b.sameTable(only(n.cands, sColumn), e) {
						g = n
					}
				}
			}
			break
		}
		if t.pos == at-1 || t.pos == at-2 && st.modeBack {
			g = t // "the nationality that is most common"
		}
	}
	if g == nil || len(g.aggs) > 0 || g.hasNum || g.neg || len(only(g.cands, sColumn, sDim, sEntity)) == 0 {
		return b.fail("quarry reads “most common” as the value of one column that the most rows have, such as “the most common nationality of people”; name the column right after it")
	}
	for _, t := range st.terms {
		if _, ent := b.termTable(t); t != g && ent && t.pos < at {
			// "which singers have the most common citizenship", "teachers
			// whose hometown is the most common": the rows that have the
			// value, a question quarry does not answer yet.
			return b.fail(fmt.Sprintf("quarry cannot yet find the %s rows whose %s is the most common; ask for the most common %s first", display(t.cands[0].name), g.it.text, g.it.text))
		}
		if t != g && t.byMode {
			return b.fail(fmt.Sprintf("quarry could not tell whether “most common” asks for %q or groups by %q; ask for one of them", g.it.text, t.it.text))
		}
		if t != g && (len(t.aggs) > 0 || t.hasNum && len(only(t.cands, sEntity, sMetric)) > 0) {
			return b.fail(fmt.Sprintf("quarry reads “most common” as the value the most rows have, and cannot also take %q; ask for one of them", t.it.text))
		}
	}
	if st.count || st.colSup != "" || st.when || st.compare || st.share || st.trend {
		return b.fail("quarry reads “most common” as the value the most rows have, and cannot combine it with another measure or ranking; ask for one of them")
	}
	g.byMode, g.rowsQ, g.mode = true, true, true
	return nil
}

// modeCount counts the rows the most common value is taken over: the
// subject's, or the column's own table's.
func (b *builder) modeCount() *Plan {
	if len(b.q.Metrics) > 0 {
		return b.fail("quarry reads “most common” as the value the most rows have, and cannot also rank by another measure; ask “which … has the most …” instead")
	}
	if b.subject == "" {
		for _, t := range b.st.terms {
			if t.mode && t.cands[0].kind != sEntity {
				b.subject = t.cands[0].entity
			}
		}
	}
	for _, t := range b.st.terms {
		if t.mode && t.cands[0].kind == sEntity && (b.subject == "" || strings.EqualFold(t.cands[0].name, b.subject)) {
			// "the most common singer": each singer is one row.
			return b.fail(fmt.Sprintf("quarry could not tell which rows make a %s common; name them, such as “the most common %s of …”", display(t.cands[0].name), display(t.cands[0].name)))
		}
	}
	if b.subject == "" {
		return b.fail("quarry could not tell which rows “most common” counts; name them, such as “the most common nationality of people”")
	}
	b.addMetric(b.countMetric(b.subject))
	b.und("count of %s", b.subject)
	for _, t := range b.st.terms {
		if t.mode && t.cands[0].kind == sColumn {
			// "the most common promo code": a value of the column, not
			// the rows without one (most orders have no code).
			b.q.Filters = append(b.q.Filters, semantic.Filter{Field: t.cands[0].field, Op: semantic.OpNotNull})
			b.und("filter %s is set", t.cands[0].field)
		}
	}
	return nil
}
