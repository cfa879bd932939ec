package knowledge

import (
	"strings"

	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// restrictedRead returns the restricted column a verified query reads, as
// the column policy's lineage check decides it (the statement's parse,
// resolved over the entities' tables and columns), or "". It reads the
// statement with PostgreSQL's parser, and with the MySQL grammar when that
// one cannot; a statement neither reads, or one whose reads depend on
// relations the folder does not describe, is left to the guard, which
// decides on the connection's own catalog when the query runs.
func (v *validator) restrictedRead(sql string) string {
	if v.lineage == nil {
		v.lineage = newLineage(v.m)
	}
	p := v.lineage.p
	if p.Empty() || strings.TrimSpace(sql) == "" {
		return ""
	}
	for i, c := range v.lineage.checkers {
		r := c.Check(lineageDialects[i], sql)
		if r == nil {
			return ""
		}
		if t, col, ok := strings.Cut(r.Column, "."); ok && p.Restricted(t, col) {
			return r.Column
		}
	}
	return ""
}

// lineageDialects are the grammars a verified query is read with, in
// order.
var lineageDialects = [...]quarry.Dialect{quarry.DialectPostgres, quarry.DialectMySQL}

// lineage is the column policy and its checkers over the entities'
// tables, built once for all the verified queries of a folder.
type lineage struct {
	p        *policy.Policy
	checkers []*policy.Checker
}

func newLineage(m *semantic.Model) *lineage {
	l := &lineage{p: policy.FromModel(m)}
	if l.p.Empty() {
		return l
	}
	tables := make([]quarry.TableInfo, 0, len(m.Entities))
	for _, e := range m.Entities {
		t := quarry.TableInfo{Name: e.TableName(), Columns: make([]quarry.ColumnInfo, 0, len(e.Columns))}
		for _, c := range e.Columns {
			t.Columns = append(t.Columns, quarry.ColumnInfo{Name: c.Name})
		}
		tables = append(tables, t)
	}
	for _, d := range lineageDialects {
		l.checkers = append(l.checkers, l.p.For(d, &quarry.Catalog{Dialect: d, Tables: tables}))
	}
	return l
}
