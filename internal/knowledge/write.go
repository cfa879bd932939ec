package knowledge

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

// yamlWriter renders the files learn writes, in a fixed, readable layout.
type yamlWriter struct{ bytes.Buffer }

func (w *yamlWriter) line(indent int, format string, args ...any) {
	w.WriteString(strings.Repeat(" ", indent))
	fmt.Fprintf(w, format, args...)
	w.WriteByte('\n')
}

// kv writes "key: value" when value is not empty.
func (w *yamlWriter) kv(indent int, key, value string) {
	if value != "" {
		w.line(indent, "%s: %s", key, yamlnode.Quote(value, false))
	}
}

// list writes a list of scalars in flow style when it fits on a line and
// in block style otherwise.
func (w *yamlWriter) list(indent int, key string, items []string) {
	if len(items) == 0 {
		return
	}
	parts := make([]string, len(items))
	n := indent + len(key) + 4
	for i, s := range items {
		parts[i] = yamlnode.Quote(s, true)
		n += len(parts[i]) + 2
	}
	if n <= 100 {
		w.line(indent, "%s: [%s]", key, strings.Join(parts, ", "))
		return
	}
	w.line(indent, "%s:", key)
	for _, s := range items {
		w.line(indent+2, "- %s", yamlnode.Quote(s, false))
	}
}

const learnedPrefix = "# Last learned from the database on"

const modelHeader = `# model.yaml: the semantic model of this database.
#
# One entry per table or view (entities): what it means, the words people
# use for it (synonyms), its columns with types and known values, and how
# tables join (relationships). Written by ` + "`quarry learn`" + `; edit it freely.
# When learn runs again it keeps every field you filled in, fills empty
# ones, refreshes row counts and adds new tables, columns, values and
# relationships; it never removes anything. It keeps this header and the
# comment lines directly above an entity, a column or a relationship; other
# comments are not kept. See docs/knowledge.md.
`

func renderModel(m *modelDoc, now time.Time) []byte {
	var w yamlWriter
	if len(m.header) == 0 {
		w.WriteString(modelHeader)
	}
	for _, h := range m.header {
		// Without a time (quarry import) the last learn's line stays.
		if !strings.HasPrefix(h, learnedPrefix) || now.IsZero() {
			w.line(0, "%s", h)
		}
	}
	if !now.IsZero() {
		w.line(0, "%s %s.", learnedPrefix, now.UTC().Format(time.DateOnly))
	}
	comments := func(indent int, path string) {
		for _, c := range m.comments[path] {
			w.line(indent, "%s", c)
		}
	}
	w.WriteString("\nentities:\n")
	for i, e := range m.Entities {
		if i > 0 {
			w.WriteByte('\n')
		}
		comments(2, fmt.Sprintf("entities[%d]", i))
		w.entity(e, m.dbTypes, 4, comments, func(j int) string { return fmt.Sprintf("entities[%d].columns[%d]", i, j) })
	}
	if len(m.Relationships) > 0 {
		w.WriteString("\nrelationships:\n")
		for i, r := range m.Relationships {
			comments(2, fmt.Sprintf("relationships[%d]", i))
			w.relationship(r, true)
		}
	}
	return w.Bytes()
}

// entity writes one entity with its fields at indent: an item of a list
// ("- name: …") when indent is above 0, the whole of an entity file
// otherwise. comments writes the comment lines of a path; colPath is the
// path of column j.
func (w *yamlWriter) entity(e semantic.Entity, dbTypes map[colKey]string, indent int, comments func(int, string), colPath func(int) string) {
	if indent > 0 {
		w.line(indent-2, "- name: %s", yamlnode.Quote(e.Name, false))
	} else {
		w.line(0, "name: %s", yamlnode.Quote(e.Name, false))
	}
	schema, table := writeTable(e)
	w.kv(indent, "schema", schema)
	w.kv(indent, "table", table)
	w.kv(indent, "description", e.Description)
	w.list(indent, "synonyms", e.Synonyms)
	w.kv(indent, "primary_key", e.PrimaryKey)
	w.kv(indent, "time_column", e.TimeColumn)
	w.kv(indent, "label", e.Label)
	if e.RowCount > 0 {
		w.line(indent, "row_count: %d", e.RowCount)
	}
	w.line(indent, "columns:")
	for j, c := range e.Columns {
		comments(indent+2, colPath(j))
		w.line(indent+2, "- name: %s", yamlnode.Quote(c.Name, false))
		if c.Type != "" && c.Type != quarry.TypeUnknown {
			w.kv(indent+4, "type", string(c.Type))
		}
		w.kv(indent+4, "db_type", dbTypes[lowerKey(e.Name, c.Name)])
		w.kv(indent+4, "description", c.Description)
		w.list(indent+4, "synonyms", c.Synonyms)
		w.kv(indent+4, "unit", c.Unit)
		w.list(indent+4, "values", c.Values)
		w.kv(indent+4, "time_role", c.TimeRole)
	}
}

