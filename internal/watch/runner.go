package watch

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/watch/schedule"
)

// Source reads a monitor's data through the pipeline every answer goes
// through: the guard, the connection's limits, a recorded run.
type Source interface {
	// Metric compiles a semantic query, runs it and returns its rows and
	// the id of the run that read them; label says which monitor asked.
	Metric(ctx context.Context, label string, q semantic.Query) (*quarry.Table, string, error)
	// SQL runs a verified query's statement the same way.
	SQL(ctx context.Context, label, sql string) (*quarry.Table, string, error)
}

// Notifier tells people about an alert; to names their channels. It
// returns how the delivery to each channel went; the error is for an
// alert that could not be kept at all (then the run fails and the next
// one tells again). A channel that failed is a Delivery, not an error: the
// alert is kept and the other channels are still told.
type Notifier interface {
	Notify(ctx context.Context, to []string, a Alert) ([]Delivery, error)
}

// Delivery is how telling one channel of one alert went.
type Delivery struct {
	Channel string `json:"channel"`
	// Segment and PeriodStart say which alert it was.
	Segment     string `json:"segment,omitempty"`
	PeriodStart string `json:"period_start"`
	Kind        string `json:"kind"` // the alert's kind
	OK          bool   `json:"ok"`
	Tries       int    `json:"tries"`
	// Error says why it failed, in one line without a secret.
	Error string `json:"error,omitempty"`
}

// StateStore keeps what the runner must remember between runs.
type StateStore interface {
	Load(ctx context.Context) (State, error)
	// Save records the memory of each monitor in s and leaves the other
	// monitors' as they are, so that runners of different monitors (two
	// workers of a queue) never undo each other's.
	Save(ctx context.Context, s State) error
}

// State is what the runner remembers.
type State struct {
	Monitors map[string]MonitorState `json:"monitors"`
}

// MonitorState is one monitor's memory: when it last ran and, per
// segment, the first day of the last period whose notices were handled
// (so that a period is never notified twice).
type MonitorState struct {
	LastRun time.Time         `json:"last_run"`
	Handled map[string]string `json:"handled,omitempty"`
}

// Runner runs monitors.
type Runner struct {
	Model *semantic.Model
	// Verified are the verified queries' SQL by question.
	Verified map[string]string
	Source   Source
	Notifier Notifier
	State    StateStore
	// Investigate, when set, breaks each new alert of a metric monitor
	// down by the model's dimensions (see Investigation).
	Investigate bool
}

// Checked is a monitor's series, judged.
type Checked struct {
	Monitor  Monitor          `json:"monitor"`
	Runs     []string         `json:"runs,omitempty"`
	AsOf     string           `json:"as_of"`
	Segments []CheckedSegment `json:"segments"`
	// NoDataSince, when set, is the first day after the last period any
	// segment has a row for, when the latest complete period has none:
	// the metric stopped, or its data stopped coming. Its zeros are not
	// "normal"; NoData says so in a line surfaces can show.
	NoDataSince string `json:"no_data_since,omitempty"`
	NoData      string `json:"no_data,omitempty"`
}

// CheckedSegment is one segment's readings and notices.
type CheckedSegment struct {
	Segment  string    `json:"segment,omitempty"`
	Key      []string  `json:"-"` // the segment's dimension values`
	Readings []Reading `json:"-"`
	Alerts   []Alert   `json:"-"`
	// Latest is the last complete period's reading.
	Latest *Reading `json:"latest,omitempty"`
}

// lookback is how far back a check reads: enough for three seasons, the
// rolling window and the spread of changes.
func lookback(g semantic.Grain, asOf time.Time) time.Time {
	switch g {
	case semantic.GrainDay:
		return asOf.AddDate(0, 0, -200)
	case semantic.GrainMonth:
		return asOf.AddDate(-5, 0, 0)
	}
	return asOf.AddDate(-4, 0, 0)
}

