package semantic

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Query is a metric query: the planner's (or a model's) structured request,
// which Compile turns into SQL for one dialect.
//
// Fields are referenced by name: a metric name, a dimension name, or an
// entity column written "entity.column".
type Query struct {
	Metrics    []string   `json:"metrics,omitempty"`
	Dimensions []DimRef   `json:"dimensions,omitempty"`
	Filters    []Filter   `json:"filters,omitempty"`
	TimeRange  *TimeRange `json:"time_range,omitempty"`
	Order      []Order    `json:"order,omitempty"`
	Limit      int        `json:"limit,omitempty"`
	// Ties keeps, beside the first Limit rows, every row that ties the
	// last of them on the whole order: "which department has the most
	// employees" answers every department with the most, not one of them
	// picked by the engine. It needs Limit and Order; not with Compare.
	Ties bool `json:"ties,omitempty"`
	// Compare asks for the metrics over two or more labelled periods, one
	// result row per period (and per dimension value), plus the change
	// between the first two when the compiler can express it.
	Compare []Period `json:"compare,omitempty"`
	// Share adds, for each metric, its share of the total over the result
	// ("share of revenue by channel"), as a fraction between 0 and 1; of
	// each period's total when a time grain is one of several dimensions
	// ("share of revenue by category by quarter") or periods are compared.
	Share bool `json:"share,omitempty"`
	// Rows asks for a plain list of rows of one entity instead of
	// aggregates: Columns of Entity, filtered, ordered, limited.
	Rows *RowsQuery `json:"rows,omitempty"`
	// Hidden names metrics and dimensions (as written in Metrics and
	// Dimensions) that the query computes to group, filter or sort by but
	// does not return: "which year had the most concerts" groups and
	// sorts by a count and returns the year alone. At least one column
	// must stay visible; not with Compare or Share.
	Hidden []string `json:"hidden,omitempty"`
	// Percentile asks, instead of the one metric's average, for a
	// percentile of the values it averages: 50 is the median. The metric
	// must be AVG(x); the answer is the percentile of x over the same
	// rows (its filters, its time column, its joins), NULLs left out, per
	// group of the dimensions. Its column is named by PercentileName. Not
	// with Compare, Share, Hidden or a filter on the metric.
	Percentile int `json:"percentile,omitempty"`
	// Via names entities the question goes through to reach another
	// ("tickets handled by agents in the Billing team": agents). Where two
	// routes join the same entity equally well, the compiler takes the one
	// through a table the query names (here, or by a filter or grouping
	// on it) and none on the other route; otherwise the one declared
	// first.
	Via []string `json:"via,omitempty"`
	// CountGroups makes the answer the number of groups the query would
	// return, one row with one column of this name: "how many customers
	// had revenue over 1000 last year" groups revenue by customer, keeps
	// the groups over 1000, and counts them. It needs dimensions and no
	// Compare, Share, Order, Limit, Hidden or Percentile. A group with no
	// row of the metric's table is never one of them, so a condition
	// that 0 passes would miss some (verify.ZeroGroupsMissing).
	CountGroups string `json:"count_groups,omitempty"`
}

// DimRef is a dimension in a query, with a grain for time dimensions.
type DimRef struct {
	Name  string `json:"name"`
	Grain Grain  `json:"grain,omitempty"`
	// Spellings are groups of a text grouping's values that are one value
	// in several spellings (["Chicago", "chicago"]): each group is one
	// group of the result, named by its first spelling, where SQL would
	// split the value's rows between them.
	Spellings [][]string `json:"spellings,omitempty"`
}

// UnmarshalJSON reads a dimension as an object ({"name": "channel",
// "grain": "month"}) or as its name alone ("channel"), as a model may
// write it.
func (d *DimRef) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err == nil {
		*d = DimRef{Name: name}
		return nil
	}
	type plain DimRef
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*d = DimRef(p)
	return nil
}

// Op is a filter operator.
type Op string

// The filter operators.
const (
	OpEq      Op = "="
	OpNe      Op = "!="
	OpIn      Op = "in"
	OpNotIn   Op = "not_in"
	OpLt      Op = "<"
	OpLe      Op = "<="
	OpGt      Op = ">"
	OpGe      Op = ">="
	OpLike    Op = "like"        // case-insensitive contains
	OpPrefix  Op = "starts_with" // case-insensitive starts with
	OpSuffix  Op = "ends_with"   // case-insensitive ends with
	OpNull    Op = "is_null"
	OpNotNull Op = "is_not_null"
	// OpNone and OpSome filter the query's subject — the listed entity, or
	// the first metric's entity — by whether it has rows of the related
	// entity named by the filter's Field, joined directly: "customers who
	// never ordered" is Filter{Field: "orders", Op: OpNone} (NOT EXISTS),
	// "customers with an order" OpSome (EXISTS). They take no values.
	OpNone Op = "none"
	OpSome Op = "some"
)

