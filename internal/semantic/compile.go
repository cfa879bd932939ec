package semantic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Compiled is a query compiled to SQL for one dialect.
type Compiled struct {
	SQL     string      `json:"sql"`
	Columns []OutColumn `json:"columns"`
	// Notes say what the compiler chose that a reader should know, such as
	// a join path picked among several or rows de-duplicated against
	// fan-out.
	Notes []string `json:"notes,omitempty"`
	// FanOutGuarded says a measure was aggregated over distinct rows of its
	// own table because a join would have repeated them.
	FanOutGuarded bool `json:"fan_out_guarded,omitempty"`
	// Choices are the joins picked between two equally good routes: the
	// one through a table the query names (JoinChoice.Named), else the
	// one declared first; Model.Preferring compiles the other path.
	Choices []JoinChoice `json:"choices,omitempty"`
	// joined are the entities the query's FROMs read (lower-cased): a
	// table the query goes through (Query.Via) must be one.
	joined map[string]bool
}

// The roles of result columns.
const (
	RoleDimension = "dimension"
	RoleMetric    = "metric"
	RoleShare     = "share"
	RolePeriod    = "period"
	RoleChange    = "change"
	RoleColumn    = "column"
)

// OutColumn describes one column of a compiled query's result.
type OutColumn struct {
	Name   string `json:"name"`
	Role   string `json:"role"`
	Format string `json:"format,omitempty"` // the metric's format, "date" for time grains, "percent" for shares
	Grain  Grain  `json:"grain,omitempty"`
	// Names marks the column that names each row of a list of one
	// entity's rows: the entity's label, or its key where it has no label
	// listed. An answer names the rows by it.
	Names bool `json:"names,omitempty"`
}

// compiler holds the state of one Compile call.
type compiler struct {
	m *Model
	// noOrder holds the ORDER BY back while a grouping by the day of the
	// week is built: its order is over the output column, which only an
	// outer query can name in an expression on every engine.
	noOrder bool
	// unordered drops every ORDER BY: the query is counted
	// (compileCountGroups), and its order would be a sort for nothing.
	unordered bool
	d         dialect
	adj       map[string][]edge
	trees     map[string]*joinTree
	notes     []string
	choices   []JoinChoice
	joined    map[string]bool // the entities a FROM reads, lower-cased
	// fanOutGuarded: a measure was aggregated over distinct rows.
	fanOutGuarded bool
	refs          *refNames // the entities' names for expressions, built on first use
	// window is the query's period on one date of the rows it reads
	// (entity.column): the aggregate a filter compares with is of the
	// rows in it ("orders above the average" as of a day, or in 2025).
	window *TimeRange
}

// names is the index rewriteRefs reads the model's references with.
func (c *compiler) names() refNames {
	if c.refs == nil {
		r := refNamesOf(c.m, c.m.Entity)
		c.refs = &r
	}
	return *c.refs
}

// cond is a predicate over entity columns.
type cond struct {
	sql  string
	refs []colRef
}

// dimSpec is a requested dimension; its SQL may depend on the metric.
type dimSpec struct {
	out       OutColumn
	expr      string   // a fixed expression, rendered, grain applied
	refs      []colRef // the columns expr reads
	perMetric bool     // each metric's own time axis at out.Grain
	periods   []Period // the compare label over each metric's time axis
	alt       string   // a qualified name to use if out.Name clashes
	ref       string   // the name the query asked for
}

// Compile turns a metric query (or a rows query) into SQL for dialect d.
// It never guesses: an unknown field, a missing join path or a restricted
// column is an error whose message says what to change.
func Compile(m *Model, q Query, d quarry.Dialect) (*Compiled, error) {
	out, err := compile(m, q, d)
	if err != nil {
		return nil, err
	}
	out = byNamedRoutes(m, q, d, out)
	return throughVia(m, q, d, out)
}

