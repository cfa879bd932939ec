package importer

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// The dbt MetricFlow YAML spec: semantic_models: and metrics:.
type dbtDoc struct {
	SemanticModels []dbtModel  `yaml:"semantic_models"`
	Metrics        []dbtMetric `yaml:"metrics"`
}

type dbtModel struct {
	Name        text `yaml:"name"`
	Description text `yaml:"description"`
	Label       text `yaml:"label"`
	Model       text `yaml:"model"`
	Defaults    struct {
		AggTimeDimension text `yaml:"agg_time_dimension"`
	} `yaml:"defaults"`
	Entities   []dbtEntity    `yaml:"entities"`
	Dimensions []dbtDimension `yaml:"dimensions"`
	Measures   []dbtMeasure   `yaml:"measures"`
}

type dbtEntity struct {
	Name        text `yaml:"name"`
	Type        text `yaml:"type"`
	Expr        text `yaml:"expr"`
	Description text `yaml:"description"`
}

type dbtDimension struct {
	Name        text `yaml:"name"`
	Type        text `yaml:"type"`
	Expr        text `yaml:"expr"`
	Description text `yaml:"description"`
	Label       text `yaml:"label"`
	TypeParams  struct {
		TimeGranularity text `yaml:"time_granularity"`
	} `yaml:"type_params"`
}

type dbtMeasure struct {
	Name                 text `yaml:"name"`
	Agg                  text `yaml:"agg"`
	Expr                 text `yaml:"expr"`
	Description          text `yaml:"description"`
	Label                text `yaml:"label"`
	AggTimeDimension     text `yaml:"agg_time_dimension"`
	NonAdditiveDimension any  `yaml:"non_additive_dimension"`
	CreateMetric         bool `yaml:"create_metric"`
}

type dbtMetric struct {
	Name        text `yaml:"name"`
	Description text `yaml:"description"`
	Label       text `yaml:"label"`
	Type        text `yaml:"type"`
	Filter      any  `yaml:"filter"`
	TypeParams  struct {
		Measure     any   `yaml:"measure"`
		Numerator   any   `yaml:"numerator"`
		Denominator any   `yaml:"denominator"`
		Expr        text  `yaml:"expr"`
		Metrics     []any `yaml:"metrics"`
	} `yaml:"type_params"`
}

// dbtModelInfo is a semantic model read: its entity and how its
// dimensions read in quarry's form.
type dbtModelInfo struct {
	m      *dbtModel
	entity string
	dims   map[string]string // dimension name (lower) → quarry expression
	times  map[string]bool   // time dimension names (lower)
}

type dbtImport struct {
	*builder
	models   []*dbtModelInfo
	byEntity map[string]*dbtModelInfo // dbt entity name (lower) → the model where it is primary (or unique)
	measures map[string]*semantic.Metric
	metrics  map[string]*dbtMetric
	done     map[string]string // metric name (lower) → quarry metric name, "" when skipped
	busy     map[string]bool
	errs     map[string]string // measure name (lower) → why it was skipped
}

var refRe = lazyRE(`^\s*(?:ref|source)\(\s*(.*?)\s*\)\s*$`)

// dbtTable reads model: ref('orders') (or source('raw', 'orders')).
func dbtTable(model string) string {
	m := refRe().FindStringSubmatch(model)
	if m == nil {
		return strings.TrimSpace(model)
	}
	parts := strings.Split(m[1], ",")
	last := strings.Trim(strings.TrimSpace(parts[len(parts)-1]), `'"`)
	return last
}

