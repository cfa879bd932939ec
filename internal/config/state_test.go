package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStateURLAndRetention(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	writeFile(t, path, "version: 1\nstate: postgres://quarry:${STATE_PW}@db:5432/team?sslmode=disable\nretention:\n  keep_runs: 90d\n  archive: archive\n")
	cfg, err := Load(path, testEnv(map[string]string{"STATE_PW": "s3cret"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.State != "postgres://quarry:s3cret@db:5432/team?sslmode=disable" {
		t.Errorf("state = %q; a URL is kept as written, expanded, not made a path", cfg.State)
	}
	if cfg.Retention.KeepRuns != 90*24*time.Hour || cfg.Retention.Archive != filepath.Join(dir, "archive") {
		t.Errorf("retention = %+v", cfg.Retention)
	}
	out, err := cfg.Redacted()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "s3cret") {
		t.Errorf("quarry config shows the state password:\n%s", out)
	}
	writeFile(t, path, "version: 1\nretention:\n  keep_runs: ninety days\n")
	if _, err := Load(path, nil); err == nil || !strings.Contains(err.Error(), "write it like 90d") {
		t.Errorf("bad age: %v", err)
	}
}

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{"90d": 90 * 24 * time.Hour, "2w": 14 * 24 * time.Hour, "36h": 36 * time.Hour, "1.5d": 36 * time.Hour, "0": 0,
		"1y": 365 * 24 * time.Hour, "90min": 90 * time.Minute, "1h30m0s": 90 * time.Minute, "1ns": 1} {
		if got, err := ParseAge(in); err != nil || got != want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "d", "-3d", "soon", "1e9d", "6m", "1h30m", "1M"} {
		if _, err := ParseAge(in); err == nil {
			t.Errorf("ParseAge(%q) accepted", in)
		}
	}
}

func TestPostgresPoolSettings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	writeFile(t, path, "version: 1\nconnections:\n  wh:\n    driver: postgres\n    url: ${WH}\n    pool_size: 8\n    work_mem: 256MB\n")
	cfg, err := Load(path, testEnv(map[string]string{"WH": "postgres://ro@db/wh"}))
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Connections["wh"]; c.PoolSize != 8 || c.WorkMem != "256MB" {
		t.Errorf("pool_size %d, work_mem %q", c.PoolSize, c.WorkMem)
	}
	for yaml, want := range map[string]string{
		"version: 1\nconnections:\n  wh:\n    driver: postgres\n    url: ${WH}\n    work_mem: lots\n": "like 64MB",
		"version: 1\nconnections:\n  wh:\n    driver: postgres\n    url: ${WH}\n    pool_size: 0\n":   "pool_size",
		"version: 1\nconnections:\n  f:\n    driver: sqlite\n    path: f.db\n    pool_size: 2\n":      "only for `driver: postgres`",
	} {
		writeFile(t, path, yaml)
		if _, err := Load(path, testEnv(map[string]string{"WH": "postgres://ro@db/wh"})); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v; want %q", yaml, err, want)
		}
	}
}

func TestStateThatIsNeitherAPathNorAURL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	for _, st := range []string{"host=db port=5432 user=q password=s3cret dbname=state", "mysql://u:s3cret@db/x", "postgres:q@db"} {
		writeFile(t, path, "version: 1\nstate: '"+st+"'\n")
		_, err := Load(path, nil)
		if err == nil || !strings.Contains(err.Error(), "neither a file path nor a postgres:// URL") {
			t.Errorf("state %q: %v", st, err)
		} else if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("state %q: the message shows the password: %v", st, err)
		}
	}
	writeFile(t, path, "version: 1\nstate: data/my state.db\n")
	if cfg, err := Load(path, nil); err != nil || cfg.State != filepath.Join(dir, "data", "my state.db") {
		t.Errorf("a plain path: %v, %v", cfg, err)
	}
}
