package planner

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/semantic"
)

// builder assembles the query from the terms of one question.
type builder struct {
	p       *Planner
	st      *state
	q       semantic.Query
	adhoc   []semantic.Metric
	subject string // the entity the question is about
	// yearCol: the subject's column of years the question names
	// ("founded", "year founded"), which its years go on even where the
	// rows have a date of their own (yearColumn); "" where it names none.
	yearCol string
	// shareCases are the conditions of the share defined (Plan.ShareCases).
	shareCases []semantic.Filter
	// namedThrough is the column of another table that names the
	// subject's rows, which have no label (nameThrough).
	namedThrough string
	groups       []string
	rows         bool
	colSort      *sense          // rows sorted by this column
	shown        map[string]bool // metrics the question asks to see, not only to rank or filter by
	hidden       []string        // dimensions grouped by but not returned (a table's key)
	argmax       bool            // "the X with the most Y": the X alone
	sortField    string          // a metric query sorted by this field ("order by document id")
	dirOnly      bool            // the order is a direction said alone ("revenue by channel, lowest first")
	sortPos      int             // the position of the term a list is sorted by
	title        []string
	// periodEnd is the end of the question's one period where the as-of
	// day cut it (Plan.PeriodEnd).
	periodEnd string
	// notes go to the plan's Notes (a dollar amount read in cents).
	notes []string
	// viaRole is the role entity the question's values of its table are
	// read through (valuesThroughRole).
	viaRole string
	// datedField and datedLabel: a period read as a condition on a date
	// of other rows (cohort.go), its filters titled once, after the
	// question's own period.
	datedField, datedLabel string
	datedTitled            bool
	// eventDate is the date named by a value read as the event that
	// dated the rows ("appointments were booked last month":
	// booked_at), where it is not the table's own date; a period given
	// without a date goes on it (valueNamesEvent).
	eventDate string
	// eventGrain is that date where the question has no period but a
	// time grain ("work orders completed by month"): the grain cuts it.
	eventGrain string
	// grainNamed: eventGrain is a date the question cut by its grain
	// itself ("units sold by launch year"), which the grain cuts
	// whichever rows it dates.
	grainNamed bool
}

func (p *Planner) build(st *state) *Plan {
	b := &builder{p: p, st: st, viaRole: st.linkRole}
	for _, t := range st.terms {
		if len(t.cands) > 1 && len(only(t.cands, sEntity)) == len(t.cands) {
			t.cands = p.unqualified(t.cands) // "invoices": not emea_invoices
		}
	}
	var joined map[string]bool // walked at the first term that needs it
	walked := false
	named := namedAlone(st.terms)
	for _, t := range st.terms {
		if len(t.cands) > 1 && !walked {
			joined, walked = p.joinedToNamed(st.terms), true
		}
		t.cands = p.ofCopies(ofNamed(ofJoined(t.cands, joined), named))
	}
	if st.rowsLead && len(st.terms) > 0 && len(st.terms[0].cands) > 0 && len(only(st.terms[0].cands, sMetric)) == len(st.terms[0].cands) {
		// "what is headcount", "what was headcount last year": a figure
		// named by a measure alone, never a list of the rows it counts
		// (found from outside: 60 names listed).
		st.rowsLead = false
	}
	if pl := b.signedUp(); pl != nil {
		return pl
	}
	b.periodAfterRows()
	b.datedRows()
	if pl := b.pairedPeriods(); pl != nil {
		return pl
	}
	if pl := b.sameOfYear(); pl != nil {
		return pl
	}
	if pl := b.ownContext(); pl != nil {
		return pl
	}
	if pl := b.modeGroup(); pl != nil {
		return pl
	}
	if pl := b.resolveKinds(); pl != nil {
		return pl
	}
	if pl := b.measures(); pl != nil {
		return pl
	}
	if pl := b.resolveColumns(); pl != nil {
		return pl
	}
	if pl := b.nestedPeriods(); pl != nil {
		return pl
	}
	if pl := b.roles(); pl != nil {
		return pl
	}
	b.via()
	return p.byLinkGroups(st, p.linkRoleFields(st, b.withSome(b.withNone(b.finish()))))
}

// via records the tables the question names on the way to another, read
// as context ("tickets by agent team": agents) and neither grouped nor
// filtered by (the compiler reads those itself), so that where two routes
// reach that other table the compiler takes the one through them
// (semantic.Query.Via).
func (b *builder) via() {
	for _, t := range b.st.terms {
		if t.role != "context" || t.cands[0].kind != sEntity {
			continue
		}
		name := t.cands[0].name
		grouped := slices.ContainsFunc(b.groups, func(g string) bool {
			d := b.p.m.Dimension(g)
			return strings.HasPrefix(lower(g), lower(name)+".") || d != nil && strings.EqualFold(d.Entity, name)
		})
		if grouped || b.ownsFilter(name) || strings.EqualFold(name, b.subject) || strings.EqualFold(name, b.subjectOfMetrics()) || slices.ContainsFunc(b.q.Via, func(v string) bool { return strings.EqualFold(v, name) }) {
			continue
		}
		b.q.Via = append(b.q.Via, name)
		b.und("through %s", name)
	}
}

