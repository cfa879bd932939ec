package knowledge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

// The files of a knowledge folder.
const (
	ModelFile    = "model.yaml"
	MetricsFile  = "metrics.yaml"
	PolicyFile   = "policy.yaml"
	ReadmeFile   = "README.md"
	ExamplesDir  = "examples"
	PendingDir   = "examples/_pending"
	NotesDir     = "notes"
	candidateKey = "candidates"
)

// modelDoc is model.yaml decoded.
type modelDoc struct {
	Entities      []semantic.Entity
	Relationships []semantic.Relationship
	// dbTypes holds each column's declared database type, keyed by
	// entity name and column name (lower case).
	dbTypes map[colKey]string
	// header is the file's leading comment block; comments are the comment
	// lines directly above an entity, a column or a relationship, keyed by
	// its path ("entities[2].columns[0]"). Learn writes both back.
	header   []string
	comments map[string][]string
	d        *decoder // model.yaml's
	// ents and rels say where each entity and relationship is written
	// (model.yaml or a file of entities/); files are the entity files
	// read, in name order; hasModel says model.yaml exists.
	ents     []place
	rels     []place
	files    []*entityFile
	hasModel bool
}

type colKey struct{ entity, column string }

func lowerKey(entity, column string) colKey {
	return colKey{strings.ToLower(entity), strings.ToLower(column)}
}

func decodeModel(src []byte) *modelDoc {
	d := newDecoder(ModelFile)
	m := &modelDoc{dbTypes: map[colKey]string{}, comments: map[string][]string{}, d: d}
	root := d.Parse(src)
	if root == nil {
		return m
	}
	defer m.collectComments(src)
	d.Mapping(root, "", "the model", []field{
		{"entities", func(v ast.Node, p string) {
			d.Seq(v, p, "entities", func(_ int, v ast.Node, p string) {
				m.Entities = append(m.Entities, decodeEntity(d, m, v, p))
				m.ents = append(m.ents, place{file: ModelFile, d: d, path: p})
			})
		}},
		{"relationships", func(v ast.Node, p string) {
			d.Seq(v, p, "relationships", func(_ int, v ast.Node, p string) {
				m.Relationships = append(m.Relationships, decodeRelationship(d, v, p))
				m.rels = append(m.rels, place{file: ModelFile, d: d, path: p})
			})
		}},
	})
	return m
}

func decodeEntity(d *decoder, m *modelDoc, v ast.Node, p string) semantic.Entity {
	var e semantic.Entity
	dbTypes := map[string]string{}
	d.Mapping(v, p, "an entity", entityFields(d, &e, dbTypes))
	e.Schema, e.Table = readTable(e.Schema, e.Table)
	for c, t := range dbTypes {
		m.dbTypes[lowerKey(e.Name, c)] = t
	}
	return e
}

// entityFields are the fields of an entity, decoded into e; each
// column's db_type goes into dbTypes by column name.
func entityFields(d *decoder, e *semantic.Entity, dbTypes map[string]string) []field {
	return []field{
		{"name", func(v ast.Node, p string) { e.Name = d.Str(v, p) }},
		{"schema", func(v ast.Node, p string) { e.Schema = d.Str(v, p) }},
		{"table", func(v ast.Node, p string) { e.Table = d.Str(v, p) }},
		{"description", func(v ast.Node, p string) { e.Description = d.Str(v, p) }},
		{"synonyms", func(v ast.Node, p string) { e.Synonyms = d.Strs(v, p) }},
		{"primary_key", func(v ast.Node, p string) { e.PrimaryKey = d.Str(v, p) }},
		{"time_column", func(v ast.Node, p string) { e.TimeColumn = d.Str(v, p) }},
		{"label", func(v ast.Node, p string) { e.Label = d.Str(v, p) }},
		{"row_count", func(v ast.Node, p string) { e.RowCount = d.Integer(v, p) }},
		{"columns", func(v ast.Node, p string) {
			d.Seq(v, p, "columns", func(_ int, v ast.Node, p string) {
				var c semantic.Column
				var dbType string
				d.Mapping(v, p, "a column", []field{
					{"name", func(v ast.Node, p string) { c.Name = d.Str(v, p) }},
					{"type", func(v ast.Node, p string) { c.Type = quarry.Type(d.Str(v, p)) }},
					{"db_type", func(v ast.Node, p string) { dbType = d.Str(v, p) }},
					{"description", func(v ast.Node, p string) { c.Description = d.Str(v, p) }},
					{"synonyms", func(v ast.Node, p string) { c.Synonyms = d.Strs(v, p) }},
					{"unit", func(v ast.Node, p string) { c.Unit = d.Str(v, p) }},
					{"values", func(v ast.Node, p string) { c.Values = d.Strs(v, p) }},
					{"time_role", func(v ast.Node, p string) { c.TimeRole = d.Str(v, p) }},
				})
				e.Columns = append(e.Columns, c)
				if dbType != "" {
					dbTypes[c.Name] = dbType
				}
			})
		}},
	}
}

