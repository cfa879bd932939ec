package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/quarrydata/quarry/internal/llm/llmtest"
)

// -screenshots writes PNG screenshots of the web UI's main screens to
// docs/screenshots while the browser test runs:
//
//	go test ./cmd/quarry -run TestServeInBrowser -screenshots
var screenshotsFlag = flag.Bool("screenshots", false, "write screenshots of the web UI to docs/screenshots")

// chromiumPath is where Debian's chromium package puts the browser;
// scripts/test.sh installs it when it is missing.
const chromiumPath = "/usr/bin/chromium"

func TestServeInBrowser(t *testing.T) {
	s := serveDemoProcess(t)

	t.Run("foreign Host and cross-origin requests are refused", func(t *testing.T) {
		req, _ := http.NewRequest("GET", s.base+"/api/health", nil)
		req.Host = "attacker.example:" + strings.Split(s.host, ":")[1]
		expectHTTPStatus(t, req, http.StatusForbidden)

		req, _ = http.NewRequest("GET", s.base+"/", nil)
		req.Host = "rebind.attacker.example"
		expectHTTPStatus(t, req, http.StatusForbidden)

		req, _ = http.NewRequest("POST", s.base+"/api/chat", strings.NewReader(`{"message":"revenue"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://attacker.example")
		expectHTTPStatus(t, req, http.StatusForbidden)

		req, _ = http.NewRequest("POST", s.base+"/api/run", strings.NewReader(`{"sql":"SELECT 1"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		expectHTTPStatus(t, req, http.StatusForbidden)

		// The same request from the page's own origin is served.
		req, _ = http.NewRequest("POST", s.base+"/api/run", strings.NewReader(`{"sql":"SELECT 1 AS one"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", s.base)
		expectHTTPStatus(t, req, http.StatusOK)

		res, err := http.Get(s.base + "/")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
			}
		}
	})

	t.Run("web chat", func(t *testing.T) {
		browserChat(t, s)
	})

	t.Run("a misspelt question offers the corrected one", func(t *testing.T) {
		browserDidYouMean(t, s)
	})

	t.Run("manual mode: proposed query, then the pasted result", func(t *testing.T) {
		m := &servedQuarry{bin: s.bin, dir: manualProject(t), log: &bytes.Buffer{}}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		m.host = l.Addr().String()
		m.base = "http://" + m.host
		l.Close()
		t.Cleanup(func() {
			m.stop()
			if t.Failed() {
				t.Logf("quarry serve (manual) output:\n%s", m.log.String())
			}
		})
		m.start(t)
		browserPaste(t, m)
	})

	t.Run("run my SQL: a model's fix, dismissed then applied", func(t *testing.T) {
		const fixed = "```sql\nSELECT id, name FROM customers ORDER BY id LIMIT 3\n```"
		fake := llmtest.NewAnthropicServer(t, "test-key", llmtest.Answer{Text: fixed}, llmtest.Answer{Text: fixed})
		s.stop() // the same project, served with a model
		m := &servedQuarry{bin: s.bin, dir: s.dir, log: &bytes.Buffer{},
			env: append(keylessEnv(), "ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL="+fake.URL)}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		m.host = l.Addr().String()
		m.base = "http://" + m.host
		l.Close()
		t.Cleanup(func() {
			m.stop()
			if t.Failed() {
				t.Logf("quarry serve (with a model) output:\n%s", m.log.String())
			}
		})
		m.start(t)
		browserFix(t, m)
		if n := len(fake.Requests()); n != 2 {
			t.Errorf("the fake model got %d requests, want 2", n)
		}
	})
}

// browserFix drives the fix flow of the Run my SQL panel: a statement the
// database refuses shows the model's fix as a diff with Apply fix and
// Dismiss; Dismiss drops it, Apply fix runs it.
func browserFix(t *testing.T, s *servedQuarry) {
	ctx := newBrowser(t)
	uiDo(t, ctx, "open the web chat",
		chromedp.EmulateViewport(1360, 860),
		chromedp.Navigate(s.base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#composer-input")),
	)
	watchPage(t, ctx)
	const bad = "SELECT id, nam FROM customers ORDER BY id LIMIT 3"
	runBad := func() {
		uiDo(t, ctx, "run a statement the database refuses",
			chromedp.Click(chromedp.CSS("#open-run")),
			chromedp.WaitVisible(chromedp.CSS("#run-sql")),
			chromedp.SetValue(chromedp.CSS("#run-sql"), bad),
			chromedp.Click(chromedp.CSS("#run-submit")),
		)
		uiWaitFor(t, ctx, "the proposed fix", `document.querySelector("#run-output .fix-card") !== null`)
	}
	runBad()
	if add := uiEval[string](t, ctx, `[...document.querySelectorAll("#run-output .diff .diff-add")].map(e => e.textContent).join("")`); !strings.Contains(add, "SELECT id, name FROM customers") {
		t.Errorf("the diff adds %q", add)
	}
	if del := uiEval[string](t, ctx, `[...document.querySelectorAll("#run-output .diff .diff-del")].map(e => e.textContent).join("")`); !strings.Contains(del, "nam FROM") {
		t.Errorf("the diff removes %q", del)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll("#run-output .fix-card .verdict.allowed").length`); n != 1 {
		t.Errorf("the fix shows %d allowed verdicts", n)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll("#run-output .data-table").length`); n != 0 {
		t.Errorf("the fix ran before it was applied")
	}
	uiShot(t, ctx, "run-fix")
	uiDo(t, ctx, "dismiss the fix", chromedp.Click(chromedp.CSS(`#run-output [data-fix="dismiss"]`)))
	uiWaitFor(t, ctx, "the fix dismissed", `document.querySelector("#run-output .fix-card") === null`)

	runBad()
	uiDo(t, ctx, "apply the fix", chromedp.Click(chromedp.CSS(`#run-output [data-fix="apply"]`)))
	uiWaitFor(t, ctx, "the fixed statement's rows", `document.querySelectorAll("#run-output .data-table tbody tr").length === 3`)
	if v := uiEval[string](t, ctx, `document.querySelector("#run-sql").value`); v != "SELECT id, name FROM customers ORDER BY id LIMIT 3" {
		t.Errorf("the editor holds %q after the fix", v)
	}
	pageProblems(t, ctx)
}

// browserPaste drives manual mode in the web chat: a question on a project
// with no connection gets a proposed query with a Copy button, and the
// result pasted into the paste box continues the same run.
func browserPaste(t *testing.T, s *servedQuarry) {
	ctx := newBrowser(t)
	uiDo(t, ctx, "open the web chat",
		chromedp.EmulateViewport(1360, 860),
		chromedp.Navigate(s.base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#composer-input")),
	)
	watchPage(t, ctx)
	uiAsk(t, ctx, "revenue by country last year")
	const turn = "#turns > .turn:nth-child(1)"
	if n := uiEval[int](t, ctx, `document.querySelectorAll("`+turn+` article.proposed").length`); n != 1 {
		t.Fatalf("no proposed query card: %s", uiEval[string](t, ctx, `document.querySelector("`+turn+`").textContent`))
	}
	sql := uiEval[string](t, ctx, `document.querySelector("`+turn+` .proposed .sql-section pre").textContent`)
	if !strings.Contains(strings.ToUpper(sql), "SELECT") {
		t.Errorf("the proposed SQL is %q", sql)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll("`+turn+` .proposed .copy-sql").length`); n != 1 {
		t.Errorf("the proposed SQL has %d Copy buttons", n)
	}
	cols := uiEval[[]string](t, ctx, `[...document.querySelectorAll("`+turn+` .proposed .expected-columns .tag")].map(e => e.textContent)`)
	if len(cols) < 2 {
		t.Fatalf("expected columns %v", cols)
	}
	// The paste box opens for the waiting run.
	uiWaitFor(t, ctx, "the paste box", `!document.querySelector("#paste-box").hidden`)
	paste := strings.Join(cols, ",")
	for _, country := range []string{"Germany", "France", "Spain"} {
		row := []string{country}
		for i := 1; i < len(cols); i++ {
			row = append(row, strconv.Itoa(1000*(i+1)+len(country)))
		}
		paste += "\n" + strings.Join(row, ",")
	}
	uiDo(t, ctx, "paste the result",
		chromedp.SendKeys(chromedp.CSS("#paste-input"), paste),
		chromedp.Click(chromedp.CSS("#paste-send")),
	)
	const second = "#turns > .turn:nth-child(2)"
	uiWaitFor(t, ctx, "the answer to the pasted result", `document.querySelector("`+second+` .turn-body > article") !== null`)
	if n := uiEval[int](t, ctx, `document.querySelectorAll("`+second+` article.answer").length`); n != 1 {
		t.Fatalf("the pasted result got no answer: %s", uiEval[string](t, ctx, `document.querySelector("`+second+`").textContent`))
	}
	if text := uiEval[string](t, ctx, `document.querySelector("`+second+` .answer .prose").textContent`); !strings.Contains(text, "run by you") {
		t.Errorf("the answer does not say the user ran the query: %q", text)
	}
	if rows := uiEval[int](t, ctx, `document.querySelectorAll("`+second+` .data-table tbody tr").length`); rows != 3 {
		t.Errorf("the table shows %d rows, want 3", rows)
	}
	if id1, id2 := uiEval[string](t, ctx, `document.querySelector("`+turn+`").dataset.runId`), uiEval[string](t, ctx, `document.querySelector("`+second+`").dataset.runId`); id1 == "" || id1 != id2 {
		t.Errorf("the pasted result continued run %q, not the proposed one %q", id2, id1)
	}
	if hidden := uiEval[bool](t, ctx, `document.querySelector("#paste-box").hidden`); !hidden {
		t.Errorf("the paste box stays open after the answer")
	}
	uiShot(t, ctx, "manual-mode")
	pageProblems(t, ctx)
}

func expectHTTPStatus(t *testing.T, req *http.Request, want int) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != want {
		t.Errorf("%s %s (Host %s, Origin %q): status %d, want %d: %s", req.Method, req.URL.Path, req.Host, req.Header.Get("Origin"), res.StatusCode, want, body)
		return
	}
	if want >= 400 && !strings.Contains(string(body), `"error"`) {
		t.Errorf("%s %s: a %d without a JSON error: %s", req.Method, req.URL.Path, want, body)
	}
}

// newBrowser starts headless Chromium with a fresh profile, or skips the test
// when it is not installed (outside CI).
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing in CI; scripts/test.sh installs Debian's chromium", chromiumPath)
		}
		t.Skipf("%s is missing; install Debian's chromium (scripts/test.sh does) to run the browser test", chromiumPath)
	}
	// Chromium makes its singleton socket's folder in TMPDIR and leaves
	// it there: give it one of the test's own, short enough for a socket
	// path (t.TempDir's names the test), removed after the browser.
	tmp, err := os.MkdirTemp("", "qchrome")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Env("TMPDIR="+tmp),
		chromedp.WindowSize(1360, 900),
	)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	return ctx
}

// uiDo runs actions and fails the test with what it was doing.
func uiDo(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// uiEval evaluates a JavaScript expression and decodes its value.
func uiEval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// uiWaitFor polls a JavaScript predicate until it is true.
func uiWaitFor(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(90*time.Second), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("waiting for %s (%s): %v", what, predicate, err)
	}
}

// uiShot writes a screenshot of the viewport to docs/screenshots/NAME.png
// when -screenshots is given.
func uiShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if !*screenshotsFlag {
		return
	}
	// Let transitions and the spinner settle.
	uiDo(t, ctx, "settle", chromedp.Sleep(300*time.Millisecond))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join("..", "..", "docs", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// uiAsk types a question into the composer, sends it with Enter and waits
// for the turn to finish.
func uiAsk(t *testing.T, ctx context.Context, question string) {
	t.Helper()
	n := uiEval[int](t, ctx, `document.querySelectorAll("#turns > .turn").length`)
	uiDo(t, ctx, "type the question",
		chromedp.WaitEnabled(chromedp.CSS("#composer-input")),
		chromedp.SendKeys(chromedp.CSS("#composer-input"), question+kb.Enter),
	)
	uiWaitFor(t, ctx, "the turn of "+question, fmt.Sprintf(
		`document.querySelectorAll("#turns > .turn").length === %d && document.querySelector("#turns > .turn:last-child .turn-body > article") !== null`, n+1))
	got := uiEval[string](t, ctx, `document.querySelector("#turns > .turn:last-child .question-bubble").firstChild.textContent`)
	if got != question {
		t.Errorf("the turn shows the question %q, want %q", got, question)
	}
}

// uiColumn reads the text of one column of the last turn's table.
func uiColumn(t *testing.T, ctx context.Context, turn string, col int) []string {
	t.Helper()
	return uiEval[[]string](t, ctx, fmt.Sprintf(
		`[...document.querySelectorAll(%q)].map(tr => tr.children[%d].textContent)`, turn+" .data-table tbody tr", col))
}

// watchPage records what the page does that it should not (script errors,
// Content-Security-Policy violations) and every progress stage shown while
// an answer streams. A reload forgets both: pageProblems reads them first.
func watchPage(t *testing.T, ctx context.Context) {
	t.Helper()
	uiEval[chromedp.Void](t, ctx, `(() => {
		window.__problems = [];
		window.addEventListener("error", e => window.__problems.push("error: " + e.message));
		window.addEventListener("unhandledrejection", e => window.__problems.push("rejection: " + e.reason));
		document.addEventListener("securitypolicyviolation", e => window.__problems.push("CSP: " + e.violatedDirective + " " + e.blockedURI));
		window.__stages = [];
		new MutationObserver(() => {
			for (const s of document.querySelectorAll(".progress .stage")) {
				const k = s.dataset.stage + (s.classList.contains("current") ? ":current" : ":done");
				if (!window.__stages.includes(k)) window.__stages.push(k);
			}
		}).observe(document.getElementById("turns"), {childList: true, subtree: true, characterData: true});
	})()`)
}

// pageProblems fails the test with the problems watchPage recorded.
func pageProblems(t *testing.T, ctx context.Context) {
	t.Helper()
	if problems := uiEval[[]string](t, ctx, `window.__problems || []`); len(problems) > 0 {
		t.Errorf("the page reported %d problems, first %v", len(problems), problems[:min(len(problems), 5)])
	}
}

func browserChat(t *testing.T, s *servedQuarry) {
	ctx := newBrowser(t)
	uiDo(t, ctx, "open the web chat",
		chromedp.EmulateViewport(1360, 860),
		chromedp.Navigate(s.base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#composer-input")),
	)
	watchPage(t, ctx)
	uiShot(t, ctx, "welcome")

	// 1. A question with a chart and a table.
	uiAsk(t, ctx, "monthly revenue in 2025")
	const first = "#turns > .turn:nth-child(1)"
	stages := uiEval[[]string](t, ctx, `window.__stages`)
	for _, want := range []string{"understand", "plan", "sql", "guard", "run", "check", "explain"} {
		if !slices.Contains(stages, want+":done") {
			t.Errorf("the progress line never showed the stage %q done while streaming; saw %v", want, stages)
		}
	}
	trace := uiEval[string](t, ctx, `document.querySelector("`+first+` .trace summary").textContent`)
	for _, want := range []string{"Understanding", "Planning", "Generating SQL", "Guard ✓", "Running", "Checking", "Explaining"} {
		if !strings.Contains(trace, want) {
			t.Errorf("the trace %q lacks the stage %q", trace, want)
		}
	}
	prose := uiEval[string](t, ctx, `document.querySelector("`+first+` .answer .prose").textContent`)
	if !strings.Contains(prose, "Revenue by month") || !strings.Contains(prose, "$") {
		t.Errorf("the answer text is %q, want the headline about revenue by month", prose)
	}
	// How the question was read comes first in the card.
	if r := uiEval[string](t, ctx, `(document.querySelector("`+first+` .answer > .reading") || {}).textContent || ""`); !strings.HasPrefix(r, "Read as: revenue") || !strings.Contains(r, "by month of orders.ordered_at") {
		t.Errorf("the answer card's reading is %q", r)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll("`+first+` .chart svg path, `+first+` .chart svg polyline").length`); n < 3 {
		t.Errorf("the chart has %d paths, want an SVG line chart", n)
	}
	if fill := uiEval[string](t, ctx, `getComputedStyle(document.querySelector("`+first+` .chart svg text")).fill`); fill == "rgb(0, 0, 0)" {
		t.Errorf("the chart's text is black: its styles were not applied under the Content-Security-Policy")
	}
	sql := uiEval[string](t, ctx, `document.querySelector("`+first+` .sql-section pre").textContent`)
	if !strings.HasPrefix(sql, "SELECT") || uiEval[int](t, ctx, `document.querySelectorAll("`+first+` .sql-section .tok-keyword").length`) < 5 {
		t.Errorf("the SQL block is not highlighted SQL: %q", sql)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll("`+first+` .checks .check.pass").length`); n < 1 {
		t.Errorf("the answer shows %d passed checks", n)
	}
	if v := uiEval[string](t, ctx, `document.querySelector("`+first+` .confidence-value").textContent`); v != "1.00" {
		t.Errorf("the confidence reads %q, want 1.00", v)
	}
	months := uiColumn(t, ctx, first, 0)
	if len(months) != 12 || months[0] != "2025-01" {
		t.Fatalf("the table's first column is %v, want the 12 months of 2025", months)
	}
	// The table writes values as the answer's text does: $ and the same
	// rounding as the sentence's figures.
	if rev := uiColumn(t, ctx, first, 1); len(rev) == 0 || !strings.HasPrefix(rev[0], "$") || !strings.Contains(prose, rev[0]) && !strings.Contains(prose, rev[len(rev)-1]) {
		t.Errorf("the revenue column %v is not written as the answer %q writes it", rev, prose)
	}
	if *screenshotsFlag {
		// The whole answer: chart, checks, SQL and table.
		uiDo(t, ctx, "a tall viewport", chromedp.EmulateViewport(1360, 1780))
		uiEval[chromedp.Void](t, ctx, `document.querySelector("#conversation").scrollTop = document.querySelector("`+first+`").offsetTop - 24`)
		uiShot(t, ctx, "answer")
		uiDo(t, ctx, "the usual viewport", chromedp.EmulateViewport(1360, 860))
	}

	// Sorting: the revenue column, ascending then descending, numerically.
	uiDo(t, ctx, "sort by revenue", chromedp.Click(chromedp.CSS(first+` .data-table th[data-col="1"] button`)))
	asc := uiColumn(t, ctx, first, 1)
	if !numbersSorted(t, asc, 1) {
		t.Errorf("after one click the revenue column is %v, want ascending numbers", asc)
	}
	if got := uiColumn(t, ctx, first, 0); slices.Equal(got, months) {
		t.Errorf("sorting by revenue did not change the order of the months")
	}
	uiDo(t, ctx, "sort by revenue again", chromedp.Click(chromedp.CSS(first+` .data-table th[data-col="1"] button`)))
	if desc := uiColumn(t, ctx, first, 1); !numbersSorted(t, desc, -1) {
		t.Errorf("after two clicks the revenue column is %v, want descending numbers", desc)
	}
	if got := uiEval[string](t, ctx, `document.querySelector("`+first+` .data-table th[data-col='1']").getAttribute("aria-sort")`); got != "descending" {
		t.Errorf("aria-sort is %q, want descending", got)
	}

	// 2. A longer result: the table previews 100 rows and the CSV has them all.
	uiAsk(t, ctx, "revenue by day in 2025")
	second := "#turns > .turn:nth-child(2)"
	if n := len(uiColumn(t, ctx, second, 0)); n != 100 {
		t.Errorf("the preview table has %d rows, want 100", n)
	}
	href := uiEval[string](t, ctx, `document.querySelector("`+second+` a.download-csv").getAttribute("href")`)
	if !strings.HasPrefix(href, "/api/results/") || !strings.Contains(href, "format=csv") {
		t.Fatalf("the Download CSV link is %q", href)
	}
	res, err := http.Get(s.base + href)
	if err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(bufio.NewReader(res.Body)).ReadAll()
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d, %v", href, res.StatusCode, err)
	}
	if len(records) != 1+365 {
		t.Errorf("the CSV has %d records, want a header and the 365 days of 2025", len(records))
	}

	// 3. A refused question: a friendly card, not an answer.
	uiAsk(t, ctx, "delete all customers")
	third := "#turns > .turn:nth-child(3)"
	if n := uiEval[int](t, ctx, `document.querySelectorAll("`+third+` .notice.refused").length`); n != 1 {
		t.Errorf("the refusal is not shown as a refused card: %s", uiEval[string](t, ctx, `document.querySelector("`+third+`").textContent`))
	}

	// A question with words quarry does not know: what it understood, what
	// it did not, and the closest known terms.
	uiAsk(t, ctx, "revenue by weather on mars")
	unknown := "#turns > .turn:nth-child(4)"
	if got := uiEval[[]string](t, ctx, `[...document.querySelectorAll("`+unknown+` .notice .tag.unknown")].map(t => t.textContent)`); !slices.Contains(got, "mars") {
		t.Errorf("the unanswered card lists %v as not understood, want mars among them", got)
	}
	uiShot(t, ctx, "refused")

	// 4. An ambiguous question: the options are chips that answer it.
	uiAsk(t, ctx, "how many cancelled")
	fourth := "#turns > .turn:nth-child(5)"
	options := uiEval[[]string](t, ctx, `[...document.querySelectorAll("`+fourth+` .notice.clarify .chip")].map(c => c.textContent)`)
	if len(options) < 2 {
		t.Fatalf("the clarification offers %v, want two options as chips: %s", options, uiEval[string](t, ctx, `document.querySelector("`+fourth+`").textContent`))
	}
	uiShot(t, ctx, "clarify")
	uiDo(t, ctx, "choose the first option", chromedp.Click(chromedp.CSS(fourth+` .notice.clarify .chip`)))
	uiWaitFor(t, ctx, "the answer to the chosen option", `document.querySelectorAll("#turns > .turn").length === 6 && document.querySelector("#turns > .turn:nth-child(6) .turn-body > article") !== null`)
	if got := uiEval[string](t, ctx, `document.querySelector("#turns > .turn:nth-child(6) .question-bubble").textContent`); len(options) > 0 && got != options[0] {
		t.Errorf("choosing %q asked %q", options[0], got)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll("#turns > .turn:nth-child(6) .answer").length`); n != 1 {
		t.Errorf("the chosen option was not answered: %s", uiEval[string](t, ctx, `document.querySelector("#turns > .turn:nth-child(6)").textContent`))
	}

	// 5. History survives a reload: the session comes back from the server.
	turns := uiEval[int](t, ctx, `document.querySelectorAll("#turns > .turn").length`)
	pageProblems(t, ctx)
	uiDo(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#composer-input")))
	watchPage(t, ctx)
	uiWaitFor(t, ctx, "the conversation after a reload", fmt.Sprintf(`document.querySelectorAll("#turns > .turn").length === %d`, turns))
	if q := uiEval[string](t, ctx, `document.querySelector("`+first+` .question-bubble").textContent`); q != "monthly revenue in 2025" {
		t.Errorf("after a reload the first question is %q", q)
	}
	if n := len(uiColumn(t, ctx, first, 0)); n != 12 {
		t.Errorf("after a reload the first answer's table has %d rows, want 12", n)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll("`+first+` .chart svg").length`); n != 1 {
		t.Errorf("after a reload the first answer has %d charts", n)
	}
	if r := uiEval[string](t, ctx, `(document.querySelector("`+first+` .answer > .reading") || {}).textContent || ""`); !strings.HasPrefix(r, "Read as: revenue") {
		t.Errorf("after a reload the first answer's reading is %q", r)
	}
	// …and a restart of the server: sessions and results live in its state
	// database.
	pageProblems(t, ctx)
	s.restart(t)
	uiDo(t, ctx, "reload after a restart", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#composer-input")))
	watchPage(t, ctx)
	uiWaitFor(t, ctx, "the conversation after a restart", fmt.Sprintf(`document.querySelectorAll("#turns > .turn").length === %d`, turns))
	if n := len(uiColumn(t, ctx, first, 0)); n != 12 {
		t.Errorf("after a restart the first answer's table has %d rows, want 12", n)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll("#session-list .session-item").length`); n != 1 {
		t.Errorf("the sidebar lists %d conversations, want 1", n)
	}
	if cur := uiEval[string](t, ctx, `document.querySelector("#session-list .session-item").getAttribute("aria-current")`); cur != "true" {
		t.Errorf("the open conversation is not marked current in the sidebar")
	}

	// 6. Keyboard: "/" focuses the composer.
	uiEval[chromedp.Void](t, ctx, `document.activeElement.blur()`)
	uiDo(t, ctx, "press /", chromedp.KeyEvent("/"))
	if id := uiEval[string](t, ctx, `document.activeElement.id`); id != "composer-input" {
		t.Errorf(`"/" focused %q, want the composer`, id)
	}
	// The protocol types the key's character apart from the keydown that
	// the page cancels; a person's "/" does not reach the composer.
	uiEval[chromedp.Void](t, ctx, `document.querySelector("#composer-input").value = ""`)

	// 7. Run my SQL: an allowed query shows the guard's verdict and the rows;
	// a write is refused before the database.
	uiDo(t, ctx, "open Run my SQL",
		chromedp.Click(chromedp.CSS("#open-run")),
		chromedp.WaitVisible(chromedp.CSS("#run-sql")),
		chromedp.SendKeys(chromedp.CSS("#run-sql"), "SELECT name, country\nFROM customers\nWHERE country = 'Germany'\nORDER BY name\nLIMIT 8"),
		chromedp.Click(chromedp.CSS("#run-submit")),
	)
	uiWaitFor(t, ctx, "the run's result", `document.querySelector("#run-output .data-table") !== null || document.querySelector("#run-output .verdict.refused") !== null`)
	if n := uiEval[int](t, ctx, `document.querySelectorAll("#run-output .verdict.allowed").length`); n != 1 {
		t.Errorf("Run my SQL: no allowed verdict: %s", uiEval[string](t, ctx, `document.querySelector("#run-output").textContent`))
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll("#run-output .data-table tbody tr").length`); n != 8 {
		t.Errorf("Run my SQL shows %d rows, want 8", n)
	}
	uiShot(t, ctx, "run-sql")
	uiDo(t, ctx, "run a write",
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#run-sql").value = ""`),
		chromedp.SendKeys(chromedp.CSS("#run-sql"), "DELETE FROM customers"),
		chromedp.Click(chromedp.CSS("#run-submit")),
	)
	uiWaitFor(t, ctx, "the refusal", `document.querySelector("#run-output .verdict.refused") !== null`)
	// Both statements joined the conversation, as its history shows them.
	uiWaitFor(t, ctx, "the runs in the conversation", fmt.Sprintf(`document.querySelectorAll("#turns > .turn").length === %d`, turns+2))
	turns += 2
	uiDo(t, ctx, "Esc closes the panel", chromedp.KeyEvent(kb.Escape))
	uiWaitFor(t, ctx, "the panel to close", `document.querySelector("#run-panel").hidden`)

	// 8. Dark mode, remembered across a reload.
	uiDo(t, ctx, "switch to dark", chromedp.Click(chromedp.CSS("#theme-toggle")))
	pageProblems(t, ctx)
	uiDo(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#composer-input")))
	watchPage(t, ctx)
	if theme := uiEval[string](t, ctx, `document.documentElement.dataset.theme`); theme != "dark" {
		t.Errorf("after a reload the theme is %q, want dark", theme)
	}
	uiWaitFor(t, ctx, "the conversation in dark mode", fmt.Sprintf(`document.querySelectorAll("#turns > .turn").length === %d`, turns))
	if *screenshotsFlag {
		uiDo(t, ctx, "a tall viewport", chromedp.EmulateViewport(1360, 1780))
		uiEval[chromedp.Void](t, ctx, `document.querySelector("#conversation").scrollTop = document.querySelector("`+first+`").offsetTop - 24`)
		uiShot(t, ctx, "dark")
		uiDo(t, ctx, "the usual viewport", chromedp.EmulateViewport(1360, 860))
	}

	// 9. Feedback on an answer.
	uiDo(t, ctx, "thumbs up", chromedp.Click(chromedp.CSS(first+` .feedback [data-vote="up"]`)))
	uiWaitFor(t, ctx, "the feedback confirmation", `document.querySelector("`+first+` .feedback [data-vote='up']").getAttribute("aria-pressed") === "true"`)

	// 10. Manual mode: pasted results go with the question; the server's
	// answer (not available yet, or an answer) is shown as a card.
	uiDo(t, ctx, "paste results",
		chromedp.Click(chromedp.CSS("#paste-toggle")),
		chromedp.WaitVisible(chromedp.CSS("#paste-input")),
		chromedp.SendKeys(chromedp.CSS("#paste-input"), "country,customers\nGermany,683\nFrance,512"),
	)
	uiAsk(t, ctx, "which country has the most customers")
	last := "#turns > .turn:last-child"
	if n := uiEval[int](t, ctx, `document.querySelectorAll("`+last+` .answer, `+last+` .notice.info").length`); n != 1 {
		t.Errorf("manual mode shows neither an answer nor a clear notice: %s", uiEval[string](t, ctx, `document.querySelector("`+last+`").textContent`))
	}

	pageProblems(t, ctx)
}

// numbersSorted reports whether the values parse as numbers in the
// direction dir (1 ascending, -1 descending).
func numbersSorted(t *testing.T, values []string, dir int) bool {
	t.Helper()
	nums := make([]float64, len(values))
	for i, v := range values {
		f, err := strconv.ParseFloat(strings.NewReplacer(",", "", "$", "").Replace(v), 64)
		if err != nil {
			t.Errorf("%q is not a number", v)
			return false
		}
		nums[i] = f
	}
	for i := 1; i < len(nums); i++ {
		if float64(dir)*(nums[i]-nums[i-1]) < 0 {
			return false
		}
	}
	return len(nums) > 1
}
