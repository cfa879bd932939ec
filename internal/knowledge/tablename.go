package knowledge

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// readTable reads an entity's schema: and table: fields into its
// (schema, table) pair. With a schema, the table is its name exactly.
// Without one, table: is a reference: "orders"; "crm.customers" (a
// schema and a table, as learn wrote them before entities had a
// schema: field); or with double-quoted parts, each one whole name
// with embedded quotes doubled ("\"sales.orders\"" is one table whose
// name holds a dot, crm."Order Details" a table of schema crm). A
// table: that is none of these is the table's name as it stands.
func readTable(schema, table string) (string, string) {
	if schema != "" {
		return schema, table
	}
	if strings.HasPrefix(table, `"`) {
		if n, rest, ok := semantic.UnquoteName(table); ok {
			if rest == "" {
				return "", n
			}
			if t, more, ok := semantic.UnquoteName(strings.TrimPrefix(rest, ".")); ok && strings.HasPrefix(rest, ".") && more == "" {
				return n, t
			}
		}
		return "", table
	}
	if s, t, ok := strings.Cut(table, "."); ok && s != "" && t != "" {
		if strings.HasPrefix(t, `"`) {
			if n, rest, ok := semantic.UnquoteName(t); ok && rest == "" {
				return s, n
			}
		}
		if !strings.ContainsAny(table, ` "`) && !strings.Contains(t, ".") {
			return s, t
		}
	}
	return "", table
}

// writeTable is what learn writes in an entity's schema: and table:
// fields so that readTable reads back its (schema, table) pair: the
// schema by itself and the table as it is; without a schema, a table
// name readTable would read otherwise (a dot, a leading double quote)
// double-quoted.
func writeTable(e semantic.Entity) (schema, table string) {
	if e.Schema != "" || e.Table == "" {
		return e.Schema, e.Table
	}
	if s, t := readTable("", e.Table); s != "" || t != e.Table {
		return "", `"` + strings.ReplaceAll(e.Table, `"`, `""`) + `"`
	}
	return "", e.Table
}
