package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestLearnOnly(t *testing.T) {
	dir := project(t)
	r := quarryCmd(t, "", "-C", dir, "learn", "--only", "ORDERS")
	if r.code != 0 || !strings.Contains(r.stdout, "tables learned (--only ORDERS): 1;") || !strings.Contains(r.stderr, "learn: 1 of 2 tables match --only ORDERS") {
		t.Fatalf("learn --only: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	f, err := knowledge.Load(filepath.Join(dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Model.Entities) != 1 || f.Model.Entity("orders") == nil {
		t.Errorf("entities: %+v", f.Model.Entities)
	}
	if _, err := os.Stat(filepath.Join(dir, "knowledge", knowledge.LearnProgressFile)); !os.IsNotExist(err) {
		t.Errorf("progress file left after learn: %v", err)
	}
	// Then the rest, by two patterns in one flag.
	r = quarryCmd(t, "", "-C", dir, "learn", "-q", "--only", "main.customers, orders")
	if r.code != 0 || !strings.Contains(r.stdout, "tables added (1): customers") {
		t.Errorf("learn --only customers,orders: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "learn", "-q", "--only", "ordrs")
	if r.code != quarry.ExitUsage || !strings.Contains(r.stderr, `--only "ordrs" matches no table; did you mean orders?`) || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("learn --only ordrs: exit %d\n%s", r.code, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "learn", "-q", "--only", " , ")
	if r.code != quarry.ExitUsage {
		t.Errorf("learn --only ' , ': exit %d\n%s", r.code, r.stderr)
	}
}
