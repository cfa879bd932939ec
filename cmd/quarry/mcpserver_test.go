package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
)

// inProcess is quarry running in this process with args, its stdin and
// stdout piped to an MCP client session.
type inProcess struct {
	cs   *mcp.ClientSession
	code chan int
}

// mcpInProcess runs quarry with args and connects an MCP client to its
// standard input and output.
func mcpInProcess(t *testing.T, env map[string]string, args ...string) *inProcess {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errR, errW := io.Pipe()
	p := &inProcess{code: make(chan int, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		p.code <- run(ctx, args, inR, outW, errW, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		outW.Close()
		errW.Close()
	}()
	go io.Copy(io.Discard, errR) // diagnostics; stdout carries only MCP
	cctx, ccancel := context.WithTimeout(context.Background(), time.Minute)
	defer ccancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(cctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		cancel()
		t.Fatalf("initialize quarry %s: %v", strings.Join(args, " "), err)
	}
	p.cs = cs
	t.Cleanup(func() {
		cs.Close()
		select {
		case code := <-p.code:
			if code != 0 {
				t.Errorf("quarry %s exited %d when its client went away, want 0", strings.Join(args, " "), code)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("quarry %s did not exit when its stdin closed", strings.Join(args, " "))
		}
		cancel()
	})
	return p
}

func callJSON(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var m map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &m)
	return res, m
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestConnectorSQLiteServesMCP(t *testing.T) {
	dir := project(t)
	p := mcpInProcess(t, nil, "connector", "sqlite", filepath.Join(dir, "shop.db"), "--max-rows", "50")
	ctx := context.Background()
	tools, err := p.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"run_query", connector.BinaryQueryTool}) {
		t.Errorf("tools = %v, want run_query and its binary twin", names)
	}
	res, m := callJSON(t, p.cs, "run_query", map[string]any{"sql": "SELECT name FROM customers ORDER BY id"})
	if res.IsError || m["row_count"] != 3.0 || m["truncated"] != false {
		t.Errorf("run_query: %s", textOf(res))
	}
	res, m = callJSON(t, p.cs, "run_query", map[string]any{"sql": "SELECT id FROM orders"})
	if res.IsError || m["row_count"] != 50.0 || m["truncated"] != true {
		t.Errorf("run_query with --max-rows 50: row_count %v truncated %v", m["row_count"], m["truncated"])
	}
	for _, sql := range []string{"DELETE FROM orders", "INSERT INTO customers VALUES (9, 'x', 'y', NULL)", "PRAGMA writable_schema = 1"} {
		res, _ = callJSON(t, p.cs, "run_query", map[string]any{"sql": sql})
		if !res.IsError || !strings.Contains(textOf(res), "guard rejected") {
			t.Errorf("%s: not refused by the guard: %s", sql, textOf(res))
		}
	}
	r, err := p.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "quarry://schema/customers"})
	if err != nil || !strings.Contains(r.Contents[0].Text, `"signup_date"`) {
		t.Errorf("quarry://schema/customers: %v %v", r, err)
	}
	_, m = callJSON(t, p.cs, "run_query", map[string]any{"sql": "SELECT count(*) AS n FROM customers"})
	if rows, _ := m["rows"].([]any); len(rows) != 1 || rows[0].([]any)[0] != 3.0 {
		t.Errorf("after the refusals: %v (nothing may have been written)", m)
	}
}

func TestConnectorPostgresNeedsDatabaseURL(t *testing.T) {
	r := quarryCtx(t, context.Background(), "", "connector", "postgres")
	if r.code != 3 || !strings.Contains(r.stderr, "set DATABASE_URL") || r.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	oneLineError(t, r)
}

