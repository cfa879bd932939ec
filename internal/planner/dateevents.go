package planner

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// datesAsEvents replans a count of the different values of a date column
// that the question names by what the date marks ("how many hires",
// "number of hires by year": employees.hire_dt) as a count of the rows
// with that date, put in time by it: the employees hired, not the days
// someone was (found from outside: read as the number of different hire
// dates, and refused). A question that asks for dates, days or different
// values keeps the count of dates.
func (p *Planner) datesAsEvents(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric || len(pl.Query.Metrics) != 1 || pl.Query.Rows != nil {
		return pl
	}
	name := pl.Query.Metrics[0]
	k := pl.adHoc(name)
	if k < 0 {
		return pl
	}
	mt := pl.AdHoc[k]
	x := strings.TrimSpace(mt.Expr)
	if !exprStarts(x, "COUNT(DISTINCT ") || !strings.HasSuffix(x, ")") || len(mt.Filters) > 0 {
		return pl
	}
	ent, colName, ok := strings.Cut(strings.TrimSpace(x[len("COUNT(DISTINCT "):len(x)-1]), ".")
	e := p.entity(ent)
	if !ok || e == nil || e.PrimaryKey == "" || !strings.EqualFold(e.Name, mt.Entity) {
		return pl
	}
	c := e.Column(colName)
	if c == nil || !c.Type.IsTemporal() && c.TimeRole == "" && !strings.EqualFold(e.TimeColumn, c.Name) {
		return pl
	}
	for _, w := range nameWords(c.Name) {
		switch w {
		case "last", "latest", "recent", "updated", "modified", "changed", "next":
			// last_login is one date a row, the latest of many events:
			// no count of them (found from outside: "how many logins
			// last month" counted the students by their last login).
			return pl
		}
	}
	for _, t := range tokenize(question) {
		switch t.s {
		case "date", "dates", "day", "days", "different", "distinct", "unique", "times", "when":
			return pl
		}
	}
	field := e.Name + "." + c.Name
	again := *pl
	q := *pl.Query
	again.Query = &q
	again.AdHoc = append([]semantic.Metric(nil), pl.AdHoc...)
	// Named for what it counts: the answer's column says so.
	renamed := "count_" + lower(e.Name) + "_by_" + lower(c.Name)
	q.Metrics = []string{renamed}
	q.Order = append([]semantic.Order(nil), q.Order...)
	for i := range q.Order {
		if q.Order[i].Field == name {
			q.Order[i].Field = renamed
		}
	}
	q.Hidden = append([]string(nil), q.Hidden...)
	for i := range q.Hidden {
		if q.Hidden[i] == name {
			q.Hidden[i] = renamed
		}
	}
	q.Filters = append([]semantic.Filter(nil), q.Filters...)
	for i := range q.Filters {
		if q.Filters[i].Field == name {
			q.Filters[i].Field = renamed
		}
	}
	again.AdHoc[k] = semantic.Metric{Name: renamed, Entity: e.Name, Expr: fmt.Sprintf("COUNT(%s.%s)", e.Name, e.PrimaryKey),
		Filters: []string{field + " IS NOT NULL"}, Time: field, Format: "integer"}
	if q.TimeRange != nil && q.TimeRange.Field == "" {
		tr := *q.TimeRange
		tr.Field = field
		q.TimeRange = &tr
	}
	desc := fmt.Sprintf("number of %s (by %s)", lower(display(e.Name)), strings.ReplaceAll(c.Name, "_", " "))
	again.AdHoc[k].Description = desc
	if mt.Description != "" {
		again.Title = strings.Replace(pl.Title, upperFirst(mt.Description), upperFirst(desc), 1)
		again.Title = strings.Replace(again.Title, mt.Description, desc, 1)
	}
	again.Understood = append([]string(nil), pl.Understood...)
	again.Notes = append([]string(nil), pl.Notes...)
	again.readAs("", fmt.Sprintf("the count read as one of %s by %s, not of its different dates", display(e.Name), c.Name))
	return &again
}
