package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// What the question names of tables, columns and keys, asked of while
// roles are bound (roles.go), and the order of the ranking terms.

// namesLabel reports whether the question asks for the label column of
// ent by name ("the stadium name"): the rows are then shown by it alone.
func (b *builder) namesLabel(ent *semantic.Entity) bool {
	if b.namesColumn(ent, ent.PrimaryKey) {
		return false // "the contestant numbers and names"
	}
	if b.st.wantLabel {
		return true
	}
	for _, t := range b.st.terms {
		for _, c := range t.cands {
			if c.kind == sColumn && strings.EqualFold(c.entity, ent.Name) && strings.EqualFold(c.column, b.p.label(ent)) {
				return true
			}
		}
	}
	return false
}

// namesColumn reports whether the question spells the name of ent's
// column c ("the contestant numbers" for contestant_number), even where c
// is a key that the lexicon leaves out. A key of another table of the
// same name is not it: "lessons with no instructor by base" names the
// staff's id, not the bases' (found from outside: the bases shown by
// their ids, their names hidden).
func (b *builder) namesColumn(ent *semantic.Entity, c string) bool {
	ws := words(c)
	if len(ws) == 0 {
		return false
	}
	for _, t := range b.st.terms {
		for _, s := range t.it.senses {
			if s.key && strings.EqualFold(s.column, c) && strings.EqualFold(s.entity, ent.Name) {
				return true // "the names and ids of every course"
			}
		}
	}
	text := strings.Fields(b.st.text)
	for _, f := range []string{ws[len(ws)-1], plural(ws[len(ws)-1])} {
		ws[len(ws)-1] = f
		for i := 0; i+len(ws) <= len(text); i++ {
			if !slices.Equal(text[i:i+len(ws)], ws) {
				continue
			}
			if len(ws) > 1 || i == 0 || !b.otherOwner(ent, text[i-1]) {
				return true
			}
		}
	}
	return false
}

// otherOwner reports whether w, said right before a one-word column name
// ("instructor id"), names whose it is, and that is not ent: a word of
// content that is not ent's name.
func (b *builder) otherOwner(ent *semantic.Entity, w string) bool {
	own := words(ent.Name)
	if len(own) > 0 && (w == own[len(own)-1] || w == singular(own[len(own)-1])) {
		return false
	}
	return !b.p.stop[w] && !b.p.function[w]
}

func (b *builder) subjectOfMetrics() string {
	if len(b.q.Metrics) == 0 {
		return ""
	}
	return b.p.metricEntity(b.q.Metrics[0], b.adhoc)
}

// ownsFilter reports whether a value filter of the question is a column of e.
func (b *builder) ownsFilter(e string) bool {
	for _, t := range b.st.terms {
		if t.cands[0].kind == sValue && strings.EqualFold(t.cands[0].entity, e) {
			return true
		}
	}
	return false
}

// termEntity is the table a term names, or the table of its column or
// value.
func termEntity(t *term) string {
	if s := t.cands[0]; s.kind == sEntity {
		return s.name
	}
	return t.cands[0].entity
}

// leadsTo reports whether the table e, named by t, is the way from the
// question's rows to the table of the term right after it, or, after
// "of", "through" or "via", right before it: the rows of e each have one
// row of that table ("orders from customers in Austin": customers, each
// in one city; "tickets for products of the Billing team"; "tickets in
// the Billing team through agents"), and the question's rows reach e.
func (b *builder) leadsTo(t *term, e string) bool {
	if b.subject == "" || strings.EqualFold(b.subject, e) || !b.p.upOf(lower(b.subject))[lower(e)] {
		return false
	}
	leads := func(o *term) bool {
		to := termEntity(o)
		return to != "" && !strings.EqualFold(to, e) && b.p.upOf(lower(e))[lower(to)]
	}
	for i, n := range b.st.terms {
		if n != t {
			continue
		}
		// "… in the Billing team through agents": the way to the table
		// named before it.
		if t.ofBefore && i > 0 && leads(b.st.terms[i-1]) {
			return true
		}
		return i+1 < len(b.st.terms) && leads(b.st.terms[i+1])
	}
	return false
}

func (b *builder) mentionedColumnOf(e string) bool {
	for _, t := range b.st.terms {
		if (t.cands[0].kind == sColumn) && strings.EqualFold(t.cands[0].entity, e) {
			return true
		}
	}
	return false
}

// countedByMetric reports whether a defined metric counts entity e's rows.
func (p *Planner) countedByMetric(e string) bool {
	for _, m := range p.m.Metrics {
		if p.isCountOf(m.Name, e) {
			return true
		}
	}
	return false
}

