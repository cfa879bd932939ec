package knowledge_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestDemoKnowledgeAgainstDemoDatabase builds the demo database and checks
// the hand-written demo knowledge against it: every entity and column
// exists, every known value occurs, every verified query runs and returns
// rows, and learn on the same database agrees with the hand-written model.
func TestDemoKnowledgeAgainstDemoDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo database")
	}
	if raceEnabled {
		// The check is about data, not concurrency, and the pure-Go SQLite
		// engine runs many times slower under the race detector.
		t.Skip("builds the demo database; skipped under the race detector")
	}
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "demo.db")
	if _, err := demo.Build(ctx, dbPath, demo.Options{Anchor: time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	conn, err := sqlite.Open(ctx, dbPath, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := conn.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range f.Model.Entities {
		ti := cat.Table(e.Table)
		if ti == nil {
			t.Errorf("entity %s: no table %s in the demo database", e.Name, e.Table)
			continue
		}
		if len(ti.Columns) != len(e.Columns) {
			t.Errorf("entity %s lists %d columns, the table has %d", e.Name, len(e.Columns), len(ti.Columns))
		}
		for _, c := range e.Columns {
			ci := ti.Column(c.Name)
			if ci == nil {
				t.Errorf("%s.%s: no such column", e.Table, c.Name)
				continue
			}
			if len(c.Values) == 0 {
				continue
			}
			got := map[string]bool{}
			for _, row := range queryAll(t, conn, "SELECT DISTINCT "+c.Name+" FROM "+e.Table+" WHERE "+c.Name+" IS NOT NULL") {
				got[text(row[0])] = true
			}
			for _, v := range c.Values {
				if !got[v] {
					t.Errorf("%s.%s: known value %q does not occur", e.Table, c.Name, v)
				}
			}
			if len(got) != len(c.Values) {
				t.Errorf("%s.%s: %d known values, the data has %d distinct", e.Table, c.Name, len(c.Values), len(got))
			}
		}
	}
	for _, q := range f.Verified {
		rows := queryAll(t, conn, strings.TrimSuffix(strings.TrimSpace(q.SQL), ";"))
		if len(rows) == 0 {
			t.Errorf("%s:%d %q returns no rows", q.File, q.Line, q.Question)
		}
	}

	// learn alone on the demo database finds the same tables, keys, time
	// columns and relationships as the hand-written model.
	dir := filepath.Join(t.TempDir(), "knowledge")
	if _, err := knowledge.Learn(ctx, conn, dir, knowledge.LearnOptions{Now: learnNow}); err != nil {
		t.Fatal(err)
	}
	lf, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range f.Model.Entities {
		le := lf.Model.Entity(e.Name)
		if le == nil {
			t.Errorf("learn found no entity %s", e.Name)
			continue
		}
		if le.PrimaryKey != e.PrimaryKey || le.TimeColumn != e.TimeColumn {
			t.Errorf("%s: learned key %q time %q, hand-written %q %q", e.Name, le.PrimaryKey, le.TimeColumn, e.PrimaryKey, e.TimeColumn)
		}
	}
	if len(lf.Model.Relationships) != len(f.Model.Relationships) {
		t.Errorf("learn found %d relationships, the hand-written model has %d", len(lf.Model.Relationships), len(f.Model.Relationships))
	}
	for _, r := range f.Model.Relationships {
		found := false
		for _, l := range lf.Model.Relationships {
			found = found || (l.From == r.From && l.FromColumn == r.FromColumn && l.To == r.To && l.ToColumn == r.ToColumn && l.Cardinality == r.Cardinality)
		}
		if !found {
			t.Errorf("learn missed relationship %s.%s -> %s.%s", r.From, r.FromColumn, r.To, r.ToColumn)
		}
	}
}

func queryAll(t *testing.T, conn connector.Conn, sql string) [][]any {
	t.Helper()
	rows, err := conn.Query(context.Background(), sql, connector.QueryOptions{MaxRows: 10000})
	if err != nil {
		t.Errorf("%s: %v", sql, err)
		return nil
	}
	defer rows.Close()
	var out [][]any
	for rows.Next() {
		out = append(out, append([]any(nil), rows.Values()...))
	}
	if err := rows.Err(); err != nil {
		t.Errorf("%s: %v", sql, err)
	}
	return out
}

func text(v any) string {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return fmt.Sprint(v)
}