func (b *builder) und(format string, args ...any) {
	b.st.understood = append(b.st.understood, fmt.Sprintf(format, args...))
}

// resolveKinds decides for each term whether it is a value, a metric, an
// entity or a column, and asks when two meanings fit equally.
func (b *builder) resolveKinds() *Plan {
	if pl := b.implausibleValues(); pl != nil {
		return pl
	}
	// "top 3 products in each category", "best selling product per
	// category", "top 2 channels per month": a ranking within each group,
	// which quarry cannot express; its overall ranking answered another
	// question (found from outside).
	if (b.st.limit > 0 || b.st.order != "" || b.st.sup && !b.columnExtreme()) && b.rankedItems() && (b.st.perGroup || len(b.st.grains) > 0 && b.hasGroupTerm()) {
		return b.fail("quarry cannot rank within each group yet; ask for one group at a time (“top 3 products by units sold in Books”), or for the whole ranking")
	}
	b.wholeFlags()
	if pl := b.openState(); pl != nil {
		return pl
	}
	b.countPastQualifiers()
	for i, t := range b.st.terms {
		if f := b.flagOverName(t); f != nil {
			t.cands = f
		}
		if vals := only(t.cands, sValue); len(vals) > 0 && (!t.byMode || len(vals) == len(t.cands)) && b.preferValue(t, vals) {
			aliased := len(only(t.cands, sMetric, sEntity, sColumn, sDim)) > 0
			t.cands, t.role = vals, "value"
			if n := i + 1; len(t.aggs) > 0 && n < len(b.st.terms) && b.st.terms[n].afterStop {
				// "how many cats had appointments", "how many dogs with
				// surgery appointments": the cats are counted, not their
				// appointments (found from outside: the appointments
				// were); read as a kind of row (kindCount), or refused.
				return b.fail(fmt.Sprintf("quarry could not tell whether to count the %s or what the question says of them (%s)", t.it.text, b.st.terms[n].it.text))
			} else if len(t.aggs) > 0 && i+1 < len(b.st.terms) && len(b.st.terms[i+1].aggs) == 0 {
				b.st.terms[i+1].aggs, t.aggs = t.aggs, nil // "how many business customers"
			} else if len(t.aggs) > 0 && i+1 == len(b.st.terms) && aliased {
				// "how many cats": nothing after the value to count; a
				// count of a kind of row is read as a whole (kindCount),
				// never a list of the rows.
				return b.fail(fmt.Sprintf("quarry could not tell what to count of the rows with %s", t.it.text))
			}
			continue
		}
		b.metricOfColumn(t)
		cs := strongest(nonKey(only(t.cands, sMetric, sEntity, sColumn, sDim)))
		if own := b.namedOverStronger(t, cs); len(own) > 0 {
			t.cands, cs = own, own
		}
		if len(only(cs, sMetric, sEntity)) == 0 {
			// A table's own key column may still win over another
			// table's column of the same name, by rank.
			for _, k := range t.cands {
				if k.key {
					cs = append(cs, k)
				}
			}
		}
		if len(cs) == 0 {
			b.st.unknown = append(b.st.unknown, t.it.text)
			continue
		}
		ms, es := only(cs, sMetric), only(cs, sEntity)
		// "by plan": a dimension of the plans table named like it is more
		// precise than the table.
		if cols := only(cs, sColumn, sDim); t.byMode && len(cols) > 0 && len(es) == 1 && len(ms) == 0 {
			var own []sense
			for _, c := range cols {
				if strings.EqualFold(c.entity, es[0].name) {
					own = append(own, c)
				}
			}
			if len(own) == 1 {
				t.cands = own
				continue
			}
		}
		// "by signup month": the date cut by the grain beside it, not the
		// signups counted or their table.
		if b.grainBeside(t) {
			var dates []sense
			for _, c := range only(t.cands, sColumn, sDim) {
				if c.temporal && !c.key {
					dates = append(dates, c)
				}
			}
			if len(dates) > 0 {
				t.cands = dates
				continue
			}
		}
		// A metric that only counts an entity's rows ("orders", "customers")
		// is that entity: counting it gives the metric back.
		if len(ms) > 0 {
			if conv := b.countsAsEntity(ms); conv != nil {
				ms, es = nil, conv
			}
		}
		if len(ms) > 0 {
			for _, e := range only(t.cands, sEntity) {
				all := true
				for _, m := range ms {
					all = all && b.p.isCountOf(m.name, e.name)
				}
				if all {
					ms, es = nil, []sense{e}
					break
				}
			}
		}
		if len(ms) == 0 && len(es) > 1 {
			es = b.p.unqualified(es)
		}
		switch {
		case len(ms) > 0 && len(es) > 0:
			m, e := ms[0], es[0]
			return clarify(fmt.Sprintf("By %q do you mean the metric %s or the %s table?", t.it.text, display(m.name), display(e.name)),
				"metric "+m.name, "entity "+e.name)
		case len(ms) > 1:
			var opts []string
			for _, m := range ms {
				opts = append(opts, "metric "+m.name)
			}
			return clarify(fmt.Sprintf("%q could mean several metrics; which one?", t.it.text), opts...)
		case len(es) > 1:
			var opts []string
			for _, e := range es {
				opts = append(opts, "entity "+e.name)
			}
			return clarify(fmt.Sprintf("%q could mean several tables; which one?", t.it.text), opts...)
		case len(ms) == 1:
			t.cands = ms
		case len(es) == 1:
			t.cands = es
		default:
			t.cands = cs
		}
	}
	if len(b.st.unknown) > 0 {
		return b.p.unanswered(b.st, notKnown(b.st))
	}
	return nil
}

