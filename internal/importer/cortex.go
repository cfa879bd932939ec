package importer

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// The Snowflake Cortex Analyst semantic model.
type cortexDoc struct {
	Name            text            `yaml:"name"`
	Description     text            `yaml:"description"`
	Tables          []cortexTable   `yaml:"tables"`
	Relationships   []cortexRel     `yaml:"relationships"`
	Metrics         []cortexColumn  `yaml:"metrics"`
	VerifiedQueries []cortexQuery   `yaml:"verified_queries"`
	CustomInstr     text            `yaml:"custom_instructions"`
	ModuleInstr     map[string]text `yaml:"module_custom_instructions"`
}

type cortexTable struct {
	Name        text  `yaml:"name"`
	Description text  `yaml:"description"`
	Synonyms    texts `yaml:"synonyms"`
	BaseTable   struct {
		Database text `yaml:"database"`
		Schema   text `yaml:"schema"`
		Table    text `yaml:"table"`
	} `yaml:"base_table"`
	PrimaryKey struct {
		Columns texts `yaml:"columns"`
	} `yaml:"primary_key"`
	Dimensions     []cortexColumn `yaml:"dimensions"`
	TimeDimensions []cortexColumn `yaml:"time_dimensions"`
	Facts          []cortexColumn `yaml:"facts"`
	Measures       []cortexColumn `yaml:"measures"`
	Filters        []cortexColumn `yaml:"filters"`
	Metrics        []cortexColumn `yaml:"metrics"`
}

type cortexColumn struct {
	Name               text  `yaml:"name"`
	Synonyms           texts `yaml:"synonyms"`
	Description        text  `yaml:"description"`
	Expr               text  `yaml:"expr"`
	DataType           text  `yaml:"data_type"`
	Unique             bool  `yaml:"unique"`
	SampleValues       texts `yaml:"sample_values"`
	IsEnum             bool  `yaml:"is_enum"`
	DefaultAggregation text  `yaml:"default_aggregation"`
}

type cortexRel struct {
	Name                text `yaml:"name"`
	LeftTable           text `yaml:"left_table"`
	RightTable          text `yaml:"right_table"`
	RelationshipColumns []struct {
		LeftColumn  text `yaml:"left_column"`
		RightColumn text `yaml:"right_column"`
	} `yaml:"relationship_columns"`
	JoinType         text `yaml:"join_type"`
	RelationshipType text `yaml:"relationship_type"`
}

type cortexQuery struct {
	Name       text `yaml:"name"`
	Question   text `yaml:"question"`
	SQL        text `yaml:"sql"`
	VerifiedAt text `yaml:"verified_at"`
	VerifiedBy text `yaml:"verified_by"`
}

// cortexInfo is one logical table read.
type cortexInfo struct {
	t        *cortexTable
	entity   string
	logical  map[string]string // logical column name (lower) → quarry expression
	identity bool              // every logical column is the physical column of that name
}

type cortexImport struct {
	*builder
	tables map[string]*cortexInfo
}

func parseCortex(files []File) (*knowledge.Imported, error) {
	if len(files) != 1 {
		return nil, quarry.Errorf(quarry.KindUsage, "import one Cortex Analyst semantic model file at a time (found %d)", len(files))
	}
	var doc cortexDoc
	if err := decode(files[0], &doc); err != nil {
		return nil, err
	}
	if len(doc.Tables) == 0 {
		return nil, quarry.Errorf(quarry.KindUsage, "%s holds no tables to import", files[0].Name)
	}
	im := &cortexImport{builder: newBuilder(), tables: map[string]*cortexInfo{}}
	im.out.Name = "cortex-" + firstNonEmpty(string(doc.Name), "model")
	for i := range doc.Tables {
		im.table(&doc.Tables[i])
	}
	for i := range doc.Tables {
		if ti := im.tables[strings.ToLower(string(doc.Tables[i].Name))]; ti != nil {
			im.tableMetrics(ti)
		}
	}
	for _, r := range doc.Relationships {
		im.relationship(r)
	}
	for _, m := range doc.Metrics {
		im.skip("metric", string(m.Name), "model-level metrics (across tables) are not imported; define it per table or as a derived metric in metrics.yaml")
	}
	if doc.CustomInstr != "" || len(doc.ModuleInstr) > 0 {
		im.skip("custom instructions", string(doc.Name), "instructions to Cortex's model are not imported; copy what still applies into notes/")
	}
	for _, q := range doc.VerifiedQueries {
		im.query(string(doc.Name), q)
	}
	return im.out, nil
}

