package postgres

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
)

// TestCatalogVersion: every change that can change what Catalog returns
// changes the version quarry keeps a wide schema's catalog under, for
// the role that reads it; rows and statistics do not.
func TestCatalogVersion(t *testing.T) {
	url := probeDatabase(t)
	ctx := context.Background()
	dc, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close(ctx)
	reader := uniqueName("qcat")
	exec(t, dc, "CREATE ROLE "+reader+" LOGIN PASSWORD 'cat-pw'",
		"GRANT USAGE ON SCHEMA public TO "+reader, "GRANT SELECT ON public.accounts TO "+reader,
		"CREATE TABLE public.secrets (id int PRIMARY KEY, code text)")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if c, err := pgx.Connect(ctx, url); err == nil {
			c.Exec(ctx, "DROP OWNED BY "+reader)
			c.Close(ctx)
		}
		if c, err := pgx.Connect(ctx, testURL(t)); err == nil {
			c.Exec(ctx, "REVOKE pg_write_all_data FROM "+reader)
			c.Exec(ctx, "DROP ROLE IF EXISTS "+reader)
			c.Close(ctx)
		}
	})
	var db string
	if err := dc.QueryRow(ctx, "SELECT current_database()").Scan(&db); err != nil {
		t.Fatal(err)
	}
	rc := openConn(t, withUser(url, reader, "cat-pw"), Options{})
	su := openConn(t, url, Options{})

	version := func(c *Conn) (string, string) {
		t.Helper()
		who, v, err := c.CatalogVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return who, v
	}
	// steady reads the version twice in a row that agree (role
	// memberships are cluster-wide: another test may change them).
	steady := func(c *Conn) string {
		t.Helper()
		for range 5 {
			_, a := version(c)
			if _, b := version(c); a == b {
				return a
			}
		}
		t.Fatal("the catalog version never held still")
		return ""
	}
	who, _ := version(rc)
	if !strings.HasPrefix(who, reader+"@") || !strings.Contains(who, "/qprobe_") {
		t.Errorf("reader %q: want the role and the database", who)
	}
	if w2, _ := version(su); w2 == who {
		t.Errorf("two roles read as one: %q", who)
	}

	// ownParts drops what the whole server shares (pg_auth_members,
	// pg_database, the reader's roles), which other tests running at the
	// same time change (found in CI: a database another test dropped
	// between the two reads).
	ownParts := func(v string) string {
		f := strings.Fields(v)
		for _, i := range []int{15, 10, 9} {
			if i < len(f) {
				f = append(f[:i], f[i+1:]...)
			}
		}
		return strings.Join(f, " ")
	}
	before := steady(rc)
	exec(t, dc, "INSERT INTO public.accounts (owner, balance) VALUES ('cy', 30)", "ANALYZE public.accounts")
	if after := steady(rc); ownParts(after) != ownParts(before) {
		t.Errorf("rows and ANALYZE changed the version: %q → %q", before, after)
	}
	for _, change := range []string{
		"GRANT SELECT ON public.secrets TO " + reader, // the role sees another table
		"REVOKE SELECT ON public.secrets FROM " + reader,
		"GRANT SELECT (code) ON public.secrets TO " + reader, // one column
		"ALTER TABLE public.accounts ADD COLUMN note text",
		"ALTER TABLE public.accounts ALTER COLUMN note TYPE varchar(20)",
		"ALTER TABLE public.accounts DROP COLUMN note",
		"COMMENT ON COLUMN public.accounts.owner IS 'who holds it'",
		"COMMENT ON TABLE public.accounts IS 'money'",
		"CREATE VIEW public.owners AS SELECT owner FROM public.accounts",
		"CREATE OR REPLACE VIEW public.owners AS SELECT owner, balance FROM public.accounts",
		"ALTER TABLE public.secrets ADD COLUMN account int REFERENCES public.accounts (id)",
		"DROP VIEW public.owners",
		"CREATE SCHEMA other",
		"GRANT USAGE ON SCHEMA other TO " + reader,
		// What the role check reads: a privilege to write anywhere it
		// looks, a membership, an attribute.
		"GRANT INSERT ON public.accounts TO " + reader,
		"GRANT UPDATE (owner) ON public.accounts TO " + reader,
		"GRANT CREATE ON SCHEMA other TO " + reader,
		"GRANT CREATE ON DATABASE " + db + " TO " + reader,
		"GRANT USAGE ON SEQUENCE public.invoice_no TO " + reader,
		"CREATE FUNCTION public.f() RETURNS int LANGUAGE sql AS 'SELECT 1'",
		"GRANT pg_write_all_data TO " + reader,
		"ALTER ROLE " + reader + " CREATEDB",
		"ALTER ROLE " + reader + " BYPASSRLS",
	} {
		exec(t, dc, change)
		after := steady(rc)
		if after == before {
			t.Errorf("%s: the version did not change (%s)", change, after)
		}
		before = after
	}
}

// TestCatalogVersionAfterWraparound: on a server whose transaction ids
// have wrapped around 2^32, as a busy server's do, a change that rewrites
// catalog rows under a small id beside rows of ids near 2^32 still
// changes the version. The newest id (max(xmin)) held still there: a
// renamed column and a column grant went unseen, and quarry kept the
// catalog and the role report it had read before them.
func TestCatalogVersionAfterWraparound(t *testing.T) {
	url := connectortest.URL(t, "QUARRY_TEST_POSTGRES_WRAPPED_URL", os.LookupEnv)
	ctx := context.Background()
	dc, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close(ctx)
	var next int64
	if err := dc.QueryRow(ctx, "SELECT txid_current()").Scan(&next); err != nil {
		t.Fatal(err)
	}
	if next < 1<<32 {
		t.Fatalf("the server's next transaction id is %d: not past the wrap (scripts/services.sh starts it there)", next)
	}
	// The table services.sh made before the wrap, under an id near 2^32;
	// a table of this test's own, made after it, for its changes.
	own := uniqueName("wrapped")
	exec(t, dc, "CREATE TABLE "+own+" (id int PRIMARY KEY, code text)")
	t.Cleanup(func() { dc.Exec(context.Background(), "DROP TABLE IF EXISTS "+own) })
	c := openConn(t, url, Options{})
	version := func() string {
		t.Helper()
		_, v, err := c.CatalogVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := version()
	if again := version(); again != before {
		t.Fatalf("the version moved with nothing changed: %q → %q", before, again)
	}
	for _, change := range []string{
		"ALTER TABLE " + own + " RENAME COLUMN code TO label",
		"ALTER TABLE before_wrap RENAME COLUMN note TO remark",
		"ALTER TABLE before_wrap RENAME COLUMN remark TO note",
		"GRANT UPDATE (label) ON " + own + " TO PUBLIC",
		"COMMENT ON COLUMN " + own + ".label IS 'what it is called'",
	} {
		exec(t, dc, change)
		after := version()
		if after == before {
			t.Errorf("%s: the version did not change past the wrap (%s)", change, after)
		}
		before = after
	}
}
