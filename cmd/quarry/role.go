package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// roleCheck is what a connection's role may do, read once when the
// connection opens (connector.RoleChecker), independently of the guard.
type roleCheck struct {
	has    bool // the connector has roles to check
	report connector.RoleReport
	err    error // the check could not run
	warned bool  // the override's warning was printed
}

// privileged reports whether the role failed the check or could not be
// checked.
func (r *roleCheck) privileged() bool {
	return r.has && (r.err != nil || r.report.Privileged())
}

// what says on one line what is wrong with the role.
func (r *roleCheck) what() string {
	if r.err != nil {
		return "its privileges could not be read (" + oneLine(quarry.Message(r.err)) + ")"
	}
	return "role " + r.report.Role + " can do more than read: " + r.report.Summary()
}

// role reads conn's role once per connection name.
func (a *app) role(ctx context.Context, name string, conn connector.Conn) *roleCheck {
	if r, ok := a.roles[name]; ok {
		return r
	}
	r := &roleCheck{}
	if rc, ok := conn.(connector.RoleChecker); ok {
		r.has = true
		r.report, r.err = rc.Privileges(ctx)
	}
	if a.roles == nil {
		a.roles = map[string]*roleCheck{}
	}
	a.roles[name] = r
	return r
}

// roleGate refuses a connection whose role can do more than read, unless
// the connection allows it; then it warns once on stderr, and every run
// records it (privilegedRole).
func (a *app) roleGate(ctx context.Context, cc *config.Connection, conn connector.Conn) error {
	r := a.role(ctx, cc.Name, conn)
	if !r.privileged() {
		return nil
	}
	if cc.AllowPrivilegedRole {
		if !r.warned {
			r.warned = true
			a.warn(fmt.Sprintf("connection %q: %s; running anyway because allow_privileged_role is true, and every run records it", cc.Name, r.what()))
		}
		return nil
	}
	return roleRefusal(fmt.Sprintf("connection %q", cc.Name), r, "`quarry doctor` prints the SQL that creates one for this database; docs/readonly.md", "set allow_privileged_role: true on the connection in quarry.yaml")
}

// roleRefusal is the one-line error for a privileged role: what is wrong,
// where the SQL for a read-only role is, and the override.
func roleRefusal(what string, r *roleCheck, sqlHint, override string) error {
	if r.err != nil {
		return quarry.Wrap(quarry.KindOf(r.err), r.err, "%s: quarry checks the role it connects as before running anything, and %s; fix that, or %s to run without the check", what, r.what(), override)
	}
	return quarry.Errorf(quarry.KindForbidden, "%s: %s; quarry will not run on a role that can write. Connect as a read-only role (%s), or %s to run anyway", what, r.what(), sqlHint, override)
}

// privilegedRole is what a run on the named connection records in
// run.started: "" for a role that can only read (or a connector without
// roles), and otherwise what the role may do.
func (a *app) privilegedRole(name string) string {
	r, ok := a.roles[name]
	if !ok || !r.privileged() {
		return ""
	}
	return r.what()
}

// roleFinding is doctor's verdict on a connection's role: ok, fail with
// the SQL that creates a read-only role, or warn when allowed.
func (a *app) roleFinding(ctx context.Context, cc *config.Connection, conn connector.Conn, add func(finding)) {
	r := a.role(ctx, cc.Name, conn)
	if !r.has {
		return
	}
	name := cc.Name
	switch {
	case r.err != nil && cc.AllowPrivilegedRole:
		add(finding{Status: "warn", Area: "role", Detail: name + ": " + r.what() + "; allowed by allow_privileged_role: true, and every run records it"})
	case r.err != nil:
		add(finding{Status: "fail", Area: "role", Detail: name + ": " + r.what() + "; quarry refuses to run until it can check the role", Fix: "fix the cause, or set allow_privileged_role: true on the connection"})
	case r.report.Privileged():
		f := finding{Area: "role", SQL: r.report.FixSQL}
		if cc.AllowPrivilegedRole {
			f.Status, f.Detail = "warn", name+": "+r.what()+"; allowed by allow_privileged_role: true, and every run records it"
			f.Fix = "connect as a read-only role instead (docs/readonly.md); for example:"
		} else {
			f.Status, f.Detail = "fail", name+": "+r.what()+"; quarry refuses to run on it"
			f.Fix = "connect as a read-only role (docs/readonly.md), or set allow_privileged_role: true on the connection; a read-only role for this database:"
		}
		add(f)
	default:
		d := name + ": role " + r.report.Role + " can only read"
		if len(r.report.Notes) > 0 {
			d += " (allowed: " + strings.Join(r.report.Notes, "; ") + ")"
		}
		add(finding{Status: "ok", Area: "role", Detail: d})
	}
}

// connectorRoleGate is roleGate for `quarry connector postgres|mysql`,
// whose connection comes from DATABASE_URL rather than quarry.yaml; the
// override is --allow-privileged-role. Messages go through scrub.
func (a *app) connectorRoleGate(ctx context.Context, conn connector.Conn, allow bool, scrub func(string) string) error {
	rc, ok := conn.(connector.RoleChecker)
	if !ok {
		return nil
	}
	r := &roleCheck{has: true}
	r.report, r.err = rc.Privileges(ctx)
	if !r.privileged() {
		return nil
	}
	if allow {
		a.warn(scrub("the database in DATABASE_URL: " + r.what() + "; serving anyway because of --allow-privileged-role"))
		return nil
	}
	err := roleRefusal("the database in DATABASE_URL", r, "docs/readonly.md has the SQL that creates one", "pass --allow-privileged-role")
	return quarry.Errorf(quarry.KindOf(err), "%s", scrub(quarry.Message(err)))
}
