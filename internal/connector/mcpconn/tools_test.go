package mcpconn

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// rawSQLite opens the shop database read-only as a plain handle, as
// third-party servers do.
func rawSQLite(t *testing.T) *sqlite3.Conn {
	t.Helper()
	db, err := sqlite3.OpenFlags(shopDB(t), sqlite3.OPEN_READONLY)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// addNoArgTool adds a tool without arguments that answers text.
func addNoArgTool(s *mcp.Server, name, text string) {
	s.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object", "properties": map[string]any{}}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	})
}

var wantShopTables = []quarry.TableInfo{
	{Name: "customers", RowCount: -1, PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{
		{Name: "id", DeclType: "INTEGER", Type: quarry.TypeInt, Nullable: true},
		{Name: "name", DeclType: "TEXT", Type: quarry.TypeText},
	}},
	{Name: "orders", RowCount: -1, PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{
		{Name: "id", DeclType: "INTEGER", Type: quarry.TypeInt, Nullable: true},
		{Name: "customer_id", DeclType: "INTEGER", Type: quarry.TypeInt, Nullable: true},
		{Name: "amount", DeclType: "REAL", Type: quarry.TypeFloat, Nullable: true},
	}},
}

// TestCatalogThroughListAndDescribeTools is the reference SQLite server's
// shape: read_query and write_query both take {query}, list_tables and
// describe_table answer the str() of Python lists of dicts.
func TestCatalogThroughListAndDescribeTools(t *testing.T) {
	db := rawSQLite(t)
	s := mcp.NewServer(&mcp.Implementation{Name: "sqlite", Version: "0.1"}, nil)
	addSQLTool(s, "write_query", "query", textTool("refused"))
	addSQLTool(s, "read_query", "query", rawTool(db))
	addNoArgTool(s, "list_tables", "[{'name': 'customers'}, {'name': 'orders'}]")
	described := 0
	addSQLTool(s, "describe_table", "table_name", func(table string) (*mcp.CallToolResult, error) {
		described++
		text := map[string]string{
			"customers": "[{'cid': 0, 'name': 'id', 'type': 'INTEGER', 'notnull': 0, 'dflt_value': None, 'pk': 1}, {'cid': 1, 'name': 'name', 'type': 'TEXT', 'notnull': 1, 'dflt_value': None, 'pk': 0}]",
			"orders":    "[{'cid': 0, 'name': 'id', 'type': 'INTEGER', 'notnull': 0, 'dflt_value': None, 'pk': 1}, {'cid': 1, 'name': 'customer_id', 'type': 'INTEGER', 'notnull': 0, 'dflt_value': None, 'pk': 0}, {'cid': 2, 'name': 'amount', 'type': 'REAL', 'notnull': 0, 'dflt_value': None, 'pk': 0}]",
		}[table]
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	})
	opts := httpOpts(serveHTTP(t, s))
	opts.Dialect = ""
	c := open(t, opts)
	what, err := c.Ping(context.Background())
	if err != nil || what != "sqlite 0.1 answers; SQL goes to its tool read_query(query)" {
		t.Errorf("Ping = %q, %v", what, err)
	}
	cat, err := c.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantShopTables, cat.Tables, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("catalog (-want +got):\n%s", diff)
	}
	if described != 2 {
		t.Errorf("describe_table was called %d times, want once per table", described)
	}
}

// TestCatalogThroughJSONListAndDescribe is a MySQL server's shape: the
// tables as a JSON array of names, DESCRIBE rows for a table.
func TestCatalogThroughJSONListAndDescribe(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "mysql", Version: "1"}, nil)
	addSQLTool(s, "execute_sql", "sql", textTool("n\n1\n"))
	addNoArgTool(s, "list_tables", `["orders"]`)
	addSQLTool(s, "describe_table", "table", func(table string) (*mcp.CallToolResult, error) {
		if table != "orders" {
			return errResult("no table " + table), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `[{"Field":"id","Type":"int(11)","Null":"NO","Key":"PRI"},{"Field":"amount","Type":"decimal(10,2)","Null":"YES","Key":""}]`}}}, nil
	})
	cat, err := open(t, httpOpts(serveHTTP(t, s))).Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []quarry.TableInfo{{Name: "orders", RowCount: -1, PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{
		{Name: "id", DeclType: "int(11)", Type: quarry.TypeInt},
		{Name: "amount", DeclType: "decimal(10,2)", Type: quarry.TypeDecimal, Nullable: true},
	}}}
	if diff := cmp.Diff(want, cat.Tables, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("catalog (-want +got):\n%s", diff)
	}
}

// TestGenericDialectCatalogFallsBackToSQLite asks a server whose database
// was not named: information_schema fails, SQLite's catalog answers.
func TestGenericDialectCatalogFallsBackToSQLite(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "raw", Version: "1"}, nil)
	addSQLTool(s, "run_query", "sql", rawTool(rawSQLite(t)))
	opts := httpOpts(serveHTTP(t, s))
	opts.Dialect = ""
	cat, err := open(t, opts).Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"customers", "orders"}, []string{cat.Tables[0].Name, cat.Tables[1].Name}); diff != "" || cat.Tables[1].Column("amount").Type != quarry.TypeFloat {
		t.Errorf("catalog = %+v", cat)
	}
	rs, err := open(t, opts).Query(context.Background(), "SELECT count(*) AS n FROM orders", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, rows := readAll(t, rs); len(rows) != 1 || rows[0][0] != int64(3) {
		t.Errorf("rows = %v", rows)
	}
}
