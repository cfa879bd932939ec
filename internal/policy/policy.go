// Package policy keeps restricted columns out of everything quarry runs,
// shows, stores or sends. It decides, from a statement's real parse and the
// connection's catalog, every base column the statement reads anywhere —
// select lists, stars, whole-row references, filters, orderings, join
// conditions, CTEs, subqueries, set operations and views — and refuses a
// statement that reads a restricted column before it runs. Where it cannot
// tell what a statement reads and a restricted column is within reach, it
// refuses too.
//
// SQLite decides with its own authorizer on the real schema (see Denies and
// internal/connector/sqlite); PostgreSQL and MySQL/MariaDB are decided here
// over their parsers' trees (pg_query and the TiDB parser) resolved against
// the catalog, with views expanded through the engine's own dependency
// catalog where it has one. Redact is the last line: results are redacted by
// column name before anything keeps or shows them, and the scan that finds a
// restricted value in text is an alarm, not the control.
//
// The package is pure: no I/O, no clocks.
package policy

import (
	"fmt"
	"sort"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Code is the guard rule code of a refusal by the column policy.
const Code = "restricted_column"

// Redacted replaces every value of a restricted column.
const Redacted = "[restricted]"

// Policy is the set of restricted columns of one project. The zero value
// and nil restrict nothing. A Policy is immutable and safe for concurrent
// use.
type Policy struct {
	cols map[string]map[string]string // table → column → "table.column" as configured, all keys lower case
	bare map[string]bool              // bare column names, lower case
}

// New returns the policy for restricted columns written "table.column".
// Entries without a dot are ignored (the knowledge loader validates them).
func New(restricted []string) *Policy {
	p := &Policy{cols: map[string]map[string]string{}, bare: map[string]bool{}}
	for _, r := range restricted {
		// Every table and column the entry can mean: a table's own name
		// may hold a dot, and the policy fails closed.
		for _, tc := range semantic.RestrictedReadings(r) {
			t, c := tc[0], tc[1]
			if t == "" || c == "" {
				continue
			}
			lt, lc := strings.ToLower(t), strings.ToLower(c)
			if p.cols[lt] == nil {
				p.cols[lt] = map[string]string{}
			}
			p.cols[lt][lc] = r
			p.bare[lc] = true
		}
	}
	return p
}

// Empty reports whether the policy restricts nothing.
func (p *Policy) Empty() bool { return p == nil || len(p.cols) == 0 }

// Restricted reports whether table.column is restricted. Tables are
// matched by name, whatever their schema.
func (p *Policy) Restricted(table, column string) bool {
	if p.Empty() {
		return false
	}
	return p.cols[strings.ToLower(table)][strings.ToLower(column)] != ""
}

// Columns returns the restricted columns of table, sorted, as configured.
func (p *Policy) Columns(table string) []string {
	if p.Empty() {
		return nil
	}
	var out []string
	for _, s := range p.cols[strings.ToLower(table)] {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Tables returns the tables that have restricted columns, sorted.
func (p *Policy) Tables() []string {
	if p.Empty() {
		return nil
	}
	var out []string
	for t := range p.cols {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Denies reports whether reading table.column is refused: the SQLite
// authorizer's question for every SQLITE_READ. An empty column (SQLite
// passes one when it reads only the rowid, as count(*) does) reads no
// value and is allowed.
func (p *Policy) Denies(table, column string) bool {
	if p.Empty() {
		return false
	}
	cs := p.cols[strings.ToLower(table)]
	if cs == nil {
		return false
	}
	return cs[strings.ToLower(column)] != ""
}

// Name reports whether a result column is called like a restricted column,
// whatever its table. Redaction by name is the last line, behind the
// lineage check that refuses statements reading restricted columns.
func (p *Policy) Name(col string) bool {
	if p.Empty() {
		return false
	}
	col = strings.ToLower(col)
	if i := strings.LastIndexByte(col, '.'); i >= 0 {
		col = col[i+1:]
	}
	return p.bare[strings.Trim(col, "\"`[] ")]
}

// Redact replaces, in place, the values of t's columns that are called
// like a restricted column, and returns their names.
func (p *Policy) Redact(t *quarry.Table) []string {
	if p.Empty() || t == nil {
		return nil
	}
	var idx []int
	var names []string
	for i, c := range t.Columns {
		if p.Name(c.Name) {
			idx = append(idx, i)
			names = append(names, c.Name)
		}
	}
	for _, i := range idx {
		t.Columns[i].Type = quarry.TypeText
		for _, row := range t.Rows {
			if i < len(row) {
				row[i] = Redacted
			}
		}
	}
	return names
}

// RevealsDefinitions reports whether a function returns a definition as
// written (a view's SELECT, a constraint, a partition bound, an index
// expression), whose literals can be copies of restricted values. The
// guard refuses calls of them while the policy restricts columns.
func RevealsDefinitions(fn string) bool {
	switch strings.ToLower(fn) {
	case "pg_get_viewdef", "pg_get_expr", "pg_get_constraintdef", "pg_get_indexdef", "pg_get_ruledef",
		"pg_get_triggerdef", "pg_get_functiondef", "pg_get_partkeydef", "pg_get_partition_constraintdef",
		"pg_get_statisticsobjdef", "pg_get_statisticsobjdef_columns", "pg_get_statisticsobjdef_expressions",
		"pg_get_function_sqlbody":
		return true
	}
	return false
}

// CountsRows reports whether a function returns a relation's size or its
// cumulative statistics (pg_relation_size, pg_stat_get_live_tuples): the
// size of a partial index or of a partition on a restricted column counts
// the rows that meet a condition on it. The policy refuses calls of them
// while it restricts columns.
func CountsRows(fn string) bool {
	fn = strings.ToLower(fn)
	switch fn {
	case "pg_relation_size", "pg_total_relation_size", "pg_table_size", "pg_indexes_size":
		return true
	}
	return strings.HasPrefix(fn, "pg_stat_get_") || strings.HasPrefix(fn, "pg_statio_")
}

// Refusal is the policy's decision against a statement: the restricted
// column it reads (or could read), where, and what to do instead.
type Refusal struct {
	Column string // "table.column" as configured, or "table.*" when a whole row or unknown reads are the reason
	Pos    int    // byte offset in the statement, 0 when unknown
	Msg    string // one line: what was refused and how to rewrite it
}

func (r *Refusal) Error() string { return r.Msg }

// readRefusal is the refusal of a read of a restricted column.
func readRefusal(col string, pos int, how string) *Refusal {
	return &Refusal{Column: col, Pos: pos, Msg: fmt.Sprintf("the statement reads %s, a column the policy restricts (%s); it cannot be selected, filtered, joined on, sorted or grouped by — leave it out", col, how)}
}

// unknownRefusal is the refusal of a statement whose reads the policy
// cannot determine while a table with restricted columns is within reach.
func unknownRefusal(table string, cols []string, pos int, why string) *Refusal {
	return &Refusal{Column: table + ".*", Pos: pos, Msg: fmt.Sprintf("quarry cannot tell which columns of %s the statement reads (%s), and %s %s restricted; name the columns you need, qualified with the table's alias", table, why, strings.Join(cols, ", "), isAre(len(cols)))}
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// FromModel returns the policy of a knowledge folder's semantic model:
// each restricted "entity.column" is restricted under the entity's name
// and under its table's name.
func FromModel(m *semantic.Model) *Policy {
	if m == nil {
		return New(nil)
	}
	var all []string
	for _, r := range m.Restricted {
		t, c, ok := strings.Cut(r, ".")
		if !ok {
			continue
		}
		all = append(all, r)
		if e := m.Entity(t); e != nil {
			all = append(all, e.TableName()+"."+c)
		}
	}
	return New(all)
}

// With returns a policy that restricts what p does and the columns cols
// ("table.column") as well. p is unchanged.
func (p *Policy) With(cols ...string) *Policy {
	var all []string
	if p != nil {
		for _, cs := range p.cols {
			for _, c := range cs {
				all = append(all, c)
			}
		}
	}
	return New(append(all, cols...))
}
