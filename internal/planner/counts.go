package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// boughtTimes reports whether a verb of buying named how often the
// counted table's rows were made ("bought at least 3 times", readTimes).
func (b *builder) boughtTimes(counted string) bool {
	for _, u := range b.st.terms {
		if u.it.countVerb && buyVerb(u.it.text) && slices.ContainsFunc(u.it.senses, func(s sense) bool { return strings.EqualFold(s.entity, counted) }) {
			return true
		}
	}
	return false
}

// perRowCounts reads a condition on how many rows of one table each row
// of another has — "customers with fewer than 2 orders", "how many
// countries have more than 2 car makers" — as a count filter on those
// rows (semantic.Filter.Count), which keeps the rows that have none,
// instead of a count grouped by the rows with a condition on the groups,
// which drops them (and which the zero_groups check would refuse for
// "fewer than"). It applies where the counted table is joined directly to
// the rows, the count is a count of its rows (those meeting a measure's
// conditions on their own columns become the filter's Where), and nothing else of
// the question needs the grouped count: no ranking, no other
// measure, no filter on the counted table's own columns; one period is
// read on the counted rows' own date (countPeriod). Otherwise the plan
// stays as it was. It returns the plan when the question lists rows.
func (b *builder) perRowCounts() *Plan {
	q := &b.q
	if len(b.st.dates) > 1 || len(b.st.grains) > 0 || b.st.order != "" || b.st.limit > 0 || b.st.share || b.st.compare || b.st.trend {
		return nil
	}
	// The one metric only filtered by: the condition's count.
	m, other := "", ""
	for _, x := range q.Metrics {
		switch {
		case b.shown[x]:
			if other != "" {
				return nil
			}
			other = x
		case m != "":
			return nil
		default:
			m = x
		}
	}
	counted, where := b.countedEntity(m), []semantic.Filter(nil)
	if counted == "" {
		// "customers with more than 2 refunded orders": a count of rows
		// that meet conditions on their own columns.
		e, w, ok := b.p.filteredCount(m)
		if !ok {
			return nil
		}
		counted, where = e, w
	}
	// "customers with more than 2 mobile orders": the values said of the
	// rows counted keep the count to them. They leave the query's own
	// filters only where the count is read here; otherwise they stay
	// there, on the rows grouped and counted.
	saved, counting := q.Filters, false
	defer func() {
		if !counting {
			q.Filters = saved
		}
	}()
	for _, t := range b.st.terms {
		if !t.ofCounted || len(t.cands) == 0 || !strings.EqualFold(t.cands[0].entity, counted) {
			continue
		}
		field := t.cands[0].field
		kept := q.Filters[:0:0]
		for _, f := range q.Filters {
			if strings.EqualFold(f.Field, field) && !f.Count {
				where = append(slices.Clone(where), f)
				continue
			}
			kept = append(kept, f)
		}
		q.Filters = kept
	}
	if done, ok := b.p.completedState(counted); ok && b.boughtTimes(counted) {
		// "customers who bought at least 3 times": purchases completed,
		// as "customers who bought something" reads them (found from
		// outside: cancelled and pending orders counted as bought).
		where = append(slices.Clone(where), done)
		b.und("bought read as %s rows whose %s is %v", counted, done.Field, done.Values[0])
	}
	// The conditions on the count: one, or the two bounds of a range
	// ("between 2 and 3 orders"), each a count filter.
	var conds []*semantic.Filter
	for i := range q.Filters {
		f := &q.Filters[i]
		if f.Field == m {
			if len(f.Values) != 1 {
				return nil
			}
			conds = append(conds, f)
		}
	}
	if len(conds) == 0 || len(conds) > 2 {
		return nil
	}
	period := len(b.st.dates) > 0
	if period {
		// "customers with fewer than 2 orders in 2025": the period is on
		// the counted rows, each customer's orders in 2025.
		w, ok := b.countPeriod(counted, m)
		if !ok {
			return nil
		}
		where = append(append([]semantic.Filter(nil), where...), w...)
	}
	count := func() {
		counting = true
		var end string
		if period {
			end = b.st.dates[0].To
			b.usePeriod()
		}
		for _, cond := range conds {
			*cond = semantic.Filter{Field: counted, Op: cond.Op, Values: cond.Values, Count: true, Where: where}
		}
		b.und("rows of %s counted for each %s, none counting as 0", counted, b.subject)
		if !slices.ContainsFunc(conds, func(f *semantic.Filter) bool { return !semantic.CountAdmitsZero(*f) }) {
			b.startedBy(*conds[0], end) // only where 0 passes every bound
		}
	}
	switch {
	case len(b.groups) > 0 && other == "":
		// "customers with fewer than 2 orders": rows of the one table
		// grouped by.
		rows := ""
		var cols []string
		for _, g := range b.groups {
			e, c, ok := strings.Cut(g, ".")
			if !ok || rows != "" && !strings.EqualFold(e, rows) {
				return nil
			}
			rows = e
			cols = append(cols, c)
		}
		ent := b.p.entity(rows)
		if ent == nil || !b.onlyOn(ent.Name, m) || !b.directlyJoined(counted, ent.Name) {
			return nil
		}
		q.Rows = &semantic.RowsQuery{Entity: ent.Name, Columns: b.visible(ent, cols)}
		q.Metrics, b.groups = nil, nil
		b.subject, b.rows = ent.Name, true
		count()
		b.und("list %s", b.subject)
		if pl := b.checkRowsSubject(); pl != nil {
			return pl
		}
		pl := &Plan{Kind: KindRows, Query: q, Understood: b.st.understood}
		pl.Title = b.makeTitle()
		return pl
	case len(b.groups) == 0 && other != "":
		// "how many countries have more than 2 car makers": the count of
		// the other table's rows.
		subject := b.countedEntity(other)
		if subject == "" || !b.onlyOn(subject, m) || !b.directlyJoined(counted, subject) {
			return nil
		}
		q.Metrics = []string{other}
		b.subject = subject
		count()
	}
	return nil
}

