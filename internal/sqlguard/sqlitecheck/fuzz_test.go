package sqlitecheck

import (
	"context"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/sqlguard"
)

// FuzzSQLiteAgreement: whatever the combined guard allows for SQLite is,
// per SQLite itself on a fresh connection with no authorizer, exactly one
// statement that is read-only.
func FuzzSQLiteAgreement(f *testing.F) {
	for _, file := range []string{"guard-corpus.tsv", "extra-cases.tsv"} {
		for _, c := range loadCases(f, file) {
			f.Add(c.SQL)
		}
	}
	c := newChecker(f)
	f.Fuzz(func(t *testing.T, sql string) {
		v := c.Guard(context.Background(), sql, sqlguard.Options{})
		if !v.Allowed {
			return
		}
		// Rebuild the schema the checker synthesised, without the guard's
		// authorizer, and ask SQLite directly.
		conn, err := sqlite3.Open(":memory:")
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		s := &synth{c: &Checker{conn: conn}, sql: sql}
		for i := 0; i < MaxSynthesis; i++ {
			stmt, tail, err := conn.Prepare(sql)
			if err != nil {
				if handled, _ := s.repair(errText(err)); handled {
					continue
				}
				t.Fatalf("allowed, but SQLite cannot prepare it: %v: %q", err, sql)
			}
			if stmt == nil {
				t.Fatalf("allowed, but SQLite sees no statement: %q", sql)
			}
			defer stmt.Close()
			if !stmt.ReadOnly() {
				t.Fatalf("allowed, but not read-only per SQLite: %q", sql)
			}
			if rest, _, _ := conn.Prepare(tail); rest != nil {
				rest.Close()
				t.Fatalf("allowed, but SQLite reads a second statement %q in %q", tail, sql)
			}
			return
		}
		t.Fatalf("allowed, but the schema could not be rebuilt: %q", sql)
	})
}
