package eval

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// Verified is the confidence from which an answer is shown as verified;
// a fault is detected when the checks bring its answer below it.
const Verified = 0.9

// Fault is a class of mistake a planner makes: Apply turns a correct
// semantic query into a wrong one, or reports that the class does not
// apply to it. m holds the query's metrics; Apply may return a model with
// an ad-hoc metric added.
type Fault struct {
	Name  string
	What  string
	Apply func(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool)
}

// Faults are the classes the fault benchmark injects. A fan-out is a
// measure computed over the rows of a child entity (an order counted once
// per order line): the compiler aggregates a measure at its own grain
// before joining, so a fan-out comes from a measure defined at the wrong
// grain, which is what fan_out injects.
func Faults() []Fault {
	return []Fault{
		{"contradictory_filter", "a second value required of a filtered column (status = 'active' AND status = 'cancelled')", contradict},
		{"dropped_filter", "a filter the question asks for left out", dropFilter},
		{"wrong_value", "a filter on another known value of the same column (France for Germany)", wrongValue},
		{"dropped_period", "the question's period left out", dropPeriod},
		{"wrong_period", "the period moved by a year", shiftPeriod},
		{"wrong_date", "the period applied to another date column", wrongDate},
		{"wrong_shape", "a single figure grouped by a dimension", addGrouping},
		{"dropped_grouping", "a breakdown answered with one figure", dropGrouping},
		{"wrong_grain", "a time breakdown at another grain", wrongGrain},
		{"count_for_sum", "rows counted where the question asks for an amount", countForSum},
		{"swapped_metric", "another measure of the same rows", swapMetric},
		{"wrong_limit", "a top N with another N", wrongLimit},
		{"flipped_order", "a ranking from the other end", flipOrder},
		{"fan_out", "a sum or count computed over the rows of a child table (an order once per order line)", fanOut},
	}
}

// FaultCount is what one class (or the unmodified queries) came to.
type FaultCount struct {
	Class string `json:"class"`
	What  string `json:"what,omitempty"`
	// Injected faults changed the result (a wrong answer); Unchanged ones
	// left it as it was and are not counted.
	Injected  int `json:"injected"`
	Unchanged int `json:"unchanged"`
	// Detected are injected faults whose answer the checks brought below
	// Verified (for the unmodified queries: false alarms).
	Detected int      `json:"detected"`
	Missed   []string `json:"missed,omitempty"` // question: what the checks said, for the first few
}

// Rate is Detected over Injected, or 0.
func (c FaultCount) Rate() float64 {
	if c.Injected == 0 {
		return 0
	}
	return float64(c.Detected) / float64(c.Injected)
}

// FaultReport is the fault benchmark's outcome.
type FaultReport struct {
	// Cases are the answers the faults were injected into: the cases the
	// builtin planner answered correctly with a semantic query.
	Cases   int          `json:"cases"`
	Clean   FaultCount   `json:"clean"` // Detected = false alarms
	Classes []FaultCount `json:"classes"`
}

// RunFaults injects every fault class into the builtin planner's correct
// semantic queries of results (a golden set's graded cases) and runs each
// faulty query through the pipeline as if a planner had written it: the
// same compile, guard, execute, checks and confidence (analyst.Exec and
// analyst.Explain). An injected fault is one whose result differs from
// the correct one; it is detected when the checks bring its answer below
// Verified. The unmodified queries measure false alarms.
func RunFaults(ctx context.Context, an *analyst.Analyst, k *analyst.Knowledge, set *Set, results []Result, asOf time.Time) (FaultReport, error) {
	right := map[string]bool{}
	for _, r := range results {
		if r.Status == StatusCorrect && r.Outcome == OutcomeAnswered {
			right[r.ID] = true
		}
	}
	faults := Faults()
	rep := FaultReport{Clean: FaultCount{Class: "unmodified"}}
	for _, f := range faults {
		rep.Classes = append(rep.Classes, FaultCount{Class: f.Name, What: f.What})
	}
	for _, c := range set.Cases {
		if !right[c.ID] {
			continue
		}
		day := c.AsOf
		if day.IsZero() {
			day = set.AsOf
		}
		if day.IsZero() {
			day = asOf
		}
		pl, read, err := k.Plan(ctx, c.Question, day)
		if err != nil {
			return rep, err
		}
		if pl == nil || pl.Query == nil || (pl.Kind != planner.KindMetric && pl.Kind != planner.KindRows) {
			continue
		}
		m := pl.Model(k.Model)
		clean, conf, err := answerOf(ctx, an, m, *pl.Query, read, day)
		if err != nil {
			continue // not a query this connection runs: nothing to inject into
		}
		rep.Cases++
		rep.Clean.Injected++
		if conf < Verified {
			rep.Clean.Detected++
			rep.Clean.Missed = appendFew(rep.Clean.Missed, c.Question)
		}
		for i, f := range faults {
			fm, fq, ok := f.Apply(m, cloneQuery(*pl.Query))
			if !ok {
				continue
			}
			got, conf, err := answerOf(ctx, an, fm, fq, read, day)
			fc := &rep.Classes[i]
			switch {
			case err != nil:
				continue // the faulty query cannot be built or run: no wrong answer to show
			case got == clean:
				fc.Unchanged++
				continue
			}
			fc.Injected++
			if conf < Verified {
				fc.Detected++
			} else {
				fc.Missed = appendFew(fc.Missed, c.Question)
			}
		}
	}
	return rep, ctx.Err()
}

