package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/schedule"
)

// MaxMonitorName is the longest name quarry watch add gives a monitor.
const MaxMonitorName = 64

// MonitorSpec is what `quarry watch add` takes beside the question; empty
// fields take their defaults.
type MonitorSpec struct {
	Name        string
	Schedule    string
	Detector    string
	Sensitivity string
	MinVolume   float64
	MinHistory  int
	Notify      []string
	// Force replaces a monitor of the same name.
	Force bool
}

// AddedMonitor is the monitor add wrote, where, and what the planner read.
type AddedMonitor struct {
	Monitor watch.Monitor `json:"monitor"`
	Path    string        `json:"path"`
	// Understood is the planner's reading; Dropped says what of the
	// question a monitor does not keep (a time range: a monitor watches
	// every period as it completes).
	Understood []string `json:"understood,omitempty"`
	Dropped    []string `json:"dropped,omitempty"`
}

// watchWords are the words a monitor's question may start with.
var watchWords = regexp.MustCompile(`(?i)^\s*(please\s+)?(watch|monitor|track|alert\s+(me\s+)?(on|about|when)|tell\s+me\s+(about|when))\s+`)

// AddMonitor plans question with the builtin planner and writes the
// monitor it maps to as monitors/NAME.yaml in the knowledge folder:
// the metric, its dimensions and filters, the grain the question names
// (week when none), and a schedule for the grain. The folder is then
// read again, so the monitor is validated like every knowledge file; a
// monitor that does not validate is removed again.
func (r *Runtime) AddMonitor(ctx context.Context, question string, spec MonitorSpec) (AddedMonitor, error) {
	var added AddedMonitor
	k, err := r.Knowledge()
	if err != nil {
		return added, err
	}
	f, err := r.Folder()
	if err != nil {
		return added, err
	}
	q := watchWords.ReplaceAllString(question, "")
	pl, _, err := k.Plan(ctx, q, r.o.Now())
	if err != nil {
		return added, err
	}
	m, dropped, err := monitorOf(pl, f)
	if err != nil {
		return added, err
	}
	m.Description = "Watches: " + strings.TrimSpace(question)
	if pl.Title != "" {
		m.Description = pl.Title
	}
	if err := applySpec(&m, spec); err != nil {
		return added, err
	}
	path, err := r.monitorPath(m.Name)
	if err != nil {
		return added, err
	}
	if _, err := os.Stat(path); err == nil && !spec.Force {
		// A usage error (exit 2), not the state changing underneath: the
		// user picks another name.
		return added, quarry.Errorf(quarry.KindUsage, "a monitor %s exists (%s); pass --name to choose another, or --force to replace it", m.Name, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return added, quarry.Wrap(quarry.KindInternal, err, "cannot create %s", filepath.Dir(path))
	}
	old, readErr := os.ReadFile(path)
	if err := WriteFileAtomic(path, []byte(monitorYAML(m, question)), 0o644); err != nil {
		return added, quarry.Wrap(quarry.KindInternal, err, "cannot write %s", path)
	}
	r.Reload()
	written, err := r.Monitor(m.Name)
	if err != nil {
		if readErr == nil {
			_ = WriteFileAtomic(path, old, 0o644)
		} else {
			_ = os.Remove(path)
		}
		r.Reload()
		return added, err
	}
	return AddedMonitor{Monitor: written, Path: path, Understood: pl.Understood, Dropped: dropped}, nil
}

// monitorOf is the monitor a plan maps to.
func monitorOf(pl *planner.Plan, f *knowledge.Folder) (watch.Monitor, []string, error) {
	var m watch.Monitor
	var dropped []string
	switch pl.Kind {
	case planner.KindVerified:
		// A verified query answers its own question, often over one
		// period; it makes a monitor only when its SQL returns every
		// period, which a person says by writing query: in the file.
		return m, nil, quarry.Errorf(quarry.KindUnsupported, "the question is a verified query's; ask for the metric itself (\"monthly revenue\"), or write a monitor with query: (docs/watch.md) if its SQL returns a period and a value for every period")
	case planner.KindMetric:
	case planner.KindClarify:
		return m, nil, quarry.Errorf(quarry.KindUnanswered, "%s (%s); say which in the question", pl.Question, strings.Join(pl.Options, ", "))
	default:
		reason := pl.Reason
		if reason == "" {
			reason = "the question does not name a metric of the knowledge folder"
		}
		return m, nil, quarry.Errorf(quarry.KindUnanswered, "cannot watch that: %s; name a metric, as in quarry watch add \"weekly orders by channel\"", reason)
	}
	q := pl.Query
	if q == nil || len(q.Metrics) != 1 {
		return m, nil, quarry.Errorf(quarry.KindUnsupported, "a monitor watches one metric; the question names %d", lenMetrics(q))
	}
	if f.Model.Metric(q.Metrics[0]) == nil {
		return m, nil, quarry.Errorf(quarry.KindUnsupported, "the question measures %s, which is not a metric of the knowledge folder; add it to metrics.yaml to watch it", q.Metrics[0])
	}
	if len(q.Compare) > 0 || q.Share || q.Rows != nil || len(q.Hidden) > 0 {
		return m, nil, quarry.Errorf(quarry.KindUnsupported, "a monitor watches a metric period by period; ask for the metric itself, as in \"weekly orders by channel\"")
	}
	m.Metric = q.Metrics[0]
	for _, d := range q.Dimensions {
		dim := f.Model.Dimension(d.Name)
		switch {
		case d.Grain != "" || d.Name == "time" || (dim != nil && dim.Type == "time"):
			if m.Grain != "" {
				return m, nil, quarry.Errorf(quarry.KindUnsupported, "the question cuts time twice; name one grain: daily, weekly or monthly")
			}
			m.Grain = d.Grain
			if m.Grain == "" {
				m.Grain = semantic.Grain(d.Name)
			}
		default:
			m.Dimensions = append(m.Dimensions, d.Name)
		}
	}
	switch m.Grain {
	case "":
		m.Grain = semantic.GrainWeek
	case semantic.GrainDay, semantic.GrainWeek, semantic.GrainMonth:
	default:
		return m, nil, quarry.Errorf(quarry.KindUnsupported, "a monitor's grain is day, week or month, not %s", m.Grain)
	}
	for _, fl := range q.Filters {
		if !slices.Contains(watch.FilterOps(), string(fl.Op)) || fl.Against != "" || fl.Count || fl.OnRelated() || len(fl.Where) > 0 {
			return m, nil, quarry.Errorf(quarry.KindUnsupported, "a monitor's filters compare a dimension with values; write the monitor by hand for %s %s", fl.Field, fl.Op)
		}
		wf := watch.Filter{Field: fl.Field, Op: string(fl.Op)}
		for _, v := range fl.Values {
			wf.Values = append(wf.Values, fmt.Sprint(v))
		}
		m.Filters = append(m.Filters, wf)
	}
	if q.TimeRange != nil {
		dropped = append(dropped, "the period ("+strings.TrimSpace(q.TimeRange.From+" to "+q.TimeRange.To)+"): a monitor reads every period as it completes")
	}
	if q.Limit > 0 || len(q.Order) > 0 {
		dropped = append(dropped, "the ordering and limit: a monitor watches every segment")
	}
	parts := []string{map[semantic.Grain]string{"day": "daily", "week": "weekly", "month": "monthly"}[m.Grain], m.Metric}
	if len(m.Dimensions) > 0 {
		parts = append(parts, "by", strings.Join(m.Dimensions, "_and_"))
	}
	for _, fl := range m.Filters {
		parts = append(parts, strings.Join(fl.Values, "_"))
	}
	m.Name = nameOf(strings.Join(parts, "_"))
	return m, dropped, nil
}

func lenMetrics(q *semantic.Query) int {
	if q == nil {
		return 0
	}
	return len(q.Metrics)
}

// nameOf makes a monitor's name from words: lower case, words joined by
// _, at most 60 characters.
func nameOf(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			under = false
		default:
			under = true
		}
	}
	n := b.String()
	if len(n) > 60 {
		n = strings.TrimRight(n[:60], "_")
	}
	if n == "" {
		n = "monitor"
	}
	return n
}

