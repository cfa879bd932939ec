package planner

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner/dates"
	"github.com/quarrydata/quarry/internal/semantic"
)

// finish adds filters, time, groups, order and shares, and names the plan.
func (b *builder) finish() *Plan {
	st := b.st
	q := &b.q
	if pl := b.valueFilters(); pl != nil {
		return pl
	}
	if pl := b.plannedEvent(); pl != nil {
		return pl
	}
	b.throughRole()
	b.participleState()
	if pl := b.existsFilters(); pl != nil {
		return pl
	}
	if pl := b.currentOnRelated(); pl != nil {
		return pl
	}
	if pl := b.perRowCounts(); pl != nil {
		return pl
	}
	if pl := b.howMuchCount(); pl != nil {
		return pl
	}
	for _, v := range st.byValue {
		// "average tip by server", "orders per server": a value of
		// another table than the measured rows', no grouping to read
		// past for a filter (found from outside: one figure); "average
		// hourly rate per manager" is of the managers themselves.
		measured := b.subject
		if len(q.Metrics) > 0 {
			measured = b.p.metricEntity(q.Metrics[0], b.adhoc)
		}
		if !strings.EqualFold(measured, v.entity) {
			return b.fail(fmt.Sprintf("quarry could not tell what “%s” groups by: it names a value of %s, not a table or a column; ask “by %s” or for one value", v.words, display(v.entity), display(v.entity)))
		}
	}
	if st.hasAge && st.ageUnit == "year" {
		// "employees older than 40 years": their age column, if any.
		if s, _, ok := b.supColumnOf(b.subject, "young"); ok && s.numeric {
			st.ageUnit = ""
		}
	}
	if st.hasAge && st.ageUnit != "" {
		if pl := b.rowAge(); pl != nil {
			return pl
		}
	} else if st.hasAge {
		whose := b.subject
		if st.ageOf != "" {
			whose = st.ageOf // a condition on the linked rows (withSome)
		}
		s, _, ok := b.supColumnOf(whose, "young")
		switch {
		case (!ok || !s.numeric) && b.birthAge(whose):
			// "employees older than 60": by their date of birth.
		case !ok || !s.numeric:
			return b.fail(fmt.Sprintf("%s has no age column", display(whose)))
		case semantic.YearsName(s.column):
			// "pets older than 10": birth_year before 2016, never
			// birth_year > 10 (found from outside, at full confidence).
			if st.ageOp != ">" && st.ageOp != "<" {
				return b.fail(fmt.Sprintf("%s holds years, and quarry reads only “older than” or “younger than” an age on it", s.field))
			}
			b.yearAge(s)
		default:
			b.ageFilter(s)
		}
	}
	// Column superlatives: "most expensive product", "the 5 oldest employees".
	if st.colSup != "" {
		if !b.rows {
			return b.fail(fmt.Sprintf("quarry cannot combine %q with a metric; ask for the list of %s", st.colSup, display(b.subject)))
		}
		s, desc, ok := b.supColumn(st.colSup)
		if !ok {
			return b.fail(fmt.Sprintf("quarry does not know which column of %s %q refers to", b.subject, st.colSup))
		}
		b.colSort, st.order = &s, map[bool]string{true: "desc", false: "asc"}[desc]
		if st.limit == 0 {
			st.limit = 1
			for _, t := range st.terms {
				if t.role == "subject" && singular(t.it.text) != t.it.text {
					st.limit = 10
				}
			}
		}
	}
	if pl := b.yearColumn(); pl != nil {
		return pl
	}
	// Time.
	timeField := ""
	if len(st.grains) > 0 || st.trend {
		// "work orders completed by month (in 2025)": cut, and put in
		// the period, by the date of the event the question names.
		timeField = b.eventGrain
		if b.eventDate != "" {
			timeField = b.eventDate
		}
	}
	if pl := b.oneTimeTerm(); pl != nil {
		return pl
	}
	for i, t := range st.terms {
		if t.role == "time" && b.ownEventSaid(i, t) {
			continue
		}
		if t.role == "time" {
			timeField = t.cands[0].field
			if b.rank(t.cands[0].entity, nil) > 2 {
				return b.fail(fmt.Sprintf("%q is a date of %s, which is not a single related row of each %s row; quarry does not guess how to combine them", t.it.text, display(t.cands[0].entity), display(b.subject)))
			}
		}
	}
	attended := false // timeField is the day of the event the rows are for
	if timeField == "" && (len(st.dates) > 0 || len(st.grains) > 0) {
		if f := b.attendedOn(); f != "" {
			timeField, attended = f, true
			b.notes = append(b.notes, fmt.Sprintf("the period is on %s, the day of the %s each is for, when whether it was attended came about", f, singular(display(strings.SplitN(f, ".", 2)[0]))))
		}
	}
	if st.growth && len(st.dates) == 1 && len(st.grains) == 0 && !st.trend {
		// "how much did revenue grow last quarter": the change from the
		// period before, of the same length.
		if prev, ok := dates.Before(st.dates[0]); ok {
			st.dates = []dates.Range{prev, st.dates[0]}
		}
	}
	switch {
	case len(st.dates) >= 2:
		if b.rows {
			return b.fail("comparing periods needs a metric; ask for a count or a metric for each period")
		}
		for _, r := range st.dates {
			if r.From == "" || r.To == "" {
				return b.fail(fmt.Sprintf("%q is open-ended; compare closed periods such as months, quarters or years", r.Label))
			}
			if day := st.asOf.Format("2006-01-02"); r.From > day {
				// "the second half of this year" on June 30th: no
				// figure yet, which a comparison would show as a gap
				// (found from outside).
				return b.fail(fmt.Sprintf("%s has not started on %s; compare periods up to today", r.Label, day))
			}
			q.Compare = append(q.Compare, semantic.Period{Label: r.Label, From: r.From, To: r.To})
		}
		// Earlier periods first, however the question ordered them, so that
		// a change is always read from the earlier period to the later one.
		sort.SliceStable(q.Compare, func(i, j int) bool { return q.Compare[i].From < q.Compare[j].From })
		labels := make([]string, len(q.Compare))
		for i, p := range q.Compare {
			labels[i] = p.Label
		}
		b.und("compare %s", strings.Join(labels, " vs "))
		b.title = append(b.title, strings.Join(labels, " vs "))
	case len(st.dates) == 1:
		r := st.dates[0]
		if timeField == "" {
			timeField = b.madeDate()
		}
		q.TimeRange = &semantic.TimeRange{Field: timeField, From: r.From, To: r.To}
		b.periodEnd = r.Cut
		b.und("time %s [%s, %s)", r.Label, r.From, r.To)
		b.title = append(b.title, b.otherRowsPeriod(timeField, r.Label))
		if b.datedField != "" {
			b.datedTitled = true
			if b.sameDate(b.datedField, timeField) {
				// "revenue by order date in 2025 and 2024": two periods
				// of one date, not a condition and a period.
				return b.fail(fmt.Sprintf("%s and %s are both periods of %s; ask for each period on its own, or compare them (“… in %s vs %s”)", b.datedLabel, r.Label, display(fieldColumn(b.datedField)), b.datedLabel, r.Label))
			}
			b.title = append(b.title, b.datedRowsTitle(b.datedField, b.datedLabel))
		}
		if timeField == "" && b.eventDate == "" {
			if f := b.parentDated(); f != "" {
				// "total qty of purchase order lines in 2025": the lines
				// are dated by their order (found from outside: refused).
				timeField = f
				q.TimeRange.Field = f
				b.notes = append(b.notes, fmt.Sprintf("the period is on %s, the date of the row each belongs to", f))
			}
		}
		if _, made := b.madePeriod(q); timeField == "" && b.eventDate == "" && !made && len(st.none) == 0 {
			// (A period beside rows the subject must have none of is
			// theirs: "courses with no enrollments this year", where
			// courses have no date; missingInPeriod, none.go.)
			// (A period said after the rows the subject's rows must have
			// is theirs: "customers who had a booking last month", where
			// customers have no date of their own; withSome.)
			if b.rows && !b.p.entityTime(b.subject) {
				return b.fail(fmt.Sprintf("%s has no date column to apply %q to", display(b.subject), r.Label))
			}
			for _, m := range q.Metrics {
				if !b.rows && !b.p.metricHasTime(m, b.adhoc) {
					return b.fail(fmt.Sprintf("%s has no date to apply %q to", display(m), r.Label))
				}
			}
		}
	}
	if q.TimeRange != nil && q.TimeRange.Field == "" && len(st.grains) == 0 {
		if pl := b.periodOnState(); pl != nil {
			return pl
		}
	}
	if b.eventDate != "" && (q.TimeRange == nil || !strings.EqualFold(q.TimeRange.Field, b.eventDate)) {
		// The value was read as the event of that date; without the
		// period on it, the rows would be neither in that state nor
		// dated by that event.
		return b.fail(fmt.Sprintf("quarry could not put the period on %s, the date of the event the question names; name the date", b.eventDate))
	}
	if st.compare && len(st.dates) < 2 {
		return b.fail("a comparison needs two periods, such as “this month vs last month”")
	}
	if st.growth && (len(st.dates) != 2 || len(st.grains) > 0 || st.trend || len(b.groups) > 0 || b.rows || len(q.Metrics) != 1) {
		// "year over year revenue growth by month", "revenue growth by
		// channel": a growth rate per period or per group, which quarry
		// does not compute; never the series or the totals instead.
		return b.fail("quarry reads growth only as the change between two periods of one measure (“revenue growth this year vs last year”, “revenue last quarter vs the quarter before”), which the comparison's answer states; it does not compute growth by period or by group yet: ask for the comparison, or for the series (“revenue by month”)")
	}
	if st.growth {
		a, c := q.Compare[0], q.Compare[1]
		da, dc := (dates.Range{From: a.From, To: a.To}).Days(), (dates.Range{From: c.From, To: c.To}).Days()
		whole := dates.Whole(st.dates[0]) && dates.Whole(st.dates[1]) && st.dates[0].Grain == st.dates[1].Grain
		if da > 0 && dc > 0 && !b.lengthFree() && (float64(max(da, dc))/float64(min(da, dc)) > 1.15 || !whole && max(da, dc)-min(da, dc) > 1) {
			// "revenue growth this year vs last year" on June 30th: half a
			// year against a whole one is no growth.
			return b.fail(fmt.Sprintf("growth compares like with like, but %s holds %d days and %s %d, since a period that holds today ends with it; ask for the same days of each (“revenue growth this year vs the same period last year”) or for whole periods", a.Label, da, c.Label, dc))
		}
		b.und("growth: the change from %s to %s", a.Label, c.Label)
	}
	if len(st.grains) > 1 {
		return b.fail("quarry reads one time grain at a time, such as “by month” or “by week”")
	}
	// Time grains.
	grains := st.grains
	if st.trend && len(grains) == 0 {
		grains = []semantic.Grain{semantic.GrainMonth}
		if len(st.dates) == 1 {
			switch d := st.dates[0].Days(); {
			case d > 0 && d <= 31:
				grains[0] = semantic.GrainDay
			case d > 0 && d <= 120:
				grains[0] = semantic.GrainWeek
			}
		}
	}
	if len(grains) > 0 && b.rows {
		return b.fail("a time grain needs a metric; ask for a count or a metric by " + string(grains[0]))
	}

	for _, g := range grains {
		for _, m := range q.Metrics {
			if !b.p.metricHasTime(m, b.adhoc) {
				return b.fail(fmt.Sprintf("%s has no date, so it cannot be cut by %s", display(m), g))
			}
		}
		// A period on a named date ("tickets closed by month") is cut on
		// that same date, not on the metric's own (found from outside:
		// filtered on closed_at, grouped by the month opened).
		// A period on other rows' date ("orders by month from customers
		// who joined this year") cuts the measure by its own date (found
		// from outside: grouped by the signup month).
		// The measured rows' metrics may be the plan's own (a count of
		// them): read with those (found: "work orders completed by month
		// in 2025" put the period on completed_at and the months on
		// scheduled_for, at 1.00).
		if timeField != "" && (b.grainNamed && timeField == b.eventGrain || attended || q.Rows != nil || len(q.Metrics) == 0 || b.p.dateOfMeasured(b.p.model(&Plan{AdHoc: b.adhoc}), q, timeField)) {
			q.Dimensions = append(q.Dimensions, semantic.DimRef{Name: timeField, Grain: g})
			b.und("by %s of %s", g, timeField)
			continue
		}
		q.Dimensions = append(q.Dimensions, semantic.DimRef{Name: string(g), Grain: g})
		b.und("by %s", g)
	}
	b.grainOnState() // "cancelled charters by month": by cancelled_at
	if pl := b.rankValueRows(len(grains)); pl != nil {
		return pl
	}
	for _, g := range b.groups {
		// "how many claims did each reviewer review": the role named
		// twice (its name and its verb) is one grouping, not two
		// columns of the same names (found from outside).
		if !slices.ContainsFunc(q.Dimensions, func(d semantic.DimRef) bool { return d.Grain == "" && strings.EqualFold(d.Name, g) }) {
			q.Dimensions = append(q.Dimensions, semantic.DimRef{Name: g})
		}
	}
	if st.breakdown && len(q.Dimensions) == 0 {
		return b.fail("“break down” needs what to break it down by, such as “by channel” or “by month”")
	}
	if st.howDoing && !namesMetric(st.terms) && !b.namesEventCount() {
		// "how are our products doing": how well, by what measure? A
		// count of the rows is no answer to it.
		return b.fail("the question asks how something is doing without naming a measure; name one, such as “how is revenue doing this month”")
	}
	if st.whichDay && st.order == "" {
		// "which day were orders placed" asks when, not for a ranking.
		return b.fail("quarry reads “which day” as the day ranked first by a measure (“which day had the most orders last month”), or “when” as the date of the first or last row of a table, such as “when was the first order placed”")
	}
	// Order and limit.
	switch {
	case b.rows && b.colSort != nil:
		q.Order = []semantic.Order{{Field: b.colSort.entity + "." + b.colSort.column, Desc: st.order == "desc"}}
		b.und("sort by %s.%s %s", b.colSort.entity, b.colSort.column, st.order)
	case b.rows && st.order != "":
		return b.fail("quarry could not tell what to sort the list by")
	case b.sortField != "":
		if b.p.m.Metric(b.sortField) == nil && !b.isAdHoc(b.sortField) && !hasString(b.groups, b.sortField) {
			return b.fail(fmt.Sprintf("quarry can sort groups only by what it groups by or by the measure, not by %s", b.sortField))
		}
		q.Order = []semantic.Order{{Field: b.sortField, Desc: st.order == "desc"}}
	case b.dirOnly:
		// A direction said alone sorts a breakdown of one measure by it;
		// not one by periods, which may mean in time order ("ascending")
		// and whose answer reads its rows as a series, unless it names
		// the values ("revenue by month lowest first").
		if len(q.Metrics) != 1 || len(q.Dimensions) == 0 || st.limit > 0 || len(b.groups) != len(q.Dimensions) && st.sortDirBy != "value" {
			return b.fail("quarry could not tell what to sort " + map[string]string{"asc": "in ascending", "desc": "in descending"}[st.sortDir] + " order")
		}
		q.Order = []semantic.Order{{Field: q.Metrics[0], Desc: st.order == "desc"}}
		b.und("order by %s %s", q.Metrics[0], st.order)
	case st.order != "":
		if len(q.Dimensions) == 0 {
			if pl := b.rankOptions(); pl != nil && len(q.Metrics) == 1 && b.p.isCountOf(q.Metrics[0], b.subject) {
				// "who are our biggest customers": a count of the ranked
				// rows themselves ranks nothing; by what, asked as "top
				// customers" is.
				return pl
			}
			return b.fail("“highest” or “top” needs something to rank, such as “by country” or “by month”")
		}
		q.Order = []semantic.Order{{Field: q.Metrics[0], Desc: st.order == "desc"}}
		b.und("order by %s %s", q.Metrics[0], st.order)
	}
	if st.limit > 0 {
		if st.order == "" && !b.rows {
			return b.fail(fmt.Sprintf("quarry could not tell what the number %d refers to", st.limit))
		}
		q.Limit = st.limit
		b.und("limit %d", st.limit)
	}
	// Shares.
	if st.share {
		if pl := b.shares(); pl != nil {
			return pl
		}
	}
	if b.rows {
		q.Rows = &semantic.RowsQuery{Entity: b.subject}
		for _, t := range st.terms {
			if t.role == "column" {
				s := t.cands[0]
				c := s.column
				if !strings.EqualFold(s.entity, b.subject) {
					c = s.entity + "." + s.column
				}
				q.Rows.Columns = append(q.Rows.Columns, c)
			}
		}
		// "list the plans with their monthly price": the rows named
		// first are listed, so they keep their label beside the columns
		// asked for; "the ages of singers" asks for the ages alone.
		if ent := b.p.entity(b.subject); ent != nil && b.p.label(ent) != "" && len(q.Rows.Columns) > 0 && (b.subjectBeforeColumns() || asksWho(st.raw)) {
			// "who's on the team": the names, beside the team (found
			// from outside: the department of each, without names).
			st.wantLabel = true
		}
		if st.allInfo {
			ent := b.p.entity(b.subject)
			if ent == nil || len(q.Rows.Columns) > 0 {
				return b.fail("quarry could not tell which columns to list")
			}
			for _, c := range ent.Columns {
				if b.p.m.IsRestricted(ent.Name, c.Name) {
					return &Plan{Kind: KindRefuse, Reason: fmt.Sprintf("all the information about %s includes %s.%s, which the column policy restricts", display(ent.Name), ent.Name, c.Name)}
				}
				q.Rows.Columns = append(q.Rows.Columns, c.Name)
			}
			b.und("every column of %s", ent.Name)
		}
		if ent := b.p.entity(b.subject); len(q.Rows.Columns) == 0 && !st.allInfo && ent != nil && b.p.label(ent) != "" {
			// A list that names no column names its rows: the label,
			// and what it is sorted by.
			st.wantLabel = true
			b.showSortColumn(q.Rows)
		}
		if st.distinct {
			q.Rows.Distinct = true
			b.und("distinct rows")
		}
		if st.wantLabel && !st.allInfo {
			ent := b.p.entity(b.subject)
			if ent != nil && b.p.label(ent) == "" {
				if c := b.nameThrough(ent); c != "" {
					// "the names of poker players": each is one person's.
					if !hasString(q.Rows.Columns, c) {
						q.Rows.Columns = append([]string{c}, q.Rows.Columns...)
					}
					st.wantLabel = false
				}
			}
		}
		if st.wantLabel && !st.allInfo {
			ent := b.p.entity(b.subject)
			if ent == nil || b.p.label(ent) == "" {
				return b.fail(fmt.Sprintf("%s has no label column to name its rows", display(b.subject)))
			}
			if l := b.p.label(ent); !hasString(q.Rows.Columns, l) {
				q.Rows.Columns = append([]string{l}, q.Rows.Columns...)
			}
		}
		b.und("list %s", b.subject)
		fields := b.queryFields()
		for _, c := range q.Rows.Columns {
			if strings.Contains(c, ".") {
				fields = append(fields, c)
			}
		}
		if pl := b.checkJoins(b.subject, fields); pl != nil {
			return pl
		}
		if pl := b.checkRowsSubject(); pl != nil {
			return pl
		}
		pl := &Plan{Kind: KindRows, Query: q, Understood: st.understood, PeriodEnd: b.periodEnd, Notes: b.notes}
		pl.Title = b.makeTitle()
		return pl
	}
	if pl := b.checkMetrics(); pl != nil {
		return pl
	}
	if st.wantLabel && !b.groupsNamed() {
		return b.fail("quarry could not tell whose names the question asks for; ask for the count by a table (“by customer”) or for a list")
	}
	for _, m := range q.Metrics {
		if pl := b.checkJoins(b.p.metricEntity(m, b.adhoc), b.queryFields()); pl != nil {
			return pl
		}
		if pl := b.roleElsewhere(b.p.metricEntity(m, b.adhoc)); pl != nil {
			return pl
		}
	}
	b.hide()
	pl := &Plan{Kind: KindMetric, Query: q, AdHoc: b.adhoc, ShareCases: b.shareCases, Understood: st.understood, PeriodEnd: b.periodEnd, Notes: b.notes}
	if q.TimeRange == nil && len(q.Compare) == 0 {
		pl.DatedBy = b.parentDated()
	}
	pl.Title = b.makeTitle()
	pl.Period = strings.Join(b.title, ", ")
	return pl
}

