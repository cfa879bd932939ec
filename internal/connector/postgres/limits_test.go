package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// settingsOf reads the settings a query of c runs under.
func settingsOf(t *testing.T, c *Conn) []any {
	t.Helper()
	tab := connectortest.Collect(t, c, `SELECT current_setting('work_mem'), current_setting('temp_file_limit'),
		current_setting('statement_timeout'), current_setting('idle_in_transaction_session_timeout')`, connector.QueryOptions{Timeout: 5 * time.Second})
	return tab.Rows[0]
}

// TestSessionLimits: each query's transaction sets work_mem, a statement
// timeout, an idle-in-transaction timeout and, where the role may set
// it, temp_file_limit; a role that may not still runs its queries.
func TestSessionLimits(t *testing.T) {
	url := testURL(t)
	got := settingsOf(t, openConn(t, url, Options{}))
	if got[0] != "64MB" || got[1] != "1GB" || got[2] != "5s" || got[3] != "65s" {
		t.Errorf("superuser: work_mem, temp_file_limit, statement_timeout, idle = %v", got)
	}
	ctx := context.Background()
	pc := admin(t)
	role := uniqueName("quarry_limits")
	exec(t, pc, "CREATE ROLE "+role+" LOGIN PASSWORD 'pw'")
	t.Cleanup(func() { exec(t, admin(t), "DROP ROLE IF EXISTS "+role) })
	got = settingsOf(t, openConn(t, withUser(url, role, "pw"), Options{}))
	if got[0] != "64MB" || got[1] != "-1" {
		t.Errorf("plain role: work_mem, temp_file_limit = %v %v; want 64MB and the server's -1", got[0], got[1])
	}
	// PostgreSQL 15+: a role granted SET on temp_file_limit gets it.
	var v int
	if err := pc.QueryRow(ctx, "SELECT current_setting('server_version_num')::int").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if v >= 150000 {
		exec(t, pc, "GRANT SET ON PARAMETER temp_file_limit TO "+role)
		t.Cleanup(func() { exec(t, admin(t), "REVOKE SET ON PARAMETER temp_file_limit FROM "+role) })
		if got = settingsOf(t, openConn(t, withUser(url, role, "pw"), Options{})); got[1] != "1GB" {
			t.Errorf("granted role: temp_file_limit = %v", got[1])
		}
	}
}

// TestHugeValue: a statement that builds a value over MaxValueBytes is
// refused with a message that names the column and the limit.
func TestHugeValue(t *testing.T) {
	c := openConn(t, testURL(t), Options{})
	start := time.Now()
	_, err := connectortest.TryCollect(context.Background(), c, "SELECT repeat('x', 50000000) AS big", connector.QueryOptions{MaxValueBytes: 16 << 20, Timeout: 30 * time.Second})
	if quarry.KindOf(err) != quarry.KindTooCostly || quarry.Message(err) == "" {
		t.Fatalf("err = %v (kind %s)", err, quarry.KindOf(err))
	}
	t.Logf("refused after %s: %s", time.Since(start), quarry.Message(err))
}