// answerOf runs q through the pipeline's steps and returns its result
// (as text, to compare) and the confidence the checks give it.
func answerOf(ctx context.Context, an *analyst.Analyst, m *semantic.Model, q semantic.Query, question string, asOf time.Time) (string, float64, error) {
	c, err := semantic.Compile(m, q, an.Conn.Dialect())
	if err != nil {
		return "", 0, err
	}
	em := analyst.NewEmitter(event.NewRecorder("fault", time.Now, event.SinkFunc(func(context.Context, ...event.Event) error { return nil })))
	res, err := an.Exec(ctx, em, c.SQL, analyst.Exec{Source: "fault", MaxRows: defaultMaxRows, KeepRows: defaultMaxRows, NoCache: true})
	if err != nil {
		return "", 0, err
	}
	rep, _ := analyst.Explain(ctx, em, analyst.Evidence{Question: question, AsOf: asOf.Format("2006-01-02"), Model: m, Query: &q, Compiled: c, Result: res,
		ZeroGroupsControl: an.ControlZeroGroups(ctx, m, &q), Extra: an.ControlChecks(ctx, m, &q, res, c)})
	return fmt.Sprint(res.Table.Rows), rep.Confidence, nil
}

func appendFew(list []string, s string) []string {
	if len(list) < 5 {
		list = append(list, s)
	}
	return list
}

func cloneQuery(q semantic.Query) semantic.Query {
	q.Metrics = slices.Clone(q.Metrics)
	q.Dimensions = slices.Clone(q.Dimensions)
	q.Filters = slices.Clone(q.Filters)
	q.Order = slices.Clone(q.Order)
	q.Compare = slices.Clone(q.Compare)
	if q.TimeRange != nil {
		tr := *q.TimeRange
		q.TimeRange = &tr
	}
	return q
}

// otherValue is a known value of field that is not among vals.
func otherValue(m *semantic.Model, field string, vals []any) (string, bool) {
	for _, v := range verify.KnownValues(m, field) {
		if !slices.ContainsFunc(vals, func(x any) bool { return strings.EqualFold(fmt.Sprint(x), v) }) {
			return v, true
		}
	}
	return "", false
}

func eqFilter(f semantic.Filter) bool { return f.Op == semantic.OpEq || f.Op == semantic.OpIn }

func contradict(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	for _, f := range q.Filters {
		if !eqFilter(f) {
			continue
		}
		if v, ok := otherValue(m, f.Field, f.Values); ok {
			q.Filters = append(q.Filters, semantic.Filter{Field: f.Field, Op: semantic.OpEq, Values: []any{v}})
			return m, q, true
		}
	}
	return m, q, false
}

func dropFilter(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	if len(q.Filters) == 0 {
		return m, q, false
	}
	q.Filters = q.Filters[1:]
	return m, q, true
}

func wrongValue(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	for i, f := range q.Filters {
		if !eqFilter(f) {
			continue
		}
		if v, ok := otherValue(m, f.Field, f.Values); ok {
			q.Filters[i] = semantic.Filter{Field: f.Field, Op: semantic.OpEq, Values: []any{v}}
			return m, q, true
		}
	}
	return m, q, false
}

