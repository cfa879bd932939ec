// Package registry lists the SQL dialects quarry speaks (dialect.Dialect)
// and finds one by name. A new dialect is one line in Dialects.
package registry

import (
	"strings"

	"github.com/quarrydata/quarry/internal/dialect"
	"github.com/quarrydata/quarry/internal/dialect/duckdb"
	"github.com/quarrydata/quarry/internal/dialect/mysql"
	"github.com/quarrydata/quarry/internal/dialect/postgres"
	"github.com/quarrydata/quarry/internal/dialect/sqlite"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Dialects returns every dialect, in the order messages list them.
func Dialects() []dialect.Dialect {
	return []dialect.Dialect{
		sqlite.Dialect{},
		postgres.Dialect{},
		mysql.Dialect{},
		duckdb.Dialect{},
	}
}

// For returns the dialect named d. The generic dialect (a service that did
// not say) and "" read like SQLite, which is also the demo's.
func For(d quarry.Dialect) (dialect.Dialect, error) {
	if d == quarry.DialectGeneric || d == "" {
		d = quarry.DialectSQLite
	}
	var names []string
	for _, x := range Dialects() {
		if x.Name() == d {
			return x, nil
		}
		names = append(names, string(x.Name()))
	}
	return nil, quarry.Errorf(quarry.KindUnsupported, "quarry does not know the %q dialect; use %s", d, strings.Join(names, ", "))
}

// Of is For for a dialect a connector reported, which is always one of
// Dialects; anything else reads as SQLite's, as the generic dialect does.
func Of(d quarry.Dialect) dialect.Dialect {
	x, err := For(d)
	if err != nil {
		return sqlite.Dialect{}
	}
	return x
}
