package importer

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Cube's data model in YAML: cubes: (and views:, which are not imported).
type cubeDoc struct {
	Cubes []cubeCube `yaml:"cubes"`
	Views []struct {
		Name text `yaml:"name"`
	} `yaml:"views"`
}

type cubeCube struct {
	Name            text         `yaml:"name"`
	SQLTable        text         `yaml:"sql_table"`
	SQL             text         `yaml:"sql"`
	Title           text         `yaml:"title"`
	Description     text         `yaml:"description"`
	Extends         text         `yaml:"extends"`
	Joins           []cubeJoin   `yaml:"joins"`
	Dimensions      []cubeMember `yaml:"dimensions"`
	Measures        []cubeMember `yaml:"measures"`
	Segments        []cubeMember `yaml:"segments"`
	PreAggregations []any        `yaml:"pre_aggregations"`
}

type cubeJoin struct {
	Name         text `yaml:"name"`
	SQL          text `yaml:"sql"`
	Relationship text `yaml:"relationship"`
}

type cubeMember struct {
	Name          text `yaml:"name"`
	SQL           text `yaml:"sql"`
	Type          text `yaml:"type"`
	Title         text `yaml:"title"`
	Description   text `yaml:"description"`
	PrimaryKey    bool `yaml:"primary_key"`
	SubQuery      bool `yaml:"sub_query"`
	Case          any  `yaml:"case"`
	RollingWindow any  `yaml:"rolling_window"`
	Filters       []struct {
		SQL text `yaml:"sql"`
	} `yaml:"filters"`
}

type cubeImport struct {
	*builder
	cubes   map[string]*cubeCube // by name (lower), the cubes imported
	metric  map[string]string    // "cube.measure" (lower) → quarry metric name, "" when skipped
	skipped map[string]string    // "cube.measure" (lower) → why
}

var selectStar = lazyRE(`(?is)^\s*select\s+\*\s+from\s+([A-Za-z_][A-Za-z0-9_.]*)\s*$`)

func parseCube(files []File) (*knowledge.Imported, error) {
	var doc cubeDoc
	for _, f := range files {
		var d cubeDoc
		if err := decode(f, &d); err != nil {
			return nil, err
		}
		doc.Cubes = append(doc.Cubes, d.Cubes...)
		doc.Views = append(doc.Views, d.Views...)
	}
	if len(doc.Cubes) == 0 {
		return nil, quarry.Errorf(quarry.KindUsage, "the Cube model holds no cubes to import (views alone select from cubes defined elsewhere)")
	}
	im := &cubeImport{builder: newBuilder(), cubes: map[string]*cubeCube{}, metric: map[string]string{}, skipped: map[string]string{}}
	im.out.Name = "cube"
	for i := range doc.Cubes {
		im.cube(&doc.Cubes[i])
	}
	for _, v := range doc.Views {
		im.skip("view", string(v.Name), "views regroup members of cubes; the cubes they select from are what quarry imports")
	}
	for i := range doc.Cubes {
		if c := &doc.Cubes[i]; im.cubes[strings.ToLower(string(c.Name))] == c {
			im.members(c)
		}
	}
	for i := range doc.Cubes {
		if c := &doc.Cubes[i]; im.cubes[strings.ToLower(string(c.Name))] == c {
			im.joins(c)
			im.measures(c)
		}
	}
	return im.out, nil
}

func (im *cubeImport) cube(c *cubeCube) {
	name := string(c.Name)
	if name == "" {
		im.skip("cube", "?", "has no name")
		return
	}
	table := string(c.SQLTable)
	if table == "" {
		if m := selectStar().FindStringSubmatch(string(c.SQL)); m != nil {
			table = m[1]
		}
	}
	switch {
	case c.Extends != "":
		im.skip("cube", name, "extends %s; quarry has no inheritance between entities (import the cube it extends, or write this one out)", c.Extends)
		return
	case table == "" && c.SQL != "":
		im.skip("cube", name, "is defined by a SQL query (sql:), not a table; quarry entities are tables or views (create a view for it)")
		return
	case table == "":
		im.skip("cube", name, "has neither sql_table nor sql")
		return
	case strings.ContainsAny(table, "{}$"):
		im.skip("cube", name, "its sql_table %q is a template", table)
		return
	}
	if s, t, ok := strings.Cut(table, "."); ok && !strings.Contains(t, ".") {
		switch strings.ToLower(s) {
		case "public", "main", "dbo":
			table = t
		}
	}
	e := semantic.Entity{Name: name, Table: table, Description: string(c.Description)}
	if c.Title != "" {
		e.Synonyms = dedupe([]string{string(c.Title)}, name)
	}
	im.addEntity(e)
	im.cubes[strings.ToLower(name)] = c
	if len(c.PreAggregations) > 0 {
		im.skip("pre-aggregations", name, "pre-aggregations are a cache, not meaning; quarry reads the tables")
	}
}

