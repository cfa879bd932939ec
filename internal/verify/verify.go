package verify

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Check statuses.
const (
	Pass = "pass"
	Warn = "warn"
	Fail = "fail"
)

// Check names, in the order Run reports them.
const (
	CheckEmpty       = "empty_result"
	CheckNullMeasure = "null_measure"
	CheckDuplicates  = "duplicate_rows"
	CheckRowCount    = "row_count"
	CheckTruncated   = "truncated"
	CheckFilters     = "filter_values"
	CheckFanOut      = "fan_out"
	CheckLabels      = "placeholder_labels"
)

// The factors that each warning and each failure multiply confidence by.
const (
	WarnFactor = 0.85
	FailFactor = 0.40
)

// Range is an inclusive range of plausible row counts. Max 0 means no upper
// bound.
type Range struct {
	Min int64 `json:"min"`
	Max int64 `json:"max"`
}

// FilterLiteral is one literal value a query filters on.
type FilterLiteral struct {
	Field string `json:"field"`
	Value string `json:"value"`
	// Known reports whether Value is among the column's known values.
	Known bool `json:"known"`
	// KnownIn names the other columns (entity.column) that list Value
	// when the filtered one does not: "web" filtered as a discount code
	// is a channel.
	KnownIn []string `json:"known_in,omitempty"`
	// Unspelled are the other spellings of Value, equal but for case or
	// surrounding spaces, that the column is known to hold and the filter
	// leaves out: their rows hold the same value (never of a key, whose
	// spellings are different rows).
	Unspelled []string `json:"unspelled,omitempty"`
}

// Input is what the checks look at.
type Input struct {
	Table            *quarry.Table        // the rows read (maybe a preview)
	TotalRows        int64                // rows in the whole result; 0 when unknown
	Truncated        bool                 // more rows existed than were read
	Columns          []semantic.OutColumn // the compiled query's columns (their grains); nil for SQL written by hand
	MetricColumns    []string             // columns that are measures
	DimensionColumns []string             // columns that group the measures
	ExpectRows       *Range               // plausible row counts; nil when unknown
	// Scheduled: the query's range runs past the as-of day to its
	// period's end on a date set ahead of time (a renewal, an
	// appointment), whose last period holds its rows already: no series
	// warns that it is not over.
	Scheduled      bool
	MissingPeriods []string // compared periods with no row in the result
	Filters        []FilterLiteral
	FanOutGuarded  bool // measures aggregated at their own grain before joining
	// Contradictions say why no row can match the query's filters
	// (Contradictions); a result of such a query is empty or wrong.
	Contradictions []string
	// ZeroGroups say why groups with nothing to count may be missing from
	// a result filtered on a count that admits zero (ZeroGroupsMissing);
	// ZeroGroupsControl, when set, is what a control query found: that no
	// such group exists, so none is missing.
	ZeroGroups        []ZeroGroup
	ZeroGroupsControl string
	// EmptyControl, when set, is what a control query found of an empty
	// list of rows that must have none of something ("menu items never
	// ordered"): without that condition the rows are there, so none
	// left is the answer, every one has some.
	EmptyControl string
	// FanOuts say which measures are computed at the wrong grain
	// (FanOuts).
	FanOuts []string
	// PeriodDate says why the period may be on the wrong date (PeriodDate),
	// or has no date of the state the question picks (PeriodUndated).
	PeriodDate string
	// GrainDate says why the period and the time grain are on different
	// dates of the same rows (GrainDate).
	GrainDate string
	Period    string // human label of the filtered time range, for hints
	// NotYetStarted says why rows that did not exist in a count's period
	// may be counted with 0 (NotYetStarted).
	NotYetStarted string
	// Coverage are the checks of the query against the question it
	// answers (Coverage).
	Coverage []Check
	// AsOf is the day the question was asked as of; zero when unknown.
	// A series whose last period holds it, before that period's last
	// day, warns (unfinishedRows).
	AsOf time.Time
	// OneRowEach says the result is a semantic list of one entity's rows:
	// the compiler joins only to one row each, so two equal rows are two
	// records with the same values (two customers of one name), not a
	// duplicate a join made, and duplicate_rows does not run.
	OneRowEach bool
	// KeyedColumns are grouping columns that name rows of a table the
	// query also groups by its key: two of their values that differ only
	// in case are two rows, and spelling_variants does not compare them.
	KeyedColumns []string
}

