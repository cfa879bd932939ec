package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestReadKnowledgeShowsEntityFilesAsThePolicyAllows: a file of
// entities/ is the model too, so read_knowledge shows it as it shows
// model.yaml (no restricted column, no withheld view), and the listing
// leaves out the files of withheld views, whose names name them.
func TestReadKnowledgeShowsEntityFilesAsThePolicyAllows(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "entities"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"feel.yaml":   "name: feel\ncolumns:\n  - name: id\n  - name: m\n    values: [happy, sad]\n",
		"emp_hi.yaml": "name: \"emp_hi\"\ncolumns:\n  - name: name\n    values: [Bruno, Chloe]\nrelationships:\n  - from_column: name\n    to: teams\n    to_column: id\n",
		"teams.yaml":  "# the teams\nname: teams   # by region\ncolumns:\n  - name: id\n  - name: region\n    values: [North]\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, "entities", name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
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
	for _, name := range []string{"entities/feel.yaml", "entities/emp_hi.yaml", "ENTITIES/teams.yaml", "entities/teams.yaml"} {
		s, err := a.readKnowledge(p, name)
		if err != nil {
			if strings.HasPrefix(name, "ENTITIES") {
				continue // a file system that tells case
			}
			t.Fatal(err)
		}
		for _, leak := range []string{"happy", "Bruno", "Chloe", "emp_hi", `"m"`} {
			if strings.Contains(s, leak) {
				t.Errorf("read_knowledge(%q) shows %q:\n%s", name, leak, s)
			}
		}
		if name == "entities/teams.yaml" && (!strings.Contains(s, "North") || strings.Contains(s, `"feel"`)) {
			t.Errorf("read_knowledge(%q) shows another entity or lost its own:\n%s", name, s)
		}
	}
	list, err := a.readKnowledge(p, "")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(list, "emp_hi") || !strings.Contains(list, "entities/teams.yaml") || !strings.Contains(list, "entities/feel.yaml") {
		t.Errorf("listing:\n%s", list)
	}
}
