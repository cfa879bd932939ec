package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestServeGroupRoleOnPostgres: members of a group that group_roles gives
// a database role read as that role, so PostgreSQL's own grants and
// row-level security decide what they read, not quarry; everyone else
// reads as the connection's role.
func TestServeGroupRoleOnPostgres(t *testing.T) {
	dir, url := pgProject(t)
	ctx := context.Background()
	b := make([]byte, 4)
	rand.Read(b)
	role := "q_support_" + hex.EncodeToString(b)
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	// The role reads two of the table's columns, and only completed
	// orders.
	if _, err := c.Exec(ctx, `CREATE ROLE `+role+` NOLOGIN;
GRANT USAGE ON SCHEMA public TO `+role+`;
GRANT SELECT (id, status) ON cmd_orders TO `+role+`;
ALTER TABLE cmd_orders ENABLE ROW LEVEL SECURITY;
CREATE POLICY completed_only ON cmd_orders FOR SELECT TO `+role+` USING (status = 'completed')`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), url)
		if err == nil {
			c.Exec(context.Background(), `DROP TABLE IF EXISTS cmd_orders; DROP OWNED BY `+role+`; DROP ROLE IF EXISTS `+role)
			c.Close(context.Background())
		}
	})
	cfg := filepath.Join(dir, "quarry.yaml")
	src, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(src, "    group_roles:\n      support: "+role+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	bin, _ := builtBinary(t)
	for _, args := range [][]string{
		{"users", "add", "ann", "--role", "admin"},
		{"users", "add", "bob", "--role", "analyst", "--group", "support"},
	} {
		if r := quarryProc(t, bin, dir, args...); r.code != 0 {
			t.Fatalf("quarry %s: %s", strings.Join(args, " "), r.stderr)
		}
	}
	token := func(user string) string {
		r := quarryProc(t, bin, dir, "tokens", "create", "--user", user)
		if r.code != 0 {
			t.Fatalf("tokens create: %s", r.stderr)
		}
		return strings.TrimSpace(r.stdout)
	}
	ann, bob := token("ann"), token("bob")
	s := serveProcess(t, bin, dir)
	run := func(secret, sql string) (int, string) {
		t.Helper()
		return s.call(t, "POST", "/api/run", `{"sql":"`+sql+`"}`, secret)
	}
	const count = "SELECT count(*) AS n FROM cmd_orders"
	if code, b := run(ann, count); code != 200 || !strings.Contains(b, "[100]") {
		t.Errorf("ann counts every order: %d %s", code, b)
	}
	if code, b := run(bob, count); code != 200 || !strings.Contains(b, "[67]") {
		t.Errorf("bob (support) counts the orders his role sees: %d %s", code, b)
	}
	if code, b := run(bob, "SELECT sum(amount) AS total FROM cmd_orders"); code == 200 || !strings.Contains(b, "permission denied") {
		t.Errorf("bob reads a column his role may not: %d %s", code, b)
	}
	// A statement cannot set the role back: the guard refuses it first.
	for _, sql := range []string{
		"SELECT set_config('role', 'postgres', true), count(*) FROM cmd_orders",
		"RESET ROLE",
		"SET ROLE postgres",
		"SELECT count(*) FROM cmd_orders; RESET ROLE",
	} {
		if code, b := run(bob, sql); code == 200 || !strings.Contains(b, "rejected") {
			t.Errorf("bob runs %q: %d %s", sql, code, b)
		}
	}
	if code, b := run(ann, "SELECT sum(amount) AS total FROM cmd_orders"); code != 200 {
		t.Errorf("ann reads amounts: %d %s", code, b)
	}
	// The role lasts for the statement's transaction only: the next
	// statement on the same pooled session is ann's again.
	for range 3 {
		if code, b := run(ann, count); code != 200 || !strings.Contains(b, "[100]") {
			t.Errorf("ann after bob: %d %s", code, b)
		}
	}
}