func dropPeriod(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	if q.TimeRange == nil {
		return m, q, false
	}
	q.TimeRange = nil
	return m, q, true
}

func shiftPeriod(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	if q.TimeRange == nil || q.TimeRange.From == "" || q.TimeRange.To == "" {
		return m, q, false
	}
	shift := func(d string) string {
		t, err := time.Parse("2006-01-02", d)
		if err != nil {
			return d
		}
		return t.AddDate(-1, 0, 0).Format("2006-01-02")
	}
	q.TimeRange.From, q.TimeRange.To = shift(q.TimeRange.From), shift(q.TimeRange.To)
	return m, q, true
}

// wrongDate applies the period to another date column of a metric's
// entity, or of an entity it joins.
func wrongDate(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	if q.TimeRange == nil || len(q.Metrics) == 0 {
		return m, q, false
	}
	mt := m.Metric(q.Metrics[0])
	if mt == nil {
		return m, q, false
	}
	current := q.TimeRange.Field
	if current == "" {
		current = m.MetricTime(mt)
	}
	for _, e := range m.Entities {
		for _, c := range e.Columns {
			ref := e.Name + "." + c.Name
			if !c.Type.IsTemporal() || strings.EqualFold(ref, current) || m.IsRestricted(e.Name, c.Name) {
				continue
			}
			try := cloneQuery(q)
			try.TimeRange.Field = ref
			if _, err := semantic.Compile(m, try, "sqlite"); err == nil {
				return m, try, true
			}
		}
	}
	return m, q, false
}

// addGrouping groups a single figure by a dimension with known values.
func addGrouping(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	if len(q.Dimensions) > 0 || q.Rows != nil || len(q.Metrics) == 0 || len(q.Compare) > 0 {
		return m, q, false
	}
	for _, d := range m.Dimensions {
		if d.Type == "time" || len(verify.KnownValues(m, d.Name)) < 2 {
			continue
		}
		try := cloneQuery(q)
		try.Dimensions = []semantic.DimRef{{Name: d.Name}}
		if _, err := semantic.Compile(m, try, "sqlite"); err == nil {
			return m, try, true
		}
	}
	return m, q, false
}

func dropGrouping(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	if len(q.Dimensions) == 0 || q.Rows != nil || len(q.Compare) > 0 || q.Share {
		return m, q, false
	}
	q.Dimensions, q.Order, q.Limit, q.Hidden = nil, nil, 0, nil
	return m, q, len(q.Metrics) > 0
}

func wrongGrain(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	next := map[semantic.Grain]semantic.Grain{semantic.GrainDay: semantic.GrainWeek, semantic.GrainWeek: semantic.GrainMonth,
		semantic.GrainMonth: semantic.GrainQuarter, semantic.GrainQuarter: semantic.GrainYear, semantic.GrainYear: semantic.GrainQuarter}
	for i, d := range q.Dimensions {
		if g, ok := next[d.Grain]; ok {
			q.Dimensions[i].Grain = g
			return m, q, true
		}
	}
	return m, q, false
}