// CompileAsDeclared is Compile with every route as declared: the shortest,
// then the relationships declared first, whatever tables the query names
// (a control query that reads the route not taken: Model.Preferring).
func CompileAsDeclared(m *Model, q Query, d quarry.Dialect) (*Compiled, error) {
	return compile(m, q, d)
}

// compile is Compile, every route as declared.
func compile(m *Model, q Query, d quarry.Dialect) (*Compiled, error) {
	dl, err := newDialect(d)
	if err != nil {
		return nil, err
	}
	c := &compiler{m: m, d: dl, adj: m.edges(), trees: map[string]*joinTree{}, window: windowOf(m, q)}
	if q.Limit < 0 {
		return nil, quarry.Errorf(quarry.KindInput, "the limit must not be negative")
	}
	if err := checkTies(&q); err != nil {
		return nil, err
	}
	// Compared periods label each row with the first period it falls in;
	// overlapping ones would lose the rows of the later to the earlier.
	for i, a := range q.Compare {
		for _, b := range q.Compare[i+1:] {
			if (a.To == "" || b.From == "" || b.From < a.To) && (b.To == "" || a.From == "" || a.From < b.To) {
				return nil, quarry.Errorf(quarry.KindUnsupported, "the compared periods %s and %s overlap; compare periods that do not, or ask for each on its own", a.Label, b.Label)
			}
		}
	}
	if q.Rows != nil && q.CountGroups == "" {
		return c.compileRows(q)
	}
	if q.CountGroups != "" {
		return c.compileCountGroups(q)
	}
	return c.compileMetrics(q)
}

func (c *compiler) tree(root string) *joinTree {
	t, ok := c.trees[root]
	if !ok {
		t = c.m.buildJoinTree(root, c.adj)
		c.trees[root] = t
	}
	return t
}

// join records the entities a FROM of root and its joins reads.
func (c *compiler) join(root string, p joinPlan) {
	if c.joined == nil {
		c.joined = map[string]bool{}
	}
	c.joined[strings.ToLower(root)] = true
	for _, s := range p.steps {
		c.joined[strings.ToLower(s.to)] = true
	}
}

// choose records join choices, each once.
func (c *compiler) choose(chs []JoinChoice) {
	for _, ch := range chs {
		if !slices.ContainsFunc(c.choices, ch.same) {
			c.choices = append(c.choices, ch)
		}
	}
}

func (c *compiler) note(s string) {
	for _, n := range c.notes {
		if n == s {
			return
		}
	}
	c.notes = append(c.notes, s)
}

// col renders an entity column reference (the entity name is its alias).
func (c *compiler) col(r colRef) string {
	return c.d.ident(r.Entity) + "." + c.d.ident(r.Column)
}

// render rewrites a model expression over entity.column into SQL, checking
// every reference against the model and the column policy.
func (c *compiler) render(expr, where string) (string, []colRef, error) {
	expr, err := expandFunctions(expr, c.d, where)
	if err != nil {
		return "", nil, err
	}
	var bad error
	out, refs := rewriteRefs(expr, c.names(), false, func(r colRef) string {
		e := c.m.Entity(r.Entity)
		col := e.Column(r.Column)
		if col == nil {
			if bad == nil {
				bad = quarry.Errorf(quarry.KindConfig, "%s refers to %s.%s, which is not a column of %s; fix it in the knowledge folder", where, r.Entity, r.Column, e.Name)
			}
			return r.String()
		}
		return c.col(colRef{e.Name, col.Name})
	})
	if bad != nil {
		return "", nil, bad
	}
	for i, r := range refs {
		e := c.m.Entity(r.Entity)
		refs[i] = colRef{e.Name, e.Column(r.Column).Name}
		if err := c.checkPolicy(refs[i]); err != nil {
			return "", nil, err
		}
	}
	return out, refs, nil
}

func (c *compiler) checkPolicy(r colRef) error {
	if c.m.IsRestricted(r.Entity, r.Column) {
		return quarry.Errorf(quarry.KindForbidden, "column %s is restricted by policy: quarry does not select, filter, sort or aggregate it", r)
	}
	return nil
}

