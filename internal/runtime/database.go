package runtime

import (
	"context"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/mysql"
	"github.com/quarrydata/quarry/internal/connector/postgres"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Database is one database served on its own (quarry connector), outside
// a project's connections: opened read-only, its role checked, with the
// guard every statement passes.
type Database struct {
	What  string // what it is, for messages: "SQLite database shop.db"
	Conn  connector.Conn
	Guard analyst.Guard
	// Scrub removes the database's URL and password from a message; nil
	// when there is none to remove.
	Scrub func(string) string
	close func()
}

// Close releases the guard and the connection.
func (d *Database) Close() { d.close() }

// OpenSQLiteFile opens a SQLite file read-only. withProject applies the
// project's column policy (a project named with --config); without one
// the database is served as it is, and docs/mcp.md says so.
func (r *Runtime) OpenSQLiteFile(ctx context.Context, path string, withProject bool) (*Database, error) {
	p := policy.New(nil)
	if withProject {
		var err error
		if p, err = r.Policy(); err != nil {
			return nil, err
		}
	}
	name := filepath.Base(path)
	conn, err := sqlite.Open(ctx, path, sqlite.Options{ExtraFunctions: r.ExtraFunctions(), Name: name, Policy: p})
	if err != nil {
		return nil, err
	}
	return r.serve(ctx, conn, "SQLite database "+name, withProject)
}

// URLOptions say how OpenURL opens a database.
type URLOptions struct {
	Title           string // "PostgreSQL", "MySQL or MariaDB"
	AllowPrivileged bool   // serve a role that can do more than read, with a warning
	WithProject     bool   // apply the project's column policy
}

// OpenURL opens a PostgreSQL or MySQL database by URL (from DATABASE_URL)
// and refuses it when its role can do more than read, unless allowed.
// Messages never quote the URL.
func (r *Runtime) OpenURL(ctx context.Context, d quarry.Dialect, raw string, o URLOptions) (*Database, error) {
	scrub := secretScrubber(raw)
	var conn connector.Conn
	var err error
	if d == quarry.DialectMySQL {
		conn, err = mysql.Open(ctx, raw, mysql.Options{Name: string(d)})
	} else {
		conn, err = postgres.Open(ctx, raw, postgres.Options{Name: string(d)})
	}
	if err != nil {
		// The message only: a driver's cause may quote the URL.
		return nil, quarry.Errorf(quarry.KindOf(err), "%s", scrub(quarry.Message(err)))
	}
	if err := r.urlRoleGate(ctx, conn, o.AllowPrivileged, scrub); err != nil {
		conn.Close()
		return nil, err
	}
	what := o.Title + " database"
	if id, ok := conn.(interface{ Identity() connector.Identity }); ok && id.Identity().Target != "" {
		what += " " + scrub(id.Identity().Target)
	}
	db, err := r.serve(ctx, conn, what, o.WithProject)
	if err != nil {
		return nil, err
	}
	db.Scrub = scrub
	return db, nil
}

// serve adds the guard to an opened database: the project's (ConnGuard)
// with a project, else the dialect's guard with the engine's verdict on
// the real schema only.
func (r *Runtime) serve(ctx context.Context, conn connector.Conn, what string, withProject bool) (*Database, error) {
	db := &Database{What: what, Conn: conn}
	if withProject {
		g, closeGuard, err := r.ConnGuard(ctx, conn)
		if err != nil {
			conn.Close()
			return nil, err
		}
		db.Guard, db.close = g, func() { closeGuard(); conn.Close() }
		if p, err := r.Policy(); err == nil && !p.Empty() {
			db.Conn = policyCatalog{Conn: conn, guard: g}
		}
		return db, nil
	}
	g, err := r.BaseGuard(conn.Dialect(), nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	db.Guard, db.close = g, func() { g.Close(); conn.Close() }
	if sc, ok := conn.(*sqlite.Conn); ok {
		check, err := sqlite.Open(ctx, sc.Path(), sqlite.Options{ExtraFunctions: r.ExtraFunctions(), Name: sc.Identity().Name})
		if err != nil {
			db.Close()
			return nil, err
		}
		db.Guard, db.close = g.OnConn(check), func() { check.Close(); g.Close(); conn.Close() }
	}
	return db, nil
}

// urlRoleGate is the role check of a database opened by URL: the
// override is --allow-privileged-role. Messages go through scrub.
func (r *Runtime) urlRoleGate(ctx context.Context, conn connector.Conn, allow bool, scrub func(string) string) error {
	rc, ok := conn.(connector.RoleChecker)
	if !ok {
		return nil
	}
	c := &RoleCheck{Has: true}
	c.Report, c.Err = rc.Privileges(ctx)
	if !c.Privileged() {
		return nil
	}
	if allow {
		r.Warn(scrub("the database in DATABASE_URL: " + c.What() + "; serving anyway because of --allow-privileged-role"))
		return nil
	}
	err := RoleRefusal("the database in DATABASE_URL", c, "docs/readonly.md has the SQL that creates one", "pass --allow-privileged-role")
	return quarry.Errorf(quarry.KindOf(err), "%s", scrub(quarry.Message(err)))
}

// dsnPassword finds the password of a MySQL DSN, user:password@tcp(…)/db.
var dsnPassword = regexp.MustCompile(`^[^:@/]*:([^@]*)@`)

// secretScrubber returns a func that removes the database URL and its
// password from a message.
func secretScrubber(raw string) func(string) string {
	secrets := []string{raw}
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			secrets = append(secrets, p, url.QueryEscape(p))
		}
	}
	if m := dsnPassword.FindStringSubmatch(raw); m != nil && m[1] != "" {
		secrets = append(secrets, m[1])
	}
	return func(s string) string {
		for _, x := range secrets {
			if x != "" {
				s = strings.ReplaceAll(s, x, "[secret]")
			}
		}
		return s
	}
}

// policyCatalog is a connection whose catalog is shown as the column
// policy lets it be (quarry connector --config, quarry://schema): no view
// definitions, whose literals can copy restricted values (WHERE email =
// '…'), and no relation the policy withholds whole (a view over a
// restricted column: its row count counts the rows that meet its
// condition), as the agent's schema and quarry mcp's describe leave them
// out. The guard, built from the full catalog before, still decides every
// statement.
type policyCatalog struct {
	connector.Conn
	guard analyst.Guard
}

func (c policyCatalog) Catalog(ctx context.Context) (*quarry.Catalog, error) {
	cat, err := c.Conn.Catalog(ctx)
	if err != nil || cat == nil {
		return cat, err
	}
	withheld := withheldBy(ctx, c.guard, c.Conn.Dialect(), cat)
	out := *cat
	out.Tables = make([]quarry.TableInfo, 0, len(cat.Tables))
	for _, t := range cat.Tables {
		if withheld[strings.ToLower(t.Name)] {
			continue
		}
		t.Definition, t.Reads, t.ReadsKnown = "", nil, false
		out.Tables = append(out.Tables, t)
	}
	return &out, nil
}
