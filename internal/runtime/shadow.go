package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/dialect/registry"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
)

// sqliteShadow opens, for the column policy of a SQLite database quarry
// reaches through another program (an MCP server), an empty SQLite file
// holding the database's schema, under an authorizer that holds p. SQLite's
// own parser, authorizer and compiled program then decide which columns a
// statement reads, as on a file quarry opens, instead of PostgreSQL's
// parser, which refuses SQL that only SQLite reads (`ON a.m IS b.m`,
// `AS ""`).
//
// The copy is made of the database's own CREATE statements (ddl, read
// from sqlite_schema through the connection), so that it holds what
// decides what a statement reveals beside the columns it names: which
// key is the rowid, generated columns and what they compute, indexes and
// WITHOUT ROWID tables (whose order a scan returns rows in), and what a
// view reads (found by an attacker: with the tables' columns alone, a
// restricted rowid key, a column generated from a restricted one, the
// order of an index on one, and a count of a view that filters on one
// were all answered). Where the statements are not to be had (a server
// that does not run that query) or one does not run here, the catalog
// stands in: its keys and, for a view, a table whose every read is
// refused while p restricts anything, as the lineage check counts a view
// it cannot see into. A statement that does not prepare on the copy is
// refused: the real database may hold what the copy lacks (the tables of
// a virtual table's index, an index the copy cannot make), and would run
// it unchecked. close removes the file. ok is false when the catalog cannot be written as SQLite tables;
// the caller keeps the lineage check then.
func sqliteShadow(ctx context.Context, cfg *config.Config, name string, cat *quarry.Catalog, sch shadowSchema, p *policy.Policy) (conn *sqlite.Conn, close func(), ok bool, err error) {
	dir, err := os.MkdirTemp("", "quarry-schema-")
	if err != nil {
		return nil, nil, false, quarry.Wrap(quarry.KindInternal, err, "create a folder for the schema of connection %q", name)
	}
	remove := func() { os.RemoveAll(dir) }
	path := filepath.Join(dir, "schema.db")
	var unseen []string
	restricts := func(table string) bool { return len(p.Columns(table)) > 0 }
	written := writeShadow(path, cat, sch, restricts, &unseen)
	if !written && sch.ddl != nil {
		// The database's own statements or statistics would not go in:
		// the strict copy from the catalog instead.
		os.Remove(path)
		unseen = nil
		written = writeShadow(path, cat, shadowSchema{}, restricts, &unseen)
	}
	if !written {
		remove()
		return nil, nil, false, nil
	}
	shadow := p.With(unseen...)
	conn, err = sqlite.Open(ctx, path, sqlite.Options{ExtraFunctions: cfg.Guard.ExtraFunctions, Name: name, Policy: shadow, CopyOfSchema: true})
	if err != nil {
		remove()
		return nil, nil, false, err
	}
	return conn, func() { conn.Close(); remove() }, true, nil
}

// schemaEntry is one row of a SQLite database's sqlite_schema.
type schemaEntry struct {
	kind, name, sql string
}

// shadowSchema is what the copy of a database's schema is made of: its
// CREATE statements, and the rows of its sqlite_stat1 and sqlite_stat4,
// by which SQLite chooses among indexes (found by an attacker: ANALYZE on the real file
// made it scan an index on a restricted column, skipping over its
// values, while the copy without the statistics scanned the table).
type shadowSchema struct {
	ddl   []schemaEntry
	stat1 [][3]string // tbl, idx, stat
	stat4 [][6]any    // tbl, idx, neq, nlt, ndlt, sample
}

