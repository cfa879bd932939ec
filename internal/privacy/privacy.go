package privacy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Plan is how a statement's result is shown to be aggregated: the
// companion statement returns the statement's own rows with the counts
// behind each appended.
type Plan struct {
	// Companion is the statement with count columns appended to its
	// output: the rows behind each group, then the distinct rows of each
	// table occurrence of Tables.
	Companion string
	// Columns is how many columns the statement itself returns (the
	// companion's first Columns).
	Columns int
	// Tables names the table occurrences counted, in the order of the
	// companion's count columns after the first.
	Tables []string
	// Inputs names the columns the statement aggregates, in the order of
	// the companion's last count columns: the non-NULL values of each in
	// the group (count(column)), which NULLs cannot pad.
	Inputs []string
}

// refuse is the error of a statement that is not shown to be aggregated.
func refuse(format string, args ...any) error {
	return quarry.Errorf(quarry.KindForbidden, format, args...)
}

// Aggregated reads sql with the parser of dialect d and returns the plan
// that proves its result aggregated, or a KindForbidden error that says
// why the result may not reach the model. cat, when known, gives each
// table's primary key (PostgreSQL, MySQL) and columns (so that SQLite's
// rowid is named by an alias no column takes).
func Aggregated(d quarry.Dialect, sql string, cat *quarry.Catalog) (*Plan, error) {
	switch d {
	case quarry.DialectMySQL:
		return aggregatedMySQL(sql, cat)
	case quarry.DialectPostgres, quarry.DialectSQLite, quarry.DialectDuckDB:
		return aggregatedPG(d, sql, cat)
	}
	return nil, refuse("quarry cannot read %s statements to prove them aggregated", d)
}

// Judge decides whether result may reach the model: companion (the
// plan's companion statement, run on the same connection) returned exactly
// the rows of result, and behind each there are at least k rows, of
// every table occurrence none or at least k distinct rows, and of every
// column aggregated none or at least k values that are not NULL. A result
// with no group is withheld as a small one is. It returns "" when the
// result may be shown, otherwise why not.
func Judge(p *Plan, result, companion *quarry.Table, k int) string {
	if result == nil || companion == nil {
		return "the group sizes could not be read"
	}
	counts := 1 + len(p.Tables) + len(p.Inputs)
	if len(companion.Columns) != p.Columns+counts || len(result.Columns) != p.Columns {
		return "the count of rows behind each group did not return the result's columns"
	}
	if len(companion.Rows) != len(result.Rows) {
		return fmt.Sprintf("the count of rows behind each group returned %d groups, the result %d rows: the result is not one row per group", len(companion.Rows), len(result.Rows))
	}
	if len(result.Rows) == 0 {
		// No group is no group of k rows: an empty result shown beside
		// a withheld small one would say which a condition held for,
		// of one row ("… WHERE id = 1 AND city = 'Paris' GROUP BY …":
		// empty, or withheld, found from outside).
		return fmt.Sprintf("the result has no group, and so none that stands on %d rows or more", k)
	}
	small, sparse := 0, 0
	var own []string
	for _, row := range companion.Rows {
		own = append(own, key(row[:p.Columns]))
		for i, v := range row[p.Columns:] {
			n, ok := quarry.Float(v)
			switch {
			case !ok:
				return "the count of rows behind a group is not a number"
			case i == 0 && n < float64(k), i > 0 && i <= len(p.Tables) && n > 0 && n < float64(k):
				small++
			case i > len(p.Tables) && n > 0 && n < float64(k):
				sparse++
			}
		}
	}
	var got []string
	for _, row := range result.Rows {
		got = append(got, key(row))
	}
	slices.Sort(own)
	slices.Sort(got)
	if !slices.Equal(own, got) {
		return "the count of rows behind each group returned other groups than the result (the groups are not one per row)"
	}
	if sparse > 0 {
		return fmt.Sprintf("an aggregate of a group rests on fewer than %d values that are not NULL (of %s): the other rows pad it, and its value could be a single row's", k, strings.Join(p.Inputs, ", "))
	}
	if small > 0 {
		return fmt.Sprintf("a group stands on fewer than %d rows (of %s): its values could be a single row's", k, strings.Join(append([]string{"the result"}, p.Tables...), ", "))
	}
	return ""
}

// key is a row written so that equal rows are equal keys.
func key(row []any) string {
	var b strings.Builder
	for _, v := range row {
		x := quarry.JSONValue(v)
		fmt.Fprintf(&b, "%T:%v\x00", x, x)
	}
	return b.String()
}