// metricsDoc is metrics.yaml decoded.
type metricsDoc struct {
	Metrics    []semantic.Metric
	Dimensions []semantic.Dimension
	Candidates []semantic.Metric
	d          *decoder
}

func decodeMetrics(src []byte) *metricsDoc {
	d := newDecoder(MetricsFile)
	m := &metricsDoc{d: d}
	root := d.Parse(src)
	if root == nil {
		return m
	}
	metricList := func(dst *[]semantic.Metric) func(ast.Node, string) {
		return func(v ast.Node, p string) {
			d.Seq(v, p, "metrics", func(_ int, v ast.Node, p string) {
				*dst = append(*dst, decodeMetric(d, v, p))
			})
		}
	}
	d.Mapping(root, "", "metrics and dimensions", []field{
		{"metrics", metricList(&m.Metrics)},
		{"dimensions", func(v ast.Node, p string) {
			d.Seq(v, p, "dimensions", func(_ int, v ast.Node, p string) {
				var x semantic.Dimension
				d.Mapping(v, p, "a dimension", []field{
					{"name", func(v ast.Node, p string) { x.Name = d.Str(v, p) }},
					{"entity", func(v ast.Node, p string) { x.Entity = d.Str(v, p) }},
					{"expr", func(v ast.Node, p string) { x.Expr = d.Str(v, p) }},
					{"type", func(v ast.Node, p string) { x.Type = d.Str(v, p) }},
					{"grains", func(v ast.Node, p string) {
						for _, g := range d.Strs(v, p) {
							x.Grains = append(x.Grains, semantic.Grain(g))
						}
					}},
					{"description", func(v ast.Node, p string) { x.Description = d.Str(v, p) }},
					{"synonyms", func(v ast.Node, p string) { x.Synonyms = d.Strs(v, p) }},
					{"values", func(v ast.Node, p string) { x.Values = d.Strs(v, p) }},
				})
				m.Dimensions = append(m.Dimensions, x)
			})
		}},
		{candidateKey, metricList(&m.Candidates)},
	})
	return m
}

func decodeMetric(d *decoder, v ast.Node, p string) semantic.Metric {
	var x semantic.Metric
	d.Mapping(v, p, "a metric", []field{
		{"name", func(v ast.Node, p string) { x.Name = d.Str(v, p) }},
		{"description", func(v ast.Node, p string) { x.Description = d.Str(v, p) }},
		{"synonyms", func(v ast.Node, p string) { x.Synonyms = d.Strs(v, p) }},
		{"entity", func(v ast.Node, p string) { x.Entity = d.Str(v, p) }},
		{"expr", func(v ast.Node, p string) { x.Expr = d.Str(v, p) }},
		{"derived", func(v ast.Node, p string) { x.Derived = d.Str(v, p) }},
		{"filters", func(v ast.Node, p string) { x.Filters = d.Strs(v, p) }},
		{"time", func(v ast.Node, p string) { x.Time = d.Str(v, p) }},
		{"format", func(v ast.Node, p string) { x.Format = d.Str(v, p) }},
		{"unit", func(v ast.Node, p string) { x.Unit = d.Str(v, p) }},
		{"better", func(v ast.Node, p string) { x.Better = d.Str(v, p) }},
	})
	return x
}

// PolicyRule is one restricted column of policy.yaml.
type PolicyRule struct {
	Column string `json:"column"` // "table.column"
	Reason string `json:"reason"`
	File   string `json:"file"`
	Line   int    `json:"line"`
}

// PolicyGroup is what policy.yaml's groups: says of one group of people
// (docs/auth.md): the columns restricted for its members on top of the
// project's, and the connections they may use (empty: all).
type PolicyGroup struct {
	Name        string       `json:"name"`
	Restricted  []PolicyRule `json:"restricted,omitempty"`
	Connections []string     `json:"connections,omitempty"`
	Line        int          `json:"line"`
}

// policyDoc is policy.yaml decoded.
type policyDoc struct {
	rules  []PolicyRule
	groups []PolicyGroup
}

