package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gomysql "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// lastRunStarted returns the run.started payload of the newest run.
func lastRunStarted(t *testing.T, dir string) map[string]any {
	t.Helper()
	r := quarryCmd(t, "", "-C", dir, "runs", "list", "--json")
	var runs []struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) == 0 {
		t.Fatalf("runs list: %v\n%s%s", err, r.stdout, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "runs", "events", runs[0].RunID, "--json")
	for _, line := range strings.Split(r.stdout, "\n") {
		var e struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		if json.Unmarshal([]byte(line), &e) == nil && e.Type == "run.started" {
			return e.Data
		}
	}
	t.Fatalf("no run.started in\n%s%s", r.stdout, r.stderr)
	return nil
}

func writeProject(t *testing.T, dir, driver, url string, allow bool) {
	t.Helper()
	yaml := "version: 1\nconnections:\n  db:\n    driver: " + driver + "\n    url: ${DB_URL}\n"
	if allow {
		yaml += "    allow_privileged_role: true\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("DB_URL="+url+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestPrivilegedRoleOnPostgres: a superuser is refused before anything
// runs, with exit code 1 and a message that names what is wrong; doctor
// fails with the SQL for a read-only role; allow_privileged_role runs
// anyway and records it; a read-only role runs and records nothing.
func TestPrivilegedRoleOnPostgres(t *testing.T) {
	dir, url := pgProject(t)
	writeProject(t, dir, "postgres", url, false)
	q := "SELECT count(*) FROM cmd_orders"

	r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", q)
	if r.code != quarry.ExitRejected || r.stdout != "" {
		t.Fatalf("run as a superuser: exit %d, want %d\n%s%s", r.code, quarry.ExitRejected, r.stdout, r.stderr)
	}
	for _, want := range []string{`connection "db"`, "role postgres", "superuser", "quarry doctor", "allow_privileged_role: true"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("refusal lacks %q:\n%s", want, r.stderr)
		}
	}
	if n := strings.Count(strings.TrimSpace(r.stderr), "\n"); n != 0 || strings.Contains(r.stderr, url) {
		t.Errorf("refusal is not one line without the URL:\n%s", r.stderr)
	}
	for _, args := range [][]string{{"learn", "--quiet"}} {
		if r := quarryCmd(t, "", append([]string{"-C", dir}, args...)...); r.code != quarry.ExitRejected || !strings.Contains(r.stderr, "superuser") {
			t.Errorf("%s as a superuser: exit %d\n%s", args[0], r.code, r.stderr)
		}
	}
	r = quarryCmd(t, "", "-C", dir, "doctor")
	if r.code != quarry.ExitRejected || !strings.Contains(r.stdout, "fail  role") || !strings.Contains(r.stdout, "superuser") || !strings.Contains(r.stdout, "CREATE ROLE quarry_reader") {
		t.Errorf("doctor as a superuser: exit %d\n%s", r.code, r.stdout)
	}

	// The override.
	writeProject(t, dir, "postgres", url, true)
	r = quarryCmd(t, "", "-C", dir, "run", "--format", "csv", q)
	if r.code != 0 || r.stdout != "count\n100\n" || !strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "superuser") {
		t.Fatalf("run with allow_privileged_role: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, _ := lastRunStarted(t, dir)["privileged_role"].(string); !strings.Contains(got, "role postgres") || !strings.Contains(got, "superuser") {
		t.Errorf("run.started privileged_role = %q", got)
	}
	r = quarryCmd(t, "", "-C", dir, "doctor")
	if !strings.Contains(r.stdout, "warn  role") || !strings.Contains(r.stdout, "allow_privileged_role") {
		t.Errorf("doctor with allow_privileged_role:\n%s", r.stdout)
	}

	// A read-only role: nothing to refuse, nothing to record.
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	reader := fmt.Sprintf("qcmd_reader_%d_%d", os.Getpid(), rand.IntN(1e9))
	for _, s := range []string{
		"CREATE ROLE " + reader + " LOGIN PASSWORD 'rpw' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS",
		"GRANT CONNECT ON DATABASE quarry_test TO " + reader,
		"GRANT USAGE ON SCHEMA public TO " + reader,
		"GRANT SELECT ON cmd_orders TO " + reader,
	} {
		if _, err := admin.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if c, err := pgx.Connect(ctx, url); err == nil {
			c.Exec(ctx, "DROP OWNED BY "+reader)
			c.Exec(ctx, "DROP ROLE IF EXISTS "+reader)
			c.Close(ctx)
		}
	})
	readerURL := strings.Replace(url, "postgres://postgres@", "postgres://"+reader+":rpw@", 1)
	writeProject(t, dir, "postgres", readerURL, false)
	r = quarryCmd(t, "", "-C", dir, "run", "--format", "csv", q)
	if r.code != 0 || r.stdout != "count\n100\n" || strings.Contains(r.stderr, "warning") {
		t.Fatalf("run as a read-only role: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, ok := lastRunStarted(t, dir)["privileged_role"]; ok {
		t.Errorf("run.started privileged_role = %q for a read-only role", got)
	}
	r = quarryCmd(t, "", "-C", dir, "doctor")
	if !strings.Contains(r.stdout, "ok    role") || !strings.Contains(r.stdout, "can only read") {
		t.Errorf("doctor as a read-only role:\n%s", r.stdout)
	}

	// With a knowledge folder the check is kept under the catalog's
	// version (docs/connectors.md): a grant made since is seen at once.
	if err := os.MkdirAll(filepath.Join(dir, "knowledge"), 0o755); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if r = quarryCmd(t, "", "-C", dir, "run", "--format", "csv", q); r.code != 0 {
			t.Fatalf("run as a read-only role with a knowledge folder: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}
	if kept, _ := filepath.Glob(filepath.Join(dir, "knowledge", ".cache", "roles", "*.gob")); len(kept) != 1 {
		t.Fatalf("the role check was not kept: %v", kept)
	}
	if _, err := admin.Exec(ctx, "GRANT INSERT ON cmd_orders TO "+reader); err != nil {
		t.Fatal(err)
	}
	r = quarryCmd(t, "", "-C", dir, "run", "--format", "csv", q)
	if r.code != quarry.ExitRejected || !strings.Contains(r.stderr, "INSERT") {
		t.Fatalf("run after GRANT INSERT: exit %d, want %d\n%s%s", r.code, quarry.ExitRejected, r.stdout, r.stderr)
	}
	if _, err := admin.Exec(ctx, "REVOKE INSERT ON cmd_orders FROM "+reader); err != nil {
		t.Fatal(err)
	}
	if r = quarryCmd(t, "", "-C", dir, "run", "--format", "csv", q); r.code != 0 {
		t.Fatalf("run after REVOKE: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestPrivilegedRoleOnMariaDB: an account with INSERT is refused, one with
// SELECT only runs.
func TestPrivilegedRoleOnMariaDB(t *testing.T) {
	dsn := connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv)
	db, err := sql.Open("mysql", dsn+"?multiStatements=true")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() }) // after the cleanups below, which use it
	table := fmt.Sprintf("role_orders_%d", rand.IntN(1e9))
	if _, err := db.Exec("CREATE TABLE " + table + " (id INT PRIMARY KEY); INSERT INTO " + table + " VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Exec("DROP TABLE IF EXISTS " + table) })
	cfg, err := gomysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	var current string
	if err := db.QueryRow("SELECT CURRENT_USER()").Scan(&current); err != nil {
		t.Fatal(err)
	}
	host := current[strings.LastIndexByte(current, '@')+1:]
	user := func(grants string) string {
		name := fmt.Sprintf("qcmd%d", rand.IntN(1e9))
		acct := fmt.Sprintf("'%s'@'%s'", name, host)
		if _, err := db.Exec("CREATE USER " + acct + " IDENTIFIED BY 'upw'; GRANT " + grants + " ON " + cfg.DBName + "." + table + " TO " + acct); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Exec("DROP USER IF EXISTS " + acct) })
		c := cfg.Clone()
		c.User, c.Passwd = name, "upw"
		return c.FormatDSN()
	}
	dir := t.TempDir()
	q := "SELECT count(*) AS n FROM " + table

	writeProject(t, dir, "mysql", user("SELECT, INSERT"), false)
	r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", q)
	if r.code != quarry.ExitRejected || !strings.Contains(r.stderr, "INSERT on") || !strings.Contains(r.stderr, "allow_privileged_role") {
		t.Errorf("run with INSERT: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	writeProject(t, dir, "mysql", user("SELECT"), false)
	r = quarryCmd(t, "", "-C", dir, "run", "--format", "csv", q)
	if r.code != 0 || r.stdout != "n\n2\n" {
		t.Errorf("run with SELECT only: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestConnectorRefusesAPrivilegedRole: `quarry connector postgres` checks
// the role in DATABASE_URL before serving, and --allow-privileged-role
// overrides it.
func TestConnectorRefusesAPrivilegedRole(t *testing.T) {
	url := connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	env := func(k string) (string, bool) {
		if k == "DATABASE_URL" {
			return url, true
		}
		return "", false
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"connector", "postgres"}, strings.NewReader(""), &out, &errb, env)
	if code != quarry.ExitRejected || !strings.Contains(errb.String(), "superuser") || !strings.Contains(errb.String(), "--allow-privileged-role") || strings.Contains(errb.String(), url) {
		t.Errorf("connector postgres as a superuser: exit %d\n%s", code, errb.String())
	}
	// With the flag it serves (stdin is empty, so it stops at once).
	out.Reset()
	errb.Reset()
	code = run(context.Background(), []string{"connector", "postgres", "--allow-privileged-role"}, strings.NewReader(""), &out, &errb, env)
	if code != 0 || !strings.Contains(errb.String(), "serving anyway") {
		t.Errorf("connector postgres --allow-privileged-role: exit %d\n%s", code, errb.String())
	}
}
