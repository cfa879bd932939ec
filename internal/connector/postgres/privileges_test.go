package postgres

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector"
)

// docsRecipe is the PostgreSQL recipe of docs/readonly.md, for database
// db and role role.
func docsRecipe(t *testing.T, db, role string) string {
	t.Helper()
	b, err := os.ReadFile("../../../docs/readonly.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "## PostgreSQL")
	if i < 0 {
		t.Fatal("docs/readonly.md has no PostgreSQL section")
	}
	m := regexp.MustCompile("(?s)```sql\n(.*?)```").FindStringSubmatch(doc[i:])
	if m == nil {
		t.Fatal("docs/readonly.md has no PostgreSQL recipe")
	}
	sql := strings.ReplaceAll(m[1], "quarry_reader", role)
	sql = strings.ReplaceAll(sql, "analytics", db)
	return strings.Replace(sql, "'choose-a-password'", "'reader-pw'", 1)
}

func TestPrivileges(t *testing.T) {
	url := probeDatabase(t)
	ctx := context.Background()
	dc, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close(ctx)
	var db string
	if err := dc.QueryRow(ctx, "SELECT current_database()").Scan(&db); err != nil {
		t.Fatal(err)
	}
	// dblink in a schema of its own, callable only where granted.
	exec(t, dc,
		"CREATE SCHEMA ext",
		"CREATE EXTENSION dblink SCHEMA ext",
		"REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA ext FROM PUBLIC",
		"CREATE SCHEMA scratch",
	)

	var roles []string
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, testURL(t))
		if err != nil {
			return
		}
		defer c.Close(ctx)
		c.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)")
		for _, r := range roles {
			c.Exec(ctx, "DROP ROLE IF EXISTS "+r)
		}
	})
	// role creates a login role with the given grants, run in the scratch
	// database.
	role := func(prefix string, grants ...string) string {
		r := uniqueName(prefix)
		roles = append(roles, r)
		exec(t, dc, "CREATE ROLE "+r+" LOGIN PASSWORD 'pw'", "GRANT CONNECT ON DATABASE "+db+" TO "+r,
			"GRANT USAGE ON SCHEMA public TO "+r, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+r)
		for _, g := range grants {
			exec(t, dc, strings.ReplaceAll(g, "$ROLE", r))
		}
		return r
	}
	reader := uniqueName("qreader")
	roles = append(roles, reader)
	recipe := docsRecipe(t, db, reader)
	if _, err := dc.Exec(ctx, recipe); err != nil {
		t.Fatalf("the recipe of docs/readonly.md failed: %v\n%s", err, recipe)
	}
	cases := []struct {
		name, user string
		want       string // a problem that must be reported; "" for none
	}{
		{"superuser", "", "superuser"},
		{"docs recipe", reader, ""},
		{"select only", role("qselect"), ""},
		{"insert on a table", role("qinsert", "GRANT INSERT ON public.accounts TO $ROLE"), "INSERT on accounts"},
		{"update on a column", role("qupdcol", "GRANT UPDATE (balance) ON public.accounts TO $ROLE"), "UPDATE on accounts"},
		{"truncate", role("qtrunc", "GRANT TRUNCATE ON public.accounts TO $ROLE"), "TRUNCATE on accounts"},
		{"owner of a table", role("qowner", "CREATE TABLE scratch.owned (x int)", "ALTER TABLE scratch.owned OWNER TO $ROLE"), "on scratch.owned"},
		{"create on public", role("qcreate", "GRANT CREATE ON SCHEMA public TO $ROLE"), "CREATE on schema public"},
		{"create on the database", role("qcreatedb", "GRANT CREATE ON DATABASE "+db+" TO $ROLE"), "CREATE on database"},
		{"pg_read_server_files", role("qfiles", "GRANT pg_read_server_files TO $ROLE"), "member of pg_read_server_files"},
		{"pg_signal_backend", role("qsignal", "GRANT pg_signal_backend TO $ROLE"), "member of pg_signal_backend"},
		{"pg_monitor", role("qmonitor", "GRANT pg_monitor TO $ROLE"), "member of pg_read_all_stats"},
		{"pg_write_all_data", role("qwriteall", "GRANT pg_write_all_data TO $ROLE"), "member of pg_write_all_data"},
		{"dblink_exec", role("qdblink", "GRANT USAGE ON SCHEMA ext TO $ROLE", "GRANT EXECUTE ON FUNCTION ext.dblink_exec(text, text) TO $ROLE"), "EXECUTE on ext.dblink_exec(text,text)"},
		{"lo_import", role("qloimport", "GRANT EXECUTE ON FUNCTION lo_import(text) TO $ROLE"), "EXECUTE on lo_import(text)"},
		{"nextval", role("qseq", "GRANT USAGE ON SEQUENCE public.invoice_no TO $ROLE"), "nextval on sequences: invoice_no"},
		{"createrole", role("qcrole", "ALTER ROLE $ROLE CREATEROLE"), "CREATEROLE attribute"},
		{"createdb", role("qcdb", "ALTER ROLE $ROLE CREATEDB"), "CREATEDB attribute"},
		{"bypassrls", role("qbypass", "ALTER ROLE $ROLE BYPASSRLS"), "BYPASSRLS attribute"},
		{"foreign server", role("qfdw", "CREATE EXTENSION IF NOT EXISTS postgres_fdw SCHEMA ext", "CREATE SERVER IF NOT EXISTS other FOREIGN DATA WRAPPER postgres_fdw", "GRANT USAGE ON FOREIGN SERVER other TO $ROLE"), "USAGE on foreign server other"},
	}
	// A member of a role that can write, even without INHERIT.
	writer := role("qwriter", "GRANT INSERT ON public.accounts TO $ROLE")
	cases = append(cases, struct{ name, user, want string }{"member of a writer", role("qmember", "ALTER ROLE $ROLE NOINHERIT", "GRANT "+writer+" TO $ROLE"), "INSERT on accounts"})

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := url
			if tc.user != "" {
				pw := "pw"
				if tc.user == reader {
					pw = "reader-pw"
				}
				u = withUser(url, tc.user, pw)
			}
			c := openConn(t, u, Options{})
			start := time.Now()
			rep, err := c.Privileges(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s in %v: problems %q notes %q", rep.Role, time.Since(start), rep.Problems, rep.Notes)
			if tc.user != "" && rep.Role != tc.user {
				t.Errorf("Role = %q, want %q", rep.Role, tc.user)
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
			if !strings.Contains(rep.FixSQL, "CREATE ROLE quarry_reader") {
				t.Errorf("FixSQL has no recipe:\n%s", rep.FixSQL)
			}
		})
	}

	// TEMPORARY is a note, not a problem.
	temp := role("qtemp", "GRANT TEMPORARY ON DATABASE "+db+" TO $ROLE")
	rep, err := openConn(t, withUser(url, temp, "pw"), Options{}).Privileges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Privileged() || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "TEMPORARY") {
		t.Errorf("TEMPORARY: problems %q notes %q, want one note and no problem", rep.Problems, rep.Notes)
	}

	// The role check reads; it leaves the session usable.
	c := openConn(t, withUser(url, reader, "reader-pw"), Options{})
	for range 3 {
		if _, err := c.Privileges(ctx); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := c.Query(ctx, "SELECT count(*) FROM public.accounts", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()

	// A canceled context stops the check.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Privileges(cctx); err == nil {
		t.Error("Privileges with a canceled context: no error")
	}
}