func decodePolicy(src []byte) (policyDoc, *decoder) {
	d := newDecoder(PolicyFile)
	var doc policyDoc
	root := d.Parse(src)
	if root == nil {
		return doc, d
	}
	rules := func(v ast.Node, p string) []PolicyRule {
		var out []PolicyRule
		d.Seq(v, p, "restricted columns", func(_ int, v ast.Node, p string) {
			r := PolicyRule{File: PolicyFile, Line: yamlnode.Line(v)}
			if d.Mapping(v, p, "a restricted column (column: table.column, reason: why)", []field{
				{"column", func(v ast.Node, p string) { r.Column = d.Str(v, p) }},
				{"reason", func(v ast.Node, p string) { r.Reason = d.Str(v, p) }},
			}) {
				out = append(out, r)
			}
		})
		return out
	}
	d.Mapping(root, "", "the policy", []field{
		{"restricted", func(v ast.Node, p string) { doc.rules = rules(v, p) }},
		{"groups", func(v ast.Node, p string) {
			d.entries(v, p, "groups", func(name string, v ast.Node, p string) {
				g := PolicyGroup{Name: name, Line: yamlnode.Line(v)}
				if !quarry.PersonName(name) {
					d.Errf(yamlnode.Line(v), p, "group name %q: use letters, digits and . _ @ - only", name)
				}
				d.Mapping(v, p, "a group (restricted: […], connections: […])", []field{
					{"restricted", func(v ast.Node, p string) { g.Restricted = rules(v, p) }},
					{"connections", func(v ast.Node, p string) { g.Connections = d.Strs(v, p) }},
				})
				doc.groups = append(doc.groups, g)
			})
		}},
	})
	return doc, d
}

// VerifiedQuery is a question with SQL a person has checked.
type VerifiedQuery struct {
	Question   string `json:"question"`
	SQL        string `json:"sql"`
	VerifiedBy string `json:"verified_by"`
	VerifiedAt string `json:"verified_at"` // YYYY-MM-DD
	Notes      string `json:"notes,omitempty"`
	File       string `json:"file"` // relative to the folder, e.g. "examples/verified.yaml"
	Line       int    `json:"line"`
}

func decodeExamples(file string, src []byte) ([]VerifiedQuery, *decoder) {
	d := newDecoder(file)
	var out []VerifiedQuery
	root := d.Parse(src)
	if root == nil {
		return nil, d
	}
	d.Seq(root, "", "verified queries", func(_ int, v ast.Node, p string) {
		q := VerifiedQuery{File: file, Line: yamlnode.Line(v)}
		d.Mapping(v, p, "a verified query", []field{
			{"question", func(v ast.Node, p string) { q.Question = d.Str(v, p) }},
			{"sql", func(v ast.Node, p string) { q.SQL = d.Str(v, p) }},
			{"verified_by", func(v ast.Node, p string) { q.VerifiedBy = d.Str(v, p) }},
			{"verified_at", func(v ast.Node, p string) { q.VerifiedAt = d.Str(v, p) }},
			{"notes", func(v ast.Node, p string) { q.Notes = d.Str(v, p) }},
		})
		out = append(out, q)
	})
	return out, d
}

// collectComments records the header and the comments above each item.
func (m *modelDoc) collectComments(src []byte) {
	var paths []string
	for i, e := range m.Entities {
		p := fmt.Sprintf("entities[%d]", i)
		paths = append(paths, p)
		for j := range e.Columns {
			paths = append(paths, fmt.Sprintf("%s.columns[%d]", p, j))
		}
	}
	for i := range m.Relationships {
		paths = append(paths, fmt.Sprintf("relationships[%d]", i))
	}
	m.header, m.comments = fileComments(src, m.d, paths)
}

// fileComments returns a file's leading comment block and the comment
// lines directly above each of the items at paths (as the decoder
// recorded their lines), keyed by path.
func fileComments(src []byte, d *decoder, paths []string) ([]string, map[string][]string) {
	lines := strings.Split(string(yamlnode.Normalize(src)), "\n")
	isComment := func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "#") }
	var header []string
	for _, l := range lines {
		if !isComment(l) {
			break
		}
		header = append(header, strings.TrimSpace(l))
	}
	comments := map[string][]string{}
	for _, path := range paths {
		l := d.Lines[path]
		if l <= len(header)+1 {
			continue
		}
		var c []string
		for i := l - 2; i >= 0 && i < len(lines) && isComment(lines[i]); i-- {
			c = append([]string{strings.TrimSpace(lines[i])}, c...)
		}
		if len(c) > 0 {
			comments[path] = c
		}
	}
	return header, comments
}

// LoadPolicy reads only the folder's policy.yaml and returns its restricted
// columns as written ("table.column" or "entity.column") and its groups;
// none when the file or the folder is absent. It serves a folder whose model.yaml does
// not exist yet (before the first learn), where Load fails.
func LoadPolicy(dir string) ([]string, []PolicyGroup, error) {
	src, err := os.ReadFile(filepath.Join(dir, PolicyFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, quarry.Wrap(quarry.KindConfig, err, "cannot read %s", filepath.Join(dir, PolicyFile))
	}
	doc, d := decodePolicy(src)
	if len(d.Problems) > 0 {
		return nil, nil, &quarry.Error{Kind: quarry.KindConfig, Msg: d.Problems[0].Format(dir), Err: Problems(d.Problems)}
	}
	out := make([]string, 0, len(doc.rules))
	for _, r := range doc.rules {
		out = append(out, r.Column)
	}
	return out, doc.groups, nil
}
