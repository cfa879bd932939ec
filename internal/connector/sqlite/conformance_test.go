package sqlite_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestConformance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conformance.db")
	connectortest.Run(t, func(t *testing.T) connector.Conn {
		c, err := sqlite.Open(context.Background(), path, sqlite.Options{Name: "conformance"})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}, connectortest.Fixture{
		Dialect: quarry.DialectSQLite,
		Exec: func(t *testing.T, stmts []string) {
			db, err := sqlite3.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.Exec(strings.Join(stmts, ";\n")); err != nil {
				t.Fatalf("setup: %v", err)
			}
		},
	})
}