// defaultSchedule is when a monitor of grain g runs unless told: soon
// after each period completes.
func defaultSchedule(g semantic.Grain) string {
	switch g {
	case semantic.GrainDay:
		return "every day at 8"
	case semantic.GrainMonth:
		return "first business day of the month at 9"
	}
	return "every Monday at 9"
}

func applySpec(m *watch.Monitor, spec MonitorSpec) error {
	if spec.Name != "" {
		if msg := knowledge.ValidMonitorName(spec.Name); msg != "" {
			return quarry.Errorf(quarry.KindUsage, "--name: %s", msg)
		}
		if len(spec.Name) > MaxMonitorName {
			return quarry.Errorf(quarry.KindUsage, "--name: a monitor's name is at most %d characters (it names its file); this one has %d", MaxMonitorName, len(spec.Name))
		}
		m.Name = spec.Name
	}
	m.Schedule = spec.Schedule
	if m.Schedule == "" {
		m.Schedule = defaultSchedule(m.Grain)
	}
	s, err := schedule.Parse(m.Schedule)
	if err != nil {
		return quarry.Wrap(quarry.KindUsage, err, "--schedule: %s", quarry.Message(err))
	}
	m.Cron = s.Cron
	m.Detector = watch.Detector(spec.Detector)
	if m.Detector == "" {
		m.Detector = watch.ZScore
	}
	m.Sensitivity = spec.Sensitivity
	if m.Sensitivity == "" {
		m.Sensitivity = watch.DefaultSensitivity
	}
	if _, ok := watch.Threshold(m.Detector, m.Sensitivity); !ok {
		return quarry.Errorf(quarry.KindUsage, "--detector %s --sensitivity %s: use zscore or percent_change, and low, medium or high", m.Detector, m.Sensitivity)
	}
	if spec.MinVolume < 0 {
		return quarry.Errorf(quarry.KindUsage, "--min-volume: give a number of at least 0")
	}
	m.MinVolume = spec.MinVolume
	if spec.MinHistory < 0 {
		return quarry.Errorf(quarry.KindUsage, "--min-history: give a number of periods of at least 0")
	}
	m.MinHistory = spec.MinHistory
	m.Notify = spec.Notify
	return nil
}