// Check reads the monitor's series from from (the zero time: as far back
// as it needs) up to the last complete period before asOf and judges it.
func (r *Runner) Check(ctx context.Context, m Monitor, from, asOf time.Time) (*Checked, error) {
	if from.IsZero() {
		from = lookback(m.Grain, asOf)
	}
	var t *quarry.Table
	var run string
	var err error
	fill := false
	if m.Query != "" {
		sql, ok := r.Verified[strings.ToLower(strings.TrimSpace(m.Query))]
		if !ok {
			return nil, quarry.Errorf(quarry.KindConfig, "monitor %s watches the verified query %q, which is gone; fix %s", m.Name, m.Query, m.File)
		}
		t, run, err = r.Source.SQL(ctx, "monitor "+m.Name, sql)
	} else {
		fill = Additive(r.Model, m.Metric)
		t, run, err = r.Source.Metric(ctx, "monitor "+m.Name, m.SemanticQuery(from, asOf))
	}
	if err != nil {
		return nil, err
	}
	if t != nil && t.Truncated {
		// Judged on part of its rows, a series would show a made-up drop.
		return nil, quarry.Errorf(quarry.KindTooCostly, "monitor %s: its query returned more rows than the row cap (max_rows) lets a monitor read, and a series cut short is not judged; watch fewer segments (dimensions, filters) or a coarser grain", m.Name)
	}
	series, err := SeriesOf(t, m.Grain)
	if err != nil {
		// The reason is the message: a surface shows Message, not the cause.
		if quarry.KindOf(err) != quarry.KindInput {
			return nil, quarry.Errorf(quarry.KindOf(err), "monitor %s cannot judge its query's result: %s", m.Name, quarry.Message(err))
		}
		return nil, quarry.Wrap(quarry.KindInput, err, "monitor %s cannot read its query's result: %s; a monitor's query returns each period's first day (YYYY-MM-DD) in its first column, a number in its last, and any columns between name a segment; fix the query or %s", m.Name, quarry.Message(err), m.File)
	}
	out := &Checked{Monitor: m, AsOf: asOf.Format(time.DateOnly)}
	out.NoDataSince, out.NoData = noData(series, m.Grain, asOf)
	if run != "" {
		out.Runs = append(out.Runs, run)
	}
	for _, s := range series {
		rs, err := Judge(s.Points, m.Config(fill), asOf)
		if err != nil {
			return nil, err
		}
		cs := CheckedSegment{Segment: s.Segment, Key: s.Key, Readings: rs, Alerts: Incidents(m, s.Segment, rs)}
		if len(rs) > 0 {
			cs.Latest = &rs[len(rs)-1]
		}
		out.Segments = append(out.Segments, cs)
	}
	return out, nil
}

// noData says since when no segment has a row, when the latest complete
// period before asOf has none after earlier ones had some ("" when rows
// reach it): "no data since 2026-07-06: no rows in any segment for the
// last 21 complete weeks".
func noData(series []Series, g semantic.Grain, asOf time.Time) (since, note string) {
	var last time.Time
	for _, s := range series {
		for _, p := range s.Points {
			if p.Start.After(last) {
				last = p.Start
			}
		}
	}
	latest := PeriodStart(PeriodStart(asOf, g).AddDate(0, 0, -1), g) // the last complete period
	if last.IsZero() || !last.Before(latest) {
		return "", ""
	}
	next := PeriodEnd(last, g)
	n := 0
	for p := next; !p.After(latest); p = PeriodEnd(p, g) {
		n++
	}
	what := fmt.Sprintf("the last complete %s", g)
	if n > 1 {
		what = fmt.Sprintf("the last %d complete %ss", n, g)
	}
	since = next.Format(time.DateOnly)
	return since, fmt.Sprintf("no data since %s: no rows in any segment for %s; its zeros are not judged as normal", since, what)
}

// Backfill replays the monitor's history and returns the notices it
// would have sent for periods that start on or after since (history
// before since still makes the baselines), in period order. Recoveries
// are left out unless recoveries is set.
func (r *Runner) Backfill(ctx context.Context, m Monitor, since, asOf time.Time, recoveries bool) ([]Alert, *Checked, error) {
	c, err := r.Check(ctx, m, lookback(m.Grain, since), asOf)
	if err != nil {
		return nil, nil, err
	}
	day := since.Format(time.DateOnly)
	var out []Alert
	for _, s := range c.Segments {
		for _, a := range s.Alerts {
			if a.PeriodStart >= day && (recoveries || a.Kind == KindAlert) {
				out = append(out, a)
			}
		}
	}
	sortAlerts(out)
	return out, c, nil
}

func sortAlerts(as []Alert) {
	sort.SliceStable(as, func(i, j int) bool {
		if as[i].PeriodStart != as[j].PeriodStart {
			return as[i].PeriodStart < as[j].PeriodStart
		}
		return as[i].Segment < as[j].Segment
	})
}

// Outcome is what running one monitor did.
type Outcome struct {
	Monitor string `json:"monitor"`
	// Status: "ran", "muted" (ran, told no one), "not_due", "failed".
	Status string   `json:"status"`
	Runs   []string `json:"runs,omitempty"`
	// Alerts are the new notices (sent unless muted).
	Alerts []Alert `json:"alerts"`
	// Deliveries are how each alert's channels were told.
	Deliveries []Delivery `json:"deliveries,omitempty"`
	Next       string     `json:"next,omitempty"` // when it is due next
	Error      string     `json:"error,omitempty"`
}

