package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// existsValue reads a value of a table with many rows for each row of the
// subject ("students who have a dog", "customers who ordered on mobile")
// as the subject's rows that have such a row: the term's role becomes
// "exists", and existsFilters writes the filter. It applies when the
// value names one column, its table is joined to the subject directly or
// through the one table that links them, and the subject's rows are
// listed or counted, not measured by a metric of another table.
func (b *builder) existsValue(t *term) bool {
	if b.subject == "" || len(b.q.Metrics) > 0 && !b.countsSubject() {
		return false
	}
	for _, h := range b.st.having {
		if s := h.cands[0]; s.kind == sMetric && b.countedEntity(s.name) == "" {
			// "customers who spent more than $500 on Electronics": the
			// amount of those lines, which a total of whole orders that
			// hold one is not (found from outside: 165 for 95).
			return false
		}
	}
	if countedValue(b.st.text, t.it.text) && !b.adjectiveOf(t, "") {
		// "how many managers per restaurant": the managers are what is
		// counted, not the restaurants that have one (found from
		// outside: 5 restaurants, at 1.00).
		return false
	}
	if saidAfter(b.st.text, t.it.text, "to", "into", "towards", "toward") {
		// "flights to Denver", where Denver is only a city of members
		// who booked: rows that go to it are not rows related to it
		// (found from outside: read as flights with a Denver member).
		return false
	}
	cands := t.cands
	if named := b.namedEntities(); len(cands) > 1 {
		// "both refunded and cancelled orders": the orders' status, not
		// a subscription's.
		var keep []sense
		for _, s := range cands {
			if named[lower(s.entity)] {
				keep = append(keep, s)
			}
		}
		cands = keep
	}
	fields := map[string]bool{}
	for _, s := range cands {
		fields[s.field] = true
	}
	if len(fields) != 1 || !b.p.linked(b.subject, cands[0].entity) {
		return false
	}
	t.cands = cands[:1]
	t.role = "exists"
	return true
}

// adjectiveOf reports whether the term right after t names entity, or
// any table for "": t is said of its rows ("closed venues", "how many
// active accounts").
func (b *builder) adjectiveOf(t *term, entity string) bool {
	for _, u := range b.st.terms {
		if u.pos == t.pos+1 {
			return slices.ContainsFunc(u.cands, func(c sense) bool {
				return c.kind == sEntity && (entity == "" || strings.EqualFold(c.name, entity))
			})
		}
	}
	return false
}

// countedValue reports whether value is what the question counts ("how
// many managers", "number of managers"), in text, the question's words.
func countedValue(text, value string) bool {
	text = " " + text + " "
	for _, c := range []string{"how many", "number of", "count of"} {
		if strings.Contains(text, " "+c+" "+value+" ") {
			return true
		}
	}
	return false
}

// existsFlag reads a yes/no column of a table joined to the subject
// through many rows, said beside a value of that same table ("countries
// with English as an official language": countrylanguage.IsOfficial), as
// a condition on the related row the value picks; existsFilters adds it
// to that row's conditions. It reports whether it did.
func (b *builder) existsFlag(t *term) bool {
	s := t.cands[0]
	if s.flag == nil || t.hasNum || b.subject == "" || !b.p.linked(b.subject, s.entity) {
		return false
	}
	for _, u := range b.st.terms {
		if u != t && slices.ContainsFunc(u.cands, func(c sense) bool { return c.kind == sValue && strings.EqualFold(c.entity, s.entity) }) {
			t.role = "existsflag"
			return true
		}
	}
	return false
}

// columnOfValue reports whether term t names only the column of a value
// another term of the question names ("English … language": Language),
// which says nothing more of the rows.
func (b *builder) columnOfValue(t *term) bool {
	for _, s := range t.cands {
		if s.kind != sColumn || s.flag != nil {
			return false
		}
		found := false
		for _, u := range b.st.terms {
			found = found || u != t && slices.ContainsFunc(u.cands, func(c sense) bool { return c.kind == sValue && strings.EqualFold(c.field, s.field) })
		}
		if !found {
			return false
		}
	}
	return len(t.cands) > 0
}

// countsSubject reports whether the query's only metric counts the
// subject's rows.
func (b *builder) countsSubject() bool {
	return len(b.q.Metrics) == 1 && b.countedEntity(b.q.Metrics[0]) != "" && strings.EqualFold(b.countedEntity(b.q.Metrics[0]), b.subject)
}