// schemaOf reads the CREATE statements and the statistics of the
// database behind conn, through conn itself. It is empty where the
// server does not answer, sends only part of an answer, or sends the
// samples of sqlite_stat4 otherwise than as bytes: the catalog's strict
// copy is made then.
func schemaOf(ctx context.Context, conn connector.Conn) shadowSchema {
	var sch shadowSchema
	read := func(sql string, n int, row func(v []any)) bool {
		rows, err := conn.Query(ctx, sql, connector.QueryOptions{MaxRows: 1 << 20})
		if err != nil {
			return false
		}
		defer rows.Close()
		for rows.Next() {
			v := rows.Values()
			if len(v) != n {
				return false
			}
			row(v)
		}
		// A server that sent only the first rows (its row cap) did not
		// send the whole schema.
		if tr, ok := rows.(interface{ Truncated() bool }); ok && tr.Truncated() {
			return false
		}
		return rows.Err() == nil
	}
	text := func(v any) string { s, _ := v.(string); return s }
	if !read("SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND substr(name, 1, 7) <> 'sqlite_' ORDER BY rowid", 3, func(v []any) {
		sch.ddl = append(sch.ddl, schemaEntry{text(v[0]), text(v[1]), text(v[2])})
	}) {
		return shadowSchema{}
	}
	var stats struct{ stat1, stat4 bool }
	read("SELECT name FROM sqlite_schema WHERE name IN ('sqlite_stat1', 'sqlite_stat4')", 1, func(v []any) {
		stats.stat1 = stats.stat1 || text(v[0]) == "sqlite_stat1"
		stats.stat4 = stats.stat4 || text(v[0]) == "sqlite_stat4"
	})
	if stats.stat4 {
		// The samples are records, read as bytes; a server that hands
		// them otherwise gets the strict copy.
		whole := read("SELECT tbl, idx, neq, nlt, ndlt, sample FROM sqlite_stat4", 6, func(v []any) {
			var r [6]any
			copy(r[:], v)
			sch.stat4 = append(sch.stat4, r)
		})
		for _, r := range sch.stat4 {
			if _, ok := r[5].([]byte); !ok {
				whole = false
			}
		}
		if !whole {
			return shadowSchema{}
		}
	}
	if stats.stat1 && !read("SELECT tbl, idx, stat FROM sqlite_stat1", 3, func(v []any) {
		sch.stat1 = append(sch.stat1, [3]string{text(v[0]), text(v[1]), text(v[2])})
	}) {
		return shadowSchema{}
	}
	return sch
}

// unseenTable is the table of the copy a view whose statement is not to
// be had reads (unseenColumn, in its WHERE): every statement that reads
// the view, a count of its rows too, reads that column, which the copy's
// policy restricts.
const unseenTable, unseenColumn = "a view's definition, which quarry cannot see", "unseen"

// unseenOrder is the rowid the copy gives a table written from the
// catalog that has restricted columns: restricted, so that nothing of the
// table is read but a count. Without its statement quarry cannot tell
// its indexes, nor whether it is a WITHOUT ROWID table, and so in what
// order a scan returns its rows, which can be that of a restricted column.
const unseenOrder = "order of its rows, which quarry cannot see"

