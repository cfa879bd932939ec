package mysql

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"

	gomysql "github.com/go-sql-driver/mysql"
)

// account returns the 'user'@'host' of a DSN made by testDB.user.
func account(t *testing.T, d *testDB, dsn string) string {
	t.Helper()
	cfg, err := gomysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	var current string
	if err := d.admin.QueryRowContext(context.Background(), "SELECT CURRENT_USER()").Scan(&current); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("'%s'@'%s'", cfg.User, current[strings.LastIndexByte(current, '@')+1:])
}

func TestPrivileges(t *testing.T) {
	d := newTestDB(t, "CREATE TABLE t (id INT PRIMARY KEY, v TEXT)", "INSERT INTO t VALUES (1, 'a')")
	ctx := context.Background()

	// The recipe of docs/readonly.md, run as written with this test's
	// names.
	b, err := os.ReadFile("../../../docs/readonly.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "## MySQL and MariaDB")
	m := regexp.MustCompile("(?s)```sql\n(.*?)```").FindStringSubmatch(doc[max(i, 0):])
	if i < 0 || m == nil {
		t.Fatal("docs/readonly.md has no MySQL recipe")
	}
	reader := fmt.Sprintf("qdoc%d", rand.IntN(1e9))
	recipe := strings.ReplaceAll(strings.ReplaceAll(m[1], "quarry_reader", reader), "analytics", d.name)
	recipe = strings.ReplaceAll(recipe, "choose-a-password", "doc-pass")
	var stmts []string
	for _, line := range strings.Split(recipe, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "--") {
			stmts = append(stmts, strings.TrimSuffix(line, ";"))
		}
	}
	t.Cleanup(func() { d.admin.ExecContext(context.Background(), "DROP USER IF EXISTS '"+reader+"'@'%'") })
	d.exec(t, stmts...)
	docCfg := d.cfg.Clone()
	docCfg.User, docCfg.Passwd = reader, "doc-pass"

	role := fmt.Sprintf("qrole%d", rand.IntN(1e9))
	d.exec(t, "CREATE ROLE "+role, "GRANT INSERT ON "+d.name+".* TO "+role)
	readRole := fmt.Sprintf("qread%d", rand.IntN(1e9))
	d.exec(t, "CREATE ROLE "+readRole, "GRANT SELECT ON "+d.name+".* TO "+readRole)
	t.Cleanup(func() {
		d.admin.ExecContext(context.Background(), "DROP ROLE IF EXISTS "+role)
		d.admin.ExecContext(context.Background(), "DROP ROLE IF EXISTS "+readRole)
	})

	global := func(privs string) func(string) {
		return func(acct string) { d.exec(t, "GRANT "+privs+" ON *.* TO "+acct) }
	}
	cases := []struct {
		name  string
		dsn   string
		extra func(account string)
		want  string // a problem that must be reported; "" for none
	}{
		{"docs recipe", docCfg.FormatDSN(), nil, ""},
		{"select only", d.user(t, "SELECT"), nil, ""},
		{"select and show view", d.user(t, "SELECT, SHOW VIEW"), nil, ""},
		{"insert", d.user(t, "SELECT, INSERT"), nil, "write privileges: INSERT on"},
		{"create temporary tables", d.user(t, "SELECT, CREATE TEMPORARY TABLES"), nil, "CREATE TEMPORARY TABLES on"},
		{"lock tables", d.user(t, "SELECT, LOCK TABLES"), nil, "LOCK TABLES on"},
		{"execute", d.user(t, "SELECT, EXECUTE"), nil, "EXECUTE on"},
		{"file", d.user(t, "SELECT"), global("FILE"), "FILE privilege: FILE on *.*"},
		{"super", d.user(t, "SELECT"), global("SUPER"), "SUPER privilege: SUPER on *.*"},
		{"process", d.user(t, "SELECT"), global("PROCESS"), "PROCESS privilege: PROCESS on *.*"},
		{"connection admin", d.user(t, "SELECT"), global("CONNECTION ADMIN"), "CONNECTION ADMIN on *.*"},
		{"grant option", d.user(t, "SELECT"), func(a string) { d.exec(t, "GRANT SELECT ON "+d.name+".* TO "+a+" WITH GRANT OPTION") }, "GRANT OPTION on"},
		{"all privileges", d.user(t, "ALL PRIVILEGES"), nil, "write privileges: ALL PRIVILEGES on"},
		{"through a role", d.user(t, "SELECT"), func(a string) { d.exec(t, "GRANT "+role+" TO "+a) }, "(through role"},
		{"select through a role", d.user(t, ""), func(a string) { d.exec(t, "GRANT "+readRole+" TO "+a, "SET DEFAULT ROLE "+readRole+" FOR "+a) }, ""},
		{"the test account", d.dsn(nil), nil, "ALL PRIVILEGES on *.*"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.extra != nil {
				tc.extra(account(t, d, tc.dsn))
			}
			c := open(t, tc.dsn)
			rep, err := c.Privileges(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: problems %q", rep.Role, rep.Problems)
			if !strings.HasPrefix(rep.Role, "'") || !strings.Contains(rep.Role, "'@'") {
				t.Errorf("Role = %q, want 'user'@'host'", rep.Role)
			}
			if tc.want == "" {
				if rep.Privileged() {
					t.Errorf("problems %q, want none", rep.Problems)
				}
				return
			}
			if !strings.Contains(strings.Join(rep.Problems, "\n"), tc.want) {
				t.Errorf("problems %q, want one containing %q", rep.Problems, tc.want)
			}
			if !strings.Contains(rep.FixSQL, "GRANT SELECT, SHOW VIEW ON") {
				t.Errorf("FixSQL has no recipe:\n%s", rep.FixSQL)
			}
		})
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := open(t, d.user(t, "SELECT")).Privileges(cctx); err == nil {
		t.Error("Privileges with a canceled context: no error")
	}
}
