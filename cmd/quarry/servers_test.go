package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// pgProject makes a project whose connection is the test PostgreSQL
// server, with its URL in .env the way a user would keep it, and a table
// to read. The test server's role is a superuser, so the connection sets
// allow_privileged_role.
func pgProject(t *testing.T) (dir, url string) {
	t.Helper()
	url = connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, `DROP TABLE IF EXISTS cmd_orders; CREATE TABLE cmd_orders (id int PRIMARY KEY, status text, amount numeric(10,2));
INSERT INTO cmd_orders SELECT g, CASE WHEN g % 3 = 0 THEN 'refunded' ELSE 'completed' END, g * 1.25 FROM generate_series(1, 100) g`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), url)
		if err == nil {
			c.Exec(context.Background(), "DROP TABLE IF EXISTS cmd_orders")
			c.Close(context.Background())
		}
	})
	dir = t.TempDir()
	os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte("version: 1\nconnections:\n  pg:\n    driver: postgres\n    url: ${PG_URL}\n    allow_privileged_role: true\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".env"), []byte("PG_URL="+url+"\n"), 0o600)
	return dir, url
}

func TestRunOnPostgres(t *testing.T) {
	dir, _ := pgProject(t)
	r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "SELECT status, count(*) AS n, sum(amount) AS total FROM cmd_orders GROUP BY status ORDER BY status")
	if r.code != 0 || r.stdout != "status,n,total\ncompleted,67,4208.75\nrefunded,33,2103.75\n" {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, sql := range []string{"DELETE FROM cmd_orders", "SELECT 1; DELETE FROM cmd_orders", "SELECT pg_sleep(1)", "COPY cmd_orders TO '/tmp/x'"} {
		if r := quarryCmd(t, "", "-C", dir, "run", sql); r.code != quarry.ExitRejected {
			t.Errorf("%q: exit %d", sql, r.code)
		}
	}
	r = quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "SELECT count(*) FROM cmd_orders")
	if r.stdout != "count\n100\n" {
		t.Errorf("rows changed: %q", r.stdout)
	}
}

func TestDoctorPrintsAReadOnlyRoleForASuperuser(t *testing.T) {
	dir, url := pgProject(t)
	r := quarryCmd(t, "", "-C", dir, "doctor")
	if r.code != quarry.ExitRejected || !strings.Contains(r.stdout, "NOT refused") || !strings.Contains(r.stdout, "CREATE ROLE") {
		t.Fatalf("doctor as a superuser: exit %d\n%s", r.code, r.stdout)
	}
	if strings.Contains(r.stdout, url) {
		t.Errorf("doctor printed the connection URL")
	}
	// learn warns about a connection that can write, then learns through
	// the guard and read-only transactions.
	r = quarryCmd(t, "", "-C", dir, "learn", "--quiet")
	if r.code != 0 || !strings.Contains(r.stderr, "NOT refused") || !strings.Contains(r.stderr, "CREATE ROLE") {
		t.Errorf("learn as a superuser: exit %d\n%s", r.code, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "ask", "--json", "how many cmd orders")
	if r.code != 0 || !strings.Contains(r.stdout, `"rows": [`) {
		t.Errorf("ask after learn on postgres: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestRunOnMariaDB(t *testing.T) {
	dsn := connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv)
	db, err := sql.Open("mysql", dsn+"?multiStatements=true")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DROP TABLE IF EXISTS cmd_orders; CREATE TABLE cmd_orders (id INT PRIMARY KEY, status VARCHAR(20), amount DECIMAL(10,2));
INSERT INTO cmd_orders VALUES (1, 'completed', 10.50), (2, 'refunded', 3.25), (3, 'completed', 1.00)`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Exec("DROP TABLE IF EXISTS cmd_orders") })
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte("version: 1\nconnections:\n  my:\n    driver: mysql\n    url: ${MY_DSN}\n    allow_privileged_role: true\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".env"), []byte("MY_DSN="+dsn+"\n"), 0o600)
	r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "SELECT status, count(*) AS n, sum(amount) AS total FROM cmd_orders GROUP BY status ORDER BY status")
	if r.code != 0 || r.stdout != "status,n,total\ncompleted,2,11.50\nrefunded,1,3.25\n" {
		t.Fatalf("exit %d\n%q%s", r.code, r.stdout, r.stderr)
	}
	for _, sql := range []string{"DELETE FROM cmd_orders", "SELECT * FROM cmd_orders INTO OUTFILE '/tmp/x'", "SELECT SLEEP(1)", "/*!50000 DROP TABLE cmd_orders */"} {
		if r := quarryCmd(t, "", "-C", dir, "run", sql); r.code != quarry.ExitRejected {
			t.Errorf("%q: exit %d %s", sql, r.code, r.stderr)
		}
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM cmd_orders").Scan(&n); err != nil || n != 3 {
		t.Errorf("rows after refused writes: %d %v", n, err)
	}
}
