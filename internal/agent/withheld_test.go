package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
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

// TestDescribeWithheldEntity: describe_table of a withheld view that the
// knowledge also lists as an entity (learn wrote it before the column was
// restricted) is "not found", not an endless recursion that crashed the
// process (found from outside).
func TestDescribeWithheldEntity(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "v_contacts", Table: "v_contacts", Columns: []semantic.Column{{Name: "name"}, {Name: "email"}}},
		{Name: "contacts", Table: "v_contacts", Columns: []semantic.Column{{Name: "name"}}},
	}}
	a := &Agent{
		Catalog: &quarry.Catalog{Tables: []quarry.TableInfo{
			{Name: "v_contacts", View: true, Columns: []quarry.ColumnInfo{{Name: "name"}, {Name: "email"}}},
		}},
		Knowledge: &analyst.Knowledge{Model: m},
		Withheld:  map[string]bool{"v_contacts": true},
	}
	p := newPolicy(a.model())
	for _, name := range []string{"v_contacts", "V_CONTACTS", "contacts"} {
		s, err := a.describe(p, name)
		if err == nil || quarry.KindOf(err) != quarry.KindNotFound {
			t.Errorf("describe(%q) = %q, %v; want not found", name, s, err)
		}
	}
}

// TestReadKnowledgeShowsTheModelAsThePolicyAllows: model.yaml as
// read_knowledge hands it to the model has no restricted column (nor the
// values learn wrote for it before it was restricted) and no withheld view
// (whose values tell what it filters on) — found from outside.
func TestReadKnowledgeShowsTheModelAsThePolicyAllows(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "model.yaml"), []byte("written: [happy, Bruno]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "feel", Table: "feel", Columns: []semantic.Column{{Name: "id"}, {Name: "m", Values: []string{"happy", "sad"}}}},
			{Name: "emp_hi", Table: "emp_hi", Columns: []semantic.Column{{Name: "name", Values: []string{"Bruno", "Chloe"}}}},
			{Name: "teams", Table: "teams", Columns: []semantic.Column{{Name: "id"}, {Name: "region", Values: []string{"North"}}}},
		},
		Relationships: []semantic.Relationship{{From: "emp_hi", FromColumn: "name", To: "teams", ToColumn: "id"}},
		Restricted:    []string{"feel.m"},
	}
	a := &Agent{Knowledge: &analyst.Knowledge{Model: m}, KnowledgeDir: dir, Withheld: map[string]bool{"emp_hi": true}}
	p := newPolicy(m)
	for _, name := range []string{"model.yaml", " MODEL.yaml "} {
		s, err := a.readKnowledge(p, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, leak := range []string{"happy", "Bruno", "Chloe", "emp_hi", `"m"`} {
			if strings.Contains(s, leak) {
				t.Errorf("read_knowledge(%q) shows %q:\n%s", name, leak, s)
			}
		}
		if !strings.Contains(s, "North") || !strings.Contains(s, "teams") {
			t.Errorf("read_knowledge(%q) lost what may be shown:\n%s", name, s)
		}
	}
	// A value learn recorded of a restricted column is not scrubbed
	// from other text: that would tell the asker a word is one of them.
	if s := p.scrub("the mood was happy"); s != "the mood was happy" {
		t.Errorf("scrub answered whether a word is a known value of a restricted column: %q", s)
	}
	// Other files are read as written.
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("fiscal year starts in April"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := a.readKnowledge(p, "notes.md"); err != nil || !strings.Contains(s, "April") {
		t.Fatalf("notes.md = %q, %v", s, err)
	}
}
