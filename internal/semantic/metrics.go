package semantic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// metricPart is the SELECT that computes one base metric by the requested
// dimensions.
type metricPart struct {
	mt  *Metric
	sql string // SELECT … GROUP BY …, without HAVING, ORDER BY or LIMIT
	agg string // the aggregate, valid in that SELECT's HAVING
}

func indent(s, pre string) string {
	return pre + strings.ReplaceAll(s, "\n", "\n"+pre)
}

func (c *compiler) tableRef(entity string) string {
	e := c.m.Entity(entity)
	schema, table := e.Relation()
	if schema == "" && table == e.Name {
		return c.d.ident(e.Name)
	}
	// The relation is a (schema, table) pair, each part quoted whole: a
	// dot inside a name is part of the name.
	ref := c.d.ident(table)
	if schema != "" {
		ref = c.d.ident(schema) + "." + ref
	}
	return ref + " AS " + c.d.ident(e.Name)
}

func needsParens(s string) bool {
	return strings.Contains(strings.ToUpper(s), " OR ")
}

// metricSource is where base metric mt's rows come from: its table, the
// joins, the conditions, and expr (the metric's expression or one of its
// row values) and the dimensions rendered over them.
type metricSource struct {
	root     string
	expr     string
	exprRefs []colRef
	dimX     []string
	from     string // FROM … LEFT JOIN … WHERE …
	fanOut   bool
	steps    []joinStep
}

// metricSelect builds the SELECT for base metric mt.
func (c *compiler) metricSelect(mt *Metric, dims []dimSpec, where []cond, q Query) (metricPart, error) {
	src, err := c.metricSource(mt, mt.Expr, dims, where, q)
	if err != nil {
		return metricPart{}, err
	}
	metricName := c.d.ident(mt.Name)
	if !src.fanOut {
		sel := make([]string, 0, len(dims)+1)
		for i, ds := range dims {
			sel = append(sel, src.dimX[i]+" AS "+c.d.ident(ds.out.Name))
		}
		sel = append(sel, src.expr+" AS "+metricName)
		s := "SELECT " + strings.Join(sel, ", ") + "\n" + src.from
		if len(dims) > 0 {
			s += "\nGROUP BY " + strings.Join(src.dimX, ", ")
		}
		return metricPart{mt: mt, sql: s, agg: src.expr}, nil
	}
	from, agg, group, err := c.distinctRows(mt, src, mt.Expr, dims)
	if err != nil {
		return metricPart{}, err
	}
	outer := append(append([]string{}, group...), agg+" AS "+metricName)
	s := "SELECT " + strings.Join(outer, ", ") + "\n" + from
	if len(group) > 0 {
		s += "\nGROUP BY " + strings.Join(group, ", ")
	}
	return metricPart{mt: mt, sql: s, agg: agg}, nil
}

// distinctRows keeps, where a join repeats base metric mt's rows
// (fan-out), one row per row of its entity: its key, the dimension values
// and the inputs of exprText. It returns the FROM over those rows,
// exprText over them, and the dimensions' names there.
func (c *compiler) distinctRows(mt *Metric, src metricSource, exprText string, dims []dimSpec) (from, expr string, group []string, err error) {
	root := src.root
	e := c.m.Entity(root)
	if e.PrimaryKey == "" {
		return "", "", nil, quarry.Errorf(quarry.KindUnsupported, "metric %s cannot be cut this way safely: the join repeats %s rows and %s has no primary_key to de-duplicate them; set primary_key on the entity", mt.Name, root, root)
	}
	inputName := func(r colRef) string { return r.Entity + "_" + r.Column }
	inner := []string{c.col(colRef{root, e.PrimaryKey}) + " AS " + c.d.ident(inputName(colRef{root, e.PrimaryKey}))}
	have := map[string]bool{inputName(colRef{root, e.PrimaryKey}): true}
	group = make([]string, 0, len(dims))
	for i, ds := range dims {
		n := c.d.ident(ds.out.Name)
		inner = append(inner, src.dimX[i]+" AS "+n)
		have[ds.out.Name] = true
		group = append(group, n)
	}
	for _, r := range src.exprRefs {
		if n := inputName(r); !have[n] {
			have[n] = true
			inner = append(inner, c.col(r)+" AS "+c.d.ident(n))
		}
	}
	if exprText, err = expandFunctions(exprText, c.d, "metric "+mt.Name); err != nil {
		return "", "", nil, err
	}
	expr, _ = rewriteRefs(exprText, c.names(), false, func(r colRef) string {
		en := c.m.Entity(r.Entity)
		return c.d.ident(inputName(colRef{en.Name, en.Column(r.Column).Name}))
	})
	var fanned []string
	for _, s := range src.steps {
		if s.fanOut {
			fanned = append(fanned, s.to)
		}
	}
	c.note(fmt.Sprintf("%s: each %s row is counted once before aggregating, because joining %s would repeat it (fan-out)", mt.Name, root, strings.Join(fanned, ", ")))
	c.fanOutGuarded = true
	from = "FROM (\n" + indent("SELECT DISTINCT "+strings.Join(inner, ", ")+"\n"+src.from, "  ") + "\n) AS " + c.d.ident(root)
	return from, expr, group, nil
}

