package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestAskJSON(t *testing.T) {
	dir := demoProject(t)
	r := quarryCmd(t, "", "-C", dir, "ask", "--as-of", "2026-06-30", "--json", "how many customers in Germany")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got struct {
		RunID      string          `json:"run_id"`
		Status     string          `json:"status"`
		SQL        string          `json:"sql"`
		Answer     string          `json:"answer"`
		Columns    []quarry.Column `json:"columns"`
		Rows       [][]any         `json:"rows"`
		Checks     []struct{ Name, Status string }
		Confidence float64 `json:"confidence"`
		Chart      string  `json:"chart"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if got.Status != "succeeded" || !strings.Contains(got.SQL, "'Germany'") || len(got.Rows) != 1 || got.RunID == "" {
		t.Fatalf("answer: %+v", got)
	}
	if got.Confidence <= 0 || len(got.Checks) == 0 || got.Chart != "figure" {
		t.Errorf("checks/confidence/chart: %+v", got)
	}
	// The answer states the number the query returned.
	n := got.Rows[0][0].(float64)
	if !strings.Contains(got.Answer, formatInt(int64(n))) {
		t.Errorf("answer %q does not state %v", got.Answer, n)
	}
	// And the run is recorded with its events.
	r = quarryCmd(t, "", "-C", dir, "runs", "events", got.RunID)
	for _, typ := range []string{"question.parsed", "plan.made", "question.read", "guard.checked", "checks.ran", "answer.rendered", "run.finished"} {
		if !strings.Contains(r.stdout, typ) {
			t.Errorf("events lack %s", typ)
		}
	}
}

// formatInt writes n with thousands separators, as answers do.
func formatInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

func TestAskRefusesRatherThanGuesses(t *testing.T) {
	dir := demoProject(t)
	cases := []struct {
		question string
		code     int
		want     string
	}{
		{"what is the weather in Paris", quarry.ExitUnanswered, "Not understood: weather"},
		{"list customer emails", quarry.ExitRejected, "Refused"},
		{"delete all cancelled orders", quarry.ExitRejected, "only reads"},
		{"average salary by department", quarry.ExitRejected, "restrict"},
	}
	for _, c := range cases {
		r := quarryCmd(t, "", "-C", dir, "ask", "--as-of", "2026-06-30", c.question)
		if r.code != c.code || !strings.Contains(r.stdout, c.want) {
			t.Errorf("%q: exit %d (want %d)\n%s%s", c.question, r.code, c.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout, "SELECT") {
			t.Errorf("%q: printed SQL for a question it did not answer", c.question)
		}
	}
}

func TestAskWritesCharts(t *testing.T) {
	dir := demoProject(t)
	out := t.TempDir()
	svg := filepath.Join(out, "trend.svg")
	r := quarryCmd(t, "", "-C", dir, "ask", "--as-of", "2026-06-30", "--chart", svg, "revenue by month last year")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	data, err := os.ReadFile(svg)
	if err != nil || !strings.Contains(string(data), "<svg") {
		t.Fatalf("svg: %v", err)
	}
	// Piped output is plain Markdown with the SQL fenced.
	if !strings.Contains(r.stdout, "```sql") || strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("piped answer is not plain Markdown:\n%s", r.stdout)
	}
	pngPath := filepath.Join(out, "bars.png")
	r = quarryCmd(t, "", "-C", dir, "ask", "--as-of", "2026-06-30", "--chart", pngPath, "revenue by channel in 2025")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatalf("png: %v", err)
	}
	r = quarryCmd(t, "", "-C", dir, "ask", "--chart", filepath.Join(out, "x.gif"), "revenue")
	if r.code != quarry.ExitUsage {
		t.Errorf("--chart x.gif: exit %d", r.code)
	}
}

