package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestSpellingVariants: a breakdown whose groups include one value in
// several spellings, equal but for case or surrounding spaces, warns and
// names them; values that differ in more than case, spellings under
// different values of another grouping, a column whose rows a key tells
// apart and a list of rows do not.
func TestSpellingVariants(t *testing.T) {
	byCategory := table([]string{"category", "packages"},
		[]any{"Book", int64(12)}, []any{"Books", int64(1222)}, []any{"ELECTRONICS", int64(1170)},
		[]any{"Electronics", int64(1205)}, []any{"Food", int64(1214)}, []any{"apparel", int64(1256)},
		[]any{"electronics", int64(1201)}, []any{"food ", int64(1186)}, []any{"Hazmat", int64(3)}, []any{" Hazmat", int64(4)}, []any{nil, int64(438)})
	r := Run(Input{Table: byCategory, MetricColumns: []string{"packages"}, DimensionColumns: []string{"category"}})
	var got *Check
	for i, c := range r.Checks {
		if c.Name == CheckSpellings {
			got = &r.Checks[i]
		}
	}
	if got == nil {
		t.Fatalf("no %s check in %+v", CheckSpellings, r.Checks)
	}
	if got.Status != Warn || r.Confidence != 0.85 {
		t.Errorf("%s at %.2f, want a warning at 0.85", got.Status, r.Confidence)
	}
	for _, want := range []string{
		"3 values of category are counted as separate groups in spellings that differ only in case or in the spaces around them: 'ELECTRONICS', 'Electronics' and 'electronics'; 'Food' and 'food '; 'Hazmat' and ' Hazmat'",
		"the figures of one value are split between them",
	} {
		if !strings.Contains(got.Detail, want) {
			t.Errorf("detail %q lacks %q", got.Detail, want)
		}
	}
	if strings.Contains(got.Detail, "'Book'") {
		t.Errorf("detail %q names 'Book', another value than 'Books'", got.Detail)
	}

	for _, tc := range []struct {
		rows [][]any
		want string
	}{
		{[][]any{{"Completed", 272.0}, {"cancelled", 1261.0}, {"completed", 6809.0}},
			"'Completed' and 'completed' differ only in case and are counted as separate groups of status"},
		{[][]any{{"Hazmat", 3.0}, {"Hazmat ", 4.0}},
			"'Hazmat' and 'Hazmat ' differ only in the spaces around them and are counted as separate groups of status"},
	} {
		c, ok := checkSpellings(Input{Table: table([]string{"status", "n"}, tc.rows...), MetricColumns: []string{"n"}, DimensionColumns: []string{"status"}})
		if !ok || !strings.HasPrefix(c.Detail, tc.want) {
			t.Errorf("%v: %q, want %q", tc.rows, c.Detail, tc.want)
		}
	}

	for _, tc := range []struct {
		name string
		in   Input
		warn bool
	}{
		{"spellings in one month", Input{Table: table([]string{"category", "month", "n"},
			[]any{"Books", "2025-01-01", 1.0}, []any{"books", "2025-01-01", 2.0}),
			MetricColumns: []string{"n"}, DimensionColumns: []string{"category", "month"}}, true},
		{"spellings in different months", Input{Table: table([]string{"category", "month", "n"},
			[]any{"Books", "2025-01-01", 1.0}, []any{"books", "2025-02-01", 2.0}),
			MetricColumns: []string{"n"}, DimensionColumns: []string{"category", "month"}}, false},
		{"two rows told apart by a key", Input{Table: table([]string{"name", "n"},
			[]any{"Ann Lee", 1.0}, []any{"ann lee", 2.0}),
			MetricColumns: []string{"n"}, DimensionColumns: []string{"name"}, KeyedColumns: []string{"name"}}, false},
		{"a list of rows", Input{Table: table([]string{"category"}, []any{"Books"}, []any{"books"})}, false},
		{"different values", Input{Table: table([]string{"category", "n"}, []any{"Book", 1.0}, []any{"Books", 2.0}),
			MetricColumns: []string{"n"}, DimensionColumns: []string{"category"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := checkSpellings(tc.in)
			if ok != tc.warn {
				t.Errorf("warned %v (%s), want %v", ok, c.Detail, tc.warn)
			}
		})
	}
}

// TestKeyedColumns: a grouping by a table's name beside its key names rows
// that a key tells apart; a grouping by a column alone does not.
func TestKeyedColumns(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "customers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}, {Name: "segment", Type: quarry.TypeText}}},
	}, Metrics: []semantic.Metric{{Name: "customers", Entity: "customers", Expr: "COUNT(customers.id)"}}}
	q := &semantic.Query{Metrics: []string{"customers"}, Dimensions: []semantic.DimRef{{Name: "customers.id"}, {Name: "customers.name"}}, Hidden: []string{"customers.id"}}
	if got := keyedColumns(m, q); !containsFold(got, "name") {
		t.Errorf("keyed %v, want name", got)
	}
	q = &semantic.Query{Metrics: []string{"customers"}, Dimensions: []semantic.DimRef{{Name: "customers.segment"}}}
	if got := keyedColumns(m, q); len(got) != 0 {
		t.Errorf("keyed %v, want none", got)
	}
}