// metricSource renders expr (over mt's rows) and the dimensions, and the
// FROM, joins and WHERE that base metric mt reads its rows with.
func (c *compiler) metricSource(mt *Metric, exprText string, dims []dimSpec, where []cond, q Query) (metricSource, error) {
	root, err := c.metricEntity(mt)
	if err != nil {
		return metricSource{}, err
	}
	expr, exprRefs, err := c.render(exprText, "metric "+mt.Name)
	if err != nil {
		return metricSource{}, err
	}
	var conds []cond
	for i, f := range mt.Filters {
		s, refs, err := c.render(f, fmt.Sprintf("filter %d of metric %s", i+1, mt.Name))
		if err != nil {
			return metricSource{}, err
		}
		if needsParens(s) {
			s = "(" + s + ")"
		}
		conds = append(conds, cond{sql: s, refs: refs})
	}
	conds = append(conds, where...)
	rc, err := c.rangeConds(mt, q.TimeRange)
	if err != nil {
		return metricSource{}, err
	}
	conds = append(conds, rc...)
	cc, err := c.cycleConds(mt, q.Filters)
	if err != nil {
		return metricSource{}, err
	}
	conds = append(conds, cc...)
	if len(q.Compare) > 0 {
		pc, err := c.periodsCond(mt, q.Compare)
		if err != nil {
			return metricSource{}, err
		}
		conds = append(conds, pc)
	}
	dimX := make([]string, len(dims))
	need := []string{}
	addNeed := func(refs []colRef) {
		for _, r := range refs {
			dup := false
			for _, n := range need {
				dup = dup || n == r.Entity
			}
			if !dup {
				need = append(need, r.Entity)
			}
		}
	}
	addNeed(exprRefs)
	for i, ds := range dims {
		x, refs, err := c.dimFor(ds, mt)
		if err != nil {
			return metricSource{}, err
		}
		dimX[i] = x
		addNeed(refs)
	}
	for _, cd := range conds {
		addNeed(cd.refs)
	}
	plan, err := c.tree(root).plan(need)
	if err != nil {
		return metricSource{}, err
	}
	for _, n := range plan.notes {
		c.note(n)
	}
	c.choose(plan.choices)
	c.join(root, plan)
	var from strings.Builder
	from.WriteString("FROM " + c.tableRef(root))
	for _, s := range plan.steps {
		fmt.Fprintf(&from, "\nLEFT JOIN %s ON %s = %s", c.tableRef(s.to), c.col(colRef{s.to, s.toCol}), c.col(colRef{s.from, s.fromCol}))
	}
	if len(conds) > 0 {
		from.WriteString("\nWHERE ")
		for i, cd := range conds {
			if i > 0 {
				from.WriteString("\n  AND ")
			}
			from.WriteString(cd.sql)
		}
	}
	return metricSource{root: root, expr: expr, exprRefs: exprRefs, dimX: dimX, from: from.String(), fanOut: plan.fanOut, steps: plan.steps}, nil
}