// checkMetrics refuses metric queries in which a word of the question
// would not constrain every number of the answer: several measures not
// asked for together ("and"), measures of unrelated tables side by side
// with nothing to join them on, and conditions on a count with nothing to
// group by.
func (b *builder) checkMetrics() *Plan {
	q := &b.q
	var ms []*term
	for _, t := range b.st.terms {
		if t.role == "metric" || t.role == "colagg" {
			ms = append(ms, t)
		}
	}
	for i := 1; i < len(ms); i++ {
		joined := false
		for _, a := range b.st.andPos {
			joined = joined || a > ms[i-1].pos && a < ms[i].pos
		}
		if !joined {
			return b.fail(fmt.Sprintf("quarry could not tell how %q and %q go together; ask for one measure, or for both with “and”", ms[i-1].it.text, ms[i].it.text))
		}
	}
	if len(q.Dimensions) == 0 && !b.countGroups() {
		for _, f := range q.Filters {
			if b.isMetricField(f.Field) && !f.OnRelated() {
				return b.fail(fmt.Sprintf("a condition on %s needs something to group by; quarry does not count groups that pass a condition", display(f.Field)))
			}
		}
		if len(q.Metrics) > 1 {
			e0 := b.p.metricEntity(q.Metrics[0], b.adhoc)
			adhoc := false
			same := true
			for _, m := range q.Metrics {
				adhoc = adhoc || b.isAdHoc(m)
				same = same && strings.EqualFold(b.p.metricEntity(m, b.adhoc), e0)
			}
			if adhoc && !same {
				return b.fail("the measures asked for belong to different tables and the question does not say how they relate; ask for each on its own")
			}
		}
	}
	if len(q.Compare) > 0 {
		for _, m := range q.Metrics {
			if !b.p.metricHasTime(m, b.adhoc) {
				return b.fail(fmt.Sprintf("%s has no date to compare periods on", display(m)))
			}
		}
	}
	return nil
}

