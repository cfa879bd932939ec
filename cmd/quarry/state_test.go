package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// pgStateProject is project(t) with its state on the PostgreSQL test
// server, in a schema of its own.
func pgStateProject(t *testing.T) string {
	t.Helper()
	base := connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	b := make([]byte, 6)
	rand.Read(b)
	schema := "qcmd_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, base); err == nil {
			conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
			conn.Close(ctx)
		}
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	dir := project(t)
	yaml := "version: 1\nstate: " + base + sep + "search_path=" + schema + "\nconnections:\n  shop:\n    driver: sqlite\n    path: shop.db\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestStateBackends runs the same commands on a project whose state is
// the embedded file and on one whose state is PostgreSQL, and expects the
// same behaviour: runs recorded, listed, shown, pruned and archived.
func TestStateBackends(t *testing.T) {
	for name, mk := range map[string]func(*testing.T) string{"sqlite": project, "postgres": pgStateProject} {
		t.Run(name, func(t *testing.T) {
			dir := mk(t)
			for _, sql := range []string{"SELECT count(*) FROM orders", "SELECT status FROM orders GROUP BY status"} {
				if r := quarryCmd(t, "", "-C", dir, "run", sql); r.code != 0 {
					t.Fatalf("run: exit %d %s", r.code, r.stderr)
				}
			}
			r := quarryCmd(t, "", "-C", dir, "runs", "list", "--json")
			var runs []struct {
				RunID  string `json:"run_id"`
				Status string `json:"status"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) != 2 || runs[0].Status != "succeeded" {
				t.Fatalf("runs list: %v %s %s", err, r.stdout, r.stderr)
			}
			if r := quarryCmd(t, "", "-C", dir, "runs", "show", runs[1].RunID[:20]); r.code != 0 || !strings.Contains(r.stdout, "count(*)") {
				t.Errorf("runs show: exit %d %s %s", r.code, r.stdout, r.stderr)
			}
			if r := quarryCmd(t, "", "-C", dir, "runs", "prune"); r.code != quarry.ExitUsage || !strings.Contains(r.stderr, "--older-than") {
				t.Errorf("prune without an age: exit %d %s", r.code, r.stderr)
			}
			if r := quarryCmd(t, "", "-C", dir, "runs", "prune", "--older-than", "30d"); r.code != 0 || !strings.Contains(r.stdout, "Deleted 0 runs") {
				t.Errorf("prune of nothing: exit %d %s %s", r.code, r.stdout, r.stderr)
			}
			arch := filepath.Join(t.TempDir(), "archive")
			r = quarryCmd(t, "", "-C", dir, "runs", "prune", "--older-than", "1ns", "--archive", arch, "--json")
			var out struct {
				Pruned  store.PruneReport
				Archive string
			}
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Pruned.Runs != 2 || out.Pruned.Results != 2 {
				t.Fatalf("prune: exit %d %v %s %s", r.code, err, r.stdout, r.stderr)
			}
			got := readArchive(t, out.Archive)
			if len(got) != 2 || len(got[0].Events) < 5 || len(got[0].Results) != 1 || store.Hash(got[0].Results[0].Body) != got[0].Results[0].Hash {
				t.Errorf("archive holds %+v", got)
			}
			if r := quarryCmd(t, "", "-C", dir, "runs", "list", "--json"); strings.TrimSpace(r.stdout) != "[]" && strings.TrimSpace(r.stdout) != "null" {
				t.Errorf("runs left after prune: %s", r.stdout)
			}
			if r := quarryCmd(t, "", "-C", dir, "runs", "show", runs[0].RunID); r.code != quarry.ExitInput {
				t.Errorf("a pruned run still shows: exit %d %s", r.code, r.stdout)
			}
		})
	}
}

func readArchive(t *testing.T, path string) []store.ArchivedRun {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.ArchivedRun
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r store.ArchivedRun
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBadStateURL(t *testing.T) {
	dir := project(t)
	yaml := "version: 1\nstate: postgres://quarry:s3cret@127.0.0.1:1/state?connect_timeout=2\nconnections:\n  shop:\n    driver: sqlite\n    path: shop.db\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	r := quarryCmd(t, "", "-C", dir, "runs", "list")
	if r.code != quarry.ExitConnection || strings.Contains(r.stderr, "s3cret") || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
		t.Errorf("unreachable state: exit %d, stderr %q; want one line, no password", r.code, r.stderr)
	}
}
