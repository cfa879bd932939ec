// Package connector defines how quarry reaches a user's database: the Conn
// interface every connector implements, the optional capabilities some
// offer, and the options of a query. Concrete connectors live in the
// subpackages (sqlite, and later postgres, mysql, duckdb, mcp, httpjson);
// only cmd chooses and wires them.
package connector

import (
	"context"
	"fmt"
	"strings"
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
	// MaxValueBytes bounds one value read (ValueSize: a text, bytes or
	// JSON value's length); a larger one fails the query with a
	// KindTooCostly error that names the column. 0 means no bound.
	MaxValueBytes int64
	// MaxResultBytes bounds the sum of ValueSize over every value read;
	// past it the query fails with a KindTooCostly error. For callers
	// that hold the whole result in memory; a streamed export leaves it
	// 0 (no bound). Both are checked as rows are read (SizeLimit).
	MaxResultBytes int64
	// Role, when set, is the database role the statement runs as (a
	// group's role, config's group_roles, which only postgres connections
	// take): PostgreSQL's connector sets it for the statement's
	// transaction alone (SET LOCAL ROLE), so that the database's grants
	// and row-level security of that role decide what it reads.
	Role string
}

// Pinger is implemented by connectors that open lazily (a server quarry
// starts or reaches on first use): Ping makes the first contact now and
// returns a short description of what answered, such as the tool that
// runs SQL, so that doctor can say a connection works before a question
// needs it.
type Pinger interface {
	Ping(ctx context.Context) (string, error)
}

// Estimator is implemented by connectors whose database estimates a
// statement without running it (EXPLAIN, never ANALYZE): approval mode
// shows the estimate to the person who decides whether it runs.
type Estimator interface {
	Estimate(ctx context.Context, sql string) (Estimate, error)
}

// Estimate is a database planner's estimate of a statement: its total
// cost, in the planner's own units, and the most rows any step of the
// plan handles.
type Estimate struct {
	Cost float64
	Rows float64
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

// RoleChecker is implemented by connectors whose database has accounts
// with privileges (PostgreSQL, MySQL and MariaDB). Privileges reads, on
// the connection's own session and in one or two catalog queries, what
// the role quarry is connected as could do beyond reading: the second
// control against writes that does not depend on the SQL guard. cmd asks
// every connection that implements it once, when the connection opens.
type RoleChecker interface {
	Privileges(ctx context.Context) (RoleReport, error)
}

// RoleReport is what the connected role may do beyond reading.
type RoleReport struct {
	// Role is the account quarry is connected as, e.g. "quarry_reader" or
	// "'quarry'@'127.0.0.1'".
	Role string `json:"role"`
	// Problems are the privileges that make the role unfit for quarry,
	// each a short phrase such as "superuser", "INSERT, UPDATE on
	// public.orders" or "member of pg_read_server_files". Empty means the
	// role can only read.
	Problems []string `json:"problems,omitempty"`
	// Notes are privileges that are allowed but worth knowing, such as
	// PostgreSQL's TEMPORARY on the database.
	Notes []string `json:"notes,omitempty"`
	// FixSQL creates a read-only role for this database (and revokes what
	// the role's problems call for, where that can be said), for a person
	// to run as an administrator.
	FixSQL string `json:"fix_sql,omitempty"`
}

// Privileged reports whether the role can do more than read.
func (r RoleReport) Privileged() bool { return len(r.Problems) > 0 }

// Summary is the problems on one line: the first few, then how many more.
func (r RoleReport) Summary() string {
	const show = 4
	if len(r.Problems) <= show {
		return strings.Join(r.Problems, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(r.Problems[:show], "; "), len(r.Problems)-show)
}

// The binary result tool: quarry's own connector servers (`quarry
// connector sqlite|postgres|mysql`) offer, beside run_query, a tool that
// answers the same statement with the result in quarry's binary encoding
// (quarry.EncodeTable), compressed with DEFLATE (RFC 1951), instead of
// JSON, as one embedded resource of type ResultMIME whose _meta holds
// "truncated" and "row_count". quarry's MCP
// client uses it when a server lists it: a large result is decoded in a
// fraction of the time JSON takes. Other clients keep using run_query.
const (
	BinaryQueryTool = "run_query_binary"
	ResultMIME      = "application/vnd.quarry.result"
)
