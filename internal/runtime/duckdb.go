//go:build duckdb

package runtime

import (
	"context"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/duckdb"
)

// openDuckDB opens a DuckDB database file read-only. It exists only in
// builds with the duckdb tag: DuckDB needs cgo and a large static library.
func openDuckDB(ctx context.Context, cc *config.Connection) (connector.Conn, error) {
	return duckdb.Open(ctx, cc.Path, duckdb.Options{Name: cc.Name})
}