// Check is the outcome of one check.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // pass, warn or fail
	Detail string `json:"detail,omitempty"`
}

// Report is the outcome of every check that ran and the confidence computed
// from them.
type Report struct {
	Checks     []Check `json:"checks"`
	Confidence float64 `json:"confidence"`
}

// InputFor tells the checks what a result of a semantic query should look
// like: which columns are measures and dimensions, how many rows the query
// can return, the literal values it filters on (and whether the model
// knows them), and whether measures were guarded against fan-out. Every
// planner that reaches SQL through the semantic layer (the builtin planner,
// a model's query_metric) builds its input here, so the same query gets
// the same checks whoever planned it. q and c may be nil (SQL written by
// hand): the input then holds only the result.
func InputFor(m *semantic.Model, q *semantic.Query, c *semantic.Compiled, t *quarry.Table, total int64, truncated bool) Input {
	in := Input{Table: t, TotalRows: total, Truncated: truncated}
	if c == nil {
		return in
	}
	in.Columns = c.Columns
	in.MetricColumns, in.DimensionColumns = ColumnsByRole(c.Columns)
	in.FanOutGuarded = c.FanOutGuarded
	if q == nil {
		return in
	}
	in.OneRowEach = q.Rows != nil
	switch {
	case q.Rows == nil && len(q.Dimensions) == 0 && len(q.Compare) == 0:
		in.ExpectRows = &Range{Min: 1, Max: 1}
	case q.Limit > 0 && q.Ties:
		// Every row that ties the last one kept: as many as tie.
		in.ExpectRows = &Range{Min: 1}
	case q.Limit > 0:
		in.ExpectRows = &Range{Min: 1, Max: int64(q.Limit)}
	case len(q.Compare) > 0 && len(q.Dimensions) == 0:
		// One row per period compared: a period with no rows would drop
		// out of the comparison without a word (found from outside:
		// "loans last quarter vs the quarter before" showed the quarter
		// before alone, at 1.00, the data ending in June).
		in.ExpectRows = &Range{Min: int64(len(q.Compare)), Max: int64(len(q.Compare))}
		in.MissingPeriods = missingPeriods(t, q.Compare)
	}
	if m == nil {
		return in
	}
	in.Contradictions = Contradictions(m, q)
	in.ZeroGroups = ZeroGroupsMissing(m, q)
	in.PeriodDate = PeriodDate(m, q)
	if in.PeriodDate == "" {
		in.PeriodDate = PeriodUndated(m, q)
	}
	in.GrainDate = GrainDate(m, q)
	in.NotYetStarted = NotYetStarted(m, q)
	in.FanOuts = FanOuts(m, q)
	in.KeyedColumns = keyedColumns(m, q)
	for _, f := range q.Filters {
		if f.Op != semantic.OpEq && f.Op != semantic.OpIn {
			continue
		}
		known := knownValues(m, f.Field)
		if known == nil {
			continue
		}
		for _, v := range f.Values {
			s, ok := v.(string)
			if !ok {
				continue
			}
			lit := FilterLiteral{Field: f.Field, Value: s, Known: containsFold(known, s)}
			if !lit.Known {
				lit.KnownIn = knownElsewhere(m, s)
			}
			lit.Unspelled = unspelled(m, f, s, known)
			in.Filters = append(in.Filters, lit)
		}
	}
	return in
}

// KnownValues returns the values the model lists for a dimension or an
// entity column, or nil.
func KnownValues(m *semantic.Model, field string) []string { return knownValues(m, field) }