// yearColumn reads whole years ("in 2014 or 2015") as a filter on the
// subject's one year column ("Year", "Year_of_Founded") when what is
// counted or listed has no date of its own.
func (b *builder) yearColumn() *Plan {
	st := b.st
	if len(st.dates) == 0 || st.compare || b.subject == "" {
		return nil
	}
	for _, t := range st.terms {
		if t.role == "time" {
			return nil
		}
	}
	// Rows with a date of their own are put in time by it, unless the
	// question names their column of years ("accounts founded in 2023":
	// year_founded, not the signup date; found from outside).
	if b.rows && b.p.entityTime(b.subject) && b.yearCol == "" {
		return nil
	}
	for _, m := range b.q.Metrics {
		if b.p.metricHasTime(m, b.adhoc) && b.yearCol == "" {
			return nil
		}
	}
	var years []any
	// "before 1980", "after 1980", "since 1980": an open range of whole
	// years, to today where it has no end.
	op, open := semantic.OpEq, 0
	if r := st.dates[0]; len(st.dates) == 1 {
		today := st.asOf.AddDate(0, 0, 1).Format(time.DateOnly)
		switch {
		case r.From == "" && len(r.To) == 10 && strings.HasSuffix(r.To, "-01-01") && strings.HasPrefix(r.Label, "before "):
			op, open = semantic.OpLt, atoi(r.To[:4])
		case r.From == "" && len(r.To) == 10 && strings.HasSuffix(r.To, "-01-01"):
			// "until 1972", "in or before 1972": 1972 too.
			op, open = semantic.OpLe, atoi(r.To[:4])-1
		case len(r.From) == 10 && strings.HasSuffix(r.From, "-01-01") && r.To == today && strings.HasPrefix(r.Label, "after "):
			op, open = semantic.OpGt, atoi(r.From[:4])-1
		case len(r.From) == 10 && strings.HasSuffix(r.From, "-01-01") && r.To == today && r.From[:4] != today[:4]:
			op, open = semantic.OpGe, atoi(r.From[:4])
		}
	}
	for _, r := range st.dates {
		// "made by 1972": in 1972, or up to it? Neither is guessed.
		if y := r.From; len(y) == 10 && strings.Contains(" "+st.text+" ", " by "+y[:4]+" ") {
			return b.fail(fmt.Sprintf("%q may mean in %s or up to %s; say \"in %s\" or \"in or before %s\"", "by "+y[:4], y[:4], y[:4], y[:4], y[:4]))
		}
	}
	var upTo int // "between 1990 and 1999": the last year of a span of whole years
	if r := st.dates[0]; len(st.dates) == 1 && open == 0 && len(r.From) == 10 && len(r.To) == 10 &&
		strings.HasSuffix(r.From, "-01-01") && strings.HasSuffix(r.To, "-01-01") && atoi(r.To[:4]) > atoi(r.From[:4])+1 {
		op, open, upTo = semantic.OpGe, atoi(r.From[:4]), atoi(r.To[:4])-1
	}
	for _, r := range st.dates {
		if open > 0 {
			years = append(years, strconv.Itoa(open))
			break
		}
		if len(r.From) != 10 || !strings.HasSuffix(r.From, "-01-01") || r.To != fmt.Sprintf("%04d-01-01", atoi(r.From[:4])+1) {
			return nil
		}
		years = append(years, r.From[:4])
	}
	ent := b.p.entity(b.subject)
	if ent == nil {
		return nil
	}
	col, pl := b.yearOf(ent)
	if c := ent.Column(b.yearCol); c != nil {
		col, pl = c, nil // the one the question names
	}
	if pl != nil {
		return pl
	}
	if len(st.some) == 1 {
		// "car makers who produced a car in 1970": the year of the rows
		// the verb links the subject's to, when the subject has none.
		linked := b.p.entity(st.some[0])
		if linked != nil {
			lcol, pl := b.yearOf(linked)
			switch {
			case pl != nil:
				return pl
			case lcol != nil && col != nil:
				return b.fail(fmt.Sprintf("both %s and %s have a year column; quarry could not tell whose year %q is", display(ent.Name), display(linked.Name), st.dates[0].Label))
			case lcol != nil:
				ent, col = linked, lcol
			}
		}
	}
	if col == nil || b.p.m.IsRestricted(ent.Name, col.Name) {
		return nil
	}
	if b.yearCol == "" && eventYear(ent, col) {
		// "how many dogs did we see in 2025": birth_year is the year of
		// one event of the rows, which the question does not name (found
		// from outside: born in 2025, at full confidence). "Year" alone
		// (a car's) is the rows' own.
		return b.fail(fmt.Sprintf("%s has no date of its own, and %s is the year of something else; say what happened in %s (“… %s %s”)",
			display(ent.Name), col.Name, st.dates[0].Label, display(col.Name), st.dates[0].Label))
	}
	if col.Type.IsNumeric() {
		for i, y := range years {
			years[i] = int64(atoi(y.(string)))
		}
	} else if op != semantic.OpEq {
		return nil // a range over text compares as text
	}
	field := ent.Name + "." + col.Name
	b.q.Filters = append(b.q.Filters, semantic.Filter{Field: field, Op: op, Values: years})
	b.und("filter %s %s %v", field, op, years)
	if upTo > 0 {
		last := any(strconv.Itoa(upTo))
		if col.Type.IsNumeric() {
			last = int64(upTo)
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: field, Op: semantic.OpLe, Values: []any{last}})
		b.und("filter %s <= %v", field, last)
	}
	st.dates = nil
	return nil
}

