package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// How a term's table fits the question (rank), and the columns and values
// bound to their tables before roles are (resolveColumns).

// rank orders how well a column or value's entity fits the subject:
// the subject itself, an entity the question names, an entity reached by
// following foreign keys (no fan-out), any joinable entity.
func (b *builder) rank(entity string, named map[string]bool) int {
	switch {
	case b.subject == "":
		if named[lower(entity)] {
			return 0
		}
		return 1
	case strings.EqualFold(entity, b.subject):
		return 0
	case named[lower(entity)] && b.p.upOf(lower(b.subject))[lower(entity)]:
		return 1
	case b.p.upOf(lower(b.subject))[lower(entity)]:
		return 2
	case b.linkedRows(entity):
		// "channels playing a cartoon written by Todd Casey": a condition
		// on the rows the subject's must have (withSome checks that
		// nothing else reads them).
		return 2
	}
	// Reaching the entity would repeat the subject's rows (a one-to-many
	// join), which would count or sum them more than once.
	return 9
}

func (b *builder) namedEntities() map[string]bool {
	named := map[string]bool{}
	for _, t := range b.st.terms {
		if t.cands[0].kind == sEntity {
			named[lower(t.cands[0].name)] = true
		}
	}
	return named
}

// namedOverStronger is the columns of a table the question names that
// t's words name more weakly than they name another table's, where every
// stronger meaning is a column of a table the question does not name:
// "average rent of vacant units" is the units' monthly_rent_cents, though
// "rent" is the synonym learn wrote for leases.rent_cents (found from
// outside: the leases' rent averaged, at 0.85). Nil where nothing says.
func (b *builder) namedOverStronger(t *term, strong []sense) []sense {
	if len(strong) == 0 || len(only(strong, sColumn)) < len(strong) {
		return nil
	}
	named := map[string]bool{}
	for _, u := range b.st.terms {
		if u != t && u.cands[0].kind == sEntity {
			named[lower(u.cands[0].name)] = true
		}
	}
	for _, s := range strong {
		if named[lower(s.entity)] {
			return nil
		}
	}
	var own []sense
	fields := map[string]bool{}
	for _, s := range nonKey(only(t.cands, sColumn)) {
		if s.strength < strong[0].strength && named[lower(s.entity)] && (len(t.aggs) == 0 || s.numeric) {
			own = append(own, s)
			fields[s.field] = true
		}
	}
	if len(fields) != 1 {
		return nil
	}
	return own
}

// besideField is, for a value term of several columns, the one column of
// the value said right before or after it and joined to it by "and" or
// "or" ("both hardware and network"), where that column is among t's;
// "" otherwise.
func (b *builder) besideField(t *term) string {
	fields := map[string]bool{}
	for _, s := range only(t.cands, sValue) {
		fields[s.field] = true
	}
	if len(fields) < 2 {
		return ""
	}
	for _, u := range b.st.terms {
		// Right before or after, "and" or "or" between (its own item).
		if d := t.pos - u.pos; u == t || d < -2 || d > 2 || d == 0 || !u.conj && !t.conj {
			continue
		}
		vals := only(u.cands, sValue)
		if len(vals) == 0 || len(vals) != len(u.cands) {
			continue
		}
		f := vals[0].field
		if slices.ContainsFunc(vals, func(s sense) bool { return s.field != f }) || !fields[f] {
			continue
		}
		return f
	}
	return ""
}

// nounAfter is the table the term right after t names, or "".
func (b *builder) nounAfter(t *term) string {
	for _, u := range b.st.terms {
		if u.pos == t.pos+1 && len(u.cands) > 0 && u.cands[0].kind == sEntity {
			return u.cands[0].name
		}
	}
	return ""
}