// relationship writes one relationship as an item of a list; withFrom
// false leaves out from: (an entity file, where it is the file's entity).
func (w *yamlWriter) relationship(r semantic.Relationship, withFrom bool) {
	first := true
	kv := func(key, value string) {
		if value == "" {
			return
		}
		if first {
			w.line(2, "- %s: %s", key, yamlnode.Quote(value, false))
			first = false
			return
		}
		w.kv(4, key, value)
	}
	kv("name", r.Name)
	if withFrom {
		kv("from", r.From)
	}
	kv("from_column", r.FromColumn)
	kv("to", r.To)
	kv("to_column", r.ToColumn)
	kv("cardinality", string(r.Cardinality))
	if first {
		w.line(2, "- {}")
		return
	}
	w.list(4, "verbs", r.Verbs)
}

const metricsIntro = `# metrics.yaml: the business metrics and dimensions people ask about.
#
# A metric is an aggregate over one entity, written with entity.column
# (expr), with filters that always apply; or a formula over other metrics
# with their names in braces (derived). A dimension is a way to slice
# metrics; time dimensions list the grains they accept. People write this
# file; ` + "`quarry learn`" + ` only rewrites the candidates: section at the end.
# See docs/knowledge.md.
`

const metricsHeader = metricsIntro + `
metrics:
  # - name: revenue
  #   description: Net sales of completed orders.
  #   synonyms: [sales]
  #   entity: orders
  #   expr: SUM(orders.amount)
  #   filters: ["orders.status = 'completed'"]
  #   time: orders.ordered_at
  #   format: currency

dimensions:
  # - name: country
  #   entity: customers
  #   expr: customers.country
  #   type: category
  # - name: order_date
  #   entity: orders
  #   expr: orders.ordered_at
  #   type: time
  #   grains: [day, week, month, quarter, year]
`

const candidatesMarker = "# ---- candidates: rewritten by quarry learn on every run ----"

func renderCandidates(cands []semantic.Metric) []byte {
	var w yamlWriter
	w.line(0, "%s", candidatesMarker)
	w.line(0, "# Measures suggested from numeric columns. They are not metrics: to use")
	w.line(0, "# one, move it up into metrics: (and give it a better name).")
	if len(cands) == 0 {
		w.line(0, "%s: []", candidateKey)
		return w.Bytes()
	}
	w.line(0, "%s:", candidateKey)
	for _, c := range cands {
		w.metric(c)
	}
	return w.Bytes()
}

// metric writes one metric as an item of a list, its fields in the
// order metrics.yaml documents them; empty ones are left out.
func (w *yamlWriter) metric(m semantic.Metric) {
	w.line(2, "- name: %s", yamlnode.Quote(m.Name, false))
	w.kv(4, "description", m.Description)
	w.list(4, "synonyms", m.Synonyms)
	w.kv(4, "entity", m.Entity)
	w.kv(4, "expr", m.Expr)
	w.kv(4, "derived", m.Derived)
	w.list(4, "filters", m.Filters)
	w.kv(4, "time", m.Time)
	w.kv(4, "format", m.Format)
	w.kv(4, "unit", m.Unit)
	w.kv(4, "better", m.Better)
}