// linked reports whether entity r is joined to e by one relationship, or
// in the one way semantic.Model.Related finds (through the one entity
// whose rows refer to both, or a chain of references to both) — what the
// compiler can say with EXISTS (semantic relatedFrom).
func (p *Planner) linked(e, r string) bool {
	if strings.EqualFold(e, r) {
		return false
	}
	n := 0
	for _, rel := range p.m.Relationships {
		if strings.EqualFold(rel.From, e) && strings.EqualFold(rel.To, r) || strings.EqualFold(rel.From, r) && strings.EqualFold(rel.To, e) {
			n++
		}
	}
	if n > 0 {
		return n == 1
	}
	_, ok := p.m.Related(e, r)
	return ok
}

// existsFilters writes the filters of the "exists" terms: the values of
// one column joined by "and"/"or" are one filter (a row with any of
// them), unless the question says "both" (a row with each); a negated
// value is a filter on having none ("students who do not have a cat").
func (b *builder) existsFilters() *Plan {
	for _, s := range b.st.nulls {
		if b.subject == "" || b.rank(s.entity, nil) > 2 {
			return b.fail(fmt.Sprintf("%s is a column of %s, which is not a single related row of each %s row; quarry does not guess how to combine them", s.column, display(s.entity), display(b.subject)))
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNull})
		b.und("filter %s is empty", s.field)
	}
	for _, rr := range b.st.related {
		if b.subject == "" || !b.p.linked(b.subject, rr.entity) {
			return b.fail(fmt.Sprintf("quarry could not tell how %q relates to %s; ask for the %s that have one by a column of theirs", rr.text, display(b.subject), display(b.subject)))
		}
		op, verb := semantic.OpSome, "with"
		if rr.neg {
			op, verb = semantic.OpNone, "without"
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: rr.entity, Op: op, Where: rr.where})
		b.und("%s %s %s (a %s row where %s)", display(b.subject), verb, rr.text, rr.entity, whereText(rr.where))
	}
	var last *semantic.Filter
	var lastTerm *term
	for _, t := range b.st.terms {
		if t.role != "exists" {
			continue
		}
		prev := lastTerm
		lastTerm = t
		s := t.cands[0]
		if d := b.ownEventDate(t, s); d != "" {
			// "members who have expired": their own expires_on, or a
			// hold of theirs whose status is expired? (found from
			// outside: the hold's, 69 for 399, at 1.00.)
			return b.fail(fmt.Sprintf("quarry cannot tell whether %q says %s of the %s themselves (%s) or that they have a %s row whose %s is %s; ask “%s whose %s has passed” or “%s with %s %s”",
				t.it.text, t.it.text, display(b.subject), d, display(s.entity), s.column, s.value, display(b.subject), display(d[strings.Index(d, ".")+1:]), display(b.subject), t.it.text, display(s.entity)))
		}
		if pl := b.ownLinkNamed(t, s); pl != nil {
			return pl
		}
		if t.hasNum {
			return b.fail(fmt.Sprintf("quarry could not tell what “%s %s” compares; put it right after the column, such as “price over %s”", t.op, numText(t.num), numText(t.num)))
		}
		op := semantic.OpSome
		if t.neg {
			op = semantic.OpNone
		}
		if last != nil && prev != nil && t.pos == prev.pos+1 && !t.conj && !t.afterStop && op == semantic.OpSome && last.Op == semantic.OpSome &&
			strings.EqualFold(last.Field, s.entity) && !slices.ContainsFunc(last.Where, func(w semantic.Filter) bool { return strings.EqualFold(w.Field, s.field) }) {
			// "customers who have refunded mobile orders": values said
			// together of one noun hold on one row (an order both
			// refunded and mobile); "a refunded order and a mobile
			// order" are two (found from outside, both ways).
			last.Where = append(last.Where, semantic.Filter{Field: s.field, Op: semantic.OpEq, Values: []any{s.value}})
			b.und("and %s = %s on the same %s row", s.field, s.value, s.entity)
			continue
		}
		if last != nil && t.conj && !t.conjAnd && last.Where[len(last.Where)-1].Field != s.field {
			// "customers with refunded orders or mobile orders": rows
			// with either, which quarry does not write yet (found from
			// outside: read as both on one row).
			return b.fail(fmt.Sprintf("quarry cannot yet keep %s that have either of two conditions on different columns (%v or %s); ask for each", display(b.subject), last.Where[len(last.Where)-1].Values[0], s.value))
		}
		if last != nil && t.conj && t.conjAnd && !b.st.both && last.Op == semantic.OpSome && op == semantic.OpSome && len(last.Where) == 1 && last.Where[0].Field == s.field {
			// "customers who ordered Beauty and Sports": an order of
			// either, or orders of both? (found from outside: read as
			// either, where both was meant).
			return b.fail(fmt.Sprintf("“%v and %s” may mean %s with either or %s with both; ask “… %v or %s” or “… both %v and %s”", last.Where[0].Values[len(last.Where[0].Values)-1], s.value, display(b.subject), display(b.subject), last.Where[0].Values[len(last.Where[0].Values)-1], s.value, last.Where[0].Values[len(last.Where[0].Values)-1], s.value))
		}
		if last != nil && t.conj && !t.conjAnd && last.Op == op && last.Where[len(last.Where)-1].Field == s.field || last != nil && t.conj && !b.st.both && last.Op == op && len(last.Where) == 1 && last.Where[0].Field == s.field {
			w := &last.Where[len(last.Where)-1]
			w.Op = semantic.OpIn
			w.Values = append(w.Values, s.value)
			b.und("or %s = %s", s.field, s.value)
			continue
		}
		if op == semantic.OpSome {
			if pl := b.heldRelated(t.it.text, s.entity, s.field); pl != nil {
				return pl
			}
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.entity, Op: op,
			Where: []semantic.Filter{{Field: s.field, Op: semantic.OpEq, Values: []any{s.value}}}})
		last = &b.q.Filters[len(b.q.Filters)-1]
		verb := "with"
		if op == semantic.OpNone {
			verb = "without"
		}
		b.und("%s %s a %s row where %s = %s", display(b.subject), verb, s.entity, s.field, s.value)
	}
	for _, t := range b.st.terms {
		if t.role != "existsflag" {
			continue
		}
		s := t.cands[0]
		var on *semantic.Filter
		for i := range b.q.Filters {
			if f := &b.q.Filters[i]; f.Op == semantic.OpSome && strings.EqualFold(f.Field, s.entity) {
				if on != nil {
					return b.fail(fmt.Sprintf("quarry could not tell which %s row %q is said of", s.entity, t.it.text))
				}
				on = f
			}
		}
		if on == nil {
			return b.fail(fmt.Sprintf("%q belongs to %s, which is not a single related row of each %s row; quarry does not guess how to combine them", t.it.text, s.entity, display(b.subject)))
		}
		on.Where = append(on.Where, semantic.Filter{Field: s.field, Op: semantic.OpEq, Values: []any{s.flag}})
		b.und("and %s = %v on the same %s row", s.field, s.flag, s.entity)
		if t.neg {
			// "countries where English is not the official language":
			// no such row, whether English is spoken there or not.
			on.Op = semantic.OpNone
			b.und("none such: %s without it", display(b.subject))
		}
	}
	return nil
}