// knownValues returns the values the model lists for a dimension or an
// entity column, or nil.
func knownValues(m *semantic.Model, field string) []string {
	if d := m.Dimension(field); d != nil {
		if len(d.Values) > 0 {
			return d.Values
		}
		field = d.Expr
	}
	ent, col, ok := strings.Cut(field, ".")
	if !ok {
		return nil
	}
	e := m.Entity(ent)
	if e == nil {
		return nil
	}
	if c := e.Column(col); c != nil && len(c.Values) > 0 {
		return c.Values
	}
	return nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// Run runs every check that applies to in and computes the confidence.
func Run(in Input) Report {
	var checks []Check
	rows := rowCount(in)
	empty := rows == 0 && !in.Truncated
	checks = append(checks, checkEmpty(in, empty))
	if !empty {
		if c, ok := checkNulls(in); ok {
			checks = append(checks, c)
		}
		if c, ok := checkDuplicates(in); ok {
			checks = append(checks, c)
		}
		if c, ok := checkLabels(in); ok {
			checks = append(checks, c)
		}
		if c, ok := checkSpellings(in); ok {
			checks = append(checks, c)
		}
		if c, ok := checkRowCount(in, rows); ok {
			checks = append(checks, c)
		}
	}
	checks = append(checks, checkTruncated(in, rows))
	if c, ok := checkFilters(in); ok {
		checks = append(checks, c)
	}
	if len(in.Contradictions) > 0 {
		checks = append(checks, Check{Name: CheckSatisfiable, Status: Fail, Detail: strings.Join(in.Contradictions, "; ")})
	}
	if in.PeriodDate != "" {
		checks = append(checks, Check{Name: CheckPeriodDate, Status: Warn, Detail: in.PeriodDate})
	}
	if in.GrainDate != "" {
		checks = append(checks, Check{Name: CheckGrainDate, Status: Fail, Detail: in.GrainDate})
	}
	if in.NotYetStarted != "" {
		checks = append(checks, Check{Name: CheckStartDate, Status: Warn, Detail: in.NotYetStarted})
	}
	switch {
	case len(in.ZeroGroups) > 0 && in.ZeroGroupsControl != "":
		checks = append(checks, Check{Name: CheckZeroGroups, Status: Pass, Detail: in.ZeroGroupsControl})
	case len(in.ZeroGroups) > 0:
		var why []string
		for _, z := range in.ZeroGroups {
			why = append(why, z.Why)
		}
		checks = append(checks, Check{Name: CheckZeroGroups, Status: Fail, Detail: strings.Join(why, "; ")})
	}
	checks = append(checks, overSeries(in)...)
	if c, ok := unfinishedRows(in); ok {
		checks = append(checks, c)
	}
	switch {
	case len(in.FanOuts) > 0:
		checks = append(checks, Check{Name: CheckFanOut, Status: Fail, Detail: strings.Join(in.FanOuts, "; ")})
	case in.FanOutGuarded:
		checks = append(checks, Check{Name: CheckFanOut, Status: Pass,
			Detail: "each measure was aggregated at its own grain before joining"})
	}
	return Report{Checks: checks, Confidence: Confidence(checks)}
}

// Confidence is the documented function of the checks' statuses:
// 1.0 × 0.85 per warning × 0.40 per failure, clamped to [0, 1] and rounded
// to two decimals.
func Confidence(checks []Check) float64 {
	c := 1.0
	for _, ch := range checks {
		switch ch.Status {
		case Warn:
			c *= WarnFactor
		case Fail:
			c *= FailFactor
		}
	}
	c = math.Max(0, math.Min(1, c))
	return math.Round(c*100) / 100
}

// EventChecks returns the checks as the event log records them.
func (r Report) EventChecks() []event.Check {
	out := make([]event.Check, len(r.Checks))
	for i, c := range r.Checks {
		out[i] = event.Check(c)
	}
	return out
}

// Count returns how many checks have the given status.
func (r Report) Count(status string) int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == status {
			n++
		}
	}
	return n
}

func rowCount(in Input) int64 {
	n := in.TotalRows
	if in.Table != nil && int64(len(in.Table.Rows)) > n {
		n = int64(len(in.Table.Rows))
	}
	return n
}