func (im *cortexImport) table(t *cortexTable) {
	name := string(t.Name)
	if name == "" || t.BaseTable.Table == "" {
		im.skip("table", firstNonEmpty(name, "?"), "needs a name and base_table.table")
		return
	}
	table := string(t.BaseTable.Table)
	switch s := strings.ToLower(string(t.BaseTable.Schema)); s {
	case "", "public", "main", "dbo":
	default:
		table = string(t.BaseTable.Schema) + "." + table
	}
	e := semantic.Entity{Name: name, Table: table, Description: string(t.Description), Synonyms: dedupe(t.Synonyms, name)}
	im.addEntity(e)
	ti := &cortexInfo{t: t, entity: name, logical: map[string]string{}, identity: true}
	im.tables[strings.ToLower(name)] = ti
	type group struct {
		cols []cortexColumn
		kind string
	}
	for _, g := range []group{{t.Dimensions, "dimension"}, {t.TimeDimensions, "time"}, {t.Facts, "fact"}, {t.Measures, "fact"}} {
		for _, c := range g.cols {
			im.column(ti, c, g.kind)
		}
	}
	if cols := t.PrimaryKey.Columns; len(cols) == 1 {
		if q := ti.logical[strings.ToLower(cols[0])]; plainQualified(q) {
			_, col, _ := strings.Cut(q, ".")
			im.ent(name).PrimaryKey = col
		} else {
			im.ent(name).PrimaryKey = cols[0]
			im.addColumn(name, semantic.Column{Name: cols[0]}, "")
		}
	} else if len(cols) > 1 {
		im.skip("primary key", name, "composite primary keys (%s) are not represented; %s has no primary key", strings.Join(cols, ", "), name)
	}
}

// column imports one logical column: a physical column (with the logical
// name as a synonym) when its expr is a column, a dimension otherwise.
func (im *cortexImport) column(ti *cortexInfo, c cortexColumn, kind string) {
	name := ti.entity
	ln := string(c.Name)
	expr := firstNonEmpty(string(c.Expr), ln)
	typ := typeOf(string(c.DataType))
	if kind == "time" && typ == "" {
		typ = quarry.TypeTimestamp
	}
	if !strings.EqualFold(expr, ln) {
		ti.identity = false
	}
	var values []string
	if kind == "dimension" {
		values = c.SampleValues
	}
	if plainColumn(expr) {
		im.addColumn(name, semantic.Column{Name: expr, Type: typ, Description: string(c.Description),
			Synonyms: append([]string{ln}, c.Synonyms...), Values: values}, string(c.DataType))
		ti.logical[strings.ToLower(ln)] = name + "." + expr
		if kind == "time" && im.ent(name).TimeColumn == "" {
			im.ent(name).TimeColumn = expr
		}
		return
	}
	q, err := im.expr(ti, expr)
	if err != nil {
		im.skip(kind, name+"."+ln, "its expr %s", err)
		return
	}
	ti.logical[strings.ToLower(ln)] = q
	if kind == "fact" {
		return // used by metrics through its name
	}
	x := semantic.Dimension{Name: im.freeName(ln, name), Entity: name, Expr: q, Type: "category",
		Description: string(c.Description), Synonyms: dedupe(c.Synonyms, ln), Values: values}
	if kind == "time" {
		x.Type, x.Grains = "time", grainsFrom("day")
	}
	im.out.Dimensions = append(im.out.Dimensions, x)
}

// expr translates an expression of a logical table: logical column names
// become their expressions, other names are physical columns.
func (im *cortexImport) expr(ti *cortexInfo, expr string) (string, error) {
	return rewrite(expr, rules{column: func(c string) (string, error) {
		if q, ok := ti.logical[strings.ToLower(c)]; ok {
			return paren(q), nil
		}
		im.addColumn(ti.entity, semantic.Column{Name: c}, "")
		return ti.entity + "." + c, nil
	}})
}

// tableMetrics imports a table's metrics, its facts' default
// aggregations and its named filters (as boolean dimensions).
func (im *cortexImport) tableMetrics(ti *cortexInfo) {
	name := ti.entity
	for _, f := range append(append([]cortexColumn(nil), ti.t.Facts...), ti.t.Measures...) {
		agg := strings.ToLower(string(f.DefaultAggregation))
		if agg == "" {
			continue
		}
		q := paren(ti.logical[strings.ToLower(string(f.Name))])
		if q == "()" {
			continue // skipped above
		}
		var e string
		switch agg {
		case "sum", "avg", "min", "max", "count":
			e = strings.ToUpper(agg) + "(" + q + ")"
		case "count_distinct":
			e = "COUNT(DISTINCT " + q + ")"
		default:
			im.skip("default aggregation", name+"."+string(f.Name), "%s has no SQL that works the same in every database quarry reads", agg)
			continue
		}
		im.addMetric(semantic.Metric{Name: string(f.Name), Description: string(f.Description), Synonyms: f.Synonyms, Entity: name, Expr: e}, name)
	}
	for _, m := range ti.t.Metrics {
		q, err := im.expr(ti, string(m.Expr))
		if err != nil {
			im.skip("metric", name+"."+string(m.Name), "its expr %s", err)
			continue
		}
		im.addMetric(semantic.Metric{Name: string(m.Name), Description: string(m.Description), Synonyms: m.Synonyms, Entity: name, Expr: q}, name)
	}
	for _, f := range ti.t.Filters {
		q, err := im.expr(ti, string(f.Expr))
		if err != nil {
			im.skip("filter", name+"."+string(f.Name), "its expr %s", err)
			continue
		}
		im.out.Dimensions = append(im.out.Dimensions, semantic.Dimension{Name: im.freeName(string(f.Name), name), Entity: name, Expr: q,
			Type: "boolean", Description: firstNonEmpty(string(f.Description), "Filter "+string(f.Name)+" of "+name+": true for the rows it keeps."),
			Synonyms: dedupe(f.Synonyms, string(f.Name))})
	}
}

