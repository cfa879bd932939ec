package planner

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// roles gives every remaining term a part in the query, or fails.
func (b *builder) roles() *Plan {
	st := b.st
	// Rows or an aggregate?
	aggregate := len(b.q.Metrics) > 0 || len(st.having) > 0 || len(st.grains) > 0 || st.trend || st.compare || st.share ||
		st.count || len(st.dates) > 1
	// "the age and hometown of every teacher": with nothing to measure,
	// "each X" after X's columns lists X's rows.
	if len(b.q.Metrics) == 0 && len(st.having) == 0 && !st.count && len(st.grains) == 0 && !st.trend && !st.share && len(st.dates) < 2 && st.order == "" {
		if st.rowsLead && eachAndIts(st.text) {
			// "list each charge type and its amount": the columns of
			// each row, not groups to count.
			for i, t := range st.terms {
				if k := t.cands[0].kind; t.byMode && t.role == "" && k == sColumn {
					t.byMode = false
				}
				// "each employee title and its department": the table
				// before its own column is the rows listed.
				if t.byMode && t.role == "" && t.cands[0].kind == sEntity && i+1 < len(st.terms) {
					if n := st.terms[i+1]; n.pos == t.pos+1 && n.cands[0].kind == sColumn && strings.EqualFold(n.cands[0].entity, t.cands[0].name) {
						t.byMode = false
						if b.subject == "" {
							b.subject = t.cands[0].name
						}
					}
				}
			}
		}
		for _, t := range st.terms {
			if t.byMode && t.role == "" && t.cands[0].kind == sEntity && b.columnsOf(t.cands[0].name, t) {
				t.byMode = false
				if b.subject == "" {
					b.subject = t.cands[0].name
				}
			}
		}
	}
	// "What is Kyle's id?": the table of the columns and values named.
	if b.subject == "" && len(b.q.Metrics) == 0 {
		b.subject = b.onlyTable()
	}
	for _, t := range st.terms {
		if t.byMode && t.role == "" {
			aggregate = true
		}
	}
	if st.order != "" && st.colSup == "" {
		aggregate = true
	}
	// A single max/min of a column asked about a named entity ("which
	// product has the highest unit price") lists that entity's rows; not
	// with a group, where it is the maximum of each ("the maximum weight
	// for each type of pet").
	if len(b.adhoc) == 1 && len(b.q.Metrics) == 1 && len(st.grains) == 0 && !st.trend && !st.share && len(st.dates) < 2 && !b.hasGroupTerm() {
		for _, t := range st.terms {
			if t.role != "colagg" || len(t.aggs) != 1 || (t.aggs[0] != "max" && t.aggs[0] != "min") {
				continue
			}
			for _, e := range st.terms {
				if e.role == "" && e.cands[0].kind == sEntity && strings.EqualFold(e.cands[0].name, t.cands[0].entity) && (e.pos < t.pos || e.rowsQ) && !e.byMode {
					s := t.cands[0]
					// Where the sort was said: the same column listed
					// before it is listed ("the names and unit prices of
					// the products with the highest unit price").
					b.colSort, b.sortPos = &s, t.pos
					st.order = map[string]string{"max": "desc", "min": "asc"}[t.aggs[0]]
					b.q.Metrics, b.adhoc = nil, nil
					t.role = "sort"
					b.subject = e.cands[0].name
					st.understood = nil
					aggregate = false
					if st.limit == 0 && singular(e.it.text) == e.it.text {
						st.limit = 1
					}
				}
			}
		}
	}
	// "the most recent cancellation", "the oldest open ticket": an age
	// word with a count of a table's rows that meet plain conditions on
	// its own columns asks for the newest (or oldest) of those rows.
	if (st.colSup == "new" || st.colSup == "old" || st.colSup == "early") && !st.when && len(b.q.Metrics) == 1 && len(b.adhoc) == 0 && len(st.grains) == 0 &&
		!st.trend && !st.share && !st.compare && !st.count && len(st.having) == 0 && len(st.dates) == 0 && st.order == "" && !b.hasGroupTerm() && !b.hasAggTerm() {
		name := b.q.Metrics[0]
		if e, where, ok := b.p.filteredCount(name); ok && len(where) > 0 {
			b.q.Metrics, b.shown = nil, nil
			b.q.Filters = append(b.q.Filters, where...)
			b.subject = e
			st.understood = nil
			for _, f := range where {
				b.und("filter %s %s %v (the rows %s counts)", f.Field, f.Op, f.Values, name)
			}
			for _, t := range st.terms {
				if t.role == "metric" && t.cands[0].kind == sMetric && t.cands[0].name == name {
					t.role = "subject"
				}
			}
			aggregate = false
		}
	}
	// "when was the first order placed": the earliest (or latest) date of
	// the table's time column.
	if st.when {
		if pl := b.whenQuestion(); pl != nil {
			return pl
		}
		aggregate = true
	}
	// "cancelled orders", "business customers": with no list word, an
	// entity that a metric counts is counted.
	// "who works in Engineering": the persons, named, not how many.
	whoList := st.whoLead && b.subject != "" && b.p.ofPersons(b.subject)
	if !aggregate && !st.rowsLead && !whoList && st.colSup == "" && b.subject != "" && b.p.countedByMetric(b.subject) && !b.hasColumnTerm() {
		aggregate = true
	}
	if !aggregate && b.subject == "" {
		return b.fail("quarry could not tell what to count, total or list; name a metric (" + b.p.someMetrics() + ") or a table")
	}
	if !aggregate {
		b.rows = true
	}
	if pl := b.sortTerms(); pl != nil {
		return pl
	}
	// Having: "more than 2 singers", "customers with more than 5 orders".
	for _, t := range st.having {
		s := t.cands[0]
		name := s.name
		switch s.kind {
		case sEntity:
			name = b.countMetric(s.name)
		case sMetric:
			b.addMetric(s.name)
		default:
			if !aggregated(t) || t.aggName == "" {
				continue
			}
			name = t.aggName
		}
		b.addMetric(name)
		num, unit := t.num, ""
		if t.money {
			// "members with more than $500 in payments": money, never a
			// number of rows (found from outside: read as more than 500
			// payments).
			mt := b.p.model(&Plan{AdHoc: b.adhoc}).Metric(name)
			if mt == nil || strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "COUNT(") {
				return b.fail(fmt.Sprintf("%s is an amount of money, and %s counts rows; ask for the total of an amount (“… with a total amount over %s”)", numText(t.num), display(name), numText(t.num)))
			}
			if semantic.MinorUnit(mt.Unit, mt.Expr) {
				num, unit = t.num*100, " (read in cents)"
				b.notes = append(b.notes, fmt.Sprintf("the amount %s read as %s cents, as %s is in cents", numText(t.num), numText(t.num*100), display(name)))
			}
		} else if mt := b.p.model(&Plan{AdHoc: b.adhoc}).Metric(name); !t.cents && !t.pct && mt != nil && semantic.MinorUnit(mt.Unit, mt.Expr) {
			if pl := b.whichUnit(t.num, name); pl != nil {
				return pl
			}
		}
		if t.pct {
			// "a refund rate above 5%": a rate is a fraction of one.
			if mt := b.p.m.Metric(name); mt == nil || mt.Format != "percent" {
				return b.fail(fmt.Sprintf("%s is not a percentage, so quarry cannot compare it with %s%%", display(name), numText(t.num)))
			}
			num, unit = t.num/100, "%"
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: name, Op: semantic.Op(t.op), Values: []any{fmtNum(num)}})
		b.und("condition %s %s %s%s", name, t.op, numText(t.num), unit)
		t.role = "having"
		if pl := b.havingOwner(t); pl != nil {
			return pl
		}
		if s.kind == sEntity && b.namedElsewhere(t, s.name) {
			return b.fail(fmt.Sprintf("the condition %q counts %s within %s; quarry could not tell what to group by", t.it.text, display(s.name), display(s.name)))
		}
		if len(b.q.Metrics) == 1 {
			b.subject = b.p.metricEntity(name, b.adhoc)
		}
	}
	if st.mode > 0 {
		if pl := b.modeCount(); pl != nil {
			return pl
		}
	}
	if aggregate && len(b.q.Metrics) == 0 {
		if st.order != "" && !st.count && !b.dirOnly {
			if pl := b.rankOptions(); pl != nil {
				return pl
			}
			pl := b.fail("quarry could not tell what to rank by; name the measure, such as “top 5 products by revenue”, “the most orders” or “the highest price”")
			pl.rankUnknown = true
			for _, t := range st.terms {
				// "top 3 users by invoice amount": an amount of other
				// rows, ranked by its total as othersTotal reads it.
				if k := t.cands[0].kind; (k == sColumn || k == sDim) && len(t.aggs) == 0 && t.role == "" && b.p.additiveColumn(t.cands) && b.otherTableNamed(t.cands[0].entity) && amountSaid(t.it.text, t.cands) {
					pl.othersAmount = b.othersAmountText(t)
					break
				}
			}
			return pl
		}
		if b.subject == "" {
			return b.fail("quarry could not tell what to count or measure; name a metric (" + b.p.someMetrics() + ") or a table")
		}
		if st.bareSum && !st.count {
			// "total received this year by payment method": a total of
			// nothing named is the subject's money, not a count of its
			// rows (found from outside: the number of payments by
			// method, at 0.85).
			if pl := b.totalOfSubject(); pl != nil {
				return pl
			}
		} else {
			b.addMetric(b.countMetric(b.subject))
			b.show(b.countMetric(b.subject), &term{})
			b.und("count of %s", b.subject)
		}
	}
	groupTerm := (*term)(nil)
	// Terms after "by" first, so that a column also named elsewhere
	// ("show all countries and the number of singers in each country") is
	// known to be a group.
	ordered := make([]*term, 0, len(st.terms))
	for _, t := range st.terms {
		if t.byMode {
			ordered = append(ordered, t)
		}
	}
	for _, t := range st.terms {
		if !t.byMode {
			ordered = append(ordered, t)
		}
	}
	for _, t := range ordered {
		if t.role != "" {
			continue
		}
		if s := t.cands[0]; t.neg && s.kind == sColumn && s.temporal && len(t.cands) == 1 && !b.dateAfter(t) && pastForm(t.it.text) && len(t.aggs) == 0 && !t.byMode && !t.hasNum && !b.p.m.IsRestricted(s.entity, s.column) {
			// "tickets that aren't closed", "orders not shipped": the
			// event's date is not set, as "are closed" is that it is.
			// A period said before it is another date's ("tickets
			// opened in 2025 that are still not closed"); one after it
			// ("not closed in 2025") is refused.
			b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNull})
			b.und("filter %s is not set", s.field)
			t.role = "filter"
			continue
		}
		if s := t.cands[0]; t.neg && t.withA && s.kind == sColumn && len(t.cands) == 1 && !s.key && !s.numeric && !s.temporal && s.flag == nil && len(t.aggs) == 0 && !t.byMode && !t.hasNum && !b.p.m.IsRestricted(s.entity, s.column) {
			// "orders that did not use any discount code", "tickets
			// that don't have a category": the column is empty, as
			// "with a discount code" is that it is set.
			b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNull})
			b.und("filter %s is not set", s.field)
			t.role = "filter"
			continue
		}
		if t.neg && t.cands[0].kind != sValue && t.cands[0].flag == nil {
			return b.fail(fmt.Sprintf("quarry could not tell what “not %s” means; name a value to exclude", t.it.text))
		}
		if k := t.cands[0].kind; (k == sColumn || k == sDim) && b.colSort != nil && b.colSort.field == t.cands[0].field && !t.hasNum && len(t.aggs) == 0 && t.pos > b.sortPos {
			t.role = "context" // "sorted by the years in which they were founded"
			continue
		}
		if s := t.cands[0]; s.key && !t.byMode {
			if target := b.p.keyTarget(s); target != nil && target.PrimaryKey != "" && hasString(b.groups, target.Name+"."+target.PrimaryKey) {
				t.role = "context" // the key of a table grouped by
				continue
			}
		}
		if k := t.cands[0].kind; (k == sColumn || k == sDim) && hasString(b.groups, t.cands[0].field) {
			t.role = "context"
			continue
		}
		if !t.byMode && aggregate && t.cands[0].kind == sEntity && b.listedBeside(t) {
			// "show the names of teachers and the number of courses they
			// teach": each teacher's count, as "by teacher".
			t.byMode = true
		}
		if k := t.cands[0].kind; !t.byMode && k == sEntity && b.groupedBy(t.cands[0].name) {
			t.role = "context"
			continue
		}
		if t.cands[0].kind == sEntity && b.ownsNamedGrain(t) {
			// "tickets by customer signup year": whose date the year
			// is, not a grouping by each customer as well.
			t.role = "context"
			continue
		}
		s := t.cands[0]
		switch s.kind {
		case sValue:
			t.role = "value"
		case sEntity:
			ent := b.p.entity(s.name)
			other := b.otherLinkSaid(t, s.name)
			switch {
			case t.byMode && t.ofBefore && groupTerm != nil && b.p.upOf(lower(s.name))[lower(termEntity(groupTerm))]:
				// "tickets by team of their agents", "… through agents":
				// the way to the group, not a group of its own (Query.Via).
				t.role = "context"
			case t.byMode && len(b.q.Metrics) == 1 && strings.EqualFold(s.name, b.subjectOfMetrics()) && b.p.isAverage(b.q.Metrics[0]):
				// "average pages per session": an average over its own rows.
				t.role = "context"
			case t.byMode && strings.EqualFold(s.name, b.subjectOfMetrics()) && strings.Contains(" "+b.st.text+" ", " across "+t.it.text+" "):
				// "total seats across aircraft that are not retired": the
				// total over the table's own rows, not one per row
				// (found from outside: 23 rows, no total).
				t.role = "context"
			case t.byMode || (aggregate && (st.order != "" || st.measureHaving()) && len(b.groups) == 0 && !strings.EqualFold(s.name, b.subjectOfMetrics())):
				if b.subject != "" && b.rank(s.name, nil) > 2 && !b.bridgeCount(s.name) {
					return b.fail(fmt.Sprintf("%s is not a single related row of each %s row, so quarry cannot group %s by it without guessing", display(s.name), display(b.subjectOfMetrics()), display(b.subjectOfMetrics())))
				}
				if ent != nil && b.p.label(ent) == "" && ent.PrimaryKey != "" {
					// No column names its rows: each is its key ("the
					// number of documents using each template" by
					// Template_ID).
					b.groups = append(b.groups, ent.Name+"."+ent.PrimaryKey)
					b.und("group by %s, by its key %s (it has no label column)", ent.Name, ent.PrimaryKey)
					b.groups = append(b.groups, b.p.namePartGroups(ent)...)
					t.role, groupTerm = "group", t
					break
				}
				if ent == nil || b.p.label(ent) == "" {
					return b.fail(fmt.Sprintf("%s has no label column to group by; set label on the entity", s.name))
				}
				if b.p.m.IsRestricted(ent.Name, b.p.label(ent)) {
					return &Plan{Kind: KindRefuse, Reason: fmt.Sprintf("%s rows are named by %s.%s, which the column policy restricts", ent.Name, ent.Name, b.p.label(ent))}
				}
				if ent.PrimaryKey != "" && !strings.EqualFold(ent.PrimaryKey, b.p.label(ent)) {
					// Two rows may share a name; group by the key as well,
					// without showing it.
					b.groups = append(b.groups, ent.Name+"."+ent.PrimaryKey)
					if b.namesLabel(ent) || !b.namesColumn(ent, ent.PrimaryKey) {
						b.hidden = append(b.hidden, ent.Name+"."+ent.PrimaryKey)
					}
				}
				b.groups = append(b.groups, ent.Name+"."+b.p.label(ent))
				if ent.PrimaryKey != "" && b.namesColumn(ent, ent.PrimaryKey) && !b.labelAsked(ent) {
					// "the document ids and the number of paragraphs in
					// each document": the key alone.
					b.hidden = append(b.hidden, ent.Name+"."+b.p.label(ent))
				}
				b.und("group by %s", ent.Name)
				t.role, groupTerm = "group", t
			case strings.EqualFold(s.name, b.subject):
				t.role = "subject"
			case b.ownsFilter(s.name) || b.p.reachable(b.subject, s.name) && b.mentionedColumnOf(s.name):
				t.role = "context"
			case b.leadsTo(t, s.name):
				// "tickets for products of the Billing team": the way to
				// the table named next (Query.Via).
				t.role = "context"
			case other != nil:
				// "how many performances did Maria Lopez manage": the
				// stage manager of their production, or their own house
				// manager? Both links are said by the word.
				return other
			case b.valuesThroughRole(t, s.name):
				// "how many events did Lonely Wolves headline": the
				// artist's name through the headliner link.
				t.role = "context"
			case b.beforeItsMetric(t, s.name):
				// "order revenue last month": the revenue of orders,
				// which is the revenue.
				t.role = "context"
			default:
				return b.fail(fmt.Sprintf("quarry could not tell how %s relates to the question; try “by %s” or a filter on one of its columns", display(s.name), display(s.name)))
			}
		case sColumn, sDim:
			switch {
			case participleAlias(t, s) && !b.byParticiple(t, s) && !(b.linkParticiple(t, s) && !b.passive(t.it.text)):
				// "orders by invited users": the participle alone is
				// read only as the rows it was done to ("users that
				// were invited"), never a grouping by who did it
				// (found from outside: grouped by invited_by, at 1.00).
				return b.fail(fmt.Sprintf("quarry reads %q only as %s that were %s (%s set); ask for those, such as “%s that were %s”", t.it.text, display(s.entity), t.it.text, s.field, display(s.entity), t.it.text))
			case t.adjFlag && s.flag != nil && !t.hasNum:
				b.flagFilter(t, s)
			case b.valueBefore(t):
				// "on mobile devices": the column names the value before
				// it, a filter, not a grouping.
				t.role = "context"
			case s.temporal && b.grainBeside(t) && b.eventGrain == "":
				// "reservations by check-in month", "by month of
				// booking": the grain of that date, not the measure's
				// own date and a grouping by each day (found from
				// outside: refused).
				if b.subject != "" && b.rank(s.entity, nil) > 2 {
					return b.fail(fmt.Sprintf("%q is a date of %s, which is not a single related row of each %s row; quarry does not guess how to combine them", t.it.text, display(s.entity), display(b.subjectOfMetrics())))
				}
				b.eventGrain, b.grainNamed = s.field, true
				b.und("%q: the period is cut on %s", t.it.text, s.field)
				t.role = "context"
			case t.byMode || aggregate && (st.order != "" || st.measureHaving() || st.eachAfter) && len(b.groups) == 0 && !t.hasNum:
				if s.key {
					// "the contestant numbers and names", "document ids with
					// at least two paragraphs": the rows of the table the key
					// identifies, by key (and label when asked for).
					target := b.p.keyTarget(s)
					if target == nil || target.PrimaryKey == "" {
						return b.fail(fmt.Sprintf("quarry could not tell which rows %q identifies", t.it.text))
					}
					if pl := b.linkWordIsValue(t, s, target); pl != nil {
						return pl
					}
					if hasString(b.groups, target.Name+"."+target.PrimaryKey) {
						// "each car maker … list the maker id": the rows
						// already grouped by, not a second grouping.
						t.role = "context"
						break
					}
					if l := b.p.label(target); l != "" && b.labelAsked(target) {
						b.groups = append(b.groups, target.Name+"."+target.PrimaryKey, target.Name+"."+l)
					} else {
						b.groups = append(b.groups, s.field) // the key's own value
					}
					b.und("group by %s", target.Name)
					t.role, groupTerm = "group", t
					break
				}
				if target := b.p.keyTarget(s); target != nil {
					if pl := b.linkWordIsValue(t, s, target); pl != nil {
						return pl
					}
				}
				if pl := b.perMeasure(t, s); pl != nil {
					return pl
				}
				b.groups = append(b.groups, s.field)
				b.und("group by %s", s.field)
				t.role, groupTerm = "group", t
			case t.hasNum && s.numeric && t.against != "":
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.Op(t.op), Against: t.against})
				b.und("filter %s %s the %s of all %s", s.field, t.op, semantic.AgainstName(t.against), s.entity)
				t.role = "filter"
			case t.hasNum && s.numeric && t.pct:
				// "a discount above 10%": stored as 10 or as 0.1? quarry
				// does not guess.
				return b.fail(fmt.Sprintf("quarry cannot tell whether %s holds percentages or fractions, so it cannot compare it with %s%%", s.field, numText(t.num)))
			case t.hasNum && s.numeric && s.flag != nil:
				// "invoices over 50 dollars that were unpaid": the number
				// is no yes/no column's (found from outside: paid > 50,
				// 0 invoices, at 1.00).
				return b.fail(fmt.Sprintf("quarry could not tell what %s %s compares: %s.%s is a yes/no column; put the number right after the amount it bounds (“unpaid invoices with an amount over …”)", t.op, numText(t.num), s.entity, s.column))
			case t.hasNum && s.numeric:
				num, read := t.num, ""
				if c := b.p.column(s.entity, s.column); t.money && c != nil && semantic.MinorUnit(c.Unit, c.Name) {
					// "payments over $70" of amount_cents: 7000 cents
					// (found from outside: compared with 70 cents).
					num, read = t.num*100, fmt.Sprintf(" (the amount %s read as %s cents)", numText(t.num), numText(t.num*100))
					b.notes = append(b.notes, fmt.Sprintf("the amount %s read as %s cents, as %s holds cents", numText(t.num), numText(t.num*100), s.field))
				} else if c != nil && semantic.MinorUnit(c.Unit, c.Name) && t.cents {
					read = " (in cents, as written)"
				} else if c != nil && semantic.MinorUnit(c.Unit, c.Name) {
					// "salaries above 150000" of annual_salary_cents:
					// dollars or cents? The two differ a hundredfold, and
					// a note under an answer is read too late (found from
					// outside: every salary matched, at 1.00).
					if pl := b.whichUnit(t.num, s.column); pl != nil {
						return pl
					}
				}
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.Op(t.op), Values: []any{fmtNum(num)}})
				b.und("filter %s %s %s%s", s.field, t.op, numText(num), read)
				t.role = "filter"
			case s.temporal && len(st.dates) == 1 && t.it.countVerb:
				// "signed up in 2025 and ordered more than once": the
				// verb of the count says whose rows are counted, not the
				// period's date (found from outside: the signup year went
				// on the orders).
				t.role = "context"
			case s.temporal && len(st.dates) == 1 && !t.neg && pastForm(t.it.text) && t.pos > st.datePos[0] && b.ownDateSaid(s.entity, s.column):
				// "tickets opened last month that have been closed": the
				// period is the opening's, said by its verb before it;
				// the closing after it is a condition (found from
				// outside: the period went on closed_at, at 1.00).
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNotNull})
				b.und("filter %s is set (the period is said of another date, by its verb)", s.field)
				t.role = "filter"
			case s.temporal && len(st.dates) == 1:
				t.role = "time"
			case s.temporal && len(st.dates) == 0 && !t.byMode && !t.sortBy && len(t.aggs) == 0 && !t.hasNum && !pastForm(t.it.text) && t.it.via != "" && t.it.via != t.it.text && b.afterBe(t.it.text):
				// "hotels that are open": a state, which a date read by
				// another form of the word (opened_on) does not say
				// (found from outside: every hotel listed with its
				// opening day).
				return b.fail(fmt.Sprintf("quarry cannot tell which %s are %s: %s is a date, not a state; ask by a column that holds the state, or “%s %s before …”", display(s.entity), t.it.text, s.field, display(s.entity), t.it.via))
			case s.temporal && len(st.dates) == 0 && !t.byMode && !t.sortBy && len(t.aggs) == 0 && !t.neg && pastForm(t.it.text) && b.afterBe(t.it.text):
				// "how many tickets are closed": the event's date is set.
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNotNull})
				b.und("filter %s is set", s.field)
				t.role = "filter"
			case s.temporal && len(st.dates) == 0 && !t.byMode && !t.sortBy && len(t.aggs) == 0 && pastForm(t.it.text) && !strings.Contains(t.it.text, " ") &&
				(!b.rows && b.namesOther(s.entity) || b.valueAfter(t) || b.rows && !t.neg && b.adjectiveOf(t, s.entity)):
				// "events at closed venues": listed too, the participle
				// before its own table's name is a condition on it, not a
				// column to show (found from outside: every event listed
				// with its venue's closing day, at 1.00).
				// "which customer placed the most orders", "students
				// enrolled in Biology": the verb of the event's date says
				// the rows happened; where that date is not the one every
				// row has ("tickets they closed": closed_at), that it is
				// set (found from outside: the closed condition was lost).
				t.role = "context"
				if ent := b.p.entity(s.entity); ent != nil && !strings.EqualFold(ent.TimeColumn, s.column) {
					b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNotNull})
					t.role = "filter"
					b.und("%q read as the %s rows' own event: filter %s is set", t.it.text, s.entity, s.field)
					break
				}
				b.und("%q read as the %s rows' own event", t.it.text, s.entity)
			case s.temporal && len(st.dates) == 0 && !t.byMode && !t.sortBy && len(t.aggs) == 0 && pastForm(t.it.text) && !strings.Contains(t.it.text, " ") &&
				strings.EqualFold(s.entity, b.subject) && (b.ownTimeColumn(s) || b.endOf(s) || b.isEnd(s)):
				// "how many orders has Aiko Jansen placed": the date every
				// order has, named by its verb, says only that the rows
				// happened (found from outside: refused).
				t.role = "context"
				if c := b.p.column(s.entity, s.column); c != nil && c.TimeRole == semantic.TimeRoleEnd {
					// "how many cards have expired": an end every row has
					// may lie ahead; the analyst keeps it to those on or
					// before the as-of day (found from outside: every
					// card counted).
					b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNotNull})
					t.role = "filter"
					b.und("%q read as the %s rows' own end: filter %s is set", t.it.text, s.entity, s.field)
					break
				}
				b.und("%q read as the %s rows' own event", t.it.text, s.entity)
			case s.flag != nil && !t.hasNum && !b.namesTable(s.entity, t):
				// "how many active products", where only suppliers have
				// is_active: the word is said of the products, not of
				// their supplier (found from outside: the products of
				// active suppliers counted, at 1.00).
				return b.fail(fmt.Sprintf("%q is a yes/no column of %s (%s), which the question does not name; ask of them (“%s of %s %s”)", t.it.text, display(s.entity), s.field, display(b.subjectOfMetrics()), t.it.text, display(s.entity)))
			case s.flag != nil && !t.hasNum:
				b.flagFilter(t, s)
			case t.withA && s.kind == sColumn && !s.key && len(t.aggs) == 0 && !t.sortBy && b.negatedValueOf(s.field):
				// "orders with a coupon other than WELCOME10": a code is
				// set, and not that one ("not X" alone keeps the rows with
				// none; found from outside: 11,070 for 1,105).
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNotNull})
				b.und("filter %s is set", s.field)
				t.role = "filter"
			case t.withA && s.kind == sColumn && s.temporal && !s.key && len(st.dates) == 0 && !t.byMode && len(t.aggs) == 0 && !t.sortBy && !t.hasNum && b.rank(s.entity, nil) <= 2:
				// "injuries with an end date": the rows whose date is
				// set (found from outside: every injury listed with its
				// end date, the empty ones too).
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNotNull})
				b.und("filter %s is set", s.field)
				t.role = "filter"
			case t.withA && s.kind == sColumn && !s.numeric && !s.temporal && !s.key && len(t.aggs) == 0 && !t.sortBy && !b.besideValue(t) && b.rank(s.entity, nil) <= 2:
				// "orders with a promo code", "how many orders used a
				// discount code": the rows whose column is set, not the
				// column listed for every row.
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNotNull})
				b.und("filter %s is set", s.field)
				t.role = "filter"
			case t.withA && s.kind == sColumn && s.numeric && !s.key && !t.hasNum && len(t.aggs) == 0 && !t.sortBy && !b.besideValue(t) && b.rank(s.entity, nil) <= 2:
				// "rent payments with a late fee", "order items that had
				// a discount": the rows whose amount is more than none
				// (found from outside: the late fees were added up).
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpGt, Values: []any{int64(0)}})
				b.und("filter %s > 0 (the rows that have one)", s.field)
				t.role = "filter"
			case b.besideValue(t) || s.kind == sColumn && b.roleBeforeValue(t):
				t.role = "context"
			case b.linkParticiple(t, s) && !b.passive(t.it.text):
				// "customers who have referred someone": those the
				// link points at, which no condition on their own
				// link says.
				return b.fail(fmt.Sprintf("%q said of %s that did it is the %s other rows' %s points to, which quarry does not count yet; it can count the %s that were %s",
					t.it.text, display(b.subject), display(b.subject), s.column, display(b.subject), t.it.text))
			case b.byParticiple(t, s):
				// "how many customers were referred": referred_by set.
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNotNull})
				b.und("%q read as %s being set", t.it.text, s.field)
				t.role = "filter"
			case s.kind == sColumn && len(b.st.dates) > 0 && len(t.aggs) == 0 && !t.byMode && b.subjectYears(s):
				// "buildings built since 1990", "films released after
				// 2000": year_built, release_year, which the years go on
				// (yearColumn).
				t.role = "context"
				b.yearCol = s.column
			case b.rows && s.kind == sColumn && b.rank(s.entity, nil) <= 2:
				t.role = "column"
			case aggregate && s.kind == sColumn && len(t.aggs) == 0 && !t.hasNum && !t.sortBy && !t.neg && b.groupRowColumn(t, s):
				// "the name and capacity of the stadium with the most
				// concerts": one more column of each group's own row,
				// which its key decides; grouped by the key as well.
				t.role = "context"
			default:
				return b.fail(fmt.Sprintf("quarry could not tell what to do with %q; try “by %s” or a value of it", t.it.text, t.it.text))
			}
		case sMetric:
			return b.fail(fmt.Sprintf("quarry could not tell what to do with the metric %s here", s.name))
		}
	}
	if st.oneGrain && groupTerm == nil && st.limit == 0 && st.order != "" {
		// "which year had the lowest revenue": the one period that ranks
		// first, shown with its figure as a group's is.
		st.limit = 1
		b.argmax = st.sup
	}
	if groupTerm != nil && st.limit == 0 && st.order != "" && (singular(groupTerm.it.text) == groupTerm.it.text && groupTerm.rowsQ || st.sup && !groupTerm.byMode) {
		// "the country with the most car makers", "which year has the
		// most concerts": the one group that ranks first.
		st.limit = 1
		b.argmax = st.sup && !groupTerm.byMode || groupTerm.mode
		if w := lastWordOf(groupTerm.it.text); st.sup && !groupTerm.byMode && !groupTerm.mode && singular(w) != w && pluralAsked(st.text, w) {
			// "which cities have the most customers": the groups that
			// rank first, plural; the top few, not one (found from
			// outside: the second city was 3% behind the one shown).
			st.limit = pluralTop
		}
	}
	return nil
}