func parseDBT(files []File) (*knowledge.Imported, error) {
	var doc dbtDoc
	names := make([]string, 0, len(files))
	for _, f := range files {
		var d dbtDoc
		if err := decode(f, &d); err != nil {
			return nil, err
		}
		doc.SemanticModels = append(doc.SemanticModels, d.SemanticModels...)
		doc.Metrics = append(doc.Metrics, d.Metrics...)
		names = append(names, f.Name)
	}
	if len(doc.SemanticModels) == 0 && len(doc.Metrics) == 0 {
		return nil, quarry.Errorf(quarry.KindUsage, "%s holds no semantic_models or metrics to import", strings.Join(names, ", "))
	}
	im := &dbtImport{builder: newBuilder(), byEntity: map[string]*dbtModelInfo{}, measures: map[string]*semantic.Metric{},
		metrics: map[string]*dbtMetric{}, done: map[string]string{}, busy: map[string]bool{}, errs: map[string]string{}}
	im.out.Name = "dbt"
	for i := range doc.SemanticModels {
		im.model(&doc.SemanticModels[i])
	}
	im.relationships()
	for _, mi := range im.models {
		im.modelMeasures(mi)
	}
	for i := range doc.Metrics {
		m := &doc.Metrics[i]
		if m.Name == "" {
			im.skip("metric", fmt.Sprintf("#%d", i+1), "has no name")
			continue
		}
		im.metrics[strings.ToLower(string(m.Name))] = m
	}
	for i := range doc.Metrics {
		if doc.Metrics[i].Name != "" {
			im.metric(string(doc.Metrics[i].Name))
		}
	}
	for _, mi := range im.models {
		for _, ms := range mi.m.Measures {
			if ms.CreateMetric && im.measures[strings.ToLower(string(ms.Name))] != nil && !im.names[strings.ToLower(string(ms.Name))] {
				m := *im.measures[strings.ToLower(string(ms.Name))]
				im.names[strings.ToLower(m.Name)] = true
				im.out.Metrics = append(im.out.Metrics, m)
			}
		}
	}
	return im.out, nil
}

func (im *dbtImport) model(m *dbtModel) {
	name := string(m.Name)
	if name == "" {
		im.skip("semantic model", string(m.Model), "has no name")
		return
	}
	table := dbtTable(string(m.Model))
	if table == "" {
		im.skip("semantic model", name, "has no model: ref('…') naming its table")
		return
	}
	mi := &dbtModelInfo{m: m, entity: name, dims: map[string]string{}, times: map[string]bool{}}
	e := semantic.Entity{Name: name, Table: table, Description: string(m.Description)}
	if m.Label != "" && !strings.EqualFold(string(m.Label), name) {
		e.Synonyms = []string{string(m.Label)}
	}
	im.addEntity(e)
	im.models = append(im.models, mi)
	qualify := func(expr string) (string, error) {
		return rewrite(expr, rules{column: func(c string) (string, error) {
			im.addColumn(name, semantic.Column{Name: c}, "")
			return name + "." + c, nil
		}})
	}
	for _, en := range m.Entities {
		col := string(en.Expr)
		if col == "" {
			col = string(en.Name)
		}
		if !plainColumn(col) {
			im.skip("entity", name+"."+string(en.Name), "its expr %q is not a column; quarry joins on columns", col)
			continue
		}
		im.addColumn(name, semantic.Column{Name: col, Description: string(en.Description)}, "")
		switch strings.ToLower(string(en.Type)) {
		case "primary":
			im.ent(name).PrimaryKey = col
			im.byEntity[strings.ToLower(string(en.Name))] = mi
		case "unique":
			if _, ok := im.byEntity[strings.ToLower(string(en.Name))]; !ok {
				im.byEntity[strings.ToLower(string(en.Name))] = mi
			}
		case "natural":
			im.skip("entity", name+"."+string(en.Name), "natural keys (slowly changing dimensions) join through a validity window quarry does not model; the column is imported, the join is not")
		}
	}
	for _, d := range m.Dimensions {
		dn := string(d.Name)
		expr := string(d.Expr)
		if expr == "" {
			expr = dn
		}
		isTime := strings.EqualFold(string(d.Type), "time")
		if isTime {
			mi.times[strings.ToLower(dn)] = true
		}
		if plainColumn(expr) {
			c := semantic.Column{Name: expr, Description: string(d.Description)}
			if isTime {
				c.Type = quarry.TypeTimestamp
				if strings.EqualFold(string(d.TypeParams.TimeGranularity), "day") {
					c.Type = quarry.TypeDate
				}
			}
			c.Synonyms = dedupe([]string{dn, string(d.Label)}, expr)
			im.addColumn(name, c, "")
			mi.dims[strings.ToLower(dn)] = name + "." + expr
			continue
		}
		q, err := qualify(expr)
		if err != nil {
			im.skip("dimension", name+"."+dn, "its expr %s", err)
			continue
		}
		mi.dims[strings.ToLower(dn)] = q
		x := semantic.Dimension{Name: im.freeName(dn, name), Entity: name, Expr: q, Type: "category", Description: string(d.Description)}
		if isTime {
			x.Type = "time"
			x.Grains = grainsFrom(string(d.TypeParams.TimeGranularity))
		}
		if d.Label != "" {
			x.Synonyms = dedupe([]string{string(d.Label)}, x.Name)
		}
		im.out.Dimensions = append(im.out.Dimensions, x)
	}
	if t := strings.ToLower(string(m.Defaults.AggTimeDimension)); t != "" {
		if q := mi.dims[t]; plainQualified(q) {
			_, col, _ := strings.Cut(q, ".")
			im.ent(name).TimeColumn = col
		} else {
			im.warn("semantic model %s: its agg_time_dimension %s is not a plain column, so %s has no default time column", name, t, name)
		}
	}
}