func (im *cubeImport) member(list []cubeMember, name string) *cubeMember {
	for i := range list {
		if strings.EqualFold(string(list[i].Name), name) {
			return &list[i]
		}
	}
	return nil
}

// sql translates a Cube SQL snippet of cube c. measures says how a
// {measure} reference reads (nil: not allowed).
func (im *cubeImport) sql(c *cubeCube, expr string, depth int, measures func(cube, name string) (string, error)) (string, error) {
	if depth > 8 {
		return "", fmt.Errorf("its members refer to each other in a loop")
	}
	self := string(c.Name)
	colOf := func(cube, col string) string {
		im.addColumn(cube, semantic.Column{Name: col}, "")
		return cube + "." + col
	}
	return rewrite(expr, rules{
		column: func(name string) (string, error) { return colOf(self, name), nil },
		brace: func(inner, col string) (string, error) {
			cube, member, dotted := strings.Cut(inner, ".")
			if strings.EqualFold(cube, "CUBE") || strings.EqualFold(cube, "TABLE") {
				cube = self
			}
			if col != "" {
				if dotted {
					return "", fmt.Errorf("cannot read {%s}.%s", inner, col)
				}
				if o := im.cubes[strings.ToLower(cube)]; o != nil {
					return colOf(string(o.Name), col), nil
				}
				return "", fmt.Errorf("refers to {%s}, which is not an imported cube", inner)
			}
			if !dotted {
				cube, member = self, inner
			}
			o := im.cubes[strings.ToLower(cube)]
			if o == nil {
				return "", fmt.Errorf("refers to {%s}, which is not an imported cube", inner)
			}
			if d := im.member(o.Dimensions, member); d != nil {
				s, err := im.sql(o, dimSQL(d), depth+1, nil)
				if err != nil {
					return "", err
				}
				return paren(s), nil
			}
			if im.member(o.Measures, member) != nil && measures != nil {
				return measures(string(o.Name), member)
			}
			return "", fmt.Errorf("refers to {%s}, which is no dimension of %s", inner, o.Name)
		},
	})
}

func dimSQL(d *cubeMember) string {
	if d.SQL == "" {
		return string(d.Name)
	}
	return string(d.SQL)
}