// countsAsEntity returns the entity that every metric in ms only counts.
func (b *builder) countsAsEntity(ms []sense) []sense {
	var e string
	for _, m := range ms {
		me := b.p.metricEntity(m.name, nil)
		if me == "" || !b.p.isCountOf(m.name, me) || e != "" && e != me {
			return nil
		}
		e = me
	}
	return []sense{{kind: sEntity, name: e, entity: e, strength: ms[0].strength}}
}

// preferValue reports whether a term that is both a value and something
// else ("sales": the revenue metric or the Sales department) is the value:
// only when nothing else fits, or when the question also names the value's
// table or column.
func (b *builder) preferValue(t *term, vals []sense) bool {
	if others := only(t.cands, sMetric, sEntity, sColumn, sDim); len(others) == 0 || onlyAliases(others) {
		// "how many cats": the species Cat, not a word of the column
		// treatment_cat (found from outside). But "maintenance jobs
		// completed last year" is the jobs' completed_at, not the status
		// 'completed' of rentals, which nothing else names (found from
		// outside: refused as the rentals').
		return len(others) == 0 || !b.ownDateOverValue(t, others, vals)
	}
	for _, u := range b.st.terms {
		if u == t {
			continue
		}
		for _, s := range u.cands {
			for _, v := range vals {
				if (s.kind == sEntity || s.kind == sMetric) && strings.EqualFold(s.entity, v.entity) ||
					s.kind == sColumn && s.field == v.field {
					return true
				}
			}
		}
	}
	return false
}

// dateAfter reports whether a period of the question is said after t.
func (b *builder) dateAfter(t *term) bool {
	for _, at := range b.st.datePos {
		if at > t.pos {
			return true
		}
	}
	return false
}

// flagOverName is the yes/no column a word names by its adjective where
// the word is also a name in the same table: "excluding test patients"
// is is_test, not the patients whose last name is Test (found from
// outside). nil otherwise.
func (b *builder) flagOverName(t *term) []sense {
	var flags []sense
	for _, f := range t.cands {
		if f.kind == sColumn && f.flag != nil {
			flags = append(flags, f)
		}
	}
	if len(flags) != 1 {
		return nil
	}
	for _, v := range only(t.cands, sValue) {
		e := b.p.entity(v.entity)
		if e != nil && strings.EqualFold(v.entity, flags[0].entity) && (strings.Contains(lower(v.column), "name") || strings.EqualFold(b.p.label(e), v.column)) {
			return flags
		}
	}
	return nil
}