// compileMetrics compiles a metric query.
func (c *compiler) compileMetrics(q Query) (*Compiled, error) {
	if len(q.Metrics) == 0 {
		return nil, quarry.Errorf(quarry.KindInput, "a metric query needs at least one metric")
	}
	var outputs []*Metric
	for _, n := range q.Metrics {
		mt := c.m.Metric(n)
		if mt == nil {
			return nil, quarry.Errorf(quarry.KindInput, "unknown metric %q", n)
		}
		for _, o := range outputs {
			if o == mt {
				return nil, quarry.Errorf(quarry.KindInput, "metric %s is asked for twice", mt.Name)
			}
		}
		outputs = append(outputs, mt)
	}
	var where []cond
	var having []Filter
	var havingMetrics []*Metric
	for _, f := range q.Filters {
		if relatedFilter(f) || f.Through != "" {
			subject, err := c.metricEntity(outputs[0])
			if err != nil {
				return nil, err
			}
			render := c.relatedSQL
			if f.Through != "" {
				render = c.throughSQL
			}
			s, ref, err := render(subject, f)
			if err != nil {
				return nil, err
			}
			where = append(where, cond{sql: s, refs: []colRef{ref}})
			continue
		}
		if g, ok := c.m.CycleGrain(f); ok {
			if c.m.OwnDate(f) {
				continue // each metric's own date: metricSelect
			}
			cd, err := c.namedCycleCond(f, g)
			if err != nil {
				return nil, err
			}
			where = append(where, cd)
			continue
		}
		fd, err := c.m.ResolveField(f.Field)
		if err != nil {
			return nil, err
		}
		if fd.Kind == FieldMetric {
			having = append(having, f)
			havingMetrics = append(havingMetrics, fd.Metric)
			continue
		}
		x, refs, err := c.fieldExpr(fd)
		if err != nil {
			return nil, err
		}
		s, err := c.filterSQLNulls(x, refs, f, KeepsEmpty(c.m, q, f))
		if err != nil {
			return nil, err
		}
		where = append(where, cond{sql: s, refs: refs})
	}
	names := make([]string, 0, len(outputs)+len(havingMetrics))
	for _, o := range outputs {
		names = append(names, o.Name)
	}
	for _, h := range havingMetrics {
		names = append(names, h.Name)
	}
	var bases []*Metric
	if err := c.bases(names, &bases, map[string]bool{}, 0); err != nil {
		return nil, err
	}
	dims, err := c.dims(q)
	if err != nil {
		return nil, err
	}
	parts := make([]metricPart, len(bases))
	for i, b := range bases {
		if q.Percentile != 0 {
			break
		}
		if parts[i], err = c.metricSelect(b, dims, c.partWhere(b, bases, where), q); err != nil {
			return nil, err
		}
	}
	cols := make([]OutColumn, 0, len(dims)+2*len(outputs))
	for _, ds := range dims {
		cols = append(cols, ds.out)
	}
	for _, o := range outputs {
		cols = append(cols, OutColumn{Name: o.Name, Role: RoleMetric, Format: c.m.OutFormat(o)})
	}
	if q.Percentile != 0 {
		if err := checkPercentile(q, outputs, havingMetrics); err != nil {
			return nil, err
		}
		name := PercentileName(outputs[0].Name, q.Percentile)
		cols[len(cols)-1].Name = name
		if parts[0], err = c.percentileSelect(outputs[0], name, dims, where, q); err != nil {
			return nil, err
		}
		// Sorting by the metric sorts by its percentile.
		q.Order = slices.Clone(q.Order)
		for i, o := range q.Order {
			if c.m.Metric(o.Field) == outputs[0] {
				q.Order[i].Field = name
			}
		}
	}
	if q.Share {
		for _, o := range outputs {
			cols = append(cols, OutColumn{Name: o.Name + "_share", Role: RoleShare, Format: "percent"})
		}
	}

	plain := len(outputs) == 1 && outputs[0].Derived == "" && !q.Share && len(q.Compare) == 0
	for _, h := range havingMetrics {
		plain = plain && h == outputs[0]
	}
	for _, ds := range dims {
		c.noOrder = c.noOrder || ds.out.Grain.Cyclic()
	}
	var sql string
	if plain {
		sql = parts[0].sql
		for i, f := range having {
			s, err := c.filterSQL(parts[0].agg, nil, f)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				sql += "\nHAVING " + s
			} else {
				sql += "\n  AND " + s
			}
		}
		order, err := c.orderBy(q, dims, cols, func(d dimSpec) string { return "" })
		if err != nil {
			return nil, err
		}
		sql += order
	} else {
		if sql, err = c.assemble(q, dims, parts, outputs, having, cols); err != nil {
			return nil, err
		}
	}
	if c.noOrder {
		c.noOrder = false
		order, err := c.orderBy(q, dims, cols, func(ds dimSpec) string {
			parts := make([]string, len(ds.periods))
			for i, p := range ds.periods {
				parts[i] = "WHEN " + c.d.str(p.Label) + " THEN " + itoa(i+1)
			}
			return "CASE " + c.d.ident(ds.out.Name) + " " + strings.Join(parts, " ") + " END"
		})
		if err != nil {
			return nil, err
		}
		sel := make([]string, len(cols))
		for i, col := range cols {
			sel[i] = c.d.ident(col.Name)
		}
		sql = "SELECT " + strings.Join(sel, ", ") + "\nFROM (\n" + indent(sql, "  ") + "\n) AS " + c.d.ident("q") + order
	}
	switch {
	case q.Ties:
		order, err := c.orderBy(q, dims, cols, func(dimSpec) string { return "" })
		if err != nil {
			return nil, err
		}
		sql = c.withTies(q, sql, cols, []string{strings.TrimPrefix(order, "\nORDER BY ")}, order+c.tieBreak(q, cols))
	case q.Limit > 0:
		sql += "\nLIMIT " + itoa(q.Limit)
	}
	if len(q.Hidden) > 0 {
		return c.hide(q, sql, dims, cols)
	}
	return &Compiled{SQL: sql, Columns: cols, Notes: c.notes, FanOutGuarded: c.fanOutGuarded, Choices: c.choices, joined: c.joined}, nil
}

