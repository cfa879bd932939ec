package watch

import (
	"context"
	"math"
	"sort"
	"time"

	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Investigation says where an alert's change came from: the metric broken
// down by each of the model's dimensions that apply to it, in the alert's
// period against its baseline period (the rolling window before it, per
// period), and the segments that moved most.
type Investigation struct {
	BaselineStart string `json:"baseline_start"` // first day of the baseline window
	BaselineEnd   string `json:"baseline_end"`   // last day (included)
	// Contributors are the segments that moved most, largest first.
	Contributors []Contribution `json:"contributors"`
	// Runs are the recorded runs that read the breakdowns.
	Runs []string `json:"runs,omitempty"`
	// Skipped names the dimensions that could not be read, with why.
	Skipped []string `json:"skipped,omitempty"`
}

// Contribution is one segment's move.
type Contribution struct {
	Dimension string  `json:"dimension"`
	Value     string  `json:"value"`
	Current   float64 `json:"current"`
	Baseline  float64 `json:"baseline"` // per period, over the baseline window
	Delta     float64 `json:"delta"`
	// Share is Delta as a fraction of the whole's change (additive
	// metrics only; 0 otherwise).
	Share float64 `json:"share,omitempty"`
}

// BaselineWindow is the window an alert's period is compared with in an
// investigation: the rolling window of its grain before the period, as
// [from, to).
func BaselineWindow(start time.Time, g semantic.Grain) (from, to time.Time) {
	s, err := seasonOf(g)
	if err != nil {
		return start, start
	}
	from = start
	for range s.window {
		switch g {
		case semantic.GrainDay:
			from = from.AddDate(0, 0, -1)
		case semantic.GrainWeek:
			from = from.AddDate(0, 0, -7)
		case semantic.GrainMonth:
			from = from.AddDate(0, -1, 0)
		}
	}
	return from, start
}

// BreakdownQuery is the metric by one dimension over [from, to), in the
// segment whose values (of the monitor's dimensions, in order) are key.
func (m Monitor) BreakdownQuery(dim string, key []string, from, to time.Time) semantic.Query {
	q := semantic.Query{
		Metrics:    []string{m.Metric},
		Dimensions: []semantic.DimRef{{Name: dim}},
		Filters:    m.semanticFilters(),
		TimeRange:  &semantic.TimeRange{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly)},
	}
	for i, d := range m.Dimensions {
		if i < len(key) {
			q.Filters = append(q.Filters, semantic.Filter{Field: d, Op: semantic.OpEq, Values: []any{key[i]}})
		}
	}
	return q
}

// breakdownDimensions are the dimensions an alert is broken down by: the
// model's dimensions with known values (few of them: a category, a
// status, a channel), other than the monitor's own, that split the
// metric's rows (each row has one value of it: the dimension is on the
// metric's entity or one it reaches through many-to-one relationships).
func (r *Runner) breakdownDimensions(m Monitor) []string {
	var out []string
	for _, d := range r.Model.Dimensions {
		if d.Type == "time" || len(d.Values) == 0 || !Splits(r.Model, m.Metric, d.Name) {
			continue
		}
		own := false
		for _, x := range m.Dimensions {
			own = own || strings.EqualFold(x, d.Name)
		}
		if !own {
			out = append(out, d.Name)
		}
	}
	return out
}

// Splits reports whether each row the metric counts has exactly one
// value of the dimension: the dimension is on the metric's entity (each
// entity of a derived metric's parts) or on one reached from it through
// many-to-one relationships. Orders split by channel or by the customer's
// country; not by a web session's device, which would count an order once
// per session of its customer.
func Splits(model *semantic.Model, metric, dimension string) bool {
	d := model.Dimension(dimension)
	entities := metricEntities(model, metric, 0)
	if d == nil || len(entities) == 0 {
		return false
	}
	for _, e := range entities {
		if !reachesOne(model, e, d.Entity) {
			return false
		}
	}
	return true
}

// metricEntities are the entities a metric counts rows of: its own, or
// those of the metrics a derived one is made of.
func metricEntities(model *semantic.Model, name string, depth int) []string {
	mt := model.Metric(name)
	if mt == nil || depth > 8 {
		return nil
	}
	if mt.Derived == "" {
		return []string{mt.Entity}
	}
	var out []string
	rest := mt.Derived
	for {
		i := strings.Index(rest, "{")
		j := strings.Index(rest, "}")
		if i < 0 || j < i {
			return out
		}
		out = append(out, metricEntities(model, rest[i+1:j], depth+1)...)
		rest = rest[j+1:]
	}
}

// reachesOne reports whether each row of entity from has at most one row
// of entity to: the same entity, or one reached through many-to-one (and
// one-to-one) relationships.
func reachesOne(model *semantic.Model, from, to string) bool {
	seen := map[string]bool{strings.ToLower(from): true}
	next := []string{strings.ToLower(from)}
	for len(next) > 0 {
		e := next[0]
		next = next[1:]
		if e == strings.ToLower(to) {
			return true
		}
		for _, rel := range model.Relationships {
			var other string
			switch {
			case strings.EqualFold(rel.From, e) && (rel.Cardinality == semantic.ManyToOne || rel.Cardinality == semantic.OneToOne):
				other = rel.To
			case strings.EqualFold(rel.To, e) && (rel.Cardinality == semantic.OneToMany || rel.Cardinality == semantic.OneToOne):
				other = rel.From
			default:
				continue
			}
			if o := strings.ToLower(other); !seen[o] {
				seen[o] = true
				next = append(next, o)
			}
		}
	}
	return false
}