// metricEntity is the entity a metric aggregates over: Entity, or the first
// entity its expression reads.
func (c *compiler) metricEntity(mt *Metric) (string, error) {
	if mt.Entity != "" {
		e := c.m.Entity(mt.Entity)
		if e == nil {
			return "", quarry.Errorf(quarry.KindConfig, "metric %s belongs to entity %q, which the semantic model does not define", mt.Name, mt.Entity)
		}
		return e.Name, nil
	}
	_, refs := rewriteRefs(mt.Expr, c.names(), false, nil)
	if len(refs) == 0 {
		return "", quarry.Errorf(quarry.KindConfig, "metric %s names no entity and its expression reads no entity.column; set its entity", mt.Name)
	}
	return c.m.Entity(refs[0].Entity).Name, nil
}

// timeRef is the metric's time axis.
func (c *compiler) timeRef(mt *Metric) (colRef, error) {
	e, col := c.m.timeColumn(mt)
	if e == "" {
		return colRef{}, quarry.Errorf(quarry.KindInput, "metric %s has no time dimension, so it cannot be cut by time or by period; set time on the metric or time_column on its entity", mt.Name)
	}
	_, refs, err := c.render(Ref(e, col), "the time dimension of metric "+mt.Name)
	if err != nil {
		return colRef{}, err
	}
	if len(refs) != 1 {
		return colRef{}, quarry.Errorf(quarry.KindConfig, "metric %s has time %q, which is not an entity.column; fix it in the knowledge folder", mt.Name, e+"."+col)
	}
	return refs[0], nil
}

// bases expands metric names into the base (non-derived) metrics they
// need, in first-use order.
func (c *compiler) bases(names []string, out *[]*Metric, seen map[string]bool, depth int) error {
	if depth > 32 {
		return quarry.Errorf(quarry.KindConfig, "derived metrics refer to each other in a cycle; fix them in the knowledge folder")
	}
	for _, n := range names {
		mt := c.m.Metric(n)
		if mt == nil {
			return quarry.Errorf(quarry.KindInput, "unknown metric %q", n)
		}
		if mt.Derived != "" {
			if err := c.bases(DerivedRefs(mt.Derived), out, seen, depth+1); err != nil {
				return err
			}
			continue
		}
		if mt.Expr == "" {
			return quarry.Errorf(quarry.KindConfig, "metric %s has neither expr nor derived; fix it in the knowledge folder", mt.Name)
		}
		if !seen[mt.Name] {
			seen[mt.Name] = true
			*out = append(*out, mt)
		}
	}
	return nil
}

// filterSQL renders "x op values", x being a field over refs; "not X"
// keeps the rows whose x is NULL (OrNull).
func (c *compiler) filterSQL(x string, refs []colRef, f Filter) (string, error) {
	return c.filterSQLNulls(x, refs, f, true)
}

