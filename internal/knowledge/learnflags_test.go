package knowledge_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestLearnFlagValues: learn records the 0 and 1 of an integer column
// named as a yes/no flag (is_active, refunded), so that the planner reads
// "active employees" as a condition; not those of a number that holds
// more (a flag name over 0, 1 and 2) nor of one not named as a flag
// (quantity, holding only 0 and 1).
func TestLearnFlagValues(t *testing.T) {
	db := makeDB(t, `
CREATE TABLE employees (emp_id INTEGER PRIMARY KEY, name TEXT, is_active INTEGER, refunded INTEGER, escalated INTEGER, quantity INTEGER, remote INTEGER);
INSERT INTO employees VALUES (1, 'Ada', 1, 0, 0, 1, 1), (2, 'Bo', 0, 1, 2, 0, 0), (3, 'Cy', 1, NULL, 1, 1, 1), (4, 'Di', NULL, 0, 0, 0, 0);
`)
	dir := filepath.Join(t.TempDir(), "knowledge")
	learn(t, db, dir, knowledge.LearnOptions{})
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := f.Model.Entity("employees")
	for col, want := range map[string][]string{
		"is_active": {"0", "1"},
		"refunded":  {"0", "1"},
		"escalated": nil,
		"quantity":  nil,
		// A state of where one works (found from outside: "how many
		// remote employees" counted the column's two values).
		"remote": {"0", "1"},
	} {
		if c := e.Column(col); c == nil || !cmp.Equal(c.Values, want) {
			t.Errorf("employees.%s: values %v, want %v", col, c.Values, want)
		}
	}
}

// TestLearnValuesBesideEmptyText: an empty text among a column's values
// is left out, not a reason to record none (found from outside: one empty text
// among twelve letter grades lost them all, and "got an A" was then read
// without the grade); a column with more values than the limit, the empty
// text counted, records none.
func TestLearnValuesBesideEmptyText(t *testing.T) {
	db := makeDB(t, `
CREATE TABLE enrollments (id INTEGER PRIMARY KEY, letter_grade TEXT, note TEXT);
INSERT INTO enrollments VALUES (1, 'A', 'x'), (2, 'B+', ''), (3, '', 'y'), (4, NULL, ' '), (5, 'A-', 'z');
`)
	dir := filepath.Join(t.TempDir(), "knowledge")
	learn(t, db, dir, knowledge.LearnOptions{MaxValues: 4})
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := f.Model.Entity("enrollments")
	if got, want := e.Column("letter_grade").Values, []string{"A", "A-", "B+"}; !cmp.Equal(got, want) {
		t.Errorf("letter_grade: values %v, want %v", got, want)
	}
	if got := e.Column("note").Values; got != nil {
		t.Errorf("note (x, y, z and two empty texts, over the limit of 4): values %v, want none", got)
	}
}
