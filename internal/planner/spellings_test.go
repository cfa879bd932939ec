package planner

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// spellingModel holds columns whose values come in several spellings of
// one value (case, surrounding spaces), a genuinely different value that
// differs in more than case ('Book' beside 'Books'), and a key whose
// values differ only in case but name different rows.
func spellingModel() *semantic.Model {
	col := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	const (
		i = quarry.TypeInt
		f = quarry.TypeFloat
		s = quarry.TypeText
		d = quarry.TypeDate
	)
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "packages", PrimaryKey: "package_id", TimeColumn: "shipped_on",
				Columns: []semantic.Column{col("package_id", i), col("account_code", s), col("shipped_on", d), col("weight_kg", f),
					col("category", s, "Book", "Books", "ELECTRONICS", "Electronics", "Food", "electronics", "food ", "books"),
					col("status", s, "Delivered", "delivered", "lost"),
					col("carrier", s)}},
			{Name: "accounts", PrimaryKey: "account_code", Label: "account_code",
				Columns: []semantic.Column{col("account_code", s, "Ab3", "aB3", "zz9"), col("region", s, "North", "south")}},
		},
		Relationships: []semantic.Relationship{
			{From: "packages", FromColumn: "account_code", To: "accounts", ToColumn: "account_code", Cardinality: semantic.ManyToOne},
		},
		Metrics: []semantic.Metric{
			{Name: "packages", Entity: "packages", Expr: "COUNT(packages.package_id)", Format: "integer"},
		},
	}
}

// TestValueSpellings: a value the question names that the column holds
// in several spellings, equal but for case and surrounding spaces, is
// filtered on every one of them; a value that differs in more than case
// is another value; a key's spellings name different rows and are never
// merged.
func TestValueSpellings(t *testing.T) {
	p := New(spellingModel(), nil)
	for _, tc := range []struct {
		q    string
		want []semantic.Filter
	}{
		{"how many electronics packages", []semantic.Filter{{Field: "packages.category", Op: semantic.OpEq, Values: []any{"ELECTRONICS", "Electronics", "electronics"}}}},
		{"how many ELECTRONICS packages", []semantic.Filter{{Field: "packages.category", Op: semantic.OpEq, Values: []any{"ELECTRONICS", "Electronics", "electronics"}}}},
		{"how many food packages", []semantic.Filter{{Field: "packages.category", Op: semantic.OpEq, Values: []any{"Food", "food "}}}},
		// 'Book' is another value than 'Books', not a spelling of it.
		{"how many books packages", []semantic.Filter{{Field: "packages.category", Op: semantic.OpEq, Values: []any{"Books", "books"}}}},
		{"how many Book packages", []semantic.Filter{{Field: "packages.category", Op: semantic.OpEq, Values: []any{"Book"}}}},
		{"how many packages are not electronics", []semantic.Filter{{Field: "packages.category", Op: semantic.OpNe, Values: []any{"ELECTRONICS", "Electronics", "electronics"}}}},
		{"how many electronics or food packages", []semantic.Filter{{Field: "packages.category", Op: semantic.OpEq, Values: []any{"ELECTRONICS", "Electronics", "electronics", "Food", "food "}}}},
		{"how many delivered packages", []semantic.Filter{{Field: "packages.status", Op: semantic.OpEq, Values: []any{"Delivered", "delivered"}}}},
		// A key: the spelling the question writes, and that one only.
		{"how many packages of account aB3", []semantic.Filter{{Field: "accounts.account_code", Op: semantic.OpEq, Values: []any{"aB3"}}}},
		{"how many packages of account Ab3", []semantic.Filter{{Field: "accounts.account_code", Op: semantic.OpEq, Values: []any{"Ab3"}}}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != KindMetric || pl.Query == nil {
				t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
			}
			if diff := cmp.Diff(tc.want, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
		})
	}
	// A key written in neither spelling: which row is meant is asked,
	// never guessed.
	if pl := p.Plan("how many packages of account AB3", asOf); pl.Kind != KindClarify {
		t.Errorf("a key in neither spelling: %s %+v, want clarify", pl.Kind, pl.Query)
	}
}

// TestValueSpellingsIndexed: the spellings a value index finds of a
// column the knowledge lists no values of are all filtered on.
func TestValueSpellingsIndexed(t *testing.T) {
	p := New(spellingModel(), nil)
	pl := p.PlanValues("how many dhl packages", asOf, []Value{
		{Entity: "packages", Column: "carrier", Value: "DHL"},
		{Entity: "packages", Column: "carrier", Value: "dhl"},
	})
	if pl.Kind != KindMetric {
		t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
	}
	want := []semantic.Filter{{Field: "packages.carrier", Op: semantic.OpEq, Values: []any{"DHL", "dhl"}}}
	if diff := cmp.Diff(want, pl.Query.Filters); diff != "" {
		t.Errorf("filters (-want +got):\n%s", diff)
	}
}

// TestSpellingsTitle: a title names a value held in several spellings
// once, and what the planner understood says it took them all.
func TestSpellingsTitle(t *testing.T) {
	p := New(spellingModel(), nil)
	pl := p.Plan("how many Electronics packages", asOf)
	if pl.Kind != KindMetric {
		t.Fatalf("%s: %s", pl.Kind, pl.Reason)
	}
	if want := "Packages (electronics)"; pl.Title != want {
		t.Errorf("title %q, want %q", pl.Title, want)
	}
	want := "packages.category electronics taken in each of its 3 spellings: ELECTRONICS, Electronics, electronics"
	if !slices.Contains(pl.Understood, want) {
		t.Errorf("understood %q, want %q among them", pl.Understood, want)
	}
}

// TestNamedFirst: a group of spellings is named as a name is written.
func TestNamedFirst(t *testing.T) {
	for _, tt := range []struct{ in, want []string }{
		{[]string{"ELECTRONICS", "Electronics", "electronics"}, []string{"Electronics", "ELECTRONICS", "electronics"}},
		{[]string{"food ", "Food"}, []string{"Food", "food "}},
		{[]string{"GARDEN", "garden"}, []string{"garden", "GARDEN"}},
		{[]string{"Chicago", "chicago"}, []string{"Chicago", "chicago"}},
		{[]string{"smb", "SMB"}, []string{"SMB", "smb"}},
	} {
		if got := namedFirst(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("namedFirst(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
