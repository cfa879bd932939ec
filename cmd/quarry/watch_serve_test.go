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
)

// TestWatchServeRunsDueMonitor starts quarry watch serve as a process on
// the demo: it runs the monitor that is due (never run) as a recorded
// run, logs one line for it, remembers it in the state database (so
// quarry watch run finds it not due), and stops cleanly on SIGTERM.
func TestWatchServeRunsDueMonitor(t *testing.T) {
	bin, demo := builtDemo(t)
	dir := workflowProject(t, demo, nil)
	monitors := filepath.Join(dir, "knowledge", "monitors")
	if err := os.MkdirAll(monitors, 0o755); err != nil {
		t.Fatal(err)
	}
	spec := "name: weekly_orders\nmetric: orders\ngrain: week\nschedule: every Monday at 9\n"
	if err := os.WriteFile(filepath.Join(monitors, "weekly_orders.yaml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-C", dir, "watch", "serve", "--as-of", "2026-06-30")
	cmd.Env = keylessEnv()
	errs, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(errs)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var log []string
	deadline := time.After(30 * time.Second)
	for ran := false; !ran; {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("quarry watch serve ended:\n%s", strings.Join(log, "\n"))
			}
			log = append(log, l)
			ran = strings.Contains(l, "monitor weekly_orders (first run, try 1): ran, 1 query run in ")
		case <-deadline:
			t.Fatalf("the monitor did not run within 30 s:\n%s", strings.Join(log, "\n"))
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		log = append(log, l)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("quarry watch serve after SIGTERM: %v\n%s", err, strings.Join(log, "\n"))
	}
	if last := log[len(log)-1]; last != "quarry: stopped" {
		t.Errorf("last line %q, want quarry: stopped", last)
	}

	r := quarryCmd(t, "", "-C", dir, "watch", "list", "--json")
	var ls []struct {
		Name    string `json:"name"`
		LastRun string `json:"last_run"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil || len(ls) != 1 || ls[0].LastRun != "2026-07-01T00:00:00Z" {
		t.Errorf("watch list: %v %s", err, r.stdout)
	}
	r = quarryCmd(t, "", "-C", dir, "runs", "list", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, "-- quarry watch: monitor weekly_orders") {
		t.Errorf("runs list has no run of the monitor: %s %s", r.stdout, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "watch", "run", "--as-of", "2026-06-30", "--json")
	var out []struct{ Monitor, Status string }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out) != 1 || out[0].Status != "not_due" {
		t.Errorf("watch run after serve: %v %s %s", err, r.stdout, r.stderr)
	}
}