// measures turns metric terms, aggregate words and counted entities into
// the query's metrics and picks the subject entity.
func (b *builder) measures() *Plan {
	st := b.st
	for i, t := range st.terms {
		if t.role != "" {
			continue
		}
		s := t.cands[0]
		// "the highest product price", "the average singer age": an
		// aggregate of the column named right after its table.
		if s.kind == sEntity && len(t.aggs) > 0 && !hasString(t.aggs, "count") && i+1 < len(st.terms) {
			if n := st.terms[i+1]; n.pos == t.pos+1 && len(n.aggs) == 0 && n.role == "" && !n.byMode {
				var own []sense
				for _, c := range n.cands {
					if c.kind == sColumn && strings.EqualFold(c.entity, s.name) {
						own = append(own, c)
					}
				}
				if len(own) > 0 {
					n.cands, n.aggs, t.aggs = own, t.aggs, nil
					t.role = "context"
					continue
				}
			}
		}
		if t.hasNum && (s.kind == sMetric || s.kind == sEntity) {
			continue // a condition on an aggregate; handled with the groups
		}
		switch s.kind {
		case sMetric:
			for _, a := range t.aggs {
				switch a {
				case "avg":
					if !b.p.isAverage(s.name) {
						return b.fail(fmt.Sprintf("an average of %s needs a period or group to average over, which quarry does not read from the question; ask for %s by month, or for a metric defined as an average", display(s.name), display(s.name)))
					}
				case "max":
					st.order = "desc"
				case "min":
					st.order = "asc"
				}
			}
			b.addMetric(s.name)
			b.show(s.name, t)
			t.role = "metric"
			b.und("metric %s", s.name)
		case sEntity:
			if e := b.p.entity(s.name); e != nil && len(t.aggs) == 1 && t.aggs[0] == "count" {
				if _, ok := b.namedAmount(t, e); ok {
					// "how many volunteer hours": the hours, added up,
					// not the rows of volunteer_hours (found from outside).
					t.aggs = []string{"sum"}
				}
			}
			if c, ok := b.amountOf(t, s.name); ok {
				if end := b.p.validUntil(s.name); end != "" {
					return b.fail(fmt.Sprintf("each row of %s holds for a period that ends at %s, so the %s of %s.%s would mix past and current rows; quarry does not guess which are meant — ask for those whose %s is empty, or by period", display(s.name), end, map[string]string{"sum": "total", "avg": "average", "max": "largest", "min": "smallest"}[t.aggs[0]], s.name, c.column, end))
				}
				// "total fines", "average salary": the table's one
				// amount, added up or averaged.
				b.und("%q read as the %s of %s.%s", t.it.text, map[string]string{"sum": "total", "avg": "average", "max": "largest", "min": "smallest"}[t.aggs[0]], s.name, c.column)
				t.cands = []sense{c}
				if pl := b.columnAggs(t); pl != nil {
					return pl
				}
				continue
			}
			if len(t.aggs) == 1 && t.aggs[0] == "avg" && b.beforeItsMetric(t, s.name) {
				// "average ticket resolution time": the average is the
				// metric's, and the table's word says whose it is.
				t.aggs = nil
				continue
			}
			counted := len(t.aggs) > 0 || t.byMode && b.st.order != "" && !t.mode // "by number of orders"
			// "revenue and orders by channel", "orders and revenue": a
			// table joined by and/or to a metric is a second measure, its
			// count (found from outside: it was dropped without a word).
			if !t.byMode && !t.hasNum && (t.conj && i > 0 && st.terms[i-1].cands[0].kind == sMetric ||
				i+1 < len(st.terms) && st.terms[i+1].conj && st.terms[i+1].cands[0].kind == sMetric && !st.terms[i+1].byMode) {
				counted = true
			}
			for _, a := range t.aggs {
				switch a {
				case "avg":
					pl := b.fail(fmt.Sprintf("an average of %s is not something quarry can read; ask for the number of %s, or an average of one of its columns", display(s.name), display(s.name)))
					pl.avgOf = s.name
					return pl
				case "max":
					st.order = "desc"
				case "min":
					st.order = "asc"
				}
			}
			if counted && len(t.aggs) == 0 {
				if pl := b.rankedByMoneyRows(t, s.name); pl != nil {
					return pl
				}
			}
			if counted {
				name := b.countMetric(s.name)
				b.addMetric(name)
				b.show(name, t)
				t.role = "metric"
				b.und("count of %s", s.name)
			}
		case sColumn, sDim:
			if pl, ok := b.receivedAmount(t); ok {
				if pl != nil {
					return pl
				}
				continue
			}
			if len(t.aggs) == 0 && b.impliedTotal(t) {
				// "maintenance cost by month", "freight cost 2024 vs
				// 2025": an amount of money by periods or groups is its
				// total (found from outside: refused).
				t.aggs = []string{"sum"}
				b.und("%q "+readAsTotal, t.it.text)
			}
			if len(t.aggs) == 0 {
				continue
			}
			if pl := b.columnAggs(t); pl != nil {
				return pl
			}
		}
	}
	// The subject: the first metric's entity, else the first entity named.
	if len(b.q.Metrics) > 0 {
		b.subject = b.p.metricEntity(b.q.Metrics[0], b.adhoc)
	}
	if b.subject == "" && len(b.q.Metrics) == 0 {
		b.subject = b.childColumnsListed()
	}
	if b.subject == "" {
		for _, t := range st.terms {
			if t.role == "" && !t.byMode && !t.hasNum && t.cands[0].kind == sEntity && !(st.order != "" && t.rowsQ && st.colSup == "" && len(st.having) == 0 && !b.anyColAgg()) {
				b.subject = t.cands[0].name
				break
			}
		}
	}
	if b.subject == "" {
		for _, t := range st.terms {
			if t.role == "" && t.cands[0].kind == sEntity {
				b.subject = t.cands[0].name
				break
			}
		}
	}
	return b.attemptsAsDone()
}