// relationships joins a foreign (or unique) entity of one model to the
// model where that entity is primary.
func (im *dbtImport) relationships() {
	for _, mi := range im.models {
		for _, en := range mi.m.Entities {
			typ := strings.ToLower(string(en.Type))
			if typ != "foreign" && typ != "unique" {
				continue
			}
			to, ok := im.byEntity[strings.ToLower(string(en.Name))]
			if !ok || to == mi {
				continue
			}
			col := string(en.Expr)
			if col == "" {
				col = string(en.Name)
			}
			pk := im.ent(to.entity).PrimaryKey
			if !plainColumn(col) || pk == "" {
				continue
			}
			card := semantic.ManyToOne
			if typ == "unique" {
				card = semantic.OneToOne
			}
			im.out.Relationships = append(im.out.Relationships, semantic.Relationship{
				From: mi.entity, FromColumn: col, To: to.entity, ToColumn: pk, Cardinality: card})
		}
	}
}

// modelMeasures reads a model's measures as metrics-to-be.
func (im *dbtImport) modelMeasures(mi *dbtModelInfo) {
	name := mi.entity
	for _, ms := range mi.m.Measures {
		mn := string(ms.Name)
		key := strings.ToLower(mn)
		fail := func(format string, args ...any) {
			im.errs[key] = fmt.Sprintf(format, args...)
			im.skip("measure", name+"."+mn, "%s", im.errs[key])
		}
		if ms.NonAdditiveDimension != nil {
			fail("it is semi-additive (non_additive_dimension): quarry would add it up across time, which is wrong for balances and snapshots")
			continue
		}
		expr := string(ms.Expr)
		if expr == "" {
			expr = mn
		}
		in, err := rewrite(expr, rules{column: func(c string) (string, error) {
			if q, ok := mi.dims[strings.ToLower(c)]; ok && !plainQualified(q) {
				return paren(q), nil
			}
			im.addColumn(name, semantic.Column{Name: c}, "")
			return name + "." + c, nil
		}})
		if err != nil {
			fail("its expr %s", err)
			continue
		}
		var agg string
		switch strings.ToLower(string(ms.Agg)) {
		case "sum":
			agg = "SUM(" + in + ")"
			if in == "1" {
				agg = "COUNT(*)"
			}
		case "count":
			agg = "COUNT(" + in + ")"
		case "count_distinct":
			agg = "COUNT(DISTINCT " + in + ")"
		case "average", "avg":
			agg = "AVG(" + in + ")"
		case "min":
			agg = "MIN(" + in + ")"
		case "max":
			agg = "MAX(" + in + ")"
		case "sum_boolean":
			agg = "SUM(CASE WHEN " + in + " THEN 1 ELSE 0 END)"
		case "median", "percentile":
			fail("agg %s: medians and percentiles have no SQL that works the same in every database quarry reads", ms.Agg)
			continue
		default:
			fail("unknown agg %q", ms.Agg)
			continue
		}
		m := &semantic.Metric{Name: mn, Description: string(ms.Description), Entity: name, Expr: agg}
		if ms.Label != "" {
			m.Synonyms = dedupe([]string{string(ms.Label)}, mn)
		}
		if t := strings.ToLower(string(ms.AggTimeDimension)); t != "" && !strings.EqualFold(t, string(mi.m.Defaults.AggTimeDimension)) {
			q, ok := mi.dims[t]
			if !ok || !plainQualified(q) {
				fail("its agg_time_dimension %s is not a time column of %s", t, name)
				continue
			}
			m.Time = q
		}
		im.measures[key] = m
	}
}

