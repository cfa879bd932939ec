package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPlanValues: a stored value found by a value index is read as a value
// of its column where the word means nothing else; a known term keeps its
// meaning, and values of restricted or unknown columns are not read.
func TestPlanValues(t *testing.T) {
	p := New(testModel(), nil)
	q := "how many customers in Lyon"
	if pl := p.Plan(q, asOf); pl.Kind != KindUnanswered {
		t.Fatalf("without the value: %s, want unanswered", pl.Kind)
	}
	pl := p.PlanValues(q, asOf, []Value{{Entity: "customers", Column: "city", Value: "Lyon"}})
	if pl.Kind != KindMetric {
		t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
	}
	want := []semantic.Filter{{Field: "customers.city", Op: semantic.OpEq, Values: []any{"Lyon"}}}
	if diff := cmp.Diff(want, pl.Query.Filters); diff != "" {
		t.Errorf("filters (-want +got):\n%s", diff)
	}
	// The planner itself is unchanged by a question's values.
	if pl := p.Plan(q, asOf); pl.Kind != KindUnanswered {
		t.Errorf("after PlanValues, Plan reads the value: %s", pl.Kind)
	}
	// A restricted column's values are not read.
	if pl := p.PlanValues("how many customers with ann@example.com", asOf, []Value{{Entity: "customers", Column: "email", Value: "ann@example.com"}}); pl.Kind == KindMetric {
		for _, f := range pl.Query.Filters {
			if f.Field == "customers.email" {
				t.Errorf("read a restricted column's value: %+v", f)
			}
		}
	}
	// Two columns holding the value: a clarifying question.
	pl = p.PlanValues("how many customers in Springfield", asOf, []Value{
		{Entity: "customers", Column: "city", Value: "Springfield"},
		{Entity: "customers", Column: "name", Value: "Springfield"},
	})
	if pl.Kind != KindClarify {
		t.Errorf("a value of two columns: %s %v, want clarify", pl.Kind, pl.Query)
	}
}

// TestAgainstAverage: "above the average" compares a column with its own
// average over all rows; a comparison with nothing comparable is refused.
func TestAgainstAverage(t *testing.T) {
	p := New(testModel(), nil)
	want := func(op semantic.Op, agg string) []semantic.Filter {
		return []semantic.Filter{{Field: "products.unit_price", Op: op, Against: agg}}
	}
	for _, tc := range []struct {
		q    string
		want []semantic.Filter
	}{
		{"products with a unit price above the average", want(semantic.OpGt, "avg")},
		{"list products whose price is below the average price", want(semantic.OpLt, "avg")},
		{"how many products have a price higher than the average", want(semantic.OpGt, "avg")},
		{"products cheaper than the average", nil},
		// Grouped, with the rows the average is over named: not a group.
		{"how many products in each category have a price above the average price across all products", want(semantic.OpGt, "avg")},
		{"how many products have a price below the average of all products", want(semantic.OpLt, "avg")},
		{"customers with more than the average orders", nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.want == nil {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v; want no answer", pl.Query)
				}
				return
			}
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
			}
			if diff := cmp.Diff(tc.want, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCodeBesideAKnownValue: a code the value index found in the rows'
// own column is read beside a value the knowledge lists for the same
// word in another table's, and the rows' own wins (found from outside:
// "how many tickets for ENT" read the customers' segment ENT, 172 for
// 78, at confidence 1.00).
func TestCodeBesideAKnownValue(t *testing.T) {
	col := func(name string, typ quarry.Type, vals ...string) semantic.Column {
		return semantic.Column{Name: name, Type: typ, Values: vals}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", Table: "customers", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("segment", quarry.TypeText, "ENT", "SMB")}},
			{Name: "tickets", Table: "tickets", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("customer_id", quarry.TypeInt), col("product_code", quarry.TypeText)}},
		},
		Relationships: []semantic.Relationship{{From: "tickets", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	code := []Value{{Entity: "tickets", Column: "product_code", Value: "ENT", ID: true}}
	pl := p.PlanValues("how many tickets for ENT", asOf, code)
	if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "tickets.product_code" {
		t.Errorf("tickets for ENT: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	// Without the code, the segment, as before.
	pl = p.Plan("how many tickets for ENT", asOf)
	if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "customers.segment" {
		t.Errorf("tickets for ENT, no code: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestCodeOfTheRowReferredTo: a code the index finds in a column that
// refers to the table where the knowledge lists the word is the same
// row's, read once, by the knowledge (found on Spider: "count the number
// of templates of the type CV", CV a type's description, answered before
// codes were indexed, was refused after).
func TestCodeOfTheRowReferredTo(t *testing.T) {
	col := func(name string, typ quarry.Type, vals ...string) semantic.Column {
		return semantic.Column{Name: name, Type: typ, Values: vals}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "Ref_Template_Types", Table: "Ref_Template_Types", PrimaryKey: "Template_Type_Code", Columns: []semantic.Column{col("Template_Type_Code", quarry.TypeText), col("Template_Type_Description", quarry.TypeText, "CV", "Book")}},
			{Name: "Templates", Table: "Templates", PrimaryKey: "Template_ID", Columns: []semantic.Column{col("Template_ID", quarry.TypeInt), col("Template_Type_Code", quarry.TypeText)}},
		},
		Relationships: []semantic.Relationship{{From: "Templates", FromColumn: "Template_Type_Code", To: "Ref_Template_Types", ToColumn: "Template_Type_Code", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	q := "Count the number of templates of the type CV."
	want := p.Plan(q, asOf)
	if want.Query == nil {
		t.Fatalf("without codes: %s %q", want.Kind, want.Reason)
	}
	vals := []Value{{Entity: "Ref_Template_Types", Column: "Template_Type_Code", Value: "CV", ID: true}, {Entity: "Templates", Column: "Template_Type_Code", Value: "CV", ID: true}}
	if pl := p.PlanValues(q, asOf, vals); pl.Query == nil || !cmp.Equal(pl.Query.Filters, want.Query.Filters) {
		t.Errorf("with codes: %s %q %+v; want the filters %+v", pl.Kind, pl.Reason, pl.Query, want.Query.Filters)
	}
	// The code's column named: the code.
	pl := p.PlanValues("How many templates have template type code CV?", asOf, vals)
	if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "Templates.Template_Type_Code" {
		t.Errorf("the column named: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}