// subjectYears reports whether s is the subject's one column of years,
// which a period of years goes on.
func (b *builder) subjectYears(s sense) bool {
	ent := b.p.entity(b.subject)
	if ent == nil || !strings.EqualFold(ent.Name, s.entity) {
		return false
	}
	if c := ent.Column(s.column); c != nil && c.Type.IsNumeric() && semantic.YearsName(c.Name) {
		return true // named: one of several ("founded" of year_founded beside year_closed)
	}
	col, pl := b.yearOf(ent)
	return pl == nil && col != nil && strings.EqualFold(col.Name, s.column)
}

// ageFilter puts the question's age ("older than 30") on the age column s.
func (b *builder) ageFilter(s sense) {
	st := b.st
	b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.Op(st.ageOp), Values: []any{fmtNum(st.ageNum)}})
	b.und("filter %s %s %s", s.field, st.ageOp, numText(st.ageNum))
	for _, t := range st.terms {
		// "pets whose age is older than 1": the age compared, not a
		// column to list.
		if t.role == "column" && t.cands[0].field == s.field && strings.Contains(" "+st.text+" ", " whose "+t.it.text+" is ") {
			t.role = "context"
		}
	}
}

// yearAge puts the question's age in years on s, a column of the year the
// rows came to be: older than 10 as of 2026 is a year before 2016,
// younger than 3 a year after 2023.
func (b *builder) yearAge(s sense) {
	st := b.st
	year := int64(st.asOf.Year()) - int64(st.ageNum)
	op := semantic.OpLt
	if st.ageOp == "<" {
		op = semantic.OpGt
	}
	b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: op, Values: []any{year}})
	b.und("age %s %s read as %s %s %d (as of %d)", st.ageOp, numText(st.ageNum), s.field, op, year, st.asOf.Year())
}

