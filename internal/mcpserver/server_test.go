package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

func TestProjectListsItsTools(t *testing.T) {
	p := newProject(t)
	tools, err := p.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	required := map[string][]string{}
	props := map[string][]string{}
	for _, tool := range tools.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Required   []string       `json:"required"`
			Properties map[string]any `json:"properties"`
		}
		json.Unmarshal(b, &s)
		required[tool.Name] = s.Required
		for k := range s.Properties {
			props[tool.Name] = append(props[tool.Name], k)
		}
		slices.Sort(props[tool.Name])
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint || tool.Description == "" {
			t.Errorf("%s: not described or not marked read-only", tool.Name)
		}
	}
	wantRequired := map[string][]string{"ask": {"question"}, "run_query": {"sql"}, "describe": nil, "get_result": {"result_id"}}
	if diff := cmp.Diff(wantRequired, required); diff != "" {
		t.Errorf("tools and required arguments (-want +got):\n%s", diff)
	}
	wantProps := map[string][]string{"ask": {"as_of", "question"}, "run_query": {"max_rows", "sql"}, "get_result": {"limit", "offset", "result_id"}}
	if diff := cmp.Diff(wantProps, props); diff != "" {
		t.Errorf("tool arguments (-want +got):\n%s", diff)
	}
}

func TestProjectAsk(t *testing.T) {
	p := newProject(t)
	res := call(t, p.cs, "ask", map[string]any{"question": "revenue by month in 2025", "as_of": asOf})
	got := decode[AskResult](t, res)
	if got.Status != event.StatusSucceeded || got.SQL == "" || got.Answer == "" || got.RunID == "" || got.ResultID == "" {
		t.Fatalf("ask = %+v", got)
	}
	if got.RowCount != 12 || len(got.Rows) != 12 || len(got.Columns) != 2 {
		t.Errorf("row_count %d, %d preview rows, %d columns; want 12 months of 2 columns", got.RowCount, len(got.Rows), len(got.Columns))
	}
	if len(got.Checks) == 0 || got.Confidence <= 0 {
		t.Errorf("no checks or confidence: %+v", got.Checks)
	}
	md := text(res)
	if n := strings.Count(strings.ToLower(md), "confidence"); n != 1 {
		t.Errorf("text content says its confidence %d times, want once:\n%s", n, md)
	}
	for _, want := range []string{"```sql", "Run " + got.RunID} {
		if !strings.Contains(md, want) {
			t.Errorf("text content lacks %q:\n%s", want, md)
		}
	}
	// The answer is a recorded run.
	st, err := p.st.Run(context.Background(), got.RunID)
	if err != nil || st.Status != event.StatusSucceeded || st.Question != "revenue by month in 2025" {
		t.Errorf("run %s: %+v, %v", got.RunID, st, err)
	}
}

func TestProjectAskNotAnswered(t *testing.T) {
	p := newProject(t)
	res := call(t, p.cs, "ask", map[string]any{"question": "how many unicorns were sold by the wizard department", "as_of": asOf})
	if res.IsError {
		t.Fatalf("an unanswered question is a tool error: %s", text(res))
	}
	got := decode[AskResult](t, res)
	if got.Status != event.StatusUnanswered || got.Message == "" || len(got.Unknown) == 0 {
		t.Errorf("ask = %+v; want unanswered with a message and the unknown words", got)
	}
	if !strings.Contains(text(res), "did not guess") || !strings.Contains(text(res), "Not understood") {
		t.Errorf("text content:\n%s", text(res))
	}
	res = call(t, p.cs, "ask", map[string]any{"question": "delete all orders from Spain", "as_of": asOf})
	got = decode[AskResult](t, res)
	if got.Status != event.StatusRejected || !strings.Contains(text(res), "Refused") {
		t.Errorf("a request to change data: %+v\n%s", got, text(res))
	}
	wantToolError(t, call(t, p.cs, "ask", map[string]any{"question": "revenue", "as_of": "last tuesday"}), "YYYY-MM-DD")
	wantToolError(t, call(t, p.cs, "ask", map[string]any{"question": " "}), "question is empty")
}

