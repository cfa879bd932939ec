package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/runtime"
)

// doctorFindings runs quarry doctor --json in dir.
func doctorFindings(t *testing.T, dir string) (int, []runtime.Finding) {
	t.Helper()
	r := quarryCmd(t, "", "-C", dir, "doctor", "--json")
	var fs []runtime.Finding
	if err := json.Unmarshal([]byte(r.stdout), &fs); err != nil {
		t.Fatalf("doctor --json: %v\n%s%s", err, r.stdout, r.stderr)
	}
	return r.code, fs
}

// TestDoctorOnANewProject follows a new user: init, doctor, add the
// connection doctor suggests, doctor again. Each problem is said once,
// with a fix that can be done now.
func TestDoctorOnANewProject(t *testing.T) {
	dir := t.TempDir()
	if r := quarryCmd(t, "", "init", dir); r.code != 0 {
		t.Fatalf("init: exit %d %s", r.code, r.stderr)
	}
	cfg := filepath.Join(dir, "quarry.yaml")
	code, fs := doctorFindings(t, dir)
	type line struct{ Status, Area, Fix string }
	var got []line
	for _, f := range fs {
		if f.Area == "connection" || f.Area == "knowledge" {
			got = append(got, line{f.Status, f.Area, f.Fix})
		}
	}
	want := []line{
		{"warn", "connection", "run quarry learn --url URL (a postgres:// or mysql:// URL, kept in .env, or a SQLite file), or add your database under connections: in " + cfg + ", e.g. `mydb: {driver: sqlite, path: data.db}` or `mydb: {driver: postgres, url: ${DATABASE_URL}}` " +
			"(indented under connections:; its comments show more), then run quarry learn"},
		{"warn", "knowledge", ""}, // no learn without a connection: the line above says what to do
	}
	if diff := cmp.Diff(want, got); diff != "" || code != 0 {
		t.Errorf("doctor on a new project: exit %d (-want +got):\n%s", code, diff)
	}
	noRepeats(t, fs)

	// Do as the fix says, with the sqlite example.
	db, err := sqlite3.Open(filepath.Join(dir, "data.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	text, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(text), "\nconnections:\n", "\nconnections:\n  mydb: {driver: sqlite, path: data.db}\n", 1)
	if err := os.WriteFile(cfg, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	code, fs = doctorFindings(t, dir)
	got = nil
	for _, f := range fs {
		if f.Area == "knowledge" || f.Status != "ok" {
			got = append(got, line{f.Status, f.Area, f.Fix})
		}
	}
	want = []line{{"fail", "knowledge", "run quarry learn to write it from your database"}}
	if diff := cmp.Diff(want, got); diff != "" || code != 1 {
		t.Errorf("doctor after adding the connection: exit %d (-want +got):\n%s", code, diff)
	}
	noRepeats(t, fs)
}

// noRepeats fails when two findings say the same thing, or a finding
// says what to do in its detail and again in its fix.
func noRepeats(t *testing.T, fs []runtime.Finding) {
	t.Helper()
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.Detail] {
			t.Errorf("said twice: %s", f.Detail)
		}
		seen[f.Detail] = true
		if f.Fix != "" && strings.Contains(f.Detail, "quarry learn") {
			t.Errorf("the fix repeats the message: %s → %s", f.Detail, f.Fix)
		}
	}
}

// TestDoctorBrokenKnowledge: a knowledge folder that does not load stops
// every connection (the column policy is read from it); doctor says the
// folder's error once, under knowledge, and sends each connection there.
func TestDoctorBrokenKnowledge(t *testing.T) {
	dir := t.TempDir()
	if r := quarryCmd(t, "", "init", dir); r.code != 0 {
		t.Fatalf("init: exit %d %s", r.code, r.stderr)
	}
	db, err := sqlite3.Open(filepath.Join(dir, "data.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if r := quarryCmd(t, "", "-C", dir, "learn", "--url", filepath.Join(dir, "data.db")); r.code != 0 {
		t.Fatalf("learn: exit %d %s", r.code, r.stderr)
	}
	cfg := filepath.Join(dir, "quarry.yaml")
	src, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "\nconnections:\n") {
		t.Fatalf("quarry.yaml after learn has no connections: block:\n%s", src)
	}
	src = []byte(strings.Replace(string(src), "\nconnections:\n", "\nconnections:\n  second:\n    driver: sqlite\n    path: data.db\n", 1))
	if err := os.WriteFile(cfg, src, 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "knowledge", "model.yaml")
	f, err := os.OpenFile(model, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("entities: [\n")
	f.Close()
	code, fs := doctorFindings(t, dir)
	var conns int
	for _, f := range fs {
		if f.Area == "connection" && !strings.HasPrefix(f.Detail, "no default connection") {
			conns++
			if f.Status != "fail" || !strings.Contains(f.Detail, "the knowledge folder does not load") || f.Fix != "fix the knowledge folder first" || strings.Contains(f.Detail, "model.yaml") {
				t.Errorf("connection finding %+v: want it sent to the knowledge finding", f)
			}
		}
		if f.Area == "knowledge" && (f.Status != "fail" || !strings.Contains(f.Detail, "model.yaml")) {
			t.Errorf("knowledge finding %+v: want the folder's error", f)
		}
	}
	if conns != 2 || code == 0 {
		t.Errorf("doctor: exit %d, %d connection findings, want a failure and 2", code, conns)
	}
	noRepeats(t, fs)
}