// childColumnsListed is, for a list whose first column is named with its
// own table's word before a table its rows belong to ("the paragraph
// texts for the document 'Customer reviews'"), that column's table: the
// rows listed are its, kept to those of the named row, as "paragraphs of
// the document" are. "" otherwise.
func (b *builder) childColumnsListed() string {
	var col *term
	for _, t := range b.st.terms {
		switch t.cands[0].kind {
		case sColumn:
			if col == nil && t.role == "" && !t.byMode && len(t.aggs) == 0 {
				col = t
			}
			continue
		case sEntity:
		default:
			continue
		}
		if col == nil || t.byMode || t.hasNum {
			return ""
		}
		c := col.cands[0]
		if slices.ContainsFunc(col.cands, func(s sense) bool { return !strings.EqualFold(s.entity, c.entity) }) || strings.EqualFold(c.entity, t.cands[0].name) {
			return ""
		}
		ent := b.p.entity(c.entity)
		if ent == nil || !b.p.upOf(lower(ent.Name))[lower(t.cands[0].name)] {
			return ""
		}
		// Its own table's word begins the column's name: Paragraph_Text
		// of Paragraphs, said "paragraph texts".
		cw, tw := nameWords(c.column), words(ent.Name)
		if len(cw) < 2 || len(tw) == 0 || singular(tw[len(tw)-1]) != singular(cw[0]) || !strings.HasPrefix(col.it.text, cw[0]) {
			return ""
		}
		return ent.Name
	}
	return ""
}

// impliedTotal reports whether a column named with no aggregate is an
// amount of money or a quantity moved (flowQuantity) the question asks
// for by periods or groups, and so its total: the column adds up (a cost,
// a fee, an amount, units sold; not a price, a rate or a stock level), the
// question names no other measure, does not ask for rows, and
// names a period, a grain, a comparison or a grouping.
func (b *builder) impliedTotal(t *term) bool {
	st := b.st
	if t.byMode || t.sortBy || t.hasNum || t.rowsQ || t.withA || st.rowsLead || len(t.cands) == 0 || !b.p.additiveColumn(t.cands) {
		return false // "payments with a late fee": the rows that have one
	}
	for _, s := range t.cands {
		if c := b.p.column(s.entity, s.column); !moneyName(s.column) && !b.p.flowQuantity(s) && (c == nil || !semantic.MinorUnit(c.Unit, c.Name)) {
			return false // a column in cents is money too (tip_cents)
		}
		if !namesHead(t.it.text, s.column) {
			return false // "deliveries by courier": not the delivery fee
		}
	}
	grouped := len(st.dates) > 0 || len(st.grains) > 0 || st.compare
	for _, u := range st.terms {
		if u == t {
			continue
		}
		if len(u.aggs) > 0 || u.cands[0].kind == sMetric && !u.byMode || u.rowsQ {
			return false
		}
		grouped = grouped || u.byMode
	}
	// "total amount of unpaid invoices" naming total_amt: the word
	// "total" is part of the column's name and also asks for its total
	// (found from outside: refused as a measure named alone).
	said := strings.HasPrefix(lower(t.it.text), "total ") && slices.ContainsFunc(t.cands, func(s sense) bool {
		ws := nameWords(s.column)
		return len(ws) > 0 && ws[0] == "total"
	})
	return grouped || said
}

// wholeFlags keeps, of the columns a word names, the yes/no column it
// names whole ("late": is_late, not late_fee), so that it qualifies the
// rows counted as any flag does (found from outside: "how many late
// rentals" asked which of the two).
func (b *builder) wholeFlags() {
	for _, t := range b.st.terms {
		if len(only(t.cands, sColumn)) != len(t.cands) || slices.ContainsFunc(t.aggs, func(a string) bool { return a != "count" }) {
			continue // a value too ("active": a status), or a total ("total paid": the amount)
		}
		if ex := wholeName(t.it.text, t.cands); len(ex) > 0 && len(ex) < len(t.cands) && ex[0].flag != nil {
			t.cands = ex
		}
	}
}

// countPastQualifiers moves a count asked before words that only qualify
// the thing counted to that thing: "how many high priority tickets" (a
// value and its own column), "how many discontinued products" (a yes/no
// column used as an adjective), "how many web channel orders". Left on
// the qualifier, the count became COUNT(DISTINCT priority) = 1 (found from
// outside).
func (b *builder) countPastQualifiers() {
	terms := b.st.terms
	for i := 0; i < len(terms); i++ {
		t := terms[i]
		if len(t.aggs) != 1 || t.aggs[0] != "count" || !b.qualifies(terms, i) {
			continue
		}
		j := i
		for j+1 < len(terms) && terms[j+1].pos == terms[j].pos+1 && !terms[j+1].afterStop && len(terms[j+1].aggs) == 0 && b.qualifies(terms, j) {
			j++
			if !b.qualifies(terms, j) {
				break
			}
		}
		if j > i && !b.qualifies(terms, j) && (len(only(terms[j].cands, sEntity, sMetric)) > 0 || flagOfColumn(terms[j-1], terms[j])) {
			terms[j].aggs, t.aggs = t.aggs, nil
		}
	}
}