// filterSQLNulls is filterSQL, "not X" keeping the rows whose x is NULL
// only if nulls.
func (c *compiler) filterSQLNulls(x string, refs []colRef, f Filter, nulls bool) (string, error) {
	orNull := func(cond string) string {
		if nulls {
			return OrNull(x, cond)
		}
		return cond
	}
	if f.Against != "" {
		return c.againstSQL(x, refs, f)
	}
	n := len(f.Values)
	lits := make([]string, n)
	for i, v := range f.Values {
		l, err := c.d.literal(v)
		if err != nil {
			return "", err
		}
		lits[i] = l
	}
	if c.boolField(f.Field, refs) {
		// A yes/no column's values are known as true and false, and
		// stored as 1 and 0 (SQLite, MySQL) or as a boolean: 'true' as
		// text matches no row of the first two (found from outside:
		// "how many menu items are discontinued" answered 0 of 7).
		for i, v := range f.Values {
			if l, ok := BoolLiteral(v); ok {
				lits[i] = l
			}
		}
	}
	want := func(k int) error {
		if n != k {
			return quarry.Errorf(quarry.KindInput, "filter on %s with %q takes %d value(s), got %d", f.Field, f.Op, k, n)
		}
		return nil
	}
	switch f.Op {
	case OpEq, OpNe:
		if n > 1 {
			op := OpIn
			if f.Op == OpNe {
				op = OpNotIn
			}
			return c.filterSQLNulls(x, refs, Filter{Field: f.Field, Op: op, Values: f.Values}, nulls)
		}
		if err := want(1); err != nil {
			return "", err
		}
		if f.Op == OpNe {
			return orNull(x + " <> " + lits[0]), nil
		}
		return x + " = " + lits[0], nil
	case OpLt, OpLe, OpGt, OpGe:
		if err := want(1); err != nil {
			return "", err
		}
		if f.OrNull {
			return OrNull(x, x+" "+string(f.Op)+" "+lits[0]), nil
		}
		return x + " " + string(f.Op) + " " + lits[0], nil
	case OpIn, OpNotIn:
		if n == 0 {
			return "", quarry.Errorf(quarry.KindInput, "filter on %s with %q needs at least one value", f.Field, f.Op)
		}
		if f.Op == OpNotIn {
			return orNull(x + " NOT IN (" + strings.Join(lits, ", ") + ")"), nil
		}
		return x + " IN (" + strings.Join(lits, ", ") + ")", nil
	case OpLike, OpPrefix, OpSuffix:
		if err := want(1); err != nil {
			return "", err
		}
		s, ok := f.Values[0].(string)
		if !ok {
			return "", quarry.Errorf(quarry.KindInput, "filter on %s with %s needs a text value", f.Field, f.Op)
		}
		before, after := "%", "%"
		switch f.Op {
		case OpPrefix:
			before = ""
		case OpSuffix:
			after = ""
		}
		return c.d.likeText(x, before, s, after), nil
	case OpNull, OpNotNull:
		if err := want(0); err != nil {
			return "", err
		}
		if c.textField(f.Field, refs) {
			// Text with nothing in it is empty too: "shipments with no
			// notes" are those whose notes are NULL or '' (found from
			// outside: 116 for 214).
			if f.Op == OpNull {
				return "(" + x + " IS NULL OR " + c.d.d.AsText(x) + " = '')", nil
			}
			return c.d.d.AsText(x) + " <> ''", nil // NULL is neither
		}
		if f.Op == OpNull {
			return x + " IS NULL", nil
		}
		return x + " IS NOT NULL", nil
	}
	return "", quarry.Errorf(quarry.KindInput, "unknown filter operator %q on %s", f.Op, f.Field)
}

// BoolLiteral is the SQL of a boolean column's value as knowledge writes
// it ("true", "false"): TRUE or FALSE, which every engine quarry reads
// compares with its 1 and 0 or its booleans alike; false for any other
// value.
func BoolLiteral(v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		return "", false
	}
	switch strings.ToLower(s) {
	case "true":
		return "TRUE", true
	case "false":
		return "FALSE", true
	}
	return "", false
}

// boolField reports whether a field is one column of the boolean type.
func (c *compiler) boolField(field string, refs []colRef) bool {
	if len(refs) != 1 {
		return false
	}
	if fl, err := c.m.ResolveField(field); err != nil || fl.Kind == FieldMetric {
		return false
	}
	ent := c.m.Entity(refs[0].Entity)
	if ent == nil {
		return false
	}
	col := ent.Column(refs[0].Column)
	return col != nil && col.Type == quarry.TypeBool
}

// textField reports whether a field is a column of text that holds no
// dates, or a dimension over one (refs, its columns): one whose empty
// string is as empty as NULL.
func (c *compiler) textField(field string, refs []colRef) bool {
	if len(refs) != 1 {
		return false
	}
	if fl, err := c.m.ResolveField(field); err != nil || fl.Kind == FieldMetric || fl.Kind == FieldDimension && fl.Dimension != nil && fl.Dimension.Type == "time" {
		return false
	}
	ent := c.m.Entity(refs[0].Entity)
	if ent == nil {
		return false
	}
	col := ent.Column(refs[0].Column)
	return col != nil && col.Type == quarry.TypeText && !col.Temporal()
}