// startedBy keeps to the rows of the subject that existed before end,
// the end of the period a count filter that admits zero is restricted to
// ("customers with fewer than 2 orders in 2025"): a customer who signed
// up in 2026 had no orders in 2025 because it was not a customer yet, and
// is not one of the customers the question asks about. The subject's
// start is its column with time role "start" (semantic.StartColumn);
// without one the plan stays as it is, and the start_date check says
// that such rows are counted.
func (b *builder) startedBy(cond semantic.Filter, end string) {
	if end == "" || !semantic.CountAdmitsZero(cond) {
		return
	}
	start := b.p.m.StartColumn(b.subject)
	if start == "" {
		return
	}
	b.q.Filters = append(b.q.Filters, semantic.Filter{Field: start, Op: semantic.OpLt, Values: []any{end}})
	b.und("only %s whose %s is before %s", b.subject, start, end)
}

// countedEntity is the table whose rows metric m plainly counts, or "".
func (b *builder) countedEntity(m string) string {
	for _, a := range b.adhoc {
		if a.Name == m {
			e := b.p.entity(a.Entity)
			if e != nil && len(a.Filters) == 0 && ((a.Expr == "COUNT("+semantic.Ref(e.Name, e.PrimaryKey)+")" || a.Expr == "COUNT("+e.Name+"."+e.PrimaryKey+")") || e.PrimaryKey == "" && a.Expr == "COUNT(*)") {
				return e.Name
			}
			return ""
		}
	}
	for i := range b.p.m.Entities {
		if e := b.p.m.Entities[i].Name; b.p.isCountOf(m, e) {
			return e
		}
	}
	return ""
}

