package demo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Options control a build.
type Options struct {
	// Anchor is the last day of history; its month is the last month of
	// the 36 months the data covers. Only its date counts. Required.
	Anchor time.Time
	// Seed selects the data; 0 means 1. The same seed and anchor always
	// give the same file, byte for byte.
	Seed int64
	// Now, when set, is read twice to time the build (Stats.Duration).
	// The data never depends on it.
	Now func() time.Time
}

// Stats describes a finished build.
type Stats struct {
	Tables   []TableStat   // in creation order
	Duration time.Duration // zero unless Options.Now was set
}

// TableStat is the row count of one table.
type TableStat struct {
	Name string
	Rows int64
}

// Build writes a new demo database at path. It refuses to replace an
// existing file. The file is built under a temporary name in the same
// directory and renamed into place at the end, so an interrupted or failed
// build leaves nothing behind.
func Build(ctx context.Context, path string, opts Options) (Stats, error) {
	var st Stats
	var began time.Time
	if opts.Now != nil {
		began = opts.Now()
	}
	if opts.Anchor.IsZero() {
		return st, quarry.Errorf(quarry.KindUsage, "demo: no anchor date given; pass the last day of history (for example today)")
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if _, err := os.Lstat(path); err == nil {
		return st, quarry.Errorf(quarry.KindInput, "%s already exists; remove it or choose another path for the demo database", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return st, quarry.Wrap(quarry.KindInput, err, "cannot check %s; make sure its directory exists and is readable", path)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.building")
	if err != nil {
		return st, quarry.Wrap(quarry.KindInput, err, "cannot create a file in %s; make sure the directory exists and is writable", dir)
	}
	tmpName := tmp.Name()
	if err := tmp.Close(); err != nil {
		_ = os.Remove(tmpName)
		return st, quarry.Wrap(quarry.KindInput, err, "cannot write in %s; make sure the directory is writable", dir)
	}
	defer func() { _ = os.Remove(tmpName) }() // a no-op once renamed

	tables, err := write(ctx, tmpName, opts)
	if err != nil {
		return st, err
	}
	if err := os.Chmod(tmpName, 0o644); err != nil {
		return st, quarry.Wrap(quarry.KindInput, err, "cannot set the permissions of the demo database in %s; make sure the directory is writable", dir)
	}
	if err := publish(tmpName, path); err != nil {
		return st, err
	}
	st.Tables = tables
	if opts.Now != nil {
		st.Duration = opts.Now().Sub(began)
	}
	return st, nil
}

// publish moves the finished file into place without replacing a file that
// appeared at path in the meantime.
func publish(tmp, path string) error {
	err := os.Link(tmp, path)
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return quarry.Errorf(quarry.KindInput, "%s already exists; remove it or choose another path for the demo database", path)
	}
	// The file system may not support hard links: rename instead.
	if _, serr := os.Lstat(path); serr == nil {
		return quarry.Errorf(quarry.KindInput, "%s already exists; remove it or choose another path for the demo database", path)
	}
	if err := os.Rename(tmp, path); err != nil {
		return quarry.Wrap(quarry.KindInput, err, "cannot move the demo database into place at %s; make sure the directory is writable", path)
	}
	return nil
}

// write fills the empty SQLite file at name with the demo data.
func write(ctx context.Context, name string, opts Options) (tables []TableStat, err error) {
	db, err := sqlite3.OpenContext(ctx, name)
	if err != nil {
		return nil, buildErr(ctx, err)
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = buildErr(ctx, cerr)
		}
	}()
	db.SetInterrupt(ctx)
	defer db.SetInterrupt(context.Background())

	for _, p := range []string{
		"PRAGMA page_size=4096",
		"PRAGMA journal_mode=OFF",
		"PRAGMA synchronous=OFF",
		"PRAGMA locking_mode=EXCLUSIVE",
		"PRAGMA cache_size=-131072",
		"PRAGMA temp_store=MEMORY",
		"PRAGMA foreign_keys=OFF",
	} {
		if err := db.Exec(p); err != nil {
			return nil, buildErr(ctx, err)
		}
	}
	if err := db.Exec("BEGIN"); err != nil {
		return nil, buildErr(ctx, err)
	}
	if err := db.Exec(schema); err != nil {
		return nil, buildErr(ctx, err)
	}
	g := newGenerator(opts)
	tables, err = g.run(ctx, db)
	if err != nil {
		return nil, buildErr(ctx, err)
	}
	if err := db.Exec(indexes); err != nil {
		return nil, buildErr(ctx, err)
	}
	if err := db.Exec("ANALYZE"); err != nil {
		return nil, buildErr(ctx, err)
	}
	if err := db.Exec("COMMIT"); err != nil {
		return nil, buildErr(ctx, err)
	}
	return tables, nil
}

// buildErr turns a failure during the build into a quarry error.
func buildErr(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return quarry.Wrap(quarry.KindCanceled, cerr, "demo database build was interrupted; run it again")
	}
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return err
	}
	return quarry.Wrap(quarry.KindInternal, err, "demo database build failed; check free disk space and try again")
}

// newRand returns the random stream for one part of the data. Each part has
// its own stream so that changing one table leaves the others as they were.
func newRand(seed int64, part uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15^part*0xbf58476d1ce4e5b9))
}

// inserter binds one row at a time to a prepared INSERT and remembers the
// first error.
type inserter struct {
	stmt *sqlite3.Stmt
	col  int
	rows int64
	err  error
}

func prepareInsert(db *sqlite3.Conn, table string, ncols int) (*inserter, error) {
	q := "INSERT INTO " + table + " VALUES (?"
	for range ncols - 1 {
		q += ",?"
	}
	q += ")"
	stmt, _, err := db.Prepare(q)
	if err != nil {
		return nil, fmt.Errorf("prepare insert into %s: %w", table, err)
	}
	return &inserter{stmt: stmt}, nil
}

func (w *inserter) keep(err error) {
	if err != nil && w.err == nil {
		w.err = err
	}
}

func (w *inserter) int(v int64)     { w.col++; w.keep(w.stmt.BindInt64(w.col, v)) }
func (w *inserter) float(v float64) { w.col++; w.keep(w.stmt.BindFloat(w.col, v)) }
func (w *inserter) text(v string)   { w.col++; w.keep(w.stmt.BindText(w.col, v)) }
func (w *inserter) raw(v []byte)    { w.col++; w.keep(w.stmt.BindRawText(w.col, v)) }
func (w *inserter) null()           { w.col++; w.keep(w.stmt.BindNull(w.col)) }

// optInt binds v, or NULL when ok is false.
func (w *inserter) optInt(v int64, ok bool) {
	if ok {
		w.int(v)
	} else {
		w.null()
	}
}

// optText binds v, or NULL when it is empty.
func (w *inserter) optText(v string) {
	if v != "" {
		w.text(v)
	} else {
		w.null()
	}
}

// done inserts the bound row.
func (w *inserter) done() error {
	w.col = 0
	if w.err != nil {
		return w.err
	}
	w.rows++
	return w.stmt.Exec()
}

func (w *inserter) close() error {
	err := w.stmt.Close()
	if w.err != nil {
		return w.err
	}
	return err
}

// round2 rounds to cents.
func round2(v float64) float64 {
	if v < 0 {
		return -round2(-v)
	}
	return float64(int64(v*100+0.5)) / 100
}
