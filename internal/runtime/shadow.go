package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/dialect/registry"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
)

// sqliteShadow opens, for the column policy of a SQLite database quarry
// reaches through another program (an MCP server), an empty SQLite file
// holding the database's tables and columns as its catalog lists them,
// under an authorizer that holds p. SQLite's own parser and authorizer then
// decide which columns a statement reads, as on a file quarry opens,
// instead of PostgreSQL's parser, which refuses SQL that only SQLite reads
// (`ON a.m IS b.m`, `AS ""`).
//
// A view is a table of its columns there: what it reads is not in the
// catalog, so every column of it is restricted while p restricts anything,
// as the lineage check counts a view it cannot see into. A statement that
// does not prepare on the copy is refused: the real database may hold
// what the copy lacks (an index named in INDEXED BY, SQLite's statistics
// tables), and would run it unchecked. close removes the file. ok is false when the catalog cannot be written as SQLite tables;
// the caller keeps the lineage check then.
func sqliteShadow(ctx context.Context, cfg *config.Config, name string, cat *quarry.Catalog, p *policy.Policy) (conn *sqlite.Conn, close func(), ok bool, err error) {
	dir, err := os.MkdirTemp("", "quarry-schema-")
	if err != nil {
		return nil, nil, false, quarry.Wrap(quarry.KindInternal, err, "create a folder for the schema of connection %q", name)
	}
	remove := func() { os.RemoveAll(dir) }
	path := filepath.Join(dir, "schema.db")
	var views []string
	if !writeShadow(path, cat, &views) {
		remove()
		return nil, nil, false, nil
	}
	shadow := p.With(views...)
	conn, err = sqlite.Open(ctx, path, sqlite.Options{ExtraFunctions: cfg.Guard.ExtraFunctions, Name: name, Policy: shadow, CopyOfSchema: true})
	if err != nil {
		remove()
		return nil, nil, false, err
	}
	return conn, func() { conn.Close(); remove() }, true, nil
}

// writeShadow writes cat's tables and views as empty tables into a new
// SQLite file at path, and appends to views "view.column" for every column
// of a view.
func writeShadow(path string, cat *quarry.Catalog, views *[]string) bool {
	db, err := sqlite3.Open(path)
	if err != nil {
		return false
	}
	defer db.Close()
	q := registry.Of(quarry.DialectSQLite).QuoteIdent
	var ddl strings.Builder
	ddl.WriteString("BEGIN;\n")
	for _, t := range cat.Tables {
		if t.Schema != "" && !strings.EqualFold(t.Schema, "main") || len(t.Columns) == 0 {
			return false // an attached database, or a table of no columns
		}
		cols := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			cols[i] = q(c.Name)
			if t.View {
				*views = append(*views, t.Name+"."+c.Name)
			}
		}
		fmt.Fprintf(&ddl, "CREATE TABLE %s (%s);\n", q(t.Name), strings.Join(cols, ", "))
	}
	ddl.WriteString("COMMIT;")
	return db.Exec(ddl.String()) == nil
}