// groupedBy reports whether the query already groups by entity e's label.
func (b *builder) groupedBy(e string) bool {
	ent := b.p.entity(e)
	return ent != nil && b.p.label(ent) != "" && hasString(b.groups, ent.Name+"."+b.p.label(ent))
}

// groupRowColumn shows a column of a table the query groups by, beside
// each group: the table's key is made a group (hidden where not asked)
// so that the column, which the key decides, cannot split or merge the
// groups. False where the query is not grouped by that table's rows
// (its key or its label), or the table has no key.
func (b *builder) groupRowColumn(t *term, s sense) bool {
	ent := b.p.entity(s.entity)
	if ent == nil || ent.PrimaryKey == "" || s.key || hasString(b.groups, s.field) {
		return false
	}
	// Grouped by the rows themselves (their key or name), not by one of
	// their columns: "which country has the most customers, and its
	// email" has no one email per country.
	key := ent.Name + "." + ent.PrimaryKey
	label := ""
	if l := b.p.label(ent); l != "" {
		label = ent.Name + "." + l
	}
	if !hasString(b.groups, key) && (label == "" || !hasString(b.groups, label)) {
		return false
	}
	if b.saidRightAfter(t, ent.Name) {
		// "which bike model has the most tickets": the table's name
		// right before its column says whose model; the groups are the
		// models, not the bikes (found from outside: one bike's 18
		// tickets answered for its model's 2,115, at 1.00).
		for i, g := range b.groups {
			if g == key || g == label {
				b.groups[i] = s.field
			}
		}
		b.groups = slices.Compact(b.groups)
		b.hidden = slices.DeleteFunc(b.hidden, func(h string) bool { return h == key || h == label })
		b.st.understood = slices.DeleteFunc(b.st.understood, func(u string) bool { return strings.HasPrefix(u, "group by "+ent.Name+", by its key ") })
		b.und("%q read as the %s of %s, grouped by it", t.it.text, s.field, display(ent.Name))
		return true
	}
	if !hasString(b.groups, key) {
		b.groups = append([]string{key}, b.groups...)
		b.hidden = append(b.hidden, key)
	}
	b.groups = append(b.groups, s.field)
	b.und("show %s beside each %s", s.field, ent.Name)
	return true
}

// saidRightAfter reports whether the term right before t names entity
// e, written right before t's words ("bike model"): t is a column of
// those rows, not another thing beside them.
func (b *builder) saidRightAfter(t *term, e string) bool {
	i := slices.Index(b.st.terms, t)
	if i < 1 {
		return false
	}
	u := b.st.terms[i-1]
	return termEntity(u) != "" && strings.EqualFold(termEntity(u), e) &&
		strings.Contains(" "+lower(b.st.text)+" ", " "+u.it.text+" "+t.it.text+" ")
}

// fieldEntity is the entity of a query field: "entity.column" or a
// dimension over one column; "" for metrics and computed dimensions.
func (p *Planner) fieldEntity(f string) string {
	if d := p.m.Dimension(f); d != nil {
		if e, _, ok := simpleRef(d.Expr); ok {
			return e
		}
		return d.Entity
	}
	if e, _, ok := strings.Cut(f, "."); ok && p.entity(e) != nil {
		return p.entity(e).Name
	}
	return ""
}

// havingOwner refuses a condition on a count that the question puts on
// rows of a table other than the groups: "the years in which orchestras
// that have given more than one performance are founded" asks about each
// orchestra, not each year.
func (b *builder) havingOwner(h *term) *Plan {
	for _, t := range b.st.terms {
		if t == h || t.pos > h.pos || t.role != "" || t.byMode || t.cands[0].kind != sEntity {
			continue
		}
		for _, u := range b.st.terms {
			if u.pos > t.pos && u.pos < h.pos && (u.cands[0].kind == sColumn || u.cands[0].kind == sDim) {
				return nil
			}
		}
		grouped := false
		for _, u := range b.st.terms {
			if u != t && u.pos < t.pos && (u.cands[0].kind == sColumn || u.cands[0].kind == sDim) && strings.EqualFold(u.cands[0].entity, t.cands[0].name) && !strings.EqualFold(u.cands[0].column, b.labelOf(t.cands[0].name)) && !b.isPK(u.cands[0]) {
				grouped = true
			}
		}
		if grouped {
			return b.fail(fmt.Sprintf("the condition %q is on each %s, not on each group; quarry does not combine the two", h.it.text, display(t.cands[0].name)))
		}
	}
	return nil
}