// renderMetrics returns metrics.yaml: a fresh file when there is none, or
// the existing one with only its trailing candidates: section replaced.
// Candidates already promoted to metrics (same name or expression) are
// left out. The warning is set when the section could not be replaced.
func renderMetrics(src []byte, doc *metricsDoc, cands []semantic.Metric) ([]byte, string) {
	var keep []semantic.Metric
	for _, c := range cands {
		promoted := false
		for _, m := range doc.Metrics {
			if strings.EqualFold(m.Name, c.Name) || normExpr(m.Expr) == normExpr(c.Expr) {
				promoted = true
				break
			}
		}
		if !promoted {
			keep = append(keep, c)
		}
	}
	section := renderCandidates(keep)
	if src == nil {
		return append([]byte(metricsHeader+"\n"), section...), ""
	}
	lines := strings.SplitAfter(string(src), "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, candidateKey+":") {
			at = i
			break
		}
	}
	if at < 0 {
		out := string(src)
		if !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		return append([]byte(out+"\n"), section...), ""
	}
	for _, l := range lines[at+1:] {
		if l != "" && l[0] != ' ' && l[0] != '\t' && l[0] != '#' && l[0] != '-' && strings.TrimSpace(l) != "" {
			return src, "metrics.yaml: candidates: is not the last section, so learn left it as it is; move it to the end of the file to let learn refresh it"
		}
	}
	start := at
	for j := at - 1; j >= 0; j-- {
		t := strings.TrimSpace(lines[j])
		if t == candidatesMarker {
			start = j
			break
		}
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
	}
	return append([]byte(strings.Join(lines[:start], "")), section...), ""
}

func normExpr(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), "")
}

// sensitiveWords mark columns that probably hold personal or secret data;
// learn suggests them (commented out) in a new policy.yaml.
var sensitiveWords = []string{"email", "e_mail", "phone", "mobile_number", "password", "passwd", "secret", "token", "ssn", "social_security", "salary", "wage", "iban", "card_number", "credit_card", "birth", "dob", "address", "tax_id", "passport"}

func renderPolicy(cat *quarry.Catalog, m *modelDoc) []byte {
	var w yamlWriter
	w.WriteString(`# policy.yaml: the column policy.
#
# A restricted column is never selected, shown, aggregated in a metric or
# sent to a language model, and is redacted from every result. List each as
# table.column with the reason. People write this file; ` + "`quarry learn`" + `
# writes it once and never changes it. See docs/knowledge.md.
`)
	var sugg []string
	for _, e := range m.Entities {
		for _, c := range e.Columns {
			n := strings.ToLower(c.Name)
			for _, s := range sensitiveWords {
				if strings.Contains(n, s) {
					sugg = append(sugg, e.Table+"."+c.Name)
					break
				}
			}
		}
	}
	if len(sugg) == 0 {
		w.WriteString("\nrestricted: []\n")
		return w.Bytes()
	}
	w.WriteString("#\n# learn found columns whose names suggest personal or secret data;\n# uncomment the ones to restrict and say why.\n\nrestricted:\n")
	for _, s := range sugg {
		w.line(2, "# - column: %s", s)
		w.line(2, "#   reason: personal data")
	}
	return w.Bytes()
}

const readmeText = `# Knowledge folder

This folder tells quarry what the database means. quarry reads it for every
question; people edit it, and ` + "`quarry learn`" + ` refreshes it from the
database without losing what people wrote.

| file | what it holds | who writes it |
|---|---|---|
| model.yaml | tables (entities), columns, known values, joins | ` + "`quarry learn`" + `, then people |
| entities/*.yaml | or: one table (entity) per file, with its joins | ` + "`quarry learn`" + `, then people |
| metrics.yaml | business metrics and dimensions | people (learn rewrites only ` + "`candidates:`" + `) |
| policy.yaml | restricted columns, with a reason each | people |
| examples/*.yaml | verified questions with their SQL | people |
| examples/_pending/ | suggested examples not yet checked | quarry; people approve them |
| monitors/*.yaml | monitors: what to watch, when, who to tell | people, ` + "`quarry watch add`" + ` |
| notes/*.md | free notes: definitions, caveats, history | people |

After editing, check the folder with ` + "`quarry doctor`" + `: every problem is
reported with its file and line. Run ` + "`quarry learn`" + ` again after the
database changes: it adds what is new and reports drift, that is metrics,
dimensions, relationships, policy rules and verified queries that refer to
tables or columns that no longer exist.
`

