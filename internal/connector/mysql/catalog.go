package mysql

import (
	"context"
	"database/sql"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// systemSchemas are left out of the catalog when no database is selected.
const systemSchemas = `('mysql', 'information_schema', 'performance_schema', 'sys')`

// Catalog describes the tables and views of the connected database (the
// DSN's database), or, when the DSN names none, of every schema except
// mysql, information_schema, performance_schema and sys. Each table gets
// its schema, comment and row estimate (information_schema.TABLES'
// TABLE_ROWS: exact for MyISAM, an estimate for InnoDB; -1 for views),
// its columns with declared and quarry types (see resultType), nullability
// and comments, its primary key and its foreign keys. On MariaDB a
// LONGTEXT column with a json_valid check (how MariaDB stores JSON) is
// reported as TypeJSON with declared type "json". Sequences are left out.
func (c *Conn) Catalog(ctx context.Context) (*quarry.Catalog, error) {
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err, 0)
	}
	conn, err := c.db.Conn(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctxError(ctx, err, 0)
		}
		return nil, c.connectError(ctx, err)
	}
	defer conn.Close()

	filter := func(col string) string {
		if c.database != "" {
			return col + " = DATABASE()"
		}
		return col + " NOT IN " + systemSchemas
	}
	cat := &quarry.Catalog{Dialect: quarry.DialectMySQL, Tables: []quarry.TableInfo{}}
	index := map[[2]string]int{}
	err = c.each(ctx, conn, `SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, COALESCE(TABLE_COMMENT, ''), TABLE_ROWS
		FROM information_schema.TABLES
		WHERE `+filter("TABLE_SCHEMA")+` AND TABLE_TYPE IN ('BASE TABLE', 'VIEW', 'SYSTEM VERSIONED')
		ORDER BY TABLE_SCHEMA, TABLE_NAME`, func(v []sql.NullString) {
		view := v[2].String == "VIEW"
		t := quarry.TableInfo{Schema: v[0].String, Name: v[1].String, View: view, Comment: v[3].String, RowCount: -1}
		if view && t.Comment == "VIEW" { // MySQL's placeholder comment for views
			t.Comment = ""
		}
		if !view && v[4].Valid {
			t.RowCount = parseInt(v[4].String, -1)
		}
		index[[2]string{t.Schema, t.Name}] = len(cat.Tables)
		cat.Tables = append(cat.Tables, t)
	})
	if err != nil {
		return nil, err
	}
	table := func(schema, name string) *quarry.TableInfo {
		if i, ok := index[[2]string{schema, name}]; ok {
			return &cat.Tables[i]
		}
		return nil
	}

	// A view's definition, as the server shows it to this user (empty
	// without SHOW VIEW): the column policy reads it to learn which
	// columns the view reads.
	err = c.each(ctx, conn, `SELECT TABLE_SCHEMA, TABLE_NAME, COALESCE(VIEW_DEFINITION, '')
		FROM information_schema.VIEWS WHERE `+filter("TABLE_SCHEMA"), func(v []sql.NullString) {
		if t := table(v[0].String, v[1].String); t != nil {
			t.Definition = v[2].String
		}
	})
	if err != nil {
		return nil, err
	}

	err = c.each(ctx, conn, `SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, COALESCE(COLUMN_COMMENT, ''),
			COALESCE(EXTRA, '')
		FROM information_schema.COLUMNS
		WHERE `+filter("TABLE_SCHEMA")+`
		ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION`, func(v []sql.NullString) {
		t := table(v[0].String, v[1].String)
		if t == nil {
			return
		}
		t.Columns = append(t.Columns, quarry.ColumnInfo{
			Name:     v[2].String,
			DeclType: v[4].String,
			Type:     declaredType(v[3].String, v[4].String),
			Nullable: v[5].String == "YES",
			Comment:  v[6].String,
			// EXTRA says VIRTUAL GENERATED, STORED GENERATED (MySQL,
			// MariaDB) or PERSISTENT GENERATED (MariaDB); not which
			// columns the expression reads (GeneratedFrom stays nil).
			Generated: generatedExtra(v[7].String),
		})
	})
	if err != nil {
		return nil, err
	}

	if c.flavor == FlavorMariaDB {
		checks, err := c.readJSONChecks(ctx, conn)
		if err != nil {
			return nil, err
		}
		var texts []jsonCheck
		for _, jc := range checks {
			t := table(jc.schema, jc.table)
			if t == nil {
				continue
			}
			for i := range t.Columns {
				if strings.EqualFold(t.Columns[i].Name, jc.column) && strings.EqualFold(t.Columns[i].DeclType, "longtext") {
					t.Columns[i].Type = quarry.TypeJSON
					t.Columns[i].DeclType = "json"
				}
			}
		}
		for _, t := range cat.Tables {
			for _, col := range t.Columns {
				if strings.EqualFold(col.DeclType, "longtext") || col.DeclType == "json" {
					texts = append(texts, jsonCheck{t.Schema, t.Name, col.Name})
				}
			}
		}
		c.setJSONColumns(checks, texts)
	}

	err = c.each(ctx, conn, `SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME
		FROM information_schema.KEY_COLUMN_USAGE
		WHERE `+filter("TABLE_SCHEMA")+` AND CONSTRAINT_NAME = 'PRIMARY'
		ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION`, func(v []sql.NullString) {
		if t := table(v[0].String, v[1].String); t != nil {
			t.PrimaryKey = append(t.PrimaryKey, v[2].String)
		}
	})
	if err != nil {
		return nil, err
	}

	var last [3]string
	err = c.each(ctx, conn, `SELECT TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME,
			REFERENCED_TABLE_SCHEMA, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
		FROM information_schema.KEY_COLUMN_USAGE
		WHERE `+filter("TABLE_SCHEMA")+` AND REFERENCED_TABLE_NAME IS NOT NULL
		ORDER BY TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`, func(v []sql.NullString) {
		t := table(v[0].String, v[1].String)
		if t == nil {
			return
		}
		key := [3]string{v[0].String, v[1].String, v[2].String}
		if key != last || len(t.ForeignKeys) == 0 {
			fk := quarry.ForeignKey{RefTable: v[5].String}
			if v[4].String != v[0].String {
				fk.RefSchema = v[4].String
			}
			t.ForeignKeys = append(t.ForeignKeys, fk)
			last = key
		}
		fk := &t.ForeignKeys[len(t.ForeignKeys)-1]
		fk.Columns = append(fk.Columns, v[3].String)
		fk.RefColumns = append(fk.RefColumns, v[6].String)
	})
	if err != nil {
		return nil, err
	}
	return cat, nil
}