// birthAge puts the question's age in whole years ("older than 60",
// "younger than 25") on entity's one date of birth, as of the as-of day:
// older than 60 is born on or before that day 61 years earlier, younger
// than 25 born after that day 25 years earlier. It reports false where
// the entity has no one date of birth or the age is not whole years.
func (b *builder) birthAge(entity string) bool {
	st := b.st
	e := b.p.entity(entity)
	if e == nil || st.ageNum != float64(int(st.ageNum)) || st.ageNum < 0 {
		return false
	}
	var birth *semantic.Column
	for i, c := range e.Columns {
		if c.TimeRole == semantic.TimeRoleBirth && !b.p.m.IsRestricted(e.Name, c.Name) {
			if birth != nil {
				return false
			}
			birth = &e.Columns[i]
		}
	}
	if birth == nil {
		return false
	}
	n := int(st.ageNum)
	field := e.Name + "." + birth.Name
	var f semantic.Filter
	switch st.ageOp {
	case ">":
		f = semantic.Filter{Field: field, Op: semantic.OpLe, Values: []any{st.asOf.AddDate(-(n + 1), 0, 0).Format(time.DateOnly)}}
	case "<":
		f = semantic.Filter{Field: field, Op: semantic.OpGt, Values: []any{st.asOf.AddDate(-n, 0, 0).Format(time.DateOnly)}}
	default:
		return false
	}
	b.q.Filters = append(b.q.Filters, f)
	b.und("age %s %d read as %s %s %v (born then, as of %s)", st.ageOp, n, field, f.Op, f.Values[0], st.asOf.Format(time.DateOnly))
	return true
}

