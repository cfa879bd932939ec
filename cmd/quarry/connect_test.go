package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quarryAtTerminal runs quarry as if a person sat at a terminal and typed
// stdin in answer to its questions.
func quarryAtTerminal(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	a := newApp(strings.NewReader(stdin), &out, &errb, func(string) (string, bool) { return "", false })
	a.prompts = true
	code := a.execute(context.Background(), args)
	return result{code, out.String(), errb.String()}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestInitURLKeepsThePasswordInDotEnv checks that init --url adds the
// connection to quarry.yaml with the URL, password and all, only in a
// git-ignored .env of mode 0600, and that the project loads.
func TestInitURLKeepsThePasswordInDotEnv(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shop")
	const url = "postgres://reader:s3cret@db.internal:5432/shop?sslmode=require"
	r := quarryCmd(t, "", "init", "--url", url, dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	yaml := readFile(t, filepath.Join(dir, "quarry.yaml"))
	if strings.Contains(yaml, "s3cret") || !strings.Contains(yaml, "  shop:\n    driver: postgres\n    url: ${DATABASE_URL}\n") {
		t.Errorf("quarry.yaml:\n%s", yaml)
	}
	if env := readFile(t, filepath.Join(dir, ".env")); !strings.Contains(env, "DATABASE_URL='"+url+"'\n") {
		t.Errorf(".env:\n%s", env)
	}
	if st, err := os.Stat(filepath.Join(dir, ".env")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf(".env: %v, mode %v; want 0600", err, st.Mode())
	}
	if gi := readFile(t, filepath.Join(dir, ".gitignore")); gi != ".env\n" {
		t.Errorf(".gitignore: %q", gi)
	}
	if strings.Contains(r.stdout+r.stderr, "s3cret") {
		t.Errorf("the password was printed:\n%s%s", r.stdout, r.stderr)
	}
	cfg := quarryCmd(t, "", "-C", dir, "config")
	if cfg.code != 0 || !strings.Contains(cfg.stdout, "shop") || strings.Contains(cfg.stdout, "s3cret") {
		t.Errorf("config: exit %d\n%s%s", cfg.code, cfg.stdout, cfg.stderr)
	}
}

// TestInitBadURLWritesNothing checks that a URL quarry cannot read is a
// usage error before any file is written.
func TestInitBadURLWritesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	for _, u := range []string{"ftp://h/x", "missing.db", "postgres:nohost"} {
		r := quarryCmd(t, "", "init", "--url", u, dir)
		if r.code != 2 {
			t.Errorf("%s: exit %d, want 2: %s", u, r.code, r.stderr)
		}
		oneLineError(t, r)
		if _, err := os.Stat(dir); err == nil {
			t.Fatalf("%s: init wrote %s", u, dir)
		}
	}
}

// TestInitOffersTheDatabaseFile checks that init in a folder holding a
// SQLite file prints the command that uses it, which works as printed,
// and that at a terminal it asks and uses the file.
func TestInitOffersTheDatabaseFile(t *testing.T) {
	dir := project(t)
	os.Remove(filepath.Join(dir, "quarry.yaml"))
	r := quarryCmd(t, "", "init", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := "Found shop.db; to use it: quarry -C " + shellQuote(dir) + " learn --url " + shellQuote(filepath.Join(dir, "shop.db")) + "\n"
	if !strings.Contains(r.stdout, want) {
		t.Fatalf("stdout %q\nwant it to hold %q", r.stdout, want)
	}
	learn := quarryCmd(t, "", "-C", dir, "learn", "--url", filepath.Join(dir, "shop.db"), "-q")
	if learn.code != 0 {
		t.Fatalf("learn: exit %d: %s", learn.code, learn.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "knowledge", "model.yaml")); err != nil {
		t.Errorf("learn wrote no model.yaml: %v", err)
	}
	if yaml := readFile(t, filepath.Join(dir, "quarry.yaml")); !strings.Contains(yaml, "    driver: sqlite\n    path: shop.db\n") {
		t.Errorf("quarry.yaml:\n%s", yaml)
	}

	dir2 := project(t)
	os.Remove(filepath.Join(dir2, "quarry.yaml"))
	r = quarryAtTerminal(t, "y\n", "init", dir2)
	if r.code != 0 || !strings.Contains(r.stderr, "Use shop.db as this project's database? [Y/n]") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	ask := quarryCmd(t, "", "-C", dir2, "run", "SELECT count(*) FROM customers", "--format", "csv")
	if ask.code != 0 || !strings.Contains(ask.stdout, "3") {
		t.Errorf("run after init: exit %d\n%s%s", ask.code, ask.stdout, ask.stderr)
	}
}

// TestLearnAsksForTheDatabase checks that learn at a terminal, in a
// project with no connection, asks for one and learns it.
func TestLearnAsksForTheDatabase(t *testing.T) {
	dir := t.TempDir()
	if r := quarryCmd(t, "", "init", dir); r.code != 0 {
		t.Fatalf("init: exit %d: %s", r.code, r.stderr)
	}
	db := filepath.Join(project(t), "shop.db")
	r := quarryAtTerminal(t, db+"\n", "-C", dir, "learn", "-q")
	if r.code != 0 || !strings.Contains(r.stderr, urlPrompt) {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "knowledge", "model.yaml")); err != nil {
		t.Errorf("learn wrote no model.yaml: %v", err)
	}
}

// TestLearnURLUnreachableKeepsNothing checks that a database learn cannot
// reach is not left in quarry.yaml or .env.
func TestLearnURLUnreachableKeepsNothing(t *testing.T) {
	dir := t.TempDir()
	if r := quarryCmd(t, "", "init", dir); r.code != 0 {
		t.Fatalf("init: exit %d: %s", r.code, r.stderr)
	}
	before := readFile(t, filepath.Join(dir, "quarry.yaml"))
	r := quarryCmd(t, "", "-C", dir, "learn", "--url", "postgres://u:pw@127.0.0.1:1/db")
	if r.code != 4 {
		t.Errorf("exit %d, want 4: %s", r.code, r.stderr)
	}
	if after := readFile(t, filepath.Join(dir, "quarry.yaml")); after != before {
		t.Errorf("quarry.yaml changed:\n%s", after)
	}
	for _, f := range []string{".env", ".gitignore"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was left behind", f)
		}
	}
}
