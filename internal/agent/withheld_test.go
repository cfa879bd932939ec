package agent

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestWithheldViewsAreNotShown: a view the column policy refuses as a
// whole is not in the schema the model sees, nor found by search_schema
// or describe_table.
func TestWithheldViewsAreNotShown(t *testing.T) {
	a := &Agent{
		Catalog: &quarry.Catalog{Tables: []quarry.TableInfo{
			{Name: "orders", Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "total"}}},
			{Name: "v_contacts", View: true, Columns: []quarry.ColumnInfo{{Name: "name"}, {Name: "email"}}},
		}},
		Withheld: map[string]bool{"v_contacts": true},
	}
	p := newPolicy(a.model())
	for _, tb := range a.tables(p) {
		if tb.name == "v_contacts" {
			t.Fatalf("the withheld view is in the schema: %+v", tb)
		}
	}
	if s, _ := a.searchSchema(p, a.index(p), "email", 1000); strings.Contains(s, "v_contacts") {
		t.Errorf("search_schema finds the withheld view:\n%s", s)
	}
	if s, err := a.describe(p, "v_contacts"); err == nil && strings.Contains(s, "email") {
		t.Errorf("describe_table shows the withheld view:\n%s", s)
	}
}
