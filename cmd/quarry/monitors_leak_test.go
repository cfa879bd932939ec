package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/quarrydata/quarry/internal/watch"
)

// TestMonitorsPageLeaksNoRestrictedColumn attacks the Monitors page's
// endpoints with a monitor of the demo's restricted employees.salary read
// through a view (staff_pay.amount: the knowledge folder cannot tell it
// is the salary; the guard's lineage can) and an alert kept for it with
// the real figures (as if kept before the column was restricted). No
// response of the list, the series, "test now", the alerts or the runs
// they record holds a salary or a month's total of them; the monitor
// shows as failing, with why, and its alert as withheld. A monitor of an
// allowed metric beside it shows its data, so the search is not vacuous.
func TestMonitorsPageLeaksNoRestrictedColumn(t *testing.T) {
	dir := t.TempDir()
	demo := demoProject(t)
	for _, name := range []string{"demo.db", "quarry.yaml"} {
		b, err := os.ReadFile(filepath.Join(demo, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.CopyFS(filepath.Join(dir, "knowledge"), os.DirFS(filepath.Join(demo, "knowledge"))); err != nil {
		t.Fatal(err)
	}

	// The view, and the secrets: every salary and every month's total.
	db, err := sqlite3.Open(filepath.Join(dir, "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`CREATE VIEW staff_pay AS SELECT id, hired_on, salary AS amount FROM employees`); err != nil {
		t.Fatal(err)
	}
	var secrets []float64
	stmt, _, err := db.Prepare(`SELECT salary FROM employees UNION ALL SELECT SUM(salary) FROM employees GROUP BY strftime('%Y-%m', hired_on)`)
	if err != nil {
		t.Fatal(err)
	}
	for stmt.Step() {
		secrets = append(secrets, stmt.ColumnFloat(0))
	}
	stmt.Close()
	db.Close()
	if len(secrets) < 60 {
		t.Fatalf("read %d secrets", len(secrets))
	}

	edit := func(file, anchor, insert string) {
		t.Helper()
		p := filepath.Join(dir, "knowledge", file)
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), anchor) {
			t.Fatalf("%s has no %q: %v", file, anchor, err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), anchor, insert+anchor, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("model.yaml", "  - name: employees\n    table: employees\n", `  - name: staff_pay
    table: staff_pay
    description: Pay by hire.
    primary_key: id
    time_column: hired_on
    columns:
      - name: id
        type: int
      - name: hired_on
        type: date
      - name: amount
        type: float

`)
	edit("metrics.yaml", "  - name: revenue\n", `  - name: payroll
    description: Pay of the people hired in the period.
    entity: staff_pay
    expr: SUM(staff_pay.amount)
    time: staff_pay.hired_on
    format: currency

`)
	monitors := filepath.Join(dir, "knowledge", "monitors")
	if err := os.MkdirAll(monitors, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{
		"payroll.yaml":       "name: payroll\nmetric: payroll\ngrain: month\nschedule: monthly\n",
		"weekly_orders.yaml": "name: weekly_orders\nmetric: orders\ngrain: week\nschedule: every Monday at 9\n",
	} {
		if err := os.WriteFile(filepath.Join(monitors, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An alert kept with the real figures.
	kept := watch.Alert{Monitor: "payroll", Kind: watch.KindAlert, Segment: "hired=" + figure(secrets[0]), PeriodStart: "2026-05-01", PeriodEnd: "2026-05-31", Direction: "up", IncidentStart: "2026-04-01",
		Value: secrets[len(secrets)-1], Baseline: secrets[len(secrets)-2], Message: "payroll rose to " + figure(secrets[len(secrets)-1]),
		Investigation: &watch.Investigation{BaselineStart: "2026-02-01", BaselineEnd: "2026-04-30", Contributors: []watch.Contribution{{Dimension: "name", Value: figure(secrets[1]), Current: secrets[1], Baseline: secrets[2]}}}}
	line, err := json.Marshal(struct {
		At string   `json:"at"`
		To []string `json:"to"`
		watch.Alert
	}{At: "2026-06-01T09:00:00Z", To: []string{}, Alert: kept})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".quarry"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".quarry", "alerts.jsonl"), append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	leaks := leakSearch(secrets)
	if leaks(string(line)) == "" {
		t.Fatal("the search does not find the secrets in the kept alert itself")
	}

	base := serveForTest(t, dir, nil)
	type answer struct {
		status int
		body   string
	}
	call := func(method, path, body string) answer {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if leak := leaks(string(b)); leak != "" {
			t.Errorf("%s %s leaks %s: %s", method, path, leak, b)
		}
		return answer{res.StatusCode, string(b)}
	}

	var list struct {
		Monitors []struct {
			Name, Status, Problem string
			Latest                *struct{ Value float64 }
			Spark                 *struct{ Points []any }
		}
	}
	a := call("GET", "/api/monitors?as_of=2026-06-30", "")
	if err := json.Unmarshal([]byte(a.body), &list); err != nil || a.status != 200 || len(list.Monitors) != 2 {
		t.Fatalf("the list: %d %s", a.status, a.body)
	}
	for _, m := range list.Monitors {
		switch m.Name {
		case "payroll":
			// Refused by the guard (employees.salary, read through the
			// view), or before by the model, which restricts the view's
			// column the guard refuses (runtime/viewpolicy.go).
			if m.Status != "failing" || !strings.Contains(m.Problem, "employees.salary") && !strings.Contains(m.Problem, "staff_pay.amount") || !strings.Contains(m.Problem, "restrict") || m.Latest != nil || m.Spark != nil {
				t.Errorf("payroll is listed %s (%q) with data %v %v", m.Status, m.Problem, m.Latest, m.Spark)
			}
		case "weekly_orders":
			if m.Status == "failing" || m.Latest == nil || m.Latest.Value < 100 || m.Spark == nil || len(m.Spark.Points) == 0 {
				t.Errorf("weekly_orders is listed %s (%q) without data", m.Status, m.Problem)
			}
		}
	}
	for _, path := range []string{"/api/monitors/payroll/series?as_of=2026-06-30&periods=520", "/api/monitors/payroll/series", "/api/monitors"} {
		call("GET", path, "")
	}
	if a := call("GET", "/api/monitors/payroll/series?as_of=2026-06-30", ""); a.status != 422 || !strings.Contains(a.body, `"kind":"rejected"`) && !strings.Contains(a.body, `"kind":"forbidden"`) {
		t.Errorf("payroll's series: %d %s", a.status, a.body)
	}
	if a := call("POST", "/api/monitors/payroll/test", `{"as_of":"2026-06-30"}`); a.status != 422 {
		t.Errorf("payroll tested: %d %s", a.status, a.body)
	}
	if a := call("GET", "/api/monitors/weekly_orders/series?as_of=2026-06-30", ""); a.status != 200 || !strings.Contains(a.body, `"period_start":"2026-06-22"`) {
		t.Errorf("weekly_orders' series: %d %s", a.status, a.body)
	}
	var alerts struct {
		Alerts []struct {
			Withheld, Message, Segment string
			Direction                  string
			IncidentStart              string `json:"incident_start"`
			Value                      float64
			Investigation              *watch.Investigation
		}
	}
	a = call("GET", "/api/monitors/payroll/alerts", "")
	if err := json.Unmarshal([]byte(a.body), &alerts); err != nil || len(alerts.Alerts) != 1 {
		t.Fatalf("payroll's alerts: %d %s", a.status, a.body)
	}
	// Nor which way it moved, or since when (found from outside).
	if got := alerts.Alerts[0]; got.Withheld == "" || got.Value != 0 || got.Segment != "[restricted]" || got.Direction != "" || got.IncidentStart != "" || got.Investigation == nil || len(got.Investigation.Contributors) != 0 {
		t.Errorf("payroll's kept alert is shown: %+v", got)
	}
	// The runs the page made, and their events, say nothing more.
	var runs []struct {
		RunID string `json:"run_id"`
	}
	a = call("GET", "/api/runs?limit=100", "")
	// weekly_orders' runs at least; payroll's are refused before they
	// run where the model restricts the view's column.
	if err := json.Unmarshal([]byte(a.body), &runs); err != nil || len(runs) < 3 {
		t.Fatalf("the runs: %v %s", err, a.body)
	}
	for _, r := range runs {
		call("GET", "/api/runs/"+r.RunID+"/events", "")
		call("GET", "/api/runs/"+r.RunID+"/export?format=md", "")
	}
}

// leakSearch returns a function that names the first secret figure a text
// holds, as any surface might write it (1234.5, 1234.50, 1,234.5, 1235,
// 6 significant digits), standing alone, or "".
func leakSearch(secrets []float64) func(string) string {
	p := message.NewPrinter(language.English)
	var forms []string
	for _, v := range secrets {
		for _, f := range []string{strconv.FormatFloat(v, 'f', -1, 64), strconv.FormatFloat(v, 'g', 6, 64), fmt.Sprintf("%.0f", v), fmt.Sprintf("%.1f", v), fmt.Sprintf("%.2f", v), p.Sprintf("%.2f", v), p.Sprintf("%.0f", v)} {
			forms = append(forms, regexp.QuoteMeta(f))
		}
	}
	re := regexp.MustCompile(`(?:^|[^0-9.,])(` + strings.Join(forms, "|") + `)(?:$|[^0-9])`)
	return func(s string) string {
		if m := re.FindStringSubmatch(s); m != nil {
			return m[1]
		}
		return ""
	}
}

// figure writes a figure as the alerts' text does.
func figure(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
