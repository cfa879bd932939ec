package mysql

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/connector"
)

const probeSetup = "CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL, doubled INT AS (balance * 2) VIRTUAL)"

// probeState is everything the probes could have changed: the rows and
// the tables of the database.
func probeState(t *testing.T, d *testDB) string {
	t.Helper()
	var rows, tables, sum int64
	if err := d.admin.QueryRow("SELECT COUNT(*), COALESCE(SUM(balance), 0) FROM "+d.name+".accounts").Scan(&rows, &sum); err != nil {
		t.Fatal(err)
	}
	if err := d.admin.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", d.name).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	return itoa(rows) + "/" + itoa(sum) + "/" + itoa(tables)
}

func probeByName(results []connector.ProbeResult) map[string]connector.ProbeResult {
	m := map[string]connector.ProbeResult{}
	for _, r := range results {
		m[r.Name] = r
	}
	return m
}

func TestProbeAllPrivileges(t *testing.T) {
	d := newTestDB(t, probeSetup, "INSERT INTO accounts (id, balance) VALUES (1, 10), (2, 20)")
	before := probeState(t, d)
	c := open(t, d.dsn(nil))
	results, err := c.ProbeReadOnly(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		t.Logf("%-62s refused=%-5v %s", r.Name, r.Refused, r.Detail)
	}
	got := probeByName(results)
	for _, name := range []string{
		"write privileges (grants)", "schema-change privileges (grants)", "FILE privilege (grants)",
		"SUPER privilege (grants)", "PROCESS privilege (grants)", "other administrative privileges (grants)",
		"INSERT by the account (ordinary transaction)", "UPDATE by the account (ordinary transaction)",
		"DELETE by the account (ordinary transaction)", "CREATE TEMPORARY TABLE by the account (ordinary transaction)",
	} {
		r, ok := got[name]
		if !ok {
			t.Errorf("no probe %q in %+v", name, results)
			continue
		}
		if r.Refused || strings.Contains(name, "account") && !strings.Contains(r.Detail, "accepted") {
			t.Errorf("%s: %s, want accepted for an account with ALL PRIVILEGES", name, r.Detail)
		}
	}
	for _, name := range []string{
		"CREATE TEMPORARY TABLE in the read-only transaction", "INSERT in the read-only transaction",
		"UPDATE in the read-only transaction", "DELETE in the read-only transaction",
	} {
		if r := got[name]; !r.Refused || !strings.Contains(r.Detail, "1792") {
			t.Errorf("%s: %+v, want refused by the READ ONLY transaction", name, r)
		}
	}
	if r := got["write privileges (grants)"]; !strings.Contains(r.Detail, "ALL PRIVILEGES on *.*") {
		t.Errorf("write privileges detail = %q", r.Detail)
	}
	for _, r := range results {
		if strings.Contains(r.Detail, "IDENTIFIED") || strings.Contains(r.Detail, "*13536") || strings.Contains(r.Detail, d.cfg.Passwd+"'") {
			t.Errorf("%s: detail reveals credentials: %s", r.Name, r.Detail)
		}
	}
	if after := probeState(t, d); after != before {
		t.Errorf("the probe changed the database: %s → %s", before, after)
	}
}

func TestProbeSelectOnly(t *testing.T) {
	d := newTestDB(t, probeSetup, "INSERT INTO accounts (id, balance) VALUES (1, 10)")
	before := probeState(t, d)
	c := open(t, d.user(t, "SELECT"))
	results, err := c.ProbeReadOnly(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 14 {
		t.Errorf("%d probe results, want 14: %+v", len(results), results)
	}
	for _, r := range results {
		if !r.Refused {
			t.Errorf("%s: not refused for a SELECT-only account: %s", r.Name, r.Detail)
		}
	}
	if after := probeState(t, d); after != before {
		t.Errorf("the probe changed the database: %s → %s", before, after)
	}
}

func TestProbeFindsWriteGrants(t *testing.T) {
	d := newTestDB(t, probeSetup)
	c := open(t, d.user(t, "SELECT, INSERT, CREATE, CREATE TEMPORARY TABLES, EXECUTE"))
	results, err := c.ProbeReadOnly(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := probeByName(results)
	want := map[string]bool{
		"write privileges (grants)":                                    false,
		"schema-change privileges (grants)":                            false,
		"FILE privilege (grants)":                                      true,
		"SUPER privilege (grants)":                                     true,
		"PROCESS privilege (grants)":                                   true,
		"other administrative privileges (grants)":                     false,
		"INSERT in the read-only transaction":                          true,
		"INSERT by the account (ordinary transaction)":                 false,
		"UPDATE by the account (ordinary transaction)":                 true,
		"CREATE TEMPORARY TABLE by the account (ordinary transaction)": false,
	}
	for name, refused := range want {
		if r, ok := got[name]; !ok || r.Refused != refused {
			t.Errorf("%s: %+v, want refused=%v", name, r, refused)
		}
	}
}

func TestProbeEmptyDatabaseAndRole(t *testing.T) {
	d := newTestDB(t)
	c := open(t, d.dsn(nil))
	sql := c.ReadOnlyRoleSQL()
	if !strings.Contains(sql, "GRANT SELECT, SHOW VIEW ON `"+d.name+"`.* TO 'quarry_reader'@'%';") || !strings.Contains(sql, "MAX_STATEMENT_TIME") {
		t.Errorf("ReadOnlyRoleSQL =\n%s", sql)
	}
	// The recipe runs, and the account it makes passes every probe.
	user := "qrole" + itoa(int64(len(d.name))) + d.name[len(d.name)-6:]
	recipe := strings.NewReplacer("'quarry_reader'@'%'", "'"+user+"'@'%'", "choose-a-password", "pw").Replace(sql)
	var stmts []string
	for _, line := range strings.Split(recipe, "\n") {
		if line != "" && !strings.HasPrefix(line, "--") {
			stmts = append(stmts, strings.TrimSuffix(line, ";"))
		}
	}
	d.exec(t, stmts...)
	t.Cleanup(func() { d.admin.Exec("DROP USER IF EXISTS '" + user + "'@'%'") })
	cfg := d.cfg.Clone()
	cfg.User, cfg.Passwd = user, "pw"
	ro := open(t, cfg.FormatDSN())
	results, err := ro.ProbeReadOnly(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// With no table, only CREATE TEMPORARY TABLE is tried.
	if len(results) != 8 {
		t.Errorf("%d results, want 8: %+v", len(results), results)
	}
	for _, r := range results {
		if !r.Refused {
			t.Errorf("%s: not refused for the recipe's account: %s", r.Name, r.Detail)
		}
	}
}