// ref reads a metric input: a name, or {name, filter, alias}.
func ref(v any) (name, alias string, filter any, extra []string) {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x), "", nil, nil
	case map[string]any:
		for k, val := range x {
			switch k {
			case "name":
				name = strings.TrimSpace(fmt.Sprint(val))
			case "alias":
				alias = strings.TrimSpace(fmt.Sprint(val))
			case "filter":
				filter = val
			default:
				extra = append(extra, k)
			}
		}
	}
	return name, alias, filter, extra
}

var dimRe = lazyRE(`\{\{\s*Dimension\(\s*['"]([A-Za-z0-9_]+)['"]\s*\)\s*\}\}`)

// filters reads a filter (one string or a list) into quarry predicates.
func (im *dbtImport) filters(v any) ([]string, error) {
	var raw []string
	switch x := v.(type) {
	case nil:
	case string:
		raw = []string{x}
	case []any:
		for _, e := range x {
			raw = append(raw, fmt.Sprint(e))
		}
	default:
		return nil, fmt.Errorf("its filter is a %s, not a string", kindOf(x))
	}
	var out []string
	for _, f := range raw {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		var bad error
		sql := dimRe().ReplaceAllStringFunc(f, func(s string) string {
			ref := dimRe().FindStringSubmatch(s)[1]
			i := strings.LastIndex(ref, "__")
			if i <= 0 {
				bad = fmt.Errorf("its filter uses Dimension('%s'), which names no entity", ref)
				return s
			}
			ent, dim := ref[:i], ref[i+2:]
			if j := strings.LastIndex(ent, "__"); j >= 0 {
				ent = ent[j+2:]
			}
			mi := im.byEntity[strings.ToLower(ent)]
			if mi == nil {
				bad = fmt.Errorf("its filter uses Dimension('%s'), but no semantic model has the entity %s", ref, ent)
				return s
			}
			q, ok := mi.dims[strings.ToLower(dim)]
			if !ok {
				bad = fmt.Errorf("its filter uses Dimension('%s'), but %s has no dimension %s", ref, mi.entity, dim)
				return s
			}
			return "\x00" + paren(q) + "\x00"
		})
		if bad != nil {
			return nil, bad
		}
		if strings.Contains(sql, "{{") || strings.Contains(sql, "{%") {
			return nil, fmt.Errorf("its filter %q uses Jinja other than {{ Dimension('entity__dimension') }}", clip(f, 80))
		}
		// The rest must be plain SQL over the dimensions put in.
		parts := strings.Split(sql, "\x00")
		for i := 0; i < len(parts); i += 2 {
			if _, err := rewrite(parts[i], rules{column: func(c string) (string, error) {
				return "", fmt.Errorf("its filter %q names %s outside a Dimension()", clip(f, 80), c)
			}}); err != nil {
				return nil, err
			}
		}
		out = append(out, strings.Join(strings.Fields(strings.Join(parts, "")), " "))
	}
	return out, nil
}

// metric imports the dbt metric name (and what it uses first) and returns
// its quarry name, or "" when it is skipped.
func (im *dbtImport) metric(name string) string {
	key := strings.ToLower(name)
	if n, ok := im.done[key]; ok {
		return n
	}
	m := im.metrics[key]
	if m == nil || im.busy[key] {
		return ""
	}
	im.busy[key] = true
	n, err := im.build(m)
	if err != nil {
		im.skip("metric", name, "%s", err)
		n = ""
	}
	im.done[key] = n
	return n
}

