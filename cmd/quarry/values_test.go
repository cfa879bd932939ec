package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

// valuesProject is a project whose customers live in more cities than
// learn lists as known values: Zürich is only in the value index.
func valuesProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db, err := sqlite3.Open(filepath.Join(dir, "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);\nINSERT INTO customers(name, city) VALUES ")
	for i := range 120 {
		city := fmt.Sprintf("Town %c%c", 'a'+i%26, 'a'+i/26)
		switch i % 10 {
		case 3:
			city = "Zürich"
		case 7:
			city = "Aberdeen"
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "('Person %c%c', '%s')", 'a'+i%26, 'a'+i/26, city)
	}
	b.WriteString(";")
	if err := db.Exec(b.String()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	yaml := "version: 1\nconnections:\n  shop:\n    driver: sqlite\n    path: shop.db\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestAskWithTheValueIndex: quarry learn writes the value index, and a
// question naming a value the knowledge does not list (without its
// accent) is answered from it; without the index it is not, and doctor
// says how to build it.
func TestAskWithTheValueIndex(t *testing.T) {
	dir := valuesProject(t)
	r := quarryCmd(t, "", "-C", dir, "learn")
	if r.code != 0 {
		t.Fatalf("learn: exit %d %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "value index .cache/values.db:") {
		t.Errorf("learn does not report the value index:\n%s", r.stdout)
	}
	model, err := os.ReadFile(filepath.Join(dir, "knowledge", "model.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(model), "Zürich") {
		t.Fatalf("learn listed the city's values in model.yaml; the test needs it not to")
	}
	if ignore, err := os.ReadFile(filepath.Join(dir, "knowledge", ".cache", ".gitignore")); err != nil || !strings.Contains(string(ignore), "*") {
		t.Errorf("knowledge/.cache/.gitignore: %q %v", ignore, err)
	}

	var got struct {
		SQL  string  `json:"sql"`
		Rows [][]any `json:"rows"`
	}
	r = quarryCmd(t, "", "-C", dir, "ask", "--json", "how many customers in zurich")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &got) != nil {
		t.Fatalf("ask: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(got.SQL, "'Zürich'") || len(got.Rows) != 1 || got.Rows[0][0] != float64(12) {
		t.Errorf("how many customers in zurich: %s %v", got.SQL, got.Rows)
	}
	if code, fs := doctorFindings(t, dir); code != 0 || !hasFinding(fs, "ok", "values", "") {
		t.Errorf("doctor with the index: exit %d %+v", code, fs)
	}

	// Without the index: today's answer (not understood), and doctor's advice.
	if err := os.Remove(filepath.Join(dir, "knowledge", ".cache", "values.db")); err != nil {
		t.Fatal(err)
	}
	r = quarryCmd(t, "", "-C", dir, "ask", "how many customers in zurich")
	if r.code != quarry.ExitUnanswered || !strings.Contains(r.stderr+r.stdout, "zurich") {
		t.Errorf("ask without the index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, fs := doctorFindings(t, dir); !hasFinding(fs, "warn", "values", "run quarry learn") {
		t.Errorf("doctor without the index: %+v", fs)
	}
}

// hasFinding reports whether doctor found something with this status
// and area (and fix, when given).
func hasFinding(fs []runtime.Finding, status, area, fix string) bool {
	for _, f := range fs {
		if f.Status == status && f.Area == area && (fix == "" || f.Fix == fix) {
			return true
		}
	}
	return false
}