// OrNull keeps, beside the rows cond keeps, those whose x is NULL: "not
// X" is every row that is not X, an empty value included ("orders that
// didn't use WELCOME10" are also those with no code), where SQL's <> and
// NOT IN are neither true nor false on NULL and would drop them (found
// from outside: 1,105 orders where 11,070 did not use the code).
func OrNull(x, cond string) string {
	return "(" + cond + " OR " + x + " IS NULL)"
}

// againstSQL renders "x op (SELECT AGG(x) FROM entity)": the field
// compared with an aggregate of itself over all its entity's rows. The
// subquery names the entity's table again, so x inside it refers to the
// subquery's own rows, not the outer query's.
func (c *compiler) againstSQL(x string, refs []colRef, f Filter) (string, error) {
	agg := map[string]string{"avg": "AVG", "min": "MIN", "max": "MAX"}[f.Against]
	if agg == "" {
		return "", quarry.Errorf(quarry.KindInput, "filter on %s compares against %q; use avg, min or max", f.Field, f.Against)
	}
	switch f.Op {
	case OpLt, OpLe, OpGt, OpGe, OpEq, OpNe:
	default:
		return "", quarry.Errorf(quarry.KindInput, "filter on %s against the %s takes a comparison (<, <=, >, >=, =, !=), not %q", f.Field, f.Against, f.Op)
	}
	if len(f.Values) > 0 {
		return "", quarry.Errorf(quarry.KindInput, "filter on %s against the %s takes no values", f.Field, f.Against)
	}
	if len(refs) == 0 {
		return "", quarry.Errorf(quarry.KindInput, "filter on %s cannot compare against the %s: it is not a column", f.Field, f.Against)
	}
	for _, r := range refs[1:] {
		if !strings.EqualFold(r.Entity, refs[0].Entity) {
			return "", quarry.Errorf(quarry.KindInput, "filter on %s cannot compare against the %s: it reads more than one table", f.Field, f.Against)
		}
	}
	op := string(f.Op)
	if f.Op == OpNe {
		op = "<>"
	}
	where := ""
	if w := c.window; w != nil {
		// The aggregate of the rows in the query's period, as the rows
		// compared are (found from outside: the average salary took in
		// the people hired after the as-of day that the count left out).
		if wf, err := c.m.ResolveField(w.Field); err == nil && wf.Kind == FieldColumn && strings.EqualFold(wf.Entity.Name, refs[0].Entity) {
			t := c.col(colRef{wf.Entity.Name, wf.Column.Name})
			var cs []string
			if w.From != "" {
				cs = append(cs, t+" >= "+c.d.str(w.From))
			}
			if w.To != "" {
				cs = append(cs, t+" < "+c.d.str(w.To))
			}
			where = " WHERE " + strings.Join(cs, " AND ")
		}
	}
	return x + " " + op + " (SELECT " + agg + "(" + x + ") FROM " + c.tableRef(refs[0].Entity) + where + ")", nil
}

// windowOf is q's period on one date of the rows it reads: its time range
// where it names its field, else on the date of its one metric; nil where
// it has none.
func windowOf(m *Model, q Query) *TimeRange {
	tr := q.TimeRange
	if tr == nil || tr.From == "" && tr.To == "" {
		return nil
	}
	if tr.Field != "" {
		return tr
	}
	if len(q.Metrics) != 1 {
		return nil
	}
	mt := m.Metric(q.Metrics[0])
	if mt == nil {
		return nil
	}
	field := m.MetricTime(mt)
	if field == "" {
		return nil
	}
	return &TimeRange{Field: field, From: tr.From, To: tr.To}
}

