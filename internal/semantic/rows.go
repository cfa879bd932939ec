package semantic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// defaultColumns are the columns a rows query lists when it names none:
// the label first, then every column that is neither a key nor restricted.
func (m *Model) defaultColumns(e *Entity) []string {
	keys := map[string]bool{strings.ToLower(e.PrimaryKey): true}
	for _, r := range m.Relationships {
		if strings.EqualFold(r.From, e.Name) {
			keys[strings.ToLower(r.FromColumn)] = true
		}
		if strings.EqualFold(r.To, e.Name) && !strings.EqualFold(r.ToColumn, e.PrimaryKey) {
			keys[strings.ToLower(r.ToColumn)] = true
		}
	}
	var out []string
	switch {
	case e.Label != "" && !m.IsRestricted(e.Name, e.Label):
		out = append(out, e.Label)
	case e.PrimaryKey != "" && !m.IsRestricted(e.Name, e.PrimaryKey):
		// Without a label, the key is what names a row.
		out = append(out, e.PrimaryKey)
	}
	for _, c := range e.Columns {
		if keys[strings.ToLower(c.Name)] || strings.EqualFold(c.Name, e.Label) || strings.EqualFold(c.Name, e.PrimaryKey) || m.IsRestricted(e.Name, c.Name) {
			continue
		}
		out = append(out, c.Name)
	}
	return out
}

// rowsField resolves a field of a rows query: a bare column of the entity,
// an entity.column or a dimension.
func (c *compiler) rowsField(e *Entity, ref string) (string, []colRef, string, error) {
	if col := e.Column(ref); col != nil && !strings.Contains(ref, ".") {
		r := colRef{e.Name, col.Name}
		if err := c.checkPolicy(r); err != nil {
			return "", nil, "", err
		}
		return c.col(r), []colRef{r}, col.Name, nil
	}
	f, err := c.m.ResolveField(ref)
	if err != nil {
		return "", nil, "", err
	}
	if f.Kind == FieldMetric {
		return "", nil, "", quarry.Errorf(quarry.KindUnsupported, "a list of %s rows cannot use the metric %s; ask for the metric by %s instead", e.Name, f.Metric.Name, e.Name)
	}
	x, refs, err := c.fieldExpr(f)
	if err != nil {
		return "", nil, "", err
	}
	name := f.Name()
	if f.Kind == FieldColumn {
		name = f.Column.Name
		if f.Entity.Name != e.Name {
			name = f.Entity.Name + "_" + f.Column.Name
		}
	}
	return x, refs, name, nil
}

