package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/workflow"
)

// workflowProject is a project over the demo database with its own state
// and knowledge folder (a copy of the demo's, plus files), so that tests
// may add workflows and runs.
func workflowProject(t *testing.T, demo string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "knowledge"), os.DirFS(filepath.Join(demo, "knowledge"))); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, "knowledge", filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	yaml := "version: 1\nconnection: demo\nconnections:\n  demo:\n    driver: sqlite\n    path: " + filepath.Join(demo, "demo.db") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestWorkflowDemo runs the demo's two workflows as a user would: list,
// validate, the weekly review to completion, the month-end check to its
// approval, approved and refused, and the run as a report.
func TestWorkflowDemo(t *testing.T) {
	dir := workflowProject(t, demoProject(t), nil)
	r := quarryCmd(t, "", "-C", dir, "workflow", "list", "--json")
	var ls []struct {
		Name  string `json:"name"`
		Valid bool   `json:"valid"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &ls) != nil || len(ls) != 2 || ls[0].Name != "month-end-reconciliation" || ls[1].Name != "weekly-review" || !ls[0].Valid || !ls[1].Valid {
		t.Fatalf("list --json: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := quarryCmd(t, "", "-C", dir, "workflow", "validate"); r.code != 0 || !strings.Contains(r.stdout, "2 workflows, no problems") {
		t.Fatalf("validate: exit %d %s %s", r.code, r.stdout, r.stderr)
	}

	r = quarryCmd(t, "", "-C", dir, "workflow", "run", "weekly-review", "--as-of", "2026-06-30", "--json")
	var st workflow.State
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || r.code != 0 || st.Status != workflow.StatusCompleted {
		t.Fatalf("run weekly-review: exit %d, %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	// Revenue fell 15.0% week on week (57,979.88 against 68,212.03),
	// just past the 15% threshold: the note ran. With a higher threshold
	// it does not.
	if n := st.Node("note"); n == nil || !strings.Contains(string(n.Output), "-15.0% against the week before (68,212.03), on 527 orders") {
		t.Errorf("the note: %+v", n)
	}
	r = quarryCmd(t, "", "-C", dir, "workflow", "run", "weekly-review", "--as-of", "2026-06-30", "--param", "threshold=0.2")
	if r.code != 0 || strings.Contains(r.stdout, "✓ note") || !strings.Contains(r.stdout, "→ else") {
		t.Errorf("threshold 0.2: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, bad := range [][]string{{"--param", "treshold=1"}, {"--param", "threshold=lots"}, {"--param", "threshold"}} {
		r := quarryCmd(t, "", append([]string{"-C", dir, "workflow", "run", "weekly-review"}, bad...)...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)\n%s", bad, r.code, r.stderr)
		}
		oneLineError(t, r)
	}

	r = quarryCmd(t, "", "-C", dir, "workflow", "run", "month-end-reconciliation", "--as-of", "2026-06-30", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || r.code != 10 || st.Status != workflow.StatusWaiting || !strings.Contains(st.Waiting.Approval, "316,888.38") {
		t.Fatalf("run month-end: exit %d (want 10, waiting), %v\n%s", r.code, err, r.stdout)
	}
	waiting := st.RunID
	if r := quarryCmd(t, "", "-C", dir, "workflow", "resume", waiting); r.code != 10 {
		t.Errorf("resume before approval: exit %d, want 10", r.code)
	}
	r = quarryCmd(t, "", "-C", dir, "workflow", "approve", waiting, "--by", "finance", "--note", "ledger agrees")
	if r.code != 0 || !strings.Contains(r.stdout, "✓ send") || !strings.Contains(r.stdout, "signed off by finance") {
		t.Errorf("approve: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := quarryCmd(t, "", "-C", dir, "workflow", "approve", waiting); r.code != 6 {
		t.Errorf("a second approval: exit %d, want 6", r.code)
	} else {
		oneLineError(t, r)
	}
	r = quarryCmd(t, "", "-C", dir, "workflow", "run", "month-end-reconciliation", "--as-of", "2026-06-30", "--json")
	_ = json.Unmarshal([]byte(r.stdout), &st)
	if r := quarryCmd(t, "", "-C", dir, "workflow", "approve", st.RunID, "--reject", "--by", "finance"); r.code != 1 || !strings.Contains(r.stdout, "refused by finance") {
		t.Errorf("reject: exit %d, want 1\n%s", r.code, r.stdout)
	}

	r = quarryCmd(t, "", "-C", dir, "workflow", "report", waiting, "--html")
	for _, want := range []string{"data:image/svg+xml;base64,", "total.value", "result res_r_", "column revenue, row 1", "by_channel.values[2]", "signed off by finance", "approved by finance: ledger agrees", "Revenue for last month is 316,888.38"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report --html lacks %q", want)
		}
	}
	if r.code != 0 {
		t.Errorf("report: exit %d %s", r.code, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "workflow", "show", waiting)
	if r.code != 0 || !strings.Contains(r.stdout, "completed") {
		t.Errorf("show RUN: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := quarryCmd(t, "", "-C", dir, "workflow", "show", "weekly-reveiw"); r.code != 6 || !strings.Contains(r.stderr, `did you mean "weekly-review"`) {
		t.Errorf("show with a typo: exit %d %s", r.code, r.stderr)
	}
	if r := quarryCmd(t, "", "-C", dir, "runs", "list", "--json"); r.code != 0 {
		t.Errorf("runs list after workflows: exit %d %s", r.code, r.stderr)
	}
}

// TestWorkflowValidateMessages holds what validate says about a broken
// workflow: every problem with its file and line, exit 3.
func TestWorkflowValidateMessages(t *testing.T) {
	broken := `name: broken
params:
- name: period
  type: text
  default: last week
nodes:
- id: revenue
  kind: ask
  question: widgets sold {{ period }}
  next: check
- id: check
  kind: branch
  if: revenue.value > "a lot"
  then: done
  else: nowhere
- id: done
  kind: end
`
	dir := workflowProject(t, demoProject(t), map[string]string{"workflows/broken.yaml": broken})
	r := quarryCmd(t, "", "-C", dir, "workflow", "validate", "broken")
	want := []string{
		"knowledge/workflows/broken.yaml:15: nodes[1].else: no node is called \"nowhere\"",
	}
	for _, w := range want {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("validate lacks %q:\n%s", w, r.stdout)
		}
	}
	if r.code != 3 {
		t.Errorf("exit %d, want 3", r.code)
	}
	fixed := strings.Replace(broken, "else: nowhere", "else: done", 1)
	dir = workflowProject(t, demoProject(t), map[string]string{"workflows/broken.yaml": fixed})
	r = quarryCmd(t, "", "-C", dir, "workflow", "validate", "broken")
	for _, w := range []string{
		`broken.yaml:9: nodes[0].question: "widgets sold last week" cannot be answered: the builtin planner does not know widgets`,
		`broken.yaml:13: nodes[1].if: invalid operation: > (mismatched types number and text)`,
	} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("validate lacks %q:\n%s", w, r.stdout)
		}
	}
	if r := quarryCmd(t, "", "-C", dir, "workflow", "run", "broken"); r.code != 3 {
		t.Errorf("run of an invalid workflow: exit %d, want 3", r.code)
	} else {
		oneLineError(t, r)
	}
}

// TestWorkflowResumeAfterKill kills the quarry process while a workflow
// runs its second node, then resumes the run from its log: the first
// node is not asked again, the second runs again and the run completes.
func TestWorkflowResumeAfterKill(t *testing.T) {
	bin, demo := builtDemo(t)
	slow := `name: slow
nodes:
- id: first
  kind: ask
  question: orders last week
  next: slow
- id: slow
  kind: query
  sql: WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) AS n FROM c
  next: done
- id: done
  kind: end
  message: "{{ first.value }} orders; {{ slow.value }} counted"
`
	dir := workflowProject(t, demo, map[string]string{"workflows/slow.yaml": slow})
	cmd := exec.Command(bin, "-C", dir, "workflow", "run", "slow", "--as-of", "2026-06-30")
	cmd.Env = keylessEnv()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "✓ first") {
			// The first node is recorded as finished, and the second has
			// started: kill the process in the middle of its query.
			time.Sleep(100 * time.Millisecond)
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
			break
		}
	}
	_ = cmd.Wait()
	if !killed {
		t.Fatal("the first node never finished")
	}
	r := quarryCmd(t, "", "-C", dir, "workflow", "runs", "--json")
	var runs []workflow.State
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("runs: %v %s", err, r.stdout)
	}
	if runs[0].Status != workflow.StatusRunning || runs[0].Next != "slow" {
		t.Fatalf("after the kill: %s, next %q; want running, next slow", runs[0].Status, runs[0].Next)
	}
	r = quarryCmd(t, "", "-C", dir, "workflow", "resume", runs[0].RunID, "--json")
	var st workflow.State
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || r.code != 0 || st.Status != workflow.StatusCompleted {
		t.Fatalf("resume: exit %d %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	if st.Node("first").Attempts != 1 || st.Node("slow").Attempts != 2 {
		t.Errorf("attempts: first %d (want 1), slow %d (want 2)", st.Node("first").Attempts, st.Node("slow").Attempts)
	}
	if end := st.Node("done"); end == nil || end.Message != "527 orders; 3,000,000 counted" {
		t.Errorf("the end: %+v", end)
	}
}

// TestWorkflowTick starts a scheduled workflow on the first tick (and
// not again until its schedule comes due), and goes on with a run whose
// wait's time has come.
func TestWorkflowTick(t *testing.T) {
	until := time.Now().UTC().Add(2 * time.Second).Truncate(time.Second).Add(time.Second).Format(time.RFC3339)
	pause := "name: pause\nschedule: every Monday at 8\nnodes:\n- id: a\n  kind: ask\n  question: orders last week\n  next: hold\n- id: hold\n  kind: wait\n  until: \"" + until + "\"\n  next: done\n- id: done\n  kind: end\n  message: \"{{ a.value }} orders\"\n"
	dir := workflowProject(t, demoProject(t), map[string]string{"workflows/pause.yaml": pause})
	r := quarryCmd(t, "", "-C", dir, "workflow", "tick", "--json")
	if r.code != 0 || strings.Count(r.stdout, `"action": "started"`) != 2 || !strings.Contains(r.stdout, `"status": "waiting"`) {
		t.Fatalf("first tick: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "workflow", "tick")
	if r.code != 0 || !strings.Contains(r.stdout, "pause: not due") || strings.Contains(r.stdout, "resumed") {
		t.Fatalf("second tick: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	deadline, _ := time.Parse(time.RFC3339, until)
	time.Sleep(time.Until(deadline) + 100*time.Millisecond)
	r = quarryCmd(t, "", "-C", dir, "workflow", "tick")
	if r.code != 0 || !strings.Contains(r.stdout, "pause: resumed") || !strings.Contains(r.stdout, ", completed") {
		t.Fatalf("tick after the wait: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestWorkflowRedactsWhatBecameRestricted runs a workflow that reads
// employees' names, restricts the column while it waits, and holds every
// surface to the policy of now: show, runs, the report and its HTML carry
// no name, and the run cannot go on to write one into a new message.
func TestWorkflowRedactsWhatBecameRestricted(t *testing.T) {
	leak := `name: leak
nodes:
- id: staff
  kind: query
  sql: SELECT name, id AS n FROM employees ORDER BY id LIMIT 3
  next: say
- id: say
  kind: notify
  message: "First hire: {{ staff.labels[0] }}"
  next: gate
- id: gate
  kind: wait
  approval: "Send the list starting with {{ staff.labels[0] }}?"
  next: e
- id: e
  kind: end
  message: "{{ staff.labels[1] }}"
`
	demo := demoProject(t)
	dir := workflowProject(t, demo, map[string]string{"workflows/leak.yaml": leak})
	r := quarryCmd(t, "", "-C", dir, "workflow", "run", "leak", "--json")
	var st workflow.State
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || r.code != 10 {
		t.Fatalf("run: exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	var said struct{ Message string }
	_ = json.Unmarshal(st.Node("say").Output, &said)
	name := strings.TrimPrefix(said.Message, "First hire: ")
	if name == "" || !strings.Contains(st.Waiting.Approval, name) {
		t.Fatalf("the name read: %q; approval %q", name, st.Waiting.Approval)
	}
	policyFile := filepath.Join(dir, "knowledge", "policy.yaml")
	src, err := os.ReadFile(policyFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(policyFile, append(src, []byte("  - column: employees.name\n    reason: test\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"show", st.RunID}, {"show", st.RunID, "--json"}, {"runs", "--json"}, {"report", st.RunID}, {"report", st.RunID, "--html"}} {
		r := quarryCmd(t, "", append([]string{"-C", dir, "workflow"}, args...)...)
		if r.code != 0 || strings.Contains(r.stdout, name) || !strings.Contains(r.stdout, "restricted") {
			t.Errorf("workflow %v after the restriction: exit %d, shows %q: %v\n%s", args, r.code, name, strings.Contains(r.stdout, name), r.stderr)
		}
	}
	r = quarryCmd(t, "", "-C", dir, "workflow", "approve", st.RunID)
	if r.code != 1 || !strings.Contains(r.stderr, "now restricts") || strings.Contains(r.stdout+r.stderr, name) {
		t.Errorf("approve after the restriction: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
}
