package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// theatreModel: performances link to staff directly (their house
// manager) and through their production (its director and its stage
// manager), each link with the verb learn writes for it.
func theatreModel() *semantic.Model {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m2o := func(name, from, col, to string, verbs ...string) semantic.Relationship {
		return semantic.Relationship{Name: name, From: from, FromColumn: col, To: to, ToColumn: "id", Cardinality: semantic.ManyToOne, Verbs: verbs}
	}
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", Table: "staff", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
				id("id"), {Name: "name", Type: quarry.TypeText, Values: []string{"James Carter", "Maria Lopez"}},
				{Name: "role", Type: quarry.TypeText, Values: []string{"director", "house_manager", "usher"}},
			}},
			{Name: "productions", Table: "productions", PrimaryKey: "id", Label: "title", Columns: []semantic.Column{
				id("id"), {Name: "title", Type: quarry.TypeText}, id("director_id"), id("stage_manager_id"),
			}},
			{Name: "performances", Table: "performances", PrimaryKey: "id", Columns: []semantic.Column{
				id("id"), id("production_id"), id("house_manager_id"),
			}},
		},
		Relationships: []semantic.Relationship{
			m2o("house_manager", "performances", "house_manager_id", "staff", "manage"),
			m2o("production", "performances", "production_id", "productions"),
			m2o("stage_manager", "productions", "stage_manager_id", "staff", "manage"),
			m2o("director", "productions", "director_id", "staff", "direct"),
		},
	}
}

// TestLinkVerbNamesRole: a verb the knowledge lists on one link of
// several reads the question's values and groups through that link's
// role, not through the link the table's own name joins by (found from
// outside: "how many performances did James Carter direct" counted the
// performances he house-managed, 0 at 0.72, against 135).
func TestLinkVerbNamesRole(t *testing.T) {
	p := New(theatreModel(), nil)
	for _, tc := range []struct {
		q       string
		filters []string // fields filtered on
		dims    []string // fields grouped by
	}{
		{"how many performances did James Carter direct", []string{"director.name"}, nil},
		{"how many performances were directed by James Carter", []string{"director.name"}, nil},
		{"how many productions did James Carter direct", []string{"director.name"}, nil},
		{"how many productions were directed by James Carter", []string{"director.name"}, nil},
		{"which staff directed the most performances", nil, []string{"director.name"}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Query == nil {
				t.Fatalf("%s: %s %s %v", pl.Kind, pl.Reason, pl.Question, pl.Options)
			}
			var filters, dims []string
			for _, f := range pl.Query.Filters {
				if f.Op == semantic.OpEq {
					filters = append(filters, f.Field)
				}
			}
			for _, d := range pl.Query.Dimensions {
				dims = append(dims, d.Name)
			}
			for _, f := range tc.filters {
				if !slices.Contains(filters, f) {
					t.Errorf("filters %v; want %v", filters, tc.filters)
				}
			}
			for _, d := range tc.dims {
				if !slices.Contains(dims, d) {
					t.Errorf("groups %v; want %v", dims, tc.dims)
				}
			}
			for _, f := range append(filters, dims...) {
				if f == "staff.name" {
					t.Errorf("read through the table's own link: %v %v", filters, dims)
				}
			}
		})
	}
}

// TestByLinkName: "performances by house manager" groups by the staff of
// the one link named so (performances.house_manager_id), though
// staff.role holds "house_manager" too (found from outside: refused as a
// value to group by); the value still reads as one elsewhere.
func TestByLinkName(t *testing.T) {
	p := New(theatreModel(), nil)
	pl := p.Plan("number of performances by house manager", asOf)
	if pl.Kind != KindMetric || pl.Query == nil {
		t.Fatalf("%s: %s", pl.Kind, pl.Reason)
	}
	var dims []string
	for _, d := range pl.Query.Dimensions {
		dims = append(dims, d.Name)
	}
	if !slices.Contains(dims, "staff.name") || !strings.Contains(strings.Join(pl.Understood, "; "), "performances.house_manager_id") {
		t.Errorf("groups %v, understood %v", dims, pl.Understood)
	}
	pl = p.Plan("how many house managers", asOf)
	if pl.Query == nil || len(pl.Query.Filters) == 0 || pl.Query.Filters[0].Field != "staff.role" {
		t.Errorf("the value: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestRoleOrOwnLink: a word that names a role of a table reached through
// another (the production's stage manager) and a link straight from the
// rows measured (the performance's house manager, whose verb is the
// same) is asked back (found from outside: "how many performances did
// Maria Lopez manage" read as the stage manager, 45 at 0.72, where the
// house manager's were 181). Where the rows measured have no such link
// of their own, the role is read.
func TestRoleOrOwnLink(t *testing.T) {
	p := New(theatreModel(), nil)
	pl := p.Plan("how many performances did Maria Lopez manage", asOf)
	if pl.Kind != KindClarify || !slices.Contains(pl.Options, "house manager") || !slices.Contains(pl.Options, "stage manager") {
		t.Errorf("manage: %s %q %v %+v", pl.Kind, pl.Question, pl.Options, pl.Query)
	}
	for _, q := range []string{"how many performances did Maria Lopez stage manage", "how many productions did Maria Lopez manage"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Filters) == 0 || pl.Query.Filters[0].Field != "stage_manager.name" {
			t.Errorf("%q: %s %q %+v", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
}
