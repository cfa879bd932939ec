package knowledge_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestValueKeys: a column named after another table becomes a
// relationship to it only when the data agrees — every value is one of
// that table's keys — and never from a restricted column or a column
// whose values do not all refer.
func TestValueKeys(t *testing.T) {
	db := makeDB(t, `
CREATE TABLE airlines (uid INTEGER PRIMARY KEY, Airline TEXT);
INSERT INTO airlines VALUES (1, 'United'), (2, 'Delta'), (3, 'JetBlue');
CREATE TABLE flights (Airline INTEGER, FlightNo INTEGER, PRIMARY KEY (Airline, FlightNo));
INSERT INTO flights VALUES (1, 28), (1, 29), (2, 2), (3, 44);
CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO countries VALUES (1, 'France'), (2, 'Spain');
CREATE TABLE makers (id INTEGER PRIMARY KEY, country INTEGER, name TEXT);
INSERT INTO makers VALUES (1, 1, 'A'), (2, 7, 'B');
CREATE TABLE planes (id INTEGER PRIMARY KEY, airline INTEGER);
INSERT INTO planes VALUES (1, 1), (2, 2);`)
	dir := filepath.Join(t.TempDir(), "knowledge")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "policy.yaml"), "restricted:\n  - column: planes.airline\n    reason: test\n")
	learn(t, db, dir, knowledge.LearnOptions{})
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, r := range f.Model.Relationships {
		rels = append(rels, r.From+"."+r.FromColumn+" -> "+r.To+"."+r.ToColumn+" "+string(r.Cardinality))
	}
	// makers.country: 7 is no country's id; planes.airline is restricted.
	if want := []string{"flights.Airline -> airlines.uid many_to_one"}; !slices.Equal(rels, want) {
		t.Errorf("relationships %v, want %v", rels, want)
	}
	// A second learn changes nothing.
	rep := learn(t, db, dir, knowledge.LearnOptions{})
	if len(rep.RelationshipsAdded) > 0 || len(rep.Files) > 0 {
		t.Errorf("second learn: relationships %v, files %v", rep.RelationshipsAdded, rep.Files)
	}
}
