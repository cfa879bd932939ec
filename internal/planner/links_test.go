package planner

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// linksModel is a small learned-looking model whose tables are linked in
// the ways questions name with verbs: makers make cars, countries speak
// languages, owners own dogs that go through treatments, teachers teach
// courses through an arrangement table, flights join airports twice (one
// way listed as "depart from"), books refer to people twice, and
// customers place orders.
func linksModel() *semantic.Model {
	c := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	m2o := func(from, col, to, toCol string, verbs ...string) semantic.Relationship {
		return semantic.Relationship{From: from, FromColumn: col, To: to, ToColumn: toCol, Cardinality: semantic.ManyToOne, Verbs: verbs}
	}
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "car_makers", PrimaryKey: "Id", Label: "FullName", Columns: []semantic.Column{
				c("Id", quarry.TypeInt), c("FullName", quarry.TypeText), c("Country", quarry.TypeText, "usa", "germany")}},
			{Name: "cars", PrimaryKey: "Id", Label: "Model", Columns: []semantic.Column{
				c("Id", quarry.TypeInt), c("Maker", quarry.TypeInt), c("Model", quarry.TypeText), c("Year", quarry.TypeInt),
				c("Status", quarry.TypeText, "built", "planned")}},
			{Name: "country", PrimaryKey: "Code", Label: "Name", Columns: []semantic.Column{
				c("Code", quarry.TypeText), c("Name", quarry.TypeText, "Aruba", "Afghanistan"), c("Continent", quarry.TypeText, "Asia", "Europe")}},
			{Name: "countrylanguage", PrimaryKey: "CountryCode", Columns: []semantic.Column{
				c("CountryCode", quarry.TypeText), c("Language", quarry.TypeText, "English", "Dutch"), c("IsOfficial", quarry.TypeText, "T", "F"),
				c("Percentage", quarry.TypeFloat)}},
			{Name: "owners", PrimaryKey: "owner_id", Label: "last_name", Columns: []semantic.Column{
				c("owner_id", quarry.TypeInt), c("last_name", quarry.TypeText), c("state", quarry.TypeText, "Virginia", "Indiana")}},
			{Name: "dogs", PrimaryKey: "dog_id", Label: "name", Columns: []semantic.Column{
				c("dog_id", quarry.TypeInt), c("owner_id", quarry.TypeInt), c("name", quarry.TypeText), c("age", quarry.TypeInt)}},
			{Name: "treatments", PrimaryKey: "treatment_id", Columns: []semantic.Column{
				c("treatment_id", quarry.TypeInt), c("dog_id", quarry.TypeInt), c("cost", quarry.TypeFloat)}},
			{Name: "teacher", PrimaryKey: "Teacher_ID", Label: "Name", Columns: []semantic.Column{
				c("Teacher_ID", quarry.TypeInt), c("Name", quarry.TypeText)}},
			{Name: "course", PrimaryKey: "Course_ID", Label: "Course", Columns: []semantic.Column{
				c("Course_ID", quarry.TypeInt), c("Course", quarry.TypeText, "Math", "Music")}},
			{Name: "course_arrange", PrimaryKey: "Course_ID", Columns: []semantic.Column{
				c("Course_ID", quarry.TypeInt), c("Teacher_ID", quarry.TypeInt), c("Grade", quarry.TypeInt)}},
			{Name: "airports", PrimaryKey: "code", Label: "city", Columns: []semantic.Column{
				c("code", quarry.TypeText), c("city", quarry.TypeText)}},
			{Name: "flights", PrimaryKey: "flight_no", Columns: []semantic.Column{
				c("flight_no", quarry.TypeInt), c("origin", quarry.TypeText), c("destination", quarry.TypeText), c("airline", quarry.TypeText)}},
			{Name: "people", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
				c("id", quarry.TypeInt), c("name", quarry.TypeText)}},
			{Name: "books", PrimaryKey: "id", Label: "title", Columns: []semantic.Column{
				c("id", quarry.TypeInt), c("title", quarry.TypeText), c("author_id", quarry.TypeInt), c("editor_id", quarry.TypeInt)}},
			{Name: "tv_channel", PrimaryKey: "id", Label: "series_name", Columns: []semantic.Column{
				c("id", quarry.TypeText), c("series_name", quarry.TypeText), c("Network", quarry.TypeText, "RAI", "TVP"),
				c("Package_Option", quarry.TypeText)}},
			{Name: "cartoon", PrimaryKey: "id", Label: "Title", Columns: []semantic.Column{
				c("id", quarry.TypeInt), c("Title", quarry.TypeText), c("Channel", quarry.TypeText),
				c("Written_by", quarry.TypeText, "Todd Casey", "Joseph Kuhr"), c("Directed_by", quarry.TypeText, "Ben Jones", "Michael Chang")}},
			{Name: "student", PrimaryKey: "StuID", Label: "LName", Columns: []semantic.Column{
				c("StuID", quarry.TypeInt), c("LName", quarry.TypeText), c("Age", quarry.TypeInt)}},
			{Name: "has_pet", PrimaryKey: "PetID", Columns: []semantic.Column{
				c("StuID", quarry.TypeInt), c("PetID", quarry.TypeInt)}},
			{Name: "pets", PrimaryKey: "PetID", Columns: []semantic.Column{
				c("PetID", quarry.TypeInt), c("PetType", quarry.TypeText, "cat", "dog"), c("pet_age", quarry.TypeInt)}},
			{Name: "customers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
				c("id", quarry.TypeInt), c("name", quarry.TypeText)}},
			{Name: "orders", PrimaryKey: "id", Columns: []semantic.Column{
				c("id", quarry.TypeInt), c("customer_id", quarry.TypeInt), c("amount", quarry.TypeFloat)}},
		},
		Relationships: []semantic.Relationship{
			m2o("cars", "Maker", "car_makers", "Id", "make"),
			m2o("countrylanguage", "CountryCode", "country", "Code"),
			m2o("dogs", "owner_id", "owners", "owner_id", "own"),
			m2o("treatments", "dog_id", "dogs", "dog_id"),
			m2o("course_arrange", "Teacher_ID", "teacher", "Teacher_ID", "teach", "instruct"),
			m2o("course_arrange", "Course_ID", "course", "Course_ID"),
			m2o("flights", "origin", "airports", "code", "depart from"),
			m2o("flights", "destination", "airports", "code"),
			m2o("books", "author_id", "people", "id"),
			m2o("books", "editor_id", "people", "id"),
			m2o("orders", "customer_id", "customers", "id"),
			m2o("cartoon", "Channel", "tv_channel", "id"),
			m2o("has_pet", "StuID", "student", "StuID"),
			m2o("has_pet", "PetID", "pets", "PetID"),
		},
	}
}