// renderMetricsFile renders metrics.yaml in a fixed layout: the header
// (learn's when there is none), the metrics and dimensions with the
// comment lines that stood above each, and the candidates section last.
func renderMetricsFile(header []string, comments map[string][]string, old *metricsDoc, ms []semantic.Metric, ds []semantic.Dimension) []byte {
	var w yamlWriter
	if len(header) == 0 {
		w.WriteString(metricsIntro)
	}
	for _, h := range header {
		w.line(0, "%s", h)
	}
	// Comments follow their item by name: the old index is not the new one.
	above := map[string][]string{}
	for i, m := range old.Metrics {
		above["metric "+strings.ToLower(m.Name)] = comments[fmt.Sprintf("metrics[%d]", i)]
	}
	for i, d := range old.Dimensions {
		above["dimension "+strings.ToLower(d.Name)] = comments[fmt.Sprintf("dimensions[%d]", i)]
	}
	if len(ms) == 0 {
		w.WriteString("\nmetrics: []\n")
	} else {
		w.WriteString("\nmetrics:\n")
	}
	for i, m := range ms {
		if i > 0 {
			w.WriteByte('\n')
		}
		for _, c := range above["metric "+strings.ToLower(m.Name)] {
			w.line(2, "%s", c)
		}
		w.metric(m)
	}
	if len(ds) == 0 {
		w.WriteString("\ndimensions: []\n")
	} else {
		w.WriteString("\ndimensions:\n")
	}
	for i, d := range ds {
		if i > 0 {
			w.WriteByte('\n')
		}
		for _, c := range above["dimension "+strings.ToLower(d.Name)] {
			w.line(2, "%s", c)
		}
		w.line(2, "- name: %s", yamlnode.Quote(d.Name, false))
		w.kv(4, "entity", d.Entity)
		w.kv(4, "expr", d.Expr)
		w.kv(4, "type", d.Type)
		if len(d.Grains) > 0 {
			gs := make([]string, len(d.Grains))
			for j, g := range d.Grains {
				gs[j] = string(g)
			}
			w.list(4, "grains", gs)
		}
		w.kv(4, "description", d.Description)
		w.list(4, "synonyms", d.Synonyms)
		w.list(4, "values", d.Values)
	}
	if len(old.Candidates) > 0 {
		w.WriteByte('\n')
		w.Write(renderCandidates(old.Candidates))
	}
	return w.Bytes()
}

// renderExamples renders a file of verified queries.
func renderExamples(qs []VerifiedQuery) []byte {
	var w yamlWriter
	for i, q := range qs {
		if i > 0 {
			w.WriteByte('\n')
		}
		w.line(0, "- question: %s", yamlnode.Quote(q.Question, false))
		if lines, ok := blockLines(q.SQL); ok {
			w.line(2, "sql: |")
			for _, l := range lines {
				if l == "" {
					w.WriteString("\n")
					continue
				}
				w.line(4, "%s", l)
			}
		} else {
			w.line(2, "sql: %s", strconv.Quote(q.SQL))
		}
		w.kv(2, "verified_by", q.VerifiedBy)
		w.kv(2, "verified_at", q.VerifiedAt)
		w.kv(2, "notes", q.Notes)
	}
	return w.Bytes()
}

// blockLines returns s's lines without their common indentation, for a
// YAML literal block; false when a block cannot hold s exactly enough
// (its first line would be indented more than the others).
func blockLines(s string) ([]string, bool) {
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n \t"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) == 0 {
		return nil, false
	}
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if strings.HasPrefix(l[n:], "\t") {
			return nil, false
		}
		if indent < 0 || n < indent {
			indent = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		out[i] = strings.TrimRight(l[indent:], " \t")
	}
	return out, !strings.HasPrefix(out[0], " ")
}
