package runtime

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestWriteShadow: the empty copy of a schema holds the database's own
// CREATE statements where they run (a view, an index, a WITHOUT ROWID
// table), and otherwise its tables from the catalog (names quoted as
// written, the INTEGER PRIMARY KEY as the rowid) and each view as a read
// of a column the copy restricts, with a generated column restricted
// too, and a table with restricted columns read by a count alone; a
// table in an attached database is not copied.
func TestWriteShadow(t *testing.T) {
	cat := &quarry.Catalog{Tables: []quarry.TableInfo{
		{Name: `odd "name"`, PrimaryKey: []string{"c"}, Columns: []quarry.ColumnInfo{{Name: "a b"}, {Name: "c", DeclType: "integer"}, {Name: "g", Generated: true}}},
		{Name: "v", View: true, Columns: []quarry.ColumnInfo{{Name: "x"}}},
		{Name: "t", Columns: []quarry.ColumnInfo{{Name: "k"}, {Name: "s"}}},
		{Name: "w", View: true, Columns: []quarry.ColumnInfo{{Name: "k"}}},
		{Name: "broken", Columns: []quarry.ColumnInfo{{Name: "k"}}},
		{Name: "r", PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{{Name: "id", DeclType: "INTEGER"}, {Name: "secret"}}},
	}}
	ddl := []schemaEntry{
		{"table", "t", "CREATE TABLE t (k TEXT PRIMARY KEY, s INT) WITHOUT ROWID"},
		{"index", "t_s", "CREATE INDEX t_s ON t(s)"},
		{"view", "w", "CREATE VIEW w AS SELECT k FROM t WHERE s > 1"},
		{"table", "broken", "CREATE TABLE broken (k TEXT COLLATE no_such_collation)"},
	}
	path := filepath.Join(t.TempDir(), "s.db")
	var unseen []string
	restricts := func(table string) bool { return table == "r" }
	if !writeShadow(path, cat, shadowSchema{ddl: ddl}, restricts, &unseen) {
		t.Fatal("the schema was not written")
	}
	if want := []string{`odd "name".g`, unseenTable + "." + unseenColumn, "r." + unseenOrder}; !slices.Equal(unseen, want) {
		t.Errorf("unseen %q, want %q", unseen, want)
	}
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmt, _, err := db.Prepare(`SELECT name || ': ' || sql FROM sqlite_schema ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for stmt.Step() {
		got = append(got, stmt.ColumnText(0))
	}
	stmt.Close()
	for _, want := range []string{
		`broken: CREATE TABLE "broken" ("k")`,
		`odd "name": CREATE TABLE "odd ""name""" ("a b", "c" INTEGER PRIMARY KEY, "g")`,
		"t: CREATE TABLE t (k TEXT PRIMARY KEY, s INT) WITHOUT ROWID",
		"t_s: CREATE INDEX t_s ON t(s)",
		`v: CREATE VIEW "v" AS SELECT NULL AS "x" FROM "` + unseenTable + `" WHERE "unseen"`,
		"w: CREATE VIEW w AS SELECT k FROM t WHERE s > 1",
		// A table with restricted columns, of unknown indexes: its
		// rowid, which the copy restricts, is none of its columns.
		`r: CREATE TABLE "r" ("` + unseenOrder + `" INTEGER PRIMARY KEY, "id", "secret")`,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("the copy lacks %s; it holds:\n%s", want, strings.Join(got, "\n"))
		}
	}
	attached := &quarry.Catalog{Tables: []quarry.TableInfo{{Schema: "aux", Name: "t", Columns: []quarry.ColumnInfo{{Name: "a"}}}}}
	if writeShadow(filepath.Join(t.TempDir(), "s.db"), attached, shadowSchema{}, restricts, &unseen) {
		t.Error("a table of an attached database was copied")
	}
}