var linkQuestions = []struct {
	q    string
	kind Kind
}{
	// The verb read as the one link between the tables on either side.
	{"Which car makers produced a car in 1970?", KindRows},
	{"How many languages are spoken in Aruba?", KindMetric},
	{"How many official languages are spoken in Afghanistan?", KindMetric},
	{"How many countries speak both English and Dutch?", KindMetric},
	{"Which countries do not speak English?", KindRows},
	{"How many dogs went through any treatments?", KindMetric},
	{"How many dogs have gone through a treatment?", KindMetric},
	{"How many dogs have not gone through any treatment?", KindMetric},
	{"Which owners own dogs?", KindRows},
	{"What are the names of the teachers who teach Math courses?", KindRows},
	{"How many cars does each car maker make?", KindMetric},
	// Conditions on the linked rows are conditions of the EXISTS, through
	// a linking table too; an age after the linked table is its age.
	{"Which tv channels play a cartoon written by Todd Casey?", KindRows},
	{"Which tv channels do not play any cartoon directed by Ben Jones?", KindRows},
	{"How many pets are owned by students older than 20?", KindMetric},
	// How many linked rows each row has, through a linking table too (a
	// row with none counts 0).
	{"Which teachers teach at least two courses?", KindRows},
	{"How many owners own fewer than 2 dogs?", KindMetric},
	// Either or each: not guessed.
	{"Which tv channels play cartoons directed by Ben Jones and Michael Chang?", KindUnanswered},
	// The values of a column of rows without linked rows: the rows', or
	// the values none of whose rows have one?
	{"Which networks' tv channels do not play any cartoon written by Todd Casey?", KindUnanswered},
	// The linked rows are not ranked.
	{"Which owners own the youngest dog?", KindUnanswered},
	// A verb the knowledge lists, in any form, names its own link, and
	// only that one.
	{"Which teachers instructed Math courses?", KindRows},
	{"Which owners instructed dogs?", KindUnanswered},
	// Listed on one of two links, the verb names that one, which the
	// plan keeps to through its role (the origin airport).
	{"Which flights departed from airports?", KindRows},
	// A verb with no data behind it between two linked tables: not a
	// generic verb of a link, not listed, so not read.
	{"Which customers complained about an order?", KindUnanswered},
	{"Which customers liked an order?", KindUnanswered},
	// Two ways to join the tables: ask which.
	{"Which people produced books?", KindClarify},
	{"Which airports serve flights?", KindClarify}, // source or destination
	// A verb that is a value keeps the value.
	{"How many cars are built?", KindMetric},
	// A period with a link: whose date it is is not guessed.
	{"How many dogs went through a treatment in 2018?", KindUnanswered},
	// No table on one side: a verb of making says no more than "made";
	// the cars' year column holds 1980.
	{"How many cars were produced in 1980?", KindMetric},
	{"How many cars were handled in 1980?", KindUnanswered},
	// A verb that links rows of one table to themselves: not read.
	{"Which dogs own dogs?", KindUnanswered},
}

