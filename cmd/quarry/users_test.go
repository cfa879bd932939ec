package main

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/event"
)

// TestPeopleCommandsRefuseWhatAnOutsiderTried: a name that owns runs is not
// given to someone new (they would read the old person's runs); the only
// admin is neither removed nor demoted while others remain; a token's
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
	refused("only admin", "users", "remove", "ann")
	must("users", "set-role", "bob", "admin")
	must("users", "set-role", "ann", "viewer")

	refused("printable", "tokens", "create", "--user", "bob", "--label", "evil\x1b[31mred\nline2")
	refused("at most 100", "tokens", "create", "--user", "bob", "--label", strings.Repeat("L", 101))
	must("tokens", "create", "--user", "bob", "--label", "laptop")
}
