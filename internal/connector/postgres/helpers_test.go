package postgres

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
)

// testURL is the superuser URL of the test server.
func testURL(t testing.TB) string {
	return connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
}

// admin opens a plain (writable) session for setting tests up.
func admin(t testing.TB) *pgx.Conn {
	t.Helper()
	pc, err := pgx.Connect(context.Background(), testURL(t))
	if err != nil {
		t.Fatalf("admin connect: %v", err)
	}
	t.Cleanup(func() { pc.Close(context.Background()) })
	return pc
}

func exec(t testing.TB, pc *pgx.Conn, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := pc.Exec(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

var seq atomic.Int64

// uniqueName returns a lower-case name no other test or run uses.
func uniqueName(prefix string) string {
	return fmt.Sprintf("%s_%d_%d_%d", prefix, os.Getpid(), time.Now().UnixNano()%1_000_000, seq.Add(1))
}

// tempSchema creates a schema dropped when the test ends.
func tempSchema(t testing.TB, pc *pgx.Conn) string {
	t.Helper()
	s := uniqueName("qt")
	exec(t, pc, "CREATE SCHEMA "+s)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, testURL(t))
		if err == nil {
			c.Exec(ctx, "DROP SCHEMA "+s+" CASCADE")
			c.Close(ctx)
		}
	})
	return s
}

// openConn opens the connector on url, closed when the test ends.
func openConn(t testing.TB, url string, opts Options) *Conn {
	t.Helper()
	c, err := Open(context.Background(), url, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// withUser returns url with its user and password replaced.
func withUser(url, user, password string) string {
	i := strings.Index(url, "://")
	j := strings.Index(url, "@")
	cred := user
	if password != "" {
		cred += ":" + password
	}
	return url[:i+3] + cred + url[j:]
}