func TestProjectRunQueryAndGetResult(t *testing.T) {
	p := newProject(t)
	ctx := context.Background()
	res := call(t, p.cs, "run_query", map[string]any{"sql": "SELECT id, amount FROM orders ORDER BY id", "max_rows": 5})
	got := decode[RunResult](t, res)
	if len(got.Rows) != 5 || got.RowCount != 3000 || !got.Truncated || got.RunID == "" || got.ResultID == "" {
		t.Fatalf("run_query = %d rows, row_count %d, truncated %v, run %q, result %q", len(got.Rows), got.RowCount, got.Truncated, got.RunID, got.ResultID)
	}
	all := decode[RunResult](t, call(t, p.cs, "run_query", map[string]any{"sql": "SELECT id FROM orders WHERE id <= 3"}))
	if len(all.Rows) != 3 || all.RowCount != 3 || all.Truncated {
		t.Errorf("a whole result: %d rows, row_count %d, truncated %v", len(all.Rows), all.RowCount, all.Truncated)
	}
	if diff := cmp.Diff([]any{1.0, 1.5}, got.Rows[0]); diff != "" {
		t.Errorf("first row (-want +got):\n%s", diff)
	}
	if st, err := p.st.Run(ctx, got.RunID); err != nil || st.Status != event.StatusSucceeded || st.SQL == "" {
		t.Errorf("run %s: %+v, %v", got.RunID, st, err)
	}

	// The kept result (1000 rows) pages.
	page := decode[Page](t, call(t, p.cs, "get_result", map[string]any{"result_id": got.ResultID, "offset": 990, "limit": 20}))
	if page.Total != 1000 || len(page.Rows) != 10 || page.NextOffset != nil || !page.Truncated || page.Offset != 990 {
		t.Errorf("last page: total %d, %d rows, next %v, truncated %v", page.Total, len(page.Rows), page.NextOffset, page.Truncated)
	}
	if page.Rows[0][0] != 991.0 {
		t.Errorf("row 990 is %v, want id 991", page.Rows[0])
	}
	page = decode[Page](t, call(t, p.cs, "get_result", map[string]any{"result_id": got.ResultID}))
	if len(page.Rows) != 100 || page.NextOffset == nil || *page.NextOffset != 100 {
		t.Errorf("first page: %d rows, next %v; want 100 and 100", len(page.Rows), page.NextOffset)
	}
	byRun := decode[Page](t, call(t, p.cs, "get_result", map[string]any{"result_id": got.RunID, "limit": 3}))
	if byRun.ResultID != got.ResultID || len(byRun.Rows) != 3 || byRun.Total != 1000 {
		t.Errorf("get_result by run id %s: result %s, %d rows, total %d", got.RunID, byRun.ResultID, len(byRun.Rows), byRun.Total)
	}
	wantToolError(t, call(t, p.cs, "get_result", map[string]any{"result_id": "res_nope"}), "ids come from ask or run_query")
	wantToolError(t, call(t, p.cs, "get_result", map[string]any{"result_id": got.ResultID, "limit": 5000}), "between 1 and 1000")
	wantToolError(t, call(t, p.cs, "run_query", map[string]any{"sql": "SELECT 1", "max_rows": 1001}), "between 1 and 1000")
}

func TestProjectRunQueryIsGuardedAndRecorded(t *testing.T) {
	p := newProject(t)
	res := call(t, p.cs, "run_query", map[string]any{"sql": "DROP TABLE orders"})
	wantToolError(t, res, "the guard rejected the statement")
	runs, err := p.st.Runs(context.Background(), store.RunFilter{Kind: "run"})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Status != event.StatusRejected || !strings.Contains(text(res), runs[0].RunID) {
		t.Errorf("the rejection is not a recorded run named in the error: %+v\n%s", runs, text(res))
	}
	wantToolError(t, call(t, p.cs, "run_query", map[string]any{"sql": "SELECT no_such FROM orders"}), "no such column")
}

func TestProjectKeepsRestrictedColumnsFromTheClient(t *testing.T) {
	p := newProject(t)
	for _, sql := range []string{"SELECT email FROM orders", `SELECT "EMAIL" AS contact FROM orders`, "SELECT id FROM orders WHERE email LIKE '%'",
		"SELECT * FROM orders", "SELECT o.* FROM orders o", "SELECT id FROM orders ORDER BY email",
		"SELECT total AS pad, id FROM orders WHERE id < 0 UNION ALL SELECT * FROM (SELECT email, id FROM orders)"} {
		wantToolError(t, call(t, p.cs, "run_query", map[string]any{"sql": sql}), "restricted")
	}
	// A column called like a restricted one is still hidden by name, the
	// last line behind the lineage check.
	got := decode[RunResult](t, call(t, p.cs, "run_query", map[string]any{"sql": "SELECT id AS email FROM orders", "max_rows": 3}))
	page := decode[Page](t, call(t, p.cs, "get_result", map[string]any{"result_id": got.ResultID, "limit": 3}))
	for _, rows := range [][][]any{got.Rows, page.Rows} {
		b, _ := json.Marshal(rows)
		if strings.Contains(string(b), "@example.com") || !strings.Contains(string(b), redactedValue) {
			t.Errorf("rows are not redacted: %s", b)
		}
	}
	d := decode[Description](t, call(t, p.cs, "describe", nil))
	for _, tb := range d.Tables {
		for _, c := range tb.Columns {
			if c.Restricted != (c.Name == "email") {
				t.Errorf("column %s.%s restricted = %v", tb.Name, c.Name, c.Restricted)
			}
		}
	}
}

func TestProjectDescribe(t *testing.T) {
	p := newProject(t)
	d := decode[Description](t, call(t, p.cs, "describe", map[string]any{}))
	if d.Connection != (DescConnection{Name: "shop", Dialect: quarry.DialectSQLite}) || d.Knowledge == "" {
		t.Errorf("connection %+v, knowledge %q", d.Connection, d.Knowledge)
	}
	if len(d.Tables) != 1 || d.Tables[0].Name != "orders" || d.Tables[0].RowCount != 3000 || len(d.Tables[0].Columns) != 6 || d.Tables[0].Description == "" {
		t.Errorf("tables = %+v", d.Tables)
	}
	var metrics []string
	for _, m := range d.Metrics {
		metrics = append(metrics, m.Name+"/"+m.Entity)
	}
	if diff := cmp.Diff([]string{"revenue/orders", "order_count/orders"}, metrics); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
	if len(d.Dimensions) != 2 || d.Dimensions[0].Name != "order_date" || len(d.Dimensions[0].Grains) != 5 {
		t.Errorf("dimensions = %+v", d.Dimensions)
	}
	if diff := cmp.Diff([]Verified{{Question: "How many orders are there?", SQL: "SELECT COUNT(*) AS orders FROM orders;"}}, d.Verified); diff != "" {
		t.Errorf("verified queries (-want +got):\n%s", diff)
	}
}
