package mysql

import (
	"context"
	"strings"

	"github.com/quarrydata/quarry/internal/connector"
)

var _ connector.RoleChecker = (*Conn)(nil)

// Privileges reads what the connected account could do beyond reading:
// SHOW GRANTS for the account and the roles granted to it (heldPrivileges).
// Everything but SELECT, SHOW VIEW, SHOW DATABASES, REFERENCES and USAGE
// is a problem: write privileges, schema changes (including CREATE
// TEMPORARY TABLES, since MySQL lets temporary tables be written inside a
// READ ONLY transaction, and LOCK TABLES), FILE, SUPER, PROCESS (the SQL
// of every session) and every administrative privilege (EXECUTE, GRANT
// OPTION, CREATE USER, RELOAD, SHUTDOWN, CONNECTION ADMIN, …).
func (c *Conn) Privileges(ctx context.Context) (connector.RoleReport, error) {
	var account string
	if err := c.db.QueryRowContext(ctx, "SELECT CURRENT_USER()").Scan(&account); err != nil {
		if ctx.Err() != nil {
			return connector.RoleReport{}, ctxError(ctx, err, 0)
		}
		return connector.RoleReport{}, c.probeError(ctx, err)
	}
	held, err := c.heldPrivileges(ctx)
	if err != nil {
		return connector.RoleReport{}, err
	}
	rep := connector.RoleReport{Role: accountName(account), FixSQL: c.ReadOnlyRoleSQL()}
	groups := privilegeGroups()
	seen := map[string]bool{}
	for i, g := range groups {
		var items []string
		for _, h := range held[i] {
			if !seen[h] {
				seen[h] = true
				items = append(items, h)
			}
		}
		if len(items) > 0 {
			rep.Problems = append(rep.Problems, g.name+": "+strings.Join(items, ", "))
		}
	}
	return rep, nil
}

// accountName writes CURRENT_USER()'s user@host as 'user'@'host'.
func accountName(s string) string {
	i := strings.LastIndexByte(s, '@')
	if i < 0 {
		return s
	}
	return "'" + s[:i] + "'@'" + s[i+1:] + "'"
}