func TestLinkVerbsGolden(t *testing.T) {
	m := linksModel()
	p := New(m, nil)
	var b strings.Builder
	for _, tt := range linkQuestions {
		pl := p.Plan(tt.q, asOf)
		if pl.Kind != tt.kind {
			t.Errorf("Plan(%q).Kind = %s, want %s (%s; %v)", tt.q, pl.Kind, tt.kind, pl.Reason, pl.Unknown)
		}
		b.WriteString(planText(m, tt.q, pl))
	}
	goldentest.AssertString(t, filepath.Join("testdata", "link-plans.golden"), b.String())
}

// TestLinkVerbReading: the plan says how it read the verb, and the rows
// the verb links are required with the conditions on them.
func TestLinkVerbReading(t *testing.T) {
	p := New(linksModel(), nil)
	pl := p.Plan("Which car makers produced a car in 1970?", asOf)
	if !slices.Contains(pl.Understood, `read "produced" as the link from car makers to cars`) {
		t.Errorf("understood %q, want the link read", pl.Understood)
	}
	if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Op != semantic.OpSome || pl.Query.Filters[0].Field != "cars" ||
		len(pl.Query.Filters[0].Where) != 1 || pl.Query.Filters[0].Where[0].Field != "cars.Year" {
		t.Fatalf("query %+v, want car makers with a car of 1970", pl.Query)
	}
	if slices.Contains(pl.Ignored, "produced") {
		t.Errorf("ignored %q: a verb read as a link is not read past", pl.Ignored)
	}
	// "older than 20" after the students is the students' age, not the
	// pets'.
	pl = p.Plan("How many pets are owned by students older than 20?", asOf)
	if pl.Query == nil || len(pl.Query.Filters) != 1 || len(pl.Query.Filters[0].Where) != 1 || pl.Query.Filters[0].Where[0].Field != "student.Age" {
		t.Errorf("query %+v, want pets with a student older than 20", pl.Query)
	}
	// The attack: "complained" names no link the knowledge knows.
	pl = p.Plan("Which customers complained about an order?", asOf)
	if !slices.Contains(pl.Unknown, "complained") {
		t.Errorf("unknown %q, want complained", pl.Unknown)
	}
	// A value keeps its meaning: "built" is a status of cars.
	pl = p.Plan("How many cars are built?", asOf)
	if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "cars.Status" {
		t.Errorf("query %+v, want the status value", pl.Query)
	}
}

// FuzzLinkPlan: questions with verbs of links plan without panicking,
// and what they plan compiles or fails cleanly.
func FuzzLinkPlan(f *testing.F) {
	for _, tt := range linkQuestions {
		f.Add(tt.q)
	}
	f.Add("owns.")
	f.Add("went through")
	f.Add("they teach? teach")
	m := linksModel()
	p := New(m, nil)
	f.Fuzz(func(t *testing.T, q string) {
		pl := p.Plan(q, asOf)
		switch pl.Kind {
		case KindMetric, KindRows:
			if pl.Query == nil {
				t.Fatalf("%s plan without a query for %q", pl.Kind, q)
			}
			_, _ = semantic.Compile(pl.Model(m), *pl.Query, quarry.DialectSQLite)
		case KindClarify:
			if pl.Question == "" || len(pl.Options) < 2 {
				t.Fatalf("clarify without a question and options for %q: %+v", q, pl)
			}
		}
	})
}