// resolveColumns chooses, for each column and value term, the one column it
// means, preferring the subject's own columns.
func (b *builder) resolveColumns() *Plan {
	named := b.namedEntities()
	for _, t := range b.st.terms {
		k := t.cands[0].kind
		if k != sColumn && k != sValue && k != sDim {
			continue
		}
		if k == sValue {
			if pl := b.valueOfCounted(t); pl != nil {
				return pl
			}
			// "tickets in both hardware and network": the column of the
			// value said beside it, where that one names a single column
			// ("network" the ticket category, as "hardware" is, not the
			// agents' team, though the agents are the subject: found
			// from outside, 4 agents for 13 at 1.00).
			if f := b.besideField(t); f != "" {
				t.cands = slices.DeleteFunc(slices.Clone(t.cands), func(s sense) bool { return s.kind == sValue && s.field != f })
			}
			// "accounts with an active subscription": said of the noun
			// right after it, whose table holds it, not of the subject's
			// own column (found from outside: the accounts' status
			// taken, and the subscriptions left unread, refused).
			if e := b.nounAfter(t); e != "" && slices.ContainsFunc(t.cands, func(s sense) bool { return s.kind == sValue && strings.EqualFold(s.entity, e) }) {
				t.cands = slices.DeleteFunc(slices.Clone(t.cands), func(s sense) bool { return s.kind == sValue && !strings.EqualFold(s.entity, e) })
			}
		}
		best := 99
		for _, s := range t.cands {
			best = min(best, b.rank(s.entity, named))
		}
		if k == sValue {
			best = b.lonePartRank(t, named, best)
		}
		if best == 9 && !t.ofCounted {
			if k == sValue && b.existsValue(t) {
				continue // "students who have a dog": rows with a related row of that value
			}
			if k == sColumn && b.existsFlag(t) {
				continue // "countries with English as an official language": of that same row
			}
			if k == sColumn && b.columnOfValue(t) {
				t.role = "context" // "… English as an official language": the value's own column
				continue
			}
			if k == sColumn && b.verbDate(t) {
				continue // "customers who ordered last month": rows with a related row then
			}
			if k == sColumn && b.verbOfCounted(t) {
				t.role = "context"
				continue // "customers who placed more than 5 orders": the orders' own verb
			}
			pl := b.fail(fmt.Sprintf("%q belongs to %s, which is not a single related row of each %s row; quarry does not guess how to combine them", t.it.text, t.cands[0].entity, display(b.subject)))
			byGroup := slices.ContainsFunc(b.st.terms, func(u *term) bool { return u != t && u.byMode })
			if k == sColumn && len(t.aggs) == 0 && (b.st.order != "" || b.st.limit > 0 || b.st.sup || byGroup || b.sortedBy(t)) && b.p.additiveColumn(t.cands) && amountSaid(t.it.text, t.cands) {
				pl.othersAmount = b.othersAmountText(t)
			}
			return pl
		}
		var keep []sense
		for _, s := range t.cands {
			if b.rank(s.entity, named) == best {
				keep = append(keep, s)
			}
		}
		if k == sValue {
			keep = placedColumns(t, directedColumns(t, keep))
		}
		if s, ok := b.joinedEnds(keep); ok {
			// The two ends of one relationship hold the same values:
			// the nearer one, which needs one join fewer (and is never
			// NULL where the farther row is missing).
			keep = []sense{s}
		}
		if nk := nonKey(keep); len(nk) > 0 && len(nk) < len(keep) {
			// the same rank: a column by its name beats a key.
			keep = nk
		}
		keep = strongest(keep)
		fields := map[string]bool{}
		for _, s := range keep {
			fields[s.field] = true
		}
		if len(fields) > 1 {
			if ks := b.contextKey(t, keep, named); len(ks) > 0 {
				keep, fields = ks, map[string]bool{ks[0].field: true}
			}
		}
		if len(fields) > 1 && k != sValue {
			if vs := b.valueTable(t, keep); len(vs) > 0 {
				keep, fields = vs, map[string]bool{vs[0].field: true}
			}
		}
		if len(fields) > 1 && k == sColumn {
			if ex := wholeName(t.it.text, keep); len(ex) > 0 {
				keep, fields = ex, map[string]bool{ex[0].field: true}
			}
		}
		if len(fields) > 1 {
			if k == sValue {
				var opts []string
				for _, s := range keep {
					opts = append(opts, s.entity+"."+s.column+" = "+s.value)
				}
				// "Emma Price": the table whose value the word beside it
				// is (Emma a doctor's first name alone) decides (found
				// from outside: asked which, though no patient is Emma).
				if ks := b.besideName(t, keep); len(ks) > 0 {
					t.cands = ks
					continue
				}
				q := fmt.Sprintf("%q is a value of more than one column; which do you mean: %s?", t.it.text, strings.Join(opts, " or "))
				if asked := b.valueOptions(t, keep); len(asked) == len(keep) {
					return clarify(q, asked...)
				}
				return clarify(q, opts...)
			}
			return b.clarifyColumn(t.it.text, keep)
		}
		t.cands = keep
	}
	return nil
}

