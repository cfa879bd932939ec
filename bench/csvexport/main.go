// Command csvexport exports the result of one SQL statement on a SQLite
// database to CSV through quarry's connector and format packages, the same
// pipeline as `quarry run --format csv`. bench/csv.sh times it against the
// sqlite3 shell.
//
//	csvexport -db FILE -sql 'SELECT …' [-format csv] > out.csv
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/format"
	"github.com/quarrydata/quarry/internal/quarry"
)

func main() {
	db := flag.String("db", "", "SQLite database file")
	sql := flag.String("sql", "", "the SELECT statement to export")
	name := flag.String("format", "csv", "output format")
	flag.Parse()
	if err := run(context.Background(), *db, *sql, *name); err != nil {
		fmt.Fprintln(os.Stderr, "csvexport:", quarry.Message(err))
		os.Exit(quarry.ExitCode(err))
	}
}

func run(ctx context.Context, path, sql, name string) error {
	conn, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		return err
	}
	defer conn.Close()
	w, err := format.New(name, os.Stdout, format.Options{})
	if err != nil {
		return err
	}
	rows, err := conn.Query(ctx, sql, connector.QueryOptions{})
	if err != nil {
		return err
	}
	defer rows.Close()
	if err := w.Begin(rows.Columns()); err != nil {
		return err
	}
	var n int64
	for rows.Next() {
		if err := w.Row(rows.Values()); err != nil {
			return err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		w.Flush()
		return err
	}
	return w.End(format.Info{Rows: n})
}
