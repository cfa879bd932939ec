package httpjson

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestSQLiteCatalogQuery runs the sqlite catalog query on a real SQLite
// file, opened read-only, behind a test service.
func TestSQLiteCatalogQuery(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, amount REAL);
CREATE VIEW big AS SELECT * FROM orders WHERE amount > 100;`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		var req struct{ SQL string }
		json.NewDecoder(r.Body).Decode(&req)
		stmt, _, err := ro.Prepare(req.SQL)
		if err != nil {
			json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
			return
		}
		defer stmt.Close()
		var rows []map[string]any
		for stmt.Step() {
			row := map[string]any{}
			for i := range stmt.ColumnCount() {
				row[stmt.ColumnName(i)] = stmt.ColumnText(i)
				if stmt.ColumnType(i) == sqlite3.INTEGER {
					row[stmt.ColumnName(i)] = stmt.ColumnInt64(i)
				}
			}
			rows = append(rows, row)
		}
		json.NewEncoder(w).Encode(map[string]any{"rows": rows})
	})
	cat, err := open(t, s.URL, func(o *Options) { o.Dialect = quarry.DialectSQLite }).Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Tables) != 3 {
		t.Fatalf("catalog = %+v", cat)
	}
	if testing.Verbose() {
		t.Logf("%+v", cat)
	}
	c := cat.Table("customers")
	if c == nil || len(c.Columns) != 2 || c.Columns[1].Nullable || c.Columns[0].Type != quarry.TypeInt || len(c.PrimaryKey) != 1 || c.PrimaryKey[0] != "id" {
		t.Errorf("customers = %+v", c)
	}
	if v := cat.Table("big"); v == nil || !v.View || len(v.Columns) != 3 || v.Columns[2].Type != quarry.TypeFloat {
		t.Errorf("big = %+v", v)
	}
}
