package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector"
)

// probeDatabase creates a database with a table, a row and a sequence,
// dropped when the test ends, and returns its URL (as the superuser).
func probeDatabase(t *testing.T) string {
	t.Helper()
	url := testURL(t)
	pc := admin(t)
	db := uniqueName("qprobe")
	exec(t, pc, "CREATE DATABASE "+db)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, url)
		if err == nil {
			c.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	dbURL := strings.Replace(url, "/quarry_test", "/"+db, 1)
	dc, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close(context.Background())
	exec(t, dc,
		"CREATE TABLE public.accounts (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, owner text NOT NULL, balance numeric)",
		"INSERT INTO public.accounts (owner, balance) VALUES ('ada', 10), ('bob', 20)",
		"CREATE SEQUENCE public.invoice_no",
		"ANALYZE public.accounts",
	)
	return dbURL
}

func results(rs []connector.ProbeResult) map[string]connector.ProbeResult {
	m := map[string]connector.ProbeResult{}
	for _, r := range rs {
		m[r.Name] = r
	}
	return m
}

// snapshot reads what the probes must not change.
func snapshot(t *testing.T, url string) string {
	t.Helper()
	pc, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close(context.Background())
	var s string
	err = pc.QueryRow(context.Background(), `SELECT (SELECT string_agg(id || ':' || owner || ':' || balance, ',' ORDER BY id) FROM public.accounts)
		|| '|' || (SELECT last_value || ':' || is_called FROM public.invoice_no)
		|| '|' || (SELECT count(*) FROM pg_class WHERE relname LIKE 'quarry_probe%')
		|| '|' || (SELECT count(*) FROM pg_largeobject_metadata)`).Scan(&s)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestProbeAsSuperuser(t *testing.T) {
	url := probeDatabase(t)
	before := snapshot(t, url)
	c := openConn(t, url, Options{})
	rs, err := c.ProbeReadOnly(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		t.Logf("%-22s refused=%-5v %s", r.Name, r.Refused, r.Detail)
	}
	got := results(rs)
	if !got["READ ONLY transaction"].Refused {
		t.Errorf("the executor's transaction is not read-only: %+v", got["READ ONLY transaction"])
	}
	for _, name := range []string{"CREATE TEMP TABLE", "INSERT", "UPDATE", "DELETE", "CREATE TABLE", "nextval", "pg_read_file", "lo_import", "COPY TO a server file"} {
		r, ok := got[name]
		if !ok {
			t.Errorf("no %s probe", name)
			continue
		}
		if r.Refused {
			t.Errorf("%s: refused for a superuser: %s", name, r.Detail)
		}
	}
	if after := snapshot(t, url); after != before {
		t.Errorf("the probe changed the database:\nbefore %s\nafter  %s", before, after)
	}
}

func TestProbeAsReadOnlyRole(t *testing.T) {
	url := probeDatabase(t)
	role := uniqueName("qreader")
	dc, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close(context.Background())
	var db string
	if err := dc.QueryRow(context.Background(), "SELECT current_database()").Scan(&db); err != nil {
		t.Fatal(err)
	}
	// The recipe of ReadOnlyRoleSQL, with this test's role name.
	su := openConn(t, url, Options{})
	recipe := strings.ReplaceAll(su.ReadOnlyRoleSQL(), "quarry_reader", role)
	recipe = strings.Replace(recipe, "'choose-a-password'", "'reader-pw'", 1)
	if _, err := dc.Exec(context.Background(), recipe); err != nil {
		t.Fatalf("the role recipe failed: %v\n%s", err, recipe)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, testURL(t))
		if err == nil {
			c.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)")
			c.Exec(ctx, "DROP ROLE IF EXISTS "+role)
			c.Close(ctx)
		}
	})
	// Members of a role that can write are caught by SET ROLE.
	writer := uniqueName("qwriter")
	exec(t, dc, "CREATE ROLE "+writer+" NOLOGIN", "GRANT INSERT ON public.accounts TO "+writer)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if c, err := pgx.Connect(ctx, testURL(t)); err == nil {
			c.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)")
			c.Exec(ctx, "DROP ROLE IF EXISTS "+writer)
			c.Close(ctx)
		}
	})

	before := snapshot(t, url)
	c := openConn(t, withUser(url, role, "reader-pw"), Options{})
	rs, err := c.ProbeReadOnly(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		t.Logf("%-22s refused=%-5v %s", r.Name, r.Refused, r.Detail)
		if !r.Refused {
			t.Errorf("%s was not refused for a read-only role: %s", r.Name, r.Detail)
		}
	}
	if len(rs) < 10 {
		t.Errorf("only %d probes ran", len(rs))
	}
	// Granting the writer role to the reader is reported.
	exec(t, dc, "GRANT "+writer+" TO "+role)
	rs, err = c.ProbeReadOnly(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := results(rs)["SET ROLE "+writer]; !ok || r.Refused {
		t.Errorf("SET ROLE %s: %+v, want not refused", writer, r)
	}
	if after := snapshot(t, url); after != before {
		t.Errorf("the probe changed the database:\nbefore %s\nafter  %s", before, after)
	}
}