// madeYear is ent's one column of the year its rows came to be (founded,
// built, born, established, opened, made), as a sense.
func (b *builder) madeYear(ent *semantic.Entity) (sense, bool) {
	var hits []sense
	for _, c := range ent.Columns {
		ws := semantic.NameWords(c.Name)
		if !c.Type.IsNumeric() || !semantic.YearsName(c.Name) || b.p.m.IsRestricted(ent.Name, c.Name) {
			continue
		}
		for _, w := range ws {
			switch w {
			case "founded", "founding", "built", "build", "birth", "born", "established", "opened", "made", "manufactured", "manufacture", "construction", "constructed", "incorporated", "incorporation", "started", "launched":
				hits = append(hits, sense{kind: sColumn, entity: ent.Name, column: c.Name, field: ent.Name + "." + c.Name, numeric: true})
			}
		}
	}
	if len(hits) != 1 {
		return sense{}, false
	}
	return hits[0], true
}

// eventYear reports whether col, a column of years of ent, is the year of
// an event its name says besides the year (birth_year, year_founded,
// year_built), not of the rows themselves (year, model_year of cars).
func eventYear(ent *semantic.Entity, col *semantic.Column) bool {
	own := map[string]bool{"year": true, "yr": true, "model": true, "fiscal": true, "calendar": true, "academic": true, "school": true, "season": true, "of": true}
	for _, w := range words(ent.Name) {
		own[w] = true
		own[singular(w)] = true
	}
	for _, w := range semantic.NameWords(col.Name) {
		if !own[w] {
			return true
		}
	}
	return false
}