// TestKeyNameVerb: the past participle in a key's name is a verb of its
// link: "top 3 staff by number of maintenance requests assigned" of
// assigned_staff_id (found from outside: "assigned" not understood).
func TestKeyNameVerb(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "maintenance_requests", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "assigned_staff_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{{From: "maintenance_requests", FromColumn: "assigned_staff_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	pl := New(m, nil).Plan("top 3 staff by number of maintenance requests assigned", asOf)
	if pl.Query == nil || pl.Query.Limit != 3 || !slices.ContainsFunc(pl.Query.Dimensions, func(d semantic.DimRef) bool { return d.Name == "staff.full_name" }) {
		t.Errorf("%s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestMadeVerbPeriod: "how many customers submitted a ticket this year"
// counts the customers with a ticket made this year, by the tickets' own
// date: the verb says the tickets were made, and the period is said
// after them. An outside tester found "submitted" not understood. A
// period said before the verb ("customers who joined this year and
// submitted a ticket") is not moved onto the tickets.
func TestMadeVerbPeriod(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "customer_id", Label: "full_name", TimeColumn: "created_at", Columns: []semantic.Column{id("customer_id"),
				{Name: "full_name", Type: quarry.TypeText}, {Name: "created_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}}},
			{Name: "tickets", PrimaryKey: "ticket_id", TimeColumn: "created_at", Columns: []semantic.Column{id("ticket_id"), id("customer_id"),
				{Name: "created_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}}},
		},
		Relationships: []semantic.Relationship{{From: "tickets", FromColumn: "customer_id", To: "customers", ToColumn: "customer_id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for _, q := range []string{
		"how many customers submitted a ticket this year",
		"customers who filed a ticket this year",
		"how many customers raised a ticket in 2026",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || pl.Query.TimeRange != nil || len(pl.Query.Filters) != 1 {
			t.Errorf("%q: %s %q %+v; want the customers with a ticket made in 2026", q, pl.Kind, pl.Reason, pl.Query)
			continue
		}
		f := pl.Query.Filters[0]
		if f.Field != "tickets" || f.Op != semantic.OpSome || len(f.Where) != 2 || f.Where[0].Field != "tickets.created_at" || f.Where[0].Values[0] != "2026-01-01" {
			t.Errorf("%q: %+v; want tickets made from 2026-01-01", q, f)
		}
		if !strings.Contains(pl.Title, "with tickets") || strings.Count(pl.Title, "2026") != 1 {
			t.Errorf("%q: title %q", q, pl.Title)
		}
	}
	pl := p.Plan("how many tickets were submitted this year", asOf)
	if pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.From != "2026-01-01" {
		t.Errorf("tickets submitted this year: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	if pl := p.Plan("how many customers logged in last month", asOf); pl.Query != nil {
		t.Errorf("customers who logged in: %s %+v; want refused, nothing was made", pl.Kind, pl.Query)
	}
	if pl := p.Plan("how many customers joined this year and submitted a ticket", asOf); pl.Query != nil && slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return len(f.Where) > 0 }) {
		t.Errorf("joined this year and submitted a ticket: the period moved onto the tickets: %+v", pl.Query)
	}
}

// TestHadRows: "how many customers have orders", "customers with orders
// in 2025", "how many customers had an order last month": the customers
// with an order, a period said after the orders on their own date (found
// from outside: refused, "could not tell how orders relates"). A count
// condition or a value of the orders keeps its older reading.
func TestHadRows(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "id", Label: "name", TimeColumn: "signed_up_at", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText},
				{Name: "country", Type: quarry.TypeText, Values: []string{"Germany", "France"}}, {Name: "signed_up_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}}},
			{Name: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{id("id"), id("customer_id"),
				{Name: "channel", Type: quarry.TypeText, Values: []string{"web", "mobile"}}, {Name: "ordered_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "orders", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for q, from := range map[string]string{
		"how many customers have orders":              "",
		"how many customers with an order":            "",
		"customers with orders in 2025":               "2025-01-01",
		"how many customers had an order last month":  "2026-05-01",
		"how many customers in Germany have an order": "",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || pl.Query.TimeRange != nil {
			t.Errorf("%q: %s %q %+v; want the customers with an order", q, pl.Kind, pl.Reason, pl.Query)
			continue
		}
		var some *semantic.Filter
		for i, f := range pl.Query.Filters {
			if f.Field == "orders" && f.Op == semantic.OpSome {
				some = &pl.Query.Filters[i]
			}
		}
		if some == nil {
			t.Errorf("%q: %+v; want an order each", q, pl.Query.Filters)
			continue
		}
		if got := ""; from != "" {
			for _, w := range some.Where {
				if w.Field == "orders.ordered_at" && w.Op == semantic.OpGe {
					got = fmt.Sprint(w.Values...)
				}
			}
			if got != from {
				t.Errorf("%q: %+v; want orders from %s", q, some.Where, from)
			}
		}
	}
	if pl := p.Plan("customers with more than 5 orders", asOf); pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Count }) {
		t.Errorf("more than 5 orders: %s %q %+v; want a count condition", pl.Kind, pl.Reason, pl.Query)
	}
}
