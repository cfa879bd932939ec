package watch

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Monitor is one monitors/*.yaml file of the knowledge folder, decoded
// and validated by the knowledge package.
type Monitor struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Metric, with Dimensions (one series per combination of their
	// values) and Filters, is what is watched; or Query, the question of
	// a verified query whose SQL returns a period's first day, optional
	// segment columns and the value, one row per period and segment.
	Metric     string         `json:"metric,omitempty"`
	Dimensions []string       `json:"dimensions,omitempty"`
	Filters    []Filter       `json:"filters,omitempty"`
	Query      string         `json:"query,omitempty"`
	Grain      semantic.Grain `json:"grain"`
	// Schedule is as written; Cron is what it was read as.
	Schedule    string    `json:"schedule"`
	Cron        string    `json:"cron"`
	Detector    Detector  `json:"detector"`
	Sensitivity string    `json:"sensitivity"`
	Threshold   float64   `json:"threshold"` // from Sensitivity unless written
	Direction   Direction `json:"direction"`
	// MinVolume: periods whose value and baseline are both below it are
	// not judged; DefaultMinVolume for a count or a sum that names none.
	MinVolume float64 `json:"min_volume,omitempty"`
	// MinHistory is how many periods of history a period needs before it
	// is judged (0: the detector's own minimum); 53 weeks keeps a weekly
	// monitor quiet until it has seen a whole year.
	MinHistory int `json:"min_history,omitempty"`
	// Notify names the channels to tell (names only; delivery is
	// configured elsewhere).
	Notify []string `json:"notify,omitempty"`
	// NotifyLine is the line of notify: in the file; 0 when absent.
	NotifyLine int `json:"-"`
	// MutedUntil, "YYYY-MM-DD", silences the monitor up to and including
	// that day.
	MutedUntil string `json:"muted_until,omitempty"`
	File       string `json:"file"`
	Line       int    `json:"-"`
}

// Filter keeps the rows whose dimension (or entity.column) Field
// compares by Op ("=", "!=", "in", "not_in", "<", "<=", ">", ">=",
// "like", "starts_with", "ends_with") with Values.
type Filter struct {
	Field  string   `json:"field"`
	Op     string   `json:"op"`
	Values []string `json:"values"`
}

// Semantic is the filter as the semantic compiler takes it.
func (f Filter) Semantic() semantic.Filter {
	vals := make([]any, len(f.Values))
	for i, v := range f.Values {
		vals[i] = v
	}
	return semantic.Filter{Field: f.Field, Op: semantic.Op(f.Op), Values: vals}
}

// FilterOps lists the operators a monitor's filter takes.
func FilterOps() []string {
	return []string{"=", "!=", "in", "not_in", "<", "<=", ">", ">=", "like", "starts_with", "ends_with"}
}

// Muted reports whether the monitor is muted on the day of now.
func (m Monitor) Muted(now time.Time) bool {
	return m.MutedUntil != "" && now.Format(time.DateOnly) <= m.MutedUntil
}

// Watches says what the monitor watches, in a line: "orders by
// channel where country in Germany, France, weekly".
func (m Monitor) Watches() string {
	s := m.Metric
	if m.Query != "" {
		s = "verified query " + strconv.Quote(m.Query)
	}
	if len(m.Dimensions) > 0 {
		s += " by " + strings.Join(m.Dimensions, ", ")
	}
	for _, f := range m.Filters {
		s += fmt.Sprintf(" where %s %s %s", f.Field, f.Op, strings.Join(f.Values, ", "))
	}
	return s + ", " + map[semantic.Grain]string{semantic.GrainDay: "daily", semantic.GrainWeek: "weekly", semantic.GrainMonth: "monthly"}[m.Grain]
}

// Config is how the monitor judges its series; fillZero says whether a
// missing period is a zero (see Config.FillZero).
func (m Monitor) Config(fillZero bool) Config {
	return Config{Grain: m.Grain, Detector: m.Detector, Threshold: m.Threshold, Direction: m.Direction, MinVolume: m.MinVolume, MinHistory: m.MinHistory, FillZero: fillZero}
}

// SemanticQuery is the metric query of a metric monitor: the metric by its
// own time axis at the monitor's grain and by its dimensions, filtered,
// over the periods that start on or after from (when set) and end on or
// before asOf.
func (m Monitor) SemanticQuery(from, asOf time.Time) semantic.Query {
	q := semantic.Query{
		Metrics:    []string{m.Metric},
		Dimensions: []semantic.DimRef{{Name: "time", Grain: m.Grain}},
		Filters:    m.semanticFilters(),
		TimeRange:  &semantic.TimeRange{To: PeriodStart(asOf, m.Grain).Format(time.DateOnly)},
	}
	for _, d := range m.Dimensions {
		q.Dimensions = append(q.Dimensions, semantic.DimRef{Name: d})
	}
	if !from.IsZero() {
		q.TimeRange.From = PeriodStart(from, m.Grain).Format(time.DateOnly)
	}
	return q
}

func (m Monitor) semanticFilters() []semantic.Filter {
	var out []semantic.Filter
	for _, f := range m.Filters {
		out = append(out, f.Semantic())
	}
	return out
}

// DefaultMinVolume is the min_volume of a monitor of a count or a sum
// that sets none: a count below 10 moves by a third or more by chance
// alone (a count's natural spread is its square root), so a segment of
// a few orders a period would alert on noise, and a monitor by customer
// would alert on thousands of them. Averages, ratios and verified
// queries (whose unit quarry does not know) have none by default.
const DefaultMinVolume = 10

// Additive reports whether a missing period of the metric is a zero: a
// count or a sum, not an average or a ratio.
func Additive(model *semantic.Model, metric string) bool {
	mt := model.Metric(metric)
	return mt != nil && mt.Additive()
}

// Series is one segment's points: all of them when the monitor has no
// dimensions.
type Series struct {
	// Segment names the dimension values, "channel=web, country=France";
	// empty for the whole.
	Segment string
	Key     []string // the segment's values, in column order
	Points  []Point
}

// MaxSegments is the most segments a monitor may watch: each is a
// series judged on its own, kept in memory and told of, and a monitor by
// customer or by customer and product (thousands of tiny series) costs
// gigabytes and raises alerts no one can read.
const MaxSegments = 200

// SeriesOf reads a result into series at the grain g: its first column
// is the period's first day, its last the value, and the columns between
// name the segment. Rows with no period are left out; a value that is
// NULL is a zero. A period that is not the first day of a period of g
// (a Monday for weeks, the 1st for months) is refused rather than
// re-bucketed: daily rows read as months would give one day's value as
// the month's. More than MaxSegments segments are refused, as soon as the
// one too many is read.
func SeriesOf(t *quarry.Table, g semantic.Grain) ([]Series, error) {
	if t == nil || len(t.Columns) < 2 {
		return nil, quarry.Errorf(quarry.KindInput, "a monitor's query must return a period column first and a value column last")
	}
	last := len(t.Columns) - 1
	bySeg := map[string]*Series{}
	var order []string
	for i, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return nil, quarry.Errorf(quarry.KindInput, "row %d has %d cells, not %d", i+1, len(row), len(t.Columns))
		}
		start, ok := dateOf(row[0])
		if !ok {
			if row[0] == nil {
				continue
			}
			return nil, quarry.Errorf(quarry.KindInput, "the first column %s must hold dates; row %d holds %v", t.Columns[0].Name, i+1, row[0])
		}
		if !PeriodStart(start, g).Equal(start) {
			return nil, quarry.Errorf(quarry.KindInput, "the first column %s must hold each period's first day at the %s grain (%s); row %d holds %s, a %s: group the query by %s, or change the monitor's grain",
				t.Columns[0].Name, g, firstDay(g), i+1, start.Format(time.DateOnly), start.Weekday(), g)
		}
		v, ok := numberOf(row[last])
		if !ok {
			return nil, quarry.Errorf(quarry.KindInput, "the last column %s must hold numbers; row %d holds %v", t.Columns[last].Name, i+1, row[last])
		}
		var parts, key []string
		for c := 1; c < last; c++ {
			parts = append(parts, t.Columns[c].Name+"="+cellText(row[c]))
			key = append(key, cellText(row[c]))
		}
		seg := strings.Join(parts, ", ")
		s := bySeg[seg]
		if s == nil {
			if len(order) == MaxSegments {
				return nil, quarry.Errorf(quarry.KindTooCostly, "the query has more than %d segments (%s); watch a coarser dimension, or add filters", MaxSegments, segmentColumns(t))
			}
			s = &Series{Segment: seg, Key: key}
			bySeg[seg] = s
			order = append(order, seg)
		}
		s.Points = append(s.Points, Point{Start: start, Value: v})
	}
	sort.Strings(order)
	out := make([]Series, len(order))
	for i, seg := range order {
		out[i] = *bySeg[seg]
	}
	return out, nil
}

// firstDay says which days start a period of g.
func firstDay(g semantic.Grain) string {
	switch g {
	case semantic.GrainWeek:
		return "a Monday"
	case semantic.GrainMonth:
		return "the 1st of a month"
	}
	return "any day"
}

// segmentColumns names the columns that make a result's segments.
func segmentColumns(t *quarry.Table) string {
	var names []string
	for _, c := range t.Columns[1 : len(t.Columns)-1] {
		names = append(names, c.Name)
	}
	return "one per distinct " + strings.Join(names, ", ")
}

func dateOf(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.UTC), true
	case string:
		if len(x) >= 10 {
			if t, err := time.Parse(time.DateOnly, x[:10]); err == nil {
				return t, true
			}
		}
	case []byte:
		return dateOf(string(x))
	}
	return time.Time{}, false
}

func numberOf(v any) (float64, bool) {
	switch x := v.(type) {
	case nil:
		return 0, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	case []byte:
		return numberOf(string(x))
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return "(none)"
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}
