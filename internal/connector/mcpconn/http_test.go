package mcpconn

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

func httpOpts(url string) Options {
	return Options{Name: "shop", URL: url, Dialect: quarry.DialectSQLite}
}

func TestHTTPRoundTripWithHeaders(t *testing.T) {
	s := httpSQLite(t, "run_query", "sql")
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	var auth []string
	url := serveHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		h.ServeHTTP(w, r)
	}))
	opts := httpOpts(url + "?token=" + secret)
	opts.Headers = map[string]string{"Authorization": "Bearer " + secret}
	opts.Arguments = map[string]string{"database": "main", "sql": "ignored"}
	c := open(t, opts)
	rs, err := c.Query(context.Background(), "SELECT name FROM customers ORDER BY id", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, got := readAll(t, rs); len(got) != 2 || got[0][0] != "Ada" {
		t.Errorf("rows = %v", got)
	}
	if len(auth) == 0 || auth[0] != "Bearer "+secret {
		t.Errorf("Authorization = %v", auth)
	}
	if id := c.Identity(); id.Target != strings.TrimSuffix(url, "/mcp")[:len("http://127.0.0.1:")]+strings.Split(strings.TrimPrefix(url, "http://127.0.0.1:"), "/")[0] || strings.Contains(id.Target, secret) {
		t.Errorf("identity = %+v", id)
	}
	_, err = c.Query(context.Background(), "SELECT * FROM nope", connector.QueryOptions{})
	expectErr(t, err, quarry.KindQuery, "the server reported an error", "nope")
	// No resources: the catalog comes from the catalog query, through
	// the server's run_query (pragma_table_info, which quarry's guard and
	// its SQLite connector both allow: it reads only the schema).
	cat, err := c.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if tb := cat.Table("customers"); tb == nil || tb.Column("name") == nil {
		t.Errorf("catalog through the catalog query: %+v", cat)
	}
}

func TestHTTPQueryToolAndArgument(t *testing.T) {
	c := open(t, httpOpts(serveHTTP(t, httpSQLite(t, "query", "query"))))
	rs, err := c.Query(context.Background(), "SELECT count(*) AS n FROM orders", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, got := readAll(t, rs); len(got) != 1 || got[0][0] != int64(3) {
		t.Errorf("rows = %v", got)
	}
}

func TestHTTPTextAnswers(t *testing.T) {
	for _, text := range []string{"id,name\n1,Ada\n2,Grace\n", `[{"id": 1, "name": "Ada"}, {"id": 2, "name": "Grace"}]`} {
		s := mcp.NewServer(&mcp.Implementation{Name: "text", Version: "1"}, nil)
		addSQLTool(s, "execute_sql", "sql", textTool(text))
		rs, err := open(t, httpOpts(serveHTTP(t, s))).Query(context.Background(), "SELECT id, name FROM customers", connector.QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if names, got := readAll(t, rs); len(got) != 2 || names[1] != "name" || got[1][1] != "Grace" {
			t.Errorf("%q: columns %v rows %v", text, names, got)
		}
	}
}

func TestHTTPErrorsAndEmptyAnswers(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "err", Version: "1"}, nil)
	addSQLTool(s, "run_query", "sql", func(sql string) (*mcp.CallToolResult, error) {
		switch sql {
		case "empty":
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "  "}}}, nil
		case "text":
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Error: no such table: orderz"}}}, nil
		}
		return errResult("ERROR: permission denied for table orders\nDETAIL: role reader"), nil
	})
	c := open(t, httpOpts(serveHTTP(t, s)))
	_, err := c.Query(context.Background(), "x", connector.QueryOptions{})
	expectErr(t, err, quarry.KindQuery, "the server reported an error: ERROR: permission denied for table orders DETAIL: role reader")
	_, err = c.Query(context.Background(), "text", connector.QueryOptions{})
	expectErr(t, err, quarry.KindQuery, `connection "shop": the server reported an error: Error: no such table: orderz`)
	_, err = c.Query(context.Background(), "empty", connector.QueryOptions{})
	expectErr(t, err, quarry.KindQuery, "answered no text and no structured content")
}

