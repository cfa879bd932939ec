package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestByRoleThatIsAlsoAValue: "procedures by surgeon", where surgeon is
// both a value of staff.role and the name of procedures' link to staff
// (surgeon_id), groups by that link, with no condition on the role
// (found from outside: refused, "it names a value of staff"). A value
// that names no link of the measured rows ("by nurse") is refused as
// before.
func TestByRoleThatIsAlsoAValue(t *testing.T) {
	m := roleValueModel()
	p := New(m, nil)
	for _, q := range []string{"procedures by surgeon in 2025", "number of procedures per surgeon", "procedures for each surgeon in 2025"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil || !slices.ContainsFunc(pl.Query.Dimensions, func(d semantic.DimRef) bool { return d.Name == "staff.id" }) ||
			slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "staff.role" }) {
			t.Errorf("%q: %s %q %+v; want a count by staff.id, with no condition on staff.role", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	if pl := p.Plan("procedures by nurse", asOf); pl.Kind == KindMetric && pl.Query != nil && len(pl.Query.Dimensions) > 0 {
		t.Errorf("procedures by nurse: %+v; want a refusal, as no link is named nurse", pl.Query)
	}
}

func roleValueModel() *semantic.Model {
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "role", Type: quarry.TypeText, Values: []string{"nurse", "surgeon"}}}},
			{Name: "procedures", PrimaryKey: "id", TimeColumn: "performed_at", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "surgeon_id", Type: quarry.TypeInt},
				{Name: "performed_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{
			{Name: "surgeon", From: "procedures", FromColumn: "surgeon_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
}

// TestRankedValueThatNamesTheLink: "top 3 surgeons by procedures", where
// surgeons is both staff.role's value and procedures' link to staff, asks
// which is meant: staff ranked through the link, or only those whose
// role is surgeon (found from outside: "top 3 brewers by batches" left
// out a packer recorded as the brewer of 51 batches, at 1.00). Each
// option is the question asked one way, and answered so; a ranking the
// question keeps to the value otherwise too, or of a value no link is
// named for, is answered as before.
func TestRankedValueThatNamesTheLink(t *testing.T) {
	m := roleValueModel()
	p := New(m, nil)
	for _, q := range []string{"top 3 surgeons by procedures", "Top 3 Surgeons by procedures in 2025", "which surgeons did the most procedures",
		// In the singular after "which" (found from outside: "which
		// fundraiser has the most pledges" refused as nothing to rank).
		"which surgeon has the most procedures"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindClarify || len(pl.Options) != 2 {
			t.Errorf("%q: %s %q %v; want a clarification with two options", q, pl.Kind, pl.Reason, pl.Options)
			continue
		}
		for i, o := range pl.Options {
			again := p.Plan(o, asOf)
			if again.Kind != KindMetric || again.Query == nil || !slices.ContainsFunc(again.Query.Dimensions, func(d semantic.DimRef) bool { return d.Name == "staff.id" }) {
				t.Errorf("%q option %q: %s %q; want staff ranked", q, o, again.Kind, again.Reason)
				continue
			}
			role := slices.ContainsFunc(again.Query.Filters, func(f semantic.Filter) bool { return f.Field == "staff.role" })
			if role != (i == 1) {
				t.Errorf("%q option %q: condition on staff.role %v; want it only in the second", q, o, role)
			}
		}
	}
	// A value no link is named for is the value's rows, ranked.
	if pl := p.Plan("top 3 nurses by procedures", asOf); pl.Kind == KindClarify {
		t.Errorf("top 3 nurses by procedures: asked %q; no link is named nurse", pl.Question)
	}
}

// TestRoleNamedOnTwoTables: "fundraiser" is the link of donations and of
// pledges to staff, and a value of staff.role; "donations by fundraiser"
// reads the donations' own link (found from outside: "total donations
// per fundraiser" refused, as two links bear the name).
func TestRoleNamedOnTwoTables(t *testing.T) {
	m := roleValueModel()
	m.Entities = append(m.Entities, semantic.Entity{Name: "consults", PrimaryKey: "id", TimeColumn: "held_at", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "surgeon_id", Type: quarry.TypeInt}, {Name: "held_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}})
	m.Relationships = append(m.Relationships, semantic.Relationship{Name: "surgeon", From: "consults", FromColumn: "surgeon_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne})
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, via := range map[string]string{"procedures by surgeon in 2025": "procedures.surgeon_id", "number of consults per surgeon": "consults.surgeon_id"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil || !slices.ContainsFunc(pl.Query.Dimensions, func(d semantic.DimRef) bool { return d.Name == "staff.id" }) ||
			!slices.ContainsFunc(pl.Understood, func(u string) bool { return strings.Contains(u, via) }) {
			t.Errorf("%q: %s %q %q; want a count by staff.id through %s", q, pl.Kind, pl.Reason, pl.Understood, via)
		}
	}
}
