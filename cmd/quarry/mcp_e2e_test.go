package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// These tests run quarry as real processes on both sides of MCP: the CLI
// configured with an MCP connector that starts `quarry connector sqlite`
// (stdio) or reaches `quarry connector sqlite --http` (streamable HTTP),
// `quarry mcp` driven by the official SDK's client, and stdio servers that
// crash, hang or write garbage.

var builtOnce struct {
	sync.Once
	dir, bin, pristine, demo string
	err                      error
}

// builtDemo builds the quarry binary and a demo project with it, once per
// test binary. The project must not be changed by tests: copy what you
// change.
func builtDemo(t *testing.T) (bin, demo string) {
	t.Helper()
	bin, _ = builtBinary(t)
	return bin, builtOnce.demo
}

// builtBinary builds the quarry binary and a pristine demo project once per
// test binary: linking quarry takes tens of seconds, so every test that runs
// it as a process shares one. Nothing ever runs in the pristine project;
// copy it (os.CopyFS) for a project of your own.
func builtBinary(t *testing.T) (bin, pristine string) {
	t.Helper()
	if raceEnabled {
		t.Skip("building the demo database is too slow under the race detector; the plain test pass runs this test")
	}
	return buildQuarry(t)
}

// buildQuarry is builtBinary, under the race detector too, for the tests
// whose own goroutines are worth its checks while quarry runs as a plain
// process; and for benchmarks.
func buildQuarry(t testing.TB) (bin, pristine string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary and the demo database; skipped with -short")
	}
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "quarry-e2e-")
		if err != nil {
			builtOnce.err = err
			return
		}
		builtOnce.dir = dir
		// scripts/test.sh builds the binary and the demo project once from
		// this checkout and names them, sparing each test pass the build.
		if bin, demo := os.Getenv("QUARRY_TEST_BINARY"), os.Getenv("QUARRY_TEST_DEMO_PROJECT"); bin != "" && demo != "" {
			builtOnce.bin, builtOnce.pristine = bin, demo
			builtOnce.demo = filepath.Join(dir, "demo")
			builtOnce.err = os.CopyFS(builtOnce.demo, os.DirFS(demo))
			return
		}
		builtOnce.bin = filepath.Join(dir, "quarry")
		if out, err := exec.Command("go", "build", "-o", builtOnce.bin, ".").CombinedOutput(); err != nil {
			builtOnce.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		builtOnce.pristine = filepath.Join(dir, "pristine")
		c := exec.Command(builtOnce.bin, "init", "--demo", "--anchor", "2026-06-30", builtOnce.pristine)
		c.Env = keylessEnv()
		if out, err := c.CombinedOutput(); err != nil {
			builtOnce.err = fmt.Errorf("quarry init --demo: %v\n%s", err, out)
			return
		}
		builtOnce.demo = filepath.Join(dir, "demo")
		builtOnce.err = os.CopyFS(builtOnce.demo, os.DirFS(builtOnce.pristine))
	})
	if builtOnce.err != nil {
		t.Fatal(builtOnce.err)
	}
	return builtOnce.bin, builtOnce.pristine
}

// procResult is what one quarry process did.
type procResult struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

// quarryProc runs the built binary with args in dir and a keyless
// environment, bounded by a minute.
func quarryProc(t *testing.T, bin, dir string, args ...string) procResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, bin, args...)
	c.Dir = dir
	c.Env = keylessEnv()
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	start := time.Now()
	err := c.Run()
	r := procResult{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("quarry %s: %v", strings.Join(args, " "), err)
	}
	if ctx.Err() != nil {
		t.Fatalf("quarry %s did not finish within a minute\n%s", strings.Join(args, " "), r.stderr)
	}
	return r
}

