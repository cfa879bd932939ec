package knowledge_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// recordSQL is a database that keeps every statement learn sends it.
type recordSQL struct {
	knowledge.Source
	sqls []string
}

func (s *recordSQL) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	s.sqls = append(s.sqls, sql)
	return s.Source.Query(ctx, sql, opts)
}

// TestLearnNeverSamplesRestrictedDates: learn samples a table's dates to
// choose the one that dates its rows, but never a date the column policy
// restricts: no statement it sends names that column.
func TestLearnNeverSamplesRestrictedDates(t *testing.T) {
	db := makeDB(t, `
CREATE TABLE shipments (shipment_id INTEGER PRIMARY KEY, name TEXT, pickup_dt TEXT, delivered_dt TEXT, secret_dt TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
INSERT INTO shipments SELECT i, 'S' || i, date('2024-01-01', '+' || i || ' days'),
  CASE WHEN i % 5 = 0 THEN NULL ELSE date('2024-01-03', '+' || i || ' days') END, '2020-01-01' FROM n;`)
	dir := filepath.Join(t.TempDir(), "knowledge")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "policy.yaml"), "restricted:\n  - column: shipments.secret_dt\n    reason: test\n")
	ctx := context.Background()
	conn, err := sqlite.Open(ctx, db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	src := &recordSQL{Source: conn}
	if _, err := knowledge.Learn(ctx, src, dir, knowledge.LearnOptions{Now: learnNow, DatabaseFile: db}); err != nil {
		t.Fatal(err)
	}
	sampled := false
	for _, q := range src.sqls {
		if strings.Contains(strings.ToLower(q), "secret_dt") {
			t.Errorf("learn read a restricted column: %s", q)
		}
		sampled = sampled || strings.Contains(q, "delivered_dt") && strings.Contains(q, "pickup_dt")
	}
	if !sampled {
		t.Errorf("the dates were not sampled: %q", src.sqls)
	}
}
