package mcpserver

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

func newConnector(t *testing.T, maxRows int64, scrub func(string) string) *mcp.ClientSession {
	t.Helper()
	conn, g := openShop(t)
	srv, err := NewConnector(ConnectorConfig{Name: "SQLite database shop.db", Exec: conn, Guard: g, MaxRows: maxRows, Version: "test", Scrub: scrub})
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, srv)
}

func TestConnectorListsItsGuardedTools(t *testing.T) {
	cs := newConnector(t, 0, nil)
	init := cs.InitializeResult()
	if !strings.Contains(init.Instructions, "read-only") || !strings.Contains(init.Instructions, SchemaURI) {
		t.Errorf("instructions do not say what the server is: %q", init.Instructions)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint {
			t.Errorf("%s is not marked read-only", tl.Name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"run_query", connector.BinaryQueryTool}) {
		t.Fatalf("tools = %v, want run_query and its binary twin", names)
	}
	tool := tools.Tools[slices.IndexFunc(tools.Tools, func(tl *mcp.Tool) bool { return tl.Name == "run_query" })]
	schema, _ := json.Marshal(tool.InputSchema)
	var in struct {
		Required   []string                  `json:"required"`
		Properties map[string]map[string]any `json:"properties"`
	}
	json.Unmarshal(schema, &in)
	if !slices.Contains(in.Required, "sql") || in.Properties["sql"]["type"] != "string" || !strings.Contains(in.Properties["sql"]["description"].(string), "SELECT") {
		t.Errorf("input schema %s: want a required string sql described as a SELECT", schema)
	}
	if tool.OutputSchema == nil {
		t.Error("run_query declares no output schema")
	}
	if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
		t.Error("run_query is not marked read-only")
	}
}

func TestConnectorRunsAQuery(t *testing.T) {
	cs := newConnector(t, 0, nil)
	res := call(t, cs, "run_query", map[string]any{"sql": "SELECT country, count(*) AS n, min(ordered_at) AS first FROM orders GROUP BY country ORDER BY country"})
	got := decode[Result](t, res)
	want := Result{
		Columns:  []Column{{Name: "country", Type: quarry.TypeText, DBType: "TEXT"}, {Name: "n", Type: quarry.TypeInt}, {Name: "first", Type: quarry.TypeTimestamp}},
		Rows:     [][]any{{"Finland", 1000.0, "2025-01-01 00:00:00"}, {"Germany", 1000.0, "2025-01-01 00:00:00"}, {"Spain", 1000.0, "2025-01-01 00:00:00"}},
		RowCount: 3,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	// The text content is the same JSON, for clients that ignore structured content.
	var fromText Result
	if err := json.Unmarshal([]byte(text(res)), &fromText); err != nil {
		t.Fatalf("text content is not the result's JSON: %v\n%s", err, text(res))
	}
	if diff := cmp.Diff(got, fromText); diff != "" {
		t.Errorf("text content differs from structured content:\n%s", diff)
	}
}

func TestConnectorCapsRows(t *testing.T) {
	cs := newConnector(t, 10, nil)
	got := decode[Result](t, call(t, cs, "run_query", map[string]any{"sql": "SELECT id FROM orders"}))
	if len(got.Rows) != 10 || got.RowCount != 10 || !got.Truncated {
		t.Errorf("rows %d, row_count %d, truncated %v; want 10, 10, true", len(got.Rows), got.RowCount, got.Truncated)
	}
}

func TestConnectorRefusesWrites(t *testing.T) {
	cs := newConnector(t, 0, nil)
	for _, sql := range []string{
		"DELETE FROM orders",
		"SELECT 1; DROP TABLE orders",
		"UPDATE orders SET amount = 0",
		"ATTACH DATABASE '/tmp/x.db' AS x",
		"WITH x AS (DELETE FROM orders RETURNING id) SELECT * FROM x",
	} {
		wantToolError(t, call(t, cs, "run_query", map[string]any{"sql": sql}), "the guard rejected the statement")
	}
	got := decode[Result](t, call(t, cs, "run_query", map[string]any{"sql": "SELECT count(*) FROM orders"}))
	if got.Rows[0][0] != 3000.0 {
		t.Errorf("after the refusals, count = %v, want 3000 (nothing was written)", got.Rows[0][0])
	}
}

func TestConnectorErrorsAreOneLine(t *testing.T) {
	secret := "postgres://u:hunter2@db/x"
	cs := newConnector(t, 0, func(s string) string { return strings.ReplaceAll(s, "no_such_column", "[scrubbed]") })
	wantToolError(t, call(t, cs, "run_query", map[string]any{"sql": "SELECT no_such_column FROM orders"}), "[scrubbed]")
	wantToolError(t, call(t, cs, "run_query", map[string]any{"sql": "  "}), "sql is empty")
	res := call(t, cs, "run_query", map[string]any{})
	if !res.IsError {
		t.Errorf("a call without sql is not an error: %s", text(res))
	}
	if strings.Contains(text(res), secret) {
		t.Error("a secret leaked")
	}
}

func TestConnectorSchemaResources(t *testing.T) {
	cs := newConnector(t, 0, nil)
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Resources) != 1 || list.Resources[0].URI != SchemaURI || list.Resources[0].MIMEType != "application/json" {
		t.Errorf("resources = %+v", list.Resources)
	}
	tmpls, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tmpls.ResourceTemplates) != 1 || tmpls.ResourceTemplates[0].URITemplate != SchemaTableURI {
		t.Errorf("templates = %+v", tmpls.ResourceTemplates)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: SchemaURI})
	if err != nil {
		t.Fatal(err)
	}
	var cat quarry.Catalog
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &cat); err != nil {
		t.Fatal(err)
	}
	if cat.Dialect != quarry.DialectSQLite || cat.Table("orders") == nil || cat.Table("orders").Column("email") == nil || cat.Table("orders").RowCount != 3000 {
		t.Errorf("catalog = %+v", cat)
	}
	res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "quarry://schema/orders"})
	if err != nil {
		t.Fatal(err)
	}
	var table quarry.TableInfo
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &table); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*cat.Table("orders"), table); diff != "" {
		t.Errorf("quarry://schema/orders differs from the catalog's table:\n%s", diff)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "quarry://schema/nope"}); err == nil {
		t.Error("an unknown table was read")
	}
}

