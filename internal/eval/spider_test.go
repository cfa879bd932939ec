package eval

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/connector/sqlite"
)

// The full Spider dev run takes a while, so it runs only when asked:
//
//	go test ./internal/eval -run TestSpider -spider ../../../shared/data/spider -v
var (
	spiderDir    = flag.String("spider", "", "run the Spider dev evaluation over this folder (dev.json and database/)")
	spiderOnly   = flag.String("spider.only", "", "comma-separated databases to limit the Spider run to")
	spiderReport = flag.String("spider.report", "", "write the Spider report to this file")
)

func openSQLite(ctx context.Context, path string) (Database, error) {
	return sqlite.Open(ctx, path, sqlite.Options{})
}

func TestSpider(t *testing.T) {
	if *spiderDir == "" {
		t.Skip("pass -spider DIR to run the Spider dev evaluation")
	}
	sp, err := LoadSpider(*spiderDir)
	if err != nil {
		t.Fatal(err)
	}
	opts := SpiderOptions{
		Options: Options{AsOf: time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC), Timeout: 30 * time.Second},
		Open:    openSQLite,
	}
	if *spiderOnly != "" {
		opts.Only = strings.Split(*spiderOnly, ",")
	}
	var log strings.Builder
	opts.Log = &log
	rep, err := RunSpider(context.Background(), sp, opts)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b, true); err != nil {
		t.Fatal(err)
	}
	t.Logf("Spider dev in %s:\n%s", rep.Elapsed.Round(time.Millisecond), b.String())
	if *spiderReport != "" {
		if err := os.WriteFile(*spiderReport, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range rep.Overall.Failed {
		if r.Status == StatusGoldError {
			t.Errorf("%s/%s: gold SQL failed: %s", r.Group, r.ID, r.Detail)
		}
	}
}

func TestLoadSpider(t *testing.T) {
	dir := t.TempDir()
	dev := `[
 {"db_id": "a", "question": "How many?", "query": "SELECT count(*) FROM t"},
 {"db_id": "b", "question": "List", "query": "SELECT x FROM t ORDER BY x"},
 {"db_id": "a", "question": "Max?", "query": "SELECT max(x) FROM t"}
]`
	if err := os.WriteFile(filepath.Join(dir, "dev.json"), []byte(dev), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "database", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "database", "a", "a.sqlite"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	sp, err := LoadSpider(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Questions != 3 || len(sp.DBs) != 1 || sp.DBs[0].Name != "a" || len(sp.DBs[0].Set.Cases) != 2 {
		t.Fatalf("LoadSpider = %+v", sp)
	}
	if sp.SkippedQuestions() != 1 || sp.Skipped[0].Name != "b" {
		t.Errorf("Skipped = %+v", sp.Skipped)
	}
	if _, err := LoadSpider(filepath.Join(dir, "nope")); err == nil {
		t.Error("LoadSpider of a missing folder: no error")
	}
}
