package knowledge

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/semantic"
)

// The years a column of whole numbers holds when it is a year (a birth
// year, a model year) rather than an amount.
const (
	minYear = 1800
	maxYear = 2100
)

// notYears drops the candidate measures whose column holds years: every
// value a whole number from 1800 to 2100, whatever the column is called
// (born, anno). Summing them means nothing. A column whose values cannot
// be read keeps its candidate: candidates are suggestions a person reviews.
func notYears(ctx context.Context, src Source, lr *learned, opts LearnOptions) []semantic.Metric {
	years := map[colKey]bool{}
	// The columns the candidates read, once: asked per column of a wide
	// schema, reading every candidate again was quadratic.
	read := map[colKey]bool{}
	for _, m := range lr.candidates {
		for _, r := range qualifiedRefs(m.Expr) {
			read[lowerKey(r.entity, r.column)] = true
		}
	}
	d := src.Dialect()
	for i, e := range lr.entities {
		t := lr.tables[i]
		if t.RowCount == 0 || !lr.in(i) {
			continue
		}
		for _, c := range e.Columns {
			if !measureColumn(lr, e, c) || lr.withheld[lowerKey(e.Name, c.Name)] || !read[lowerKey(e.Name, c.Name)] {
				continue
			}
			if ctx.Err() != nil {
				return lr.candidates
			}
			qc := quoteIdent(d, c.Name)
			sql := fmt.Sprintf("SELECT MIN(%[1]s), MAX(%[1]s), SUM(CASE WHEN %[1]s = ROUND(%[1]s) THEN 0 ELSE 1 END) FROM %[2]s WHERE %[1]s IS NOT NULL", qc, quoteTable(d, t))
			if yearValues(ctx, src, sql, opts) {
				years[lowerKey(e.Name, c.Name)] = true
			}
		}
	}
	var out []semantic.Metric
	for _, m := range lr.candidates {
		keep := true
		for _, r := range qualifiedRefs(m.Expr) {
			if years[lowerKey(r.entity, r.column)] {
				keep = false
			}
		}
		if keep {
			out = append(out, m)
		}
	}
	return out
}

// yearValues runs sql, which reads a column's least and greatest value and
// how many values are not whole, and reports whether all of them are
// whole numbers within the years.
func yearValues(ctx context.Context, src Source, sql string, opts LearnOptions) bool {
	n, ok := scalars(ctx, src, sql, 3, opts)
	return ok && n[2] == 0 && n[0] >= minYear && n[1] <= maxYear
}

// scalars runs a query of one row of n numbers and returns them; ok is
// false when it fails, returns no row, or any of them is NULL or not a
// number.
func scalars(ctx context.Context, src Source, sql string, n int, opts LearnOptions) ([]float64, bool) {
	rows, err := src.Query(ctx, sql, connector.QueryOptions{MaxRows: 1, Timeout: opts.QueryTimeout})
	if err != nil {
		return nil, false
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, false
	}
	v := rows.Values()
	if len(v) != n {
		return nil, false
	}
	out := make([]float64, n)
	for i := range out {
		s, ok := valueText(v[i])
		if !ok {
			return nil, false // NULL: no values
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, false
		}
		out[i] = f
	}
	return out, rows.Err() == nil
}

// notFlags drops the candidates that sum a yes/no column: one named as a
// flag ("paid", "is_active") whose known values are 0 and 1, read once
// its values are. Its sum would be read as an amount ("unpaid invoices"
// as the total paid, found from outside).
func notFlags(lr *learned) []semantic.Metric {
	flags := map[colKey]bool{}
	for _, e := range lr.entities {
		for _, c := range e.Columns {
			if semantic.FlagName(c.Name) && len(c.Values) > 0 && yesNo(c.Values) {
				flags[lowerKey(e.Name, c.Name)] = true
			}
		}
	}
	var out []semantic.Metric
	for _, m := range lr.candidates {
		refs := qualifiedRefs(m.Expr)
		if len(refs) == 1 && flags[lowerKey(refs[0].entity, refs[0].column)] {
			continue
		}
		out = append(out, m)
	}
	return out
}
