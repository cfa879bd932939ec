package sqlite

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Options configure a SQLite connection.
type Options struct {
	// ExtraFunctions are function names added to the guard's SQLite
	// allow-list (sqlguard), for functions a project knows to be safe.
	// Functions the guard never allows stay refused.
	ExtraFunctions []string
	// Name is the connection's name in quarry.yaml, used in Identity.
	Name string
	// Policy lists the columns no statement may read (the project's
	// restricted columns); SQLite's authorizer refuses every read of one.
	// nil restricts nothing.
	Policy *policy.Policy
	// PolicyLater opens the file before its column policy is known, so
	// that SQLite reads the schema while the policy loads (on ten
	// thousand tables each takes a tenth of a second): Open's own
	// statements run, and every other statement is refused until
	// SetPolicy gives the policy. Policy is then ignored.
	PolicyLater bool
	// CopyOfSchema says the file is an empty copy of another database's
	// schema, on which Check decides for statements run elsewhere (a
	// SQLite database behind an MCP server). A statement that does not
	// prepare on it is then refused: the real database may hold what the
	// copy lacks (an index, SQLite's statistics tables), and a statement
	// that reads it would run unchecked.
	CopyOfSchema bool
}

// Limits the connector sets on every connection.
const (
	maxValueLength = 64 << 20 // longest string or blob a statement may build
	maxSQLLength   = 1 << 20  // longest statement text
)

// Conn is a read-only connection to one SQLite database file. It implements
// connector.Conn and connector.Prober. It serves one statement at a time.
type Conn struct {
	path string
	name string
	db   *sqlite3.Conn
	auth *authorizer
	copy bool // Options.CopyOfSchema

	// The b-trees of the tables with restricted columns, as of the schema
	// version they were read at (program.go).
	trees        map[int64]*btree
	treesVersion int64

	checkMu sync.Mutex // serialises Check

	mu     sync.Mutex
	busy   bool // a query, catalog or probe is using db
	closed bool
}

var (
	_ connector.Conn   = (*Conn)(nil)
	_ connector.Prober = (*Conn)(nil)
)

// Open opens the SQLite database at path read-only. It never creates a file:
// a missing path, a directory or a file that is not a SQLite database is a
// KindConnection error that says what to do.
func Open(ctx context.Context, path string, opts Options) (*Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err, 0)
	}
	abs, err := connector.CheckFile(path, sqliteFile())
	if err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: "mode=ro"}
	db, err := sqlite3.OpenFlags(u.String(), sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		return nil, openError(path, err)
	}
	c := &Conn{path: abs, name: opts.Name, db: db, auth: newAuthorizer(opts.ExtraFunctions, opts.Policy), copy: opts.CopyOfSchema}
	if opts.PolicyLater {
		c.auth.policy, c.auth.pending = nil, true
	}
	if err := c.harden(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return c, nil
}

// SetPolicy gives a connection opened with PolicyLater its column policy;
// statements run from then on, under it. It must be called before the
// connection is shared, and at most once.
func (c *Conn) SetPolicy(p *policy.Policy) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.auth.policy, c.auth.pending = p, false
}

// sqliteFile is the SQLite file format, for connector.CheckFile.
func sqliteFile() connector.DatabaseFile {
	return connector.DatabaseFile{
		Name:     "SQLite",
		HeadSize: 16,
		Magic:    func(head []byte) bool { return bytes.Equal(head, []byte("SQLite format 3\x00")) },
		NotIt:    "check the path (an encrypted or corrupted file cannot be read)",
	}
}

func openError(path string, err error) error {
	if errors.Is(err, sqlite3.NOTADB) {
		return quarry.Wrap(quarry.KindConnection, err, "%s is not a SQLite database; check the path", path)
	}
	return quarry.Wrap(quarry.KindConnection, err, "cannot open SQLite database %s; check the path and that the file is readable", path)
}

