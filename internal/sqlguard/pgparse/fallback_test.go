//go:build !cgo

package pgparse_test

import (
	"context"
	"testing"

	"github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/pgparse"
)

var pgOpts = sqlguard.Options{Dialect: quarry.DialectPostgres}

// TestFallbackCorpus: without cgo, the combined guard still rejects every
// reject row, and the fallback never allows what the lexical guard
// rejects. Allow rows it rejects are the documented price of having no
// parser; the test reports how many.
func TestFallbackCorpus(t *testing.T) {
	if pgparse.Available() {
		t.Fatal("a build without cgo cannot have the parser")
	}
	g, err := guard.New(pgOpts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, file := range corpusFiles {
		var allow, blocked int
		for _, c := range loadCases(t, file) {
			v := g.Check(ctx, c.SQL)
			fb := pgparse.Check(c.SQL, pgOpts)
			if fb.Allowed && !sqlguard.Check(c.SQL, pgOpts).Allowed {
				t.Errorf("%s: the fallback allows what the lexical guard rejects: %q", caseName(file, c), c.SQL)
			}
			if !c.Allow && v.Allowed {
				t.Errorf("%s let through without the parser: %q (%s)", caseName(file, c), c.SQL, c.Why)
			}
			if c.Allow {
				allow++
				if !v.Allowed {
					blocked++
					t.Logf("%s: over-blocked without the parser: %q: %v", caseName(file, c), c.SQL, v)
				}
			}
		}
		t.Logf("%s: the fallback rejects %d of %d allow rows", file, blocked, allow)
	}
}

func TestFallbackRejectsMore(t *testing.T) {
	for sql, allow := range map[string]bool{
		"SELECT count(*), lower(name) FROM customers":               true,
		"SELECT date_trunc('month', created_at), sum(total) FROM t": true,
		"SELECT pg_size_pretty(pg_database_size('x'))":              false, // on the allow-list, not in the core list
		"EXPLAIN SELECT 1":                        false,
		"SELECT * FROM t TABLESAMPLE SYSTEM (10)": false,
		"SELECT pg_catalog.lower('x')":            true,
		"SELECT nextval('s')":                     false,
	} {
		v := pgparse.Check(sql, pgOpts)
		if v.Allowed != allow {
			t.Errorf("%q: allowed=%v, want %v: %v", sql, v.Allowed, allow, v)
		}
		if !v.Allowed && len(v.Violations) == 0 {
			t.Errorf("%q: rejected without a violation", sql)
		}
	}
	opts := pgOpts
	opts.ExtraFunctions = []string{"my_report"}
	if v := pgparse.Check("SELECT my_report(1)", opts); v.Allowed {
		t.Errorf("the fallback must not accept extra functions without the parser")
	}
}
