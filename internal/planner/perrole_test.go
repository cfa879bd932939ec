package planner

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestAveragePerRole: an average per a role ("per director") is spread
// over the members of the table the role's link names, each once, not
// over every row of that table (found from outside: "average number of
// claims per adjuster" divided 2,650 claims by all 72 staff, 36.81 for
// 67.95, at 1.00).
func TestAveragePerRole(t *testing.T) {
	p := New(theatreModel(), nil)
	for q, want := range map[string]string{
		"average number of productions per director":      "COUNT(DISTINCT productions.director_id)",
		"average number of productions per stage manager": "COUNT(DISTINCT productions.stage_manager_id)",
	} {
		t.Run(q, func(t *testing.T) {
			pl := p.Plan(q, asOf)
			if pl.Query == nil || len(pl.Query.Metrics) != 1 {
				t.Fatalf("%s: %s %s %v", pl.Kind, pl.Reason, pl.Question, pl.Options)
			}
			var den string
			for _, a := range pl.AdHoc {
				if strings.HasPrefix(a.Name, "number_of_") {
					den = a.Expr
				}
			}
			if den != want {
				t.Errorf("divided by %q, want %q\n%v", den, want, pl.Understood)
			}
			if !strings.Contains(strings.Join(pl.Understood, "; "), "that are the") {
				t.Errorf("the reading does not say who is counted: %v", pl.Understood)
			}
		})
	}
}

// TestRoleGroupedOnce: a role named by its name and by its verb ("each
// director direct") is one grouping (found from outside: "how many
// claims did each reviewer review" grouped by reviewer.full_name twice).
func TestRoleGroupedOnce(t *testing.T) {
	p := New(theatreModel(), nil)
	for _, q := range []string{"how many productions did each director direct", "how many productions did each stage manager manage"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Dimensions) == 0 {
			t.Fatalf("%q: %s %s %s %v", q, pl.Kind, pl.Reason, pl.Question, pl.Options)
		}
		seen := map[string]bool{}
		for _, d := range pl.Query.Dimensions {
			if seen[d.Name] {
				t.Errorf("%q: grouped by %s twice: %v", q, d.Name, pl.Query.Dimensions)
			}
			seen[d.Name] = true
		}
	}
}

// TestListedVerbNamesRole: asked which link reaches a table, the verb the
// knowledge lists on one of the links says which ("which staff served the
// most orders": orders.server_id, whose verbs are [serve]; found from
// outside: asked "manager or server?").
func TestListedVerbNamesRole(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "orders", PrimaryKey: "id", TimeColumn: "opened_at", Columns: []semantic.Column{id("id"), id("server_id"), id("manager_id"), {Name: "opened_at", Type: quarry.TypeTimestamp}}},
		},
		Relationships: []semantic.Relationship{
			{Name: "server", From: "orders", FromColumn: "server_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne, Verbs: []string{"serve"}},
			{Name: "manager", From: "orders", FromColumn: "manager_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"which staff served the most orders this year", "which staff member served the most orders last month"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Dimensions) == 0 || !strings.HasPrefix(pl.Query.Dimensions[0].Name, "server.") {
			t.Errorf("%q: %s %s %s %v %+v", q, pl.Kind, pl.Reason, pl.Question, pl.Options, pl.Query)
		}
	}
	if pl := p.Plan("which staff handled the most orders this year", asOf); pl.Kind != KindClarify {
		t.Errorf("a verb listed on no link: %s %+v; want asked which", pl.Kind, pl.Query)
	}
}

// TestRoleWordAsValue: a word that names a role (server: the staff orders
// name through server_id) and a value of the role's table (staff.role
// 'server') counts the staff holding the value, by their own restaurant,
// never the staff who served orders there (found from outside: "how many
// servers at each restaurant" counted distinct orders.server_id by the
// orders' restaurant, 16 for 8 at 0.85).
func TestRoleWordAsValue(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "restaurants", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "staff", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), id("restaurant_id"), {Name: "name", Type: quarry.TypeText},
				{Name: "role", Type: quarry.TypeText, Values: []string{"chef", "manager", "server"}}}},
			{Name: "orders", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("restaurant_id"), id("server_id"), id("manager_id")}},
		},
		Relationships: []semantic.Relationship{
			{Name: "restaurant", From: "staff", FromColumn: "restaurant_id", To: "restaurants", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "restaurant", From: "orders", FromColumn: "restaurant_id", To: "restaurants", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "server", From: "orders", FromColumn: "server_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne, Verbs: []string{"serve"}},
			{Name: "manager", From: "orders", FromColumn: "manager_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"how many servers at each restaurant", "number of servers by restaurant", "how many servers do we have"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Metrics) != 1 {
			t.Errorf("%q: %s %s %s", q, pl.Kind, pl.Reason, pl.Question)
			continue
		}
		var fs []string
		for _, f := range pl.Query.Filters {
			fs = append(fs, fmt.Sprint(f.Field, f.Values))
		}
		if ent := p.metricEntity(pl.Query.Metrics[0], pl.AdHoc); ent != "staff" || !slices.Contains(fs, "staff.role[server]") {
			t.Errorf("%q: counts %s where %v; want the staff whose role is server", q, ent, fs)
		}
	}
}

// TestRoleWordAsValueEnds: a question that the role's value reading
// leaves refused is refused once, never read again and again (a question
// that never returned: "top 5 adjusters by claims closed this year").
func TestRoleWordAsValueEnds(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText},
				{Name: "role", Type: quarry.TypeText, Values: []string{"adjuster", "agent"}}}},
			{Name: "claims", PrimaryKey: "id", TimeColumn: "reported_on", Columns: []semantic.Column{id("id"), id("adjuster_id"), id("reviewer_id"),
				{Name: "reported_on", Type: quarry.TypeDate}, {Name: "closed_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{
			{Name: "adjuster", From: "claims", FromColumn: "adjuster_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "reviewer", From: "claims", FromColumn: "reviewer_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	start := time.Now()
	pl := p.Plan("top 5 adjusters by claims closed this year", asOf)
	if pl.Read != "" && strings.Count(pl.Read, "staff") > 1 {
		t.Errorf("read again and again: %q", pl.Read)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("planned in %v: read again and again", d)
	}
	// The word said which link; asked "reviewer or adjuster?" of the
	// reading, it is not read so.
	if pl := p.Plan("adjusters with more than 40 claims", asOf); pl.Kind == KindClarify && len(pl.roleOpts) > 0 {
		t.Errorf("asked which link of %q: %s", "adjusters", pl.Question)
	}
}