// yearOf is the one year column of an entity, or nil; several are
// refused.
func (b *builder) yearOf(ent *semantic.Entity) (*semantic.Column, *Plan) {
	var col *semantic.Column
	for i, c := range ent.Columns {
		if hasString(words(c.Name), "year") && !strings.EqualFold(c.Name, ent.PrimaryKey) {
			if col != nil {
				return nil, b.fail(fmt.Sprintf("%s has more than one year column (%s, %s); name the one you mean", display(ent.Name), col.Name, c.Name))
			}
			col = &ent.Columns[i]
		}
	}
	return col, nil
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// subjectBeforeColumns reports whether the listed table is named before
// the first column the question asks for.
func (b *builder) subjectBeforeColumns() bool {
	first := -1
	for _, t := range b.st.terms {
		if t.role == "column" {
			first = t.pos
			break
		}
	}
	for _, t := range b.st.terms {
		if t.cands[0].kind == sEntity && strings.EqualFold(t.cands[0].name, b.subject) && t.pos < first {
			return true
		}
	}
	return false
}

// asksWhich reports whether the question asks "which …" or "who …" and
// names nothing else to return: no "list", "give", "show", "name".
func (b *builder) asksWhich() bool {
	ws := strings.Fields(b.st.text)
	if len(ws) == 0 || ws[0] != "which" && ws[0] != "who" {
		return false
	}
	for _, w := range ws {
		switch w {
		case "list", "give", "show", "return", "name", "names", "display", "find":
			return false
		}
	}
	return true
}

// hide keeps out of the result what the question does not ask to see: a
// table's key beside its label, and metrics only filtered by ("singers
// with more than one song"). The measure of a "which … has the most …"
// question stays: the answer states it.
func (b *builder) hide() {
	q := &b.q
	if len(q.Dimensions) == 0 || len(q.Compare) > 0 || q.Share || q.CountGroups != "" {
		return
	}
	hidden := append([]string(nil), b.hidden...)
	for _, m := range q.Metrics {
		ranked := b.argmax && len(q.Order) > 0 && q.Order[0].Field == m
		// The measure a "which … has the most …" question ranks by is
		// shown: "United States, 1,234 customers" answers it; the name
		// alone leaves the reader to trust a figure they cannot see. A
		// question that says what to return ("the name of the country
		// with the most car makers", "list the country name") gets that.
		// A period ranked ("what month had the most orders") is always
		// shown with its figure: the period alone is no answer to check.
		showRanked := ranked && (b.asksWhich() || b.st.oneGrain) && !b.st.wantLabel
		if !b.shown[m] && !showRanked && (!b.isColAgg(m) || ranked || b.comparedOnly(m)) && !b.st.count {
			hidden = append(hidden, m)
		}
	}
	if len(hidden) > 0 {
		q.Hidden = hidden
	}
}

func (b *builder) isColAgg(name string) bool {
	for _, a := range b.adhoc {
		if a.Name == name && !strings.HasPrefix(a.Name, "count_") {
			return true
		}
	}
	return false
}

// groupsNamed reports whether a group gives names: a table's label or a
// text column ("the names of the countries").
func (b *builder) groupsNamed() bool {
	for _, g := range b.groups {
		e, c, ok := strings.Cut(g, ".")
		if !ok {
			if d := b.p.m.Dimension(g); d != nil && d.Type != "time" {
				return true
			}
			continue
		}
		ent := b.p.entity(e)
		if ent == nil {
			continue
		}
		if col := ent.Column(c); col != nil && !col.Type.IsNumeric() && !col.Type.IsTemporal() && !strings.EqualFold(c, ent.PrimaryKey) {
			return true
		}
	}
	return false
}

// queryFields lists the fields the query filters, groups and sorts by.
func (b *builder) queryFields() []string {
	var out []string
	for _, f := range b.q.Filters {
		out = append(out, f.Field)
	}
	for _, d := range b.q.Dimensions {
		out = append(out, d.Name)
	}
	for _, o := range b.q.Order {
		out = append(out, o.Field)
	}
	if b.q.TimeRange != nil && b.q.TimeRange.Field != "" {
		out = append(out, b.q.TimeRange.Field)
	}
	return out
}

// checkRowsSubject refuses a list whose columns all belong to another
// table than the rows listed: each of that table's rows would repeat once
// per listed row ("the content of the series Sky Radio" listed from the
// series table repeats the channel's content).
func (b *builder) checkRowsSubject() *Plan {
	cols := b.q.Rows.Columns
	if len(cols) == 0 || b.namedThrough != "" && hasString(cols, b.namedThrough) {
		return nil // the subject's rows, named through their one link
	}
	for _, c := range cols {
		if !strings.Contains(c, ".") {
			return nil
		}
	}
	for _, f := range b.queryFields() {
		if strings.EqualFold(b.p.fieldEntity(f), b.subject) {
			return nil
		}
	}
	return b.fail(fmt.Sprintf("every column asked for belongs to another table than %s; quarry does not guess whether to list %s rows or that table's rows", display(b.subject), display(b.subject)))
}

func (b *builder) isAdHoc(name string) bool {
	for _, a := range b.adhoc {
		if a.Name == name {
			return true
		}
	}
	return false
}

func (b *builder) isMetricField(f string) bool {
	return b.isAdHoc(f) || b.p.m.Metric(f) != nil
}

func hasString(ss []string, s string) bool {
	for _, x := range ss {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// supAdjective reports whether kw is an adjective whose superlative sorts
// by a column ("the cheapest product", "the heaviest shipment").
func supAdjective(kw string) bool {
	switch kw {
	case "expensive", "cheap", "young", "old", "new", "early", "heavy", "light", "tall", "long", "short":
		return true
	}
	return false
}

// supColumn finds the column an adjective sorts by.
func (b *builder) supColumn(adj string) (sense, bool, bool) {
	return b.supColumnOf(b.subject, adj)
}

// supColumnOf is supColumn on the columns of another entity.
func (b *builder) supColumnOf(entity, adj string) (sense, bool, bool) {
	ent := b.p.entity(entity)
	if ent == nil {
		return sense{}, false, false
	}
	find := func(parts ...string) (sense, bool) {
		var hits []sense
		for _, c := range ent.Columns {
			for _, part := range parts {
				// "age" is a word of the name (pet_age), not any
				// name that holds the letters (manager_id).
				if part == "age" && !slices.Contains(nameWords(c.Name), part) {
					continue
				}
				if strings.Contains(lower(c.Name), part) && c.Type.IsNumeric() && !b.p.m.IsRestricted(ent.Name, c.Name) {
					hits = append(hits, sense{kind: sColumn, entity: ent.Name, column: c.Name, field: ent.Name + "." + c.Name, numeric: true})
					break
				}
			}
		}
		if len(hits) == 1 {
			return hits[0], true
		}
		return sense{}, false
	}
	timeCol := func() (sense, bool) {
		// "which subscription ended first": the date the question names
		// (ended_on), not the table's own (started_on).
		var named []sense
		for _, t := range b.st.terms {
			for _, c := range t.cands {
				if c.kind == sColumn && c.temporal && strings.EqualFold(c.entity, ent.Name) && !slices.ContainsFunc(named, func(o sense) bool { return strings.EqualFold(o.column, c.column) }) {
					named = append(named, c)
				}
			}
		}
		if len(named) == 1 {
			return named[0], true
		}
		if ent.TimeColumn == "" {
			return sense{}, false
		}
		return sense{kind: sColumn, entity: ent.Name, column: ent.TimeColumn, field: ent.Name + "." + ent.TimeColumn, temporal: true}, true
	}
	switch adj {
	case "expensive", "cheap":
		s, ok := find("price")
		if !ok {
			s, ok = find("cost")
		}
		return s, adj == "expensive", ok
	case "heavy", "light":
		s, ok := find("weight")
		return s, adj == "heavy", ok
	case "tall":
		s, ok := find("height")
		return s, true, ok
	case "long", "short":
		s, ok := find("length", "duration")
		return s, adj == "long", ok
	case "young", "old":
		if s, ok := find("age"); ok {
			return s, adj == "old", true
		}
		if s, ok := b.madeYear(ent); ok {
			// "the oldest company": the earliest year it was founded.
			return s, adj == "young", true
		}
		if b.p.ofPersons(ent.Name) {
			// The oldest of people is by age, which no column holds:
			// not the first hired.
			return sense{}, false, false
		}
		s, ok := timeCol()
		return s, false, ok && adj == "old"
	case "new":
		s, ok := timeCol()
		return s, true, ok
	case "early":
		s, ok := timeCol()
		return s, false, ok
	}
	return sense{}, false, false
}

// makeTitle names the answer: "Revenue by month, 2025".
func (b *builder) makeTitle() string {
	q := &b.q
	var s string
	if q.Rows != nil {
		s = capital(display(q.Rows.Entity))
	} else {
		names := make([]string, len(q.Metrics))
		for i, m := range q.Metrics {
			names[i] = b.metricLabel(m)
		}
		s = capital(strings.Join(names, " and "))
		if v := b.countedBy(); v != "" {
			s = v // "Employees hired by year", not "Headcount by year"
		}
		if q.Share {
			s = "Share of " + strings.Join(names, " and ")
		}
		if q.CountGroups != "" {
			s = capital(b.metricLabel(q.CountGroups)) // "Customers (revenue more than 1000)"
		}
	}
	var by []string
	for _, d := range q.Dimensions {
		if q.CountGroups != "" {
			break // counted, not grouped by
		}
		n := d.Name
		if e, c, ok := strings.Cut(n, "."); ok {
			n = c
			if ent := b.p.entity(e); ent != nil && (strings.EqualFold(ent.Label, c) || slices.Contains(b.p.namePartGroups(ent), d.Name)) {
				n = e // "by customers", named by first and last name too
			} else if ent != nil && strings.EqualFold(ent.PrimaryKey, c) {
				continue
			}
		}
		if slices.Contains(by, display(n)) {
			continue
		}
		by = append(by, display(n))
	}
	if len(by) > 0 {
		s += " by " + strings.Join(by, " and ")
	}
	var fs []string
	for _, f := range q.Filters {
		if b.datedField != "" && f.Field == b.datedField && (f.Op == semantic.OpGe || f.Op == semantic.OpLt) {
			if !b.datedTitled && f.Op == semantic.OpGe {
				// "customers who signed up in 2024 ordered exactly 3
				// times in 2025": the period went on the counted rows, so
				// the signup year is said here (found from outside: the
				// headline dropped it).
				fs = append(fs, display(fieldColumn(b.datedField))+" "+inLabel(b.datedLabel))
			}
			continue // else titled with the period
		}
		fs = append(fs, b.p.heldTitle(f))
	}
	if len(fs) > 0 {
		s += " (" + strings.Join(fs, ", ") + ")"
	}
	if len(q.Order) > 0 && q.Limit > 0 {
		dir := "top"
		if !q.Order[0].Desc {
			dir = "bottom"
		}
		s = fmt.Sprintf("%s, %s %d", s, dir, q.Limit)
	}
	if len(b.title) > 0 {
		s += ", " + strings.Join(b.title, ", ")
	}
	return s
}

func (b *builder) metricLabel(name string) string {
	for _, a := range b.adhoc {
		if a.Name == name && a.Description != "" {
			return a.Description
		}
	}
	return display(name)
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// namesMetric reports whether a term names a metric and nothing else.
func namesMetric(terms []*term) bool {
	for _, t := range terms {
		if len(t.it.senses) > 0 && len(only(t.it.senses, sMetric)) == len(t.it.senses) {
			return true
		}
	}
	return false
}

// namesEventCount reports whether a term names both a table of events
// (its time column an event's: orders placed) and the knowledge's count
// of it ("how are we tracking on orders this month"): a count of events
// in a period is a measure of how things go, where a count of things
// ("how are our products doing") is not.
func (b *builder) namesEventCount() bool {
	for _, t := range b.st.terms {
		ms, es := only(t.it.senses, sMetric), only(t.it.senses, sEntity)
		if len(ms) != 1 || len(es) != 1 || len(ms)+len(es) != len(t.it.senses) || !b.p.isCountOf(ms[0].name, es[0].name) {
			continue
		}
		if e := b.p.entity(es[0].name); e != nil && e.TimeColumn != "" {
			if c := e.Column(e.TimeColumn); c != nil && c.TimeRole == semantic.TimeRoleEvent {
				return true
			}
		}
	}
	return false
}