// onlyOn reports whether every filter other than the condition on metric
// m is on entity e's own columns (or on its rows' having or lacking
// another table's), so that it still applies to e's rows.
func (b *builder) onlyOn(e, m string) bool {
	for _, f := range b.q.Filters {
		switch {
		case f.Field == m:
		case f.Op == semantic.OpNone || f.Op == semantic.OpSome || f.Count:
		default:
			fd, err := b.p.m.ResolveField(f.Field)
			if err != nil || fd.Kind == semantic.FieldMetric {
				return false
			}
			ent, _, ok := strings.Cut(f.Field, ".")
			if fd.Kind == semantic.FieldDimension {
				ent, _, ok = strings.Cut(strings.TrimSpace(fd.Dimension.Expr), ".")
			}
			if !ok || !strings.EqualFold(ent, e) {
				return false
			}
		}
	}
	return true
}

// directlyJoined reports whether counted's rows refer to e's rows through
// exactly one relationship, many of them to one.
func (b *builder) directlyJoined(counted, e string) bool {
	n := 0
	for _, r := range b.p.m.Relationships {
		switch {
		case strings.EqualFold(r.From, counted) && strings.EqualFold(r.To, e) && r.Cardinality != semantic.OneToMany && r.Cardinality != semantic.ManyToMany:
			n++
		case strings.EqualFold(r.From, e) && strings.EqualFold(r.To, counted) && r.Cardinality == semantic.OneToMany:
			n++
		case strings.EqualFold(r.From, e) && strings.EqualFold(r.To, counted), strings.EqualFold(r.From, counted) && strings.EqualFold(r.To, e):
			return false // another relationship between the two
		}
	}
	return n == 1 && !strings.EqualFold(counted, e)
}