// fieldExpr renders a dimension or entity column used as a field.
func (c *compiler) fieldExpr(f Field) (string, []colRef, error) {
	switch f.Kind {
	case FieldDimension:
		return c.render(f.Dimension.Expr, "dimension "+f.Dimension.Name)
	case FieldColumn:
		r := colRef{f.Entity.Name, f.Column.Name}
		if err := c.checkPolicy(r); err != nil {
			return "", nil, err
		}
		return c.col(r), []colRef{r}, nil
	}
	return "", nil, quarry.Errorf(quarry.KindInput, "%s is a metric, not a dimension or column", f.Name())
}

func isGrain(s string) bool {
	switch Grain(s) {
	case GrainDay, GrainWeek, GrainMonth, GrainQuarter, GrainYear, GrainDayOfWeek, GrainPartOfWeek:
		return true
	}
	return false
}

// grainColumn is the output column of a grouping at grain g: a date, or
// for the day of the week its name.
func grainColumn(name string, g Grain) OutColumn {
	if g.Cyclic() {
		return OutColumn{Name: name, Role: RoleDimension, Grain: g}
	}
	return OutColumn{Name: name, Role: RoleDimension, Format: "date", Grain: g}
}

// dims resolves the requested dimensions.
func (c *compiler) dims(q Query) ([]dimSpec, error) {
	var out []dimSpec
	if len(q.Compare) > 0 {
		for _, p := range q.Compare {
			if p.Label == "" || p.From == "" || p.To == "" {
				return nil, quarry.Errorf(quarry.KindInput, "every compared period needs a label, a from and a to date")
			}
		}
		out = append(out, dimSpec{out: OutColumn{Name: "period", Role: RolePeriod}, periods: q.Compare, ref: "period"})
	}
	for _, dr := range q.Dimensions {
		if dr.Grain != "" && !isGrain(string(dr.Grain)) {
			return nil, quarry.Errorf(quarry.KindInput, "unknown time grain %q; use day, week, month, quarter, year, day_of_week or part_of_week", dr.Grain)
		}
		name := dr.Name
		if (name == "" || name == "time" || isGrain(name)) && c.m.Dimension(name) == nil {
			g := dr.Grain
			if g == "" {
				g = Grain(name)
			}
			if !isGrain(string(g)) {
				return nil, quarry.Errorf(quarry.KindInput, "a time dimension needs a grain: day, week, month, quarter or year")
			}
			out = append(out, dimSpec{out: grainColumn(string(g), g), perMetric: true, ref: name})
			continue
		}
		f, err := c.m.ResolveField(name)
		if err != nil {
			return nil, err
		}
		x, refs, err := c.fieldExpr(f)
		if err != nil {
			return nil, err
		}
		oc := OutColumn{Role: RoleDimension}
		alt := ""
		if f.Kind == FieldDimension {
			oc.Name = f.Dimension.Name
		} else {
			oc.Name, alt = f.Column.Name, f.Entity.Name+"_"+f.Column.Name
		}
		if dr.Grain == "" && f.Kind == FieldDimension && f.Dimension.Type == "time" {
			// A raw timestamp is no useful group; a time dimension asked
			// for without a grain is cut by day.
			dr.Grain = GrainDay
		}
		if dr.Grain != "" {
			if x, err = c.d.grain(dr.Grain, x); err != nil {
				return nil, err
			}
			oc.Grain, oc.Format = dr.Grain, grainColumn("", dr.Grain).Format
		} else if len(dr.Spellings) > 0 {
			if x, err = c.spelledAsOne(x, dr.Spellings); err != nil {
				return nil, err
			}
		}
		out = append(out, dimSpec{out: oc, expr: x, refs: refs, alt: alt, ref: name})
	}
	// Output names must be unique; qualify clashing column names.
	for i := range out {
		for j := range i {
			if out[j].out.Name == out[i].out.Name && out[i].alt != "" {
				out[i].out.Name = out[i].alt
			}
			if out[j].out.Name == out[i].out.Name {
				return nil, quarry.Errorf(quarry.KindInput, "dimension %s is asked for twice", out[i].out.Name)
			}
		}
	}
	return out, nil
}