// Run runs monitors at now: those named (all of them, with force), or
// else the ones whose schedule came due since they last ran. New notices
// (periods not handled before) go to the notifier unless the monitor is
// muted; the first run of a monitor only tells of an incident still open
// in its latest period. The state records each run.
func (r *Runner) Run(ctx context.Context, monitors []Monitor, now time.Time, force bool) ([]Outcome, error) {
	st, err := r.State.Load(ctx)
	if err != nil {
		return nil, err
	}
	if st.Monitors == nil {
		st.Monitors = map[string]MonitorState{}
	}
	var out []Outcome
	for _, m := range monitors {
		if err := ctx.Err(); err != nil {
			return out, quarry.Wrap(quarry.KindCanceled, err, "the monitors were interrupted")
		}
		ms := st.Monitors[m.Name]
		sched, err := schedule.Parse(m.Schedule)
		if err != nil {
			return out, err
		}
		if !force && !ms.LastRun.IsZero() {
			if next := sched.Next(ms.LastRun); next.IsZero() || next.After(now) {
				out = append(out, Outcome{Monitor: m.Name, Status: "not_due", Alerts: []Alert{}, Next: formatNext(next)})
				continue
			}
		}
		o := r.runOne(ctx, m, &ms, now)
		o.Next = formatNext(sched.Next(now))
		out = append(out, o)
		if o.Status == "failed" {
			// Not remembered: the next run tries again (and may tell
			// again what this one told before it failed).
			continue
		}
		ms.LastRun = now
		st.Monitors[m.Name] = ms
		if err := r.State.Save(ctx, State{Monitors: map[string]MonitorState{m.Name: ms}}); err != nil {
			return out, err
		}
	}
	return out, nil
}

// Undelivered are the deliveries of outcomes that failed.
func Undelivered(out []Outcome) []Delivery {
	var ds []Delivery
	for _, o := range out {
		for _, d := range o.Deliveries {
			if !d.OK {
				ds = append(ds, d)
			}
		}
	}
	return ds
}

func formatNext(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

func (r *Runner) runOne(ctx context.Context, m Monitor, ms *MonitorState, now time.Time) Outcome {
	o := Outcome{Monitor: m.Name, Status: "ran", Alerts: []Alert{}}
	c, err := r.Check(ctx, m, time.Time{}, now)
	if err != nil {
		o.Status, o.Error = "failed", quarry.Message(err)
		return o
	}
	o.Runs = c.Runs
	if ms.Handled == nil {
		ms.Handled = map[string]string{}
	}
	fresh := []Alert{}
	keys := map[string][]string{}
	for _, s := range c.Segments {
		keys[s.Segment] = s.Key
		if s.Latest == nil {
			continue
		}
		latest := s.Latest.Start.Format(time.DateOnly)
		handled, seen := ms.Handled[s.Segment]
		switch {
		case !seen:
			// First run: only an incident still open now (its latest
			// period anomalous, or not judged: a count that stopped
			// has a baseline of 0 by now).
			if n := len(s.Alerts); n > 0 && s.Alerts[n-1].Kind == KindAlert && (s.Latest.Anomalous || !s.Latest.Judged) {
				fresh = append(fresh, s.Alerts[n-1])
			}
		default:
			for _, a := range s.Alerts {
				if a.PeriodStart > handled {
					fresh = append(fresh, a)
				}
			}
		}
		ms.Handled[s.Segment] = latest
	}
	sortAlerts(fresh)
	muted := m.Muted(now)
	if muted {
		o.Status = "muted"
	}
	for i := range fresh {
		if len(c.Runs) > 0 {
			fresh[i].Run = c.Runs[0]
		}
		if r.Investigate && fresh[i].Kind == KindAlert && m.Metric != "" {
			inv := r.investigate(ctx, m, fresh[i], keys[fresh[i].Segment])
			fresh[i].Investigation = inv
			o.Runs = append(o.Runs, inv.Runs...)
		}
		if !muted && r.Notifier != nil {
			ds, err := r.Notifier.Notify(ctx, m.Notify, fresh[i])
			o.Deliveries = append(o.Deliveries, ds...)
			if err != nil {
				o.Status, o.Error = "failed", "could not notify: "+quarry.Message(err)
			}
		}
	}
	o.Alerts = fresh
	return o
}
