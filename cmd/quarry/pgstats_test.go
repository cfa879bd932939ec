package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// TestPostgresStatisticsCountNoRestrictedRows: a partial index whose
// condition is on a restricted column, and a table partitioned by one,
// have row estimates, sizes and counters that count the rows meeting the
// condition. quarry refuses every spelling of those reads on a real
// server while the policy restricts columns.
func TestPostgresStatisticsCountNoRestrictedRows(t *testing.T) {
	connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	dir := leakProject(t, quarry.DialectPostgres)
	env, err := os.ReadFile(filepath.Join(dir, ".env"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := pgx.Connect(ctx, strings.TrimSpace(strings.TrimPrefix(string(env), "DB_URL=")))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for _, s := range []string{
		"CREATE INDEX emp_hi_idx ON employees(id) WHERE salary > 200000",
		"CREATE TABLE pay_part (id int, salary int) PARTITION BY RANGE (salary)",
		"CREATE TABLE pay_lo PARTITION OF pay_part FOR VALUES FROM (0) TO (200000)",
		"CREATE TABLE pay_hi PARTITION OF pay_part FOR VALUES FROM (200000) TO (MAXVALUE)",
		"INSERT INTO pay_part VALUES (1, 100), (2, 300000), (3, 400000)",
		"ANALYZE",
	} {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if r := quarryCmd(t, "", "-C", dir, "learn", "--quiet"); r.code != 0 {
		t.Fatalf("learn: exit %d\n%s", r.code, r.stderr)
	}
	pol := leakPolicy + "  - column: pay_part.salary\n    reason: individual pay\n"
	if err := os.WriteFile(filepath.Join(dir, "knowledge", "policy.yaml"), []byte(pol), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		"select relname, reltuples from pg_class where relname='emp_hi_idx'",
		"select relname, reltuples from pg_class where relname like 'pay_%'",
		"select relname, relpages, relallvisible from pg_catalog.pg_class where relname like 'pay_%'",
		"select row_to_json(c) from pg_class c where relname = 'pay_hi'",
		"select c.* from pg_class c where relname = 'pay_hi'",
		"with s as (select relname, reltuples from pg_class) select * from s where relname = 'pay_hi'",
		"select n_live_tup from pg_stat_user_tables where relname='pay_hi'",
		"select idx_tup_read from pg_stat_all_indexes where indexrelname = 'emp_hi_idx'",
		"select heap_blks_hit from pg_statio_user_tables where relname = 'pay_hi'",
		"select pg_relation_size('pay_hi')",
		"select pg_stat_get_live_tuples('pay_hi'::regclass)",
		"select tableoid::regclass, count(*) from pay_part group by 1",
	} {
		r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", sql)
		if r.code != quarry.ExitRejected || r.stdout != "" {
			t.Errorf("%s: exit %d, want %d (refused)\n%s%s", sql, r.code, quarry.ExitRejected, r.stdout, r.stderr)
		}
	}
	// Names and kinds of relations are still readable.
	if r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "select relname, relkind from pg_class where relname like 'pay_%' order by 1"); r.code != 0 || !strings.Contains(r.stdout, "pay_hi") {
		t.Errorf("names of relations: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
