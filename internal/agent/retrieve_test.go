package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/retrieval"
	"github.com/quarrydata/quarry/internal/semantic"
)

type fakeValues []planner.Value

func (f fakeValues) Read(_ context.Context, q string, _ func(entity, column string) bool) (string, []planner.Value, error) {
	return q, f, nil
}

// wide is a catalog too large to show whole, with two tables of the same
// name in two schemas.
func wide() *quarry.Catalog {
	cat := &quarry.Catalog{}
	for i := range 400 {
		cat.Tables = append(cat.Tables, quarry.TableInfo{Name: fmt.Sprintf("filler_%03d", i), Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "payload_text"}}})
	}
	cat.Tables = append(cat.Tables,
		quarry.TableInfo{Schema: "crm", Name: "clients", Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "town"}, {Name: "email"}}},
		quarry.TableInfo{Schema: "crm", Name: "tiers", Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "label"}}},
		quarry.TableInfo{Schema: "crm", Name: "dup", Columns: []quarry.ColumnInfo{{Name: "id"}}},
		quarry.TableInfo{Schema: "old", Name: "dup", Columns: []quarry.ColumnInfo{{Name: "id"}}},
	)
	return cat
}

func TestPromptRanksByTheQuestionTheValuesAndTheNotes(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes", "loyalty.md"), []byte("Loyalty levels live in tiers.label.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &semantic.Model{Restricted: []string{"clients.email"}}
	a := &Agent{Catalog: wide(), KnowledgeDir: dir, Knowledge: &analyst.Knowledge{Model: m, Values: fakeValues{
		{Entity: "clients", Column: "town", Value: "Aberdeen"},
		{Entity: "clients", Column: "email", Value: "ada@example.org"},
	}}}
	p := newPolicy(a.model())
	ix := a.index(p)
	if got := []string{ix.Table("crm.dup"), ix.Table("old.dup"), ix.Table("clients")}; !cmp.Equal(got, []string{"crm.dup", "old.dup", "clients"}) {
		t.Errorf("names: %q (a name in two schemas is written with its schema, others are not)", got)
	}
	vals := a.values(context.Background(), p, "customers in Aberdeen")
	if diff := cmp.Diff([]retrieval.Value{{Table: "clients", Column: "town", Value: "Aberdeen"}}, vals); diff != "" {
		t.Errorf("values (-want +got), the restricted one left out:\n%s", diff)
	}
	text, res := a.schemaContext(p, ix, "customers in Aberdeen", vals, 600)
	if len(res.Shown) == 0 || res.Shown[0].Table != "clients" || !strings.Contains(text, "- clients: id, town") || strings.Contains(text, "email") {
		t.Errorf("the prompt for a value:\n%s", text)
	}
	if retrieval.Tokens(text) > 600 {
		t.Errorf("the prompt is %d tokens, over 600", retrieval.Tokens(text))
	}
	_, res = a.schemaContext(p, ix, "which loyalty level is most common", nil, 600)
	if len(res.Shown) == 0 || res.Shown[0].Table != "tiers" {
		t.Errorf("the note does not lead to tiers: %+v", res.Shown)
	}
}

func TestAgentsOfOneTemplateShareTheSchemaIndex(t *testing.T) {
	tmpl := Agent{Catalog: wide(), Schema: &SchemaIndex{}}
	a, b := tmpl, tmpl
	p := newPolicy(a.model())
	if a.schemaIndex(p) != b.schemaIndex(p) {
		t.Error("two copies of a template built two indexes")
	}
	c := Agent{Catalog: wide()}
	if first := c.schemaIndex(p); first == c.schemaIndex(p) {
		t.Error("an agent without a SchemaIndex reused one")
	}
}
