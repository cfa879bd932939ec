package privacy

import (
	"strconv"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/quarry"
)

// aggregates are the aggregates quarry reads, over one column: a figure of
// the group, shown when every group is at least k rows, or (min, max,
// copiesOne) one row's value, refused whatever the group's size.
var aggregates = sync.OnceValue(func() map[string]bool {
	return set("count", "sum", "avg", "total", "min", "max",
		"stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "std")
})

// listAggregates copy the values of the rows they aggregate into one
// value: refused outright, whatever the group's size.
var listAggregates = sync.OnceValue(func() map[string]bool {
	return set("group_concat", "string_agg", "array_agg", "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg",
		"json_group_array", "json_group_object", "json_arrayagg", "json_objectagg", "xmlagg", "listagg", "list", "array_concat_agg",
		"first_value", "last_value", "nth_value", "any_value", "first", "last", "arbitrary", "mode", "percentile_disc", "histogram", "string_agg_distinct")
})

// Where an expression stands.
const (
	ctxOutput = iota // what the statement returns, HAVING, ORDER BY
	ctxKey           // a GROUP BY expression
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func aggregate(name string) bool { return aggregates()[strings.ToLower(name)] }

// copiesOne reports whether the aggregate returns one row's value as it
// is: the largest salary of a group of a hundred is still one person's
// salary, and the largest name one person's name.
func copiesOne(name string) bool {
	switch strings.ToLower(name) {
	case "min", "max":
		return true
	}
	return false
}

func copiesList(name string) bool { return listAggregates()[strings.ToLower(name)] }

// systemColumn reports whether name is a column every table of the
// engine has without declaring it.
func systemColumn(d quarry.Dialect, name string) bool {
	switch strings.ToLower(name) {
	case "rowid", "_rowid_", "_rowid", "oid":
		return true
	case "ctid", "xmin", "xmax", "cmin", "cmax", "tableoid":
		return d == quarry.DialectPostgres
	}
	return false
}

func itoa(i int) string { return strconv.Itoa(i) }

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return s
}