// relatedRows are rows of another table that the subject's rows must have
// (or lack): a measure that counts that table's rows meeting conditions,
// named after "with" ("customers with a refunded order").
type relatedRows struct {
	entity string
	where  []semantic.Filter
	neg    bool
	text   string
}

// relatedMeasure reads a measure named after "with" as rows that must
// exist: a count of one table's rows with conditions on its own columns,
// after a table the question names first.
func (p *Planner) relatedMeasure(it *item, st *state, afterWith bool) (relatedRows, bool) {
	ms := only(it.senses, sMetric)
	if !afterWith || len(ms) != 1 || len(it.senses) != 1 {
		return relatedRows{}, false
	}
	e, where, ok := p.filteredCount(ms[0].name)
	if !ok || len(where) == 0 {
		return relatedRows{}, false
	}
	if !namesOther(st, e) {
		return relatedRows{}, false
	}
	return relatedRows{entity: e, where: where, text: it.text}, true
}

// hadRows is the table a term names whole, after another table the
// question names first, where nothing compares or qualifies it next
// ("customers with orders", "had an order last month"; not "customers
// with orders over $100" nor "with mobile orders"): rows of it that the
// first table's rows must have.
func (p *Planner) hadRows(it *item, st *state, mean []*item, i int) (string, bool) {
	if len(only(it.senses, sEntity)) != 1 || len(only(it.senses, sValue, sColumn)) > 0 {
		return "", false
	}
	ent, ok := p.noneEntity(it)
	if !ok || !namesOther(st, ent) || len(st.some)+len(st.none)+len(st.linkedNone) > 0 {
		return "", false
	}
	e := p.entity(ent)
	if e == nil {
		return "", false
	}
	// A role's rows are those of the table it names: a value of that
	// table said next is the role's (selfRole, the directions' reading).
	own := ent
	if e.Role != nil {
		own = e.Role.Of
	}
	if i+1 < len(mean) {
		n := mean[i+1]
		if n.kind == itNum || n.kind == itKw && (n.kw == "gt" || n.kw == "lt" || n.kw == "by") || n.kind == itTerm && len(only(n.senses, sValue)) == 0 {
			return "", false
		}
		// "with a destination airport Denver": a value of the table's
		// own says which of its rows, which the existing readings keep.
		if n.kind == itTerm && slices.ContainsFunc(n.senses, func(s sense) bool { return s.kind == sValue && strings.EqualFold(s.entity, own) }) && (e.Role == nil || oneBreath(st.text, it.text, n.text)) {
			return "", false
		}
	}
	return ent, true
}