// dimFor renders dimension ds for metric mt.
func (c *compiler) dimFor(ds dimSpec, mt *Metric) (string, []colRef, error) {
	if !ds.perMetric && ds.periods == nil {
		return ds.expr, ds.refs, nil
	}
	t, err := c.timeRef(mt)
	if err != nil {
		return "", nil, err
	}
	x := c.col(t)
	if ds.perMetric {
		g, err := c.d.grain(ds.out.Grain, x)
		return g, []colRef{t}, err
	}
	var b strings.Builder
	b.WriteString("CASE")
	for _, p := range ds.periods {
		fmt.Fprintf(&b, " WHEN %s >= %s AND %s < %s THEN %s", x, c.d.str(p.From), x, c.d.str(p.To), c.d.str(p.Label))
	}
	b.WriteString(" END")
	return b.String(), []colRef{t}, nil
}

// periodsCond restricts a metric's time axis to the union of the periods.
func (c *compiler) periodsCond(mt *Metric, periods []Period) (cond, error) {
	t, err := c.timeRef(mt)
	if err != nil {
		return cond{}, err
	}
	x := c.col(t)
	parts := make([]string, len(periods))
	for i, p := range periods {
		parts[i] = fmt.Sprintf("%s >= %s AND %s < %s", x, c.d.str(p.From), x, c.d.str(p.To))
	}
	s := parts[0]
	if len(parts) > 1 {
		s = "((" + strings.Join(parts, ") OR (") + "))"
	}
	return cond{sql: s, refs: []colRef{t}}, nil
}

// rangeConds renders the query's time range for metric mt.
func (c *compiler) rangeConds(mt *Metric, tr *TimeRange) ([]cond, error) {
	if tr == nil || tr.From == "" && tr.To == "" {
		return nil, nil
	}
	var x string
	var refs []colRef
	if tr.Field == "" {
		t, err := c.timeRef(mt)
		if err != nil {
			return nil, err
		}
		x, refs = c.col(t), []colRef{t}
	} else {
		f, err := c.m.ResolveField(tr.Field)
		if err != nil {
			return nil, err
		}
		if x, refs, err = c.fieldExpr(f); err != nil {
			return nil, err
		}
	}
	var out []cond
	if tr.From != "" {
		out = append(out, cond{sql: x + " >= " + c.d.str(tr.From), refs: refs})
	}
	if tr.To != "" {
		out = append(out, cond{sql: x + " < " + c.d.str(tr.To), refs: refs})
	}
	return out, nil
}

// itoa is strconv.Itoa, named for the SQL builders.
func itoa(n int) string { return strconv.Itoa(n) }

// spelledAsOne groups the spellings of each value as one: "CASE WHEN x IN
// ('Chicago', 'chicago') THEN 'Chicago' … ELSE x END", in the SELECT and
// the GROUP BY alike.
func (c *compiler) spelledAsOne(x string, groups [][]string) (string, error) {
	var b strings.Builder
	b.WriteString("CASE")
	for _, g := range groups {
		if len(g) < 2 {
			return "", quarry.Errorf(quarry.KindInput, "a group of spellings holds two or more values, got %q", g)
		}
		lits := make([]string, len(g))
		for i, v := range g {
			if !SameSpelling(v, g[0]) {
				return "", quarry.Errorf(quarry.KindInput, "%q and %q are not one value in two spellings (they differ in more than case and the spaces around them)", g[0], v)
			}
			lits[i] = c.d.str(v)
		}
		fmt.Fprintf(&b, " WHEN %s IN (%s) THEN %s", x, strings.Join(lits, ", "), lits[0])
	}
	b.WriteString(" ELSE " + x + " END")
	return b.String(), nil
}
