package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Options configure a PostgreSQL connection.
type Options struct {
	// Name is the connection's name in quarry.yaml, used in Identity.
	Name string
	// WorkMem is the work_mem each query's transaction sets, in
	// PostgreSQL's memory units ("64MB", "512kB", "1GB"). Default "64MB".
	WorkMem string
	// PoolSize is the most connections held open at once. Default 4.
	PoolSize int
}

// Defaults and bounds of the executor.
const (
	defaultWorkMem = "64MB"
	// tempFileLimit is the temp_file_limit each query's transaction sets
	// where the role may set it (a superuser, or PostgreSQL 15+ with
	// GRANT SET ON PARAMETER temp_file_limit): the most disk one query's
	// sorts and hashes may spill to.
	tempFileLimit   = "1GB"
	defaultPoolSize = 4
	dialTimeout     = 10 * time.Second
	// cleanupTimeout bounds ROLLBACK and DISCARD ALL after a query.
	cleanupTimeout = 5 * time.Second
	// idleConnTime is how long an unused pooled connection stays open.
	idleConnTime = 5 * time.Minute
	// cancelGrace is how long a cancel request may take, and how long
	// after it the socket deadline falls should the server not answer.
	// Long enough for a loaded server to fork the process that handles
	// the request: a cancel that never lands leaves the query running.
	cancelGrace = 10 * time.Second
	// idleInTx bounds how long the server keeps a transaction quarry
	// stopped using (a crashed reader); statement_timeout adds to it.
	idleInTx = time.Minute
)

// Conn is a pool of read-only connections to one PostgreSQL database. It
// implements connector.Conn and connector.Prober, and is safe for
// concurrent use: each query holds one pooled connection until its rows
// are closed.
type Conn struct {
	name     string
	target   string // host:port/database, never credentials
	user     string
	password string // only to scrub it from messages
	workMem  string
	// tempFileLimit is what each transaction sets temp_file_limit to;
	// "" when the role may not set it.
	tempFileLimit string
	formats       pgx.QueryResultFormatsByOID // read-only after Open
	pool          *pool

	database string   // current_database(), read at Open
	schemas  []string // the user schemas visible at Open
}

var (
	_ connector.Conn   = (*Conn)(nil)
	_ connector.Prober = (*Conn)(nil)
)

// Open parses a postgres:// URL (or key=value DSN), connects once to check
// the server, database and credentials, and returns the pool. Every
// failure is a one-line KindConnection error that says what to do and
// never contains the password. The dial times out after 10 seconds unless
// the URL sets connect_timeout.
func Open(ctx context.Context, url string, opts Options) (*Conn, error) {
	if strings.TrimSpace(url) == "" {
		return nil, quarry.Errorf(quarry.KindConnection, "no PostgreSQL URL given; set the connection's url in quarry.yaml (postgres://user@host:5432/database)")
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, quarry.Errorf(quarry.KindConnection, "the PostgreSQL URL %s is invalid; write it as postgres://user:password@host:5432/database?sslmode=...", quarry.RedactURL(url))
	}
	workMem := opts.WorkMem
	if workMem == "" {
		workMem = defaultWorkMem
	}
	if !regexp.MustCompile(`^[1-9][0-9]{0,9}(kB|MB|GB|TB)?$`).MatchString(workMem) {
		return nil, quarry.Errorf(quarry.KindConfig, "work_mem %q is invalid; use a size such as 64MB, 512kB or 1GB", workMem)
	}
	size := opts.PoolSize
	if size <= 0 {
		size = defaultPoolSize
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = dialTimeout
	}
	// The extended protocol, with an unnamed statement per query: a
	// string holding two statements is refused by the server, and no
	// prepared statements pile up on the session.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeDescribeExec
	cfg.StatementCacheCapacity = 0
	cfg.DescriptionCacheCapacity = 0
	// A canceled context sends the server a cancel request, so that the
	// query stops there too, not only in quarry.
	cfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, DeadlineDelay: cancelGrace}
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = "quarry"
	}
	c := &Conn{
		name:     opts.Name,
		target:   fmt.Sprintf("%s/%s", net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), cfg.Database),
		user:     cfg.User,
		password: cfg.Password,
		workMem:  workMem,
		formats:  resultFormats(),
	}
	if c.pool, err = newPool(cfg, size); err != nil {
		return nil, quarry.Wrap(quarry.KindConnection, err, "cannot set up connections to PostgreSQL at %s", c.target)
	}
	if err := c.check(ctx); err != nil {
		c.pool.close()
		return nil, err
	}
	return c, nil
}

