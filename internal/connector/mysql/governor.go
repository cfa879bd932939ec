package mysql

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// estimate is the planner's view of a statement.
type estimate struct {
	// rows is the estimated number of rows examined: for each SELECT in
	// the plan the product of its tables' row estimates (a nested-loop
	// join), summed over the SELECTs.
	rows float64
	// cost is MySQL's query_cost; on MariaDB, whose EXPLAIN reports no
	// cost, it is rows.
	cost float64
}

// govern runs the cost governor in the statement's read-only transaction:
// EXPLAIN (never ANALYZE, which would run the statement), then a refusal
// when an estimate is over its ceiling. The EXPLAIN runs under the
// session's statement timeout like the statement itself. An EXPLAIN that
// fails gives the server's error, which is the statement's own. SHOW,
// EXPLAIN and DESCRIBE statements are not governed (see governed).
func (r *rows) govern(sqlText string, opts connector.QueryOptions) error {
	est, err := r.estimate(r.tx, sqlText, opts.MaxCost > 0)
	if err != nil {
		return err
	}
	if opts.MaxEstimatedRows > 0 && est.rows > float64(opts.MaxEstimatedRows) {
		return quarry.Errorf(quarry.KindTooCostly, "the planner estimates that this query examines about %s rows, over the ceiling of %d; add filters on the largest tables or aggregate less, or raise limits.max_estimated_rows", human(est.rows), opts.MaxEstimatedRows)
	}
	if opts.MaxCost > 0 && est.cost > opts.MaxCost {
		what := "cost"
		if r.c.flavor == FlavorMariaDB {
			what = "cost (rows examined; MariaDB's EXPLAIN has no cost)"
		}
		return quarry.Errorf(quarry.KindTooCostly, "the planner estimates this query's %s at about %s, over the ceiling of %s; add filters on the largest tables or aggregate less, or raise limits.max_cost", what, human(est.cost), human(opts.MaxCost))
	}
	return nil
}

// governed reports whether the governor EXPLAINs a statement: not SHOW,
// and not EXPLAIN or DESCRIBE themselves (which plan but do not run),
// unless ANALYZE appears anywhere in them (MySQL's EXPLAIN ANALYZE runs the
// statement; EXPLAIN of it then fails, closed).
func governed(sqlText string) bool {
	switch strings.ToUpper(leadingKeyword(sqlText)) {
	case "SHOW":
		return false
	case "EXPLAIN", "DESCRIBE", "DESC":
		return strings.Contains(strings.ToUpper(sqlText), "ANALYZE")
	}
	return true
}

// estimate runs EXPLAIN (and, on MySQL when the cost is wanted, EXPLAIN
// FORMAT=JSON) on sqlText. The prefix goes before the statement, so that
// nothing is appended after a trailing comment.
func (r *rows) estimate(tx *sql.Tx, sqlText string, wantCost bool) (estimate, error) {
	var est estimate
	rs, err := tx.QueryContext(r.ctx, "EXPLAIN "+sqlText)
	if err != nil {
		return est, r.mapError(err)
	}
	defer rs.Close()
	names, err := rs.Columns()
	if err != nil {
		return est, r.mapError(err)
	}
	idCol, rowsCol := -1, -1
	for i, n := range names {
		switch strings.ToLower(n) {
		case "id":
			idCol = i
		case "rows":
			rowsCol = i
		}
	}
	if rowsCol < 0 {
		return est, quarry.Errorf(quarry.KindInternal, "the server's EXPLAIN has no rows column; run without a cost ceiling")
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	perSelect := map[string]float64{}
	var order []string
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			return est, r.mapError(err)
		}
		id := "1"
		if idCol >= 0 {
			if vals[idCol] == nil {
				continue // UNION RESULT: no table of its own
			}
			id = fmt.Sprint(toText(vals[idCol]))
		}
		n := number(vals[rowsCol])
		if n < 1 {
			n = 1
		}
		if _, ok := perSelect[id]; !ok {
			perSelect[id] = 1
			order = append(order, id)
		}
		perSelect[id] *= n
	}
	if err := rs.Err(); err != nil {
		return est, r.mapError(err)
	}
	for _, id := range order {
		est.rows += perSelect[id]
	}
	est.cost = est.rows
	if wantCost && r.c.flavor == FlavorMySQL {
		var doc string
		if err := tx.QueryRowContext(r.ctx, "EXPLAIN FORMAT=JSON "+sqlText).Scan(&doc); err != nil {
			return est, r.mapError(err)
		}
		if cost, ok := queryCost(doc); ok {
			est.cost = cost
		}
	}
	return est, nil
}

// queryCost reads query_block.cost_info.query_cost from MySQL's EXPLAIN
// FORMAT=JSON.
func queryCost(doc string) (float64, bool) {
	var plan struct {
		QueryBlock struct {
			CostInfo struct {
				QueryCost json.RawMessage `json:"query_cost"`
			} `json:"cost_info"`
		} `json:"query_block"`
	}
	if err := json.Unmarshal([]byte(doc), &plan); err != nil {
		return 0, false
	}
	s := strings.Trim(string(plan.QueryBlock.CostInfo.QueryCost), `"`)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// number reads an EXPLAIN rows value: an integer, a float or text.
func number(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case float64:
		return x
	case float32:
		return float64(x)
	case []byte:
		f, _ := strconv.ParseFloat(strings.TrimSpace(string(x)), 64)
		return f
	case string:
		f, _ := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f
	}
	return 0
}

// human renders a large estimate briefly: 1234 → "1,234", 3.2e9 → "3.2e+09".
func human(f float64) string {
	if f >= 1e12 || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', 2, 64)
	}
	s := strconv.FormatInt(int64(math.Round(f)), 10)
	var b strings.Builder
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}