// members imports a cube's dimensions (columns, or dimensions when
// computed) and segments (boolean dimensions).
func (im *cubeImport) members(c *cubeCube) {
	name := string(c.Name)
	for i := range c.Dimensions {
		d := &c.Dimensions[i]
		dn := string(d.Name)
		if d.Case != nil || d.SubQuery {
			im.skip("dimension", name+"."+dn, "case: and sub_query: dimensions are not imported; write them as SQL in a dimension")
			continue
		}
		q, err := im.sql(c, dimSQL(d), 0, nil)
		if err != nil {
			im.skip("dimension", name+"."+dn, "its sql %s", err)
			continue
		}
		typ := cubeType(string(d.Type))
		if ent, col, ok := strings.Cut(q, "."); ok && strings.EqualFold(ent, name) && plainColumn(col) {
			im.addColumn(name, semantic.Column{Name: col, Type: typ, Description: string(d.Description),
				Synonyms: []string{dn, string(d.Title)}}, "")
			e := im.ent(name)
			if d.PrimaryKey && e.PrimaryKey == "" {
				e.PrimaryKey = col
			}
			if typ == quarry.TypeTimestamp && e.TimeColumn == "" {
				e.TimeColumn = col
			}
			continue
		}
		if d.PrimaryKey {
			im.warn("cube %s: its primary key %s is an expression, not a column; %s has no primary key", name, dn, name)
		}
		x := semantic.Dimension{Name: im.freeName(dn, name), Entity: name, Expr: q, Type: "category", Description: string(d.Description)}
		switch typ {
		case quarry.TypeTimestamp:
			x.Type, x.Grains = "time", grainsFrom("day")
		case quarry.TypeDecimal:
			x.Type = "number"
		case quarry.TypeBool:
			x.Type = "boolean"
		}
		if d.Title != "" {
			x.Synonyms = dedupe([]string{string(d.Title)}, x.Name)
		}
		im.out.Dimensions = append(im.out.Dimensions, x)
	}
	for _, s := range c.Segments {
		q, err := im.sql(c, string(s.SQL), 0, nil)
		if err != nil {
			im.skip("segment", name+"."+string(s.Name), "its sql %s", err)
			continue
		}
		x := semantic.Dimension{Name: im.freeName(string(s.Name), name), Entity: name, Expr: q, Type: "boolean",
			Description: firstNonEmpty(string(s.Description), "Segment "+string(s.Name)+" of "+name+": true for the rows it keeps.")}
		im.out.Dimensions = append(im.out.Dimensions, x)
	}
}

func cubeType(t string) quarry.Type {
	switch strings.ToLower(t) {
	case "string":
		return quarry.TypeText
	case "number":
		return quarry.TypeDecimal
	case "time":
		return quarry.TypeTimestamp
	case "boolean":
		return quarry.TypeBool
	}
	return ""
}

var equiJoin = lazyRE(`^\(?\s*([A-Za-z_][A-Za-z0-9_$]*)\.([A-Za-z_][A-Za-z0-9_$]*)\s*=\s*([A-Za-z_][A-Za-z0-9_$]*)\.([A-Za-z_][A-Za-z0-9_$]*)\s*\)?$`)

func (im *cubeImport) joins(c *cubeCube) {
	name := string(c.Name)
	for _, j := range c.Joins {
		label := name + " → " + string(j.Name)
		target := im.cubes[strings.ToLower(string(j.Name))]
		if target == nil {
			im.skip("join", label, "%s is not an imported cube", j.Name)
			continue
		}
		q, err := im.sql(c, string(j.SQL), 0, nil)
		if err != nil {
			im.skip("join", label, "its sql %s", err)
			continue
		}
		m := equiJoin().FindStringSubmatch(q)
		if m == nil {
			im.skip("join", label, "its sql %q is not one column equal to another; quarry joins on one column pair", string(j.SQL))
			continue
		}
		a, ac, b, bc := m[1], m[2], m[3], m[4]
		if strings.EqualFold(a, string(target.Name)) {
			a, ac, b, bc = b, bc, a, ac
		}
		if !strings.EqualFold(a, name) || !strings.EqualFold(b, string(target.Name)) {
			im.skip("join", label, "its sql does not compare a column of %s with one of %s", name, target.Name)
			continue
		}
		r := semantic.Relationship{From: name, FromColumn: ac, To: string(target.Name), ToColumn: bc}
		switch strings.ToLower(strings.ReplaceAll(string(j.Relationship), "_", "")) {
		case "manytoone", "belongsto":
			r.Cardinality = semantic.ManyToOne
		case "onetomany", "hasmany":
			r = semantic.Relationship{From: r.To, FromColumn: r.ToColumn, To: r.From, ToColumn: r.FromColumn, Cardinality: semantic.ManyToOne}
		case "onetoone", "hasone":
			r.Cardinality = semantic.OneToOne
		default:
			im.skip("join", label, "unknown relationship %q; use many_to_one, one_to_many or one_to_one", j.Relationship)
			continue
		}
		dup := false
		for _, o := range im.out.Relationships {
			if strings.EqualFold(o.From, r.From) && strings.EqualFold(o.FromColumn, r.FromColumn) && strings.EqualFold(o.To, r.To) {
				dup = true
			}
		}
		if !dup {
			im.out.Relationships = append(im.out.Relationships, r)
		}
	}
}