// measureRows reads a count or a sum named after a negation of having
// ("products with no sales") as the rows it adds up, which must be
// missing: its table's rows that meet its conditions, on that table's
// columns or on those of the one row each refers to (the order of an
// order line). A word that is also a value ("sales", the Sales
// department) is the measure here: a value is no rows to lack.
func (p *Planner) measureRows(it *item, st *state) (relatedRows, bool) {
	ms := only(it.senses, sMetric)
	if len(ms) != 1 || len(ms)+len(only(it.senses, sValue)) != len(it.senses) {
		return relatedRows{}, false
	}
	m := p.m.Metric(ms[0].name)
	if m == nil || m.Entity == "" || m.Derived != "" || p.entity(m.Entity) == nil {
		return relatedRows{}, false
	}
	e := p.entity(m.Entity).Name
	x := strings.ToUpper(strings.Join(strings.Fields(m.Expr), ""))
	if strings.Count(x, "(") == 0 || !strings.HasSuffix(x, ")") || strings.Contains(x, "DISTINCT") ||
		!(strings.HasPrefix(x, "SUM(") || strings.HasPrefix(x, "COUNT(")) || strings.Count(x, "SUM(")+strings.Count(x, "COUNT(") != 1 {
		return relatedRows{}, false
	}
	var where []semantic.Filter
	for _, expr := range m.Filters {
		f, ok := semantic.ParsePredicate(expr)
		ent, _, _ := strings.Cut(f.Field, ".")
		if !ok || !strings.EqualFold(ent, e) && !p.refersToOne(e, ent) {
			return relatedRows{}, false
		}
		where = append(where, f)
	}
	if !namesOther(st, e) {
		return relatedRows{}, false
	}
	return relatedRows{entity: e, where: where, text: it.text}, true
}

// namesOther reports whether the question names a table other than e,
// the rows that lack or have e's rows.
func namesOther(st *state, e string) bool {
	for _, t := range st.terms {
		for _, s := range t.cands {
			if s.kind == sEntity && !strings.EqualFold(s.name, e) {
				return true
			}
		}
	}
	return false
}

// refersToOne reports whether each row of child refers to one row of
// parent, through the one relationship between them, by parent's key.
func (p *Planner) refersToOne(child, parent string) bool {
	n, ok := 0, false
	for _, r := range p.m.Relationships {
		switch {
		case strings.EqualFold(r.From, child) && strings.EqualFold(r.To, parent):
			pe := p.entity(r.To)
			ok = (r.Cardinality == semantic.ManyToOne || r.Cardinality == "") && pe != nil && strings.EqualFold(pe.PrimaryKey, r.ToColumn)
			n++
		case strings.EqualFold(r.From, parent) && strings.EqualFold(r.To, child):
			n++
		}
	}
	return n == 1 && ok && !strings.EqualFold(child, parent)
}

func whereText(ws []semantic.Filter) string {
	var out []string
	for _, w := range ws {
		out = append(out, fmt.Sprintf("%s %s %v", w.Field, w.Op, w.Values))
	}
	return strings.Join(out, " and ")
}