// whenQuestion reads "when was the first/last X …" as MIN/MAX of X's time
// column.
func (b *builder) whenQuestion() *Plan {
	st := b.st
	if len(b.q.Metrics) > 0 || b.subject == "" || st.colSup != "early" && st.colSup != "new" || st.order != "" || len(st.dates) > 0 {
		return b.fail("quarry reads “when” only as the date of the first or last row of a table, such as “when was the first order placed”")
	}
	ent := b.p.entity(b.subject)
	if ent == nil || ent.TimeColumn == "" || b.p.m.IsRestricted(ent.Name, ent.TimeColumn) {
		return b.fail(fmt.Sprintf("%s has no date column to say when", display(b.subject)))
	}
	col := ent.TimeColumn
	for _, t := range st.terms {
		if t.role == "" && (t.cands[0].kind == sColumn || t.cands[0].kind == sDim) {
			// "when was the first order placed": a date column of the table.
			if s := t.cands[0]; len(t.cands) == 1 && s.kind == sColumn && s.temporal && strings.EqualFold(s.entity, ent.Name) {
				col, t.role = s.column, "context"
				continue
			}
			return b.fail(fmt.Sprintf("quarry could not tell what %q does in a “when” question", t.it.text))
		}
	}
	fn, label := "MIN", "first "
	if st.colSup == "new" {
		fn, label = "MAX", "latest "
	}
	ref := ent.Name + "." + col
	b.addAdHoc(semantic.Metric{Name: lower(fn) + "_" + ent.Name + "_" + col, Entity: ent.Name, Expr: fn + "(" + ref + ")", Format: "date", Description: display(col) + " of the " + label + singular(display(ent.Name))})
	b.show(b.q.Metrics[len(b.q.Metrics)-1], &term{})
	b.und("%s(%s)", fn, ref)
	st.colSup = ""
	for _, t := range st.terms {
		if t.role == "" && t.cands[0].kind == sEntity && strings.EqualFold(t.cands[0].name, ent.Name) {
			t.role = "subject"
		}
	}
	return nil
}

func (b *builder) isPK(s sense) bool {
	ent := b.p.entity(s.entity)
	return s.kind == sColumn && ent != nil && strings.EqualFold(s.column, ent.PrimaryKey)
}

// keyTarget is the table a key column identifies: its own table for a
// primary key, the referenced table for a foreign key.
func (p *Planner) keyTarget(s sense) *semantic.Entity {
	ent := p.entity(s.entity)
	if ent == nil {
		return nil
	}
	if strings.EqualFold(s.column, ent.PrimaryKey) {
		return ent
	}
	var target *semantic.Entity
	for _, r := range p.m.Relationships {
		if strings.EqualFold(r.From, ent.Name) && strings.EqualFold(r.FromColumn, s.column) && p.roleOfEntity(r.To) == nil {
			// A role's link is the table's own, seen as the role: the
			// rows identified are the table's.
			t := p.entity(r.To)
			if t == nil || !strings.EqualFold(r.ToColumn, t.PrimaryKey) || target != nil {
				return nil
			}
			target = t
		}
	}
	return target
}

// labelAsked reports whether the question asks for ent's names.
func (b *builder) labelAsked(ent *semantic.Entity) bool {
	if b.st.wantLabel {
		return true
	}
	for _, t := range b.st.terms {
		for _, c := range t.cands {
			if c.kind == sColumn && strings.EqualFold(c.entity, ent.Name) && strings.EqualFold(c.column, b.p.label(ent)) {
				return true
			}
		}
	}
	return false
}

// namedElsewhere reports whether another term than a condition names
// entity e ("customers with at least 2 orders and at most 3 orders" names
// orders in two conditions only).
func (b *builder) namedElsewhere(h *term, e string) bool {
	for _, t := range b.st.terms {
		if t != h && !slices.Contains(b.st.having, t) && t.cands[0].kind == sEntity && strings.EqualFold(t.cands[0].name, e) {
			return true
		}
	}
	return false
}

