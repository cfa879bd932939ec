package verify

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Additive says whether a metric's expression is one SUM or COUNT over the
// whole expression ("sum", "count"), a COUNT(DISTINCT …) ("distinct"), or
// something whose groups do not add up to its total (""): a ratio, an
// average, a difference.
func Additive(expr string) string {
	e := strings.TrimSpace(expr)
	u := strings.ToUpper(e)
	var kind string
	switch {
	case strings.HasPrefix(u, "COUNT(DISTINCT"), strings.HasPrefix(u, "COUNT( DISTINCT"):
		kind = "distinct"
	case strings.HasPrefix(u, "SUM("):
		kind = "sum"
	case strings.HasPrefix(u, "COUNT("):
		kind = "count"
	default:
		return ""
	}
	// The aggregate's parenthesis must close at the end: "SUM(a) / SUM(b)"
	// is a ratio.
	depth := 0
	for i := strings.IndexByte(e, '('); i < len(e); i++ {
		switch e[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(e)-1 {
				return ""
			}
		}
	}
	return kind
}

var qualifiedRE = lazyRE(`\b([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\b`)

// FanOuts says, for each measure of q that is summed or counted over the
// rows of one entity while everything it sums or counts belongs to an
// entity those rows point at, that each of those is counted once per row
// that points at it: COUNT(orders.id) over order_items counts an order
// once per item, SUM(orders.shipping) over order_items adds an order's
// shipping once per item. The measure is computed at the wrong grain
// (a fan-out) whatever the query groups by. A sum whose metric filters
// its own rows is taken for a lookup and left alone (MRR: the plan's
// price summed over active subscriptions).
func FanOuts(m *semantic.Model, q *semantic.Query) []string {
	var out []string
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil || mt.Derived != "" || mt.Entity == "" {
			continue
		}
		kind := Additive(mt.Expr)
		if kind != "sum" && kind != "count" {
			continue
		}
		refs := map[string]bool{}
		for _, g := range qualifiedRE().FindAllStringSubmatch(mt.Expr, -1) {
			if m.Entity(g[1]) != nil {
				refs[g[1]] = true
			}
		}
		if len(refs) == 0 || refs[mt.Entity] {
			continue
		}
		// A sum of what each row points at, picked by the row's own
		// columns, is a lookup: MRR sums the plan's price over active
		// subscriptions. A count of the parent per child row never is.
		if kind == "sum" && ownFilter(mt) {
			continue
		}
		up := parents(m, mt.Entity)
		var over []string
		for e := range refs {
			if !up[e] {
				over = nil
				break
			}
			over = append(over, e)
		}
		if len(over) == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("%s is %s over %s rows, but what it measures belongs to %s: each %s row counts once per %s row that points at it (a fan-out); measure it over %s",
			name, mt.Expr, mt.Entity, strings.Join(over, ", "), over[0], mt.Entity, over[0]))
	}
	return out
}

// ownFilter reports whether one of mt's filters is on its own entity.
func ownFilter(mt *semantic.Metric) bool {
	for _, f := range mt.Filters {
		for _, g := range qualifiedRE().FindAllStringSubmatch(f, -1) {
			if g[1] == mt.Entity {
				return true
			}
		}
	}
	return false
}

// parents are the entities that rows of e point at (Model.Parents).
func parents(m *semantic.Model, e string) map[string]bool { return m.Parents(e) }
