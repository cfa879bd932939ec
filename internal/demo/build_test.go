package demo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// The anchor of the shared fixture: history runs 2023-07-01 .. 2026-06-30.
var testAnchor = time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)

// fixture is the demo database built once, with seed 1 and testAnchor,
// for the tests that only read it.
var fixture struct {
	path  string
	stats Stats
}

func TestMain(m *testing.M) {
	flag.Parse()
	if raceEnabled {
		// A build is one goroutine, so the race detector finds nothing
		// in it, and under the detector each build takes most of two
		// minutes. The plain test pass runs every test of this package.
		fmt.Println("internal/demo: every test runs in the plain pass (a build is one goroutine)")
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "quarry-demo-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixture.path = filepath.Join(dir, "demo.db")
	fixture.stats, err = Build(context.Background(), fixture.path, Options{Anchor: testAnchor})
	if err != nil {
		fmt.Fprintln(os.Stderr, "building the fixture:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func fileHash(t testing.TB, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestBuildIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	same := filepath.Join(dir, "same.db")
	// A clock times the build and has no effect on the data.
	ticks := []time.Time{time.Unix(100, 0), time.Unix(103, 0)}
	now := func() time.Time { t := ticks[0]; ticks = ticks[1:]; return t }
	st, err := Build(context.Background(), same, Options{Anchor: testAnchor, Seed: 1, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if st.Duration != 3*time.Second {
		t.Errorf("Duration = %v from the clock, want 3s", st.Duration)
	}
	if a, b := fileHash(t, fixture.path), fileHash(t, same); a != b {
		t.Errorf("same seed and anchor gave different files: %s vs %s", a, b)
	}
	other := filepath.Join(dir, "other.db")
	if _, err := Build(context.Background(), other, Options{Anchor: testAnchor, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	if fileHash(t, fixture.path) == fileHash(t, other) {
		t.Error("seeds 1 and 2 gave the same file")
	}
}

func TestBuildStats(t *testing.T) {
	db := openTest(t, fixture.path)
	var got []TableStat
	for _, name := range tableNames {
		got = append(got, TableStat{Name: name, Rows: queryInt(t, db, "SELECT count(*) FROM "+name)})
	}
	if diff := cmp.Diff(got, fixture.stats.Tables); diff != "" {
		t.Errorf("Stats.Tables differ from the file (-file +stats):\n%s", diff)
	}
	if fixture.stats.Duration != 0 {
		t.Errorf("Duration = %v without a clock, want 0", fixture.stats.Duration)
	}
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "taken.db")
	if err := os.WriteFile(existing, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		path string
		opts Options
		kind quarry.Kind
	}{
		{"existing file", context.Background(), existing, Options{Anchor: testAnchor}, quarry.KindInput},
		{"missing directory", context.Background(), filepath.Join(dir, "no", "such", "demo.db"), Options{Anchor: testAnchor}, quarry.KindInput},
		{"no anchor", context.Background(), filepath.Join(dir, "a.db"), Options{}, quarry.KindUsage},
		{"canceled", canceled, filepath.Join(dir, "b.db"), Options{Anchor: testAnchor}, quarry.KindCanceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Build(tt.ctx, tt.path, tt.opts)
			if err == nil {
				t.Fatal("Build succeeded, want an error")
			}
			var qe *quarry.Error
			if !errors.As(err, &qe) || qe.Kind != tt.kind {
				t.Fatalf("error %v has kind %q, want %q", err, quarry.KindOf(err), tt.kind)
			}
			if strings.Contains(quarry.Message(err), "\n") {
				t.Errorf("message spans lines: %q", quarry.Message(err))
			}
		})
	}
	if b, err := os.ReadFile(existing); err != nil || string(b) != "keep me" {
		t.Errorf("existing file changed: %q, %v", b, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"taken.db"}, names); diff != "" {
		t.Errorf("failed builds left files behind (-want +got):\n%s", diff)
	}
}

// TestBuildCanceledMidway cancels while rows are being written and checks
// that nothing is left behind.
func TestBuildCanceledMidway(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := Build(ctx, filepath.Join(dir, "demo.db"), Options{Anchor: testAnchor})
	if quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("err = %v, want a canceled error", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("canceled build left %d files", len(entries))
	}
}

// TestOtherAnchor builds with an anchor in the middle of a leap-year month
// and checks that history still ends on the anchor day and starts on the
// first of the month 35 months before.
func TestOtherAnchor(t *testing.T) {
	anchor := time.Date(2024, 2, 29, 15, 4, 5, 0, time.FixedZone("X", 5*3600))
	path := filepath.Join(t.TempDir(), "leap.db")
	if _, err := Build(context.Background(), path, Options{Anchor: anchor, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	db := openTest(t, path)
	checkDateRanges(t, db, "2021-03-01", "2024-02-29")
	checkRowCounts(t, db)
}

func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	for i := 0; b.Loop(); i++ {
		path := filepath.Join(dir, fmt.Sprintf("demo%d.db", i))
		if _, err := Build(context.Background(), path, Options{Anchor: testAnchor}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = os.Remove(path)
		b.StartTimer()
	}
}

// openTest opens a demo file read-only for the length of the test.
func openTest(t testing.TB, path string) *sqlite3.Conn {
	t.Helper()
	db, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// queryRows runs a query and returns every row as text.
func queryRows(t testing.TB, db *sqlite3.Conn, q string) [][]string {
	t.Helper()
	stmt, _, err := db.Prepare(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer stmt.Close()
	var rows [][]string
	for stmt.Step() {
		row := make([]string, stmt.ColumnCount())
		for i := range row {
			if stmt.ColumnType(i) == sqlite3.NULL {
				row[i] = "NULL"
			} else {
				row[i] = stmt.ColumnText(i)
			}
		}
		rows = append(rows, row)
	}
	if err := stmt.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return rows
}

// queryColumn returns the first column of every row.
func queryColumn(t testing.TB, db *sqlite3.Conn, q string) []string {
	t.Helper()
	var out []string
	for _, r := range queryRows(t, db, q) {
		out = append(out, r[0])
	}
	return out
}

// queryInt returns the single integer a query gives.
func queryInt(t testing.TB, db *sqlite3.Conn, q string) int64 {
	t.Helper()
	return int64(queryFloat(t, db, q))
}

// queryFloat returns the single number a query gives.
func queryFloat(t testing.TB, db *sqlite3.Conn, q string) float64 {
	t.Helper()
	stmt, _, err := db.Prepare(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer stmt.Close()
	if !stmt.Step() {
		t.Fatalf("%s: no row (%v)", q, stmt.Err())
	}
	return stmt.ColumnFloat(0)
}
