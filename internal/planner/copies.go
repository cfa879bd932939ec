package planner

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Tables kept as copies (by region, year or stage: emea_support_tickets,
// order_items_2019 beside support_tickets, order_items) and tables no
// link joins to the ones a question names: which of them a word means.

// unqualified is, of several tables a word names, the one whose name
// every other's holds whole with words of its own around it
// (support_tickets, of emea_support_tickets and support_tickets_2019:
// the others are copies kept by region, year or stage), alone; else es.
// Found from outside on a schema of 8,750 tables: "how many tickets were
// closed in November" was asked back with 17 tables, where the core
// table alone answered. The reading names the table counted.
func (p *Planner) unqualified(es []sense) []sense {
	if len(es) < 2 {
		return es
	}
	// By the tables' own names: the same table in two schemas
	// (crm.customers beside customers) is asked about, never answered
	// from one of them.
	table := func(name string) []string {
		if e := p.entity(name); e != nil && e.Table != "" {
			return nameWords(e.Table)
		}
		return nameWords(name)
	}
	// The one with the fewest words, then whether every other holds it:
	// linear, as a word may name thousands of tables.
	names := make([][]string, len(es))
	best, tie := 0, false
	for i, e := range es {
		names[i] = table(e.name)
		if i == 0 {
			continue
		}
		switch {
		case len(names[i]) < len(names[best]):
			best, tie = i, false
		case len(names[i]) == len(names[best]):
			tie = true
		}
	}
	if tie || len(names[best]) == 0 {
		return es
	}
	for i := range es {
		if i != best && !semantic.HoldsRun(names[i], names[best]) {
			return es
		}
	}
	return []sense{es[best]}
}

// ofCopies keeps, of the senses of a column or value a word names in
// several tables, those of the one table the others are copies of: every
// other's name holds its name whole with words of its own (unqualified)
// and it has the same columns (order_items, of emea_sales_order_items
// and order_items_2019; not of items, nor of a table of other columns).
// Found from outside on a schema of 8,750 tables: "top 5 products by
// quantity" refused, naming 225 tables' quantity, where the 14 core
// tables answered.
func (p *Planner) ofCopies(cands []sense) []sense {
	if len(cands) < 2 || cands[0].kind != sColumn && cands[0].kind != sValue && cands[0].kind != sDim {
		return cands
	}
	var ents []sense
	seen := map[string]bool{}
	for _, c := range cands {
		if c.kind != sColumn && c.kind != sValue && c.kind != sDim || c.entity == "" {
			return cands
		}
		if !seen[lower(c.entity)] {
			seen[lower(c.entity)] = true
			ents = append(ents, sense{kind: sEntity, name: c.entity})
		}
	}
	if len(ents) < 2 {
		return cands
	}
	one := p.unqualified(ents)
	if len(one) != 1 {
		return cands
	}
	base := p.entity(one[0].name)
	for _, e := range ents {
		if o := p.entity(e.name); base == nil || o == nil || !sameColumns(base, o) {
			return cands
		}
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c sense) bool { return !strings.EqualFold(c.entity, base.Name) })
}

// sameColumns reports whether a and b have columns of the same names.
func sameColumns(a, b *semantic.Entity) bool {
	if len(a.Columns) != len(b.Columns) {
		return false
	}
	for _, c := range a.Columns {
		if b.Column(c.Name) == nil {
			return false
		}
	}
	return true
}

// joinedToNamed is every table that can be joined to one the question
// names as a table alone (a term whose every sense is that table), by
// lower-cased name; nil where it names none.
func (p *Planner) joinedToNamed(terms []*term) map[string]bool {
	var joined map[string]bool
	for _, t := range terms {
		if len(t.cands) == 0 || len(only(t.cands, sEntity)) != len(t.cands) || slices.ContainsFunc(t.cands, func(s sense) bool { return !strings.EqualFold(s.name, t.cands[0].name) }) {
			continue
		}
		if joined == nil {
			joined = map[string]bool{}
		}
		if joined[lower(t.cands[0].name)] {
			continue
		}
		for e := range p.reachableFrom(t.cands[0].name) {
			joined[e] = true
		}
	}
	return joined
}

// namedAlone are the tables the question names as tables alone (a term
// whose every sense is that table), by lower-cased name.
func namedAlone(terms []*term) map[string]bool {
	out := map[string]bool{}
	for _, t := range terms {
		if len(t.cands) > 0 && len(only(t.cands, sEntity)) == len(t.cands) && !slices.ContainsFunc(t.cands, func(s sense) bool { return !strings.EqualFold(s.name, t.cands[0].name) }) {
			out[lower(t.cands[0].name)] = true
		}
	}
	return out
}

// ofNamed keeps, of the senses of a column a word names in several
// tables, those of the tables the question names (namedAlone)
// where some are and some are not: "total price of emea shipments" is
// emea_shipments.price, not that of shipments, its copies' table (found
// from outside: refused, the price read as shipments').
func ofNamed(cands []sense, named map[string]bool) []sense {
	if len(named) == 0 || len(cands) < 2 {
		return cands
	}
	for _, c := range cands {
		if c.kind != sColumn && c.kind != sDim {
			return cands // a value names its rows wherever it is
		}
	}
	in := slices.DeleteFunc(slices.Clone(cands), func(s sense) bool { return !named[lower(s.entity)] })
	if len(in) == 0 {
		return cands
	}
	return in
}

// ofJoined keeps, of the senses of a column or value a word names in
// several tables, those of tables joined (the set joinedToNamed made)
// where some are and some are not: a column of a table no link joins to
// the ones the question names is none of its answer ("top 5 products by
// quantity": order_items', not a stock count's of no link to products).
func ofJoined(cands []sense, joined map[string]bool) []sense {
	if joined == nil || len(cands) < 2 {
		return cands
	}
	for _, c := range cands {
		if c.kind != sColumn && c.kind != sValue && c.kind != sDim {
			return cands
		}
	}
	in := slices.DeleteFunc(slices.Clone(cands), func(s sense) bool { return !joined[lower(s.entity)] })
	if len(in) == 0 {
		return cands
	}
	return in
}
