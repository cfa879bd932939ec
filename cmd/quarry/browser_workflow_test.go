package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/quarrydata/quarry/internal/workflow"
)

// TestWorkflowEditor drives the web editor against `quarry serve` on the
// demo: each demo workflow loads and exports to the bytes of its file; an
// edit that breaks the graph shows the server's own message, as
// workflow.Check words it, and fixing it clears it; a node is added and
// connected; weekly-review runs with its progress shown node by node until
// its final status.
func TestWorkflowEditor(t *testing.T) {
	s := serveDemoProcess(t)
	ctx := newBrowser(t)
	uiDo(t, ctx, "open the web UI",
		chromedp.EmulateViewport(1360, 900),
		chromedp.Navigate(s.base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#composer-input")),
	)
	watchPage(t, ctx)
	downloads := t.TempDir()
	uiDo(t, ctx, "let the page download", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads,
		})
		return err
	}))
	uiDo(t, ctx, "open the Workflows view", chromedp.Click(chromedp.CSS("#view-workflows")))
	uiWaitFor(t, ctx, "the workflows", `document.querySelectorAll("#wf-pick option").length > 0 && document.querySelector("#wf-check").textContent === "No problems"`)
	if cur := uiEval[string](t, ctx, `document.querySelector("#view-workflows").getAttribute("aria-current")`); cur != "page" {
		t.Errorf("the Workflows link is not current: %q", cur)
	}

	files, err := filepath.Glob(filepath.Join(s.dir, "knowledge", "workflows", "*.yaml"))
	if err != nil || len(files) < 2 {
		t.Fatalf("the demo project's workflows: %v %v", files, err)
	}
	picked := uiEval[[]string](t, ctx, `[...document.querySelectorAll("#wf-pick option")].map(o => o.value)`)
	sources := map[string][]byte{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources[name] = src
		if !slices.Contains(picked, name) {
			t.Fatalf("the picker offers %v, not %s", picked, name)
		}
		wfOpen(t, ctx, name)
		if got := uiEval[string](t, ctx, `document.querySelector("#wf-yaml").textContent`); got != string(src) {
			t.Errorf("%s: the YAML shown is not the file:\n%s", name, got)
		}
		if got := wfExport(t, ctx, downloads, name); string(got) != string(src) {
			t.Errorf("%s: the export is not byte for byte the file:\n%s", name, got)
		}
		w, _, _ := workflow.Check("workflows/"+name+".yaml", src, nil)
		if n := uiEval[int](t, ctx, `document.querySelectorAll("#wf-canvas .wf-node").length`); w == nil || n != len(w.Nodes) {
			t.Errorf("%s: the graph draws %d nodes", name, n)
		}
		if n := uiEval[int](t, ctx, `document.querySelectorAll("#wf-canvas .wf-edge").length`); n < len(w.Nodes)-1 {
			t.Errorf("%s: the graph draws %d arrows", name, n)
		}
	}
	uiShot(t, ctx, "workflow-editor")

	// The editor's graph, edited here as the page is edited there; what
	// the server must say of it is what workflow.Check says of its YAML.
	const file = "workflows/weekly-review.yaml"
	want, _ := workflow.Decode(file, sources["weekly-review"])
	expect := func(t *testing.T, path string) workflow.Problem {
		t.Helper()
		_, _, probs := workflow.Check(file, workflow.Encode(want), nil)
		for _, p := range probs {
			if p.Path == path {
				return p
			}
		}
		t.Fatalf("workflow.Check gives no problem at %s: %v", path, probs)
		return workflow.Problem{}
	}
	wfOpen(t, ctx, "weekly-review")

	// 1. A type error in an expression, typed into the node's form.
	wfSelect(t, ctx, "change")
	wfType(t, ctx, "expr", `revenue.value > "x"`)
	want.Node("change").Expr = `revenue.value > "x"`
	p := expect(t, "nodes[4].expr")
	wfProblem(t, ctx, p)
	if got := uiEval[string](t, ctx, `document.querySelector('#wf-side .wf-field-problem[data-for="nodes[4].expr"]').textContent`); got != p.Msg {
		t.Errorf("the expr field shows %q, want %q", got, p.Msg)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll('#wf-canvas .wf-node.bad[data-id="change"]').length`); n != 1 {
		t.Errorf("the node with the problem is not marked in the graph")
	}
	uiShot(t, ctx, "workflow-editor-problem")
	wfType(t, ctx, "expr", "pct_change(revenue.value, prior.value)")
	want.Node("change").Expr = "pct_change(revenue.value, prior.value)"
	wfClean(t, ctx)

	// 2. A branch whose then names a node that is gone.
	wfSelect(t, ctx, "note")
	uiDo(t, ctx, "delete the note", chromedp.Click(chromedp.CSS(`#wf-side [data-field="delete"]`)))
	want.Nodes = slices.DeleteFunc(want.Nodes, func(n workflow.Node) bool { return n.ID == "note" })
	wfProblem(t, ctx, expect(t, "nodes[5].then"))
	if n := uiEval[int](t, ctx, `document.querySelectorAll('#wf-canvas .wf-edge.missing[data-to="note"]').length`); n != 1 {
		t.Errorf("the arrow to the missing node is not drawn as missing")
	}

	// 3. A node added after the branch and connected by the selects.
	wfSelect(t, ctx, "moved")
	uiDo(t, ctx, "add a notify node",
		chromedp.SetValue(chromedp.CSS("#wf-add-kind"), "notify"),
		chromedp.Click(chromedp.CSS("#wf-add")),
	)
	uiWaitFor(t, ctx, "the new node", `document.querySelector('#wf-canvas .wf-node[data-id="notify_1"]') !== null && document.activeElement.dataset.field === "id"`)
	const message = "Revenue moved {{ percent(change.value) }} to {{ revenue.value }}."
	wfType(t, ctx, "message", message)
	uiDo(t, ctx, "connect it",
		chromedp.SetValue(chromedp.CSS(`#wf-side [data-field="next"]`), "done"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#wf-side [data-field="next"]').dispatchEvent(new Event("change"))`),
	)
	wfSelect(t, ctx, "moved")
	uiDo(t, ctx, "lead the branch to it",
		chromedp.Focus(chromedp.CSS(`#wf-side [data-field="then"]`)),
		chromedp.SetValue(chromedp.CSS(`#wf-side [data-field="then"]`), "notify_1"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#wf-side [data-field="then"]').dispatchEvent(new Event("change"))`),
	)
	want.Nodes = slices.Insert(want.Nodes, 6, workflow.Node{ID: "notify_1", Kind: workflow.Notify, Message: message, Next: "done"})
	want.Node("moved").Then = "notify_1"
	wfClean(t, ctx)
	edited := workflow.Encode(want)
	if _, _, probs := workflow.Check(file, edited, nil); len(probs) > 0 {
		t.Fatalf("the expected edit has problems: %v", probs)
	}
	if got := uiEval[string](t, ctx, `document.querySelector("#wf-yaml").textContent`); got != string(edited) {
		t.Errorf("after the edits the YAML is:\n%s\nwant:\n%s", got, edited)
	}
	if got := wfExport(t, ctx, downloads, "weekly-review"); string(got) != string(edited) {
		t.Errorf("the edited export:\n%s\nwant:\n%s", got, edited)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll('#wf-canvas .wf-edge.then[data-from="moved"][data-to="notify_1"]').length`); n != 1 {
		t.Errorf("the graph does not draw moved → notify_1 as then")
	}

	// 4. Run weekly-review as the demo has it, with its progress live.
	wfOpen(t, ctx, "weekly-review")
	// Every text the run's status line is given, in order: the records of
	// the changes keep each one, also when several events arrive at once.
	uiEval[chromedp.Void](t, ctx, `(() => {
		window.__runSeen = [];
		new MutationObserver((records) => {
			for (const r of records) for (const n of r.addedNodes) window.__runSeen.push(n.textContent);
		}).observe(document.getElementById("wf-run-status"), {childList: true});
	})()`)
	uiDo(t, ctx, "run it", chromedp.Focus(chromedp.CSS("#wf-run")), chromedp.KeyEvent(kb.Enter))
	uiWaitFor(t, ctx, "the final status", `["completed", "stopped", "failed", "waiting", "error"].includes(document.querySelector("#wf-run-status").dataset.status)`)
	final := uiEval[string](t, ctx, `document.querySelector("#wf-run-status").dataset.status`)
	statusText := uiEval[string](t, ctx, `document.querySelector("#wf-run-status").textContent`)
	seen := uiEval[[]string](t, ctx, `window.__runSeen`)
	// Before the final status the page showed the run under way, a state
	// event at a time (serve reads "last week" against today, so how far
	// the demo's weekly review gets, and so how many states there are,
	// depends on the day).
	running := slices.IndexFunc(seen, func(x string) bool { return strings.HasPrefix(x, "Running revenue… · run ") })
	finished := slices.IndexFunc(seen, func(x string) bool { return strings.HasPrefix(x, "Finished: ") })
	if running < 0 || finished < running || seen[len(seen)-1] != statusText {
		t.Errorf("the progress was not shown as the run went on: %q", seen)
	}
	if final == "error" {
		t.Fatalf("the run failed: %s", statusText)
	}
	runID := statusText[strings.LastIndex(statusText, " ")+1:]
	show := exec.Command(s.bin, "-C", s.dir, "workflow", "show", runID, "--json")
	show.Env = keylessEnv()
	out, err := show.Output()
	var stored workflow.State
	if err != nil || json.Unmarshal(out, &stored) != nil {
		t.Fatalf("quarry workflow show %s: %v\n%s", runID, err, out)
	}
	if stored.Status != final || statusText != fmt.Sprintf("Finished: %s · %s", final, strings.Join(nonEmpty(stored.Message, "run "+runID), " · ")) {
		t.Errorf("the page shows %q; the run's record says %s (%s)", statusText, stored.Status, stored.Message)
	}
	shown := uiEval[[]string](t, ctx, `[...document.querySelectorAll("#wf-run-nodes .wf-run-node")].map(li => li.dataset.id + ":" + li.dataset.status)`)
	var recorded []string
	for _, n := range stored.Nodes {
		recorded = append(recorded, n.ID+":"+n.Status)
		if got := uiEval[string](t, ctx, fmt.Sprintf(`document.querySelector('#wf-canvas .wf-node[data-id=%q] .wf-run-mark').textContent`, n.ID)); got != n.Status {
			t.Errorf("the graph marks %s %q, the record %q", n.ID, got, n.Status)
		}
	}
	if !slices.Equal(shown, recorded) || len(shown) == 0 {
		t.Errorf("the page lists the nodes %v; the record %v", shown, recorded)
	}
	t.Logf("weekly-review: %s; nodes %v; the page showed %v", statusText, shown, seen)
	uiShot(t, ctx, "workflow-editor-run")
	pageProblems(t, ctx)
}

func nonEmpty(parts ...string) []string {
	return slices.DeleteFunc(parts, func(s string) bool { return s == "" })
}

// wfOpen picks a workflow in the editor and waits until its check is back.
func wfOpen(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	uiDo(t, ctx, "pick "+name,
		chromedp.SetValue(chromedp.CSS("#wf-pick"), name),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#wf-pick").dispatchEvent(new Event("change"))`),
	)
	uiWaitFor(t, ctx, name+" checked", fmt.Sprintf(`document.querySelector("#wf-check").textContent === "No problems" && document.querySelector("#wf-yaml").textContent.startsWith(%q)`, "name: "+name+"\n"))
}

// wfType types text into the selected node's field, in place of what it
// held.
func wfType(t *testing.T, ctx context.Context, field, text string) {
	t.Helper()
	sel := fmt.Sprintf(`#wf-side [data-field=%q]`, field)
	uiEval[chromedp.Void](t, ctx, fmt.Sprintf(`document.querySelector(%q).value = ""`, sel))
	uiDo(t, ctx, "type into "+field, chromedp.SendKeys(chromedp.CSS(sel), text))
}

// wfSelect selects a node from the keyboard: its box, then Enter.
func wfSelect(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	box := fmt.Sprintf(`#wf-canvas .wf-node[data-id=%q]`, id)
	uiDo(t, ctx, "select "+id, chromedp.Focus(chromedp.CSS(box)), chromedp.KeyEvent(kb.Enter))
	uiWaitFor(t, ctx, id+" selected", fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-pressed") === "true" && document.querySelector('#wf-side [data-field="id"]').value === %q`, box, id))
}

// wfProblem waits for the editor to list exactly the problem p, as the
// server worded it.
func wfProblem(t *testing.T, ctx context.Context, p workflow.Problem) {
	t.Helper()
	uiWaitFor(t, ctx, "the problem at "+p.Path, fmt.Sprintf(`(() => {
		const items = [...document.querySelectorAll("#wf-problems .wf-problem-go")];
		return document.querySelector("#wf-check").textContent === "1 problem" && items.length === 1 &&
			items[0].dataset.path === %q && items[0].querySelector(".wf-problem-msg").textContent === %q &&
			items[0].querySelector(".wf-problem-where").textContent === %q;
	})()`, p.Path, p.Msg, fmt.Sprintf("line %d · %s", p.Line, p.Path)))
}

// wfClean waits until the editor's last check found nothing wrong.
func wfClean(t *testing.T, ctx context.Context) {
	t.Helper()
	uiWaitFor(t, ctx, "no problems", `document.querySelector("#wf-check").textContent === "No problems" && document.querySelectorAll("#wf-problems .wf-problem-go").length === 0`)
}

// wfExport clicks Export YAML and returns the file the browser saved.
func wfExport(t *testing.T, ctx context.Context, dir, name string) []byte {
	t.Helper()
	path := filepath.Join(dir, name+".yaml")
	os.Remove(path)
	uiDo(t, ctx, "export "+name, chromedp.Click(chromedp.CSS("#wf-export")))
	deadline := time.Now().Add(30 * time.Second)
	for {
		// Chromium may create the file empty before the download's
		// .crdownload appears (a clean run read it so); an export is
		// never empty.
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			if _, err := os.Stat(path + ".crdownload"); os.IsNotExist(err) {
				return b
			}
		}
		if time.Now().After(deadline) {
			ents, _ := os.ReadDir(dir)
			t.Fatalf("no %s.yaml was downloaded; the folder has %v", name, ents)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