// mcpProject writes a project folder beside the demo whose one connection
// is conn (YAML lines under the connection's name), sharing the demo's
// knowledge folder, with its own state database.
func mcpProject(t *testing.T, demo string, limits string, conn ...string) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nproject: mcp\nknowledge: %s\nstate: .quarry/state.db\nmodel:\n  provider: builtin\n", filepath.Join(demo, "knowledge"))
	if limits != "" {
		b.WriteString("limits:\n" + limits)
	}
	b.WriteString("connections:\n  shop:\n")
	for _, l := range conn {
		b.WriteString("    " + l + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// askMCPJSON asks a question with --json and returns the parts of the answer
// that must not depend on how the database was reached.
func askMCPJSON(t *testing.T, bin, dir, question string) map[string]any {
	t.Helper()
	r := quarryProc(t, bin, dir, "ask", "--json", "--as-of", "2026-06-30", question)
	if r.code != 0 {
		t.Fatalf("quarry ask %q in %s: exit %d\n%s", question, dir, r.code, r.stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("ask --json is not JSON: %v\n%s", err, r.stdout)
	}
	keep := map[string]any{}
	for _, k := range []string{"answer", "sql", "columns", "rows", "row_count", "checks", "confidence"} {
		keep[k] = got[k]
	}
	return keep
}

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

var e2eQuestions = []string{
	"revenue by month in 2025",
	"How many orders did we get in 2025?",
	"top 5 products by revenue in 2025",
}

func TestMCPConnectorOverStdio(t *testing.T) {
	bin, demo := builtDemo(t)
	db := filepath.Join(demo, "demo.db")
	before := fileHash(t, db)
	dir := mcpProject(t, demo, "", "driver: mcp", "command: quarry", "args: [connector, sqlite, "+db+"]", "dialect: sqlite")

	for _, q := range e2eQuestions {
		t.Run(q, func(t *testing.T) {
			want := askMCPJSON(t, bin, demo, q)
			got := askMCPJSON(t, bin, dir, q)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the answer through MCP differs from the direct one (-direct +mcp):\n%s", diff)
			}
		})
	}

	t.Run("doctor starts the server", func(t *testing.T) {
		r := quarryProc(t, bin, dir, "doctor")
		if !strings.Contains(r.stdout, "ok    connection shop: quarry-sqlite") || !strings.Contains(r.stdout, "run_query(sql)") {
			t.Errorf("doctor does not say that the server answers:\n%s", r.stdout)
		}
	})

	t.Run("run", func(t *testing.T) {
		r := quarryProc(t, bin, dir, "run", "--format", "csv", "SELECT country, COUNT(*) AS n FROM customers GROUP BY country ORDER BY n DESC, country LIMIT 3")
		want := quarryProc(t, bin, demo, "run", "--format", "csv", "SELECT country, COUNT(*) AS n FROM customers GROUP BY country ORDER BY n DESC, country LIMIT 3")
		if r.code != 0 || r.stdout != want.stdout {
			t.Fatalf("run through MCP: exit %d, stdout %q, want %q\n%s", r.code, r.stdout, want.stdout, r.stderr)
		}
	})

	t.Run("the server's row cap is said, not hidden", func(t *testing.T) {
		r := quarryProc(t, bin, dir, "run", "--format", "csv", "SELECT id FROM order_items")
		if r.code != 0 || strings.Count(r.stdout, "\n") != 10001 || !strings.Contains(r.stderr, "sent only the first 10000 rows") {
			t.Errorf("an export past quarry connector's default --max-rows: exit %d, %d lines\n%s", r.code, strings.Count(r.stdout, "\n"), r.stderr)
		}
	})

	// The column policy reads a statement to a SQLite database behind the
	// server with SQLite itself, on an empty copy of the schema: SQL only
	// SQLite reads is answered (it was refused as PostgreSQL could not
	// parse it), and restricted columns stay refused however they are
	// reached.
	t.Run("the column policy reads SQLite's own SQL", func(t *testing.T) {
		q := "average order value by month in 2025"
		if diff := cmp.Diff(askMCPJSON(t, bin, demo, q), askMCPJSON(t, bin, dir, q)); diff != "" {
			t.Errorf("%s through MCP (-direct +mcp):\n%s", q, diff)
		}
		if r := quarryProc(t, bin, dir, "run", "--format", "csv", `SELECT 1 AS "", a.id IS b.id AS same FROM customers a JOIN customers b ON a.id IS b.id LIMIT 1`); r.code != 0 {
			t.Errorf("SQLite's IS and an empty alias: exit %d\n%s", r.code, r.stderr)
		}
		for _, sql := range []string{
			"SELECT email FROM customers",
			"SELECT * FROM customers",
			"SELECT c.EMAIL AS x FROM customers AS c",
			"SELECT count(*) FROM customers WHERE email LIKE 'a%'",
			"SELECT id FROM customers ORDER BY email",
			"SELECT (SELECT max(email) FROM customers) AS m",
			"WITH x AS (SELECT email AS e FROM customers) SELECT length(e) FROM x",
			`SELECT "email" FROM "customers"`,
			// What the copy of the schema lacks and the real database
			// has (an outside tester's): refused, not sent unchecked.
			"SELECT email FROM customers INDEXED BY customers_signup_date LIMIT 1",
			"SELECT email FROM customers WHERE EXISTS (SELECT 1 FROM sqlite_stat1) LIMIT 2",
			"SELECT c.* FROM customers c, sqlite_stat1 s LIMIT 2",
			"SELECT count(*) FROM customers c, sqlite_stat4 s WHERE c.\"EMAIL\" LIKE 'a%'",
			"SELECT * FROM sqlite_stat1",
			"SELECT * FROM no_such_table",
		} {
			r := quarryProc(t, bin, dir, "run", "--format", "csv", sql)
			if r.code != 1 || !strings.Contains(r.stderr, "restricted") && !strings.Contains(r.stderr, "copy of the database's schema") {
				t.Errorf("%s: exit %d, want refused\n%s%s", sql, r.code, r.stdout, r.stderr)
			}
		}
	})

	t.Run("writes are refused before they reach the server", func(t *testing.T) {
		for _, sql := range []string{"DELETE FROM customers", "CREATE TABLE x (a INT)", "SELECT 1; DROP TABLE customers"} {
			r := quarryProc(t, bin, dir, "run", sql)
			if r.code != 1 {
				t.Errorf("run %q: exit %d, want 1 (refused)\n%s", sql, r.code, r.stderr)
			}
		}
	})

	t.Run("learn reads the schema through the server", func(t *testing.T) {
		ldir := t.TempDir()
		yaml := "version: 1\nknowledge: knowledge\nconnections:\n  shop:\n    driver: mcp\n    command: quarry\n    args: [connector, sqlite, " + db + "]\n    dialect: sqlite\n"
		if err := os.WriteFile(filepath.Join(ldir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		r := quarryProc(t, bin, ldir, "learn")
		if r.code != 0 {
			t.Fatalf("learn through MCP: exit %d\n%s", r.code, r.stderr)
		}
		model, err := os.ReadFile(filepath.Join(ldir, "knowledge", "model.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"customers", "order_items", "products", "subscriptions"} {
			if !strings.Contains(string(model), want) {
				t.Errorf("model.yaml learned through MCP lacks %q", want)
			}
		}
		if !strings.Contains(string(model), "relationships") {
			t.Errorf("model.yaml learned through MCP has no relationships")
		}
	})

	t.Run("a result larger than max_bytes is refused while it is read", func(t *testing.T) {
		small := mcpProject(t, demo, "", "driver: mcp", "command: quarry", "args: [connector, sqlite, "+db+"]", "dialect: sqlite", "max_bytes: 4096")
		// The catalog does not fit in 4096 bytes either, and without it
		// the column policy refuses every statement that reads a table;
		// --no-policy (the user's own terminal) lets the read be tried.
		r := quarryProc(t, bin, small, "run", "--no-policy", "--format", "csv", "SELECT * FROM order_items")
		if r.code != quarry.ExitQuery || !strings.Contains(r.stderr, "larger than 4096 bytes") || r.stdout != "" {
			t.Errorf("a large result over max_bytes: exit %d, stdout %d bytes\n%s", r.code, len(r.stdout), r.stderr)
		}
		if r := quarryProc(t, bin, small, "run", "--no-policy", "--format", "csv", "SELECT count(*) AS n FROM order_items"); r.code != 0 {
			t.Errorf("a small result under max_bytes: exit %d\n%s", r.code, r.stderr)
		}
	})

	if fileHash(t, db) != before {
		t.Fatalf("the demo database changed")
	}
}

// servedConnector is `quarry connector sqlite --http` running as a process.
type servedConnector struct {
	url  string
	cmd  *exec.Cmd
	done chan error
	log  *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var servingRE = regexp.MustCompile(`serving MCP on (http://\S+)`)

// startHTTPServer starts bin with args (a command that serves MCP over
// streamable HTTP on 127.0.0.1:0) and returns the URL it prints.
func startHTTPServer(t *testing.T, bin, dir string, args ...string) *servedConnector {
	t.Helper()
	c := exec.Command(bin, args...)
	c.Dir = dir
	c.Env = keylessEnv()
	pr, pw := io.Pipe()
	s := &servedConnector{cmd: c, done: make(chan error, 1), log: &syncBuffer{}}
	c.Stdout = s.log
	c.Stderr = io.MultiWriter(s.log, pw)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- c.Wait(); pw.Close() }()
	t.Cleanup(func() {
		c.Process.Signal(os.Interrupt)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			c.Process.Kill()
			t.Errorf("quarry %s did not stop within 10s of Ctrl-C", args[0])
		}
		if t.Failed() {
			t.Logf("quarry %s output:\n%s", strings.Join(args, " "), s.log.String())
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case s.url = <-found:
	case <-time.After(30 * time.Second):
		t.Fatalf("quarry %s did not say where it serves within 30s\n%s", strings.Join(args, " "), s.log.String())
	}
	return s
}

func TestMCPConnectorOverStreamableHTTP(t *testing.T) {
	bin, demo := builtDemo(t)
	db := filepath.Join(demo, "demo.db")
	srv := startHTTPServer(t, bin, t.TempDir(), "connector", "sqlite", db, "--http", "127.0.0.1:0")
	dir := mcpProject(t, demo, "", "driver: mcp", "url: "+srv.url, "dialect: sqlite")
	for _, q := range e2eQuestions[:2] {
		want := askMCPJSON(t, bin, demo, q)
		got := askMCPJSON(t, bin, dir, q)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q: the answer over streamable HTTP differs from the direct one (-direct +mcp):\n%s", q, diff)
		}
	}
	r := quarryProc(t, bin, dir, "run", "UPDATE customers SET country = 'x'")
	if r.code != 1 {
		t.Errorf("an UPDATE through the HTTP connector: exit %d, want 1\n%s", r.code, r.stderr)
	}
}

// exerciseQuarryMCP drives `quarry mcp` through the tools a client uses.
func exerciseQuarryMCP(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	for _, want := range []string{"ask", "run_query", "describe", "get_result"} {
		if !strings.Contains(","+strings.Join(names, ",")+",", ","+want+",") {
			t.Errorf("tools/list = %v, want %s among them", names, want)
		}
	}

	res, ask := callJSON(t, cs, "ask", map[string]any{"question": "revenue by month in 2025", "as_of": "2026-06-30"})
	if res.IsError {
		t.Fatalf("ask: %s", textOf(res))
	}
	if !strings.Contains(textOf(res), "186,013.13") {
		t.Errorf("ask's text lacks January 2025's revenue:\n%s", textOf(res))
	}
	if ask["sql"] == "" || ask["run_id"] == "" || ask["result_id"] == nil {
		t.Errorf("ask's structured content lacks sql, run_id or result_id: %v", ask)
	}

	res, rq := callJSON(t, cs, "run_query", map[string]any{"sql": "SELECT id, name FROM products ORDER BY id", "max_rows": 5})
	if res.IsError {
		t.Fatalf("run_query: %s", textOf(res))
	}
	rows, _ := rq["rows"].([]any)
	if len(rows) != 5 || rq["truncated"] != true {
		t.Errorf("run_query with max_rows 5: %d rows, truncated %v", len(rows), rq["truncated"])
	}

	res, _ = callJSON(t, cs, "run_query", map[string]any{"sql": "DELETE FROM products"})
	if !res.IsError {
		t.Errorf("run_query DELETE was not refused: %s", textOf(res))
	}

	res, desc := callJSON(t, cs, "describe", map[string]any{})
	if res.IsError || !strings.Contains(fmt.Sprint(desc), "revenue") || !strings.Contains(fmt.Sprint(desc), "customers") {
		t.Errorf("describe lacks the revenue metric or the customers table: %s", textOf(res))
	}

	id, _ := ask["result_id"].(string)
	res, page := callJSON(t, cs, "get_result", map[string]any{"result_id": id, "offset": 10, "limit": 5})
	if res.IsError {
		t.Fatalf("get_result %s: %s", id, textOf(res))
	}
	if rows, _ := page["rows"].([]any); len(rows) != 2 {
		t.Errorf("get_result offset 10 of 12 rows: %d rows, want 2: %v", len(rows), page)
	}
	res, _ = callJSON(t, cs, "get_result", map[string]any{"result_id": "res_nope"})
	if !res.IsError {
		t.Errorf("get_result of an unknown id was not an error")
	}
}

func TestQuarryMCPOverStdio(t *testing.T) {
	bin, demo := builtDemo(t)
	c := exec.Command(bin, "-C", demo, "mcp")
	c.Env = keylessEnv()
	var stderr syncBuffer
	c.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: c}, nil)
	if err != nil {
		t.Fatalf("initialize quarry mcp: %v\n%s", err, stderr.String())
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "quarry" {
		t.Errorf("serverInfo.name = %q, want quarry", got)
	}
	exerciseQuarryMCP(t, cs)
	if err := cs.Close(); err != nil {
		t.Errorf("quarry mcp did not exit cleanly when its stdin closed: %v\n%s", err, stderr.String())
	}
}

func TestQuarryMCPOverStreamableHTTP(t *testing.T) {
	bin, demo := builtDemo(t)
	srv := startHTTPServer(t, bin, demo, "mcp", "--http", "127.0.0.1:0")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.url}, nil)
	if err != nil {
		t.Fatalf("initialize quarry mcp --http: %v", err)
	}
	defer cs.Close()
	exerciseQuarryMCP(t, cs)
}

// TestMCPConnectorBadServers configures the CLI with stdio servers that
// misbehave, as real processes, and checks that each gives one clear line,
// the right exit code, no hang and no process left behind.
func TestMCPConnectorBadServers(t *testing.T) {
	bin, demo := builtDemo(t)
	db := filepath.Join(demo, "demo.db")
	before := fileHash(t, db)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cases := []struct {
		name   string
		script string
		code   int
		want   string
	}{
		{"exits at once", `echo "cannot open the database: permission denied" >&2; exit 3`, quarry.ExitConnection, "permission denied"},
		{"never answers", `SLEEP`, quarry.ExitTimeout, "did not finish starting"},
		{"writes garbage", `echo "Welcome to my server!"; SLEEP`, quarry.ExitConnection, "Welcome to my server"},
		{"writes bytes that are not UTF-8", `printf '\377\376\375\n'; SLEEP`, quarry.ExitConnection, "UTF-8"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The server and its child (not exec'd, so that a process
			// group is left to kill) carry a unique sleep time as a
			// marker to look for once quarry has exited.
			marker := fmt.Sprintf("%d.%06d", 300+i, time.Now().Nanosecond()/1000)
			script := strings.ReplaceAll(c.script, "SLEEP", "sleep "+marker)
			dir := mcpProject(t, demo, "", "driver: mcp", "command: "+sh,
				fmt.Sprintf("args: [-c, %s]", yamlQuote(script)), "dialect: sqlite", "start_timeout: 3s")
			r := quarryProc(t, bin, dir, "run", "SELECT 1")
			if r.code == 0 {
				t.Fatalf("exit 0 from a bad server\n%s", r.stdout)
			}
			if c.code != 0 && r.code != c.code {
				t.Errorf("exit %d, want %d\n%s", r.code, c.code, r.stderr)
			}
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "quarry:") || !strings.Contains(r.stderr, c.want) {
				t.Errorf("stderr is not one line mentioning %q:\n%s", c.want, r.stderr)
			}
			if r.took > 20*time.Second {
				t.Errorf("took %s", r.took)
			}
			if r.stdout != "" {
				t.Errorf("stdout is not empty: %q", r.stdout)
			}
			if d := quarryProc(t, bin, dir, "doctor"); d.code != quarry.ExitRejected || !strings.Contains(d.stdout, "fail  connection") || !strings.Contains(d.stdout, c.want) {
				t.Errorf("doctor on a bad server: exit %d, want 1 and a failed connection mentioning %q\n%s", d.code, c.want, d.stdout)
			}
			if pids := processesWith(marker); len(pids) > 0 {
				t.Errorf("the server is still running after quarry exited: pids %v", pids)
				for _, p := range pids {
					syscall.Kill(p, syscall.SIGKILL)
				}
			}
		})
	}
	if fileHash(t, db) != before {
		t.Fatalf("the demo database changed")
	}
}

func yamlQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// processesWith returns the pids of processes whose command line holds
// marker (Linux only: empty elsewhere).
func processesWith(marker string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestMCPConnectorOnPostgres reaches the test PostgreSQL server through
// `quarry connector postgres`, started by quarry with the URL passed only
// into the child's environment.
func TestMCPConnectorOnPostgres(t *testing.T) {
	bin, _ := builtDemo(t)
	_, url := pgProject(t)
	dir := t.TempDir()
	yaml := "version: 1\nknowledge: knowledge\nconnections:\n  pg:\n    driver: mcp\n    command: quarry\n    args: [connector, postgres, --allow-privileged-role]\n    env:\n      DATABASE_URL: ${PG_URL}\n    dialect: postgres\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("PG_URL="+url+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := quarryProc(t, bin, dir, "run", "--format", "csv", "SELECT status, count(*) AS n, sum(amount) AS total FROM cmd_orders GROUP BY status ORDER BY status")
	if r.code != 0 || r.stdout != "status,n,total\ncompleted,67,4208.75\nrefunded,33,2103.75\n" {
		t.Fatalf("run through quarry connector postgres: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, sql := range []string{"DELETE FROM cmd_orders", "SELECT 1; DELETE FROM cmd_orders", "COPY cmd_orders TO '/tmp/x'"} {
		if r := quarryProc(t, bin, dir, "run", sql); r.code != quarry.ExitRejected {
			t.Errorf("%q: exit %d\n%s", sql, r.code, r.stderr)
		}
	}
	r = quarryProc(t, bin, dir, "learn", "--quiet")
	if r.code != 0 {
		t.Fatalf("learn through quarry connector postgres: exit %d\n%s", r.code, r.stderr)
	}
	model, err := os.ReadFile(filepath.Join(dir, "knowledge", "model.yaml"))
	if err != nil || !strings.Contains(string(model), "cmd_orders") {
		t.Errorf("model.yaml learned through MCP lacks cmd_orders: %v\n%s", err, model)
	}
	for _, args := range [][]string{{"config"}, {"doctor"}, {"runs", "list"}} {
		r := quarryProc(t, bin, dir, args...)
		if strings.Contains(r.stdout+r.stderr, url) {
			t.Errorf("quarry %s printed the database URL", args[0])
		}
	}
	r = quarryProc(t, bin, dir, "run", "--format", "csv", "SELECT count(*) FROM cmd_orders")
	if r.stdout != "count\n100\n" {
		t.Errorf("rows changed: %q", r.stdout)
	}
}

// TestMCPConnectorKeepsPostgresTypes: a result of PostgreSQL's kinds of
// value (exact decimals, the largest bigint, NaN, dates, times with and
// without zone, intervals, JSON, arrays, bytes) reads the same through
// `quarry connector postgres` (its binary tool) as directly, and both
// runs keep their result (an array once could not be stored).
func TestMCPConnectorKeepsPostgresTypes(t *testing.T) {
	bin, _ := builtDemo(t)
	_, url := pgProject(t)
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	table := fmt.Sprintf("cmd_types_%d", time.Now().UnixNano())
	if _, err := conn.Exec(context.Background(), `CREATE TABLE `+table+` (id int primary key, n numeric(12,3), big bigint, f double precision,
	d date, ts timestamp, tz timestamptz, iv interval, j jsonb, arr int[], words text[], b bytea, t text, ok boolean, tm time);
INSERT INTO `+table+` VALUES (1, 12345.678, 9223372036854775807, 1.5, '2026-06-30', '2026-06-30 09:30:00.123456', '2026-06-30 09:30:00+02',
	'1 day 02:00:00', '{"a": [1,2]}', '{1,NULL,3}', '{"b c",d}', '\xdeadbeef', 'héllo, "world"', true, '13:45:00'),
	(2, NULL, NULL, 'NaN', NULL, NULL, NULL, NULL, 'null', '{}', NULL, NULL, '', false, NULL)`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Exec(context.Background(), `DROP TABLE `+table) })
	dirs := map[string]string{}
	for name, conf := range map[string]string{
		"direct": "    driver: postgres\n    url: ${PG_URL}\n    allow_privileged_role: true\n",
		"mcp":    "    driver: mcp\n    command: quarry\n    args: [connector, postgres, --allow-privileged-role]\n    env:\n      DATABASE_URL: ${PG_URL}\n    dialect: postgres\n",
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte("version: 1\nknowledge: knowledge\nconnections:\n  pg:\n"+conf), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("PG_URL="+url+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		dirs[name] = dir
	}
	out := map[string]string{}
	for name, dir := range dirs {
		r := quarryProc(t, bin, dir, "run", "--format", "csv", "SELECT * FROM "+table+" ORDER BY id")
		if r.code != 0 || strings.Contains(r.stderr, "cannot keep") {
			t.Fatalf("%s: exit %d\n%s", name, r.code, r.stderr)
		}
		out[name] = r.stdout
	}
	if diff := cmp.Diff(out["direct"], out["mcp"]); diff != "" {
		t.Errorf("through MCP the result differs (-direct +mcp):\n%s", diff)
	}
	for _, want := range []string{"9223372036854775807", `"[1,null,3]"`, `"[""b c"",""d""]"`, `\xdeadbeef`, "2026-06-30T07:30:00Z"} {
		if !strings.Contains(out["direct"], want) {
			t.Errorf("the result lacks %s:\n%s", want, out["direct"])
		}
	}
}

// TestMCPConnectorOnMariaDB reaches the test MariaDB server through
// `quarry connector mysql`, its DSN passed only into the child's
// environment.
func TestMCPConnectorOnMariaDB(t *testing.T) {
	bin, _ := builtDemo(t)
	dsn := connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv)
	db, err := sql.Open("mysql", dsn+"?multiStatements=true")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DROP TABLE IF EXISTS mcp_orders; CREATE TABLE mcp_orders (id INT PRIMARY KEY, status VARCHAR(20), amount DECIMAL(10,2));
INSERT INTO mcp_orders VALUES (1, 'completed', 10.50), (2, 'refunded', 3.25), (3, 'completed', 1.00)`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Exec("DROP TABLE IF EXISTS mcp_orders") })
	dir := t.TempDir()
	yaml := "version: 1\nknowledge: knowledge\nconnections:\n  my:\n    driver: mcp\n    command: quarry\n    args: [connector, mysql, --allow-privileged-role]\n    env:\n      DATABASE_URL: ${MY_DSN}\n    dialect: mysql\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("MY_DSN="+dsn+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := quarryProc(t, bin, dir, "run", "--format", "csv", "SELECT status, count(*) AS n, sum(amount) AS total FROM mcp_orders GROUP BY status ORDER BY status")
	if r.code != 0 || r.stdout != "status,n,total\ncompleted,2,11.50\nrefunded,1,3.25\n" {
		t.Fatalf("run through quarry connector mysql: exit %d\n%q%s", r.code, r.stdout, r.stderr)
	}
	for _, sql := range []string{"DELETE FROM mcp_orders", "SELECT * FROM mcp_orders INTO OUTFILE '/tmp/x'", "/*!50000 DROP TABLE mcp_orders */"} {
		if r := quarryProc(t, bin, dir, "run", sql); r.code != quarry.ExitRejected {
			t.Errorf("%q: exit %d %s", sql, r.code, r.stderr)
		}
	}
	r = quarryProc(t, bin, dir, "learn", "--quiet")
	if r.code != 0 {
		t.Fatalf("learn through quarry connector mysql: exit %d\n%s", r.code, r.stderr)
	}
	if model, err := os.ReadFile(filepath.Join(dir, "knowledge", "model.yaml")); err != nil || !strings.Contains(string(model), "mcp_orders") {
		t.Errorf("model.yaml learned through MCP lacks mcp_orders: %v\n%s", err, model)
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM mcp_orders").Scan(&n); err != nil || n != 3 {
		t.Errorf("rows after refused writes: %d %v", n, err)
	}
}