func (im *cortexImport) addMetric(m semantic.Metric, entity string) {
	m.Name = im.freeName(m.Name, entity)
	m.Synonyms = dedupe(m.Synonyms, m.Name)
	im.out.Metrics = append(im.out.Metrics, m)
}

func (im *cortexImport) relationship(r cortexRel) {
	label := firstNonEmpty(string(r.Name), string(r.LeftTable)+" → "+string(r.RightTable))
	l, rt := im.tables[strings.ToLower(string(r.LeftTable))], im.tables[strings.ToLower(string(r.RightTable))]
	if l == nil || rt == nil {
		im.skip("relationship", label, "joins a table that is not imported")
		return
	}
	if len(r.RelationshipColumns) != 1 {
		im.skip("relationship", label, "joins on %d column pairs; quarry joins on one", len(r.RelationshipColumns))
		return
	}
	col := func(ti *cortexInfo, c string) (string, bool) {
		if q, ok := ti.logical[strings.ToLower(c)]; ok {
			if !plainQualified(q) {
				return "", false
			}
			_, p, _ := strings.Cut(q, ".")
			return p, true
		}
		if !plainColumn(c) {
			return "", false
		}
		im.addColumn(ti.entity, semantic.Column{Name: c}, "")
		return c, true
	}
	lc, ok1 := col(l, string(r.RelationshipColumns[0].LeftColumn))
	rc, ok2 := col(rt, string(r.RelationshipColumns[0].RightColumn))
	if !ok1 || !ok2 {
		im.skip("relationship", label, "joins on an expression, not a column")
		return
	}
	rel := semantic.Relationship{From: l.entity, FromColumn: lc, To: rt.entity, ToColumn: rc}
	switch strings.ToLower(string(r.RelationshipType)) {
	case "many_to_one", "":
		rel.Cardinality = semantic.ManyToOne
	case "one_to_one":
		rel.Cardinality = semantic.OneToOne
	default:
		im.skip("relationship", label, "relationship_type %q is not many_to_one or one_to_one", r.RelationshipType)
		return
	}
	if strings.EqualFold(string(r.JoinType), "inner") {
		im.warn("relationship %s: join_type inner is imported as quarry's left join; rows of %s without a match stay in totals", label, l.entity)
	}
	im.out.Relationships = append(im.out.Relationships, rel)
}

var logicalTable = lazyRE(`(^|[^A-Za-z0-9_$."])__([A-Za-z_][A-Za-z0-9_$]*)`)

// query imports a verified query. Its SQL names logical tables
// (__orders); they become the physical tables when every logical column
// of the table is the physical column of that name, so that the SQL reads
// the same; otherwise the query is skipped.
func (im *cortexImport) query(model string, q cortexQuery) {
	label := firstNonEmpty(string(q.Name), string(q.Question))
	if q.Question == "" || q.SQL == "" {
		im.skip("verified query", label, "needs a question and sql")
		return
	}
	var bad string
	sql := logicalTable().ReplaceAllStringFunc(string(q.SQL), func(s string) string {
		m := logicalTable().FindStringSubmatch(s)
		ti := im.tables[strings.ToLower(m[2])]
		if ti == nil {
			bad = fmt.Sprintf("its SQL reads __%s, which is not an imported table", m[2])
			return s
		}
		if !ti.identity {
			bad = fmt.Sprintf("its SQL reads the logical table __%s, whose column names differ from the physical ones; quarry runs SQL on the physical tables (rewrite it and add it under examples/)", m[2])
			return s
		}
		return m[1] + im.ent(ti.entity).Table
	})
	if bad != "" {
		im.skip("verified query", label, "%s", bad)
		return
	}
	vq := knowledge.VerifiedQuery{Question: string(q.Question), SQL: strings.TrimSpace(sql), VerifiedBy: string(q.VerifiedBy),
		Notes: fmt.Sprintf("Imported from the Cortex Analyst model %s (verified query %s).", model, label)}
	if q.VerifiedAt != "" {
		if secs, err := strconv.ParseInt(string(q.VerifiedAt), 10, 64); err == nil {
			vq.VerifiedAt = time.Unix(secs, 0).UTC().Format(time.DateOnly)
		} else if _, err := time.Parse(time.DateOnly, string(q.VerifiedAt)); err == nil {
			vq.VerifiedAt = string(q.VerifiedAt)
		}
	}
	if vq.VerifiedBy == "" || vq.VerifiedAt == "" {
		im.out.Pending = append(im.out.Pending, vq)
		im.warn("verified query %s: no verified_by or verified_at, so it goes to examples/_pending/ until a person checks it", label)
		return
	}
	im.out.Verified = append(im.out.Verified, vq)
}
