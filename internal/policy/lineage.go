package policy

import (
	"maps"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Query is one query's scope as a dialect's parser reads it: the relations
// in its FROM clause, the column references in its own expressions (every
// clause: select list, WHERE, GROUP BY, HAVING, ORDER BY, join conditions,
// window definitions, function arguments), and the queries nested in it.
// The dialect readers (pg.go, mysql.go) build it; check resolves it.
type Query struct {
	With     []*CTE    // WITH items, visible to this query and everything in it
	Sources  []*Source // FROM items, joins flattened, in order
	Refs     []Ref     // column references in this query's own expressions
	Subs     []*Query  // queries nested in expressions: they see this query's sources
	Branches []*Query  // set-operation branches; Refs then name output columns
	Explain  bool      // the statement is an EXPLAIN of this query (set on the outermost query)
}

// CTE is one WITH item.
type CTE struct {
	Name  string
	Query *Query
	// Recursive: the item is in a WITH RECURSIVE, so its query sees its
	// own name. In a plain WITH the name in its own query is the
	// relation of that name (MySQL, MariaDB and PostgreSQL alike).
	Recursive bool
}

// Source is one FROM item.
type Source struct {
	Schema, Table string   // a named relation: a table, a view or a CTE
	Alias         string   // the name the query knows it by; "" = its table name
	Columns       []string // an alias's column list, AS a(x, y, …): renames the relation's columns by position
	Derived       *Query   // a subquery in FROM (also LATERAL)
	Func          bool     // a table function: its columns are its own
	Natural       bool     // joined to the sources before it by NATURAL JOIN
	Members       []int    // an aliased join: the indexes in Sources of the relations it joins
	Hinted        bool     // an index hint or a partition selection (MySQL's FORCE INDEX, PARTITION (p)) names how to read it
	Using         []string // joined to the sources before it by USING (...)
	Pos           int
}

// name is the name the query knows s by.
func (s *Source) name() string {
	if s.Alias != "" {
		return s.Alias
	}
	return s.Table
}

// Ref is one column reference: qualifier parts then the column's name, or
// for a star only the qualifier (none for a bare *).
type Ref struct {
	Parts []string
	Star  bool
	Pos   int
}

// relation is what the checker knows of a base relation a query reads.
type relation struct {
	table string            // as the catalog or the statement spells it
	cols  map[string]string // restricted columns: lower name → "table.column"
	all   bool              // every column counts as restricted (a view over restricted data)
	known map[string]bool   // the relation's columns per the catalog; nil = unknown
	sys   bool              // a system catalog relation: its other columns are not in the catalog, and are clean
}

func (r *relation) restricted() bool { return r != nil && (r.all || len(r.cols) > 0) }

// some returns the restricted columns of r for a message.
func (r *relation) some() []string {
	if r.all {
		return []string{r.table + ".*"}
	}
	var out []string
	for _, c := range r.cols {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// level is one scope: the sources of one query, by the names it knows them.
type level struct {
	srcs []*scoped
}

type scoped struct {
	src *Source
	rel *relation // non-nil for base relations
}

// checker resolves one statement's tree against the policy and a catalog.
type checker struct {
	c   *Checker
	err *Refusal
}

func (k *checker) fail(r *Refusal) {
	if k.err == nil {
		k.err = r
	}
}

// query checks q, seen from the scopes outer (innermost last) with the CTE
// names ctes in reach.
func (k *checker) query(q *Query, outer []*level, ctes []map[string]bool) {
	if q == nil || k.err != nil {
		return
	}
	if len(q.With) > 0 {
		names := map[string]bool{}
		ctes = append(ctes[:len(ctes):len(ctes)], names)
		for _, w := range q.With {
			if w.Recursive {
				names[strings.ToLower(w.Name)] = true
			}
			k.query(w.Query, outer, ctes)
			names[strings.ToLower(w.Name)] = true
		}
	}
	for _, b := range q.Branches {
		k.query(b, outer, ctes)
	}
	lv := &level{}
	scopes := append(outer[:len(outer):len(outer)], lv)
	for _, s := range q.Sources {
		sc := &scoped{src: s}
		switch {
		case s.Derived != nil:
			// LATERAL subqueries see the sources before them; others do
			// not, but seeing more only makes resolution stricter.
			k.query(s.Derived, scopes, ctes)
		case s.Func:
		case len(s.Members) > 0:
			sc.rel = joined(lv, s.Members)
			if len(s.Columns) > 0 && sc.rel.restricted() {
				// AS j(a, b, …) renames the join's columns by position.
				k.fail(unknownRefusal(sc.rel.table, sc.rel.some(), s.Pos, "the join's alias "+s.Alias+"(…) renames its columns, restricted ones among them"))
			}
		case s.Table != "" && s.Schema == "" && inCTE(ctes, s.Table):
		case s.Table != "":
			sc.rel = k.c.relation(s.Schema, s.Table, s.Columns, s.Pos, k)
			if s.Hinted && sc.rel.restricted() {
				// FORCE INDEX (salary) hands the rows out in the order of
				// a restricted column without reading a value of it.
				k.fail(readRefusal(sc.rel.some()[0], s.Pos, "an index hint or a PARTITION (…) selection on "+s.Table+", which has restricted columns, can order or filter its rows by one; remove it"))
			}
			if sc.rel.all {
				// A view over a restricted column answers questions about
				// it through any use at all: count(*) of a view that
				// filters on it, EXISTS, an error of a column PostgreSQL
				// computes for a DISTINCT.
				k.fail(readRefusal(sc.rel.some()[0], s.Pos, s.Table+" is a view that reads a restricted column, and any use of it answers questions about that column; query the tables it reads, leaving the restricted column out"))
			}
		}
		lv.srcs = append(lv.srcs, sc)
		if s.Natural {
			k.natural(lv, s.Pos)
		}
		for _, u := range s.Using {
			k.ref(Ref{Parts: []string{u}, Pos: s.Pos}, []*level{lv})
		}
	}
	if len(q.Branches) == 0 {
		for _, r := range q.Refs {
			k.ref(r, scopes)
		}
	}
	for _, sub := range q.Subs {
		k.query(sub, scopes, ctes)
	}
}

// natural checks a NATURAL JOIN of the level's last source with the
// sources before it: it compares every column name the two sides share,
// so a restricted column among them is read. Where a side's columns are
// unknown (a subquery, a function, a table the catalog lacks), any
// restricted column on the other side may be shared.
func (k *checker) natural(lv *level, pos int) {
	right := lv.srcs[len(lv.srcs)-1]
	left := lv.srcs[:len(lv.srcs)-1]
	names := func(s *scoped) map[string]bool {
		if s.rel == nil || s.rel.known == nil {
			return nil
		}
		return s.rel.known
	}
	shared := func(a, b *scoped) {
		if !a.rel.restricted() {
			return
		}
		other := names(b)
		if a.rel.all {
			if other == nil || len(other) > 0 {
				k.fail(unknownRefusal(a.rel.table, a.rel.some(), pos, "NATURAL JOIN compares every column the two sides share"))
			}
			return
		}
		for c, col := range a.rel.cols {
			if other == nil || other[c] {
				k.fail(readRefusal(col, pos, "NATURAL JOIN compares it with the column of the same name on the other side; join with ON or USING on the columns you mean"))
				return
			}
		}
	}
	for _, l := range left {
		shared(l, right)
		shared(right, l)
	}
}

func inCTE(ctes []map[string]bool, name string) bool {
	name = strings.ToLower(name)
	for _, m := range ctes {
		if m[name] {
			return true
		}
	}
	return false
}

// ref checks one column reference seen from scopes (innermost last).
func (k *checker) ref(r Ref, scopes []*level) {
	if k.err != nil {
		return
	}
	if r.Star && len(r.Parts) == 0 {
		// * expands to every column of every source of its own query.
		for _, s := range scopes[len(scopes)-1].srcs {
			if s.rel.restricted() {
				k.fail(readRefusal(s.rel.some()[0], r.Pos, "* reads every column of "+s.rel.table+"; list the columns you need"))
				return
			}
		}
		return
	}
	var qual []string
	col := ""
	if r.Star {
		qual = r.Parts
	} else {
		qual, col = r.Parts[:len(r.Parts)-1], r.Parts[len(r.Parts)-1]
	}
	if len(qual) == 0 {
		k.bare(col, r.Pos, scopes)
		return
	}
	if s := find(scopes, qual[len(qual)-1], qual[:len(qual)-1]); s != nil {
		if !s.rel.restricted() {
			return
		}
		rel := s.rel
		switch {
		case r.Star:
			k.fail(readRefusal(rel.some()[0], r.Pos, qual[len(qual)-1]+".* reads every column of "+rel.table+"; list the columns you need"))
		case rel.all:
			k.fail(readRefusal(rel.some()[0], r.Pos, rel.table+" is a view over restricted columns"))
		case rel.cols[strings.ToLower(col)] != "":
			k.fail(readRefusal(rel.cols[strings.ToLower(col)], r.Pos, "named as "+strings.Join(r.Parts, ".")))
		case strings.EqualFold(col, "tableoid") && !rel.sys:
			k.fail(readRefusal(rel.some()[0], r.Pos, "tableoid says which partition or child table a row is in, and a table partitioned by a restricted column sorts its rows by it"))
		case rel.known == nil && rel.sys:
		case rel.known == nil:
			k.fail(unknownRefusal(rel.table, rel.some(), r.Pos, "its columns are not in quarry's catalog"))
		case !rel.known[strings.ToLower(col)]:
			// t.f where f is not a column of t is f(t): a call on the
			// whole row.
			k.fail(readRefusal(rel.some()[0], r.Pos, strings.Join(r.Parts, ".")+" is not a column of "+rel.table+", so PostgreSQL reads it as a function of the whole row"))
		}
		return
	}
	// The qualifier names no source in reach (a composite field, an outer
	// name the reader did not see): decide by the names alone, and a star
	// by every source in reach.
	if r.Star {
		for i := len(scopes) - 1; i >= 0; i-- {
			for _, s := range scopes[i].srcs {
				if s.rel.restricted() {
					k.fail(unknownRefusal(s.rel.table, s.rel.some(), r.Pos, strings.Join(qual, ".")+".* names no table quarry can resolve"))
					return
				}
			}
		}
	}
	for _, p := range r.Parts {
		k.bare(p, r.Pos, scopes)
	}
}

// bare checks an unqualified name: a column of some source in reach, or
// (in PostgreSQL) a whole-row reference to a source.
func (k *checker) bare(name string, pos int, scopes []*level) {
	if name == "" || k.err != nil {
		return
	}
	ln := strings.ToLower(name)
	for i := len(scopes) - 1; i >= 0; i-- {
		for _, s := range scopes[i].srcs {
			if !s.rel.restricted() {
				continue
			}
			rel := s.rel
			if strings.EqualFold(s.src.name(), name) && (rel.known == nil || !rel.known[ln]) {
				k.fail(readRefusal(rel.some()[0], pos, name+" is the whole row of "+rel.table))
				return
			}
			if c := rel.cols[ln]; c != "" {
				k.fail(readRefusal(c, pos, "named as "+name))
				return
			}
			if ln == "tableoid" && !rel.sys {
				k.fail(readRefusal(rel.some()[0], pos, "tableoid says which partition or child table a row is in, and a table partitioned by a restricted column sorts its rows by it"))
				return
			}
			if rel.all && (rel.known == nil || rel.known[ln]) {
				k.fail(readRefusal(rel.some()[0], pos, rel.table+" is a view over restricted columns"))
				return
			}
		}
	}
}

// joined merges the relations of an aliased join's members: the alias
// reads what they read.
func joined(lv *level, members []int) *relation {
	rel := &relation{cols: map[string]string{}, known: map[string]bool{}}
	var names []string
	for _, i := range members {
		if i < 0 || i >= len(lv.srcs) {
			continue
		}
		m := lv.srcs[i].rel
		if m == nil {
			continue
		}
		names = append(names, m.table)
		for c, s := range m.cols {
			rel.cols[c] = s
		}
		rel.all = rel.all || m.all
		if m.known == nil {
			rel.known = nil
		} else if rel.known != nil {
			for c := range m.known {
				rel.known[c] = true
			}
		}
	}
	rel.table = strings.Join(names, " JOIN ")
	return rel
}

// find returns the source a qualifier names, innermost scope first: its
// alias, or its table name when it has none (with the schema, when the
// qualifier gives one).
func find(scopes []*level, name string, schema []string) *scoped {
	for i := len(scopes) - 1; i >= 0; i-- {
		for _, s := range scopes[i].srcs {
			if !strings.EqualFold(s.src.name(), name) {
				continue
			}
			if len(schema) > 0 && s.src.Alias == "" && s.src.Schema != "" && !strings.EqualFold(schema[len(schema)-1], s.src.Schema) {
				continue
			}
			return s
		}
	}
	return nil
}

// Checker decides statements for one connection: a policy and the
// connection's catalog. It is immutable and safe for concurrent use.
type Checker struct {
	p       *Policy
	cat     *quarry.Catalog
	dialect quarry.Dialect
	views   map[string]*viewReads // lower view name → what it reads; filled by For
	sys     systemRelations
}

// viewReads is what a view reads, from the engine's dependency catalog or
// its definition.
type viewReads struct {
	restricted string // the first restricted column it reads, "" = none
	unknown    bool   // what it reads could not be determined
}

// For returns the checker of statements on a connection whose schema is
// cat (nil when it could not be read: then every relation is unknown and
// statements that read any are refused while the policy restricts
// something).
func (p *Policy) For(d quarry.Dialect, cat *quarry.Catalog) *Checker {
	c := &Checker{p: p, cat: cat, dialect: d, views: map[string]*viewReads{}, sys: systemFor(d)}
	if cat != nil {
		for i := range cat.Tables {
			if t := &cat.Tables[i]; t.View && !c.p.Empty() {
				c.viewStatus(t)
			}
		}
	}
	return c
}

// Policy returns the checker's policy.
func (c *Checker) Policy() *Policy { return c.p }

// relation resolves a base relation for the check, refusing (through k)
// relations whose reads cannot be bounded.
func (c *Checker) relation(schema, table string, aliases []string, pos int, k *checker) *relation {
	rel := &relation{table: table, cols: map[string]string{}}
	if cs := c.p.cols[strings.ToLower(table)]; cs != nil {
		for lc, s := range cs {
			rel.cols[lc] = s
		}
	}
	if schema != "" && c.sys.system(schema, table) {
		return c.systemRelation(rel, table, pos, k)
	}
	cands := c.cat.Lookup(schema, table)
	var info *quarry.TableInfo
	if len(cands) > 0 {
		info = cands[0]
	}
	for _, t := range cands {
		// A child table (PostgreSQL's INHERITS) holds rows of its
		// parent's restricted columns.
		for _, parent := range c.ancestors(t) {
			for lc, s := range c.p.cols[strings.ToLower(parent)] {
				rel.cols[lc] = s
			}
		}
	}
	// A generated column computed from a restricted column carries its
	// values (salary * 2): it is restricted too. Without the columns its
	// expression reads, a generated column of a table with restricted
	// columns counts as reading them.
	if len(rel.cols) > 0 {
		base := maps.Clone(rel.cols)
		for _, t := range cands {
			for _, col := range t.Columns {
				if !col.Generated {
					continue
				}
				from := col.GeneratedFrom
				if from == nil {
					from = slices.Sorted(maps.Keys(base))
				}
				for _, f := range from {
					if s := base[strings.ToLower(f)]; s != "" {
						rel.cols[strings.ToLower(col.Name)] = t.Name + "." + col.Name + ", generated from " + s
						break
					}
				}
			}
		}
	}
	if info == nil && c.sys.system("", table) {
		return c.systemRelation(rel, table, pos, k)
	}
	if info == nil {
		if rel.restricted() && len(aliases) > 0 {
			k.fail(unknownRefusal(table, rel.some(), pos, "the alias's column list renames its columns, and the catalog does not say in which order they are"))
		}
		if !rel.restricted() {
			k.fail(&Refusal{Column: table + ".*", Pos: pos, Msg: "quarry's catalog of the connection does not list " + table + ", so it cannot tell whether it exposes columns the policy restricts; query the tables quarry knows, or run quarry learn to refresh the catalog"})
		}
		return rel
	}
	rel.table = info.Name
	// The name may reach more than one relation (the same name in two
	// schemas, without a search path to choose): a column is known only
	// when every one has it, and any of them restricts.
	rel.known = columns(info)
	for _, o := range cands[1:] {
		other := columns(o)
		for col := range rel.known {
			if !other[col] {
				delete(rel.known, col)
			}
		}
		if o.View {
			if v := c.viewStatus(o); v.restricted != "" || v.unknown {
				rel.all = true
			}
		}
	}
	if len(cands) > 1 && len(aliases) > 0 && (rel.restricted() || rel.all) {
		k.fail(unknownRefusal(table, rel.some(), pos, "the name reaches more than one relation and the alias's column list renames their columns by position"))
	}
	if info.View {
		// A view that reads a restricted column anywhere is restricted as
		// a whole: deciding it column by column would not hold, because
		// the engine may compute a column nobody selected (a DISTINCT, a
		// window, an OFFSET keeps the view from being flattened) and its
		// errors quote the value, and a window or ORDER BY on the column
		// orders the clean columns by it.
		if v := c.viewStatus(info); v.restricted != "" || v.unknown {
			rel.all = true
		}
	}
	if len(aliases) > 0 {
		// FROM t AS a(x, y, …) renames t's columns in their order: the
		// restricted ones are known by their new names from here on.
		renamed := map[string]string{}
		rel.known = map[string]bool{}
		for i, col := range info.Columns {
			name := col.Name
			if i < len(aliases) {
				name = aliases[i]
			}
			rel.known[strings.ToLower(name)] = true
			if s := rel.cols[strings.ToLower(col.Name)]; s != "" {
				renamed[strings.ToLower(name)] = s
			}
		}
		rel.cols = renamed
	}
	return rel
}

// columns returns a relation's column names, lower case.
func columns(t *quarry.TableInfo) map[string]bool {
	out := make(map[string]bool, len(t.Columns))
	for _, col := range t.Columns {
		out[strings.ToLower(col.Name)] = true
	}
	return out
}

// ancestors returns the tables t inherits from, by name, transitively.
func (c *Checker) ancestors(t *quarry.TableInfo) []string {
	var out []string
	seen := map[string]bool{strings.ToLower(t.Name): true}
	queue := append([]string(nil), t.Parents...)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[strings.ToLower(p)] {
			continue
		}
		seen[strings.ToLower(p)] = true
		out = append(out, p)
		for _, pt := range c.cat.Lookup("", p) {
			queue = append(queue, pt.Parents...)
		}
	}
	return out
}

// systemRelation resolves a system catalog relation: readable, unless it
// holds sample values of user columns.
func (c *Checker) systemRelation(rel *relation, table string, pos int, k *checker) *relation {
	rel.sys = true
	for _, col := range c.sys.textColumns(table) {
		rel.cols[col] = table + "." + col + " (definitions whose literals can copy restricted values)"
	}
	for _, col := range c.sys.countColumns(table) {
		rel.cols[col] = table + "." + col + " (row and page counts: a partial index or a partition on a restricted column counts the rows that meet a condition on it)"
	}
	for _, col := range c.sys.keyColumns(table) {
		rel.cols[col] = table + "." + col + " (the last value a sequence or an AUTO_INCREMENT counter handed out: the largest value of its key, which can be a restricted column)"
	}
	if c.sys.exposesValues(table) {
		k.fail(&Refusal{Column: table + ".*", Pos: pos, Msg: "the statement reads " + table + ", whose statistics hold sample values of every column, restricted ones included; quarry does not read it while the policy restricts columns"})
	}
	if c.sys.countsRows(table) {
		k.fail(&Refusal{Column: table + ".*", Pos: pos, Msg: "the statement reads " + table + ", whose counters count rows and pages of each relation, and a partial index or a partition on a restricted column counts the rows that meet a condition on it; quarry does not read the statistics views while the policy restricts columns"})
	}
	return rel
}

// viewStatus decides what the view t reads: from the engine's dependency
// catalog when the connector read it, else from its definition, else
// nothing is known and the view counts as restricted. Views over views
// are followed; a cycle counts as unknown.
func (c *Checker) viewStatus(t *quarry.TableInfo) *viewReads {
	name := strings.ToLower(t.Name)
	if v := c.views[name]; v != nil {
		return v
	}
	// While the view is being decided it counts as unknown: a cycle
	// through it is refused.
	c.views[name] = &viewReads{unknown: true}
	v := &viewReads{}
	// PostgreSQL's pg_depend names the columns a view reads, but not a
	// whole-row reference next to a column of the same table (SELECT c.id,
	// c AS whole records only id): the definition decides as well.
	if t.ReadsKnown {
		for _, r := range t.Reads {
			if r.Column == "" && len(c.p.cols[strings.ToLower(r.Table)]) > 0 {
				v.restricted = c.p.Columns(r.Table)[0]
			} else if c.p.Restricted(r.Table, r.Column) {
				v.restricted = c.p.cols[strings.ToLower(r.Table)][strings.ToLower(r.Column)]
			} else if inner := c.cat.Table(r.Table); inner != nil && inner.View && !strings.EqualFold(inner.Name, t.Name) {
				if iv := c.viewStatus(inner); iv.restricted != "" || iv.unknown {
					*v = *iv
				}
			}
			if v.restricted != "" || v.unknown {
				break
			}
		}
	}
	switch {
	case v.restricted != "" || v.unknown:
	case t.Definition != "":
		if q, err := read(c.dialect, t.Definition); err != nil {
			v.unknown = true
		} else {
			k := &checker{c: c}
			k.query(q, nil, nil)
			if k.err != nil {
				v.restricted = k.err.Column
			}
		}
	case !t.ReadsKnown:
		v.unknown = true
	}
	c.views[name] = v
	return v
}

// Check returns the refusal of sql in dialect d, or nil when the statement
// reads no restricted column. A statement the dialect's reader cannot
// parse is refused while the policy restricts something (the guard reports
// the syntax error first in practice).
func (c *Checker) Check(d quarry.Dialect, sql string) *Refusal {
	if c == nil || c.p.Empty() {
		return nil
	}
	q, err := read(d, sql)
	if err != nil {
		return &Refusal{Column: strings.Join(c.p.Tables(), ", "), Msg: "quarry cannot analyse which columns the statement reads (" + err.Error() + "), and the policy restricts columns of " + strings.Join(c.p.Tables(), ", ") + "; rewrite it as a plain SELECT that names its columns"}
	}
	if q.Explain {
		return explainRefusal(c.p)
	}
	k := &checker{c: c}
	k.query(q, nil, nil)
	return k.err
}

// explainRefusal refuses an EXPLAIN while the policy restricts columns. A
// plan's row estimates answer questions about restricted values even when
// the statement reads none: each partition of a table partitioned by a
// restricted column, each partial index on one, gets an estimate of the
// rows that meet a condition on it (EXPLAIN SELECT id FROM staff shows
// staff_low rows=49, the rows with pay < 100000).
func explainRefusal(p *Policy) *Refusal {
	return &Refusal{Column: "EXPLAIN", Msg: "not allowed: EXPLAIN while the policy restricts columns of " + strings.Join(p.Tables(), ", ") + " (a plan's row estimates, per partition or partial index, count the rows that meet conditions on restricted columns); run the statement itself"}
}
