//go:build duckdb

package duckdb

import (
	"context"
	"database/sql/driver"
	"fmt"
	"sort"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Catalog lists the tables and views of the database file (not DuckDB's
// own catalogs, nor temporary objects), with their columns, primary and
// foreign keys, comments and DuckDB's estimated row counts (estimated_size;
// -1 for views).
func (c *Conn) Catalog(ctx context.Context) (*quarry.Catalog, error) {
	if err := c.acquire(); err != nil {
		return nil, err
	}
	defer c.release()
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err, 0)
	}
	type key struct{ schema, name string }
	var tables []*quarry.TableInfo
	byKey := map[key]*quarry.TableInfo{}
	add := func(t *quarry.TableInfo) {
		tables = append(tables, t)
		byKey[key{t.Schema, t.Name}] = t
	}
	err := c.internal(ctx, `SELECT schema_name, table_name, coalesce(comment, ''), coalesce(estimated_size, -1)::BIGINT
		FROM duckdb_tables() WHERE database_name = current_database() AND NOT temporary AND NOT internal
		ORDER BY schema_name, table_name`, func(row []driver.Value) error {
		add(&quarry.TableInfo{Schema: str(row[0]), Name: str(row[1]), Comment: str(row[2]), RowCount: i64(row[3])})
		return nil
	})
	if err != nil {
		return nil, c.queryError(ctx, err, 0)
	}
	err = c.internal(ctx, `SELECT schema_name, view_name, coalesce(comment, '')
		FROM duckdb_views() WHERE database_name = current_database() AND NOT temporary AND NOT internal
		ORDER BY schema_name, view_name`, func(row []driver.Value) error {
		add(&quarry.TableInfo{Schema: str(row[0]), Name: str(row[1]), View: true, Comment: str(row[2]), RowCount: -1})
		return nil
	})
	if err != nil {
		return nil, c.queryError(ctx, err, 0)
	}
	err = c.internal(ctx, `SELECT schema_name, table_name, column_name, data_type, is_nullable, coalesce(comment, '')
		FROM duckdb_columns() WHERE database_name = current_database() AND NOT internal
		ORDER BY schema_name, table_name, column_index`, func(row []driver.Value) error {
		t := byKey[key{str(row[0]), str(row[1])}]
		if t == nil {
			return nil
		}
		typ, _ := columnType(str(row[3]))
		nullable, _ := row[4].(bool)
		t.Columns = append(t.Columns, quarry.ColumnInfo{Name: str(row[2]), DeclType: str(row[3]), Type: typ, Nullable: nullable, Comment: str(row[5])})
		return nil
	})
	if err != nil {
		return nil, c.queryError(ctx, err, 0)
	}
	err = c.internal(ctx, `SELECT schema_name, table_name, constraint_type, constraint_column_names,
			coalesce(referenced_table, ''), coalesce(referenced_column_names, []::VARCHAR[])
		FROM duckdb_constraints() WHERE database_name = current_database()
			AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')
		ORDER BY schema_name, table_name, constraint_index`, func(row []driver.Value) error {
		t := byKey[key{str(row[0]), str(row[1])}]
		if t == nil {
			return nil
		}
		cols := strs(row[3])
		switch str(row[2]) {
		case "PRIMARY KEY":
			t.PrimaryKey = cols
		case "FOREIGN KEY":
			// DuckDB keeps foreign keys within one schema.
			t.ForeignKeys = append(t.ForeignKeys, quarry.ForeignKey{Columns: cols, RefSchema: t.Schema, RefTable: str(row[4]), RefColumns: strs(row[5])})
		}
		return nil
	})
	if err != nil {
		return nil, c.queryError(ctx, err, 0)
	}
	sort.SliceStable(tables, func(i, j int) bool {
		if tables[i].Schema != tables[j].Schema {
			return tables[i].Schema < tables[j].Schema
		}
		return tables[i].Name < tables[j].Name
	})
	cat := &quarry.Catalog{Dialect: quarry.DialectDuckDB, Tables: make([]quarry.TableInfo, len(tables))}
	for i, t := range tables {
		cat.Tables[i] = *t
	}
	return cat, nil
}

func str(v driver.Value) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

func i64(v driver.Value) int64 {
	n, err := convInt(v)
	if err != nil {
		return -1
	}
	return n.(int64)
}

func strs(v driver.Value) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		out = append(out, str(e))
	}
	return out
}