// visible is the columns of a grouped-by table that the answer shows: its
// label without the key it was grouped by beside it, unless the question
// asked for the key.
func (b *builder) visible(ent *semantic.Entity, cols []string) []string {
	var out []string
	for _, c := range cols {
		if strings.EqualFold(c, ent.PrimaryKey) && len(cols) > 1 && hasString(b.hidden, ent.Name+"."+c) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// isCountOf reports whether metric name is a plain count of entity e's rows.
func (p *Planner) isCountOf(name, e string) bool {
	m := p.m.Metric(name)
	return m != nil && len(m.Filters) == 0 && p.countsRows(m, e)
}

// filteredCount reads a metric that counts one entity's rows that meet
// plain conditions on its own columns ("refunded orders": orders where
// status = 'refunded') as that entity and the conditions.
func (p *Planner) filteredCount(name string) (string, []semantic.Filter, bool) {
	m := p.m.Metric(name)
	if m == nil || m.Entity == "" {
		return "", nil, false
	}
	e := p.entity(m.Entity)
	if e == nil || !p.countsRows(m, e.Name) {
		return "", nil, false
	}
	var where []semantic.Filter
	for _, expr := range m.Filters {
		f, ok := semantic.ParsePredicate(expr)
		ent, _, _ := strings.Cut(f.Field, ".")
		if !ok || !strings.EqualFold(ent, e.Name) {
			return "", nil, false
		}
		where = append(where, f)
	}
	return e.Name, where, true
}

// countsRows reports whether metric m's expression counts entity e's rows.
func (p *Planner) countsRows(m *semantic.Metric, e string) bool {
	ent := p.entity(e)
	if ent == nil || m.Derived != "" {
		return false
	}
	if m.Entity != "" && !strings.EqualFold(m.Entity, ent.Name) {
		return false
	}
	x := strings.ToLower(strings.Join(strings.Fields(m.Expr), ""))
	en := lower(ent.Name)
	pk := lower(ent.PrimaryKey)
	for _, ok := range []string{"count(*)", "count(" + en + "." + pk + ")", "count(distinct" + en + "." + pk + ")"} {
		if x == ok && (m.Entity != "" || ok != "count(*)") {
			return true
		}
	}
	return false
}

// columnAggs defines ad-hoc aggregates of a column ("average age",
// "how many countries").
func (b *builder) columnAggs(t *term) *Plan {
	cs := t.cands
	if am := b.amounts(cs); len(cs) > 1 && len(am) > 0 && len(am) < len(cs) && (hasString(t.aggs, "sum") || hasString(t.aggs, "avg")) {
		// "total fees": a sum or an average is of an amount, not of a
		// yes/no flag beside it (fee_paid; found from outside).
		cs = am
	}
	if len(cs) > 1 {
		// Resolved later against the subject; choose now only if one entity is named.
		if picked := b.pickByNamedEntity(cs); len(picked) == 1 {
			cs = picked
		} else if ex := wholeName(t.it.text, cs); len(ex) == 1 && (len(picked) == 0 || slices.ContainsFunc(picked, func(s sense) bool { return s.field == ex[0].field })) {
			cs = ex // "late": is_late, not late_fee
		} else {
			return b.clarifyColumn(t.it.text, cs)
		}
	}
	s := cs[0]
	if s.kind == sDim {
		return b.fail(fmt.Sprintf("%s is a computed dimension; quarry can group by it but not aggregate it", s.name))
	}
	if t.neg {
		if len(t.aggs) == 1 && t.aggs[0] == "count" && s.kind == sColumn && s.temporal && len(cs) == 1 && !b.p.m.IsRestricted(s.entity, s.column) {
			// "how many non-paid fines", "how many unreturned loans":
			// the rows whose date of it is not set, as "fines not paid"
			// reads (found from outside: the rows whose date is set
			// counted, the "not" dropped, at 1.00).
			b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNull})
			b.und("filter %s is not set", s.field)
			name := b.countMetric(s.entity)
			b.show(name, t)
			b.und("%q counted as the %s rows (%s)", "not "+t.it.text, s.entity, name)
			t.role = "filter"
			return nil
		}
		return b.fail(fmt.Sprintf("quarry cannot take a measure of what is not %s; ask for the rows that are not (“how many … are not %s”)", t.it.text, t.it.text))
	}
	t.cands = cs
	other := false
	for _, a := range t.aggs {
		other = other || a != "count"
	}
	if other && hasString(t.aggs, "count") {
		return b.fail(fmt.Sprintf("quarry could not tell whether %q asks for a count or for another aggregate of %s", t.it.text, display(s.column)))
	}
	for i, a := range t.aggs {
		if i > 0 && hasString(t.aggs[:i], a) {
			continue
		}
		if (a == "max" || a == "min") && eventsNamed(t, s) {
			// "which room had the most cancellations": how many rows
			// have that date (datesAsEvents), not the latest of them
			// (found from outside: read as MAX(cancelled_at)).
			if b.st.order == "" {
				b.st.order = map[string]string{"max": "desc", "min": "asc"}[a]
			}
			a = "count"
			b.und("%q read as how many %s have %s", t.it.text, display(s.entity), s.column)
		}
		var fn, label string
		switch a {
		case "count":
			if flagName(s.column) && s.flag != nil {
				// "how many neutered dogs": a count of the rows that are
				// (flagCount), never of the flag's different values.
				pl := b.fail(fmt.Sprintf("quarry could not tell which rows %q qualifies; ask “how many … are %s”", t.it.text, t.it.text))
				pl.flagCounted, pl.flagEntity = t.it.text, s.entity
				return pl
			}
			if flagName(s.column) && (s.numeric || !b.st.distinct) {
				// "how many escalated tickets" (escalated, an integer
				// with no values known): its distinct values (2) are
				// never the answer, and which value means yes is unknown.
				return b.fail(fmt.Sprintf("%s.%s reads as a yes/no column, but its values are not known, so quarry cannot tell which rows it marks; list its values (0 and 1) in the knowledge, or ask “by %s”", s.entity, s.column, display(s.column)))
			}
			if s.numeric && !b.st.distinct && len(wholeName(t.it.text, []sense{s})) == 0 {
				// "how many late payments": "late" is a word of late_fee,
				// an amount; the number of its different amounts (2) is
				// no count of late payments (found from outside, at 1.00).
				return b.fail(fmt.Sprintf("%q is part of the name of %s.%s, a number; quarry cannot tell which rows it marks, so it does not count its different values; ask with a condition on it (“with %s over 0”)", t.it.text, s.entity, s.column, display(s.column)))
			}
			if b.valueOfColumn(t, s) {
				// "how many F grades": the rows that have that value,
				// not its different values, which are one (found from
				// outside: 1 for 33, at 1.00).
				name := b.countMetric(s.entity)
				b.show(name, t)
				b.und("%q counted as the %s rows (%s)", t.it.text, s.entity, name)
				continue
			}
			if !s.temporal && b.rowsCountedAfter(t, s) && !b.st.distinct {
				// "how many gift aid donations": the donations are
				// counted, and gift aid says which; the number of its
				// different values (2) is no count of them (found from
				// outside: 2 for 321, at 1.00).
				return b.fail(fmt.Sprintf("%q names %s.%s, said of the %s counted; quarry cannot tell which of them it marks, so it does not count its different values; ask with its value (“how many %s with %s of …”)", t.it.text, s.entity, s.column, display(s.entity), display(s.entity), display(s.column)))
			}
			if kind := kindLeftOut(t.it.text, s.column); kind != "" && !b.st.distinct {
				// "how many memberships expire next month": the number
				// of different membership types (4) is no count of
				// memberships (found from outside: 4 for 41, at 0.85).
				return b.fail(fmt.Sprintf("%q is part of the name of %s.%s, the %s of the %s, so quarry does not count its different values for it; ask “how many %s …” for the rows, or for the number of %s", t.it.text, s.entity, s.column, kind, display(s.entity), display(s.entity), plural(display(s.column))))
			}
			fn, label = "COUNT(DISTINCT %s)", "number of distinct "
		case "sum":
			fn, label = "SUM(%s)", "total "
		case "avg":
			fn, label = "AVG(%s)", "average "
		case "max":
			fn, label = "MAX(%s)", "maximum "
		case "min":
			fn, label = "MIN(%s)", "minimum "
		}
		colWords := display(s.column)
		if c := b.p.column(s.entity, s.column); c != nil && semantic.MinorUnit(c.Unit, c.Name) && a != "count" && !s.temporal {
			// "total amount of payments", shown as money: the column
			// holds cents, which the answer divides by 100.
			colWords = semantic.MinorUnitLess(colWords)
			b.notes = append(b.notes, fmt.Sprintf("%s.%s %s", s.entity, s.column, centsShown))
		}
		label += colWords + " of " + display(s.entity)
		if a == "sum" && strings.HasPrefix(label, "total total ") {
			label = strings.TrimPrefix(label, "total ") // total_price: "total price", not "total total price"
		}
		if (a == "sum" || a == "avg") && s.flag != nil {
			// "total unpaid fines": paid is yes or no, and its total
			// (749) is no money (found from outside, at 1.00).
			word := map[string]string{"sum": "total", "avg": "average"}[a]
			return b.fail(fmt.Sprintf("%s.%s is a yes/no column, so quarry does not add it up or average it; ask for the %s of an amount, with %q as a condition (“%s amount of %s %s”)", s.entity, s.column, word, t.it.text, word, t.it.text, display(s.entity)))
		}
		if s.temporal && (a == "max" || a == "min") && sizeWordRE().MatchString(strings.ToLower(b.st.raw)) {
			// "the biggest invoice we issued": biggest is of an amount,
			// never of the date a verb names (found from outside:
			// MAX(issued_on) at 1.00).
			return b.fail(fmt.Sprintf("%q is a date of %s, which is not big or small; name the amount to rank by (“the largest amount of %s”)", t.it.text, display(s.entity), display(s.entity)))
		}
		if a != "count" && !s.numeric && !(s.temporal && (a == "max" || a == "min")) {
			return b.fail(fmt.Sprintf("%s.%s is not a number, so quarry cannot take its %s", s.entity, s.column, map[string]string{"sum": "total", "avg": "average", "max": "maximum", "min": "minimum"}[a]))
		}
		if w := lastWordOf(t.it.text); (a == "max" || a == "min") && s.numeric && singular(w) != w && b.saidAsNumber(t) {
			// "which month had the most refunds": how many, or the
			// largest refund_amt? (found from outside: MAX(refund_amt)
			// by month at 1.00.)
			most := map[string]string{"max": "largest", "min": "smallest"}[a]
			return b.fail(fmt.Sprintf("quarry cannot tell whether the question ranks by how many %s there were or by the %s %s; ask “the most … by number of …” or “the %s %s”", t.it.text, most, s.field, most, display(s.column)))
		}
		if a == "sum" {
			if u := b.p.shareUnit(s.entity, s.column); u != "" {
				return b.fail(fmt.Sprintf("%s.%s holds a share of something (unit: %s), and a total of shares means nothing; ask for its average, or name the amount to add up", s.entity, s.column, u))
			}
		}
		ref := s.entity + "." + s.column
		name := a + "_" + strings.ReplaceAll(s.entity+"_"+s.column, ".", "_")
		if a == "count" {
			name = "distinct_" + strings.ReplaceAll(s.entity+"_"+s.column, ".", "_")
		} else if colWords != display(s.column) {
			// Shown as money, named so: "sum_tickets_price", not a
			// column of dollars headed "cents" (found from outside).
			name = semantic.MinorUnitLess(name)
		}
		format := "number"
		if a == "count" {
			format = "integer"
		}
		var had []string
		if on := b.p.namedDate(s.entity, s.column); on != "" && (a == "avg" || a == "min" || a == "max") && !s.temporal && b.happenedDate(on) {
			// "average amount paid per payment": of the payments paid,
			// not the installments still open, whose amount paid is 0
			// (found from outside: 7,278 unpaid rows averaged in).
			had = []string{on + " IS NOT NULL"}
			b.notes = append(b.notes, fmt.Sprintf("the %s with no %s are left out of the %s of %s", display(s.entity), on, map[string]string{"avg": "average", "min": "minimum", "max": "maximum"}[a], s.field))
		}
		b.addAdHoc(semantic.Metric{Name: name, Entity: s.entity, Expr: fmt.Sprintf(fn, ref), Format: format, Description: label, Time: b.p.ownDate(s.entity, s.column), Filters: had})
		if len(t.aggs) == 1 {
			t.aggName = name
		}
		b.und("%s (%s)", label, fmt.Sprintf(fn, ref))
	}
	t.role = "colagg"
	return nil
}