// Filter restricts a dimension or column. Values are strings, int64 or
// float64; the compiler renders them as literals safely for the dialect.
type Filter struct {
	Field  string `json:"field"`
	Op     Op     `json:"op"`
	Values []any  `json:"values,omitempty"`
	// Against compares the field with an aggregate of itself over every
	// row of its entity instead of a value: "avg", "min" or "max" ("cars
	// heavier than the average": Field cars.weight, Op >, Against avg).
	// It takes no values and only the comparison operators.
	Against string `json:"against,omitempty"`
	// Count makes Field an entity joined directly to the query's subject
	// (as for OpNone) and compares how many of its rows refer to each
	// subject row: "customers with fewer than 2 orders" is Field orders,
	// Op <, Values [2], Count true, and keeps the customers with none.
	Count bool `json:"count,omitempty"`
	// Where are conditions on the related entity's rows, for OpNone,
	// OpSome and Count: plain filters on its own columns. "students who
	// have a dog" is Field pets, Op some, Where [pets.pet_type = dog];
	// the related entity may be reached through the one entity that
	// links the two (has_pet).
	Where []Filter `json:"where,omitempty"`
	// Grain makes the filter one on a part of a cycle of a date: with
	// day_of_week its values are days ("Monday" … "Sunday"), with
	// part_of_week "weekday" (Monday to Friday) or "weekend" (Saturday
	// and Sunday); ops =, !=, in and not_in. Field names the date (a time
	// column or time dimension), or is the grain's name, "time" or empty
	// for each metric's own date. A Field named day_of_week or
	// part_of_week (not a dimension of the model) implies the Grain.
	Grain Grain `json:"grain,omitempty"`
	// OrNull keeps, beside the rows a comparison keeps, those whose field
	// is empty: "employees we had at the end of 2025" are those whose
	// termination is on or after 2026-01-01, or none.
	OrNull bool `json:"or_null,omitempty"`
	// Through makes a plain filter one on the row each subject row refers
	// to by way of the entity it names, up that entity's own chain of
	// references, rather than on the row the query joins: the agent of an
	// attempt's ticket, where the attempt names an agent of its own too
	// (Field agents.is_test, Op !=, Values [1], OrNull, Through tickets).
	// It keeps a subject row none of whose such rows fails the filter,
	// one with no such row included: NOT EXISTS (… AND NOT filter).
	Through string `json:"through,omitempty"`
}

// AgainstName is the word for a filter's Against aggregate: "average",
// "minimum", "maximum"; "" for anything else.
func AgainstName(agg string) string {
	switch agg {
	case "avg":
		return "average"
	case "min":
		return "minimum"
	case "max":
		return "maximum"
	}
	return ""
}

// OnRelated reports whether the filter is on the rows of a related entity
// (its Field an entity: OpNone, OpSome or Count) rather than on a field,
// so that an entity named like a metric ("orders") is not read as one.
func (f Filter) OnRelated() bool { return f.Op == OpNone || f.Op == OpSome || f.Count }

// TimeRange restricts a time dimension to [From, To): dates "YYYY-MM-DD".
// Field empty means each metric's own time dimension.
type TimeRange struct {
	Field string `json:"field,omitempty"`
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
}

// Order sorts by a metric, a dimension or a column.
type Order struct {
	Field string `json:"field"`
	Desc  bool   `json:"desc,omitempty"`
}

// RowsQuery lists rows of one entity.
type RowsQuery struct {
	Entity  string   `json:"entity"`
	Columns []string `json:"columns,omitempty"` // empty: the entity's label and descriptive columns
	// Distinct drops repeated rows ("the distinct template type codes").
	Distinct bool `json:"distinct,omitempty"`
}

// Period is a labelled time range used in comparisons.
type Period struct {
	Label string `json:"label"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// CountAdmitsZero reports whether a count (or a sum) of 0 satisfies
// condition f: "fewer than 2", "at most 1", "= 0", "at least 0".
func CountAdmitsZero(f Filter) bool {
	for _, v := range f.Values {
		n, ok := NumberOf(v)
		if !ok {
			if s, isText := v.(string); isText {
				var err error
				if n, err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
					continue
				}
			} else {
				continue
			}
		}
		switch f.Op {
		case OpLt:
			return n > 0
		case OpLe:
			return n >= 0
		case OpEq, OpIn:
			if n == 0 {
				return true
			}
		case OpNe:
			return n != 0
		case OpGe:
			return n <= 0 // "between 0 and 300": 0 passes
		case OpGt:
			return n < 0
		}
	}
	return false
}

// NumberOf is v as a float64 when it is a number a filter holds (an
// int, int64 or float64).
func NumberOf(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