// valueNamesEvent returns the date a value names as the event that dated
// its rows, or "": a value said as a verb after was/were (or right after
// its table's name) beside a period, whose past form is the first word
// of a date of its table ("booked" of booked_at). "Reservations booked
// last month" are the 151 booked in May, not the 47 of them still
// 'booked'; "orders were shipped last month" the 99 with a May shipped_at,
// not the 22 still in transit (found from outside). A status named as one
// ("with status booked"), said twice ("submitted tickets were submitted"),
// or as a state ("are booked") stays a filter.
//
// Without a period it is read so only after was/were/been ("how many
// orders were shipped": those with a shipped_at, delivered since or not;
// "how many appointments did Maria Garcia book", read as "… were booked
// by Maria Garcia": every one she booked, not the 3 of 7 still 'booked'),
// and the rows are those with that date (values.go), cut on it by a
// time grain ("work orders completed by month": by completed_at).
func (b *builder) valueNamesEvent(t *term, s sense) string {
	v := lower(t.it.text)
	if t.neg || !pastForm(v) || !strings.EqualFold(v, s.value) || strings.Contains(v, " ") {
		return ""
	}
	e := b.p.entity(s.entity)
	if e == nil || !strings.EqualFold(s.entity, b.subjectOfMetrics()) && !strings.EqualFold(s.entity, b.subject) {
		return ""
	}
	ws := strings.Fields(b.st.text)
	at := -1
	for i, w := range ws {
		if w == v {
			if at >= 0 {
				return "" // said twice
			}
			at = i
		}
	}
	if at < 1 {
		return ""
	}
	for j := max(0, at-3); j < at; j++ {
		if statusField(ws[j]) {
			return "" // "with status booked"
		}
	}
	prev := ws[at-1]
	if prev == "already" && at >= 2 {
		prev = ws[at-2]
	}
	switch prev {
	case "was", "were", "been":
	case "got", "get", "gets":
		if len(b.st.dates) == 0 {
			return ""
		}
	default:
		if len(b.st.dates) == 0 && len(b.st.grains) == 0 && !b.st.trend || !slices.Contains(words(e.Name), prev) && !slices.Contains(words(e.Name), singular(prev)) {
			return ""
		}
	}
	date := ""
	for _, c := range e.Columns {
		cw := words(c.Name)
		if !c.Temporal() || len(cw) != 2 || !strings.EqualFold(cw[0], v) || b.p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		if date != "" {
			return "" // two dates of that name
		}
		date = c.Name
	}
	if date != "" && !strings.EqualFold(date, e.TimeColumn) && (len(b.st.dates) > 1 || b.st.compare) {
		return "" // one period moves to another date; compared ones do not
	}
	return date
}