// monitorYAML writes a monitor's file, with a header saying where it
// came from.
func monitorYAML(m watch.Monitor, question string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by quarry watch add from: %s\n", oneLineLabel(question))
	b.WriteString("# Edit freely; docs/watch.md describes every field.\n")
	fmt.Fprintf(&b, "name: %s\n", m.Name)
	fmt.Fprintf(&b, "description: %s\n", yamlString(m.Description))
	if m.Query != "" {
		fmt.Fprintf(&b, "query: %s\n", yamlString(m.Query))
	} else {
		fmt.Fprintf(&b, "metric: %s\n", m.Metric)
	}
	if len(m.Dimensions) > 0 {
		fmt.Fprintf(&b, "dimensions: %s\n", yamlList(m.Dimensions))
	}
	if len(m.Filters) > 0 {
		b.WriteString("filters:\n")
		for _, f := range m.Filters {
			fmt.Fprintf(&b, "  - field: %s\n    op: %s\n    values: %s\n", f.Field, yamlString(f.Op), yamlList(f.Values))
		}
	}
	fmt.Fprintf(&b, "grain: %s\n", m.Grain)
	fmt.Fprintf(&b, "schedule: %s   # cron %s\n", yamlString(m.Schedule), m.Cron)
	fmt.Fprintf(&b, "detector: %s   # zscore | percent_change\n", m.Detector)
	fmt.Fprintf(&b, "sensitivity: %s   # low | medium | high\n", m.Sensitivity)
	if m.MinVolume > 0 {
		fmt.Fprintf(&b, "min_volume: %s   # periods whose value and baseline are both below it are not judged\n", strconv.FormatFloat(m.MinVolume, 'f', -1, 64))
	} else {
		// Unset, so that a count or a sum gets watch.DefaultMinVolume.
		fmt.Fprintf(&b, "# min_volume: %d   # the default for a count or sum: periods whose value and baseline are both below it are not judged\n", watch.DefaultMinVolume)
	}
	if m.MinHistory > 0 {
		fmt.Fprintf(&b, "min_history: %d   # periods of history before a period is judged\n", m.MinHistory)
	}
	fmt.Fprintf(&b, "notify: %s   # channel names\n", yamlList(m.Notify))
	return b.String()
}

// yamlString quotes s as JSON, which YAML reads as the same string.
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func yamlList(xs []string) string {
	if len(xs) == 0 {
		return "[]"
	}
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = yamlString(x)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
