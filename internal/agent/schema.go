package agent

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// maxContextTables bounds the tables listed in the system prompt; the
// model finds the others with search_schema.
const maxContextTables = 60

func (a *Agent) model() *semantic.Model {
	if a.Knowledge == nil || a.Knowledge.Model == nil {
		return &semantic.Model{}
	}
	return a.Knowledge.Model
}

// table is what the model may know of one table: restricted columns are
// never in it.
type table struct {
	name, desc string
	rows       int64
	cols       []column
}

type column struct {
	name, typ, desc string
}

// tables merges the live catalog with the semantic model, leaving out
// restricted columns.
func (a *Agent) tables(p *policy) []table {
	m := a.model()
	var out []table
	seen := map[string]bool{}
	add := func(t table) {
		key := strings.ToLower(t.name)
		base := key
		if i := strings.LastIndexByte(key, '.'); i >= 0 {
			base = key[i+1:] // schema.table, as MySQL entities name their tables
		}
		if a.Withheld[key] || a.Withheld[base] {
			return
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, t)
		}
	}
	for _, e := range m.Entities {
		t := table{name: e.TableName(), desc: e.Description, rows: e.RowCount}
		for _, c := range e.Columns {
			if p.column(e.Name, c.Name) {
				continue
			}
			t.cols = append(t.cols, column{name: c.Name, typ: string(c.Type), desc: c.Description})
		}
		add(t)
	}
	if a.Catalog != nil {
		for _, ti := range a.Catalog.Tables {
			if seen[strings.ToLower(ti.Name)] {
				continue
			}
			t := table{name: ti.Name, desc: ti.Comment, rows: ti.RowCount}
			for _, c := range ti.Columns {
				if p.column(ti.Name, c.Name) {
					continue
				}
				t.cols = append(t.cols, column{name: c.Name, typ: string(c.Type), desc: c.Comment})
			}
			add(t)
		}
	}
	return out
}

// schemaContext is the stable prefix of every request: tables, joins,
// metrics, dimensions and verified questions, fenced as data.
func (a *Agent) schemaContext(p *policy) string {
	m := a.model()
	var b strings.Builder
	fmt.Fprintf(&b, "Dialect: %s\n\nTables (name: columns):\n", a.dialect())
	ts := a.tables(p)
	for i, t := range ts {
		if i == maxContextTables {
			fmt.Fprintf(&b, "… and %d more tables; use search_schema.\n", len(ts)-i)
			break
		}
		names := make([]string, len(t.cols))
		for k, c := range t.cols {
			names[k] = c.name
		}
		fmt.Fprintf(&b, "- %s: %s\n", t.name, strings.Join(names, ", "))
	}
	if len(m.Relationships) > 0 {
		b.WriteString("\nJoins:\n")
		for _, r := range m.Relationships {
			fmt.Fprintf(&b, "- %s.%s = %s.%s (%s)\n", r.From, r.FromColumn, r.To, r.ToColumn, r.Cardinality)
		}
	}
	if len(m.Metrics) > 0 {
		b.WriteString("\nMetrics (use query_metric):\n")
		for _, mt := range m.Metrics {
			fmt.Fprintf(&b, "- %s: %s\n", mt.Name, oneLine(mt.Description))
		}
	}
	if len(m.Dimensions) > 0 {
		b.WriteString("\nDimensions:\n")
		for _, d := range m.Dimensions {
			fmt.Fprintf(&b, "- %s: %s\n", d.Name, oneLine(d.Description))
		}
	}
	if len(a.Verified) > 0 {
		b.WriteString("\nVerified queries (approved; reuse them when they fit):\n")
		for _, v := range a.Verified {
			fmt.Fprintf(&b, "- %s\n  %s\n", oneLine(v.Question), oneLine(v.SQL))
		}
	}
	if len(m.Restricted) > 0 {
		b.WriteString("\nSome columns are restricted by policy and are not listed; their values are never shown.\n")
	}
	return fence("schema", "", b.String())
}

