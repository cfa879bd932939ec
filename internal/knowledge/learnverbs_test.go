package knowledge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestLearnProposesVerbs: learn writes the verbs that the schema's agent
// nouns and participles name on their relationships, keeps a person's
// list when it runs again, and fills in a list a person left empty.
func TestLearnProposesVerbs(t *testing.T) {
	db := makeDB(t, `CREATE TABLE car_makers (Id INTEGER PRIMARY KEY, FullName TEXT);
CREATE TABLE model_list (ModelId INTEGER PRIMARY KEY, Maker INTEGER REFERENCES car_makers(Id), Model TEXT);
CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT, written_by INTEGER REFERENCES people(id), editor_id INTEGER REFERENCES people(id));
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id));`)
	dir := filepath.Join(t.TempDir(), "knowledge")
	learn(t, db, dir, knowledge.LearnOptions{})
	verbs := func() map[string][]string {
		f, err := knowledge.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, r := range f.Model.Relationships {
			out[r.From+"."+r.FromColumn] = r.Verbs
		}
		return out
	}
	want := map[string][]string{"model_list.Maker": {"make"}, "books.written_by": {"write"}, "books.editor_id": {"edit"}, "orders.customer_id": nil}
	if diff := cmp.Diff(want, verbs()); diff != "" {
		t.Fatalf("verbs (-want +got):\n%s", diff)
	}
	// A person's list stays; an emptied one is filled again.
	path := filepath.Join(dir, knowledge.ModelFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "verbs: [make]", "verbs: [make, produce, build]", 1)
	s = strings.Replace(s, "    verbs: [write]\n", "", 1)
	if s == string(b) {
		t.Fatalf("model.yaml has no verbs to edit:\n%s", b)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	learn(t, db, dir, knowledge.LearnOptions{})
	want["model_list.Maker"] = []string{"make", "produce", "build"}
	if diff := cmp.Diff(want, verbs()); diff != "" {
		t.Errorf("after refresh, verbs (-want +got):\n%s", diff)
	}
}
