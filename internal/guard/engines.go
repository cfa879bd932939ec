package guard

import "github.com/quarrydata/quarry/internal/quarry"

// engineFor returns the engine check for dialects other than SQLite, or nil
// where this build has none (the lexical guard then decides alone).
func engineFor(d quarry.Dialect) Engine {
	switch d {
	case quarry.DialectPostgres:
		return postgresEngine()
	case quarry.DialectMySQL:
		return mysqlEngine()
	}
	return nil
}