// searchSchema lists the tables, columns, metrics and dimensions whose
// names, synonyms or descriptions contain a word of query.
func (a *Agent) searchSchema(p *policy, query string) string {
	words := strings.Fields(strings.ToLower(query))
	match := func(texts ...string) bool {
		for _, t := range texts {
			t = strings.ToLower(t)
			for _, w := range words {
				if len(w) >= 2 && strings.Contains(t, strings.Trim(w, "?,.!'\"")) {
					return true
				}
			}
		}
		return false
	}
	var b strings.Builder
	n := 0
	for _, t := range a.tables(p) {
		if match(t.name, t.desc) {
			fmt.Fprintf(&b, "table %s: %s\n", t.name, oneLine(t.desc))
			n++
		}
		for _, c := range t.cols {
			if match(c.name, c.desc) {
				fmt.Fprintf(&b, "column %s.%s (%s): %s\n", t.name, c.name, c.typ, oneLine(c.desc))
				n++
			}
		}
	}
	m := a.model()
	for _, mt := range m.Metrics {
		if match(append([]string{mt.Name, mt.Description}, mt.Synonyms...)...) {
			fmt.Fprintf(&b, "metric %s: %s\n", mt.Name, oneLine(mt.Description))
			n++
		}
	}
	for _, d := range m.Dimensions {
		if match(append([]string{d.Name, d.Description}, d.Synonyms...)...) {
			fmt.Fprintf(&b, "dimension %s: %s\n", d.Name, oneLine(d.Description))
			n++
		}
	}
	if n == 0 {
		return "nothing matches " + query
	}
	return b.String()
}

// describe writes one table's columns, keys and joins.
func (a *Agent) describe(p *policy, name string) (string, error) {
	m := a.model()
	// The name of a table, or of an entity whose table is shown; a table
	// the policy withholds is not found under either name.
	names := []string{name}
	if e := m.Entity(name); e != nil && !strings.EqualFold(e.TableName(), name) {
		names = append(names, e.TableName())
	}
	var t *table
	for _, n := range names {
		for _, x := range a.tables(p) {
			if strings.EqualFold(x.name, n) {
				t = &x
				break
			}
		}
		if t != nil {
			break
		}
	}
	if t == nil {
		return "", quarry.Errorf(quarry.KindNotFound, "no table %q; call search_schema", name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "table %s", t.name)
	if t.rows > 0 {
		fmt.Fprintf(&b, " (about %d rows)", t.rows)
	}
	if t.desc != "" {
		b.WriteString(": " + oneLine(t.desc))
	}
	b.WriteString("\ncolumns:\n")
	for _, c := range t.cols {
		fmt.Fprintf(&b, "- %s %s", c.name, c.typ)
		if c.desc != "" {
			b.WriteString(": " + oneLine(c.desc))
		}
		b.WriteString("\n")
	}
	if a.Catalog != nil {
		if ti := a.Catalog.Table(t.name); ti != nil {
			if len(ti.PrimaryKey) > 0 {
				b.WriteString("primary key: " + strings.Join(ti.PrimaryKey, ", ") + "\n")
			}
			for _, fk := range ti.ForeignKeys {
				fmt.Fprintf(&b, "foreign key: (%s) → %s(%s)\n", strings.Join(fk.Columns, ", "), fk.RefTable, strings.Join(fk.RefColumns, ", "))
			}
		}
	}
	for _, r := range m.Relationships {
		if strings.EqualFold(r.From, t.name) || strings.EqualFold(r.To, t.name) {
			fmt.Fprintf(&b, "join: %s.%s = %s.%s (%s)\n", r.From, r.FromColumn, r.To, r.ToColumn, r.Cardinality)
		}
	}
	if len(m.Restricted) > 0 {
		b.WriteString("(restricted columns are not listed)\n")
	}
	return b.String(), nil
}

// resolveColumn finds table.column as the model may see it and returns
// their real spellings.
func (a *Agent) resolveColumn(table, col string) (string, string, bool) {
	for _, t := range a.tables(newPolicy(a.model())) {
		if !strings.EqualFold(t.name, table) {
			if e := a.model().Entity(table); e == nil || !strings.EqualFold(e.TableName(), t.name) {
				continue
			}
		}
		for _, c := range t.cols {
			if strings.EqualFold(c.name, col) {
				return t.name, c.name, true
			}
		}
	}
	return "", "", false
}

func oneLine(s string) string {
	return short(strings.Join(strings.Fields(s), " "), 240)
}

// PromptText returns what the agent sends with every question before the
// question itself — its instructions, the schema context (restricted data
// scrubbed) and its tools' definitions — so that a pre-flight check can
// size it against the model's context window.
func (a *Agent) PromptText() string {
	p := newPolicy(a.model())
	var b strings.Builder
	b.WriteString(prompt(string(a.dialect()), a.Manual()) + "\n\n" + p.scrub(a.schemaContext(p)))
	for _, t := range a.tools() {
		b.WriteString("\n" + t.Name + ": " + t.Description + " " + string(t.InputSchema))
	}
	return b.String()
}