// ownTimeColumn reports whether s is its table's own time column.
func (b *builder) ownTimeColumn(s sense) bool {
	e := b.p.entity(s.entity)
	return e != nil && strings.EqualFold(e.TimeColumn, s.column)
}

// endOf reports whether s is a date its rows end on (doctors.left_on),
// of a table dated by no column of its own: "doctors who left" are those
// whose end is set, as for a table dated by it (found from outside: every
// doctor listed once learn no longer dated them by a date set in two rows
// of 22).
func (b *builder) endOf(s sense) bool {
	e := b.p.entity(s.entity)
	if e == nil || e.TimeColumn != "" {
		return false
	}
	c := e.Column(s.column)
	return c != nil && c.TimeRole == semantic.TimeRoleEnd
}

// isEnd reports whether s is a date that ends the rows of its table
// (time_role end: left_on, churned_at): "how many drivers left" are
// those whose left_on is set (found from outside: refused).
func (b *builder) isEnd(s sense) bool {
	c := b.p.column(s.entity, s.column)
	return c != nil && c.TimeRole == semantic.TimeRoleEnd
}

// wholeName keeps, of columns a word names in part, the one column the
// words name whole, a yes/no prefix aside: "late" is is_late, not
// late_fee, whose name says more (found from outside: "how many payments
// were late" asked which of the two). Nil unless exactly one column's
// field is named so, and, across tables, unless it is a yes/no column.
func wholeName(text string, cs []sense) []sense {
	said := strings.Join(words(text), " ")
	var out []sense
	field, flagged := "", false
	entities := map[string]bool{}
	for _, s := range cs {
		entities[lower(s.entity)] = true
		ws := words(s.column)
		prefixed := false
		if len(ws) > 1 {
			switch ws[0] {
			case "is", "has", "was", "had":
				ws, prefixed = ws[1:], true
			}
		}
		if strings.Join(ws, " ") != said {
			continue
		}
		if field != "" && field != s.field {
			return nil
		}
		field, flagged = s.field, prefixed
		out = append(out, s)
	}
	if len(entities) > 1 && !flagged {
		return nil // "age" of pets or of students: which table is asked
	}
	return out
}

// valueOfCounted refuses a value that may be said of the rows a count
// condition counts ("plans with more than 10 subscriptions that are
// active", "… 10 active subscriptions", where subscriptions and plans
// both have the status active): the count would have to keep to the rows
// with that value, which quarry does not read yet, and the value put on
// the other rows, or on rows beside the count, answers another question
// (found from outside: plans.status = active, at 1.00). Nil otherwise.
func (b *builder) valueOfCounted(t *term) *Plan {
	for _, h := range b.st.having {
		if h == t || len(h.cands) == 0 || h.cands[0].kind != sEntity {
			continue
		}
		counted := h.cands[0].name
		if t.ofCounted && t.pos < h.pos && slices.ContainsFunc(t.cands, func(s sense) bool { return s.kind == sValue && strings.EqualFold(s.entity, counted) }) {
			// "more than 10 active subscriptions": a condition on the
			// rows counted (perRowCounts keeps the count to them).
			t.cands = slices.DeleteFunc(slices.Clone(t.cands), func(s sense) bool { return s.kind != sValue || !strings.EqualFold(s.entity, counted) })
			return nil
		}
		if t.pos < h.pos-1 {
			continue // "active plans with more than 10 subscriptions": said of the plans
		}
		if slices.ContainsFunc(t.cands, func(s sense) bool { return s.kind == sValue && strings.EqualFold(s.entity, counted) }) {
			by := ""
			if b.subject != "" && !strings.EqualFold(b.subject, counted) {
				by = " by " + singular(display(b.subject))
			}
			return b.fail(fmt.Sprintf("quarry cannot yet keep a count to the %s that are %s; ask for the number of %s %s%s, and read off those over the bound", display(counted), t.it.text, t.it.text, display(counted), by))
		}
	}
	return nil
}
