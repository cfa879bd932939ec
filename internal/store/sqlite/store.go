package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"

	"github.com/quarrydata/quarry/internal/quarry"
)

// busyTimeout is how long a statement waits for another writer (another
// goroutine or another quarry process) before it gives up.
const busyTimeout = 10 * time.Second

// Store is quarry's state database. It is safe for concurrent use.
type Store struct {
	db    *sql.DB
	path  string
	w     writer
	stmts stmtCache
}

// Open opens the state database at path, creating its folder (mode 0700)
// and the file (mode 0600) when they do not exist, and brings its schema up
// to date.
func Open(ctx context.Context, path string) (*Store, error) {
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
	if err := f.Close(); err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot open the state database %s", abs)
	}
	// The write-ahead log holds recent events and result rows too: it gets
	// the database file's mode (modeof, below), and one left by an older
	// quarry is made private here, as is the log's index (-shm), which
	// the driver would otherwise create with the default mode (found from
	// outside: both 0644 in a folder that was not 0700).
	for _, side := range []string{abs + "-wal", abs + "-shm"} {
		flags := os.O_RDWR
		if strings.HasSuffix(side, "-shm") {
			flags |= os.O_CREATE
		}
		sf, err := os.OpenFile(side, flags, 0o600)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			err = sf.Chmod(0o600)
			if cerr := sf.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return nil, quarry.Wrap(quarry.KindConfig, err, "cannot make %s private; check its permissions", side)
		}
	}
	if err := os.Chmod(abs, 0o600); err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot make the state database %s private; check its permissions", abs)
	}
	// A file: URI, so that the driver's VFS creates the write-ahead log
	// with the database file's mode (modeof).
	uri := "file:" + uriEscape(abs) + "?modeof=" + uriEscape(abs)
	db, err := driver.Open(uri, func(c *sqlite3.Conn) error {
		// A checkpoint on every close would cost a command an fsync;
		// SQLite checkpoints the WAL on its own as it grows.
		if _, err := c.Config(sqlite3.DBCONFIG_NO_CKPT_ON_CLOSE, true); err != nil {
			return err
		}
		return c.Exec(fmt.Sprintf(`PRAGMA busy_timeout = %d; PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;`, busyTimeout.Milliseconds()))
	})
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot open the state database %s", abs)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	s := &Store{db: db, path: abs, w: writer{turn: make(chan struct{}, 1)}, stmts: stmtCache{db: db}}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Path returns the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// Where is Path: the file names the store in messages.
func (s *Store) Where() string { return s.path }

// Close closes the database. The store must not be used afterwards.
func (s *Store) Close() error {
	s.stmts.close()
	if err := s.db.Close(); err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "close the state database %s", s.path)
	}
	return nil
}

// dbErr turns a database failure into a quarry error: cancellation and
// deadlines keep their meaning, anything else is a state database fault.
func (s *Store) dbErr(ctx context.Context, err error, doing string, args ...any) error {
	what := fmt.Sprintf(doing, args...)
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(ctx.Err(), context.Canceled):
		return quarry.Wrap(quarry.KindCanceled, err, "%s was interrupted", what)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return quarry.Wrap(quarry.KindTimeout, err, "%s ran out of time", what)
	case errors.Is(err, sqlite3.BUSY) || errors.Is(err, sqlite3.LOCKED):
		return quarry.Wrap(quarry.KindConflict, err, "%s: the state database %s stayed locked by another quarry process; try again", what, s.path)
	case errors.Is(err, sqlite3.NOTADB) || errors.Is(err, sqlite3.CORRUPT):
		return quarry.Wrap(quarry.KindConfig, err, "%s: %s is not a readable quarry state database; move it aside and run again", what, s.path)
	}
	return quarry.Wrap(quarry.KindInternal, err, "%s: state database %s failed; run `quarry doctor`", what, s.path)
}

// uriEscape percent-encodes a path for a SQLite file: URI: everything but
// letters, digits, "-._~" and "/" (SQLite reads "+" as a plus, not a space).
func uriEscape(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~/", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