func (im *dbtImport) build(m *dbtMetric) (string, error) {
	name := string(m.Name)
	base := semantic.Metric{Name: name, Description: string(m.Description)}
	if m.Label != "" {
		base.Synonyms = dedupe([]string{string(m.Label)}, name)
	}
	filters, err := im.filters(m.Filter)
	if err != nil {
		return "", err
	}
	tp := m.TypeParams
	switch strings.ToLower(string(m.Type)) {
	case "simple":
		mn, _, mf, extra := ref(tp.Measure)
		if mn == "" {
			return "", fmt.Errorf("a simple metric without type_params.measure is not supported")
		}
		ms := im.measures[strings.ToLower(mn)]
		if ms == nil {
			if why, ok := im.errs[strings.ToLower(mn)]; ok {
				return "", fmt.Errorf("its measure %s is skipped: %s", mn, why)
			}
			return "", fmt.Errorf("its measure %s is not defined in any semantic model", mn)
		}
		for _, k := range extra {
			if k == "fill_nulls_with" || k == "join_to_timespine" {
				im.warn("metric %s: %s is not imported; quarry leaves out periods without rows instead of filling them", name, k)
			}
		}
		mf2, err := im.filters(mf)
		if err != nil {
			return "", err
		}
		x := *ms
		x.Name, x.Description, x.Synonyms = name, firstNonEmpty(base.Description, ms.Description), dedupe(append(base.Synonyms, ms.Synonyms...), name)
		x.Filters = append(append([]string(nil), mf2...), filters...)
		return im.add(x), nil
	case "ratio":
		num, err := im.input(name, "numerator", tp.Numerator, filters)
		if err != nil {
			return "", err
		}
		den, err := im.input(name, "denominator", tp.Denominator, filters)
		if err != nil {
			return "", err
		}
		base.Derived = "{" + num + "} / {" + den + "}"
		return im.add(base), nil
	case "derived":
		alias := map[string]string{}
		for i, in := range tp.Metrics {
			n, a, _, extra := ref(in)
			for _, k := range extra {
				if strings.HasPrefix(k, "offset") {
					return "", fmt.Errorf("its input %s uses %s: period-over-period offsets have no quarry equivalent", n, k)
				}
			}
			q, err := im.input(name, fmt.Sprintf("input%d", i+1), in, filters)
			if err != nil {
				return "", err
			}
			if a == "" {
				a = n
			}
			alias[strings.ToLower(a)] = q
		}
		d, err := rewrite(string(tp.Expr), rules{column: func(c string) (string, error) {
			if q, ok := alias[strings.ToLower(c)]; ok {
				return "{" + q + "}", nil
			}
			return "", fmt.Errorf("its expr names %s, which is not one of its metrics", c)
		}})
		if err != nil {
			return "", err
		}
		if d == "" {
			return "", fmt.Errorf("has no type_params.expr")
		}
		base.Derived = d
		return im.add(base), nil
	case "cumulative":
		return "", fmt.Errorf("cumulative metrics (running totals over a window or grain_to_date) have no quarry equivalent")
	case "conversion":
		return "", fmt.Errorf("conversion metrics (funnels between two events of an entity) have no quarry equivalent")
	}
	return "", fmt.Errorf("unknown metric type %q; dbt's types are simple, ratio, derived, cumulative and conversion", m.Type)
}

// input resolves an input of a ratio or derived metric. With its own
// filter or the metric's, it becomes a filtered copy of the input metric,
// named after the metric and its role.
func (im *dbtImport) input(metric, role string, v any, extraFilters []string) (string, error) {
	n, _, f, _ := ref(v)
	if n == "" {
		return "", fmt.Errorf("its %s names no metric", role)
	}
	q := im.metric(n)
	if q == "" {
		return "", fmt.Errorf("it uses metric %s, which is skipped or not defined", n)
	}
	fs, err := im.filters(f)
	if err != nil {
		return "", err
	}
	fs = append(fs, extraFilters...)
	if len(fs) == 0 {
		return q, nil
	}
	var src *semantic.Metric
	for i := range im.out.Metrics {
		if strings.EqualFold(im.out.Metrics[i].Name, q) {
			src = &im.out.Metrics[i]
		}
	}
	if src == nil || src.Expr == "" {
		return "", fmt.Errorf("its %s filters %s, which is itself a ratio or derived metric; quarry filters only simple metrics", role, n)
	}
	x := *src
	x.Name = metric + "_" + role
	x.Description = fmt.Sprintf("%s of %s: %s, filtered.", role, metric, n)
	x.Synonyms = nil
	x.Filters = append(append([]string(nil), src.Filters...), fs...)
	return im.add(x), nil
}

func (im *dbtImport) add(m semantic.Metric) string {
	m.Name = im.freeName(m.Name, m.Entity)
	im.out.Metrics = append(im.out.Metrics, m)
	return m.Name
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
