package knowledge_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestLearnShortSpansAreEvents: a trip ends minutes after it starts, so
// its start and end are the times of an event, not a state held from one
// to the other (found from outside, on a bike share: "how many trips
// last month" refused for want of "new", and trips not ended offered as
// "those here now"). A membership, held for months, keeps its start and
// end; so does a table where a tenth of the spans run over a day.
func TestLearnShortSpansAreEvents(t *testing.T) {
	db := makeDB(t, `
CREATE TABLE trips (id INTEGER PRIMARY KEY, started_at TIMESTAMP, ended_at TIMESTAMP);
CREATE TABLE memberships (id INTEGER PRIMARY KEY, started_at TIMESTAMP, ended_at TIMESTAMP);
CREATE TABLE jobs (id INTEGER PRIMARY KEY, started_at TIMESTAMP, ended_at TIMESTAMP);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
INSERT INTO trips SELECT i, datetime('2025-01-01 08:00', '+' || i || ' days'), CASE WHEN i % 10 = 0 THEN NULL ELSE datetime('2025-01-01 08:20', '+' || i || ' days', '+' || i || ' minutes') END FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
INSERT INTO memberships SELECT i, datetime('2025-01-01 08:00', '+' || i || ' days'), datetime('2025-03-01 08:00', '+' || i || ' days') FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
INSERT INTO jobs SELECT i, datetime('2025-01-01 08:00', '+' || i || ' days'), datetime('2025-01-01 09:00', '+' || i || ' days', '+' || CASE WHEN i % 5 = 0 THEN 3 ELSE 0 END || ' days') FROM n;
`)
	dir := filepath.Join(t.TempDir(), "knowledge")
	learn(t, db, dir, knowledge.LearnOptions{})
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range f.Model.Entities {
		got[e.Name] = e.Column("started_at").TimeRole + " " + e.Column("ended_at").TimeRole
	}
	want := map[string]string{"trips": "event event", "memberships": "start end", "jobs": "start end"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("time roles (-want +got):\n%s", diff)
	}
}