// withWord reports whether a "with" keyword says the rows have something
// ("with", "that have", "having"), not which ones ("where", "whose").
func withWord(text string) bool {
	switch text {
	case "with", "that have", "who have", "having", "that has", "which have", "which has":
		return true
	}
	return false
}

// afterWithA marks the items right after "with a", "have a" or "used a"
// ("orders with a promo code", "how many orders used a discount code").
func afterWithA(items []item) map[*item]bool {
	withA := map[*item]bool{}
	var stops []string // the stopwords since the last meaningful item
	var prev *item
	for i := range items {
		if items[i].kind == itStop {
			stops = append(stops, items[i].text)
			continue
		}
		if n := len(stops); n > 0 && (stops[n-1] == "a" || stops[n-1] == "an" || stops[n-1] == "any") {
			with := prev != nil && prev.kind == itKw && prev.kw == "with" && withWord(prev.text)
			for _, w := range stops[:n-1] {
				with = with || w == "have" || w == "has" || w == "had" || w == "use" || w == "used" || w == "uses" || w == "using" || w == "having"
			}
			withA[&items[i]] = with
		}
		stops, prev = nil, &items[i]
	}
	return withA
}

// afterBe marks the items right after "is", "are", "was" or "were".
func afterBe(items []item) map[*item]bool {
	out := map[*item]bool{}
	for i := 1; i < len(items); i++ {
		switch items[i-1].text {
		case "is", "are", "was", "were":
			out[&items[i]] = items[i-1].kind == itStop && items[i].kind != itStop
		}
	}
	return out
}

// hasFlag reports whether a meaning is a yes/no column's.
func hasFlag(ss []sense) bool {
	for _, s := range ss {
		if s.flag != nil {
			return true
		}
	}
	return false
}

// flagOfNext reports whether ss are only yes/no columns' meanings, one
// of them of the table the next item names: the column said as that
// table's adjective ("discontinued products").
func flagOfNext(ss []sense, next *item) bool {
	if next.kind != itTerm || len(ss) == 0 {
		return false
	}
	of := false
	for _, s := range ss {
		if s.kind != sColumn || s.flag == nil {
			return false
		}
		for _, n := range next.senses {
			of = of || n.kind == sEntity && strings.EqualFold(n.entity, s.entity)
		}
	}
	return of
}

// oneRowConditions makes one condition of those on related rows that
// must hold on the same rows, in a planned query:
//   - a verb's rows on the way to other related rows ("customers who
//     bought Toys in Q1": an order of Q1 holding a Toys line) put their
//     conditions (the period, a completed purchase) on each of those
//     rows, with or without ("… but not Books in 2025": no Books line
//     in 2025), never an order in Q1 and a Toys line ever;
//   - a count with such rows, or rows missing on the way to others, is
//     refused: quarry does not guess whether they are the same rows.
//
// Found from outside: each condition was checked on its own, and each met
// by another row.
func (p *Planner) oneRowConditions(pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	q := pl.Query
	subject := ""
	if q.Rows != nil {
		subject = q.Rows.Entity
	} else if len(q.Metrics) > 0 {
		subject = p.metricEntity(q.Metrics[0], pl.AdHoc)
	}
	related := func(f semantic.Filter) bool { return f.OnRelated() && p.entity(f.Field) != nil }
	fs := slices.Clone(q.Filters)
	// A verb's rows on the way to others.
	for i := 0; i < len(fs); i++ {
		f := fs[i]
		if !related(f) {
			continue
		}
		var on []int
		for j, g := range fs {
			if j == i || !related(g) || strings.EqualFold(f.Field, g.Field) {
				continue
			}
			if path, ok := p.m.Related(subject, g.Field); ok && path.Passes(f.Field) {
				on = append(on, j)
			}
		}
		if len(on) == 0 {
			continue
		}
		if f.Op != semantic.OpSome || f.Count {
			return p.unanswered(&state{}, fmt.Sprintf("quarry cannot tell whether the conditions on %s and on the rows they hold are on the same %s rows; ask for one at a time", display(f.Field), display(f.Field)))
		}
		for _, j := range on {
			if fs[j].Count {
				return p.unanswered(&state{}, fmt.Sprintf("quarry cannot tell whether the conditions on %s and on %s are on the same %s rows; ask for one at a time", display(f.Field), display(fs[j].Field), display(f.Field)))
			}
			fs[j].Where = append(slices.Clone(fs[j].Where), f.Where...)
			pl.Understood = append(pl.Understood, fmt.Sprintf("the conditions on %s and %s read as one: %s rows of the same %s rows", f.Field, fs[j].Field, fs[j].Field, f.Field))
		}
		fs = slices.Delete(fs, i, i+1)
		i--
	}
	q.Filters = fs
	return pl
}