// investigate breaks the alert's period and its baseline window down by
// each dimension, through the same Source (so the guard and the record),
// and keeps the five segments that moved most in the alert's direction.
// A dimension the metric cannot be cut by is passed over; one whose
// query fails is listed in Skipped.
func (r *Runner) investigate(ctx context.Context, m Monitor, a Alert, key []string) *Investigation {
	start, err := time.Parse(time.DateOnly, a.PeriodStart)
	if err != nil {
		return &Investigation{Skipped: []string{"the alert's period cannot be read"}}
	}
	end := PeriodEnd(start, m.Grain)
	from, to := BaselineWindow(start, m.Grain)
	s, _ := seasonOf(m.Grain)
	inv := &Investigation{BaselineStart: from.Format(time.DateOnly), BaselineEnd: to.AddDate(0, 0, -1).Format(time.DateOnly)}
	additive := Additive(r.Model, m.Metric)
	var all []Contribution
	for _, dim := range r.breakdownDimensions(m) {
		label := "investigation of monitor " + m.Name + " by " + dim
		cur, run, err := r.Source.Metric(ctx, label, m.BreakdownQuery(dim, key, start, end))
		if run != "" {
			inv.Runs = append(inv.Runs, run)
		}
		if err != nil {
			if k := quarry.KindOf(err); k != quarry.KindInput && k != quarry.KindUnsupported {
				inv.Skipped = append(inv.Skipped, dim+": "+quarry.Message(err))
			}
			continue
		}
		base, run, err := r.Source.Metric(ctx, label, m.BreakdownQuery(dim, key, from, to))
		if run != "" {
			inv.Runs = append(inv.Runs, run)
		}
		if err != nil {
			inv.Skipped = append(inv.Skipped, dim+": "+quarry.Message(err))
			continue
		}
		cs, err := Contributions(dim, cur, base, s.window, additive)
		if err != nil {
			inv.Skipped = append(inv.Skipped, dim+": "+quarry.Message(err))
			continue
		}
		all = append(all, cs...)
	}
	sign := 1.0
	if a.Direction == "down" {
		sign = -1
	}
	inv.Contributors = Top(all, 5, sign)
	return inv
}

// Contributions compares a dimension's breakdown in the alert's period
// (cur) with its breakdown over the baseline window (base; divided by
// periods to give a per-period figure when the metric is additive, as an
// average or a ratio over the window already is one). Both tables hold the dimension's
// value first and the metric last. For an additive metric each share is
// of the whole's change over the dimension's values.
func Contributions(dim string, cur, base *quarry.Table, periods int, additive bool) ([]Contribution, error) {
	c, err := valuesOf(cur)
	if err != nil {
		return nil, err
	}
	b, err := valuesOf(base)
	if err != nil {
		return nil, err
	}
	if periods < 1 {
		periods = 1
	}
	keys := map[string]bool{}
	for k := range c {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []Contribution
	var total float64
	for k := range keys {
		per := b[k]
		if additive {
			per /= float64(periods) // a sum over the window, per period
		}
		x := Contribution{Dimension: dim, Value: k, Current: c[k], Baseline: round(per)}
		x.Delta = round(x.Current - x.Baseline)
		total += x.Delta
		out = append(out, x)
	}
	if additive && total != 0 {
		for i := range out {
			out[i].Share = round(out[i].Delta / total)
		}
	}
	sortContributions(out)
	return out, nil
}

// Top keeps the n contributions that moved most, over every dimension,
// moving in the direction of the whole's change (sign: -1 a fall, 1 a
// rise; 0 either way).
func Top(cs []Contribution, n int, sign float64) []Contribution {
	var keep []Contribution
	for _, c := range cs {
		if sign == 0 || c.Delta*sign > 0 {
			keep = append(keep, c)
		}
	}
	sortContributions(keep)
	if len(keep) > n {
		keep = keep[:n]
	}
	return keep
}

func sortContributions(cs []Contribution) {
	sort.Slice(cs, func(i, j int) bool {
		if a, b := math.Abs(cs[i].Delta), math.Abs(cs[j].Delta); a != b {
			return a > b
		}
		if cs[i].Dimension != cs[j].Dimension {
			return cs[i].Dimension < cs[j].Dimension
		}
		return cs[i].Value < cs[j].Value
	})
}

func valuesOf(t *quarry.Table) (map[string]float64, error) {
	out := map[string]float64{}
	if t == nil {
		return out, nil
	}
	if len(t.Columns) < 2 {
		return nil, quarry.Errorf(quarry.KindInput, "a breakdown needs a dimension column and a value column")
	}
	last := len(t.Columns) - 1
	for _, row := range t.Rows {
		v, ok := numberOf(row[last])
		if !ok {
			return nil, quarry.Errorf(quarry.KindInput, "the breakdown's value %v is not a number", row[last])
		}
		out[cellText(row[0])] += v
	}
	return out, nil
}