// writeShadow writes the schema of the database cat describes into a new
// SQLite file at path: its own CREATE statements ddl where they run, else
// cat's tables with their keys, and views as reads of unseenTable. It
// appends to unseen the columns the copy's policy must restrict besides
// the project's: unseenTable's, and, of a table written from the catalog,
// its generated columns (whose expression the copy does not hold) and,
// where restricts says the table has restricted columns, its unseenOrder.
func writeShadow(path string, cat *quarry.Catalog, sch shadowSchema, restricts func(table string) bool, unseen *[]string) bool {
	ddl := sch.ddl
	db, err := sqlite3.Open(path)
	if err != nil {
		return false
	}
	defer db.Close()
	q := registry.Of(quarry.DialectSQLite).QuoteIdent
	for _, t := range cat.Tables {
		if t.Schema != "" && !strings.EqualFold(t.Schema, "main") || len(t.Columns) == 0 {
			return false // an attached database, or a table of no columns
		}
	}
	// A throwaway file: no journal and no sync, and one transaction for
	// the whole copy (each statistics row in its own had the copy take a
	// second through an MCP server, syncing hundreds of times).
	if db.Exec("PRAGMA journal_mode = OFF") != nil || db.Exec("PRAGMA synchronous = OFF") != nil || db.Exec("BEGIN") != nil {
		return false
	}
	made := map[string]bool{}
	run := func(e schemaEntry) bool {
		if db.Exec(e.sql) != nil {
			return false
		}
		made[strings.ToLower(e.name)] = true
		return true
	}
	// The tables SQLite keeps for a virtual table's index (an FTS
	// index's copy of its text) are left out of the copy, so that a
	// statement that reads one does not prepare and is refused: the
	// copy cannot make the virtual table, whose module quarry does not
	// load, and so would not know them as what they are.
	shadows, prefixes := map[string]bool{}, []string(nil)
	for _, e := range ddl {
		tables, prefix := sqlite.VirtualShadows(e.name, e.sql)
		for _, t := range tables {
			shadows[strings.ToLower(t)] = true
		}
		if prefix {
			prefixes = append(prefixes, strings.ToLower(e.name)+"_")
		}
	}
	shadow := func(name string) bool {
		n := strings.ToLower(name)
		return shadows[n] || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(n, p) })
	}
	// Tables first, then views (one may read another), then indexes,
	// which need their tables; triggers never run on a copy read only.
	for _, e := range ddl {
		if e.kind == "table" && !shadow(e.name) {
			run(e)
		}
	}
	for pending := true; pending; {
		pending = false
		for _, e := range ddl {
			if e.kind == "view" && !made[strings.ToLower(e.name)] && run(e) {
				pending = true
			}
		}
	}
	for _, e := range ddl {
		if e.kind == "index" {
			run(e)
		}
	}
	unseenMade := false
	for _, t := range cat.Tables {
		if made[strings.ToLower(t.Name)] || shadow(t.Name) {
			continue
		}
		cols := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			cols[i] = q(c.Name)
		}
		if t.View {
			if !unseenMade {
				if db.Exec(fmt.Sprintf("CREATE TABLE %s (%s)", q(unseenTable), q(unseenColumn))) != nil {
					return false
				}
				*unseen = append(*unseen, unseenTable+"."+unseenColumn)
				unseenMade = true
			}
			for i, c := range t.Columns {
				cols[i] = "NULL AS " + q(c.Name)
			}
			if db.Exec(fmt.Sprintf("CREATE VIEW %s AS SELECT %s FROM %s WHERE %s", q(t.Name), strings.Join(cols, ", "), q(unseenTable), q(unseenColumn))) != nil {
				return false
			}
			continue
		}
		for i, c := range t.Columns {
			if len(t.PrimaryKey) == 1 && strings.EqualFold(t.PrimaryKey[0], c.Name) && strings.EqualFold(strings.TrimSpace(c.DeclType), "INTEGER") {
				cols[i] += " INTEGER PRIMARY KEY" // the rowid
			}
			if c.Generated {
				*unseen = append(*unseen, t.Name+"."+c.Name)
			}
		}
		if restricts(t.Name) {
			for i := range cols {
				cols[i] = strings.TrimSuffix(cols[i], " INTEGER PRIMARY KEY")
			}
			cols = append([]string{q(unseenOrder) + " INTEGER PRIMARY KEY"}, cols...)
			*unseen = append(*unseen, t.Name+"."+unseenOrder)
		} else if len(t.PrimaryKey) > 1 || len(t.PrimaryKey) == 1 && !strings.Contains(strings.Join(cols, ","), " INTEGER PRIMARY KEY") {
			pk := make([]string, len(t.PrimaryKey))
			for i, c := range t.PrimaryKey {
				pk[i] = q(c)
			}
			cols = append(cols, "PRIMARY KEY ("+strings.Join(pk, ", ")+")")
		}
		if db.Exec(fmt.Sprintf("CREATE TABLE %s (%s)", q(t.Name), strings.Join(cols, ", "))) != nil {
			return false
		}
	}
	if len(sch.stat1) > 0 || len(sch.stat4) > 0 {
		// The statistics the real file's planner reads, for the copy's
		// to choose the same indexes: ANALYZE makes the tables, empty.
		if db.Exec("ANALYZE") != nil || db.Exec("DELETE FROM sqlite_stat1") != nil || db.Exec("DELETE FROM sqlite_stat4") != nil {
			return false
		}
		if !insertRows(db, "INSERT INTO sqlite_stat4 (tbl, idx, neq, nlt, ndlt, sample) VALUES (?, ?, ?, ?, ?, ?)", len(sch.stat4), func(i int) []any { return sch.stat4[i][:] }) {
			return false
		}
		rows := make([][]any, len(sch.stat1))
		for i, r := range sch.stat1 {
			rows[i] = []any{r[0], r[1], r[2]}
			if r[1] == "" {
				rows[i][1] = nil
			}
		}
		if !insertRows(db, "INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)", len(rows), func(i int) []any { return rows[i] }) {
			return false
		}
	}
	return db.Exec("COMMIT") == nil
}

// insertRows runs the INSERT sql once for each of n rows, binding row(i)'s
// values (text, bytes, integers or NULL); false on any error.
func insertRows(db *sqlite3.Conn, sql string, n int, row func(i int) []any) bool {
	if n == 0 {
		return true
	}
	stmt, _, err := db.Prepare(sql)
	if err != nil {
		return false
	}
	defer stmt.Close()
	for i := range n {
		for j, v := range row(i) {
			var err error
			switch v := v.(type) {
			case nil:
				err = stmt.BindNull(j + 1)
			case string:
				err = stmt.BindText(j+1, v)
			case []byte:
				err = stmt.BindBlob(j+1, v)
			case int64:
				err = stmt.BindInt64(j+1, v)
			default:
				return false
			}
			if err != nil {
				return false
			}
		}
		if stmt.Exec() != nil {
			return false
		}
	}
	return true
}