func TestConnectorTimesOut(t *testing.T) {
	conn, g := openShop(t)
	srv, err := NewConnector(ConnectorConfig{Exec: conn, Guard: g, Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, srv)
	start := time.Now()
	res := call(t, cs, "run_query", map[string]any{"sql": "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s) SELECT count(*) FROM s"})
	wantToolError(t, res, "timeout")
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the timeout took %s", took)
	}
	// The server still answers.
	if got := decode[Result](t, call(t, cs, "run_query", map[string]any{"sql": "SELECT 1 AS one"})); got.RowCount != 1 {
		t.Errorf("after a timeout: %+v", got)
	}
}

// A result too large to be useful as text is sent once, as structured
// content, with a text that says so; a small one is sent as both.
func TestConnectorSendsALargeResultOnce(t *testing.T) {
	cs := newConnector(t, 100000, nil)
	res := call(t, cs, "run_query", map[string]any{"sql": "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 40000) SELECT x, x * 2 AS y, 'a little text to make the rows longer' AS padding FROM s"})
	got := decode[Result](t, res)
	if len(got.Rows) != 40000 || got.Truncated {
		t.Fatalf("%d rows, truncated %v", len(got.Rows), got.Truncated)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if len(text) > 1000 || !strings.Contains(text, "40000 rows") || !strings.Contains(text, "LIMIT") {
		t.Errorf("the text of a large result is not a short note: %.200q", text)
	}
	small := call(t, cs, "run_query", map[string]any{"sql": "SELECT 1 AS one"})
	if text := small.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"rows":[[1]]`) {
		t.Errorf("the text of a small result is not its JSON: %q", text)
	}
}

// binaryResult decodes a binary twin's answer (connector.BinaryQueryTool).
func binaryResult(t *testing.T, res *mcp.CallToolResult) (*quarry.Table, mcp.Meta) {
	t.Helper()
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("answer %s: want one embedded resource", text(res))
	}
	er, ok := res.Content[0].(*mcp.EmbeddedResource)
	if !ok || er.Resource.MIMEType != connector.ResultMIME {
		t.Fatalf("content %#v: want a resource of type %s", res.Content[0], connector.ResultMIME)
	}
	enc, err := io.ReadAll(flate.NewReader(bytes.NewReader(er.Resource.Blob)))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := quarry.DecodeTable(enc)
	if err != nil {
		t.Fatal(err)
	}
	return tab, er.Resource.Meta
}

// TestConnectorBinaryTwin: the binary twin answers run_query's statement
// with the same rows, its values as the connector read them (a count an
// integer, not a JSON number), under the same guard and the same cap.
func TestConnectorBinaryTwin(t *testing.T) {
	cs := newConnector(t, 2, nil)
	sql := "SELECT country, count(*) AS n, min(ordered_at) AS first FROM orders GROUP BY country ORDER BY country"
	tab, meta := binaryResult(t, call(t, cs, connector.BinaryQueryTool, map[string]any{"sql": sql}))
	want := [][]any{{"Finland", int64(1000), "2025-01-01 00:00:00"}, {"Germany", int64(1000), "2025-01-01 00:00:00"}}
	if diff := cmp.Diff(want, tab.Rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	js := decode[Result](t, call(t, cs, "run_query", map[string]any{"sql": sql}))
	if diff := cmp.Diff(js.Columns, columns(tab.Columns)); diff != "" {
		t.Errorf("columns differ from run_query's (-json +binary):\n%s", diff)
	}
	if meta["truncated"] != js.Truncated || meta["row_count"] != float64(js.RowCount) || !js.Truncated {
		t.Errorf("meta %v; run_query says truncated %v, row_count %d", meta, js.Truncated, js.RowCount)
	}
	for _, sql := range []string{"DELETE FROM orders", "SELECT 1; DROP TABLE orders", "WITH x AS (DELETE FROM orders RETURNING id) SELECT * FROM x"} {
		wantToolError(t, call(t, cs, connector.BinaryQueryTool, map[string]any{"sql": sql}), "the guard rejected the statement")
	}
	wantToolError(t, call(t, cs, connector.BinaryQueryTool, map[string]any{"sql": " "}), "sql is empty")
}
