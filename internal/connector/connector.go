// Package connector defines how quarry reaches a user's database: the Conn
// interface every connector implements, the optional capabilities some
// offer, and the options of a query. Concrete connectors live in the
// subpackages (sqlite, and later postgres, mysql, duckdb, mcp, httpjson);
// only cmd chooses and wires them.
package connector

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Conn is an open, read-only connection to a user's database.
//
// Query runs exactly one statement that the guard has already allowed, in
// the connector's strongest read-only mode, and streams its rows. The
// connector applies opts.MaxRows while reading and opts.Timeout (or the
// context's deadline, whichever is sooner) to the statement.
type Conn interface {
	Dialect() quarry.Dialect
	Query(ctx context.Context, sql string, opts QueryOptions) (quarry.Rows, error)
	Catalog(ctx context.Context) (*quarry.Catalog, error)
	Close() error
}

// QueryOptions bound one query.
type QueryOptions struct {
	// MaxRows is the most rows to read; 0 means no cap. When the cap stops
	// reading, the stream ends and Truncated reports true.
	MaxRows int64
	// Timeout bounds the statement; 0 means only the context's deadline.
	Timeout time.Duration
	// MaxCost and MaxEstimatedRows are the cost governor's ceilings: a
	// connector that can EXPLAIN (without ANALYZE) does so in the same
	// read-only transaction before running the statement, and refuses it
	// with a KindTooCostly error when the planner's estimate is over either
	// one. 0 means no ceiling.
	MaxCost          float64
	MaxEstimatedRows int64
}

// Pinger is implemented by connectors that open lazily (a server quarry
// starts or reaches on first use): Ping makes the first contact now and
// returns a short description of what answered, such as the tool that
// runs SQL, so that doctor can say a connection works before a question
// needs it.
type Pinger interface {
	Ping(ctx context.Context) (string, error)
}

// Truncator is implemented by Rows that know whether a row cap cut them short.
type Truncator interface {
	Truncated() bool
}

// Prober is implemented by connectors that can check that their handle
// really refuses writes. Each ProbeResult is one attempted write that must
// fail.
type Prober interface {
	ProbeReadOnly(ctx context.Context) ([]ProbeResult, error)
}

// ProbeResult is the outcome of one probe write.
type ProbeResult struct {
	Name    string `json:"name"`    // what was tried, e.g. "CREATE TABLE"
	SQL     string `json:"sql"`     // the statement tried
	Refused bool   `json:"refused"` // true when the database refused it, as it must
	Detail  string `json:"detail"`  // the database's message, or what happened
}

// Identity describes a connection without secrets, for provenance.
type Identity struct {
	Name    string         `json:"name"`
	Dialect quarry.Dialect `json:"dialect"`
	Target  string         `json:"target"` // a path or a host/database, never credentials
}