// measures imports a cube's measures: aggregates first, then the number
// measures that combine other measures.
func (im *cubeImport) measures(c *cubeCube) {
	for pass := 0; pass < 2; pass++ {
		for i := range c.Measures {
			ms := &c.Measures[i]
			isNumber := strings.EqualFold(string(ms.Type), "number")
			if (pass == 1) != isNumber {
				continue
			}
			im.measure(c, ms)
		}
	}
}

func (im *cubeImport) measureName(c *cubeCube, ms *cubeMember) string {
	n := string(ms.Name)
	switch strings.ToLower(n) {
	case "count", "total", "sum", "avg", "average", "min", "max":
		n = string(c.Name) + "_" + n
	}
	return n
}

func (im *cubeImport) measure(c *cubeCube, ms *cubeMember) {
	name := string(c.Name)
	key := strings.ToLower(name + "." + string(ms.Name))
	label := name + "." + string(ms.Name)
	fail := func(format string, args ...any) {
		why := fmt.Sprintf(format, args...)
		im.skipped[key] = why
		im.skip("measure", label, "%s", why)
	}
	if ms.RollingWindow != nil {
		fail("rolling_window measures (running totals) have no quarry equivalent")
		return
	}
	refs := false
	inner := ""
	if ms.SQL != "" {
		q, err := im.sql(c, string(ms.SQL), 0, func(cube, m string) (string, error) {
			refs = true
			k := strings.ToLower(cube + "." + m)
			if why, ok := im.skipped[k]; ok {
				return "", fmt.Errorf("uses measure %s.%s, which is skipped (%s)", cube, m, why)
			}
			n, ok := im.metric[k]
			if !ok {
				return "", fmt.Errorf("uses measure %s.%s, which is not imported yet (number measures over number measures are not supported)", cube, m)
			}
			return "{" + n + "}", nil
		})
		if err != nil {
			fail("its sql %s", err)
			return
		}
		inner = q
	}
	m := semantic.Metric{Description: string(ms.Description), Entity: name}
	if ms.Title != "" {
		m.Synonyms = []string{string(ms.Title)}
	}
	pk := im.ent(name).PrimaryKey
	switch t := strings.ToLower(string(ms.Type)); t {
	case "count":
		switch {
		case inner != "":
			m.Expr = "COUNT(" + inner + ")"
		case pk != "":
			m.Expr = "COUNT(" + name + "." + pk + ")"
		default:
			m.Expr = "COUNT(*)"
		}
	case "count_distinct", "count_distinct_approx":
		if inner == "" {
			fail("%s needs sql", t)
			return
		}
		m.Expr = "COUNT(DISTINCT " + inner + ")"
		if t == "count_distinct_approx" {
			im.warn("measure %s: count_distinct_approx is imported as an exact COUNT(DISTINCT …)", label)
		}
	case "sum", "avg", "min", "max":
		if inner == "" {
			fail("%s needs sql", t)
			return
		}
		m.Expr = strings.ToUpper(t) + "(" + inner + ")"
	case "number":
		switch {
		case inner == "":
			fail("a number measure needs sql")
			return
		case refs && strings.Contains(inner, "."):
			fail("its sql mixes measures and columns; quarry's derived metrics combine metrics only")
			return
		case refs:
			m.Derived, m.Entity = inner, ""
		default:
			m.Expr = inner
		}
	case "running_total":
		fail("running_total measures have no quarry equivalent")
		return
	default:
		fail("type %q is not an aggregate quarry can import (count, count_distinct, sum, avg, min, max, number)", ms.Type)
		return
	}
	for _, f := range ms.Filters {
		q, err := im.sql(c, string(f.SQL), 0, nil)
		if err != nil {
			fail("its filter %s", err)
			return
		}
		m.Filters = append(m.Filters, q)
	}
	if len(m.Filters) > 0 && m.Derived != "" {
		fail("filters on a number measure over other measures are not supported")
		return
	}
	m.Name = im.freeName(im.measureName(c, ms), name)
	m.Synonyms = dedupe(m.Synonyms, m.Name)
	im.metric[key] = m.Name
	im.out.Metrics = append(im.out.Metrics, m)
}
