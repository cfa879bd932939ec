package sqlite

import (
	"context"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Catalog describes the database's tables and views (SQLite's own sqlite_%
// tables left out): columns with declared and quarry types and
// nullability, primary keys, foreign keys, and exact row counts (views and
// tables that cannot be counted get -1). A view whose definition SQLite
// cannot compile is listed without columns.
func (c *Conn) Catalog(ctx context.Context) (*quarry.Catalog, error) {
	return c.catalog(ctx, "'table', 'view'")
}

// Views is the catalog of the database's views alone, described as
// Catalog describes them: what reading the column policy through views
// needs (a view over a restricted column), without describing every
// table of a wide schema for each question (8,750 tables: a second).
func (c *Conn) Views(ctx context.Context) (*quarry.Catalog, error) {
	return c.catalog(ctx, "'view'")
}

// catalog is the catalog of the relations of the given types (a list of
// SQL strings).
func (c *Conn) catalog(ctx context.Context, types string) (*quarry.Catalog, error) {
	if err := c.acquire(); err != nil {
		return nil, err
	}
	defer c.release()
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err, 0)
	}
	c.db.SetInterrupt(ctx)
	defer c.db.SetInterrupt(context.Background())
	c.auth.internal = true
	defer func() { c.auth.internal = false }()

	cat := &quarry.Catalog{Dialect: quarry.DialectSQLite, Tables: []quarry.TableInfo{}}
	err := c.internal(ctx, `SELECT name, type FROM sqlite_schema
		WHERE type IN (`+types+`) AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
		ORDER BY name`, nil, func(s *sqlite3.Stmt) {
		cat.Tables = append(cat.Tables, quarry.TableInfo{Name: s.ColumnText(0), View: s.ColumnText(1) == "view", RowCount: -1})
	})
	if err != nil {
		return nil, err
	}
	kept := cat.Tables[:0]
	for i := range cat.Tables {
		if c.auth.shadowTable(cat.Tables[i].Name) {
			continue // SQLite's own tables for a virtual table's index
		}
		if err := c.describe(ctx, &cat.Tables[i]); err != nil {
			if strings.Contains(err.Error(), "no such module") {
				// A virtual table of a module quarry does not load (an
				// FTS5 index of notes): not in the catalog, as no
				// statement can read it here (found from outside: learn
				// failed on the whole database).
				continue
			}
			return nil, err
		}
		kept = append(kept, cat.Tables[i])
	}
	cat.Tables = kept
	// A foreign key that names no parent columns refers to the parent's
	// primary key.
	for i := range cat.Tables {
		for j, fk := range cat.Tables[i].ForeignKeys {
			if len(fk.RefColumns) > 0 {
				continue
			}
			if p := cat.Table(fk.RefTable); p != nil && len(p.PrimaryKey) == len(fk.Columns) {
				cat.Tables[i].ForeignKeys[j].RefColumns = append([]string(nil), p.PrimaryKey...)
			}
		}
	}
	return cat, nil
}

func (c *Conn) describe(ctx context.Context, t *quarry.TableInfo) error {
	type pkCol struct {
		name string
		pos  int64
	}
	var pks []pkCol
	err := c.internal(ctx, `SELECT name, type, "notnull", pk, hidden FROM pragma_table_xinfo(?1)`, []string{t.Name}, func(s *sqlite3.Stmt) {
		if s.ColumnInt64(4) == 1 { // a virtual table's hidden column
			return
		}
		name, decl := s.ColumnText(0), s.ColumnText(1)
		pk := s.ColumnInt64(3)
		t.Columns = append(t.Columns, quarry.ColumnInfo{
			Name:     name,
			DeclType: decl,
			Type:     TypeOf(decl),
			Nullable: s.ColumnInt64(2) == 0 && pk == 0,
		})
		if pk > 0 {
			pks = append(pks, pkCol{name, pk})
		}
	})
	if err != nil {
		if t.View && quarry.KindOf(err) == quarry.KindQuery {
			return nil // a broken view: listed, without columns
		}
		return err
	}
	for pos := int64(1); pos <= int64(len(pks)); pos++ {
		for _, p := range pks {
			if p.pos == pos {
				t.PrimaryKey = append(t.PrimaryKey, p.name)
			}
		}
	}
	if t.View {
		return nil
	}
	err = c.internal(ctx, `SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?1) ORDER BY id, seq`, []string{t.Name}, func(s *sqlite3.Stmt) {
		id := s.ColumnInt64(0)
		if n := len(t.ForeignKeys); n == 0 || int64(n-1) != id {
			t.ForeignKeys = append(t.ForeignKeys, quarry.ForeignKey{RefTable: s.ColumnText(1)})
		}
		fk := &t.ForeignKeys[len(t.ForeignKeys)-1]
		fk.Columns = append(fk.Columns, s.ColumnText(2))
		if s.ColumnType(3) != sqlite3.NULL {
			fk.RefColumns = append(fk.RefColumns, s.ColumnText(3))
		}
	})
	if err != nil {
		return err
	}
	err = c.internal(ctx, `SELECT count(*) FROM "`+strings.ReplaceAll(t.Name, `"`, `""`)+`"`, nil, func(s *sqlite3.Stmt) {
		t.RowCount = s.ColumnInt64(0)
	})
	if err != nil && quarry.KindOf(err) == quarry.KindQuery {
		// A virtual table whose module is missing cannot be counted.
		t.RowCount = -1
		return nil
	}
	return err
}

// internal runs one of the connector's own read-only statements, binding
// args as text, and calls each for every row.
func (c *Conn) internal(ctx context.Context, sql string, args []string, each func(*sqlite3.Stmt)) error {
	c.auth.denied = ""
	stmt, _, err := c.db.Prepare(sql)
	if err != nil {
		if ctx.Err() != nil {
			return ctxError(ctx, err, 0)
		}
		if c.auth.denied != "" {
			return quarry.Wrap(quarry.KindInternal, err, "the connector's own statement was refused (%s)", c.auth.denied)
		}
		return queryError(err)
	}
	defer stmt.Close()
	if !stmt.ReadOnly() {
		return quarry.Errorf(quarry.KindInternal, "internal statement is not read-only: %s", sql)
	}
	for i, a := range args {
		if err := stmt.BindText(i+1, a); err != nil {
			return queryError(err)
		}
	}
	for stmt.Step() {
		each(stmt)
	}
	if err := stmt.Err(); err != nil {
		if ctx.Err() != nil {
			return ctxError(ctx, err, 0)
		}
		return queryError(err)
	}
	return nil
}