func TestMCPRefusesRemoteWithoutAllowRemote(t *testing.T) {
	for _, args := range [][]string{{"mcp", "--http", "0.0.0.0:0"}, {"connector", "sqlite", "x.db", "--http", "192.0.2.1:0"}} {
		r := quarryCtx(t, context.Background(), "", args...)
		// quarry mcp asks who is asking (docs/auth.md); the connector
		// servers do not, and warn.
		warns := args[0] == "connector"
		if r.code != 2 || !strings.Contains(r.stderr, "without --allow-remote") || strings.Contains(r.stderr, "warning") != warns {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

func TestQuarryMCPOnTheDemo(t *testing.T) {
	demo := demoProject(t)
	p := mcpInProcess(t, nil, "-C", demo, "mcp")
	if got := p.cs.InitializeResult().ServerInfo.Name; got != "quarry" {
		t.Errorf("server name %q", got)
	}
	res, ask := callJSON(t, p.cs, "ask", map[string]any{"question": "revenue by month in 2025", "as_of": "2026-06-30"})
	if res.IsError || ask["status"] != "succeeded" || ask["sql"] == nil || ask["row_count"] != 12.0 {
		t.Fatalf("ask: %v\n%s", ask, textOf(res))
	}
	if !strings.Contains(textOf(res), "```sql") {
		t.Errorf("ask's text is not a Markdown answer with its SQL:\n%s", textOf(res))
	}
	res, ask2 := callJSON(t, p.cs, "ask", map[string]any{"question": "how many flux capacitors did the moon base order", "as_of": "2026-06-30"})
	if res.IsError || ask2["status"] != "unanswered" {
		t.Errorf("an unanswerable question: %v\n%s", ask2, textOf(res))
	}
	res, _ = callJSON(t, p.cs, "run_query", map[string]any{"sql": "SELECT id, email FROM customers ORDER BY id", "max_rows": 2})
	if !res.IsError || !strings.Contains(textOf(res), "restricted") {
		t.Errorf("a restricted column was not refused: %s", textOf(res))
	}
	// A star reads the restricted column too: refused, as SQLite's
	// authorizer reports every column it would read.
	res, _ = callJSON(t, p.cs, "run_query", map[string]any{"sql": "SELECT * FROM customers ORDER BY id", "max_rows": 2})
	if !res.IsError || !strings.Contains(textOf(res), "customers.email") || strings.Contains(textOf(res), "@") {
		t.Errorf("run_query SELECT *: %s", textOf(res))
	}
	res, rq := callJSON(t, p.cs, "run_query", map[string]any{"sql": "SELECT id, name, country FROM customers ORDER BY id", "max_rows": 2})
	if res.IsError || len(rq["rows"].([]any)) != 2 || strings.Contains(textOf(res), "@") {
		t.Errorf("run_query of unrestricted columns: %s", textOf(res))
	}
	res, _ = callJSON(t, p.cs, "run_query", map[string]any{"sql": "UPDATE customers SET name = 'x'"})
	if !res.IsError || !strings.Contains(textOf(res), "guard rejected") {
		t.Errorf("an UPDATE was not refused: %s", textOf(res))
	}
	res, desc := callJSON(t, p.cs, "describe", nil)
	if res.IsError || !strings.Contains(textOf(res), `"restricted":true`) || len(desc["metrics"].([]any)) == 0 || len(desc["verified_queries"].([]any)) == 0 {
		t.Errorf("describe: %s", textOf(res))
	}
	res, page := callJSON(t, p.cs, "get_result", map[string]any{"result_id": ask["result_id"], "offset": 10, "limit": 5})
	if res.IsError || len(page["rows"].([]any)) != 2 || page["total"] != 12.0 {
		t.Errorf("get_result: %s", textOf(res))
	}
	// Each ask and run_query is a recorded run.
	r := quarryCtx(t, context.Background(), "", "-C", demo, "runs", "show", ask["run_id"].(string))
	if r.code != 0 || !strings.Contains(r.stdout, "revenue by month in 2025") {
		t.Errorf("runs show %s: exit %d\n%s%s", ask["run_id"], r.code, r.stdout, r.stderr)
	}
}

var servingRE2 = regexp.MustCompile(`serving MCP on (http://\S+)`)

func TestConnectorOverStreamableHTTP(t *testing.T) {
	dir := project(t)
	ctx, cancel := context.WithCancel(context.Background())
	errR, errW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"connector", "sqlite", filepath.Join(dir, "shop.db"), "--http", "127.0.0.1:0"}, strings.NewReader(""), io.Discard, errW, func(string) (string, bool) { return "", false })
		errW.Close()
	}()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(errR)
		for sc.Scan() {
			if m := servingRE2.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	var url string
	select {
	case url = <-found:
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("quarry connector --http did not say where it serves")
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, m := callJSON(t, cs, "run_query", map[string]any{"sql": "SELECT count(*) AS n FROM orders"})
	if res.IsError || m["row_count"] != 1.0 {
		t.Errorf("run_query over HTTP: %s", textOf(res))
	}
	cs.Close()
	cancel() // Ctrl-C
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit %d after Ctrl-C, want 0", c)
		}
	case <-time.After(15 * time.Second):
		t.Error("quarry connector --http did not stop on Ctrl-C")
	}
}

// TestQuarryMCPAskWithAModel: with a model configured, quarry mcp's ask
// goes through the agent as quarry ask does (a fake Anthropic server).
func TestQuarryMCPAskWithAModel(t *testing.T) {
	dir := project(t)
	srv := llmtest.NewAnthropicServer(t, "sk-test", answers()...)
	p := mcpInProcess(t, map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}, "-C", dir, "mcp")
	res, got := callJSON(t, p.cs, "ask", map[string]any{"question": "how many customers per country?"})
	if res.IsError || got["sql"] != byCountry || got["status"] != "succeeded" || !strings.Contains(textOf(res), "Each country") {
		t.Fatalf("ask with a model: %v\n%s", got, textOf(res))
	}
	if st := lastRun(t, dir); !strings.HasPrefix(st.Planner, "anthropic:") || st.ToolCalls != 2 {
		t.Errorf("run: planner %q, tool calls %d", st.Planner, st.ToolCalls)
	}
}

// TestQuarryMCPWithoutKnowledge: a project that has not run quarry learn
// is still served: SQL runs, describe reads the live schema, and ask says
// what it does not know instead of failing.
func TestQuarryMCPWithoutKnowledge(t *testing.T) {
	dir := project(t)
	p := mcpInProcess(t, nil, "-C", dir, "mcp")
	res, got := callJSON(t, p.cs, "run_query", map[string]any{"sql": "SELECT count(*) AS n FROM orders"})
	if res.IsError || !strings.Contains(textOf(res), "5000") {
		t.Errorf("run_query without knowledge: %v %s", got, textOf(res))
	}
	res, _ = callJSON(t, p.cs, "describe", map[string]any{})
	if res.IsError || !strings.Contains(textOf(res), "customers") {
		t.Errorf("describe without knowledge: %s", textOf(res))
	}
	res, got = callJSON(t, p.cs, "ask", map[string]any{"question": "how many orders?"})
	if res.IsError && !strings.Contains(textOf(res), "learn") {
		t.Errorf("ask without knowledge fails without saying what to do: %s", textOf(res))
	}
	if !res.IsError && got["status"] != "unanswered" {
		t.Errorf("ask without knowledge: status %v, want unanswered: %v", got["status"], got)
	}
}
