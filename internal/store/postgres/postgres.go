package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/quarrydata/quarry/internal/quarry"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DefaultSchema is where the state lives when the URL's search_path names
// none.
const DefaultSchema = "quarry"

// Options tune the pool.
type Options struct {
	MaxConns int32 // connections in the pool; 0: pgxpool's default
}

// Store is quarry's state in a PostgreSQL database. It is safe for
// concurrent use, by several goroutines and by several quarry processes
// (replicas) on one database.
type Store struct {
	pool   *pgxpool.Pool
	where  string // the URL without its password
	schema string
	group  group // run openings and new sessions, committed together
}

// Open connects to the database at url (postgres://…), creates the state
// schema when it is missing, and brings it up to date with goose, under an
// advisory lock so that replicas starting together migrate once.
func Open(ctx context.Context, url string, o Options) (*Store, error) {
	where := quarry.RedactURL(url)
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, quarry.Errorf(quarry.KindConfig, "state %s is not a PostgreSQL URL quarry can read: write it as postgres://user@host:5432/db", where)
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	schema := DefaultSchema
	if sp := cfg.ConnConfig.RuntimeParams["search_path"]; sp != "" {
		schema = strings.Trim(strings.TrimSpace(strings.Split(sp, ",")[0]), `"`)
	} else {
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{schema}.Sanitize()
	}
	if schema == "" || strings.HasPrefix(schema, "$") || strings.HasPrefix(strings.ToLower(schema), "pg_") {
		return nil, quarry.Errorf(quarry.KindConfig, "state %s: the first schema of search_path must be a schema of quarry's own (not a pg_ or $ schema)", where)
	}
	// The log is compared and sorted byte for byte; the server's own
	// time zone and date style never enter it (times are text in UTC).
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "state %s cannot be opened", where)
	}
	s := &Store{pool: pool, where: where, schema: schema}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) migrate(ctx context.Context) error {
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, s.schema).Scan(&exists); err != nil {
		return s.dbErr(ctx, err, "reach the state database")
	}
	if !exists {
		_, err := s.pool.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{s.schema}.Sanitize())
		var pe *pgconn.PgError
		if errors.As(err, &pe) && (pe.Code == "23505" || pe.Code == "42P06") {
			err = nil // another replica created it at the same moment
		}
		if err != nil {
			return s.dbErr(ctx, err, "create the state schema %s (or create it yourself and grant quarry's role its use)", s.schema)
		}
	}
	h := fnv.New64a()
	h.Write([]byte("quarry state " + s.schema))
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(int64(h.Sum64()>>1)), lock.WithLockTimeout(1, 120))
	if err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "prepare the state migration lock")
	}
	db := stdlib.OpenDBFromPool(s.pool)
	defer db.Close()
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "read the state migrations")
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys,
		goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "read the state migrations")
	}
	current, err := p.GetDBVersion(ctx)
	if err != nil && !errors.Is(err, goose.ErrNoCurrentVersion) {
		return s.dbErr(ctx, err, "read the state schema version")
	}
	sources := p.ListSources()
	if latest := sources[len(sources)-1].Version; current > latest {
		return quarry.Errorf(quarry.KindConfig, "the state database %s has schema version %d, newer than this quarry understands (%d); upgrade quarry", s.where, current, latest)
	}
	if _, err := p.Up(ctx); err != nil {
		return s.dbErr(ctx, err, "migrate the state database")
	}
	return nil
}

// Where is the URL without its password.
func (s *Store) Where() string { return s.where }

// Close closes the pool. The store must not be used afterwards.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// dbErr turns a database failure into a quarry error.
func (s *Store) dbErr(ctx context.Context, err error, doing string, args ...any) error {
	what := fmt.Sprintf(doing, args...)
	var qe *quarry.Error
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &qe):
		return err
	case errors.Is(err, context.Canceled) || errors.Is(ctx.Err(), context.Canceled):
		return quarry.Wrap(quarry.KindCanceled, err, "%s was interrupted", what)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return quarry.Wrap(quarry.KindTimeout, err, "%s ran out of time", what)
	case errors.As(err, &pe):
		switch {
		case pe.Code == "42501":
			return quarry.Wrap(quarry.KindConfig, err, "%s: the role of state %s lacks a privilege (%s); let it own schema %s, or grant it USAGE and CREATE on it", what, s.where, pe.Message, s.schema)
		case pe.Code == "40001" || pe.Code == "40P01" || pe.Code == "55P03":
			return quarry.Wrap(quarry.KindConflict, err, "%s: the state database %s was busy; try again", what, s.where)
		case strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P") || strings.HasPrefix(pe.Code, "28") || pe.Code == "3D000":
			return quarry.Wrap(quarry.KindConnection, err, "%s: state %s cannot be reached (%s); check the URL and the server", what, s.where, pe.Message)
		}
		return quarry.Wrap(quarry.KindInternal, err, "%s: state database %s failed (%s); run `quarry doctor`", what, s.where, pe.Message)
	case pgconn.Timeout(err):
		return quarry.Wrap(quarry.KindTimeout, err, "%s ran out of time", what)
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return quarry.Wrap(quarry.KindConnection, err, "%s: state %s cannot be reached; check the URL and that the server runs", what, s.where)
	}
	return quarry.Wrap(quarry.KindInternal, err, "%s: state database %s failed; run `quarry doctor`", what, s.where)
}

// inTx runs fn in one transaction and commits it, or rolls it back when
// fn fails.
func (s *Store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		return err
	}
	return tx.Commit(ctx)
}

// matchPrefix returns the exact match of prefix in table.col when there is
// one, and otherwise up to three values that start with prefix. IDs are in
// the C collation, so a prefix's matches lie between it and its successor.
func (s *Store) matchPrefix(ctx context.Context, table, col, prefix string) ([]string, error) {
	prefix = strings.TrimSpace(prefix)
	if prefix == "" {
		return nil, quarry.Errorf(quarry.KindUsage, "give an ID")
	}
	if !utf8.ValidString(prefix) || strings.ContainsRune(prefix, 0) {
		return nil, nil
	}
	var exact string
	err := s.pool.QueryRow(ctx, `SELECT `+col+` FROM `+table+` WHERE `+col+` = $1`, prefix).Scan(&exact)
	switch {
	case err == nil:
		return []string{exact}, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return nil, s.dbErr(ctx, err, "look up %q", prefix)
	}
	q := `SELECT ` + col + ` FROM ` + table + ` WHERE ` + col + ` >= $1 AND starts_with(` + col + `, $1)`
	args := []any{prefix}
	if next, ok := successor(prefix); ok {
		q += ` AND ` + col + ` < $2`
		args = append(args, next)
	}
	rows, err := s.pool.Query(ctx, q+` ORDER BY `+col+` LIMIT 3`, args...)
	if err != nil {
		return nil, s.dbErr(ctx, err, "look up %q", prefix)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, s.dbErr(ctx, err, "look up %q", prefix)
	}
	return ids, nil
}

// successor returns the least string greater than every string that
// starts with p: p with its last rune advanced.
func successor(p string) (string, bool) {
	r, size := utf8.DecodeLastRuneInString(p)
	next := r + 1
	if next == 0xD800 { // skip the surrogates, which UTF-8 never holds
		next = 0xE000
	}
	if next > utf8.MaxRune {
		return "", false
	}
	return p[:len(p)-size] + string(next), true
}
