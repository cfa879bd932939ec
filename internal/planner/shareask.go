package planner

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// distShareRE holds the words that settle a share of some rows by a
// grouping as each group's part of those rows: a split, a mix, a
// breakdown or a distribution of them, a part "of all" of them, where
// they "came from", or the "largest share" of them (a group's slice, not a
// rate).
var distShareRE = lazyRE(`\b(split|mix|breakdown|distribution|distributed)\b|\bof (all|the total|total)\b|\b(came|come|comes|coming) from\b|\b(largest|biggest|greatest|smallest) (share|part|portion)\b`)

// nextWordRE is the word that follows.
var nextWordRE = lazyRE(`^ ([a-z_]+)`)

// oneValueFilterRE is a metric's filter on one value: orders.status = 'refunded'.
var oneValueFilterRE = lazyRE(`^\s*[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*\s*=\s*'([^']+)'\s*$`)

// ambiguousShare asks which share is meant where a share of some rows by
// a grouping reads two ways: "percentage of refunded orders by channel"
// is the refund rate within each channel (refunded orders of the
// channel's orders, about 5%) as well as each channel's part of all
// refunded orders (web 51.6%), and a manager usually means the first,
// though the words say the second as well. The rows are some rows when a
// count metric has conditions of its own (refunded_orders), or when a
// value comes right after the share word and before the rows' name
// ("percentage of mobile orders by country"). It returns nil when the
// question is not of that form or its words settle it (distShareRE;
// "what share of orders were refunded in each channel" is read before, as
// a condition within each group), a clarification whose options are the
// two readings as questions quarry answers, or a refusal when those
// questions cannot be written.
func (b *builder) ambiguousShare() *Plan {
	q := &b.q
	if len(q.Metrics) != 1 || len(q.Dimensions) == 0 || len(q.Order) > 0 || q.Limit > 0 {
		// A ranking by such a share is refused (rankedShareOfSome),
		// unless its words settle it.
		return nil
	}
	raw := b.st.raw
	low := strings.ToLower(raw)
	if len(low) != len(raw) || distShareRE().MatchString(low) {
		return nil
	}
	share := shareWordRE().FindStringIndex(low)
	if share == nil || !strings.HasPrefix(low[share[1]:], " of ") {
		return nil
	}
	start, after := share[0], share[1]+len(" of ")
	for _, w := range []string{"what ", "the "} {
		if strings.HasSuffix(low[:start], w) {
			start -= len(w)
		}
	}
	name := q.Metrics[0]
	var rows, cond string // "orders", "refunded"
	end := -1             // the end of the words naming the rows counted
	if m := b.p.m.Metric(name); m != nil && len(m.Filters) > 0 && b.countsRows(name) {
		if len(q.Filters) > 0 && b.valueRightAfter(low, after) {
			return nil // "share of UK refunded orders": not this form
		}
		for _, t := range b.st.terms {
			if t.it == nil || !hasMetric(t.cands, name) {
				continue
			}
			if at := wordAt(low, t.it.text, after); at == after {
				end = at + len(t.it.text)
			}
		}
		if len(m.Filters) == 1 {
			if sm := oneValueFilterRE().FindStringSubmatch(m.Filters[0]); sm != nil {
				cond = sm[1]
			}
		}
		rows = display(b.p.metricEntity(name, b.adhoc))
	} else if len(q.Filters) == 1 && b.countsRows(name) {
		f := q.Filters[0]
		if f.Op != semantic.OpEq || len(f.Values) != 1 {
			return nil
		}
		v, ok := f.Values[0].(string)
		if !ok || !strings.EqualFold(b.filterEntity(f), b.p.metricEntity(name, b.adhoc)) {
			// "share of UK orders by channel": a value of another table's
			// rows (the customers') is the rows the share is of.
			return nil
		}
		at := wordAt(low, strings.ToLower(v), after)
		if at != after {
			return nil // "share of orders by channel for mobile": the rows it is a share of
		}
		// The rows' name follows the value, maybe after its column's
		// ("high priority tickets"): the condition is the words between.
		pos := at + len(v)
		for range 3 {
			w := nextWordRE().FindStringSubmatch(low[pos:])
			if w == nil {
				break
			}
			pos += len(w[0])
			if b.rowsWord(w[1]) {
				end, rows, cond = pos, w[1], raw[at:pos-len(w[1])-1]
				break
			}
		}
	} else {
		return nil
	}
	group := groupWords(q.Dimensions)
	subset := low[after:max(end, after)]
	if end < 0 || cond == "" || rows == "" {
		return b.fail(fmt.Sprintf("quarry could not tell whether this is the rate within each %s or each %s's part of all %s; ask “what percentage of … were … by %s” for the rate, or “percentage split of … by %s” for the parts", group, group, display(name), group, group))
	}
	rate := raw[:start] + "what percentage of " + rows + " were " + cond + raw[end:]
	parts := raw[:start] + "percentage split of " + raw[after:end] + raw[end:]
	if !b.readsAs(rate, false) || !b.readsAs(parts, true) {
		return b.fail(fmt.Sprintf("quarry could not tell whether this is the rate within each %s (what percentage of %s were %s) or each %s's part of all %s; ask for the one you mean", group, rows, cond, group, subset))
	}
	return clarify(fmt.Sprintf("Do you mean the share of %s that were %s within each %s, or each %s's part of all %s?", rows, cond, group, group, subset), rate, parts)
}

// readsAs reports whether question is answered as a share: each group's
// part of the total (parts) or a condition's rate within each group.
func (b *builder) readsAs(question string, parts bool) bool {
	pl := b.p.replan(question, b.st.asOf)
	if pl.Kind != KindMetric || pl.Query == nil {
		return false
	}
	if parts {
		return pl.Query.Share
	}
	return !pl.Query.Share && len(pl.AdHoc) == 1 && strings.HasPrefix(pl.AdHoc[0].Name, "share_of_")
}

// filterEntity is the table whose column a filter is on.
func (b *builder) filterEntity(f semantic.Filter) string {
	if d := b.p.m.Dimension(f.Field); d != nil {
		return d.Entity
	}
	e, _, _ := strings.Cut(f.Field, ".")
	return e
}

// valueRightAfter reports whether a value of the query's filters comes
// right after position at.
func (b *builder) valueRightAfter(low string, at int) bool {
	for _, f := range b.q.Filters {
		for _, v := range f.Values {
			if s, ok := v.(string); ok && wordAt(low, strings.ToLower(s), at) == at {
				return true
			}
		}
	}
	return false
}

// countsRows reports whether a metric counts rows (not distinct ones):
// the measure whose parts add up to its total, of which a rate can be
// taken.
func (b *builder) countsRows(name string) bool {
	x, ok := b.aggregateOf(name)
	return ok && strings.HasPrefix(x, "COUNT(") && strings.HasSuffix(x, ")") && !strings.HasPrefix(strings.TrimSpace(x[6:]), "DISTINCT")
}

// groupWords names a query's groupings as a reader says them: "channel",
// "month", "day of week".
func groupWords(ds []semantic.DimRef) string {
	var ws []string
	for _, d := range ds {
		switch {
		case d.Grain != "":
			ws = append(ws, d.Grain.Words())
		default:
			n := d.Name
			if _, c, ok := strings.Cut(n, "."); ok {
				n = c
			}
			ws = append(ws, display(n))
		}
	}
	return strings.Join(ws, " and ")
}