// implausibleValues refuses a word read as a value where a value does not
// fit how the question uses it — an ordinary word that happens to be a
// category (found from outside: "how many people" counted the People
// department, "number of accounts" the Account tickets, "number of people
// in each department" grouped the People department by department):
//   - the word carries the count and what follows it names no rows to
//     count (nothing, or another column: "how many people opened
//     tickets" counted distinct opening dates of the People department);
//   - the question also groups by the value's own column.
func (b *builder) implausibleValues() *Plan {
	terms := b.st.terms
	for i, t := range terms {
		vals := only(t.cands, sValue)
		if len(vals) == 0 || len(vals) != len(t.cands) {
			continue
		}
		v, oneField := vals[0], true
		for _, w := range vals {
			oneField = oneField && w.field == v.field
		}
		if !oneField {
			continue // a value of several columns is asked about first
		}
		// "which department has the most people", "number of people in
		// each department": "people" is counted, and grouped by its own
		// column (the People department by department is no question):
		// the rows of a table of persons that the grouping is of.
		if len(t.aggs) > 0 && stemWord(strings.ToLower(t.it.text)) == "person" && b.p.ofPersons(v.entity) && b.namesField(t, v.field) {
			t.cands = []sense{{kind: sEntity, name: b.p.entity(v.entity).Name, entity: b.p.entity(v.entity).Name, strength: v.strength}}
			continue
		}
		// "customer support tickets": the value Customer Support (a
		// department) before the tickets it shares a word with may be part
		// of the table's own name, the support tickets.
		if i+1 < len(terms) && terms[i+1].pos == t.pos+1 {
			if es := only(terms[i+1].cands, sEntity); len(es) > 0 && !strings.EqualFold(es[0].name, v.entity) && sharesWord(t.it.text, es[0].name) {
				return b.fail(fmt.Sprintf("“%s %s” may name the %s, or those of %s %s; say which (“%s where %s is %s”, or “all %s”)", t.it.text, terms[i+1].it.text, display(es[0].name), v.field, v.value, display(es[0].name), v.field, v.value, display(es[0].name)))
			}
		}
		if len(t.aggs) > 0 && stemWord(strings.ToLower(t.it.text)) == "person" && !strings.Contains(b.st.raw, v.value) {
			// "how many people work in Engineering", "how many people
			// did we hire": the persons of the one table of persons the
			// question's other words are of.
			if e := b.personsNamed(t); e != "" {
				t.cands = []sense{{kind: sEntity, name: e, entity: e, strength: v.strength}}
				continue
			}
			// "how many people did we hire": the persons counted, not
			// the People department, written as a common word (found
			// from outside: 0 hires of the People department).
			return b.fail(fmt.Sprintf("%q may be the value %q of %s or the persons themselves; say “%s in %s”, or name whom to count (“how many %s …”, “how many customers …”)", t.it.text, v.value, v.field, display(v.entity), v.value, display(v.entity)))
		}
		if len(t.aggs) > 0 {
			// The thing counted: the first word after the value that is
			// not one of its qualifiers must name rows (a table or a
			// metric), not another column.
			j := i + 1
			for j < len(terms) && b.qualifies(terms, j) {
				j++
			}
			if j == len(terms) || len(only(terms[j].cands, sEntity, sMetric)) == 0 {
				pl := b.fail(fmt.Sprintf("%q reads as the value %q of %s, and quarry cannot count a value; name what to count, such as “how many %s are %s”", t.it.text, v.value, v.field, display(v.entity), v.value))
				if len(t.cands) == 1 && semantic.StatusName(strings.TrimPrefix(v.field, v.entity+".")) && plural(singular(t.it.text)) == t.it.text && singular(t.it.text) != t.it.text {
					// "the most no-shows": the rows that are so.
					pl.valueNoun, pl.valueIs, pl.valueOf = t.it.text, v.value, v.entity
				}
				return pl
			}
		}
		negated := t.neg || t.conj && slices.ContainsFunc(terms, func(u *term) bool {
			// "excluding US and UK": the negation covers the list.
			return u != t && u.neg && slices.ContainsFunc(u.cands, func(c sense) bool { return c.kind == sValue && c.field == v.field })
		})
		for _, u := range terms {
			if u == t || !u.byMode || negated {
				// "customers by country except the US": the groups but
				// one, which the question leaves out.
				continue
			}
			for _, c := range u.cands {
				if (c.kind == sColumn || c.kind == sDim) && c.field == v.field {
					return b.fail(fmt.Sprintf("%q reads as the value %q of %s, but the question also groups by %s; name what to count, such as “how many %s by %s”", t.it.text, v.value, v.field, u.it.text, display(v.entity), u.it.text))
				}
			}
		}
	}
	return nil
}

// personsNamed is the one table of persons whose columns, values or
// dates the question's terms other than t name ("Engineering", a
// department of employees; "hire", the employees' hire date); "" when
// none or several.
func (b *builder) personsNamed(t *term) string {
	found := ""
	for _, u := range b.st.terms {
		if u == t {
			continue
		}
		for _, c := range u.cands {
			if c.kind != sColumn && c.kind != sValue && c.kind != sDim && c.kind != sEntity || c.entity == "" || !b.p.ofPersons(c.entity) {
				continue
			}
			e := b.p.entity(c.entity)
			if e == nil {
				continue
			}
			if found != "" && found != e.Name {
				return ""
			}
			found = e.Name
		}
	}
	return found
}

