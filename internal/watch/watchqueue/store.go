package watchqueue

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch"
)

// memoryTable holds one row per monitor: its watch.MonitorState as JSON.
const memoryTable = "quarry_monitor_memory"

// defaultSchema is the PostgreSQL schema of quarry's state when the URL's
// search_path names none (the state store's own default).
const defaultSchema = "quarry"

// busyTimeout is how long a SQLite statement waits for another writer.
const busyTimeout = 10 * time.Second

// Store is the queue's and the monitors' memory's home: quarry's state
// database. It is safe for concurrent use.
type Store struct {
	b     backend
	where string // the database, for messages: a path or a URL without its password
}

// backend is what differs between SQLite and PostgreSQL.
type backend interface {
	load(ctx context.Context, monitor string) (map[string]string, error)
	save(ctx context.Context, rows map[string]string, onlyIfEmpty bool) (bool, error)
	worker(s *Store, body Body, o Options) (*Worker, error)
	close()
}

// OpenSQLite opens the SQLite state database at path (creating it when
// missing), and creates the queue's tables and the monitors' memory in
// it when they are missing.
func OpenSQLite(ctx context.Context, path string) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot resolve the state database path %s", path)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot create the state folder %s; check its permissions", filepath.Dir(abs))
	}
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot open the state database %s; check its permissions", abs)
	}
	f.Close()
	// Every transaction takes the write lock when it begins (immediate),
	// so that two processes writing the file wait for each other
	// (busy_timeout) instead of failing when a reader turns writer.
	// modeof: the write-ahead log gets the database file's mode.
	esc := (&url.URL{Path: abs}).EscapedPath()
	uri := "file:" + esc + "?_txlock=immediate&modeof=" + url.QueryEscape(abs)
	db, err := driver.Open(uri, func(c *sqlite3.Conn) error {
		return c.Exec(fmt.Sprintf(`PRAGMA busy_timeout = %d; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;`, busyTimeout.Milliseconds()))
	})
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot open the state database %s", abs)
	}
	// River's SQLite driver works best on one connection: SQLite runs one
	// writer at a time anyway.
	db.SetMaxOpenConns(1)
	b := &sqliteBackend{db: db, path: abs}
	if err := b.migrate(ctx); err != nil {
		db.Close()
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot create the job queue's tables in the state database %s: %v", abs, err)
	}
	return &Store{b: b, where: abs}, nil
}

// OpenPostgres connects to the PostgreSQL state at rawURL, in the schema
// named first in its search_path (the state's own, "quarry" when none),
// and creates the queue's tables and the monitors' memory there when they
// are missing, under an advisory lock so that workers starting together
// create them once.
func OpenPostgres(ctx context.Context, rawURL string) (*Store, error) {
	where := quarry.RedactURL(rawURL)
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, quarry.Errorf(quarry.KindConfig, "state %s is not a PostgreSQL URL quarry can read: write it as postgres://user@host:5432/db", where)
	}
	schema := defaultSchema
	if sp := cfg.ConnConfig.RuntimeParams["search_path"]; sp != "" {
		schema = strings.Trim(strings.TrimSpace(strings.Split(sp, ",")[0]), `"`)
	} else {
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{schema}.Sanitize()
	}
	if !riverSchemaName(schema) {
		return nil, quarry.Errorf(quarry.KindConfig, "state %s: the job queue needs the state's schema %q to be letters, digits and underscores, starting with a letter", where, schema)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "state %s cannot be opened", where)
	}
	b := &pgBackend{pool: pool, schema: schema, url: rawURL}
	if err := b.migrate(ctx); err != nil {
		pool.Close()
		return nil, quarry.Wrap(quarry.KindConnection, err, "cannot create the job queue's tables in the state %s (schema %s): %v", where, schema, pgReason(err))
	}
	return &Store{b: b, where: where}, nil
}

