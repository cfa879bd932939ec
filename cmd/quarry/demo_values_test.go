package main

import (
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// TestDemoValueIndexHoldsNoRestrictedColumn: init --demo writes the value
// index, and neither the restricted columns (customers.email,
// employees.salary) nor their values are in it (read from the index's
// content table, which needs no FTS5 module).
func TestDemoValueIndexHoldsNoRestrictedColumn(t *testing.T) {
	demo := demoProject(t)
	db, err := sqlite3.Open(filepath.Join(demo, "knowledge", ".cache", "values.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func(sql string) int {
		st, _, err := db.Prepare(sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		defer st.Close()
		if !st.Step() {
			t.Fatalf("%s: no row", sql)
		}
		return st.ColumnInt(0)
	}
	if n := count(`SELECT count(*) FROM columns`); n == 0 {
		t.Fatal("init --demo wrote an empty value index")
	}
	if n := count(`SELECT count(*) FROM columns WHERE lower(entity || '.' || col) IN ('customers.email', 'employees.salary')`); n != 0 {
		t.Errorf("%d restricted columns in the value index", n)
	}
	if n := count(`SELECT count(*) FROM vals_content WHERE c1 LIKE '%@%'`) + count(`SELECT count(*) FROM ids WHERE value LIKE '%@%'`); n != 0 {
		t.Errorf("%d e-mail addresses in the value index", n)
	}
}