// stateWord reports whether a value says a row is not done yet.
func stateWord(v string) bool {
	switch strings.ReplaceAll(semantic.Fold(v), "_", " ") {
	case "in progress", "open", "active", "pending", "ongoing", "running", "started", "underway":
		return true
	}
	return false
}

// othersState asks which is meant where a count or a list of a table's
// rows is kept to a state of the rows they refer to ("how many production
// runs are still in progress": work orders in progress), and the table
// has an end date of its own, whose being empty would say the rows' own
// state (found from outside: 69 runs of work orders in progress, where 35
// runs had not ended).
func (p *Planner) othersState(pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	q := pl.Query
	subject := ""
	switch {
	case q.Rows != nil:
		subject = q.Rows.Entity
	case len(q.Metrics) == 1 && pl.isCountAdHoc(q.Metrics[0]):
		subject = p.metricEntity(q.Metrics[0], pl.AdHoc)
	}
	e := p.entity(subject)
	if e == nil {
		return pl
	}
	end := ""
	for _, c := range e.Columns {
		if c.TimeRole == semantic.TimeRoleEnd {
			end = c.Name
		}
	}
	if end == "" {
		return pl
	}
	for _, f := range q.Filters {
		if f.OnRelated() || f.Op != semantic.OpEq && f.Op != semantic.OpIn || len(f.Values) == 0 {
			continue
		}
		owner := p.fieldEntity(f.Field)
		v := fmt.Sprint(f.Values[0])
		if owner == "" || strings.EqualFold(owner, e.Name) || !stateWord(v) {
			continue
		}
		return clarify(fmt.Sprintf("%q is a state of %s, not of %s: do you mean %s of %s that are %s, or %s not yet ended (%s empty)?",
			v, display(owner), display(e.Name), display(e.Name), display(owner), v, display(e.Name), end),
			fmt.Sprintf("%s of %s %s", lower(display(e.Name)), v, lower(display(owner))), fmt.Sprintf("%s with no %s", lower(display(e.Name)), strings.ReplaceAll(end, "_", " ")))
	}
	return pl
}

// eitherRelated refuses a plan with two conditions on related rows where
// the question joins them by "or" ("customers with refunded orders or
// mobile orders"): rows with either, which quarry does not write yet
// (found from outside: read as both).
func (p *Planner) eitherRelated(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	n := 0
	for _, f := range pl.Query.Filters {
		if f.OnRelated() && f.Op == semantic.OpSome && !f.Count {
			n++
		}
	}
	if n < 2 || !slices.ContainsFunc(tokenize(question), func(t token) bool { return t.s == "or" || t.s == "either" }) {
		return pl
	}
	return p.unanswered(&state{}, "quarry cannot yet keep the rows that have either of two kinds of related rows (“… or …”); ask for each")
}

// saidAfter reports whether the words phrase follow one of the words
// before in text (lower-case words joined by spaces).
func saidAfter(text, phrase string, before ...string) bool {
	for _, w := range before {
		if strings.Contains(" "+text+" ", " "+w+" "+phrase+" ") {
			return true
		}
	}
	return false
}

// ownEventDate is the date column ("members.expires_on") of the subject's
// own rows that names, in another form, the value of another table that
// term t says ("expired", a hold's status), or "".
func (b *builder) ownEventDate(t *term, s sense) string {
	if s.kind != sValue || b.subject == "" || strings.EqualFold(s.entity, b.subject) || strings.Contains(t.it.text, " ") || !pastForm(t.it.text) {
		return ""
	}
	e := b.p.entity(b.subject)
	if e == nil {
		return ""
	}
	for _, u := range b.st.terms {
		if slices.ContainsFunc(u.cands, func(c sense) bool { return c.kind == sEntity && strings.EqualFold(c.name, s.entity) }) {
			return "" // "members with expired holds": the holds' status
		}
	}
	stem := stemWord(t.it.text)
	for _, c := range e.Columns {
		if !c.Temporal() || b.p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		for _, w := range nameWords(c.Name) {
			if len(w) > 3 && stemWord(w) == stem {
				return e.Name + "." + c.Name
			}
		}
	}
	return ""
}