func checkEmpty(in Input, empty bool) Check {
	if !empty {
		return Check{Name: CheckEmpty, Status: Pass, Detail: "the query returned rows"}
	}
	if in.EmptyControl != "" {
		return Check{Name: CheckEmpty, Status: Pass, Detail: "the query returned no rows: " + in.EmptyControl}
	}
	var unknown, all []string
	for _, f := range in.Filters {
		s := fmt.Sprintf("%s = %q", f.Field, f.Value)
		all = append(all, s)
		if !f.Known {
			unknown = append(unknown, s)
		}
	}
	detail := "the query returned no rows"
	switch {
	case len(unknown) > 0:
		detail += "; the filter " + join(unknown) + " matches no known value and may have excluded everything"
	case len(all) > 0 && in.Period != "":
		detail += "; the filter " + join(all) + " or the period " + in.Period + " may have excluded everything"
	case len(all) > 0:
		detail += "; the filter " + join(all) + " may have excluded everything"
	case in.Period != "":
		detail += "; the period " + in.Period + " may hold no data"
	}
	return Check{Name: CheckEmpty, Status: Fail, Detail: detail}
}

func checkNulls(in Input) (Check, bool) {
	if in.Table == nil || len(in.Table.Rows) == 0 {
		return Check{}, false
	}
	var present, nulls []string
	for _, name := range in.MetricColumns {
		i := columnIndex(in.Table, name)
		if i < 0 {
			continue
		}
		allNull := true
		for _, r := range in.Table.Rows {
			if i < len(r) && r[i] != nil {
				allNull = false
				break
			}
		}
		if allNull {
			nulls = append(nulls, name)
		} else {
			present = append(present, name)
		}
	}
	if len(nulls) > 0 {
		where := "every row"
		if in.Truncated || int64(len(in.Table.Rows)) < in.TotalRows {
			where = "every row read"
		}
		return Check{Name: CheckNullMeasure, Status: Fail,
			Detail: join(nulls) + " is NULL in " + where}, true
	}
	if len(present) == 0 {
		return Check{}, false
	}
	return Check{Name: CheckNullMeasure, Status: Pass, Detail: join(present) + " has values"}, true
}

// placeholders are what a text column holds in place of a value.
var placeholders = map[string]bool{"": true, "-": true, "--": true, "—": true, "–": true, "n/a": true, "na": true, "none": true,
	"null": true, "nil": true, "unknown": true, "?": true, "tbd": true, "tba": true, "not set": true, "(none)": true, "(blank)": true}

// checkLabels fails when what names the rows (the dimension columns, or
// every text column of a row list) is mostly placeholders ("-", "N/A",
// empty) or missing (NULL), or when the first row of a ranking is named
// by nothing: the answer would name nobody, or rank the rows that lack a
// value as if they were one ("which country had the most sessions":
// NULL). Reported only when it fails.
func checkLabels(in Input) (Check, bool) {
	t := in.Table
	if t == nil || len(t.Rows) == 0 {
		return Check{}, false
	}
	cols := in.DimensionColumns
	list := len(cols) == 0 && len(in.MetricColumns) == 0
	if list {
		for _, c := range t.Columns {
			if c.Type == quarry.TypeText {
				cols = append(cols, c.Name)
			}
		}
	}
	for _, name := range cols {
		i := columnIndex(t, name)
		if i < 0 || t.Columns[i].Type.IsNumeric() || t.Columns[i].Type.IsTemporal() {
			continue
		}
		var n, bad int
		example := ""
		text := true
		for _, r := range t.Rows {
			n++
			switch v := r[i].(type) {
			default:
				text = false // a column of numbers or mixed values names nothing here
			case nil:
				if list {
					// A list of whole rows shows each row's columns: an
					// optional one left empty (an order's discount code)
					// names no row, and leaves the others as they are.
					continue
				}
				bad++
				if example == "" {
					example = "NULL"
				}
			case string:
				if placeholders[strings.ToLower(strings.TrimSpace(v))] {
					bad++
					if example == "" {
						example = fmt.Sprintf("%q", v)
					}
				}
			}
		}
		switch {
		case !text:
		case bad > 0 && bad*2 >= n:
			return Check{Name: CheckLabels, Status: Fail, Detail: fmt.Sprintf("%d of %d values of %s are placeholders or missing (%s), so the answer names nothing", bad, n, name, example)}, true
		case !list && len(in.MetricColumns) > 0 && t.Rows[0][i] == nil && !labelOrder(t.Rows[1:], i) && measureOrder(t.Rows, columnIndex(t, in.MetricColumns[0])):
			return Check{Name: CheckLabels, Status: Fail, Detail: fmt.Sprintf("the first row has no %s: the rows without one are ranked as if they were one %s", name, name)}, true
		}
	}
	return Check{}, false
}