// ownDate is the date column of entity that the measured column names by a
// word they share (amount_due and due_date, refund_amount and
// refunded_at), as entity.column, when that is one date other than the
// entity's own time column: "total amount due in December" is the amount
// falling due in December, not the amount of the payments made then
// (found from outside). Empty when no date, or more than one, shares a
// word with the column.
func (p *Planner) ownDate(entity, column string) string {
	d := p.namedDate(entity, column)
	if ent := p.entity(entity); d == "" || strings.EqualFold(d, entity+"."+ent.TimeColumn) {
		return ""
	}
	return d
}

// namedDate is the one date column of entity that the measured column
// names by a word they share (ownDate), as entity.column, the entity's
// own time column too; "" where none or several do.
func (p *Planner) namedDate(entity, column string) string {
	ent := p.entity(entity)
	if ent == nil {
		return ""
	}
	own := map[string]bool{}
	for _, k := range nameKeys(column) {
		own[k] = true
	}
	found := ""
	for i := range ent.Columns {
		c := &ent.Columns[i]
		if !c.Temporal() || strings.EqualFold(c.Name, column) {
			continue
		}
		for _, k := range nameKeys(c.Name) {
			if own[k] {
				if found != "" && found != c.Name {
					return ""
				}
				found = c.Name
			}
		}
	}
	if found == "" {
		return ""
	}
	return ent.Name + "." + found
}