// namesField reports whether a term other than t names field (a column or
// a dimension).
func (b *builder) namesField(t *term, field string) bool {
	for _, u := range b.st.terms {
		if u == t {
			continue
		}
		for _, c := range u.cands {
			if (c.kind == sColumn || c.kind == sDim) && strings.EqualFold(c.field, field) {
				return true
			}
		}
	}
	return false
}

// personNouns name people in a table's name or synonyms.
var personNouns = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"person", "employee", "staff", "worker", "personnel", "team member", "member", "customer", "client", "user", "student", "teacher", "patient", "player",
		"guest", "visitor", "passenger", "subscriber", "buyer", "shopper", "donor", "tenant", "resident", "attendee", "participant", "volunteer"} {
		m[stemKey(n)] = true
	}
	return m
})

// ofPersons reports whether a table's rows are people: its name or a
// synonym is a noun for persons ("employees", "staff").
func (p *Planner) ofPersons(entity string) bool {
	e := p.entity(entity)
	if e == nil {
		return false
	}
	for _, n := range append([]string{e.Name}, e.Synonyms...) {
		if personNouns()[stemKey(strings.ToLower(strings.ReplaceAll(n, "_", " ")))] {
			return true
		}
	}
	return false
}

// rankedItems reports whether the question names things to rank: a table
// ("products"), or with a limit any column ("top 2 channels").
func (b *builder) rankedItems() bool {
	for _, t := range b.st.terms {
		if t.byMode {
			continue
		}
		switch t.cands[0].kind {
		case sEntity:
			return true
		case sColumn, sDim:
			if b.st.limit > 0 {
				return true
			}
		}
	}
	return false
}

// columnExtreme reports whether a superlative is a column's own maximum or
// minimum ("the maximum net worth of each citizenship"), an aggregate per
// group rather than a ranking.
func (b *builder) columnExtreme() bool {
	for _, t := range b.st.terms {
		if k := t.cands[0].kind; (k == sColumn || k == sDim) && (hasString(t.aggs, "max") || hasString(t.aggs, "min")) {
			return true
		}
	}
	return false
}

// hasGroupTerm reports whether a term groups ("by channel").
func (b *builder) hasGroupTerm() bool {
	for _, t := range b.st.terms {
		if t.byMode {
			return true
		}
	}
	return false
}

func (b *builder) anyColAgg() bool {
	for _, t := range b.st.terms {
		if t.role == "colagg" {
			return true
		}
	}
	return false
}