// labelOrder reports whether rows (two or more) are in the order of their
// labels in column i: a breakdown sorted by its groups, where the group
// with none comes first by the sort, not ranked first by the measure
// (found from outside: "orders by customer city" failed at 0.40).
func labelOrder(rows [][]any, i int) bool {
	if len(rows) < 2 {
		return false
	}
	prev := ""
	for k, r := range rows {
		s, ok := r[i].(string)
		if !ok {
			return false
		}
		s = strings.ToLower(s)
		if k > 0 && s < prev {
			return false
		}
		prev = s
	}
	return true
}

// measureOrder reports whether rows are in the order of the measure in
// column i, highest or lowest first: a ranking, in which the first row
// leads. Rows in the order of a grouping's hidden key (performances by
// house manager, sorted by the staff's id) are not ranked, and the group
// with no name comes first by that sort (found from outside: "the first
// row has no name" failed an unranked breakdown).
func measureOrder(rows [][]any, i int) bool {
	if i < 0 {
		return true
	}
	up, down := true, true
	for k := 1; k < len(rows); k++ {
		a, ok1 := quarry.Float(rows[k-1][i])
		b, ok2 := quarry.Float(rows[k][i])
		if !ok1 || !ok2 {
			return true
		}
		up = up && a <= b
		down = down && a >= b
	}
	return up || down
}

func checkDuplicates(in Input) (Check, bool) {
	if in.Table == nil || len(in.Table.Rows) < 2 || in.OneRowEach {
		return Check{}, false
	}
	var idx []int
	for _, name := range in.DimensionColumns {
		if i := columnIndex(in.Table, name); i >= 0 {
			idx = append(idx, i)
		}
	}
	what := "dimension key"
	if len(idx) == 0 {
		if len(in.DimensionColumns) > 0 || len(in.MetricColumns) > 0 {
			return Check{}, false
		}
		what = "row"
		for i := range in.Table.Columns {
			idx = append(idx, i)
		}
	}
	seen := make(map[string]int, len(in.Table.Rows))
	dups := 0
	first := ""
	for _, r := range in.Table.Rows {
		var b strings.Builder
		var shown []string
		for _, i := range idx {
			var v any
			if i < len(r) {
				v = r[i]
			}
			b.WriteString(keyOf(v))
			b.WriteByte(0)
			shown = append(shown, display(v))
		}
		k := b.String()
		seen[k]++
		if seen[k] == 2 {
			dups++
			if first == "" {
				first = "(" + strings.Join(shown, ", ") + ")"
			}
		}
	}
	if dups > 0 {
		verb := what + " appears"
		if dups > 1 {
			verb = what + "s appear"
		}
		return Check{Name: CheckDuplicates, Status: Warn,
			Detail: fmt.Sprintf("%d %s more than once, first %s; a join may have duplicated rows", dups, verb, first)}, true
	}
	return Check{Name: CheckDuplicates, Status: Pass, Detail: "every " + what + " appears once"}, true
}

func checkRowCount(in Input, rows int64) (Check, bool) {
	r := in.ExpectRows
	if r == nil {
		return Check{}, false
	}
	var want string
	switch {
	case r.Max > 0 && r.Min == r.Max:
		want = fmt.Sprintf("exactly %d", r.Min)
	case r.Max > 0 && r.Min > 0:
		want = fmt.Sprintf("between %d and %d", r.Min, r.Max)
	case r.Max > 0:
		want = fmt.Sprintf("at most %d", r.Max)
	default:
		want = fmt.Sprintf("at least %d", r.Min)
	}
	unit := " rows"
	if r.Max == 1 {
		unit = " row"
	}
	got := plural(rows, "row")
	if in.Truncated {
		got = "at least " + got
	}
	if rows < r.Min && len(in.MissingPeriods) > 0 {
		return Check{Name: CheckRowCount, Status: Warn,
			Detail: "expected " + want + unit + ", got " + got + ": " + strings.Join(in.MissingPeriods, " and ") + " has no rows to measure, so the comparison is not made"}, true
	}
	if rows < r.Min || (r.Max > 0 && rows > r.Max) {
		return Check{Name: CheckRowCount, Status: Warn,
			Detail: "expected " + want + unit + ", got " + got}, true
	}
	return Check{Name: CheckRowCount, Status: Pass, Detail: got + ", as expected (" + want + unit + ")"}, true
}

