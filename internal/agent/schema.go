package agent

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/retrieval"
	"github.com/quarrydata/quarry/internal/semantic"
)

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
	synonyms   []string // the entity's name and synonyms
}

type column struct {
	name, typ, desc string
	synonyms        []string
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
		t := table{name: e.TableName(), desc: e.Description, rows: e.RowCount, synonyms: e.Synonyms}
		if !strings.EqualFold(e.Name, e.TableName()) {
			t.synonyms = append([]string{e.Name}, e.Synonyms...)
		}
		for _, c := range e.Columns {
			if p.column(e.Name, c.Name) {
				continue
			}
			t.cols = append(t.cols, column{name: c.Name, typ: string(c.Type), desc: c.Description, synonyms: c.Synonyms})
		}
		add(t)
	}
	if a.Catalog != nil {
		// A name in more than one schema is written with its schema.
		schemas := map[string]int{}
		for _, ti := range a.Catalog.Tables {
			schemas[strings.ToLower(ti.Name)]++
		}
		for _, ti := range a.Catalog.Tables {
			name := ti.Name
			if schemas[strings.ToLower(ti.Name)] > 1 && ti.Schema != "" {
				name = ti.Schema + "." + ti.Name
			}
			if seen[strings.ToLower(ti.Name)] || seen[strings.ToLower(name)] {
				continue // the model's entity describes it
			}
			t := table{name: name, desc: ti.Comment, rows: ti.RowCount}
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

// schemaContext is the stable prefix of every request: the tables most
// related to the question (all of them when they fit), then metrics,
// dimensions and verified questions, within budget tokens, fenced as
// data; and what of the tables it shows, and why.
func (a *Agent) schemaContext(p *policy, ix *retrieval.Index, question string, values []retrieval.Value, budget int) (string, retrieval.Result) {
	m := a.model()
	var b strings.Builder
	fmt.Fprintf(&b, "Dialect: %s\n\n", a.dialect())
	tableBudget := budget * 2 / 3
	var res retrieval.Result
	if ix.FullTokens() <= tableBudget || strings.TrimSpace(question) == "" {
		res = ix.Listing(tableBudget)
		b.WriteString("Tables (name: columns):\n")
	} else {
		res = ix.Search(question, retrieval.Options{Budget: tableBudget, Values: values})
		fmt.Fprintf(&b, "The %d tables most related to the question, of %d (name: columns):\n", len(res.Shown), ix.Len())
	}
	b.WriteString(res.Text)
	if more := ix.Len() - len(res.Shown); more > 0 {
		fmt.Fprintf(&b, "… and %d more tables; use search_schema.\n", more)
	}
	// The rest, line by line while the budget lasts (the fence's own
	// lines are counted).
	room := budget - retrieval.Tokens(b.String()) - 10
	left := 0
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		head := "\n" + title + ":\n"
		for i, l := range lines {
			n := retrieval.Tokens(l)
			if i == 0 {
				n += retrieval.Tokens(head)
			}
			if n > room {
				left += len(lines) - i
				return
			}
			if i == 0 {
				b.WriteString(head)
			}
			b.WriteString(l)
			room -= n
		}
	}
	var lines []string
	for _, mt := range m.Metrics {
		lines = append(lines, fmt.Sprintf("- %s: %s\n", mt.Name, oneLine(mt.Description)))
	}
	section("Metrics (use query_metric)", lines)
	lines = nil
	for _, d := range m.Dimensions {
		lines = append(lines, fmt.Sprintf("- %s: %s\n", d.Name, oneLine(d.Description)))
	}
	section("Dimensions", lines)
	lines = nil
	for _, v := range a.Verified {
		lines = append(lines, fmt.Sprintf("- %s\n  %s\n", oneLine(v.Question), oneLine(v.SQL)))
	}
	section("Verified queries (approved; reuse them when they fit)", lines)
	if left > 0 {
		fmt.Fprintf(&b, "… and %d more metrics, dimensions or verified queries; search_schema finds them.\n", left)
	}
	if len(m.Restricted) > 0 {
		b.WriteString("\nSome columns are restricted by policy and are not listed; their values are never shown.\n")
	}
	return fence("schema", "", b.String()), res
}

// searchSchema ranks the tables (with their columns) and lists the
// metrics and dimensions whose names, synonyms or descriptions share a
// word with query, within budget tokens.
func (a *Agent) searchSchema(p *policy, ix *retrieval.Index, query string, budget int) (string, retrieval.Result) {
	res := ix.Search(query, retrieval.Options{Budget: budget * 3 / 4})
	var b strings.Builder
	b.WriteString(res.Text)
	if res.Omitted > 0 {
		fmt.Fprintf(&b, "(%d more tables match less well; search with other words)\n", res.Omitted)
	}
	q := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(query)) {
		if w = strings.Trim(w, "?,.!'\""); len(w) >= 2 {
			q[w] = true
		}
	}
	match := func(texts ...string) bool {
		for _, t := range texts {
			for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r == ' ' || r == '_' || r == ',' || r == '.' }) {
				if q[w] {
					return true
				}
			}
		}
		return false
	}
	m := a.model()
	var lines []string
	for _, mt := range m.Metrics {
		if match(append([]string{mt.Name, mt.Description}, mt.Synonyms...)...) {
			lines = append(lines, fmt.Sprintf("metric %s: %s\n", mt.Name, oneLine(mt.Description)))
		}
	}
	for _, d := range m.Dimensions {
		if match(append([]string{d.Name, d.Description}, d.Synonyms...)...) {
			lines = append(lines, fmt.Sprintf("dimension %s: %s\n", d.Name, oneLine(d.Description)))
		}
	}
	for _, l := range lines {
		if retrieval.Tokens(b.String()+l) > budget {
			break
		}
		b.WriteString(l)
	}
	if b.Len() == 0 {
		return "nothing matches " + query, res
	}
	return b.String(), res
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
		if ti := a.catalogTable(t.name); ti != nil {
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
	schema, _ := a.schemaContext(p, a.index(p), "", nil, a.Limits.schemaBudget()/2)
	var b strings.Builder
	b.WriteString(a.prompt() + "\n\n" + p.scrub(schema))
	for _, t := range a.tools() {
		b.WriteString("\n" + t.Name + ": " + t.Description + " " + string(t.InputSchema))
	}
	return b.String()
}
