package mcpserver

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/rowpipe"
)

// pipedConnector serves the shop with a result pipe, as `quarry connector`
// does when the quarry client that started it gave one, and returns the
// session and the frames read from the pipe.
func pipedConnector(t *testing.T, cfg ConnectorConfig) (*mcp.ClientSession, <-chan rowpipe.Frame) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); r.Close() })
	frames := make(chan rowpipe.Frame, 1024)
	go func() {
		defer close(frames)
		rd := rowpipe.NewReader(r)
		if rd.Hello("tok") != nil {
			return
		}
		for {
			f, err := rd.Next(nil)
			if err != nil {
				return
			}
			frames <- f
		}
	}()
	if cfg.Pipe, err = rowpipe.NewWriter(w, "tok"); err != nil {
		t.Fatal(err)
	}
	conn, g := openShop(t)
	cfg.Name, cfg.Exec, cfg.Guard, cfg.Version = "SQLite database shop.db", conn, g, "test"
	srv, err := NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, srv), frames
}

// pipedRows reads the frames of call up to its end and decodes its parts.
func pipedRows(t *testing.T, frames <-chan rowpipe.Frame, call uint64) (*quarry.Table, rowpipe.End, int) {
	t.Helper()
	tab := &quarry.Table{}
	var lim quarry.DecodeLimits
	parts := 0
	for f := range frames {
		if f.Call != call {
			t.Fatalf("a frame of call %d before the end of call %d", f.Call, call)
		}
		if f.Kind == rowpipe.KindEnd {
			e, err := rowpipe.ParseEnd(f.Payload)
			if err != nil {
				t.Fatal(err)
			}
			return tab, e, parts
		}
		part, err := quarry.DecodeTablePart(f.Payload, &lim)
		if err != nil {
			t.Fatal(err)
		}
		parts++
		tab.Columns = part.Columns
		tab.Rows = append(tab.Rows, part.Rows...)
	}
	t.Fatal("the pipe ended before the call's end")
	return nil, rowpipe.End{}, 0
}

// TestConnectorPipedTool: with a result pipe, the server lists the piped
// tool, which answers run_query's statement under the same guard and cap:
// the rows on the pipe, in parts, are the binary twin's; the end and the
// answer's _meta say how many and whether the cap stopped them; a refused
// statement writes nothing on the pipe.
func TestConnectorPipedTool(t *testing.T) {
	cs, frames := pipedConnector(t, ConnectorConfig{MaxRows: 2})
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(tools.Tools, func(tl *mcp.Tool) bool { return tl.Name == rowpipe.Tool }) {
		t.Fatalf("no %s among the tools of a server with a pipe", rowpipe.Tool)
	}
	sql := "SELECT country, count(*) AS n, min(ordered_at) AS first FROM orders GROUP BY country ORDER BY country"
	// Refused statements come first: their calls write no frame, so the
	// first frame read is the good call's.
	for _, bad := range []string{"DELETE FROM orders", "SELECT 1; DROP TABLE orders", " "} {
		res := call(t, cs, rowpipe.Tool, map[string]any{"sql": bad, "call": 1})
		if !res.IsError || res.Meta["piped"] != nil {
			t.Errorf("%q: answer %s, meta %v: want an error that piped nothing", bad, text(res), res.Meta)
		}
	}
	res := call(t, cs, rowpipe.Tool, map[string]any{"sql": sql, "call": 2})
	got, end, _ := pipedRows(t, frames, 2)
	want, _ := binaryResult(t, call(t, cs, connector.BinaryQueryTool, map[string]any{"sql": sql}))
	if diff := cmp.Diff(want.Rows, got.Rows); diff != "" {
		t.Errorf("piped rows differ from the binary twin's (-binary +piped):\n%s", diff)
	}
	if diff := cmp.Diff(want.Columns, got.Columns); diff != "" {
		t.Errorf("columns (-binary +piped):\n%s", diff)
	}
	if end != (rowpipe.End{Rows: 2, Truncated: true}) {
		t.Errorf("end %+v, want 2 rows, truncated", end)
	}
	if res.IsError || res.Meta["piped"] != true || res.Meta["row_count"] != float64(2) || res.Meta["truncated"] != true {
		t.Errorf("answer %s, meta %v", text(res), res.Meta)
	}
	// No rows: one part with the columns.
	call(t, cs, rowpipe.Tool, map[string]any{"sql": "SELECT id FROM orders WHERE 0", "call": 3})
	if empty, end, parts := pipedRows(t, frames, 3); parts != 1 || len(empty.Columns) != 1 || len(empty.Rows) != 0 || end.Rows != 0 {
		t.Errorf("no rows: %d parts, %v, end %+v", parts, empty, end)
	}
}

// TestConnectorPipesInParts: a long result goes in several parts, as it is
// read; one over the server's result limit stops with an end that says
// why, after the parts sent, and the answer is an error that says it
// piped.
func TestConnectorPipesInParts(t *testing.T) {
	sql := "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 40000) SELECT x, x * 2 AS y, 'a little text to make the rows longer' AS padding FROM s"
	cs, frames := pipedConnector(t, ConnectorConfig{MaxRows: 100000})
	res := call(t, cs, rowpipe.Tool, map[string]any{"sql": sql, "call": 9})
	got, end, parts := pipedRows(t, frames, 9)
	if len(got.Rows) != 40000 || end.Rows != 40000 || end.Truncated || parts < 3 || res.IsError {
		t.Fatalf("%d rows in %d parts, end %+v, answer %s", len(got.Rows), parts, end, text(res))
	}
	if got.Rows[39999][0] != int64(40000) || got.Rows[0][2] != "a little text to make the rows longer" {
		t.Errorf("rows %v … %v", got.Rows[0], got.Rows[39999])
	}

	cs, frames = pipedConnector(t, ConnectorConfig{MaxRows: 100000, MaxResultBytes: 1 << 20})
	res = call(t, cs, rowpipe.Tool, map[string]any{"sql": sql, "call": 1})
	got, end, _ = pipedRows(t, frames, 1)
	if !strings.Contains(end.Error, "max_result_bytes") || len(got.Rows) == 0 || int64(len(got.Rows)) != end.Rows {
		t.Errorf("over the result limit: %d rows, end %+v", len(got.Rows), end)
	}
	wantToolError(t, res, "max_result_bytes")
	if res.Meta["piped"] != true {
		t.Errorf("the error's meta %v does not say it piped", res.Meta)
	}
}
