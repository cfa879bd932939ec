package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// TestViewOverRestrictedColumn: knowledge learned before the policy named
// a column keeps what it recorded of the views that read it (their
// values, the value index); none of it may reach an answer once the
// policy stands (an attacker's case: every restricted tier through "acct
// view by level", a did-you-mean of a restricted value, each user's VIP
// flag through the views a name was found in).
func TestViewOverRestrictedColumn(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bank.db")
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT, tier TEXT);
INSERT INTO accounts VALUES (1, 'Ann', 'Gold'), (2, 'Bo', 'gold'), (3, 'Cy', 'Platinum'), (4, 'Di', 'Silver');
CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, is_vip INTEGER);
INSERT INTO users VALUES (1, 'Victor Vee', 1), (2, 'Rupert Arr', 0);
WITH RECURSIVE n(i) AS (SELECT 3 UNION ALL SELECT i + 1 FROM n WHERE i < 80)
INSERT INTO users SELECT i, 'Member ' || i, i % 5 = 0 FROM n;
CREATE VIEW acct_view AS SELECT id, name, tier AS level FROM accounts;
CREATE VIEW vip_names AS SELECT id, name FROM users WHERE is_vip = 1;`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if r := quarryCmd(t, "", "init", dir); r.code != 0 {
		t.Fatalf("init: exit %d: %s", r.code, r.stderr)
	}
	if r := quarryCmd(t, "", "-C", dir, "learn", "--url", path, "-q"); r.code != 0 {
		t.Fatalf("learn: exit %d: %s", r.code, r.stderr)
	}
	// The policy, after learn, as a user adds it.
	if err := os.WriteFile(filepath.Join(dir, "knowledge", "policy.yaml"), []byte("restricted:\n  - column: accounts.tier\n    reason: confidential\n  - column: users.is_vip\n    reason: confidential\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A name found in a view filtered on the restricted flag answers as a
	// name found nowhere else does (an attacker told VIPs apart by it).
	ask := func(q string) string {
		r := quarryCmd(t, "", "-C", dir, "ask", "--as-of", "2026-06-30", "--json", q)
		out := strings.NewReplacer("victor vee", "NAME", "rupert arr", "NAME").Replace(strings.ToLower(r.stdout))
		// Run ids and timings differ from run to run.
		var keep []string
		for _, line := range strings.Split(out, "\n") {
			if !strings.Contains(line, "run_id") && !strings.Contains(line, "duration") && !strings.Contains(line, "result_id") {
				keep = append(keep, line)
			}
		}
		return strings.Join(keep, "\n")
	}
	if vip, other := ask("how many vip_names named Member 10"), ask("how many vip_names named Member 11"); strings.ReplaceAll(vip, "member 10", "member 11") != other {
		t.Errorf("a VIP's name answers otherwise than another's:\n%s\n---\n%s", vip, other)
	}
	// A word naming a withheld view column and a column the policy allows
	// is read as the allowed one, not refused (found from outside:
	// "transfers by status" refused for a view's status).
	if out := askAt(t, dir, "2026-06-30", "number of accounts by name"); out.Status != "succeeded" || !strings.Contains(out.SQL, "accounts.name") {
		t.Errorf("accounts by name: %s %q %s", out.Status, out.Message, out.SQL)
	}
	for _, q := range []string{"acct view by level", "acct view with level gold", "platnum", "Victor Vee", "Rupert Arr", "how many vip names"} {
		t.Run(q, func(t *testing.T) {
			r := quarryCmd(t, "", "-C", dir, "ask", "--as-of", "2026-06-30", "--json", q)
			out := strings.ToLower(r.stdout + r.stderr)
			for _, leak := range []string{"platinum", "silver", "'gold'", "\"gold\"", "vip_names"} {
				if strings.Contains(out, leak) && !(leak == "vip_names" && strings.Contains(q, "vip")) {
					t.Errorf("the answer holds %s:\n%s", leak, r.stdout)
				}
			}
			if strings.Contains(q, "vip") && strings.Contains(out, "victor") {
				t.Errorf("the answer names a VIP user:\n%s", r.stdout)
			}
		})
	}
}
