package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestServeGroupPolicy runs quarry serve as a real process with people in
// groups (quarry users add --group, set-groups) and a policy.yaml whose
// groups restrict a column: a member's statements that read it are
// refused by the server, everyone else's run, and a change of someone's
// groups holds from their next request, without a restart.
func TestServeGroupPolicy(t *testing.T) {
	s := serveDemoProcess(t)
	s.stop()
	policy := filepath.Join(s.dir, "knowledge", "policy.yaml")
	orig, err := os.ReadFile(policy)
	if err != nil {
		t.Fatal(err)
	}
	groups := "\ngroups:\n  support:\n    restricted:\n      - column: customers.city\n        reason: support reads no addresses\n"
	if err := os.WriteFile(policy, append(orig, groups...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"users", "add", "ann", "--role", "admin"}, 0, ""},
		{[]string{"users", "add", "bob", "--role", "analyst", "--group", "support"}, 0, "groups support"},
		{[]string{"users", "add", "eve", "--role", "analyst", "--group", "no good"}, quarry.ExitUsage, ""},
		{[]string{"users", "set-groups", "nobody", "support"}, quarry.ExitInput, ""},
		{[]string{"users", "set-groups"}, quarry.ExitUsage, ""},
		{[]string{"users", "list"}, 0, "support"},
	} {
		r := quarryProc(t, s.bin, s.dir, c.args...)
		if r.code != c.code || !strings.Contains(r.stdout, c.out) {
			t.Errorf("quarry %s: exit %d, want %d\n%s%s", strings.Join(c.args, " "), r.code, c.code, r.stdout, r.stderr)
		}
		if c.code != 0 {
			oneLineError(t, result{stderr: r.stderr})
		}
	}
	if r := quarryProc(t, s.bin, s.dir, "users", "add", "cat", "--role", "analyst", "--group", "finance"); r.code != 0 || !strings.Contains(r.stderr, `no group "finance"`) {
		t.Errorf("a group policy.yaml does not name: exit %d\n%s", r.code, r.stderr)
	}
	token := func(user string) string {
		r := quarryProc(t, s.bin, s.dir, "tokens", "create", "--user", user)
		if r.code != 0 {
			t.Fatalf("tokens create: %s", r.stderr)
		}
		return strings.TrimSpace(r.stdout)
	}
	ann, bob := token("ann"), token("bob")
	s.start(t)
	run := func(secret, sql string) (int, string) {
		t.Helper()
		req, err := http.NewRequest("POST", s.base+"/api/run", strings.NewReader(`{"sql":"`+sql+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+secret)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	const city = "SELECT city, count(*) AS n FROM customers GROUP BY city"
	if code, b := run(ann, city); code != 200 {
		t.Errorf("ann reads cities: %d %s", code, b)
	}
	if code, b := run(bob, city); code == 200 || !strings.Contains(b, "city") || strings.Contains(b, "Berlin") {
		t.Errorf("bob (support) reads cities: %d %s", code, b)
	}
	if code, b := run(bob, "SELECT count(*) AS n FROM customers"); code != 200 {
		t.Errorf("bob counts customers: %d %s", code, b)
	}
	if r := quarryProc(t, s.bin, s.dir, "users", "set-groups", "bob"); r.code != 0 || !strings.Contains(r.stdout, "no group") {
		t.Fatalf("set-groups bob: exit %d\n%s", r.code, r.stderr)
	}
	if code, b := run(bob, city); code != 200 {
		t.Errorf("bob, in no group now, reads cities: %d %s", code, b)
	}
}
