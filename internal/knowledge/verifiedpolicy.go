package knowledge

import (
	"strings"

	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
)

// restrictedRead returns the restricted column a verified query reads, as
// the column policy's lineage check decides it (the statement's parse,
// resolved over the entities' tables and columns), or "". It reads the
// statement with PostgreSQL's parser, and with the MySQL grammar when that
// one cannot; a statement neither reads, or one whose reads depend on
// relations the folder does not describe, is left to the guard, which
// decides on the connection's own catalog when the query runs.
func (v *validator) restrictedRead(sql string) string {
	p := policy.FromModel(v.m)
	if p.Empty() || strings.TrimSpace(sql) == "" {
		return ""
	}
	var tables []quarry.TableInfo
	for _, e := range v.m.Entities {
		t := quarry.TableInfo{Name: e.TableName()}
		for _, c := range e.Columns {
			t.Columns = append(t.Columns, quarry.ColumnInfo{Name: c.Name})
		}
		tables = append(tables, t)
	}
	for _, d := range []quarry.Dialect{quarry.DialectPostgres, quarry.DialectMySQL} {
		r := p.For(d, &quarry.Catalog{Dialect: d, Tables: tables}).Check(d, sql)
		if r == nil {
			return ""
		}
		if t, c, ok := strings.Cut(r.Column, "."); ok && p.Restricted(t, c) {
			return r.Column
		}
	}
	return ""
}
