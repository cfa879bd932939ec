//go:build duckdb

package duckdb

import (
	"bytes"
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net/url"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Options configure a DuckDB connection.
type Options struct {
	// Name is the connection's name in quarry.yaml, used in Identity.
	Name string
	// ExtraFunctions are function names a project adds to the guard's
	// DuckDB allow-list (sqlguard). DuckDB has no authorizer hook, so the
	// connector itself does not consult them: the guard does, and the
	// locked configuration bounds what any function can reach.
	ExtraFunctions []string
	// MemoryLimit is DuckDB's memory_limit ("512MB", "2GB"). Default 2GB.
	// With no temporary directory, a query that needs more fails instead
	// of spilling to disk.
	MemoryLimit string
	// Threads is DuckDB's thread count. Default: the CPUs, at most 4.
	Threads int
}

// Defaults of the executor.
const (
	defaultMemoryLimit = "2GB"
	maxDefaultThreads  = 4
)

var memoryLimitRE = regexp.MustCompile(`^(?i)[1-9][0-9]{0,9}(\.[0-9]+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$`)

// Conn is a read-only connection to one DuckDB database file. It
// implements connector.Conn and connector.Prober. It serves one statement
// at a time.
type Conn struct {
	path string
	name string
	cn   *duckdb.Connector
	conn *duckdb.Conn

	mu     sync.Mutex
	busy   bool // a query, catalog or probe is using conn
	closed bool
}

var (
	_ connector.Conn   = (*Conn)(nil)
	_ connector.Prober = (*Conn)(nil)
)

// Open opens the DuckDB database at path read-only, with the executor's
// settings applied and locked (see the package comment). It never creates
// a file: a missing path, a directory or a file that is not a DuckDB
// database is a KindConnection error that says what to do, and so is a
// file another process holds open for writing.
func Open(ctx context.Context, path string, opts Options) (*Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err, 0)
	}
	abs, err := connector.CheckFile(path, duckdbFile())
	if err != nil {
		return nil, err
	}
	dsn, err := dataSource(abs, opts)
	if err != nil {
		return nil, err
	}
	cn, err := duckdb.NewConnector(dsn, nil)
	if err != nil {
		return nil, openError(path, err)
	}
	dc, err := cn.Connect(ctx)
	if err != nil {
		cn.Close()
		return nil, openError(path, err)
	}
	conn, ok := dc.(*duckdb.Conn)
	if !ok {
		dc.Close()
		cn.Close()
		return nil, quarry.Errorf(quarry.KindInternal, "the DuckDB driver returned an unexpected connection type %T", dc)
	}
	c := &Conn{path: abs, name: opts.Name, cn: cn, conn: conn}
	// The driver applies the DSN's settings in no fixed order, and with
	// external access off DuckDB refuses to change temp_directory; so
	// external access is closed, and then the configuration locked, by
	// statements of their own, before the handle serves anything.
	// A second Conn on the same file shares the first one's database
	// instance (the driver caches instances by path), whose configuration
	// is already locked; verify then checks what it holds.
	for _, s := range []string{"SET enable_external_access = false", "SET lock_configuration = true"} {
		if err := c.run(ctx, s); err != nil && !strings.Contains(err.Error(), "configuration has been locked") {
			c.shut()
			return nil, openError(path, err)
		}
	}
	if err := c.verify(ctx); err != nil {
		c.shut()
		return nil, err
	}
	return c, nil
}

// dataSource builds the DSN: the path, then the settings DuckDB applies
// before the database starts (enable_external_access and
// lock_configuration follow in Open). The path may hold neither '?' nor '#',
// which the driver would read as the start of the settings.
func dataSource(abs string, opts Options) (string, error) {
	if strings.ContainsAny(abs, "?#%") {
		return "", quarry.Errorf(quarry.KindConnection, "the DuckDB path %s contains '?', '#' or '%%', which the driver cannot open safely; rename the file or link to it from a plain path", abs)
	}
	mem := opts.MemoryLimit
	if mem == "" {
		mem = defaultMemoryLimit
	}
	if !memoryLimitRE.MatchString(mem) {
		return "", quarry.Errorf(quarry.KindConfig, "DuckDB memory limit %q is invalid; use a size such as 512MB or 2GB", mem)
	}
	threads := opts.Threads
	if threads <= 0 {
		threads = min(runtime.NumCPU(), maxDefaultThreads)
	}
	v := url.Values{}
	v.Set("access_mode", "READ_ONLY")
	v.Set("autoinstall_known_extensions", "false")
	v.Set("autoload_known_extensions", "false")
	v.Set("allow_community_extensions", "false")
	v.Set("allow_unsigned_extensions", "false")
	v.Set("allow_persistent_secrets", "false")
	v.Set("memory_limit", mem)
	v.Set("threads", strconv.Itoa(threads))
	// No temporary directory: nothing spills next to the file.
	v.Set("temp_directory", "")
	return abs + "?" + v.Encode(), nil
}