func TestLearnOnAProjectWithoutKnowledge(t *testing.T) {
	dir := project(t)
	r := quarryCmd(t, "", "-C", dir, "learn", "--quiet")
	if r.code != 0 {
		t.Fatalf("learn: exit %d %s", r.code, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "ask", "--json", "how many orders")
	var got struct {
		Rows [][]any `json:"rows"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &got) != nil || len(got.Rows) != 1 || got.Rows[0][0] != float64(5000) {
		t.Fatalf("ask after learn: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Learning again changes nothing a person wrote and reports no drift.
	r = quarryCmd(t, "", "-C", dir, "learn", "--quiet")
	if r.code != 0 || !strings.Contains(r.stdout, "no drift") {
		t.Errorf("second learn: exit %d\n%s", r.code, r.stdout)
	}
}

// TestLearnBeforeModelYAML: the knowledge folder quarry init makes has
// no model.yaml; learn builds it, under a policy.yaml a person wrote first,
// whose column gets no known values.
func TestLearnBeforeModelYAML(t *testing.T) {
	dir := project(t)
	k := filepath.Join(dir, "knowledge")
	if err := os.MkdirAll(k, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(k, "policy.yaml"), []byte("restricted:\n  - column: customers.country\n    reason: test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := quarryCmd(t, "", "-C", dir, "learn", "--quiet")
	if r.code != 0 {
		t.Fatalf("learn without model.yaml: exit %d %s", r.code, r.stderr)
	}
	model, err := os.ReadFile(filepath.Join(k, "model.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(model), "Finland") {
		t.Errorf("model.yaml records values of a restricted column:\n%s", model)
	}
	if r := quarryCmd(t, "", "-C", dir, "run", "SELECT country FROM customers"); r.code != quarry.ExitRejected {
		t.Errorf("the policy.yaml written before learn is not applied: exit %d %s", r.code, r.stderr)
	}
}

func TestEvalGoldenFile(t *testing.T) {
	dir := project(t)
	if r := quarryCmd(t, "", "-C", dir, "learn", "--quiet"); r.code != 0 {
		t.Fatalf("learn: %s", r.stderr)
	}
	golden := filepath.Join(dir, "golden.yaml")
	os.WriteFile(golden, []byte(`cases:
  - id: count
    question: how many orders
    sql: SELECT count(*) FROM orders
  - id: nonsense
    question: how tall is the moon
    expect: unanswered
`), 0o644)
	r := quarryCmd(t, "", "-C", dir, "eval", "--json", golden)
	if r.code != 0 {
		t.Fatalf("eval: exit %d %s", r.code, r.stderr)
	}
	var got struct {
		Summary struct {
			Correct int `json:"correct"`
			Total   int `json:"total"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if got.Summary.Total != 2 || got.Summary.Correct != 2 {
		t.Errorf("summary: %+v\n%s", got.Summary, r.stdout)
	}
	// Every case is a recorded run.
	r = quarryCmd(t, "", "-C", dir, "runs", "list", "--json", "--kind", "ask")
	var runs []struct{}
	if json.Unmarshal([]byte(r.stdout), &runs); len(runs) != 2 {
		t.Errorf("eval recorded %d runs, want 2", len(runs))
	}
	if r := quarryCmd(t, "", "-C", dir, "eval"); r.code != quarry.ExitUsage {
		t.Errorf("eval with no files: exit %d", r.code)
	}
}

// TestAskFoundFromOutside holds what an outside tester found: an answer
// is printed even when its chart cannot be written (the run succeeded),
// the reading of the question comes first, --session and --continue do
// not mix, and a ranking of products by id and name has a chart.
func TestAskFoundFromOutside(t *testing.T) {
	dir := demoProject(t)
	r := quarryCmd(t, "", "-C", dir, "ask", "--as-of", "2026-06-30", "--chart", filepath.Join(dir, "no", "such", "x.svg"), "how many customers in Germany")
	if r.code != quarry.ExitCode(quarry.Errorf(quarry.KindInput, "")) || !strings.Contains(r.stdout, "683") || !strings.Contains(r.stderr, "cannot write the chart") {
		t.Errorf("unwritable chart: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "Read as: customers (COUNT(customers.id)") || !strings.Contains(r.stdout, "(customers.country)") {
		t.Errorf("the reading does not come first:\n%s", r.stdout)
	}
	r = quarryCmd(t, "", "-C", dir, "ask", "--as-of", "2026-06-30", "--chart", filepath.Join(dir, "top.svg"), "top 5 products by revenue in 2025")
	if r.code != 0 {
		t.Errorf("a ranking of products has no chart: exit %d: %s", r.code, r.stderr)
	} else if b, err := os.ReadFile(filepath.Join(dir, "top.svg")); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("chart file: %v", err)
	}
	r = quarryCmd(t, "", "-C", dir, "ask", "--session", "s1", "--continue", "and by month?")
	if r.code != quarry.ExitUsage || !strings.Contains(r.stderr, "give one") {
		t.Errorf("--session with --continue: exit %d: %s", r.code, r.stderr)
	}
}

// TestImportThenAsk: quarry import writes the knowledge folder from a
// dbt project; ask answers with the imported metric; a malformed file is
// one line on stderr with exit code 2, and writes nothing.
func TestImportThenAsk(t *testing.T) {
	dir := project(t)
	bad := filepath.Join(dir, "bad.yml")
	os.WriteFile(bad, []byte("semantic_models:\n  - name: orders\n    entities: [\n"), 0o644)
	r := quarryCmd(t, "", "-C", dir, "import", bad)
	if r.code != quarry.ExitUsage {
		t.Fatalf("import of malformed YAML: exit %d\n%s", r.code, r.stderr)
	}
	oneLineError(t, r)
	if _, err := os.Stat(filepath.Join(dir, "knowledge", "model.yaml")); err == nil {
		t.Error("a malformed import wrote model.yaml")
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "internal", "importer", "testdata", "dbt"))
	if err != nil {
		t.Fatal(err)
	}
	r = quarryCmd(t, "", "-C", dir, "import", src)
	if r.code != 0 || !strings.Contains(r.stdout, "metrics added") || !strings.Contains(r.stdout, "metric cumulative_revenue: cumulative metrics") {
		t.Fatalf("import: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "import", "--format", "dbt", src)
	if r.code != 0 || !strings.Contains(r.stdout, "nothing changed") {
		t.Errorf("second import: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "ask", "--json", "revenue")
	var got struct {
		Rows [][]any `json:"rows"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &got) != nil || len(got.Rows) != 1 {
		t.Fatalf("ask revenue: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Completed orders are those with x % 4 != 0, amount x * 1.5.
	want := 0.0
	for x := 1; x <= 5000; x++ {
		if x%4 != 0 {
			want += float64(int(x*150+0)) / 100
		}
	}
	if v, ok := got.Rows[0][0].(float64); !ok || v < want-0.01 || v > want+0.01 {
		t.Errorf("revenue = %v, want %v", got.Rows[0][0], want)
	}
}

// TestAskOffersTheCorrectedQuestion checks that a misspelt question is
// answered with the question it probably meant, not a list of metrics.
func TestAskOffersTheCorrectedQuestion(t *testing.T) {
	demo := demoProject(t)
	r := quarryCmd(t, "", "-C", demo, "ask", "--as-of", "2026-06-30", "revnue by chanel")
	if r.code != 7 || !strings.Contains(r.stdout, "Did you mean: revenue by channel?\n") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestAskStatesTheFigure checks the prose of answers: a "which … has the
// most …" question is answered with the figure as well as the name, a
// follow-up is stated as a first answer is (not "The query returned 36
// rows"), and one row is never "1 rows".
func TestAskStatesTheFigure(t *testing.T) {
	demo := demoProject(t)
	r := quarryCmd(t, "", "-C", demo, "ask", "--as-of", "2026-06-30", "which country has the most customers")
	if r.code != 0 || !regexp.MustCompile(`United States, \*\*[0-9,]+\*\*`).MatchString(r.stdout) {
		t.Errorf("the answer does not give the count with the name: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "1 rows") || !strings.Contains(r.stdout, "· 1 row ·") {
		t.Errorf("one row is not said as 1 row:\n%s", r.stdout)
	}

	first := quarryCmd(t, "", "-C", demo, "ask", "--as-of", "2026-06-30", "orders by channel in 2025")
	if first.code != 0 {
		t.Fatalf("exit %d:\n%s%s", first.code, first.stdout, first.stderr)
	}
	follow := quarryCmd(t, "", "-C", demo, "ask", "--as-of", "2026-06-30", "--continue", "and by month?")
	if follow.code != 0 || strings.Contains(follow.stdout, "The query returned") ||
		!strings.Contains(follow.stdout, "Orders by month and channel in 2025: 36 rows, from 2025-01 to 2025-12; the highest is **") {
		t.Errorf("the follow-up is not stated as a first answer: exit %d\n%s%s", follow.code, follow.stdout, follow.stderr)
	}
}

// TestEvalRetrieval runs the retrieval benchmark on a small synthetic
// catalog: the figures come out as text and as JSON, and golden files
// are refused beside it.
func TestEvalRetrieval(t *testing.T) {
	r := quarryCmd(t, "", "eval", "--retrieval", "--tables", "800", "--questions", "40")
	if r.code != 0 || !strings.Contains(r.stdout, "synthetic 800-table catalog") || !strings.Contains(r.stdout, "recall@5") {
		t.Fatalf("eval --retrieval: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = quarryCmd(t, "", "eval", "--retrieval", "--json", "--tables", "800", "--questions", "40")
	var got struct {
		Retrieval []struct {
			Tables  int     `json:"tables"`
			Recall5 float64 `json:"table_recall_at_5"`
		} `json:"retrieval"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || len(got.Retrieval) != 1 || got.Retrieval[0].Tables != 800 || got.Retrieval[0].Recall5 < 0.9 {
		t.Errorf("eval --retrieval --json: %v %+v\n%s", err, got, r.stdout)
	}
	if r := quarryCmd(t, "", "eval", "--retrieval", "x.yaml"); r.code != quarry.ExitUsage {
		t.Errorf("eval --retrieval with a golden file: exit %d", r.code)
	}
	if r := quarryCmd(t, "", "eval", "--retrieval", "--tables", "0"); r.code != quarry.ExitUsage {
		t.Errorf("eval --retrieval with no catalog: exit %d", r.code)
	}
}

// TestAskPrintsNoEscapesFromTheData: a database value holding terminal
// escape sequences (a clipboard write, a clear screen, a carriage return)
// is shown inert in the answer, its table and its chart.
func TestAskPrintsNoEscapesFromTheData(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	if err := os.CopyFS(dir, os.DirFS(demoProject(t))); err != nil {
		t.Fatal(err)
	}
	db, err := sqlite3.Open(filepath.Join(dir, "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	err = db.Exec(`UPDATE orders SET channel = char(27) || ']52;c;cHduZWQ=' || char(7) || char(27) || '[2J' || channel || char(13) WHERE channel = 'web'`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-C", dir, "ask", "--as-of", "2026-06-30", "revenue by channel last year"}, nil, &out, &errb, func(string) (string, bool) { return "", false })
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, c := range []string{"\x1b", "\x07", "\r"} {
		if strings.Contains(out.String()+errb.String(), c) {
			t.Errorf("the output holds %q:\n%q", c, out.String())
		}
	}
	// Piped, the answer is Markdown, where the data's bracket is escaped
	// as text.
	if !strings.Contains(out.String(), "\ufffd\\[2Jweb") {
		t.Errorf("the value is not shown inert:\n%s", out.String())
	}
}
