// Command engines times SQLite engines that a Go program can embed on the
// same database and statements, in one process, against each other: the
// engine quarry uses (ncruces/go-sqlite3, SQLite compiled to WebAssembly
// and translated to Go, no cgo), mattn/go-sqlite3 (SQLite's C through cgo)
// and modernc.org/sqlite (SQLite's C translated to Go, no cgo). Each
// statement is prepared, stepped to its last row and every column read,
// as quarry's connector does; the figure is the median of -n runs after
// one warm-up run. The baseline is the native sqlite3 shell (-shell), its
// own timer (.timer on) over the same statement run -n+1 times in one
// shell, the first run left out as the engines' warm-up is: its timer
// counts in milliseconds, so its figure for a statement of under a
// millisecond is coarse.
//
// It is a module of its own so that quarry's binary never links the
// engines it does not use.
//
//	go run . -db demo.db -n 20 query1.sql query2.sql …
package main

import (
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"github.com/ncruces/go-sqlite3"
	_ "modernc.org/sqlite"
)

func main() {
	db := flag.String("db", "", "the SQLite database file, opened read-only")
	n := flag.Int("n", 20, "timed runs of each statement and engine")
	shell := flag.String("shell", "sqlite3", "the sqlite3 shell to time beside them; \"\" for none")
	flag.Parse()
	if *db == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: engines -db FILE [-n RUNS] QUERY.sql …")
		os.Exit(2)
	}
	if err := run(*db, *shell, *n, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "engines:", err)
		os.Exit(1)
	}
}

// engine runs one statement to its last row and reports how many rows it
// read.
type engine struct {
	name  string
	query func(string) (int, error)
	close func() error
}

func run(db, shell string, n int, files []string) error {
	abs, err := filepath.Abs(db)
	if err != nil {
		return err
	}
	engines, err := open(abs)
	if err != nil {
		return err
	}
	defer func() {
		for _, e := range engines {
			e.close()
		}
	}()
	fmt.Printf("  %-40s", "statement (median ms)")
	for _, e := range engines {
		fmt.Printf(" %12s", e.name)
	}
	fmt.Printf(" %12s %12s %14s\n", "shell", "ncruces/cgo", "ncruces/shell")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		q := strings.TrimSpace(string(b))
		rows := -1
		var meds []time.Duration
		for _, e := range engines {
			got, err := e.query(q) // warm-up: the page cache and the schema
			if err != nil {
				return fmt.Errorf("%s on %s: %w", e.name, f, err)
			}
			if rows >= 0 && got != rows {
				return fmt.Errorf("%s read %d rows of %s, another engine %d", e.name, got, f, rows)
			}
			rows = got
			times := make([]time.Duration, n)
			for i := range times {
				t0 := time.Now()
				if _, err := e.query(q); err != nil {
					return err
				}
				times[i] = time.Since(t0)
			}
			slices.Sort(times)
			meds = append(meds, times[n/2])
		}
		fmt.Printf("  %-40s", strings.TrimSuffix(filepath.Base(f), ".sql"))
		for _, m := range meds {
			fmt.Printf(" %12.2f", float64(m.Microseconds())/1000)
		}
		sh, err := shellTime(shell, db, f, n)
		if err != nil {
			return err
		}
		if sh > 0 {
			fmt.Printf(" %12.2f %11.2f× %13.2f×\n", float64(sh.Microseconds())/1000, float64(meds[0])/float64(meds[1]), float64(meds[0])/float64(sh))
		} else {
			fmt.Printf(" %12s %11.2f× %14s\n", "-", float64(meds[0])/float64(meds[1]), "-")
		}
	}
	return nil
}

// open opens db read-only in each engine: quarry's first.
func open(db string) ([]engine, error) {
	nc, err := sqlite3.OpenFlags("file:"+db+"?mode=ro", sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		return nil, err
	}
	out := []engine{{name: "ncruces", close: nc.Close, query: func(q string) (int, error) {
		stmt, _, err := nc.Prepare(q)
		if err != nil {
			return 0, err
		}
		defer stmt.Close()
		n, cols := 0, stmt.ColumnCount()
		for stmt.Step() {
			for i := range cols {
				switch stmt.ColumnType(i) {
				case sqlite3.INTEGER:
					_ = stmt.ColumnInt64(i)
				case sqlite3.FLOAT:
					_ = stmt.ColumnFloat(i)
				case sqlite3.TEXT:
					_ = stmt.ColumnText(i)
				case sqlite3.BLOB:
					_ = stmt.ColumnRawBlob(i)
				}
			}
			n++
		}
		return n, stmt.Err()
	}}}
	for _, d := range []struct{ name, driver, dsn string }{
		{"mattn (cgo)", "sqlite3", "file:" + db + "?mode=ro"},
		{"modernc", "sqlite", "file:" + db + "?mode=ro"},
	} {
		h, err := sql.Open(d.driver, d.dsn)
		if err != nil {
			return nil, err
		}
		h.SetMaxOpenConns(1)
		out = append(out, engine{name: d.name, close: h.Close, query: func(q string) (int, error) { return sqlRows(h, q) }})
	}
	return out, nil
}

// sqlRows runs q through database/sql and reads every column of every row.
func sqlRows(h *sql.DB, q string) (int, error) {
	rs, err := h.Query(q)
	if err != nil {
		return 0, err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			return 0, err
		}
		n++
	}
	if err := rs.Err(); err != nil {
		return 0, errors.Join(err)
	}
	return n, nil
}

// shellTime is the median of the shell's own timer over n runs of the
// statement in file f, after one run left out; 0 without a shell.
func shellTime(shell, db, f string, n int) (time.Duration, error) {
	if shell == "" {
		return 0, nil
	}
	if _, err := exec.LookPath(shell); err != nil {
		return 0, nil
	}
	script := ".timer on\n.output /dev/null\n" + strings.Repeat(".read "+f+"\n", n+1)
	cmd := exec.Command(shell, "-readonly", db)
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%s: %w: %s", shell, err, out)
	}
	var times []time.Duration
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "Run Time: real "); ok {
			var s float64
			if _, err := fmt.Sscan(strings.Fields(rest)[0], &s); err == nil {
				times = append(times, time.Duration(s*float64(time.Second)))
			}
		}
	}
	if len(times) != n+1 {
		return 0, fmt.Errorf("%s: %d timer lines for %d runs of %s", shell, len(times), n+1, f)
	}
	times = times[1:]
	slices.Sort(times)
	return times[n/2], nil
}