// duckdbFile is the DuckDB file format, for connector.CheckFile: a
// checksum (8 bytes), then "DUCK".
func duckdbFile() connector.DatabaseFile {
	return connector.DatabaseFile{
		Name:     "DuckDB",
		HeadSize: 12,
		Magic:    func(head []byte) bool { return len(head) == 12 && bytes.Equal(head[8:12], []byte("DUCK")) },
		NotIt:    "check the path (for a SQLite file use driver: sqlite)",
	}
}

func openError(path string, err error) error {
	msg := duckMessage(err)
	switch {
	case strings.Contains(msg, "Could not set lock") || strings.Contains(msg, "Conflicting lock"):
		return quarry.Wrap(quarry.KindConnection, err, "DuckDB database %s is open for writing in another process; close that process (DuckDB lets readers in only when no process writes)", path)
	case strings.Contains(msg, "different configuration"):
		return quarry.Wrap(quarry.KindConnection, err, "DuckDB database %s is already open in this process with other settings; close that connection first", path)
	}
	return quarry.Wrap(quarry.KindConnection, err, "cannot open DuckDB database %s; check the path and that the file is readable", path)
}

// verify reads the settings back: a handle on which the read-only mode,
// the closed file access or the lock did not take is refused.
func (c *Conn) verify(ctx context.Context) error {
	var got []string
	err := c.internal(ctx, `SELECT current_setting('access_mode'), current_setting('enable_external_access')::VARCHAR,
		current_setting('lock_configuration')::VARCHAR, current_setting('autoload_known_extensions')::VARCHAR,
		current_setting('autoinstall_known_extensions')::VARCHAR, current_setting('temp_directory')`, func(row []driver.Value) error {
		for _, v := range row {
			s, _ := v.(string)
			got = append(got, strings.ToLower(s))
		}
		return nil
	})
	if err != nil {
		return openError(c.path, err)
	}
	want := []string{"read_only", "false", "true", "false", "false", ""}
	names := []string{"access_mode", "enable_external_access", "lock_configuration", "autoload_known_extensions", "autoinstall_known_extensions", "temp_directory"}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			return quarry.Errorf(quarry.KindConnection, "DuckDB did not apply %s=%q to %s; quarry refuses to use the handle (is the file a DuckDB database of a supported version?)", names[i], want[i], c.path)
		}
	}
	return nil
}

// Dialect returns quarry.DialectDuckDB.
func (c *Conn) Dialect() quarry.Dialect { return quarry.DialectDuckDB }

// Identity describes the connection for provenance: its name and file path.
func (c *Conn) Identity() connector.Identity {
	return connector.Identity{Name: c.name, Dialect: quarry.DialectDuckDB, Target: c.path}
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
	return c.shut()
}

func (c *Conn) shut() error {
	err := c.conn.Close()
	if cerr := c.cn.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot close DuckDB database %s", c.path)
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

// internal runs one of the connector's own statements and calls fn for
// each row.
func (c *Conn) internal(ctx context.Context, sql string, fn func(row []driver.Value) error) error {
	st, err := c.prepare(sql)
	if err != nil {
		return err
	}
	defer st.Close()
	dr, err := st.QueryContext(ctx, nil)
	if err != nil {
		return err
	}
	defer dr.Close()
	row := make([]driver.Value, len(dr.Columns()))
	for {
		if err := dr.Next(row); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if err := fn(row); err != nil {
			return err
		}
	}
}

// prepare prepares exactly one statement. The driver's Prepare refuses a
// string holding more than one statement without running any of them
// (its context-taking variant would run all but the last).
func (c *Conn) prepare(sql string) (*duckdb.Stmt, error) {
	ds, err := c.conn.Prepare(sql)
	if err != nil {
		return nil, err
	}
	st, ok := ds.(*duckdb.Stmt)
	if !ok {
		ds.Close()
		return nil, quarry.Errorf(quarry.KindInternal, "the DuckDB driver returned an unexpected statement type %T", ds)
	}
	return st, nil
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

// duckMessage is DuckDB's own message on one line, without the driver's
// prefixes.
func duckMessage(err error) string {
	var de *duckdb.Error
	s := err.Error()
	if errors.As(err, &de) {
		s = de.Msg
	}
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}
