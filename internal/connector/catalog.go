package connector

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/dialect"
	"github.com/quarrydata/quarry/internal/dialect/registry"
	"github.com/quarrydata/quarry/internal/quarry"
)

// CatalogSQL lists every column of every user table and view, one row per
// column, as (table_schema, table_name, table_type, column_name, data_type,
// is_nullable, is_pk), ordered by table and column position: through
// sqlite_master and pragma_table_info for SQLite, information_schema for
// every other dialect (dialect.Dialect.CatalogSQL).
func CatalogSQL(d quarry.Dialect) string {
	if d == quarry.DialectGeneric || d == "" {
		return dialect.InformationSchemaCatalog
	}
	return registry.Of(d).CatalogSQL()
}

// QueryCatalog describes the tables behind a connector that can only run
// SQL (an HTTP service, an MCP server): it runs the dialect's CatalogSQL
// through c.Query and builds the catalog from the rows. name is the
// connection's name, for messages. Row counts are unknown (-1).
//
// A connection of the generic dialect (the database behind it was not
// named) is asked through information_schema first and, when that fails,
// through SQLite's catalog.
func QueryCatalog(ctx context.Context, c Conn, name string) (*quarry.Catalog, error) {
	cat, err := queryCatalog(ctx, c, name, CatalogSQL(c.Dialect()))
	if err != nil && c.Dialect() == quarry.DialectGeneric && quarry.KindOf(err) == quarry.KindQuery {
		if cat, serr := queryCatalog(ctx, c, name, CatalogSQL(quarry.DialectSQLite)); serr == nil {
			return cat, nil
		}
	}
	return cat, err
}

func queryCatalog(ctx context.Context, c Conn, name, sql string) (*quarry.Catalog, error) {
	rs, err := c.Query(ctx, sql, QueryOptions{})
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	idx := map[string]int{}
	for i, col := range rs.Columns() {
		idx[strings.ToLower(col.Name)] = i
	}
	for _, need := range []string{"table_name", "column_name"} {
		if _, ok := idx[need]; !ok {
			return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the catalog query's answer has no %s column", name, need)
		}
	}
	get := func(vals []any, col string) string {
		i, ok := idx[col]
		if !ok || i >= len(vals) || vals[i] == nil {
			return ""
		}
		return fmt.Sprint(vals[i])
	}
	cat := &quarry.Catalog{Dialect: c.Dialect(), Tables: []quarry.TableInfo{}}
	pos := map[string]int{}
	for rs.Next() {
		v := rs.Values()
		schema, table := get(v, "table_schema"), get(v, "table_name")
		key := schema + "\x00" + table
		i, ok := pos[key]
		if !ok {
			typ := strings.ToUpper(get(v, "table_type"))
			cat.Tables = append(cat.Tables, quarry.TableInfo{Schema: schema, Name: table, View: strings.Contains(typ, "VIEW"), RowCount: -1, Columns: []quarry.ColumnInfo{}})
			i = len(cat.Tables) - 1
			pos[key] = i
		}
		t := &cat.Tables[i]
		decl := get(v, "data_type")
		col := quarry.ColumnInfo{Name: get(v, "column_name"), DeclType: decl, Type: TypeOf(decl), Nullable: !strings.EqualFold(get(v, "is_nullable"), "NO")}
		t.Columns = append(t.Columns, col)
		if pk := get(v, "is_pk"); pk != "" && pk != "0" && pk != "false" {
			t.PrimaryKey = append(t.PrimaryKey, col.Name)
		}
	}
	return cat, rs.Err()
}

// TypeOf maps a declared column type from any common dialect to quarry's
// portable type.
func TypeOf(decl string) quarry.Type {
	d := strings.ToLower(strings.TrimSpace(decl))
	if i := strings.IndexByte(d, '('); i >= 0 {
		d = strings.TrimSpace(d[:i])
	}
	switch {
	case d == "":
		return quarry.TypeUnknown
	case strings.HasSuffix(d, "[]") || d == "array":
		return quarry.TypeArray
	case d == "bigint" || d == "int8" || d == "hugeint" || d == "ubigint":
		return quarry.TypeInt
	case strings.Contains(d, "int"):
		return quarry.TypeInt
	case d == "bool" || d == "boolean" || d == "bit":
		return quarry.TypeBool
	case d == "numeric" || d == "decimal" || d == "money":
		return quarry.TypeDecimal
	case strings.Contains(d, "double") || strings.Contains(d, "float") || d == "real":
		return quarry.TypeFloat
	case d == "date":
		return quarry.TypeDate
	case strings.HasPrefix(d, "timestamp") || d == "datetime":
		return quarry.TypeTimestamp
	case strings.HasPrefix(d, "time"):
		return quarry.TypeTime
	case d == "interval":
		return quarry.TypeInterval
	case d == "json" || d == "jsonb":
		return quarry.TypeJSON
	case d == "bytea" || strings.Contains(d, "blob") || strings.Contains(d, "binary"):
		return quarry.TypeBytes
	}
	return quarry.TypeText
}
