package semantic

import (
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Model is the semantic layer over one database: what the tables mean, how
// they join, and the business metrics and dimensions people ask about. The
// knowledge package loads it from YAML; the compiler and the planner read it.
// A Model is plain data: build it, then do not mutate it while in use.
type Model struct {
	Entities      []Entity       `json:"entities" yaml:"entities"`
	Relationships []Relationship `json:"relationships,omitempty" yaml:"relationships,omitempty"`
	Metrics       []Metric       `json:"metrics,omitempty" yaml:"metrics,omitempty"`
	Dimensions    []Dimension    `json:"dimensions,omitempty" yaml:"dimensions,omitempty"`
	// Restricted lists columns ("table.column") that must never be selected,
	// shown or sent to a model (the column policy).
	Restricted []string `json:"restricted,omitempty" yaml:"restricted,omitempty"`
	// Withheld lists columns ("table.column") the guard refuses to read
	// though the policy does not name them: columns of views that read a
	// restricted column. They are restricted as Restricted's are, but a
	// word that also names a column the policy allows is read as that
	// column rather than refused. Set at run time, never written.
	Withheld []string `json:"-" yaml:"-"`
}

// Entity is a table (or view) with its business meaning.
type Entity struct {
	Name string `json:"name" yaml:"name"` // the name used in metrics and questions, e.g. "customers"
	// Schema is the schema that holds Table, or "" for the connection's
	// default (search path, current database). The pair (Schema, Table)
	// names the relation; neither is ever split at a dot.
	Schema      string   `json:"schema,omitempty" yaml:"schema,omitempty"`
	Table       string   `json:"table" yaml:"table"` // the physical table, exactly as the engine names it; defaults to Name
	Description string   `json:"description,omitempty" yaml:"description,omitempty"`
	Synonyms    []string `json:"synonyms,omitempty" yaml:"synonyms,omitempty"` // e.g. "clients"
	PrimaryKey  string   `json:"primary_key,omitempty" yaml:"primary_key,omitempty"`
	// TimeColumn is the column that dates a row ("ordered_at"); it is the
	// default time axis for metrics of this entity.
	TimeColumn string `json:"time_column,omitempty" yaml:"time_column,omitempty"`
	// Label is the column that names a row in lists and top-N answers ("name").
	Label    string   `json:"label,omitempty" yaml:"label,omitempty"`
	RowCount int64    `json:"row_count,omitempty" yaml:"row_count,omitempty"`
	Columns  []Column `json:"columns" yaml:"columns"`
	// Role is set on an entity WithRoles derives: the table of another
	// entity reached through one link of several (roles.go). Never read
	// from or written to the knowledge folder.
	Role *Role `json:"role,omitempty" yaml:"-"`
}

// Column is one column of an entity.
type Column struct {
	Name        string      `json:"name" yaml:"name"`
	Type        quarry.Type `json:"type,omitempty" yaml:"type,omitempty"`
	Description string      `json:"description,omitempty" yaml:"description,omitempty"`
	Synonyms    []string    `json:"synonyms,omitempty" yaml:"synonyms,omitempty"`
	Unit        string      `json:"unit,omitempty" yaml:"unit,omitempty"` // "USD", "days", "percent"…
	// Values are the known values of a low-cardinality text column, used to
	// read filters such as "in Germany" or "from the mobile channel".
	Values []string `json:"values,omitempty" yaml:"values,omitempty"`
	// TimeRole says what a date or timestamp column marks in the life of
	// a row: "start" (created, signed up, joined), "event" (the thing the
	// row records happened: ordered, placed, paid), "end" (closed,
	// cancelled, ended) or "birth" (a date of birth, never a time axis).
	TimeRole string `json:"time_role,omitempty" yaml:"time_role,omitempty"`
}

// Temporal reports whether the column holds dates or times: a date or
// time type, or a time role (a SQLite TEXT column of ISO dates that
// learn gave one, such as paid_on).
func (c *Column) Temporal() bool { return c.Type.IsTemporal() || c.TimeRole != "" }

// MinorUnit reports whether a column or measure holds money in its
// currency's hundredths: its unit says so (learn writes "cents"), or its
// name or expression ends with one ("amount_cents", "SUM(p.amount_cents)").
// An amount written as money ("$70") is then compared as 7000.
func MinorUnit(unit, name string) bool {
	switch strings.ToLower(strings.TrimSpace(unit)) {
	case "cents", "cent", "pence", "penny", "minor units":
		return true
	}
	n := strings.ToLower(strings.TrimRight(name, ") "))
	return strings.HasSuffix(n, "cents") || strings.HasSuffix(n, "_cent") || strings.HasSuffix(n, "pence")
}

// The time roles of a column.
const (
	TimeRoleStart = "start"
	TimeRoleEvent = "event"
	TimeRoleEnd   = "end"
	TimeRoleBirth = "birth"
)

// Cardinality of a relationship, read from From to To.
type Cardinality string

// The cardinalities.
const (
	ManyToOne  Cardinality = "many_to_one" // many From rows point at one To row (a foreign key)
	OneToOne   Cardinality = "one_to_one"
	OneToMany  Cardinality = "one_to_many"
	ManyToMany Cardinality = "many_to_many"
)

// Relationship is a join between two entities: From.FromColumn = To.ToColumn.
type Relationship struct {
	Name        string      `json:"name,omitempty" yaml:"name,omitempty"`
	From        string      `json:"from" yaml:"from"`
	FromColumn  string      `json:"from_column" yaml:"from_column"`
	To          string      `json:"to" yaml:"to"`
	ToColumn    string      `json:"to_column" yaml:"to_column"`
	Cardinality Cardinality `json:"cardinality" yaml:"cardinality"`
	// Verbs are the verbs that name the link in a question, in any form:
	// "make" for a car maker's models ("makers who made a car in 1970"),
	// "speak" for a country's languages, "go through" for a dog's
	// treatments. The planner reads such a verb between the two
	// entities as this relationship (docs/planner.md).
	Verbs []string `json:"verbs,omitempty" yaml:"verbs,omitempty"`
}

// Metric is a named aggregate. Either Expr is an aggregate SQL expression
// over columns written as entity.column (e.g.
// "SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount))"),
// or Derived is an expression over other metrics written in braces
// ("{revenue} / {completed_orders}").
type Metric struct {
	Name        string   `json:"name" yaml:"name"`
	Description string   `json:"description,omitempty" yaml:"description,omitempty"`
	Synonyms    []string `json:"synonyms,omitempty" yaml:"synonyms,omitempty"`
	Entity      string   `json:"entity,omitempty" yaml:"entity,omitempty"` // the grain the aggregate counts over
	Expr        string   `json:"expr,omitempty" yaml:"expr,omitempty"`
	Derived     string   `json:"derived,omitempty" yaml:"derived,omitempty"`
	// Filters are SQL predicates over entity.column that always apply
	// ("orders.status = 'completed'").
	Filters []string `json:"filters,omitempty" yaml:"filters,omitempty"`
	// Time is the time dimension that places the metric in time, as
	// entity.column ("orders.ordered_at"); defaults to the entity's TimeColumn.
	Time string `json:"time,omitempty" yaml:"time,omitempty"`
	// Format says how to show values: "number", "integer", "currency", "percent".
	Format string `json:"format,omitempty" yaml:"format,omitempty"`
	Unit   string `json:"unit,omitempty" yaml:"unit,omitempty"`
	// Better says which way the measure is good, for "best" and
	// "worst": "higher" (revenue) or "lower" (a refund rate, hours to
	// resolve). Empty when the knowledge does not say; then a question
	// asking for the best or worst is asked which way is meant.
	Better string `json:"better,omitempty" yaml:"better,omitempty"`
}

// Dimension is a named way to slice metrics. Expr is a SQL expression over
// entity.column; Type "time" dimensions accept the Grains listed.
type Dimension struct {
	Name        string   `json:"name" yaml:"name"`
	Entity      string   `json:"entity" yaml:"entity"`
	Expr        string   `json:"expr" yaml:"expr"` // e.g. "customers.country"
	Type        string   `json:"type,omitempty" yaml:"type,omitempty"`
	Grains      []Grain  `json:"grains,omitempty" yaml:"grains,omitempty"`
	Description string   `json:"description,omitempty" yaml:"description,omitempty"`
	Synonyms    []string `json:"synonyms,omitempty" yaml:"synonyms,omitempty"`
	Values      []string `json:"values,omitempty" yaml:"values,omitempty"`
}

// Grain is a time granularity.
type Grain string

// Cyclic reports whether g is a part of a cycle (the day of the week,
// the part of the week) rather than a period whose start is a date.
func (g Grain) Cyclic() bool { return g == GrainDayOfWeek || g == GrainPartOfWeek }

// Values are the values of a cyclic grain, in their order (the days
// Monday to Sunday; weekday, weekend); nil for a period grain.
func (g Grain) Values() []string {
	switch g {
	case GrainDayOfWeek:
		d := DayNames
		return d[:]
	case GrainPartOfWeek:
		return []string{Weekday, Weekend}
	}
	return nil
}

// Days are the ISO day numbers (1 for Monday through 7 for Sunday) that
// value v of cyclic grain g holds, v read case-insensitively ("Saturday":
// 6; "weekend": 6 and 7); nil when v is not one of g's values.
func (g Grain) Days(v string) []int {
	switch g {
	case GrainDayOfWeek:
		for i, n := range DayNames {
			if strings.EqualFold(v, n) {
				return []int{i + 1}
			}
		}
	case GrainPartOfWeek:
		switch {
		case strings.EqualFold(v, Weekday):
			return []int{1, 2, 3, 4, 5}
		case strings.EqualFold(v, Weekend):
			return []int{6, 7}
		}
	}
	return nil
}

// End is the first day after the period of g that starts on start (weeks
// are seven days); start itself for a grain that is not a calendar period
// (the day of the week).
func (g Grain) End(start time.Time) time.Time { return g.Add(start, 1) }

// Add moves t by n periods of g (weeks are seven days; n may be
// negative); t itself for a grain that is not a calendar period.
func (g Grain) Add(t time.Time, n int) time.Time {
	switch g {
	case GrainDay:
		return t.AddDate(0, 0, n)
	case GrainWeek:
		return t.AddDate(0, 0, 7*n)
	case GrainMonth:
		return t.AddDate(0, n, 0)
	case GrainQuarter:
		return t.AddDate(0, 3*n, 0)
	case GrainYear:
		return t.AddDate(n, 0, 0)
	}
	return t
}

// Start is the first day of the period of the grain that holds day
// (weeks start on Monday, as the compiler's do).
func (g Grain) Start(day time.Time) time.Time {
	y, mo, d := day.Date()
	switch g {
	case GrainWeek:
		return time.Date(y, mo, d-(int(day.Weekday())+6)%7, 0, 0, 0, 0, time.UTC)
	case GrainMonth:
		return time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC)
	case GrainQuarter:
		return time.Date(y, (mo-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
	case GrainYear:
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
}

// Words is the grain as it is read: "day of week".
func (g Grain) Words() string { return strings.ReplaceAll(string(g), "_", " ") }

// DayNames are the days of the week as a day-of-week grouping returns them,
// in its order.
var DayNames = [7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// The values of the part of the week: Monday to Friday, and Saturday and
// Sunday. Other weekend conventions (Friday and Saturday) are not handled.
const (
	Weekday = "weekday"
	Weekend = "weekend"
)

// The time grains.
const (
	GrainDay     Grain = "day"
	GrainWeek    Grain = "week" // weeks start on Monday
	GrainMonth   Grain = "month"
	GrainQuarter Grain = "quarter"
	GrainYear    Grain = "year"
	// GrainDayOfWeek groups by the day of the week, Monday to Sunday: a
	// cycle the periods repeat, not a period, so its values are the days'
	// names, sorted Monday first, and never a date.
	GrainDayOfWeek Grain = "day_of_week"
	// GrainPartOfWeek groups by the part of the week: "weekday" (Monday
	// to Friday) or "weekend" (Saturday and Sunday), a cycle like the day
	// of the week.
	GrainPartOfWeek Grain = "part_of_week"
)