// hide wraps a compiled metric query so that it returns only the columns
// not in q.Hidden, in the same order: the inner query still groups,
// filters, sorts and limits by them.
func (c *compiler) hide(q Query, sql string, dims []dimSpec, cols []OutColumn) (*Compiled, error) {
	if len(q.Compare) > 0 || q.Share {
		return nil, quarry.Errorf(quarry.KindInput, "hidden columns cannot be used with compared periods or shares")
	}
	hidden := map[string]bool{}
	for _, h := range q.Hidden {
		found := false
		for _, ds := range dims {
			if h == ds.ref || h == ds.out.Name {
				hidden[ds.out.Name], found = true, true
			}
		}
		if mt := c.m.Metric(h); mt != nil {
			for _, n := range q.Metrics {
				if c.m.Metric(n) == mt {
					hidden[mt.Name], found = true, true
				}
			}
		}
		if !found {
			return nil, quarry.Errorf(quarry.KindInput, "cannot hide %s: it is not a metric or dimension of the query", h)
		}
	}
	var sel []string
	var vis []OutColumn
	for _, col := range cols {
		if !hidden[col.Name] {
			sel = append(sel, c.d.ident(col.Name))
			vis = append(vis, col)
		}
	}
	if len(vis) == 0 {
		return nil, quarry.Errorf(quarry.KindInput, "a query must return at least one column")
	}
	order, err := c.orderBy(q, dims, cols, func(dimSpec) string { return "" })
	if err != nil {
		return nil, err
	}
	inner := c.d.ident("q")
	if order != "" {
		order += c.tieBreak(q, vis)
	}
	out := "SELECT " + strings.Join(sel, ", ") + "\nFROM (\n" + indent(sql, "  ") + "\n) AS " + inner + order
	return &Compiled{SQL: out, Columns: vis, Notes: c.notes, FanOutGuarded: c.fanOutGuarded, Choices: c.choices, joined: c.joined}, nil
}