// jsonCheck is a MariaDB JSON column: a check json_valid(`column`).
type jsonCheck struct {
	schema, table, column string
}

// readJSONChecks reads the json_valid checks of the catalog's schemas.
func (c *Conn) readJSONChecks(ctx context.Context, conn *sql.Conn) ([]jsonCheck, error) {
	where := "CONSTRAINT_SCHEMA = DATABASE()"
	if c.database == "" {
		where = "CONSTRAINT_SCHEMA NOT IN " + systemSchemas
	}
	var out []jsonCheck
	err := c.each(ctx, conn, `SELECT CONSTRAINT_SCHEMA, TABLE_NAME, CHECK_CLAUSE
		FROM information_schema.CHECK_CONSTRAINTS
		WHERE `+where+` AND CHECK_CLAUSE LIKE 'json\\_valid(%'`, func(v []sql.NullString) {
		if col := jsonCheckColumn(v[2].String); col != "" {
			out = append(out, jsonCheck{v[0].String, v[1].String, col})
		}
	})
	return out, err
}

// loadJSONColumns remembers the names of MariaDB's JSON columns, so that
// Query can type them (resultType). A failure only leaves them typed as
// text.
func (c *Conn) loadJSONColumns(ctx context.Context) {
	if c.flavor != FlavorMariaDB {
		return
	}
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	checks, err := c.readJSONChecks(ctx, conn)
	if err != nil {
		return
	}
	where := "TABLE_SCHEMA = DATABASE()"
	if c.database == "" {
		where = "TABLE_SCHEMA NOT IN " + systemSchemas
	}
	var texts []jsonCheck
	err = c.each(ctx, conn, `SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS
		WHERE `+where+` AND DATA_TYPE = 'longtext'`, func(v []sql.NullString) {
		texts = append(texts, jsonCheck{v[0].String, v[1].String, v[2].String})
	})
	if err == nil {
		c.setJSONColumns(checks, texts)
	}
}