func checkTruncated(in Input, rows int64) Check {
	read := int64(0)
	if in.Table != nil {
		read = int64(len(in.Table.Rows))
	}
	if in.Truncated {
		return Check{Name: CheckTruncated, Status: Warn,
			Detail: "the result was cut at " + plural(read, "row") + " by the row cap; figures over the whole result may be incomplete"}
	}
	return Check{Name: CheckTruncated, Status: Pass, Detail: "the whole result was read (" + plural(rows, "row") + ")"}
}

func checkFilters(in Input) (Check, bool) {
	if len(in.Filters) == 0 {
		return Check{}, false
	}
	var unknown []string
	for _, f := range in.Filters {
		if len(f.Unspelled) > 0 {
			unknown = append(unknown, leftOut(f))
		}
		if !f.Known {
			u := fmt.Sprintf("%q is not a known value of %s", f.Value, f.Field)
			if len(f.KnownIn) > 0 {
				u += fmt.Sprintf(" (it is one of %s)", strings.Join(f.KnownIn, ", "))
			}
			unknown = append(unknown, u)
		}
	}
	if len(unknown) > 0 {
		return Check{Name: CheckFilters, Status: Warn, Detail: strings.Join(unknown, "; ")}, true
	}
	if len(in.Filters) == 1 {
		f := in.Filters[0]
		return Check{Name: CheckFilters, Status: Pass, Detail: fmt.Sprintf("%q is a known value of %s", f.Value, f.Field)}, true
	}
	return Check{Name: CheckFilters, Status: Pass, Detail: fmt.Sprintf("all %d filter values are known values", len(in.Filters))}, true
}

func columnIndex(t *quarry.Table, name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	for i, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

// keyOf renders a value so that equal values, and only those, give equal
// keys: 1 and 1.0 are the same group, "1" is not.
func keyOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "n"
	case string:
		return "s" + x
	case []byte:
		return "s" + string(x)
	case int64:
		return "f" + strconv.FormatFloat(float64(x), 'g', -1, 64)
	case int:
		return "f" + strconv.FormatFloat(float64(x), 'g', -1, 64)
	case float64:
		return "f" + strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return "b" + strconv.FormatBool(x)
	case time.Time:
		return "t" + x.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("%T:%v", v, v)
}

func display(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return x
	case time.Time:
		return x.Format(time.RFC3339)
	}
	return fmt.Sprint(v)
}

func join(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}

// ColumnsByRole splits the compiler's result columns into measures (metric,
// share and change columns) and dimensions (dimension and period columns),
// as Input wants them.
func ColumnsByRole(out []semantic.OutColumn) (metrics, dimensions []string) {
	for _, c := range out {
		switch c.Role {
		case semantic.RoleMetric, semantic.RoleShare, semantic.RoleChange:
			metrics = append(metrics, c.Name)
		case semantic.RoleDimension, semantic.RolePeriod:
			dimensions = append(dimensions, c.Name)
		}
	}
	return metrics, dimensions
}

// missingPeriods are the labels of compared periods that no row of t
// holds in its period column.
func missingPeriods(t *quarry.Table, periods []semantic.Period) []string {
	if t == nil {
		return nil
	}
	col := -1
	for i, c := range t.Columns {
		if c.Name == "period" {
			col = i
		}
	}
	if col < 0 {
		return nil
	}
	have := map[string]bool{}
	for _, r := range t.Rows {
		have[fmt.Sprint(r[col])] = true
	}
	var out []string
	for _, p := range periods {
		if !have[p.Label] {
			out = append(out, p.Label)
		}
	}
	return out
}