// assemble joins the per-metric CTEs on the dimension values and computes
// derived metrics, shares and metric filters over them.
func (c *compiler) assemble(q Query, dims []dimSpec, parts []metricPart, outputs []*Metric, having []Filter, cols []OutColumn) (string, error) {
	cte := make(map[string]string, len(parts))
	var b strings.Builder
	b.WriteString("WITH ")
	for i, p := range parts {
		name := c.d.ident("m_" + p.mt.Name)
		cte[p.mt.Name] = name
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(name + " AS (\n" + indent(p.sql, "  ") + "\n)")
	}
	q0 := cte[parts[0].mt.Name]
	dimOut := make([]string, len(dims))
	var from strings.Builder
	switch {
	case len(parts) == 1:
		for i, ds := range dims {
			dimOut[i] = q0 + "." + c.d.ident(ds.out.Name)
		}
		from.WriteString("FROM " + q0)
	case len(dims) == 0:
		from.WriteString("FROM " + q0)
		for _, p := range parts[1:] {
			from.WriteString("\nCROSS JOIN " + cte[p.mt.Name])
		}
	case c.d.fullJoin():
		from.WriteString("FROM " + q0)
		for k, p := range parts {
			if k == 0 {
				continue
			}
			on := make([]string, len(dims))
			for i, ds := range dims {
				d := c.d.ident(ds.out.Name)
				prev := make([]string, k)
				for j := range k {
					prev[j] = cte[parts[j].mt.Name] + "." + d
				}
				left := prev[0]
				if k > 1 {
					left = "COALESCE(" + strings.Join(prev, ", ") + ")"
				}
				on[i] = c.d.notDistinct(cte[p.mt.Name]+"."+d, left)
			}
			from.WriteString("\nFULL JOIN " + cte[p.mt.Name] + " ON " + strings.Join(on, " AND "))
		}
		for i, ds := range dims {
			d := c.d.ident(ds.out.Name)
			all := make([]string, len(parts))
			for j, p := range parts {
				all[j] = cte[p.mt.Name] + "." + d
			}
			dimOut[i] = "COALESCE(" + strings.Join(all, ", ") + ")"
		}
	default:
		// No FULL JOIN (MySQL): the union of the dimension keys, then a
		// LEFT JOIN of each metric onto it.
		keys := c.d.ident("dim_keys")
		dl := make([]string, len(dims))
		for i, ds := range dims {
			dl[i] = c.d.ident(ds.out.Name)
			dimOut[i] = keys + "." + dl[i]
		}
		sel := make([]string, len(parts))
		for j, p := range parts {
			sel[j] = "  SELECT " + strings.Join(dl, ", ") + " FROM " + cte[p.mt.Name]
		}
		b.WriteString(",\n" + keys + " AS (\n" + strings.Join(sel, "\n  UNION\n") + "\n)")
		from.WriteString("FROM " + keys)
		for _, p := range parts {
			on := make([]string, len(dims))
			for i := range dims {
				on[i] = c.d.notDistinct(cte[p.mt.Name]+"."+dl[i], dimOut[i])
			}
			from.WriteString("\nLEFT JOIN " + cte[p.mt.Name] + " ON " + strings.Join(on, " AND "))
		}
	}
	// Joined on the groups, a group with none of a count's or a sum's
	// rows has no row of its part: its count is 0, not NULL ("refund rate
	// by channel": a channel with no refund has a rate of 0%, which a NULL
	// would leave out of a ranking or show as no value).
	joined := len(parts) > 1 && len(dims) > 0
	var metricX func(mt *Metric, depth int) string
	metricX = func(mt *Metric, depth int) string {
		if mt.Derived == "" {
			x := cte[mt.Name] + "." + c.d.ident(mt.Name)
			if joined && mt.Additive() {
				x = "COALESCE(" + x + ", 0)"
			}
			return x
		}
		return renderDerived(mt.Derived, func(n string) string {
			ref := c.m.Metric(n)
			if ref.Derived != "" && depth < 32 {
				return "(" + metricX(ref, depth+1) + ")"
			}
			return metricX(ref, depth+1)
		}, c.d.divisor)
	}
	sel := make([]string, 0, len(cols))
	for i, ds := range dims {
		sel = append(sel, dimOut[i]+" AS "+c.d.ident(ds.out.Name))
	}
	for _, o := range outputs {
		sel = append(sel, metricX(o, 0)+" AS "+c.d.ident(o.Name))
	}
	if q.Share {
		// Shares are of the total over the result, or of each period's
		// total when periods are compared or a time grain is one of
		// several dimensions ("share of revenue by category by quarter":
		// each category's part of its quarter).
		var within []string
		for i, ds := range dims {
			if ds.periods != nil || ds.out.Grain != "" && len(dims) > 1 {
				within = append(within, dimOut[i])
			}
		}
		over := "OVER ()"
		if len(within) > 0 && len(within) < len(dims) {
			over = "OVER (PARTITION BY " + strings.Join(within, ", ") + ")"
		}
		for _, o := range outputs {
			x := metricX(o, 0)
			sel = append(sel, x+" / "+c.d.divisor("SUM("+x+") "+over)+" AS "+c.d.ident(o.Name+"_share"))
		}
	}
	b.WriteString("\nSELECT " + strings.Join(sel, ", ") + "\n" + from.String())
	for i, f := range having {
		s, err := c.filterSQL(metricX(c.m.Metric(f.Field), 0), nil, f)
		if err != nil {
			return "", err
		}
		if i == 0 {
			b.WriteString("\nWHERE " + s)
		} else {
			b.WriteString("\n  AND " + s)
		}
	}
	dimIdx := map[string]int{}
	for i, ds := range dims {
		dimIdx[ds.out.Name] = i
	}
	order, err := c.orderBy(q, dims, cols, func(ds dimSpec) string {
		x := dimOut[dimIdx[ds.out.Name]]
		parts := make([]string, len(ds.periods))
		for i, p := range ds.periods {
			parts[i] = "WHEN " + c.d.str(p.Label) + " THEN " + itoa(i+1)
		}
		return "CASE " + x + " " + strings.Join(parts, " ") + " END"
	})
	if err != nil {
		return "", err
	}
	b.WriteString(order)
	return b.String(), nil
}

