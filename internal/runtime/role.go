package runtime

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// RoleCheck is what a connection's role may do, read once when the
// connection opens (connector.RoleChecker), independently of the guard.
type RoleCheck struct {
	Has    bool // the connector has roles to check
	Report connector.RoleReport
	Err    error // the check could not run
	warned bool  // the override's warning was printed
}

// Privileged reports whether the role failed the check or could not be
// checked.
func (r *RoleCheck) Privileged() bool {
	return r.Has && (r.Err != nil || r.Report.Privileged())
}

// What says on one line what is wrong with the role.
func (r *RoleCheck) What() string {
	if r.Err != nil {
		return "its privileges could not be read (" + oneLine(quarry.Message(r.Err)) + ")"
	}
	return "role " + r.Report.Role + " can do more than read: " + r.Report.Summary()
}

// Role reads conn's role once per connection name.
func (r *Runtime) Role(ctx context.Context, name string, conn connector.Conn) *RoleCheck {
	if c, ok := r.roles[name]; ok {
		return c
	}
	c := &RoleCheck{}
	if rc, ok := conn.(connector.RoleChecker); ok {
		c.Has = true
		// A report kept under the catalog version, which changes with
		// every grant, revoke, membership and role attribute the check
		// reads (knowledge.RoleCacheDir): checking each of ten thousand
		// tables for every command took a quarter of a second.
		dir, reader, version := r.versionOf(ctx, conn)
		var kept *connector.RoleReport
		if dir != "" {
			kept = knowledge.ReadVersioned[connector.RoleReport](dir, knowledge.RoleCacheDir, reader, version)
		}
		if kept != nil {
			c.Report = *kept
		} else if c.Report, c.Err = rc.Privileges(ctx); c.Err == nil && dir != "" {
			knowledge.WriteVersioned(dir, knowledge.RoleCacheDir, reader, version, &c.Report)
		}
	}
	if r.roles == nil {
		r.roles = map[string]*RoleCheck{}
	}
	r.roles[name] = c
	return c
}

// roleGate refuses a connection whose role can do more than read, unless
// the connection allows it; then it warns once on stderr, and every run
// records it (privilegedRole).
func (r *Runtime) roleGate(ctx context.Context, cc *config.Connection, conn connector.Conn) error {
	c := r.Role(ctx, cc.Name, conn)
	if !c.Privileged() {
		return nil
	}
	if cc.AllowPrivilegedRole {
		if !c.warned {
			c.warned = true
			r.Warn(fmt.Sprintf("connection %q: %s; running anyway because allow_privileged_role is true, and every run records it", cc.Name, c.What()))
		}
		return nil
	}
	return RoleRefusal(fmt.Sprintf("connection %q", cc.Name), c, "`quarry doctor` prints the SQL that creates one for this database; docs/readonly.md", "set allow_privileged_role: true on the connection in quarry.yaml")
}

// RoleRefusal is the one-line error for a privileged role: what is wrong,
// where the SQL for a read-only role is, and the override.
func RoleRefusal(what string, r *RoleCheck, sqlHint, override string) error {
	if r.Err != nil {
		return quarry.Wrap(quarry.KindOf(r.Err), r.Err, "%s: quarry checks the role it connects as before running anything, and %s; fix that, or %s to run without the check", what, r.What(), override)
	}
	return quarry.Errorf(quarry.KindForbidden, "%s: %s; quarry will not run on a role that can write. Connect as a read-only role (%s), or %s to run anyway", what, r.What(), sqlHint, override)
}

// privilegedRole is what a run on the named connection records in
// run.started: "" for a role that can only read (or a connector without
// roles), and otherwise what the role may do.
func (r *Runtime) privilegedRole(name string) string {
	c, ok := r.roles[name]
	if !ok || !c.Privileged() {
		return ""
	}
	return c.What()
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// CheckedRole is the named connection's role as it was checked, or nil
// when it was not.
func (r *Runtime) CheckedRole(name string) *RoleCheck { return r.roles[name] }
