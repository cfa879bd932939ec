package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// CheckSpellings is the check of a breakdown by a text column whose
// groups include one value in several spellings.
const CheckSpellings = "spelling_variants"

// checkSpellings warns when a breakdown by a text column shows two or
// more groups that differ only in case or in the spaces around them
// ('Electronics', 'electronics', 'ELECTRONICS'): SQL groups them apart,
// so the value's rows are split between them and a ranking or a
// "largest" read from the groups is wrong (found from outside: "packages
// by category" named apparel the largest with 1,256 while electronics had
// 3,576 in three spellings, at 1.00). Groups count as one value where
// they agree on every other grouping column, so that 'Books' in January
// and 'books' in February are not compared; a column whose rows are told
// apart by a key the query also groups by (two customers named 'Ann Lee'
// and 'ann lee') is not checked. Reported only when it warns.
func checkSpellings(in Input) (Check, bool) {
	t := in.Table
	if t == nil || len(t.Rows) < 2 || len(in.MetricColumns) == 0 || len(in.DimensionColumns) == 0 {
		return Check{}, false
	}
	var idx []int
	for _, name := range in.DimensionColumns {
		if i := columnIndex(t, name); i >= 0 {
			idx = append(idx, i)
		}
	}
	var found []string
	for _, i := range idx {
		name := t.Columns[i].Name
		if containsFold(in.KeyedColumns, name) || t.Columns[i].Type.IsNumeric() || t.Columns[i].Type.IsTemporal() {
			continue
		}
		// The spellings of each value, under the same values of the
		// other grouping columns; a value's spellings over all of them.
		spellings := map[string][]string{}
		var order, split []string
		bySame := map[string][]string{}
		for _, r := range t.Rows {
			if i >= len(r) {
				continue
			}
			s, ok := r[i].(string)
			if !ok {
				continue
			}
			f := semantic.Fold(s)
			var b strings.Builder
			for _, j := range idx {
				if j != i && j < len(r) {
					b.WriteString(keyOf(r[j]))
					b.WriteByte(0)
				}
			}
			k := b.String() + f
			if !slices.Contains(bySame[k], s) {
				bySame[k] = append(bySame[k], s)
				if len(bySame[k]) == 2 && !slices.Contains(split, f) {
					split = append(split, f)
				}
			}
			if _, ok := spellings[f]; !ok {
				order = append(order, f)
			}
			if !slices.Contains(spellings[f], s) {
				spellings[f] = append(spellings[f], s)
			}
		}
		var groups [][]string
		for _, f := range order {
			if slices.Contains(split, f) {
				groups = append(groups, spellings[f])
			}
		}
		if len(groups) > 0 {
			found = append(found, spelledApart(groups, name))
		}
	}
	if len(found) == 0 {
		return Check{}, false
	}
	return Check{Name: CheckSpellings, Status: Warn, Detail: strings.Join(found, "; ") +
		": each group holds only the rows of its own spelling, so the figures of one value are split between them"}, true
}

// spelledApart says which groups of a column are one value in several
// spellings, and how they differ: "'ELECTRONICS', 'Electronics' and
// 'electronics' differ only in case and are counted as separate groups of
// category"; of several values, each one's spellings, five at most.
func spelledApart(groups [][]string, column string) string {
	caseOnly, spaceOnly := true, true
	var named []string
	for _, g := range groups {
		q := make([]string, len(g))
		for i, s := range g {
			q[i] = "'" + s + "'"
			caseOnly = caseOnly && s == strings.TrimSpace(s)
			spaceOnly = spaceOnly && strings.TrimSpace(s) == strings.TrimSpace(g[0])
		}
		named = append(named, join(q))
	}
	how := "only in case or in the spaces around them"
	switch {
	case caseOnly:
		how = "only in case"
	case spaceOnly:
		how = "only in the spaces around them"
	}
	if len(groups) == 1 {
		return fmt.Sprintf("%s differ %s and are counted as separate groups of %s", named[0], how, column)
	}
	const most = 5
	if len(named) > most {
		named = append(named[:most], fmt.Sprintf("and %d more", len(named)-most))
	}
	return fmt.Sprintf("%d values of %s are counted as separate groups in spellings that differ %s: %s", len(groups), column, how, strings.Join(named, "; "))
}

// keyedColumns are the output columns of q's groupings by the columns of
// a table whose key q also groups by ("revenue by customer": the
// customer's key and name): by the column's name and by the name the
// compiler gives it where two columns share one (entity_column).
func keyedColumns(m *semantic.Model, q *semantic.Query) []string {
	type col struct{ entity, column, name string }
	var cols []col
	keyed := map[string]bool{}
	for _, d := range q.Dimensions {
		if d.Grain != "" {
			continue
		}
		f, err := m.ResolveField(d.Name)
		if err != nil {
			continue
		}
		c := col{name: d.Name}
		switch f.Kind {
		case semantic.FieldDimension:
			e, cn, ok := m.SplitField(strings.TrimSpace(f.Dimension.Expr))
			if !ok {
				continue
			}
			c.entity, c.column, c.name = e, cn, f.Dimension.Name
		case semantic.FieldColumn:
			c.entity, c.column, c.name = f.Entity.Name, f.Column.Name, f.Column.Name
		default:
			continue
		}
		if e := m.Entity(c.entity); e != nil && e.PrimaryKey != "" && strings.EqualFold(e.PrimaryKey, c.column) {
			keyed[strings.ToLower(e.Name)] = true
		}
		cols = append(cols, c)
	}
	var out []string
	for _, c := range cols {
		if keyed[strings.ToLower(c.entity)] {
			out = append(out, c.name, c.entity+"_"+c.column)
		}
	}
	return out
}

// unspelled are the spellings of v among a field's known values that the
// filter f does not take; none for a key.
func unspelled(m *semantic.Model, f semantic.Filter, v string, known []string) []string {
	var out []string
	for _, k := range known {
		if k != v && semantic.SameSpelling(k, v) && !slices.Contains(f.Values, any(k)) {
			out = append(out, k)
		}
	}
	if len(out) == 0 || isKey(m, f.Field) {
		return nil
	}
	return out
}

// leftOut says which spellings of a filter's value it leaves out.
func leftOut(f FilterLiteral) string {
	q := make([]string, len(f.Unspelled))
	for i, s := range f.Unspelled {
		q[i] = "'" + s + "'"
	}
	return fmt.Sprintf("the filter takes '%s' alone of %d spellings of %s in %s, leaving out the rows of %s", f.Value, len(f.Unspelled)+1, semantic.Fold(f.Value), f.Field, join(q))
}

// isKey reports whether a field is a table's primary key or an end of a
// relationship: its values name rows, and two spellings are two rows.
func isKey(m *semantic.Model, field string) bool {
	fl, err := m.ResolveField(field)
	if err == nil && fl.Kind == semantic.FieldDimension {
		fl, err = m.ResolveField(strings.TrimSpace(fl.Dimension.Expr))
	}
	if err != nil || fl.Kind != semantic.FieldColumn {
		return false
	}
	if strings.EqualFold(fl.Entity.PrimaryKey, fl.Column.Name) {
		return true
	}
	for _, r := range m.Relationships {
		if strings.EqualFold(r.From, fl.Entity.Name) && strings.EqualFold(r.FromColumn, fl.Column.Name) ||
			strings.EqualFold(r.To, fl.Entity.Name) && strings.EqualFold(r.ToColumn, fl.Column.Name) {
			return true
		}
	}
	return false
}
