package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestMonitorsPage drives the web UI's Monitors page against `quarry
// serve` on the demo (anchor 2026-06-30), with two monitors written by
// `quarry watch add` and run by `quarry watch run` in the week of the
// planted dip (so the alerts file holds its alert, investigated): the
// table shows each monitor with the sparkline the server judged (the
// dip marked, the band shaded), the detail shows the alert with the
// segments that moved and links to the runs' provenance, "Test now"
// judges the latest week, and Mute writes muted_until into the file.
func TestMonitorsPage(t *testing.T) {
	s := serveDemoProcess(t)
	quarryIn := func(args ...string) string {
		t.Helper()
		c := exec.Command(s.bin, append([]string{"-C", s.dir}, args...)...)
		c.Env = keylessEnv()
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("quarry %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	quarryIn("watch", "add", "weekly orders")
	quarryIn("watch", "add", "weekly orders by channel")
	// The dip's week is complete on Monday 2026-04-27: run as on that day.
	quarryIn("watch", "run", "weekly_orders", "--as-of", "2026-04-26")

	// What the page must show is what the API says.
	var api struct {
		Monitors []struct {
			Name, Status string
			Spark        struct {
				Points []struct {
					PeriodStart string `json:"period_start"`
					Anomalous   bool
				}
			}
		}
	}
	getJSON(t, s.base+"/api/monitors?as_of=2026-06-30", &api)
	if len(api.Monitors) != 2 {
		t.Fatalf("the API lists %d monitors", len(api.Monitors))
	}
	wantMarks := map[string][]string{}
	for _, m := range api.Monitors {
		for _, p := range m.Spark.Points {
			if p.Anomalous {
				wantMarks[m.Name] = append(wantMarks[m.Name], p.PeriodStart)
			}
		}
	}
	if got := wantMarks["weekly_orders"]; len(got) != 1 || got[0] != "2026-04-20" {
		t.Fatalf("the API marks weekly_orders' periods %v, want the dip's week", got)
	}

	ctx := newBrowser(t)
	uiDo(t, ctx, "open the web UI",
		chromedp.EmulateViewport(1360, 900),
		chromedp.Navigate(s.base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#composer-input")),
	)
	watchPage(t, ctx)
	// The demo's data ends on its anchor: judge as of that day.
	uiDo(t, ctx, "set the as-of day", chromedp.SetValue(chromedp.CSS("#mon-asof"), "2026-06-30"))
	uiDo(t, ctx, "open the Monitors view", chromedp.Click(chromedp.CSS("#view-monitors")))
	uiWaitFor(t, ctx, "the monitors", `document.querySelectorAll("#mon-rows tr").length === 2 && document.querySelector("#mon-status").textContent.includes("as of 2026-06-30")`)
	if cur := uiEval[string](t, ctx, `document.querySelector("#view-monitors").getAttribute("aria-current")`); cur != "page" {
		t.Errorf("the Monitors link is not current: %q", cur)
	}
	if hidden := uiEval[bool](t, ctx, `document.querySelector("#conversation").hidden && document.querySelector("#workflows").hidden`); !hidden {
		t.Error("the chat or the workflows still show")
	}
	for _, m := range api.Monitors {
		row := fmt.Sprintf(`document.querySelector('#mon-rows tr[data-monitor=%q]')`, m.Name)
		if st := uiEval[string](t, ctx, row+`.dataset.status`); st != m.Status {
			t.Errorf("%s: the page shows status %q, the API %q", m.Name, st, m.Status)
		}
		marks := uiEval[[]string](t, ctx, row+`? [...`+row+`.querySelectorAll(".mon-spark .mon-anomaly title")].map(t => t.textContent.slice(0, 10)) : null`)
		if strings.Join(marks, ",") != strings.Join(wantMarks[m.Name], ",") {
			t.Errorf("%s: the sparkline marks %v, the API %v", m.Name, marks, wantMarks[m.Name])
		}
		if n := uiEval[int](t, ctx, row+`.querySelectorAll(".mon-spark .mon-band").length`); n == 0 {
			t.Errorf("%s: the sparkline has no band", m.Name)
		}
		if label := uiEval[string](t, ctx, row+`.querySelector(".mon-spark").getAttribute("aria-label")`); !strings.Contains(label, "2026-06-28") {
			t.Errorf("%s: the sparkline says %q", m.Name, label)
		}
	}
	uiShot(t, ctx, "monitors")

	// The detail, opened from the keyboard: the alert of the dip with its
	// investigation, as the alerts file keeps it.
	uiDo(t, ctx, "open weekly_orders",
		chromedp.Focus(chromedp.CSS(`#mon-rows tr[data-monitor="weekly_orders"] a.mon-name`)),
		chromedp.KeyEvent(kb.Enter),
	)
	uiWaitFor(t, ctx, "the dip's alert", `document.querySelector('#mon-alerts li.mon-alert.alert[data-period="2026-04-20"] .mon-investigation') !== null && document.querySelectorAll("#mon-charts .mon-big").length === 1`)
	if h := uiEval[string](t, ctx, `location.hash`); h != "#monitors/weekly_orders" {
		t.Errorf("the address is %q", h)
	}
	alert := `document.querySelector('#mon-alerts li.mon-alert[data-period="2026-04-20"]')`
	if msg := uiEval[string](t, ctx, alert+`.querySelector(".mon-alert-message").textContent`); !strings.HasPrefix(msg, "orders fell 61% in the week of 2026-04-20: 183 against a baseline of 463") {
		t.Errorf("the alert says %q", msg)
	}
	segments := uiEval[[]string](t, ctx, `[...`+alert+`.querySelectorAll(".mon-contrib tbody tr td:first-child")].map(td => td.textContent)`)
	if len(segments) == 0 || segments[0] != "order_status=completed" {
		t.Errorf("the investigation names %v", segments)
	}
	if marks := uiEval[[]string](t, ctx, `[...document.querySelectorAll("#mon-charts .mon-anomaly title")].map(t => t.textContent.slice(0, 10))`); strings.Join(marks, ",") != "2026-04-20" {
		t.Errorf("the chart marks %v", marks)
	}
	// The provenance link of the run that read the series is the run's
	// bundle.
	href := uiEval[string](t, ctx, alert+`.querySelector(".mon-run a").getAttribute("href")`)
	var bundle struct{ Run struct{ RunID, SQL string } }
	getJSON(t, s.base+href, &bundle)
	if !strings.HasPrefix(bundle.Run.SQL, "-- quarry watch: monitor weekly_orders") || !strings.Contains(href, bundle.Run.RunID) {
		t.Errorf("the alert's run link %s is run %s: %q", href, bundle.Run.RunID, bundle.Run.SQL)
	}

	// Test now: the latest complete week, judged.
	uiDo(t, ctx, "test it", chromedp.Click(chromedp.CSS("#mon-test")))
	uiWaitFor(t, ctx, "the test", `document.querySelector("#mon-test-out li") !== null`)
	if got := uiEval[string](t, ctx, `document.querySelector("#mon-test-out li").textContent`); !strings.Contains(got, "2026-06-22 – 2026-06-28") || !strings.Contains(got, "normal against") {
		t.Errorf("the test says %q", got)
	}

	// Mute for 7 days, then unmute: the monitor's file says so each time.
	file := filepath.Join(s.dir, "knowledge", "monitors", "weekly_orders.yaml")
	uiDo(t, ctx, "mute it", chromedp.SetValue(chromedp.CSS("#mon-mute-days"), "7"), chromedp.Click(chromedp.CSS("#mon-mute")))
	uiWaitFor(t, ctx, "muted", `!document.querySelector("#mon-unmute").hidden && document.querySelector('#mon-rows tr[data-monitor="weekly_orders"]').dataset.status === "muted"`)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if want := "muted_until: " + time.Now().AddDate(0, 0, 7).Format(time.DateOnly); !strings.Contains(string(src), want) {
		t.Errorf("the file after Mute:\n%s\nwant %s", src, want)
	}
	uiShot(t, ctx, "monitors-detail")
	uiDo(t, ctx, "unmute it", chromedp.Click(chromedp.CSS("#mon-unmute")))
	uiWaitFor(t, ctx, "unmuted", `!document.querySelector("#mon-mute").hidden && document.querySelector('#mon-rows tr[data-monitor="weekly_orders"]').dataset.status !== "muted"`)
	if src, err := os.ReadFile(file); err != nil || strings.Contains(string(src), "muted_until") {
		t.Errorf("the file after Unmute: %v\n%s", err, src)
	}
	// A new conversation leaves the Monitors view for the chat.
	uiDo(t, ctx, "start a new conversation", chromedp.Click(chromedp.CSS("#new-chat")))
	uiWaitFor(t, ctx, "the chat", `document.querySelector("#monitors").hidden && !document.querySelector("#conversation").hidden && document.querySelector("#view-chat").getAttribute("aria-current") === "page"`)
	pageProblems(t, ctx)
}

// getJSON GETs url as the page would (same origin) and decodes it.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v %s", url, res.StatusCode, err, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}
