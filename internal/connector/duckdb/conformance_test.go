//go:build duckdb

package duckdb

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestConformance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conformance.duckdb")
	connectortest.Run(t, func(t *testing.T) connector.Conn {
		c, err := Open(context.Background(), path, Options{Name: "conformance"})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}, connectortest.Fixture{
		Dialect: quarry.DialectDuckDB,
		Exec: func(t *testing.T, stmts []string) {
			writeFixture(t, path, stmts...)
		},
	})
}
