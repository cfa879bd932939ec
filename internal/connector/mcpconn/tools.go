package mcpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Names servers give the tools that list tables and describe one (the
// reference SQLite server, several MySQL and PostgreSQL servers), in order
// of preference.
var (
	listToolNames     = []string{"list_tables", "get_tables", "show_tables", "list-tables"}
	describeToolNames = []string{"describe_table", "get_table_schema", "describe-table", "table_schema", "get_table_info", "describe_table_schema"}
)

// maxToolTables bounds how many tables the tool catalog describes: one
// call each.
const maxToolTables = 500

// toolCatalog reads the catalog through a tool that lists the tables and
// one that describes a table, when the server offers both; nil, nil when
// it does not.
func (c *Conn) toolCatalog(ctx context.Context, s *session) (*quarry.Catalog, error) {
	list := findTool(s.tools, listToolNames, func(sc inputSchema) bool { return len(sc.Required) == 0 })
	var tableArg string
	describe := findTool(s.tools, describeToolNames, func(sc inputSchema) bool {
		tableArg = sc.tableArg()
		return tableArg != ""
	})
	if list == nil || describe == nil {
		return nil, nil
	}
	res, err := c.callRaw(ctx, s, list.Name, map[string]any{}, 0)
	if err != nil {
		return nil, err
	}
	names, ok := stringList(res)
	if !ok {
		lt, err := c.table(res, list.Name)
		if err != nil {
			return nil, err
		}
		names = tableNames(lt)
	}
	if len(names) > maxToolTables {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server lists %d tables, more than the %d quarry describes one call at a time; set dialect: so that quarry reads the catalog with one query", c.opts.Name, len(names), maxToolTables)
	}
	cat := &quarry.Catalog{Dialect: c.opts.Dialect, Tables: []quarry.TableInfo{}}
	for _, name := range names {
		dt, err := c.call(ctx, s, describe.Name, map[string]any{tableArg: name}, 0)
		if err != nil {
			return nil, err
		}
		cat.Tables = append(cat.Tables, describedTable(name, dt))
	}
	return cat, nil
}

// findTool returns the first tool, by the order of names, that fits.
func findTool(tools []*mcp.Tool, names []string, fits func(inputSchema) bool) *mcp.Tool {
	for _, n := range names {
		i := slices.IndexFunc(tools, func(t *mcp.Tool) bool { return t.Name == n })
		if i >= 0 && fits(schemaOf(tools[i])) {
			return tools[i]
		}
	}
	return nil
}

// tableArg returns the argument of a describe tool that names the table:
// its only required argument, or the first of the usual names.
func (s inputSchema) tableArg() string {
	if len(s.Required) == 1 {
		if p, ok := s.Properties[s.Required[0]]; ok && isString(p.Type) {
			return s.Required[0]
		}
		return ""
	}
	if len(s.Required) > 1 {
		return ""
	}
	for _, n := range []string{"table_name", "table", "name", "tableName"} {
		if p, ok := s.Properties[n]; ok && isString(p.Type) {
			return n
		}
	}
	return ""
}

// tableNames reads a list of tables: a column named like a table name
// (name, table_name, table, Tables_in_db as MySQL's SHOW TABLES prints
// it), or the only column.
func tableNames(t *quarry.Table) []string {
	col := pick(t, func(n string) bool {
		return n == "name" || n == "table_name" || n == "table" || n == "tablename" || strings.HasPrefix(n, "tables_in_")
	})
	if col < 0 && len(t.Columns) == 1 {
		col = 0
	}
	var out []string
	if col < 0 {
		return out
	}
	for _, row := range t.Rows {
		if col < len(row) && row[col] != nil {
			if s := strings.TrimSpace(fmt.Sprint(row[col])); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// describedTable reads one table's description: a row per column with its
// name and type, and where given whether it may be NULL and is part of the
// primary key (PRAGMA table_info, MySQL's DESCRIBE, information_schema).
func describedTable(name string, t *quarry.Table) quarry.TableInfo {
	ti := quarry.TableInfo{Name: name, RowCount: -1, Columns: []quarry.ColumnInfo{}}
	nameCol := pick(t, func(n string) bool { return n == "name" || n == "column_name" || n == "field" || n == "column" })
	typeCol := pick(t, func(n string) bool { return n == "type" || n == "data_type" || n == "column_type" })
	notNull := pick(t, func(n string) bool { return n == "notnull" })
	nullCol := pick(t, func(n string) bool { return n == "null" || n == "is_nullable" || n == "nullable" })
	pkCol := pick(t, func(n string) bool { return n == "pk" || n == "key" || n == "column_key" || n == "primary_key" })
	if nameCol < 0 {
		return ti
	}
	cell := func(row []any, i int) string {
		if i < 0 || i >= len(row) || row[i] == nil {
			return ""
		}
		return strings.TrimSpace(fmt.Sprint(row[i]))
	}
	for _, row := range t.Rows {
		col := quarry.ColumnInfo{Name: cell(row, nameCol), DeclType: cell(row, typeCol), Nullable: true}
		if col.Name == "" {
			continue
		}
		col.Type = connector.TypeOf(col.DeclType)
		switch v := strings.ToLower(cell(row, notNull)); v {
		case "1", "true":
			col.Nullable = false
		}
		switch v := strings.ToLower(cell(row, nullCol)); v {
		case "no", "false", "0":
			col.Nullable = false
		}
		switch v := strings.ToLower(cell(row, pkCol)); {
		case v == "pri" || v == "true" || v == "yes":
			ti.PrimaryKey = append(ti.PrimaryKey, col.Name)
		case v != "" && v != "0" && v != "false" && v != "no" && isDigits(v):
			ti.PrimaryKey = append(ti.PrimaryKey, col.Name)
		}
		ti.Columns = append(ti.Columns, col)
	}
	return ti
}

// pick returns the index of the first column whose lower-cased name
// matches, or -1.
func pick(t *quarry.Table, match func(string) bool) int {
	for i, c := range t.Columns {
		if match(strings.ToLower(c.Name)) {
			return i
		}
	}
	return -1
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// stringList reads an answer that is a JSON array of strings, as some
// servers list tables.
func stringList(res *mcp.CallToolResult) ([]string, bool) {
	if res.IsError {
		return nil, false
	}
	var out []string
	if json.Unmarshal([]byte(strings.TrimSpace(textOf(res))), &out) != nil {
		return nil, false
	}
	return out, true
}