// riverSchemaName says whether River accepts name as its schema.
func riverSchemaName(name string) bool {
	if name == "" || len(name) > 46 {
		return false
	}
	for i, c := range name {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Close closes the database.
func (s *Store) Close() { s.b.close() }

// Memory is the memory of the monitor called monitor, or of every monitor
// when monitor is "": a watch.StateStore whose Save records only the
// monitors it is given, each in its own row, so that workers running
// different monitors never overwrite each other's.
func (s *Store) Memory(monitor string) watch.StateStore {
	return memory{s: s, monitor: monitor}
}

type memory struct {
	s       *Store
	monitor string
}

func (m memory) Load(ctx context.Context) (watch.State, error) {
	rows, err := m.s.b.load(ctx, m.monitor)
	if err != nil {
		return watch.State{}, quarry.Wrap(quarry.KindConnection, err, "cannot read the monitors' memory from %s", m.s.where)
	}
	st := watch.State{Monitors: map[string]watch.MonitorState{}}
	for name, js := range rows {
		var ms watch.MonitorState
		if err := json.Unmarshal([]byte(js), &ms); err != nil {
			return st, quarry.Wrap(quarry.KindInput, err, "the memory of monitor %s in %s is damaged; delete its row of %s (its next run then starts afresh)", name, m.s.where, memoryTable)
		}
		st.Monitors[name] = ms
	}
	return st, nil
}

func (m memory) Save(ctx context.Context, st watch.State) error {
	rows := map[string]string{}
	for name, ms := range st.Monitors {
		if m.monitor != "" && name != m.monitor {
			continue
		}
		b, err := json.Marshal(ms)
		if err != nil {
			return quarry.Wrap(quarry.KindInternal, err, "cannot encode the memory of monitor %s", name)
		}
		rows[name] = string(b)
	}
	if _, err := m.s.b.save(ctx, rows, false); err != nil {
		return quarry.Wrap(quarry.KindConnection, err, "cannot write the monitors' memory to %s", m.s.where)
	}
	return nil
}

// Import writes old (the memory an older quarry kept in a file) as the
// monitors' memory when the database holds none yet; it reports whether
// it did.
func (s *Store) Import(ctx context.Context, old watch.State) (bool, error) {
	rows := map[string]string{}
	for name, ms := range old.Monitors {
		b, err := json.Marshal(ms)
		if err != nil {
			return false, quarry.Wrap(quarry.KindInternal, err, "cannot encode the memory of monitor %s", name)
		}
		rows[name] = string(b)
	}
	if len(rows) == 0 {
		return false, nil
	}
	done, err := s.b.save(ctx, rows, true)
	if err != nil {
		return false, quarry.Wrap(quarry.KindConnection, err, "cannot import the monitors' memory into %s", s.where)
	}
	return done, nil
}

// discard is River's logger while migrating: it says nothing useful to a
// user.
func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

type sqliteBackend struct {
	db   *sql.DB
	path string
}

// migrate creates the tables under an exclusive lock of a file beside
// the database (River's migrations each run in a transaction of their
// own, so the database's own lock cannot cover them all), so that workers
// starting together migrate once.
func (b *sqliteBackend) migrate(ctx context.Context) error {
	lock, err := os.OpenFile(b.path+".queue-lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := b.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+memoryTable+` (monitor TEXT PRIMARY KEY, memory TEXT NOT NULL)`); err != nil {
		return err
	}
	m, err := rivermigrate.New(riversqlite.New(b.db), &rivermigrate.Config{Logger: discard()})
	if err != nil {
		return err
	}
	_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	return err
}

func (b *sqliteBackend) load(ctx context.Context, monitor string) (map[string]string, error) {
	q := `SELECT monitor, memory FROM ` + memoryTable
	var args []any
	if monitor != "" {
		q += ` WHERE monitor = ?`
		args = append(args, monitor)
	}
	rows, err := b.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, js string
		if err := rows.Scan(&name, &js); err != nil {
			return nil, err
		}
		out[name] = js
	}
	return out, rows.Err()
}

func (b *sqliteBackend) save(ctx context.Context, rows map[string]string, onlyIfEmpty bool) (bool, error) {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if onlyIfEmpty {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+memoryTable).Scan(&n); err != nil {
			return false, err
		}
		if n > 0 {
			return false, nil
		}
	}
	for name, js := range rows {
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+memoryTable+` (monitor, memory) VALUES (?, ?)
			ON CONFLICT (monitor) DO UPDATE SET memory = excluded.memory`, name, js); err != nil {
			return false, err
		}
	}
	return true, tx.Commit()
}

func (b *sqliteBackend) worker(s *Store, body Body, o Options) (*Worker, error) {
	return newWorker(riversqlite.New(b.db), "", s, body, o)
}

func (b *sqliteBackend) close() { b.db.Close() }

type pgBackend struct {
	pool   *pgxpool.Pool
	schema string
	url    string // as given (tests open it again)
}

func (b *pgBackend) table() string {
	return pgx.Identifier{b.schema, memoryTable}.Sanitize()
}

func (b *pgBackend) migrate(ctx context.Context) error {
	// River's migrations each run in a transaction of their own (one adds
	// an enum value that a later statement uses), so the lock is a
	// session's, held on one connection while they run on others.
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	h := fnv.New64a()
	h.Write([]byte("quarry job queue " + b.schema))
	key := int64(h.Sum64() >> 1)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, key)
	// A schema that exists is used as it is: PostgreSQL checks the right
	// to create one before IF NOT EXISTS, and the state's role may own its
	// schema without the right to create others (docs/deploy.md).
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, b.schema).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		if _, err := conn.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{b.schema}.Sanitize()); err != nil {
			return err
		}
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+b.table()+` (monitor text PRIMARY KEY, memory text NOT NULL)`); err != nil {
		return err
	}
	m, err := rivermigrate.New(riverpgxv5.New(b.pool), &rivermigrate.Config{Logger: discard(), Schema: b.schema})
	if err != nil {
		return err
	}
	_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	return err
}

func (b *pgBackend) load(ctx context.Context, monitor string) (map[string]string, error) {
	q := `SELECT monitor, memory FROM ` + b.table()
	var args []any
	if monitor != "" {
		q += ` WHERE monitor = $1`
		args = append(args, monitor)
	}
	rows, err := b.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, js string
		if err := rows.Scan(&name, &js); err != nil {
			return nil, err
		}
		out[name] = js
	}
	return out, rows.Err()
}

func (b *pgBackend) save(ctx context.Context, rows map[string]string, onlyIfEmpty bool) (bool, error) {
	tx, err := b.pool.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(ctx)
	if onlyIfEmpty {
		if _, err := tx.Exec(ctx, `LOCK TABLE `+b.table()+` IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return false, err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM `+b.table()).Scan(&n); err != nil {
			return false, err
		}
		if n > 0 {
			return false, nil
		}
	}
	for name, js := range rows {
		if _, err := tx.Exec(ctx, `INSERT INTO `+b.table()+` (monitor, memory) VALUES ($1, $2)
			ON CONFLICT (monitor) DO UPDATE SET memory = excluded.memory`, name, js); err != nil {
			return false, err
		}
	}
	return true, tx.Commit(ctx)
}

func (b *pgBackend) worker(s *Store, body Body, o Options) (*Worker, error) {
	return newWorker(riverpgxv5.New(b.pool), b.schema, s, body, o)
}

func (b *pgBackend) close() { b.pool.Close() }

// pgReason is what PostgreSQL said of err, or err's text: the cause an
// operator needs (a missing grant), without the connection's URL.
func pgReason(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Message
	}
	return err.Error()
}