// pickByNamedEntity keeps the senses whose entity the question names.
// When none is named, it keeps those of the one table the question's other
// columns and values belong to ("average unit price by category").
func (b *builder) pickByNamedEntity(cs []sense) []sense {
	var out []sense
	for _, s := range cs {
		for _, t := range b.st.terms {
			if t.cands[0].kind == sEntity && strings.EqualFold(t.cands[0].name, s.entity) {
				out = append(out, s)
				break
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	others := map[string]bool{}
	for _, t := range b.st.terms {
		if t.role == "colagg" || len(t.aggs) > 0 {
			continue
		}
		for _, s := range t.cands {
			if s.kind == sColumn || s.kind == sValue {
				others[lower(s.entity)] = true
			}
		}
	}
	for _, s := range cs {
		if others[lower(s.entity)] {
			out = append(out, s)
		}
	}
	return out
}

func (b *builder) clarifyColumn(text string, cs []sense) *Plan {
	var opts []string
	seen := map[string]bool{}
	for _, s := range cs {
		o := s.entity + "." + s.column
		if s.kind == sDim {
			o = s.name
		}
		if !seen[o] {
			seen[o] = true
			opts = append(opts, o)
		}
	}
	if len(opts) == 1 {
		return nil
	}
	sort.Strings(opts)
	return clarify(fmt.Sprintf("%q could mean %s; which one?", text, strings.Join(opts, " or ")), opts...)
}

func (b *builder) fail(reason string) *Plan {
	return b.p.unanswered(b.st, reason)
}

func (b *builder) addMetric(name string) {
	for _, m := range b.q.Metrics {
		if m == name {
			return
		}
	}
	b.q.Metrics = append(b.q.Metrics, name)
}

// show records that the question asks to see metric name: it is named
// plainly, or counted or aggregated ("how many orders"), not only ranked
// by ("the most orders").
func (b *builder) show(name string, t *term) {
	if len(t.aggs) == 0 || t.aggs[0] != "max" && t.aggs[0] != "min" {
		if b.shown == nil {
			b.shown = map[string]bool{}
		}
		b.shown[name] = true
	}
}

func (b *builder) addAdHoc(m semantic.Metric) {
	for b.p.m.Metric(m.Name) != nil {
		m.Name += "_q"
	}
	for _, a := range b.adhoc {
		if a.Name == m.Name {
			b.addMetric(m.Name)
			return
		}
	}
	b.adhoc = append(b.adhoc, m)
	b.addMetric(m.Name)
}

// countMetric is a defined metric that counts the rows of entity e, or an
// ad-hoc COUNT.
func (b *builder) countMetric(e string) string {
	for _, m := range b.p.m.Metrics {
		if b.p.isCountOf(m.Name, e) && strings.EqualFold(m.Name, e) {
			return m.Name
		}
	}
	for _, m := range b.p.m.Metrics {
		if b.p.isCountOf(m.Name, e) {
			return m.Name
		}
	}
	ent := b.p.entity(e)
	expr := "COUNT(*)"
	if ent != nil && ent.PrimaryKey != "" {
		expr = "COUNT(" + semantic.Ref(ent.Name, ent.PrimaryKey) + ")"
	}
	name := "count_" + e
	for _, a := range b.adhoc {
		if a.Name == name {
			return name
		}
	}
	b.addAdHoc(semantic.Metric{Name: name, Entity: e, Expr: expr, Format: "integer", Description: "number of " + display(e)})
	return b.adhoc[len(b.adhoc)-1].Name
}

// isAverage reports whether a metric is itself an average or a ratio, so
// that "average X" names it rather than an average of it.
func (p *Planner) isAverage(name string) bool {
	m := p.m.Metric(name)
	if m == nil {
		return false
	}
	x := strings.ToUpper(strings.TrimSpace(m.Expr))
	return m.Derived != "" || strings.HasPrefix(x, "AVG(") || m.Format == "percent" ||
		strings.Contains(lower(m.Name), "average") || strings.Contains(lower(m.Name), "avg") || strings.Contains(lower(m.Name), "rate")
}

// metricEntity is the entity a metric counts over.
func (p *Planner) metricEntity(name string, adhoc []semantic.Metric) string {
	for _, a := range adhoc {
		if a.Name == name {
			return a.Entity
		}
	}
	return p.entityOfMetric(name, 0)
}

func (p *Planner) entityOfMetric(name string, depth int) string {
	m := p.m.Metric(name)
	if m == nil || depth > 8 {
		return ""
	}
	if m.Entity != "" {
		if e := p.entity(m.Entity); e != nil {
			return e.Name
		}
	}
	if m.Derived != "" {
		s := m.Derived
		if i := strings.IndexByte(s, '{'); i >= 0 {
			if j := strings.IndexByte(s[i:], '}'); j > 0 {
				return p.entityOfMetric(strings.TrimSpace(s[i+1:i+j]), depth+1)
			}
		}
		return ""
	}
	for _, tok := range strings.FieldsFunc(m.Expr, func(r rune) bool {
		return !(r == '.' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if e, _, ok := strings.Cut(tok, "."); ok {
			if ent := p.entity(e); ent != nil {
				return ent.Name
			}
		}
	}
	return ""
}

// parentDated is the date of the one table that the rows a question
// lists or measures belong to, where those rows have no date of their
// own (semantic.PartsDate): purchase_order_lines, each of one purchase
// order, dated by purchase_orders.ordered_on. "" where the rows have a
// date, measures of several tables are asked, or none or several of the
// tables they point at have one.
func (b *builder) parentDated() string {
	ent := ""
	if b.rows {
		ent = b.subject
	}
	for _, m := range b.q.Metrics {
		if b.p.metricHasTime(m, b.adhoc) {
			return ""
		}
		e := b.p.metricEntity(m, b.adhoc)
		if e == "" || ent != "" && !strings.EqualFold(e, ent) {
			return ""
		}
		ent = e
	}
	return b.p.m.PartsDate(ent, b.p.entity)
}

// metricHasTime reports whether a metric has a time axis.
func (p *Planner) metricHasTime(name string, adhoc []semantic.Metric) bool {
	for _, a := range adhoc {
		if a.Name == name {
			if a.Time != "" {
				return true
			}
			e := p.entity(a.Entity)
			return e != nil && e.TimeColumn != ""
		}
	}
	m := p.m.Metric(name)
	if m == nil {
		return false
	}
	if m.Time != "" {
		return true
	}
	if m.Derived != "" {
		refs := derivedNames(m.Derived)
		for _, r := range refs {
			if r == name || !p.metricHasTime(r, nil) {
				return false
			}
		}
		return len(refs) > 0
	}
	return p.entityTime(p.entityOfMetric(name, 0))
}

func (p *Planner) entityTime(e string) bool {
	ent := p.entity(e)
	return ent != nil && ent.TimeColumn != ""
}

func fmtNum(f float64) any {
	if f == float64(int64(f)) {
		return int64(f)
	}
	return f
}

func numText(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// derivedNames lists the metric names in braces in a derived expression.
func derivedNames(x string) []string {
	var out []string
	for {
		i := strings.IndexByte(x, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(x[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, strings.TrimSpace(x[i+1:i+j]))
		x = x[i+j+1:]
	}
}

func nonKey(ss []sense) []sense {
	var out []sense
	for _, s := range ss {
		if !s.key {
			out = append(out, s)
		}
	}
	return out
}