// setJSONColumns keeps the names of the JSON columns among the LONGTEXT
// columns: a name counts only when every LONGTEXT column of that name is
// JSON, since a result column is known only by its name.
func (c *Conn) setJSONColumns(checks, texts []jsonCheck) {
	isJSON := make(map[jsonCheck]bool, len(checks))
	for _, jc := range checks {
		jc.column = strings.ToLower(jc.column)
		isJSON[jc] = true
	}
	names := map[string]bool{}
	for _, tc := range texts {
		tc.column = strings.ToLower(tc.column)
		if prev, seen := names[tc.column]; !seen || prev {
			names[tc.column] = isJSON[tc]
		}
	}
	for name, ok := range names {
		if !ok {
			delete(names, name)
		}
	}
	c.mu.Lock()
	c.jsonColumns = names
	c.mu.Unlock()
}

// isJSONColumn reports whether a result column of this name is a MariaDB
// JSON column.
func (c *Conn) isJSONColumn(column string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.jsonColumns[strings.ToLower(column)]
}

// jsonCheckColumn returns the column of MariaDB's check for a JSON
// column, json_valid(`col`), or "".
func jsonCheckColumn(clause string) string {
	s := strings.TrimSpace(clause)
	if !strings.HasPrefix(s, "json_valid(`") || !strings.HasSuffix(s, "`)") {
		return ""
	}
	inner := s[len("json_valid(`") : len(s)-2]
	if strings.Count(inner, "`")%2 != 0 {
		return ""
	}
	return strings.ReplaceAll(inner, "``", "`")
}

// each runs one of the connector's own catalog queries and calls fn with
// every row as text.
func (c *Conn) each(ctx context.Context, conn *sql.Conn, query string, fn func([]sql.NullString)) error {
	rs, err := conn.QueryContext(ctx, query)
	if err != nil {
		return c.catalogError(ctx, err)
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return c.catalogError(ctx, err)
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			return c.catalogError(ctx, err)
		}
		fn(vals)
	}
	if err := rs.Err(); err != nil {
		return c.catalogError(ctx, err)
	}
	return nil
}

func (c *Conn) catalogError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctxError(ctx, err, 0)
	}
	e := c.queryError(err)
	if qe, ok := e.(*quarry.Error); ok && qe.Kind == quarry.KindQuery {
		qe.Msg = "cannot read the catalog of " + c.target + ": " + qe.Msg
	}
	return e
}

// parseInt reads a decimal integer, or returns def.
func parseInt(s string, def int64) int64 {
	var n int64
	if s == "" {
		return def
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return def
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n
}

// generatedExtra reports whether information_schema.COLUMNS.EXTRA marks a
// generated column (MySQL's DEFAULT_GENERATED is a default expression, not
// one).
func generatedExtra(extra string) bool {
	e := strings.ToUpper(extra)
	return strings.Contains(e, "VIRTUAL GENERATED") || strings.Contains(e, "STORED GENERATED") || strings.Contains(e, "PERSISTENT GENERATED")
}