// TestCoveragePluralValue: a word that is one value filtered on ("books":
// Books) is not the plural of another value (Book) left out.
func TestCoveragePluralValue(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "packages", PrimaryKey: "id", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "category", Type: quarry.TypeText, Values: []string{"Book", "Books", "books"}}}},
	}, Metrics: []semantic.Metric{{Name: "packages", Entity: "packages", Expr: "COUNT(packages.id)"}}}
	for _, tc := range []struct {
		values []any
		fail   bool
	}{
		{[]any{"Books", "books"}, false},
		{[]any{"Book"}, true}, // "books" asks for Books, which is not filtered on
	} {
		q := &semantic.Query{Metrics: []string{"packages"}, Filters: []semantic.Filter{{Field: "packages.category", Op: semantic.OpEq, Values: tc.values}}}
		failed := ""
		for _, c := range Coverage("how many books packages", "2026-06-30", m, q) {
			if c.Status == Fail {
				failed += c.Detail
			}
		}
		if (failed != "") != tc.fail {
			t.Errorf("%v: failed %q, want a failure %v", tc.values, failed, tc.fail)
		}
	}
}

// TestFilterLeavesSpellingsOut: a filter, whoever wrote it, on one
// spelling of a value the column also holds in others warns and names
// them; one on every spelling, or on a key, does not.
func TestFilterLeavesSpellingsOut(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "accounts", PrimaryKey: "code", Columns: []semantic.Column{{Name: "code", Type: quarry.TypeText, Values: []string{"Ab3", "aB3"}}}},
		{Name: "packages", PrimaryKey: "id", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "account_code", Type: quarry.TypeText},
			{Name: "category", Type: quarry.TypeText, Values: []string{"Book", "ELECTRONICS", "Electronics", "electronics"}}}},
	}, Relationships: []semantic.Relationship{{From: "packages", FromColumn: "account_code", To: "accounts", ToColumn: "code", Cardinality: semantic.ManyToOne}},
		Metrics: []semantic.Metric{{Name: "packages", Entity: "packages", Expr: "COUNT(packages.id)"}}}
	one := table([]string{"packages"}, []any{int64(1170)})
	for _, tc := range []struct {
		f    semantic.Filter
		want string // the warning, or "" for none
	}{
		{semantic.Filter{Field: "packages.category", Op: semantic.OpEq, Values: []any{"ELECTRONICS"}},
			"the filter takes 'ELECTRONICS' alone of 3 spellings of electronics in packages.category, leaving out the rows of 'Electronics' and 'electronics'"},
		{semantic.Filter{Field: "packages.category", Op: semantic.OpIn, Values: []any{"ELECTRONICS", "Electronics", "electronics"}}, ""},
		{semantic.Filter{Field: "packages.category", Op: semantic.OpEq, Values: []any{"Book"}}, ""},
		{semantic.Filter{Field: "accounts.code", Op: semantic.OpEq, Values: []any{"aB3"}}, ""},
	} {
		q := &semantic.Query{Metrics: []string{"packages"}, Filters: []semantic.Filter{tc.f}}
		c, _ := checkFilters(InputFor(m, q, &semantic.Compiled{}, one, 1, false))
		if tc.want == "" && c.Status != Pass || tc.want != "" && (c.Status != Warn || !strings.Contains(c.Detail, tc.want)) {
			t.Errorf("%v: %s %q, want %q", tc.f.Values, c.Status, c.Detail, tc.want)
		}
	}
}