// harden stacks the read-only layers on a freshly opened handle.
func (c *Conn) harden(ctx context.Context) error {
	db := c.db
	db.SetInterrupt(ctx)
	defer db.SetInterrupt(context.Background())
	fail := func(err error) error {
		return quarry.Wrap(quarry.KindConnection, err, "cannot secure the read-only SQLite connection to %s", c.path)
	}
	if _, err := db.Config(sqlite3.DBCONFIG_DEFENSIVE, true); err != nil {
		return fail(err)
	}
	if _, err := db.Config(sqlite3.DBCONFIG_TRUSTED_SCHEMA, false); err != nil {
		return fail(err)
	}
	if err := db.Exec("PRAGMA query_only=1"); err != nil {
		return fail(err)
	}
	db.Limit(sqlite3.LIMIT_ATTACHED, 0)
	db.Limit(sqlite3.LIMIT_LENGTH, maxValueLength)
	db.Limit(sqlite3.LIMIT_SQL_LENGTH, maxSQLLength)
	if err := db.SetAuthorizer(c.auth.authorize); err != nil {
		return fail(err)
	}
	// Read the schema now, so that a file SQLite cannot read fails at Open.
	c.auth.internal = true
	defer func() { c.auth.internal = false }()
	stmt, _, err := db.Prepare("SELECT count(*) FROM sqlite_schema")
	if err != nil {
		return openError(c.path, err)
	}
	defer stmt.Close()
	stmt.Step()
	if err := stmt.Err(); err != nil {
		return openError(c.path, err)
	}
	// The tables SQLite keeps for virtual tables: read once, with the
	// schema (a virtual table made later is found by the next Open).
	// A virtual table has no b-tree of its own (rootpage 0), which
	// rules out every other table without reading its CREATE statement.
	vt, _, err := db.Prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND rootpage = 0 AND sql LIKE 'CREATE VIRTUAL TABLE%'")
	if err != nil {
		return openError(c.path, err)
	}
	defer vt.Close()
	c.auth.shadows = map[string]bool{}
	for vt.Step() {
		tables, prefix := VirtualShadows(vt.ColumnText(0), vt.ColumnText(1))
		for _, t := range tables {
			c.auth.shadows[strings.ToLower(t)] = true
		}
		if prefix {
			c.auth.prefixes = append(c.auth.prefixes, strings.ToLower(vt.ColumnText(0))+"_")
		}
	}
	if err := vt.Err(); err != nil {
		return openError(c.path, err)
	}
	// ReadOnly's second result is true when the schema is unknown.
	if ro, unknown := db.ReadOnly("main"); unknown || !ro {
		return quarry.Errorf(quarry.KindConnection, "SQLite did not open %s read-only; quarry refuses to use it", c.path)
	}
	return nil
}

// Dialect returns quarry.DialectSQLite.
func (c *Conn) Dialect() quarry.Dialect { return quarry.DialectSQLite }

// Identity describes the connection for provenance: its name and file path.
func (c *Conn) Identity() connector.Identity {
	return connector.Identity{Name: c.name, Dialect: quarry.DialectSQLite, Target: c.path}
}

// Path returns the absolute path of the database file.
func (c *Conn) Path() string { return c.path }

// Close closes the connection. Open Rows must be closed first; Close
// returns a KindConflict error while they are open.
func (c *Conn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	if c.busy {
		return quarry.Errorf(quarry.KindConflict, "a query is still reading from %s; close its rows before closing the connection", c.path)
	}
	c.closed = true
	if err := c.db.Close(); err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot close SQLite database %s", c.path)
	}
	return nil
}

// acquire marks the connection busy for one statement or one catalog run.
func (c *Conn) acquire() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed:
		return quarry.Errorf(quarry.KindConnection, "the connection to %s is closed; open it again", c.path)
	case c.busy:
		return quarry.Errorf(quarry.KindConflict, "another query is still reading from %s; close its rows first (a connection runs one query at a time)", c.path)
	}
	c.busy = true
	return nil
}

func (c *Conn) release() {
	c.mu.Lock()
	c.busy = false
	c.mu.Unlock()
}

// ctxError maps a finished context to KindTimeout or KindCanceled.
func ctxError(ctx context.Context, cause error, timeout time.Duration) error {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		if timeout > 0 {
			return quarry.Wrap(quarry.KindTimeout, cause, "the query ran longer than its %s timeout; narrow it (filters, LIMIT) or raise the timeout", timeout.String())
		}
		return quarry.Wrap(quarry.KindTimeout, cause, "the query ran out of time; narrow it (filters, LIMIT) or raise the timeout")
	}
	return quarry.Wrap(quarry.KindCanceled, cause, "the query was canceled")
}

// sqliteMessage is SQLite's own message, without the library's prefixes.
func sqliteMessage(err error) string {
	s := err.Error()
	var e *sqlite3.Error
	if errors.As(err, &e) {
		s = strings.TrimPrefix(s, e.ExtendedCode().Error()+": ")
		s = strings.TrimPrefix(s, e.Code().Error()+": ")
	}
	return strings.TrimPrefix(s, "sqlite3: ")
}