// compileRows compiles a list of rows of one entity.
func (c *compiler) compileRows(q Query) (*Compiled, error) {
	if len(q.Metrics) > 0 || len(q.Dimensions) > 0 || len(q.Compare) > 0 || q.Share {
		return nil, quarry.Errorf(quarry.KindInput, "a rows query lists rows; it cannot also ask for metrics, dimensions, periods or shares")
	}
	e := c.m.Entity(q.Rows.Entity)
	if e == nil {
		return nil, quarry.Errorf(quarry.KindInput, "unknown entity %q", q.Rows.Entity)
	}
	names := q.Rows.Columns
	if len(names) == 0 {
		names = c.m.defaultColumns(e)
		if len(names) == 0 {
			// Every column restricted or withheld (a view over a
			// restricted one): nothing may be listed (found from
			// outside: SELECT with no columns, a syntax error).
			return nil, quarry.Errorf(quarry.KindForbidden, "every column of %s is restricted by the column policy, so none can be listed; ask for how many there are", e.Name)
		}
	}
	var need []string
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
	var sel []string
	var cols []OutColumn
	label, key := -1, -1
	seen := map[string]bool{}
	for _, n := range names {
		x, refs, name, err := c.rowsField(e, n)
		if err != nil {
			return nil, err
		}
		format := c.m.columnFormat(x, refs)
		if format == FormatCents {
			// Shown as money, named so: price, not price_cents (found from
			// outside: a column of dollars headed cents).
			if short := MinorUnitLess(name); short != name && e.Column(short) == nil && !slices.Contains(names, short) {
				name = short
			}
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		addNeed(refs)
		if len(refs) == 1 && refs[0].Entity == e.Name && x == c.col(refs[0]) && refs[0].Column == name {
			sel = append(sel, x)
		} else {
			sel = append(sel, x+" AS "+c.d.ident(name))
		}
		cols = append(cols, OutColumn{Name: name, Role: RoleColumn, Format: format})
		if len(refs) == 1 && refs[0].Entity == e.Name {
			switch {
			case e.Label != "" && strings.EqualFold(refs[0].Column, e.Label):
				label = len(cols) - 1
			case strings.EqualFold(refs[0].Column, e.PrimaryKey):
				key = len(cols) - 1
			}
		}
	}
	// The column that names each row: the label, else the key.
	switch {
	case label >= 0:
		cols[label].Names = true
	case key >= 0:
		cols[key].Names = true
	}
	var conds []string
	for _, f := range q.Filters {
		if relatedFilter(f) || f.Through != "" {
			render := c.relatedSQL
			if f.Through != "" {
				render = c.throughSQL
			}
			s, _, err := render(e.Name, f)
			if err != nil {
				return nil, err
			}
			conds = append(conds, s)
			continue
		}
		if g, ok := c.m.CycleGrain(f); ok {
			field := f.Field
			if c.m.OwnDate(f) {
				if e.TimeColumn == "" {
					return nil, quarry.Errorf(quarry.KindInput, "%s has no time column to restrict to days of the week; set time_column on the entity or name the field", e.Name)
				}
				field = e.TimeColumn
			}
			x, refs, _, err := c.rowsField(e, field)
			if err != nil {
				return nil, err
			}
			cd, err := c.cycleCond(x, refs, f, g)
			if err != nil {
				return nil, err
			}
			addNeed(refs)
			conds = append(conds, cd.sql)
			continue
		}
		x, refs, _, err := c.rowsField(e, f.Field)
		if err != nil {
			return nil, err
		}
		s, err := c.filterSQL(x, refs, f)
		if err != nil {
			return nil, err
		}
		addNeed(refs)
		conds = append(conds, s)
	}
	if tr := q.TimeRange; tr != nil && (tr.From != "" || tr.To != "") {
		field := tr.Field
		if field == "" {
			if e.TimeColumn == "" {
				return nil, quarry.Errorf(quarry.KindInput, "%s has no time column to restrict to a date range; set time_column on the entity or name the field", e.Name)
			}
			field = e.TimeColumn
		}
		x, refs, _, err := c.rowsField(e, field)
		if err != nil {
			return nil, err
		}
		addNeed(refs)
		if tr.From != "" {
			conds = append(conds, x+" >= "+c.d.str(tr.From))
		}
		if tr.To != "" {
			conds = append(conds, x+" < "+c.d.str(tr.To))
		}
	}
	var order, rank []string
	for _, o := range q.Order {
		x, refs, name, err := c.rowsField(e, o.Field)
		if err != nil {
			return nil, err
		}
		addNeed(refs)
		rank = append(rank, c.d.sortTerm(x, o.Desc))
		if seen[name] {
			x = c.d.ident(name)
		} else if q.Rows.Distinct {
			return nil, quarry.Errorf(quarry.KindInput, "a list of distinct rows can only be sorted by a column it lists; add %s to the columns", o.Field)
		}
		order = append(order, c.d.sortTerm(x, o.Desc))
	}
	if len(order) == 0 {
		// A list has an order of its own: without one the engine returns
		// rows in the order it reads them, which can be the order of an
		// index on a restricted column (MariaDB reads SELECT id FROM
		// employees through KEY(salary)).
		if pk := e.PrimaryKey; pk != "" && !q.Rows.Distinct && !c.m.IsRestricted(e.Name, pk) {
			order = append(order, c.col(colRef{e.Name, pk}))
		} else {
			for i := range sel {
				order = append(order, itoa(i+1))
			}
		}
	}
	plan, err := c.tree(e.Name).plan(need)
	if err != nil {
		return nil, err
	}
	if plan.fanOut {
		return nil, quarry.Errorf(quarry.KindUnsupported, "listing %s rows by a related many-side entity would repeat rows; ask for a metric by %s instead", e.Name, e.Name)
	}
	for _, n := range plan.notes {
		c.note(n)
	}
	c.choose(plan.choices)
	c.join(e.Name, plan)
	var b strings.Builder
	distinct := ""
	if q.Rows.Distinct {
		distinct = "DISTINCT "
	}
	if q.Ties {
		// The rank beside the columns, over the sort's own expressions
		// (a column's name is no expression inside the same SELECT).
		sel = append(slices.Clone(sel), "RANK() OVER (ORDER BY "+strings.Join(rank, ", ")+") AS "+c.d.ident(rankColumn))
		order = nil
	}
	b.WriteString("SELECT " + distinct + strings.Join(sel, ", ") + "\nFROM " + c.tableRef(e.Name))
	for _, s := range plan.steps {
		fmt.Fprintf(&b, "\nLEFT JOIN %s ON %s = %s", c.tableRef(s.to), c.col(colRef{s.to, s.toCol}), c.col(colRef{s.from, s.fromCol}))
	}
	if len(conds) > 0 {
		b.WriteString("\nWHERE " + strings.Join(conds, "\n  AND "))
	}
	if len(order) > 0 {
		b.WriteString("\nORDER BY " + strings.Join(order, ", "))
	}
	sql := b.String()
	switch {
	case q.Ties:
		names := make([]string, len(cols))
		for i, col := range cols {
			names[i] = c.d.ident(col.Name)
		}
		rk := c.d.ident(rankColumn)
		sql = "SELECT " + strings.Join(names, ", ") + "\nFROM (\n" + indent(sql, "  ") + "\n) AS " + c.d.ident("q") +
			"\nWHERE " + rk + " <= " + itoa(q.Limit) + "\nORDER BY " + rk + ", " + strings.Join(names, ", ")
	case q.Limit > 0:
		sql += "\nLIMIT " + itoa(q.Limit)
	}
	return &Compiled{SQL: sql, Columns: cols, Notes: c.notes, FanOutGuarded: c.fanOutGuarded, Choices: c.choices, joined: c.joined}, nil
}
