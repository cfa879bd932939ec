package knowledge

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// valueKeys finds the relationships a schema does not declare and no
// "_id" name gives away: a column named after another table (flights.
// Airline and the airlines table, an orders.customer column and
// customers) whose every value is a value of that table's primary key.
// The name proposes and the data decides: one query per candidate counts
// the values that have no row to refer to, and only a column that has
// values and none missing becomes a many-to-one relationship. The
// relationships are added to lr (and so to the report's relationships
// added), their columns marked as keys, and the candidate measures that
// would sum them are dropped. Restricted columns are not read.
func valueKeys(ctx context.Context, src Source, lr *learned, restricted map[string]bool, opts LearnOptions) {
	d := src.Dialect()
	byName := map[string]int{}
	for i, e := range lr.entities {
		byName[strings.ToLower(e.Name)] = i
	}
	have := map[colKey]bool{}
	for _, r := range lr.relationships {
		have[lowerKey(r.From, r.FromColumn)] = true
	}
	found := false
	for i, e := range lr.entities {
		if !lr.in(i) {
			continue
		}
		t := lr.tables[i]
		for _, c := range e.Columns {
			k := lowerKey(e.Name, c.Name)
			if have[k] || restricted[strings.ToLower(e.Name+"."+c.Name)] || restricted[strings.ToLower(tableRef(t)+"."+c.Name)] || strings.EqualFold(c.Name, e.PrimaryKey) || c.Type.IsTemporal() || c.Type == quarry.TypeFloat || c.Type == quarry.TypeBool {
				continue
			}
			j, ok := tableNamed(byName, c.Name)
			if !ok || j == i {
				continue
			}
			ref := lr.entities[j]
			pk := ref.Column(ref.PrimaryKey)
			if pk == nil || pk.Type.IsNumeric() != c.Type.IsNumeric() {
				continue
			}
			if ctx.Err() != nil {
				return
			}
			qc, qp := quoteIdent(d, c.Name), quoteIdent(d, pk.Name)
			sql := fmt.Sprintf("SELECT COUNT(%[1]s), SUM(CASE WHEN %[1]s IN (SELECT %[2]s FROM %[3]s) THEN 0 ELSE 1 END) FROM %[4]s WHERE %[1]s IS NOT NULL",
				qc, qp, quoteTable(d, lr.tables[j]), quoteTable(d, t))
			if !allRefer(ctx, src, sql, opts) {
				continue
			}
			lr.relationships = append(lr.relationships, semantic.Relationship{
				Name: relName(c.Name, ref.Name), From: e.Name, FromColumn: c.Name,
				To: ref.Name, ToColumn: pk.Name, Cardinality: semantic.ManyToOne,
			})
			have[k], lr.keyCols[k], found = true, true, true
		}
	}
	if found {
		var keep []semantic.Metric
		for _, m := range lr.candidates {
			uses := false
			for _, r := range qualifiedRefs(m.Expr) {
				uses = uses || lr.keyCols[lowerKey(r.entity, r.column)]
			}
			if !uses {
				keep = append(keep, m)
			}
		}
		lr.candidates = keep
	}
}

// tableNamed finds the entity a column is named after: its name, its
// plural or its singular ("airline" and airlines, "country" and
// countries).
func tableNamed(byName map[string]int, col string) (int, bool) {
	n := strings.ToLower(strings.Join(nameWords(col), "_"))
	for _, cand := range []string{n, n + "s", n + "es", strings.TrimSuffix(n, "y") + "ies", singularOf(n)} {
		if j, ok := byName[cand]; ok {
			return j, true
		}
	}
	return 0, false
}

// allRefer runs a "SELECT COUNT(col), <rows with no row to refer to>"
// query and reports whether the column has values and every one refers.
func allRefer(ctx context.Context, src Source, sql string, opts LearnOptions) bool {
	n, ok := scalars(ctx, src, sql, 2, opts)
	return ok && n[0] > 0 && n[1] == 0
}
