//go:build !duckdb

package runtime

import (
	"context"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// openDuckDB reports that this build has no DuckDB connector: it needs cgo
// and is compiled in only with the duckdb build tag.
func openDuckDB(_ context.Context, cc *config.Connection) (connector.Conn, error) {
	return nil, quarry.Errorf(quarry.KindUnsupported, "connection %q: this quarry was built without DuckDB; rebuild it with `go build -tags duckdb ./cmd/quarry` (needs cgo and a C compiler)", cc.Name)
}