// sortTerms reads "ordered by age", "in descending order of age": a list
// sorted by a column, or groups sorted by one of their columns or by the
// measure.
func (b *builder) sortTerms() *Plan {
	st := b.st
	if st.sortTerms == 0 {
		if st.sortDir != "" && !b.rows && st.order == "" && st.sortDirBy != "" {
			// "revenue by channel, lowest first": groups sorted by the
			// measure (finish checks there is one, and groups).
			st.order, b.dirOnly = st.sortDir, true
			return nil
		}
		if st.sortDir != "" {
			return b.fail("quarry could not tell what to sort " + map[string]string{"asc": "in ascending", "desc": "in descending"}[st.sortDir] + " order")
		}
		return nil
	}
	if st.sortTerms > 1 || st.colSup != "" || st.order != "" {
		return b.fail("quarry reads one sort at a time; ask for the list sorted by one column")
	}
	dir := st.sortDir
	if dir == "" {
		dir = "asc"
	}
	for _, t := range st.terms {
		if !t.sortBy {
			continue
		}
		s := t.cands[0]
		switch {
		case t.role == "metric" && !b.rows:
			b.sortField = b.q.Metrics[len(b.q.Metrics)-1]
			if len(b.q.Metrics) != 1 {
				return b.fail(fmt.Sprintf("quarry could not tell which measure %q sorts by", t.it.text))
			}
		case t.role != "" || len(t.aggs) > 0 || t.hasNum:
			return b.fail(fmt.Sprintf("quarry could not tell how to sort by %q", t.it.text))
		case s.kind == sColumn && b.rows:
			if b.rank(s.entity, nil) > 2 {
				return b.fail(fmt.Sprintf("%q belongs to %s, which is not a single related row of each %s row", t.it.text, display(s.entity), display(b.subject)))
			}
			s := s
			b.colSort, b.sortPos = &s, t.pos
			t.role = "sort"
		case (s.kind == sColumn || s.kind == sDim) && !b.rows:
			b.sortField = s.field
			t.role = "sortgroup" // checked against the groups in finish
		case s.kind == sEntity && b.p.entity(s.name) != nil && b.p.label(b.p.entity(s.name)) != "":
			// "ordered by stadium name": by the table's label.
			ent := b.p.entity(s.name)
			l := b.p.label(ent)
			if b.rows {
				if !strings.EqualFold(ent.Name, b.subject) {
					return b.fail(fmt.Sprintf("quarry could not tell how to sort %s by %s", display(b.subject), display(ent.Name)))
				}
				b.colSort = &sense{kind: sColumn, entity: ent.Name, column: l, field: ent.Name + "." + l}
				b.sortPos = t.pos
			} else {
				b.sortField = ent.Name + "." + l
			}
			t.role = "sort"
		default:
			return b.fail(fmt.Sprintf("quarry could not tell how to sort by %q", t.it.text))
		}
		st.order = dir
		b.und("sort by %s %s", t.it.text, dir)
	}
	return nil
}

// hasAggTerm reports whether a term is counted, summed or ranked ("how
// many recent cancellations").
func (b *builder) hasAggTerm() bool {
	for _, t := range b.st.terms {
		if len(t.aggs) > 0 {
			return true
		}
	}
	return false
}

// pluralTop is how many groups a plural superlative shows ("which cities
// have the most customers").
const pluralTop = 5

// lastWordOf is the last word of s.
func lastWordOf(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// pluralVerb reports whether w is a verb of a plural subject that says
// a "which …" question asks for several groups.
func pluralVerb(w string) bool {
	switch w {
	case "have", "had", "are", "were", "do", "did", "get", "got", "make", "made", "bring", "brought", "generate", "generated", "sell", "sold", "see", "saw":
		return true
	}
	return false
}

// pluralAsked reports whether text asks "which <plural> <verb>": "which
// cities have the most customers", "which product categories made the
// most money"; not "which of the countries has the most car makers" nor
// "what are the languages used by the fewest channels", which ask for
// one.
func pluralAsked(text, plural string) bool {
	ws := strings.Fields(text)
	for i := 0; i+2 < len(ws); i++ {
		if ws[i] != "which" && ws[i] != "what" {
			continue
		}
		for j := i + 1; j <= i+2 && j+1 < len(ws); j++ {
			if ws[j] == plural {
				return pluralVerb(ws[j+1])
			}
		}
	}
	return false
}

// grainBeside reports whether the question's one grain is said right
// beside the date term t: before it after "of" ("month of booking") or
// right after it ("booking month").
func (b *builder) grainBeside(t *term) bool {
	st := b.st
	if len(st.grainAt) != 1 || len(st.grains) != 1 {
		return false
	}
	// The unit alone: "signups per month" is a count by month, not the
	// month of a signup date.
	switch st.grainWord[0] {
	case "day", "week", "month", "quarter", "year":
	default:
		return false
	}
	g := st.grainAt[0]
	return g == t.pos+1 || g == t.pos-1 && t.ofBefore
}

// ownsNamedGrain reports whether the entity term t comes right before a
// date of its own that the question cuts by the grain beside it
// ("customer signup year").
func (b *builder) ownsNamedGrain(t *term) bool {
	for _, u := range b.st.terms {
		if u.pos != t.pos+1 || !b.grainBeside(u) {
			continue
		}
		for _, c := range u.cands {
			if c.temporal && (c.kind == sColumn || c.kind == sDim) && strings.EqualFold(c.entity, t.cands[0].name) {
				return true
			}
		}
	}
	return false
}