// happenedDate reports whether field (entity.column) is a date of
// something that happened to a row (paid_date, refunded_at), not one set
// ahead (due_date, expires_on).
func (b *builder) happenedDate(field string) bool {
	ent, col, _ := strings.Cut(field, ".")
	c := b.p.column(ent, col)
	return c != nil && c.TimeRole != semantic.TimeRoleEnd && c.TimeRole != semantic.TimeRoleBirth
}

// nameKeys are the stems of a column name's words that say what it is
// of (not id, date, amount …), and of each two of them written as one
// word, the first as a verb's stem: charged_off_on and chargeoff_amt
// share "chargeoff" (found from outside: "total chargeoff amount in 2025"
// put on the day each loan was funded).
func nameKeys(column string) []string {
	ws := words(column)
	var out []string
	for i, w := range ws {
		if genericWord(w) {
			continue
		}
		out = append(out, stemWord(w))
		if i+1 < len(ws) && !genericWord(ws[i+1]) {
			out = append(out, stemWord(w+ws[i+1]))
			if strings.HasSuffix(w, "ed") && len(w) > 4 {
				out = append(out, stemWord(strings.TrimSuffix(w, "d")+ws[i+1]), stemWord(strings.TrimSuffix(w, "ed")+ws[i+1]))
			}
		}
	}
	return out
}

