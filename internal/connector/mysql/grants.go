package mysql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strings"

	"github.com/quarrydata/quarry/internal/connector"
)

// privilegeGroup is one finding of the grants analysis.
type privilegeGroup struct {
	name string
	why  string
}

// The groups, in report order.
const (
	groupWrite = iota
	groupDDL
	groupFile
	groupSuper
	groupProcess
	groupOther
	groupCount
)

func privilegeGroups() [groupCount]privilegeGroup {
	return [groupCount]privilegeGroup{
		groupWrite:   {"write privileges", "they let the account change rows"},
		groupDDL:     {"schema-change privileges", "MySQL commits DDL implicitly, so a READ ONLY transaction does not stop it; only the account can"},
		groupFile:    {"FILE privilege", "it lets SELECT … INTO OUTFILE write files on the server, even in a READ ONLY transaction"},
		groupSuper:   {"SUPER privilege", "it bypasses read_only and can change global settings and other sessions"},
		groupProcess: {"PROCESS privilege", "it shows the SQL text of every session on the server"},
		groupOther:   {"other administrative privileges", "they let the account run routines, lock tables, grant privileges or administer the server"},
	}
}

// privilegeGroupOf classifies one privilege; ok is false for privileges
// that only read (SELECT, SHOW VIEW, USAGE, SHOW DATABASES, REFERENCES).
// ALL PRIVILEGES is handled by the caller.
func privilegeGroupOf(p string) (int, bool) {
	switch p {
	case "SELECT", "SHOW VIEW", "USAGE", "SHOW DATABASES", "REFERENCES":
		return 0, false
	case "INSERT", "UPDATE", "DELETE", "DELETE HISTORY":
		return groupWrite, true
	case "CREATE", "DROP", "ALTER", "INDEX", "CREATE VIEW", "CREATE ROUTINE", "ALTER ROUTINE",
		"TRIGGER", "EVENT", "CREATE TEMPORARY TABLES", "CREATE TABLESPACE":
		return groupDDL, true
	case "FILE":
		return groupFile, true
	case "SUPER":
		return groupSuper, true
	case "PROCESS":
		return groupProcess, true
	}
	return groupOther, true
}

// grant is one privilege on one object.
type grant struct {
	privilege string // upper case, without a column list
	object    string // as SHOW GRANTS wrote it, e.g. `shop`.*
}

// parseGrant reads one SHOW GRANTS line. It returns the privileges granted
// on an object, or, for a line that grants roles, the roles. Anything
// after TO (the account, and any password hash) is never looked at.
func parseGrant(line string) (grants []grant, roles []string) {
	s := strings.TrimSpace(line)
	if len(s) < 6 || !strings.EqualFold(s[:6], "GRANT ") {
		return nil, nil
	}
	s = s[6:]
	on := indexTopLevel(s, " ON ")
	to := indexTopLevel(s, " TO ")
	if to < 0 {
		return nil, nil
	}
	if on < 0 || on > to { // GRANT role[, role] TO account
		for _, r := range splitTopLevel(s[:to]) {
			if r != "" {
				roles = append(roles, r)
			}
		}
		return nil, roles
	}
	object := strings.TrimSpace(s[on+4 : to])
	for _, p := range splitTopLevel(s[:on]) {
		if i := strings.IndexByte(p, '('); i >= 0 { // SELECT (`a`, `b`)
			p = p[:i]
		}
		p = strings.ToUpper(strings.Join(strings.Fields(p), " "))
		if p != "" {
			grants = append(grants, grant{privilege: p, object: object})
		}
	}
	if rest := strings.ToUpper(s[to:]); strings.Contains(rest, "WITH GRANT OPTION") || strings.Contains(rest, " GRANT OPTION") {
		grants = append(grants, grant{privilege: "GRANT OPTION", object: object})
	}
	return grants, nil
}

// indexTopLevel finds sep outside backticks, quotes and parentheses.
func indexTopLevel(s, sep string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '`' || ch == '\'' || ch == '"':
			quote = ch
		case ch == '(':
			depth++
		case ch == ')':
			depth--
		case depth == 0 && strings.HasPrefix(strings.ToUpper(s[i:min(len(s), i+len(sep))]), sep):
			return i
		}
	}
	return -1
}

