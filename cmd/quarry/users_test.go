package main

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/event"
)

// TestPeopleCommandsRefuseWhatAnOutsiderTried: a name that owns runs is not
// given to someone new (they would read the old person's runs); the only
// admin is neither removed nor demoted while others remain; a name that
// differs only in case from a person's is not another person; a token's
// label cannot carry terminal escapes, new lines or a novel.
func TestPeopleCommandsRefuseWhatAnOutsiderTried(t *testing.T) {
	dir := project(t)
	must := func(args ...string) result {
		t.Helper()
		r := quarryCmd(t, "", append([]string{"-C", dir}, args...)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		return r
	}
	refused := func(want string, args ...string) {
		t.Helper()
		r := quarryCmd(t, "", append([]string{"-C", dir}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 saying %q", args, r.code, r.stderr, want)
		}
		oneLineError(t, r)
	}
	must("users", "add", "ann", "--role", "admin")
	must("users", "add", "eve", "--role", "analyst")
	// eve's run, recorded as hers the way a signed-in request records it.
	if r := quarryCtx(t, event.WithOwner(t.Context(), "eve"), "", "-C", dir, "run", "SELECT 1 AS one"); r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	must("users", "remove", "eve")
	refused("runs are recorded under", "users", "add", "eve", "--role", "analyst")

	refused("only admin", "users", "set-role", "ann", "viewer")
	must("users", "add", "bob", "--role", "analyst")
	refused("in other case", "users", "add", "BOB", "--role", "analyst")
	refused("only admin", "users", "remove", "ann")
	must("users", "set-role", "bob", "admin")
	must("users", "set-role", "ann", "viewer")

	refused("printable", "tokens", "create", "--user", "bob", "--label", "evil\x1b[31mred\nline2")
	refused("at most 100", "tokens", "create", "--user", "bob", "--label", strings.Repeat("L", 101))
	must("tokens", "create", "--user", "bob", "--label", "laptop")
}

// TestUsersApproval: a person's approval mode is set when they are added
// and changed with set-approval; a mode quarry does not know is refused.
func TestUsersApproval(t *testing.T) {
	dir := project(t)
	run := func(args ...string) result {
		t.Helper()
		return quarryCmd(t, "", append([]string{"-C", dir}, args...)...)
	}
	if r := run("users", "add", "ann", "--role", "admin"); r.code != 0 {
		t.Fatalf("add ann: %d %s", r.code, r.stderr)
	}
	if r := run("users", "add", "bob", "--role", "analyst", "--approval", "required"); r.code != 0 || !strings.Contains(r.stdout, "approval required") {
		t.Fatalf("add bob: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := run("users", "add", "cat", "--role", "analyst", "--approval", "sometimes"); r.code != 2 || !strings.Contains(r.stderr, "give required or off") {
		t.Errorf("add with an unknown mode: %d %s", r.code, r.stderr)
	}
	list := func() string {
		t.Helper()
		r := run("users", "list", "--json")
		if r.code != 0 {
			t.Fatalf("list: %d %s", r.code, r.stderr)
		}
		return r.stdout
	}
	if out := list(); !strings.Contains(out, `"name": "bob"`) || strings.Count(out, `"approval": true`) != 1 {
		t.Errorf("list after add:\n%s", out)
	}
	if r := run("users", "set-approval", "bob", "off"); r.code != 0 {
		t.Fatalf("set-approval off: %d %s", r.code, r.stderr)
	}
	if r := run("users", "set-approval", "ann", "required"); r.code != 0 {
		t.Fatalf("set-approval required: %d %s", r.code, r.stderr)
	}
	if out := list(); !strings.Contains(out, `"approval": true`) || strings.Count(out, `"approval": true`) != 1 || strings.Index(out, `"approval": true`) > strings.Index(out, `"bob"`) {
		t.Errorf("list after set-approval:\n%s", out)
	}
	if r := run("users", "set-approval", "nobody", "required"); r.code == 0 {
		t.Errorf("set-approval of nobody: exit 0")
	}
}