var countExpr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^\s*count\s*\(`) })

// countForSum measures an amount metric's rows instead: its entity's
// count metric when the knowledge has one, else an ad-hoc count.
func countForSum(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	for i, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil || mt.Expr == "" || countExpr().MatchString(mt.Expr) || mt.Entity == "" {
			continue
		}
		for _, other := range m.Metrics {
			if other.Entity == mt.Entity && countExpr().MatchString(other.Expr) && len(other.Filters) == 0 {
				q.Metrics[i] = other.Name
				renameOrder(&q, name, other.Name)
				return m, q, true
			}
		}
		mm := *m
		mm.Metrics = append(slices.Clone(m.Metrics), semantic.Metric{Name: mt.Entity + "_count", Entity: mt.Entity, Expr: "COUNT(*)", Time: mt.Time})
		q.Metrics[i] = mt.Entity + "_count"
		renameOrder(&q, name, mt.Entity+"_count")
		return &mm, q, true
	}
	return m, q, false
}

// fanOut redefines a summed or counted measure over the rows of an entity
// whose rows point at the measure's own (order lines for orders), keeping
// its name: each row is then counted once per child row.
func fanOut(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil || mt.Entity == "" || mt.Derived != "" {
			continue
		}
		if k := verify.Additive(mt.Expr); k != "sum" && k != "count" {
			continue
		}
		for _, r := range m.Relationships {
			var child string
			switch {
			case r.To == mt.Entity && r.Cardinality == semantic.ManyToOne:
				child = r.From
			case r.From == mt.Entity && r.Cardinality == semantic.OneToMany:
				child = r.To
			}
			if child == "" || child == mt.Entity {
				continue
			}
			mm := *m
			mm.Metrics = slices.Clone(m.Metrics)
			for i := range mm.Metrics {
				if mm.Metrics[i].Name == name {
					mm.Metrics[i].Entity = child
				}
			}
			if _, err := semantic.Compile(&mm, q, "sqlite"); err == nil {
				return &mm, q, true
			}
		}
	}
	return m, q, false
}

// swapMetric measures another metric of the same entity.
func swapMetric(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	for i, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil || mt.Entity == "" {
			continue
		}
		for _, other := range m.Metrics {
			if other.Name == mt.Name || other.Entity != mt.Entity || other.Expr == mt.Expr || other.Derived != "" {
				continue
			}
			try := cloneQuery(q)
			try.Metrics[i] = other.Name
			renameOrder(&try, name, other.Name)
			if _, err := semantic.Compile(m, try, "sqlite"); err == nil {
				return m, try, true
			}
		}
	}
	return m, q, false
}

func renameOrder(q *semantic.Query, from, to string) {
	for i, o := range q.Order {
		if o.Field == from {
			q.Order[i].Field = to
		}
	}
	for i, h := range q.Hidden {
		if h == from {
			q.Hidden[i] = to
		}
	}
}

func wrongLimit(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	if q.Limit == 0 {
		return m, q, false
	}
	q.Limit += 5
	return m, q, true
}

func flipOrder(m *semantic.Model, q semantic.Query) (*semantic.Model, semantic.Query, bool) {
	if len(q.Order) == 0 || q.Limit == 0 {
		return m, q, false
	}
	q.Order[0].Desc = !q.Order[0].Desc
	return m, q, true
}

// Add sums two reports (of two golden sets).
func (r FaultReport) Add(o FaultReport) FaultReport {
	if len(r.Classes) == 0 {
		return o
	}
	r.Cases += o.Cases
	r.Clean = r.Clean.add(o.Clean)
	for i := range r.Classes {
		if i < len(o.Classes) {
			r.Classes[i] = r.Classes[i].add(o.Classes[i])
		}
	}
	return r
}

func (c FaultCount) add(o FaultCount) FaultCount {
	c.Injected += o.Injected
	c.Unchanged += o.Unchanged
	c.Detected += o.Detected
	for _, m := range o.Missed {
		c.Missed = appendFew(c.Missed, m)
	}
	return c
}

// WriteText prints the report: detection per class and the false alarms.
func (r FaultReport) WriteText(w io.Writer, verbose bool) error {
	fmt.Fprintf(w, "fault injection into %d correct answers (detected = confidence below %.2f)\n", r.Cases, Verified)
	fmt.Fprintf(w, "  %-22s %8s %9s %9s %7s\n", "class", "injected", "detected", "rate", "same")
	for _, c := range r.Classes {
		rate := "—"
		if c.Injected > 0 {
			rate = fmt.Sprintf("%.1f%%", 100*c.Rate())
		}
		fmt.Fprintf(w, "  %-22s %8d %9d %9s %7d\n", c.Class, c.Injected, c.Detected, rate, c.Unchanged)
		if verbose {
			for _, q := range c.Missed {
				fmt.Fprintf(w, "      missed: %s\n", q)
			}
		}
	}
	fa := 0.0
	if r.Clean.Injected > 0 {
		fa = 100 * float64(r.Clean.Detected) / float64(r.Clean.Injected)
	}
	fmt.Fprintf(w, "false alarms on the unmodified queries: %d of %d (%.1f%%)\n", r.Clean.Detected, r.Clean.Injected, fa)
	if verbose {
		for _, q := range r.Clean.Missed {
			fmt.Fprintf(w, "      false alarm: %s\n", q)
		}
	}
	_, err := fmt.Fprintln(w, "(same: the fault left the result unchanged, so it is no wrong answer and is not counted)")
	return err
}
