package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	gomysql "github.com/go-sql-driver/mysql"
)

// testDSN returns the DSN of the test server (an account that may create
// databases and users), skipping the test when none is configured outside
// CI and failing it in CI.
func testDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv("QUARRY_TEST_MYSQL_DSN")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("QUARRY_TEST_MYSQL_DSN is not set; CI must start MariaDB (scripts/services.sh) before the tests")
		}
		t.Skip("QUARRY_TEST_MYSQL_DSN is not set; start MariaDB with scripts/services.sh to run this test")
	}
	return dsn
}

// testDB is a throwaway database on the test server.
type testDB struct {
	name  string
	cfg   *gomysql.Config // the admin account, on this database
	admin *sql.DB
}

// newTestDB creates a database with a unique name, runs setup in one
// session (with sql_mode ” so that zero dates can be stored), and drops
// the database when the test ends.
func newTestDB(t testing.TB, setup ...string) *testDB {
	t.Helper()
	cfg, err := gomysql.ParseDSN(testDSN(t))
	if err != nil {
		t.Fatalf("QUARRY_TEST_MYSQL_DSN: %v", err)
	}
	name := fmt.Sprintf("quarry_t%d_%d", time.Now().UnixNano()%1e9, rand.IntN(1e6))
	root := cfg.Clone()
	root.DBName = ""
	admin := openAdmin(t, root)
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" CHARACTER SET utf8mb4"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	db := &testDB{name: name, cfg: cfg.Clone(), admin: admin}
	db.cfg.DBName = name
	if len(setup) > 0 {
		db.exec(t, append([]string{"SET SESSION sql_mode = ''", "USE " + name}, setup...)...)
	}
	return db
}

func openAdmin(t testing.TB, cfg *gomysql.Config) *sql.DB {
	t.Helper()
	cn, err := gomysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(cn)
	t.Cleanup(func() { db.Close() })
	return db
}

// exec runs statements in one admin session.
func (d *testDB) exec(t testing.TB, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	conn, err := d.admin.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// count returns SELECT COUNT(*) of a table in the database.
func (d *testDB) count(t testing.TB, table string) int64 {
	t.Helper()
	var n int64
	if err := d.admin.QueryRowContext(context.Background(), "SELECT COUNT(*) FROM "+d.name+"."+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// dsn returns the DSN of the admin account on this database, with extra
// parameters.
func (d *testDB) dsn(params map[string]string) string {
	cfg := d.cfg.Clone()
	for k, v := range params {
		if cfg.Params == nil {
			cfg.Params = map[string]string{}
		}
		cfg.Params[k] = v
	}
	return cfg.FormatDSN()
}

// user creates an account with the given grants on this database and
// returns its DSN. The account is dropped when the test ends.
func (d *testDB) user(t testing.TB, grants string) string {
	t.Helper()
	var current string
	if err := d.admin.QueryRowContext(context.Background(), "SELECT CURRENT_USER()").Scan(&current); err != nil {
		t.Fatal(err)
	}
	host := current[strings.LastIndexByte(current, '@')+1:]
	name := fmt.Sprintf("qro%d", rand.IntN(1e9))
	account := fmt.Sprintf("'%s'@'%s'", name, host)
	d.exec(t, "CREATE USER "+account+" IDENTIFIED BY 'ro-pass'")
	t.Cleanup(func() {
		if _, err := d.admin.ExecContext(context.Background(), "DROP USER IF EXISTS "+account); err != nil {
			t.Errorf("drop user: %v", err)
		}
	})
	if grants != "" {
		d.exec(t, "GRANT "+grants+" ON "+d.name+".* TO "+account)
	}
	cfg := d.cfg.Clone()
	cfg.User, cfg.Passwd = name, "ro-pass"
	return cfg.FormatDSN()
}

// open opens the connector on dsn and closes it when the test ends.
func open(t testing.TB, dsn string) *Conn {
	t.Helper()
	c, err := Open(context.Background(), dsn, Options{Name: "test"})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

// running reports how many statements containing marker are running on
// the server.
func (d *testDB) running(t testing.TB, marker string) int {
	t.Helper()
	var n int
	err := d.admin.QueryRowContext(context.Background(),
		"SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE CONCAT('%', ?, '%') AND INFO NOT LIKE '%PROCESSLIST%'", marker).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// waitGone waits up to limit for no statement with marker to be running.
func (d *testDB) waitGone(t testing.TB, marker string, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for d.running(t, marker) > 0 {
		if time.Since(start) > limit {
			t.Fatalf("the statement marked %s still runs on the server %s later", marker, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
}

// marker returns a unique comment to find a statement in the processlist.
func marker() string { return fmt.Sprintf("qmark%d", rand.IntN(1e9)) }
