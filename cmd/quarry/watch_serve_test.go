package main

import (
	"bufio"
	"context"
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

// TestWatchMemoryImported: the memory an older quarry kept in
// .quarry/watch.json is read into the state database by the first
// command that needs it, and the file is renamed so that it is not read
// again.
func TestWatchMemoryImported(t *testing.T) {
	dir := workflowProject(t, demoProject(t), nil)
	if err := os.MkdirAll(filepath.Join(dir, "knowledge", "monitors"), 0o755); err != nil {
		t.Fatal(err)
	}
	spec := "name: weekly_orders\nmetric: orders\ngrain: week\nschedule: every Monday at 9\n"
	if err := os.WriteFile(filepath.Join(dir, "knowledge", "monitors", "weekly_orders.yaml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, ".quarry", "watch.json")
	if err := os.MkdirAll(filepath.Dir(old), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte(`{"monitors": {"weekly_orders": {"last_run": "2026-06-29T09:00:00Z", "handled": {"": "2026-06-22"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		r := quarryCmd(t, "", "-C", dir, "watch", "list", "--json")
		var ls []struct {
			LastRun string `json:"last_run"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil || len(ls) != 1 || ls[0].LastRun != "2026-06-29T09:00:00Z" {
			t.Fatalf("watch list %d: %v %s %s", i+1, err, r.stdout, r.stderr)
		}
		if moved := strings.Contains(r.stderr, "the monitors' memory moved from"); moved != (i == 0) {
			t.Errorf("watch list %d: note of the move %v, want %v: %s", i+1, moved, i == 0, r.stderr)
		}
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("%s is still there: %v", old, err)
	}
	if _, err := os.Stat(old + ".imported"); err != nil {
		t.Error(err)
	}
}

// TestServeRunsMonitors: quarry serve runs the due monitor beside the
// requests (its line on stderr, its last run remembered); with --no-watch
// it does not.
func TestServeRunsMonitors(t *testing.T) {
	for _, noWatch := range []bool{false, true} {
		dir := workflowProject(t, demoProject(t), nil)
		if err := os.MkdirAll(filepath.Join(dir, "knowledge", "monitors"), 0o755); err != nil {
			t.Fatal(err)
		}
		spec := "name: weekly_orders\nmetric: orders\ngrain: week\nschedule: every Monday at 9\n"
		if err := os.WriteFile(filepath.Join(dir, "knowledge", "monitors", "weekly_orders.yaml"), []byte(spec), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"-C", dir, "serve", "--addr", "127.0.0.1:0"}
		if noWatch {
			args = append(args, "--no-watch")
		}
		ctx, cancel := context.WithCancel(context.Background())
		exited := make(chan result, 1)
		go func() { exited <- quarryCtx(t, ctx, "", args...) }()
		lastRun := func() string {
			r := quarryCmd(t, "", "-C", dir, "watch", "list", "--json")
			var ls []struct {
				LastRun string `json:"last_run"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil || len(ls) != 1 {
				t.Fatalf("watch list: %v %s %s", err, r.stdout, r.stderr)
			}
			return ls[0].LastRun
		}
		wait := 2 * time.Second // --no-watch: long enough for a worker's first tick
		if !noWatch {
			wait = 30 * time.Second
		}
		for deadline := time.Now().Add(wait); time.Now().Before(deadline) && lastRun() == ""; {
			time.Sleep(100 * time.Millisecond)
		}
		cancel()
		r := <-exited
		ran := strings.Contains(r.stderr, "quarry: watch: ") && strings.Contains(r.stderr, "monitor weekly_orders (first run, try 1): ran")
		if last := lastRun(); ran == noWatch || (last != "") == noWatch {
			t.Errorf("serve --no-watch=%v: the monitor ran %v, last run %q; exit %d\n%s", noWatch, ran, last, r.code, r.stderr)
		}
		if r.code != 0 {
			t.Errorf("serve --no-watch=%v: exit %d\n%s", noWatch, r.code, r.stderr)
		}
	}
}