// orderBy renders the ORDER BY clause: the query's order, or the
// dimensions in order. periodOrder renders the order of compare periods.
func (c *compiler) orderBy(q Query, dims []dimSpec, cols []OutColumn, periodOrder func(dimSpec) string) (string, error) {
	if c.noOrder || c.unordered {
		return "", nil
	}
	var terms []string
	term := func(ds dimSpec) string {
		if ds.periods != nil {
			return periodOrder(ds)
		}
		if ds.out.Grain.Cyclic() {
			return c.d.cycleOrder(ds.out.Grain, c.d.ident(ds.out.Name))
		}
		return c.d.ident(ds.out.Name)
	}
	for _, o := range q.Order {
		t := ""
		for _, ds := range dims {
			if o.Field == ds.ref || o.Field == ds.out.Name {
				t = term(ds)
				break
			}
		}
		if t == "" {
			name := o.Field
			if mt := c.m.Metric(name); mt != nil {
				name = mt.Name
			}
			for _, col := range cols {
				if col.Name == name && col.Role != RoleDimension && col.Role != RolePeriod {
					t = c.d.ident(name)
				}
			}
		}
		if t == "" {
			return "", quarry.Errorf(quarry.KindInput, "cannot sort by %s: it is not in the result; add it to the metrics or dimensions", o.Field)
		}
		terms = append(terms, c.d.sortTerm(t, o.Desc))
	}
	if len(q.Order) == 0 {
		for _, ds := range dims {
			terms = append(terms, term(ds))
		}
	}
	if len(terms) == 0 {
		return "", nil
	}
	return "\nORDER BY " + strings.Join(terms, ", "), nil
}

// KeepsEmpty reports whether a "not X" filter of q (!=, not_in), or a
// comparison marked OrNull, keeps the rows whose value is empty
// (OrNull): a comparison so marked always, a "not X" always but in a
// metric query
// grouped by the same field ("top 3 discount codes excluding WELCOME10"
// ranks the other codes, not the rows with none; found from outside).
// The reading says what the compiler does.
func KeepsEmpty(m *Model, q Query, f Filter) bool {
	if f.OrNull && (f.Op == OpLt || f.Op == OpLe || f.Op == OpGt || f.Op == OpGe) {
		return true
	}
	if f.Op != OpNe && f.Op != OpNotIn {
		return false
	}
	return q.Rows != nil || !groupsBy(m, q, f.Field)
}

// groupsBy reports whether q groups by field itself (no time grain):
// the dimension or the column it names.
func groupsBy(m *Model, q Query, field string) bool {
	expr := func(name string) string {
		if m == nil {
			return strings.ToLower(name)
		}
		if d := m.Dimension(name); d != nil {
			return strings.ToLower(strings.TrimSpace(d.Expr))
		}
		return strings.ToLower(name)
	}
	for _, d := range q.Dimensions {
		if d.Grain == "" && expr(d.Name) == expr(field) {
			return true
		}
	}
	return false
}
