package analyst

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestNameCheck: loans of a member picked by name add up every member of
// that name; the check warns with their keys, passes for a name one
// member has, and stays out of lists of the members themselves and of
// answers grouped by member.
func TestNameCheck(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE members (id INTEGER PRIMARY KEY, full_name TEXT);
CREATE TABLE loans (id INTEGER PRIMARY KEY, member_id INTEGER);
INSERT INTO members VALUES (1, 'Wei García'), (2, 'Wei García'), (3, 'Ann Lee');
INSERT INTO loans VALUES (1, 1), (2, 1), (3, 2), (4, 3);`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "members", Table: "members", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "loans", Table: "loans", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "member_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{{From: "loans", FromColumn: "member_id", To: "members", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Metrics:       []semantic.Metric{{Name: "loans", Entity: "loans", Expr: "COUNT(loans.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	name := func(v string) []semantic.Filter {
		return []semantic.Filter{{Field: "members.full_name", Op: semantic.OpEq, Values: []any{v}}}
	}
	check := func(q semantic.Query) verify.Check {
		return runCheck(t, a, m, q, func(ctx context.Context, m *semantic.Model, q *semantic.Query, _ *Result, _ *semantic.Compiled) verify.Check {
			return a.NameCheck(ctx, m, q)
		})
	}
	if ch := check(semantic.Query{Metrics: []string{"loans"}, Filters: name("Wei García")}); ch.Status != verify.Warn || !strings.Contains(ch.Detail, "2 rows of members are named Wei García (id 1, 2)") {
		t.Errorf("two members of one name: %s %q", ch.Status, ch.Detail)
	}
	if ch := check(semantic.Query{Metrics: []string{"loans"}, Filters: name("Ann Lee")}); ch.Status != verify.Pass {
		t.Errorf("one member: %s %q", ch.Status, ch.Detail)
	}
	if ch := check(semantic.Query{Rows: &semantic.RowsQuery{Entity: "members", Columns: []string{"id"}}, Filters: name("Wei García")}); ch.Status != "" {
		t.Errorf("the members listed one by one: %s %q", ch.Status, ch.Detail)
	}
	if ch := check(semantic.Query{Metrics: []string{"loans"}, Dimensions: []semantic.DimRef{{Name: "members.id"}, {Name: "members.full_name"}}, Filters: name("Wei García")}); ch.Status != "" {
		t.Errorf("grouped by member: %s %q", ch.Status, ch.Detail)
	}
	// A name inside a condition on related rows (found from outside:
	// "which department is Maria Garcia in" listed the departments of two
	// employees of that name as hers, with no word).
	// A name column that is not the label (its names repeat too often
	// for learn to choose it) names the rows too (found from outside).
	unlabelled := *m
	unlabelled.Entities = slices.Clone(m.Entities)
	unlabelled.Entities[0].Label = ""
	if ch := runCheck(t, a, &unlabelled, semantic.Query{Metrics: []string{"loans"}, Filters: name("Wei García")}, func(ctx context.Context, m *semantic.Model, q *semantic.Query, _ *Result, _ *semantic.Compiled) verify.Check {
		return a.NameCheck(ctx, m, q)
	}); ch.Status != verify.Warn {
		t.Errorf("no label: %s %q", ch.Status, ch.Detail)
	}
	related := []semantic.Filter{{Field: "members", Op: semantic.OpSome, Where: name("Wei García")}}
	if ch := check(semantic.Query{Rows: &semantic.RowsQuery{Entity: "loans", Columns: []string{"id"}}, Filters: related}); ch.Status != verify.Warn || !strings.Contains(ch.Detail, "2 rows of members are named Wei García") || !strings.Contains(ch.Detail, "every one of them") {
		t.Errorf("a name on related rows: %s %q", ch.Status, ch.Detail)
	}
}

// TestNameColumn: a column named as the rows' name, in a short form too
// (full_nm, found from outside), names rows; others do not.
func TestNameColumn(t *testing.T) {
	for col, want := range map[string]bool{"full_name": true, "full_nm": true, "name": true, "student_name": true, "username_hash": false, "plan": false,
		// the name of a thing the rows hold (found from outside: a false
		// warning on "total quantity of Ibuprofen")
		"drug_name": false} {
		if got := nameColumn("students", col); got != want {
			t.Errorf("nameColumn(students, %q) = %v, want %v", col, got, want)
		}
	}
}

// TestNameCheckReadsNameParts: a name asked across first and last name
// columns is one name; two guests who share it are found (found from
// outside: "how many reservations from Maria Garcia" added two guests'
// 2 and 3 reservations as 5, at confidence 1.00, with no word). A first
// name alone shared by two rows warns too; a whole name one row has passes.
func TestNameCheckReadsNameParts(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE guests (guest_id INTEGER PRIMARY KEY, first_nm TEXT, last_name TEXT);
CREATE TABLE stays (id INTEGER PRIMARY KEY, guest_id INTEGER);
INSERT INTO guests VALUES (1043, 'Maria', 'Garcia'), (1281, 'Maria', 'Garcia'), (7, 'Maria', 'Lopez');
INSERT INTO stays VALUES (1, 1043), (2, 1281), (3, 1281), (4, 7);`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "guests", Table: "guests", PrimaryKey: "guest_id", Columns: []semantic.Column{{Name: "guest_id", Type: quarry.TypeInt}, {Name: "first_nm", Type: quarry.TypeText}, {Name: "last_name", Type: quarry.TypeText}}},
			{Name: "stays", Table: "stays", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "guest_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{{From: "stays", FromColumn: "guest_id", To: "guests", ToColumn: "guest_id", Cardinality: semantic.ManyToOne}},
		Metrics:       []semantic.Metric{{Name: "stays", Entity: "stays", Expr: "COUNT(stays.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	check := func(fs ...semantic.Filter) verify.Check {
		return runCheck(t, a, m, semantic.Query{Metrics: []string{"stays"}, Filters: fs}, func(ctx context.Context, m *semantic.Model, q *semantic.Query, _ *Result, _ *semantic.Compiled) verify.Check {
			return a.NameCheck(ctx, m, q)
		})
	}
	first := func(v string) semantic.Filter {
		return semantic.Filter{Field: "guests.first_nm", Op: semantic.OpEq, Values: []any{v}}
	}
	last := func(v string) semantic.Filter {
		return semantic.Filter{Field: "guests.last_name", Op: semantic.OpEq, Values: []any{v}}
	}
	if ch := check(first("Maria"), last("Garcia")); ch.Status != verify.Warn || !strings.Contains(ch.Detail, "2 rows of guests are named Maria Garcia (guest_id 1043, 1281)") {
		t.Errorf("two guests of one name: %s %q", ch.Status, ch.Detail)
	}
	if ch := check(first("Maria"), last("Lopez")); ch.Status != verify.Pass || !strings.Contains(ch.Detail, "named Maria Lopez") {
		t.Errorf("one guest: %s %q", ch.Status, ch.Detail)
	}
	if ch := check(first("Maria")); ch.Status != verify.Warn {
		t.Errorf("a first name three guests have: %s %q", ch.Status, ch.Detail)
	}
	// The last name learn took for the label is still a part of the name.
	m.Entities[0].Label = "last_name"
	if ch := check(first("Maria"), last("Lopez")); ch.Status != verify.Pass || !strings.Contains(ch.Detail, "named Maria Lopez") {
		t.Errorf("one guest, the last name the label: %s %q", ch.Status, ch.Detail)
	}
	// The guests listed by a column that does not say whose ("which city
	// does Maria Garcia live in": two cities, of two guests; found from
	// outside) warn; listed by their key or names, they show who is who.
	list := func(cols ...string) verify.Check {
		q := semantic.Query{Rows: &semantic.RowsQuery{Entity: "guests", Columns: cols}, Filters: []semantic.Filter{first("Maria"), last("Garcia")}}
		return runCheck(t, a, m, q, func(ctx context.Context, m *semantic.Model, q *semantic.Query, _ *Result, _ *semantic.Compiled) verify.Check {
			return a.NameCheck(ctx, m, q)
		})
	}
	if ch := list("guests.guest_id"); ch.Status != "" {
		t.Errorf("listed by key: %s %q", ch.Status, ch.Detail)
	}
	if ch := list(); ch.Status != "" {
		t.Errorf("listed by the default columns: %s %q", ch.Status, ch.Detail)
	}
	m.Entities[0].Columns = append(m.Entities[0].Columns, semantic.Column{Name: "city", Type: quarry.TypeText})
	a = sqliteAnalyst(t, `CREATE TABLE guests (guest_id INTEGER PRIMARY KEY, first_nm TEXT, last_name TEXT, city TEXT);
INSERT INTO guests VALUES (1043, 'Maria', 'Garcia', 'Denver'), (1281, 'Maria', 'Garcia', 'Seattle');`)
	if ch := list("guests.city"); ch.Status != verify.Warn || !strings.Contains(ch.Detail, "lists a row of each of them") {
		t.Errorf("listed by city: %s %q", ch.Status, ch.Detail)
	}
}