// splitTopLevel splits s at commas outside backticks, quotes and
// parentheses, trimming each part.
func splitTopLevel(s string) []string {
	var parts []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '`' || ch == '\'' || ch == '"':
			quote = ch
		case ch == '(':
			depth++
		case ch == ')':
			depth--
		case ch == ',' && depth == 0:
			parts = append(parts, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(parts, strings.TrimSpace(s[start:]))
}

// heldPrivileges reads SHOW GRANTS for the current account and the roles
// granted to it (whether or not they are active: SET ROLE reaches them),
// and sorts every privilege beyond reading into its group. ALL PRIVILEGES
// counts in every group; the grants of a role that cannot be read count
// as other privileges.
func (c *Conn) heldPrivileges(ctx context.Context) ([groupCount][]string, error) {
	var held [groupCount][]string
	conn, err := c.db.Conn(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return held, ctxError(ctx, err, 0)
		}
		return held, c.connectError(ctx, err)
	}
	defer func() {
		// SET ROLE may have changed the session: never reuse it.
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		_ = conn.Close()
	}()

	note := func(g int, what string) {
		for _, h := range held[g] {
			if h == what {
				return
			}
		}
		held[g] = append(held[g], what)
	}
	var unreadable []string
	seen := map[string]bool{}
	queue := []string{""}
	for len(queue) > 0 && len(seen) < 32 {
		role := queue[0]
		queue = queue[1:]
		if seen[role] {
			continue
		}
		seen[role] = true
		stmt := "SHOW GRANTS"
		if role != "" {
			stmt = "SHOW GRANTS FOR " + role
		}
		lines, err := showGrants(ctx, conn, stmt)
		if err != nil && role != "" && ctx.Err() == nil {
			// MariaDB shows a granted role's grants to its grantee only
			// while the role is the session's current role.
			if _, serr := conn.ExecContext(ctx, "SET ROLE "+role); serr == nil {
				lines, err = showGrants(ctx, conn, stmt)
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return held, ctxError(ctx, err, 0)
			}
			if role == "" {
				return held, c.probeError(ctx, err)
			}
			unreadable = append(unreadable, role)
			continue
		}
		for _, line := range lines {
			grants, roles := parseGrant(line)
			queue = append(queue, roles...)
			for _, g := range grants {
				what := g.privilege + " on " + g.object
				if role != "" {
					what += " (through role " + role + ")"
				}
				if g.privilege == "ALL" || g.privilege == "ALL PRIVILEGES" {
					for i := range groupCount {
						note(i, what)
					}
					continue
				}
				if i, ok := privilegeGroupOf(g.privilege); ok {
					note(i, what)
				}
			}
		}
	}
	for _, r := range unreadable {
		held[groupOther] = append(held[groupOther], "the grants of role "+r+" (they could not be read)")
	}
	return held, nil
}

// probeGrants reports heldPrivileges as one probe result per group.
func (c *Conn) probeGrants(ctx context.Context) ([]connector.ProbeResult, error) {
	held, err := c.heldPrivileges(ctx)
	if err != nil {
		return nil, err
	}
	groups := privilegeGroups()
	out := make([]connector.ProbeResult, 0, groupCount)
	for i, g := range groups {
		r := connector.ProbeResult{Name: g.name + " (grants)", SQL: "SHOW GRANTS", Refused: len(held[i]) == 0}
		if r.Refused {
			r.Detail = "the account does not hold them"
			if i == groupFile || i == groupSuper || i == groupProcess {
				r.Detail = "the account does not hold it"
			}
		} else {
			r.Detail = "the account holds " + strings.Join(held[i], ", ") + "; " + g.why + "; revoke them, or give quarry an account that holds SELECT only"
		}
		out = append(out, r)
	}
	return out, nil
}

// showGrants runs SHOW GRANTS and returns its lines.
func showGrants(ctx context.Context, conn *sql.Conn, stmt string) ([]string, error) {
	rs, err := conn.QueryContext(ctx, stmt)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var lines []string
	for rs.Next() {
		var line string
		if err := rs.Scan(&line); err != nil {
			return nil, err
		}
		lines = append(lines, line)
	}
	return lines, rs.Err()
}