func TestHTTPTooLarge(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1"}, nil)
	addSQLTool(s, "run_query", "sql", textTool("n\n"+strings.Repeat("1\n", 20_000)))
	opts := httpOpts(serveHTTP(t, s))
	opts.MaxBytes = 16 << 10
	_, err := open(t, opts).Query(context.Background(), "SELECT n", connector.QueryOptions{})
	expectErr(t, err, quarry.KindQuery, "larger than 16384 bytes; add a LIMIT or aggregate")
}

func TestHTTPCatalogFromQuarrySchema(t *testing.T) {
	s := httpSQLite(t, "run_query", "sql")
	cat := quarry.Catalog{Dialect: quarry.DialectSQLite, Tables: []quarry.TableInfo{{Name: "orders", RowCount: 3,
		Columns:     []quarry.ColumnInfo{{Name: "id", DeclType: "INTEGER", Type: quarry.TypeInt}, {Name: "amount", DeclType: "REAL"}},
		PrimaryKey:  []string{"id"},
		ForeignKeys: []quarry.ForeignKey{{Columns: []string{"customer_id"}, RefTable: "customers", RefColumns: []string{"id"}}}}}}
	b, _ := json.Marshal(cat)
	s.AddResource(&mcp.Resource{URI: "quarry://schema", Name: "schema", MIMEType: "application/json"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "quarry://schema", MIMEType: "application/json", Text: string(b)}}}, nil
	})
	got, err := open(t, httpOpts(serveHTTP(t, s))).Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tables) != 1 || got.Tables[0].RowCount != 3 || got.Tables[0].Columns[1].Type != quarry.TypeFloat || len(got.Tables[0].ForeignKeys) != 1 || got.Dialect != quarry.DialectSQLite {
		t.Errorf("catalog = %+v", got)
	}
}

func TestHTTPCatalogFromTableResources(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "postgres", Version: "1"}, nil)
	addSQLTool(s, "query", "sql", textTool("n\n1\n"))
	tables := map[string]string{
		"postgres://db.example/customers/schema": `[{"column_name":"id","data_type":"integer"},{"column_name":"name","data_type":"text"}]`,
		"postgres://db.example/orders/schema":    `[{"column_name":"id","data_type":"bigint"},{"column_name":"placed_at","data_type":"timestamp with time zone"},{"column_name":"amount","data_type":"numeric"}]`,
	}
	for uri, text := range tables {
		s.AddResource(&mcp.Resource{URI: uri, Name: uri, MIMEType: "application/json"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: text}}}, nil
		})
	}
	opts := httpOpts(serveHTTP(t, s))
	opts.Dialect = quarry.DialectPostgres
	cat, err := open(t, opts).Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	orders := cat.Table("orders")
	if len(cat.Tables) != 2 || cat.Table("customers") == nil || orders == nil || orders.RowCount != -1 ||
		orders.Column("placed_at").Type != quarry.TypeTimestamp || orders.Column("amount").Type != quarry.TypeDecimal {
		t.Errorf("catalog = %+v", cat)
	}
}

func TestHTTPUnreachable(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	ts.Close()
	opts := httpOpts(ts.URL + "/mcp?key=" + secret)
	_, err := open(t, opts).Query(context.Background(), "SELECT 1", connector.QueryOptions{})
	expectErr(t, err, quarry.KindConnection, "the server at http://127.0.0.1")
}

func TestHTTPQuerySizeLimits(t *testing.T) {
	c := open(t, httpOpts(serveHTTP(t, httpSQLite(t, "run_query", "sql"))))
	sql := "SELECT id, printf('%5000s', 'x') AS big FROM orders ORDER BY id"
	rs, err := c.Query(context.Background(), sql, connector.QueryOptions{MaxValueBytes: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if _, got := readAll(t, rs); len(got) != 3 || len(got[0][1].(string)) != 5000 {
		t.Errorf("rows = %d", len(got))
	}
	_, err = c.Query(context.Background(), sql, connector.QueryOptions{MaxValueBytes: 4999})
	expectErr(t, err, quarry.KindTooCostly, `column "big" holds a value of 5000 bytes`, "limits.max_value_bytes (4999)")
	_, err = c.Query(context.Background(), sql, connector.QueryOptions{MaxResultBytes: 9000})
	expectErr(t, err, quarry.KindTooCostly, "limits.max_result_bytes (9000 bytes)")
}