// check connects once and reads what the role-recipe and errors need.
func (c *Conn) check(ctx context.Context) error {
	pc, err := c.pool.acquire(ctx)
	if err != nil {
		return c.connectError(ctx, err)
	}
	ok := false
	defer func() { c.pool.release(pc, ok) }()
	err = pc.QueryRow(ctx, `SELECT current_database(),
		coalesce((SELECT array_agg(nspname::text ORDER BY nspname) FROM pg_namespace
		  WHERE nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
		    AND nspname NOT LIKE 'pg\_temp\_%' AND nspname NOT LIKE 'pg\_toast\_temp\_%'), '{}')`).Scan(&c.database, &c.schemas)
	if err != nil {
		return c.queryError(ctx, err, 0)
	}
	// temp_file_limit is a superuser setting; PostgreSQL 15 lets a role
	// be granted SET on it. Set it only where that cannot fail.
	canSet := pc.Conn().PgConn().ParameterStatus("is_superuser") == "on"
	if v, _ := strconv.Atoi(strings.SplitN(pc.Conn().PgConn().ParameterStatus("server_version"), ".", 2)[0]); !canSet && v >= 15 {
		if err := pc.QueryRow(ctx, "SELECT has_parameter_privilege('temp_file_limit', 'SET')").Scan(&canSet); err != nil {
			return c.queryError(ctx, err, 0)
		}
	}
	if canSet {
		c.tempFileLimit = tempFileLimit
	}
	ok = true
	return nil
}

// Dialect returns quarry.DialectPostgres.
func (c *Conn) Dialect() quarry.Dialect { return quarry.DialectPostgres }

// Identity describes the connection for provenance: its name and
// host:port/database, never credentials.
func (c *Conn) Identity() connector.Identity {
	return connector.Identity{Name: c.name, Dialect: quarry.DialectPostgres, Target: c.target}
}

// Close closes the idle connections and refuses new queries; connections
// still serving rows close when their rows do.
func (c *Conn) Close() error {
	c.pool.close()
	return nil
}

// pool is a pgxpool of at most size connections (idle
// connections are health-checked and closed after a while); a connection
// that failed in any way is taken out of it and closed instead of being
// returned.
type pool struct {
	p      *pgxpool.Pool
	closed atomic.Bool
}

var errClosed = errors.New("connection pool closed")

func newPool(cfg *pgx.ConnConfig, size int) (*pool, error) {
	pc, err := pgxpool.ParseConfig("")
	if err != nil {
		return nil, err
	}
	pc.ConnConfig = cfg
	pc.MaxConns = int32(size)
	pc.MinConns = 0
	pc.MaxConnIdleTime = idleConnTime
	p, err := pgxpool.NewWithConfig(context.Background(), pc)
	if err != nil {
		return nil, err
	}
	return &pool{p: p}, nil
}

// acquire returns an idle connection or dials a new one, waiting for a
// free slot until ctx ends.
func (p *pool) acquire(ctx context.Context) (*pgxpool.Conn, error) {
	if p.closed.Load() {
		return nil, errClosed
	}
	pc, err := p.p.Acquire(ctx)
	if err != nil && p.closed.Load() {
		return nil, errClosed
	}
	return pc, err
}

// release returns pc to the pool when ok, and closes it otherwise.
func (p *pool) release(pc *pgxpool.Conn, ok bool) {
	if ok && !pc.Conn().IsClosed() {
		pc.Release()
		return
	}
	conn := pc.Hijack()
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	conn.Close(ctx)
	cancel()
}

// close refuses new acquires and closes the idle connections; one still
// serving rows closes when its rows do. pgxpool's Close waits for those,
// so it runs aside, waited for at most cleanupTimeout.
func (p *pool) close() {
	p.closed.Store(true)
	done := make(chan struct{})
	go func() {
		p.p.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(cleanupTimeout):
	}
}