// rowsCountedAfter reports whether the word right after t, the column s
// counted, names s's own table: the rows are counted, and the column
// says which ("how many gift aid donations", not "how many countries do
// our customers come from").
func (b *builder) rowsCountedAfter(t *term, s sense) bool {
	i := slices.Index(b.st.terms, t)
	if i < 0 || i+1 >= len(b.st.terms) {
		return false
	}
	u := b.st.terms[i+1]
	return len(u.cands) > 0 && u.cands[0].kind == sEntity && strings.EqualFold(u.cands[0].name, s.entity) && len(u.aggs) == 0 &&
		strings.Contains(" "+lower(b.st.text)+" ", " "+t.it.text+" "+u.it.text+" ")
}

// valueOfColumn reports whether another term of the question is a value
// of the column s counts ("F" of grade in "how many F grades").
func (b *builder) valueOfColumn(t *term, s sense) bool {
	for _, u := range b.st.terms {
		if u == t || u.neg {
			continue
		}
		for _, c := range u.cands {
			if c.kind == sValue && strings.EqualFold(c.entity, s.entity) && strings.EqualFold(c.column, s.column) {
				return true
			}
		}
	}
	return false
}

// sizeWordRE finds a superlative of size, which no date has.
var sizeWordRE = lazyRE(`\b(biggest|largest|smallest|greatest|highest|lowest|most expensive|cheapest)\b`)

// kindLeftOut is the word of a column's name that says it holds a kind of
// a thing (membership_type: "type"), where the question's words name the
// thing without it ("memberships"); "" otherwise.
func kindLeftOut(said, column string) string {
	var ws []string
	for _, w := range words(said) {
		ws = append(ws, singular(w))
	}
	for _, w := range words(column) {
		switch w {
		case "type", "kind", "category", "class", "tier", "level", "grade", "band", "group", "stage", "status", "state":
			if !slices.Contains(ws, w) {
				return w
			}
		}
	}
	return ""
}

// centsShown is the reading's note on an amount held in cents that the
// answer shows as money (semantic.FormatCents).
const centsShown = "holds cents: shown as money, divided by 100"
