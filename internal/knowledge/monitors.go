package knowledge

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/schedule"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

// MonitorsDir holds one monitor per YAML file (docs/watch.md).
const MonitorsDir = "monitors"

// monitorName is what a monitor may be called: it names its file and is
// typed on the command line.
var monitorName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// MonitorFile is the file, relative to the knowledge folder, that holds
// the monitor called name.
func MonitorFile(name string) string { return MonitorsDir + "/" + name + ".yaml" }

// ValidMonitorName says what is wrong with a monitor's name, or "" when
// nothing is.
func ValidMonitorName(name string) string {
	if !monitorName.MatchString(name) {
		return fmt.Sprintf("a monitor's name is lower-case letters, digits, - and _ (it names its file), not %q", name)
	}
	return ""
}

// decodeMonitor decodes one monitors/*.yaml file.
func decodeMonitor(file string, src []byte) (*watch.Monitor, *decoder) {
	d := newDecoder(file)
	root := d.Parse(src)
	if root == nil {
		if !d.Broken {
			d.Errf(0, "", "the file is empty; write a monitor (docs/watch.md) or remove the file")
		}
		return nil, d
	}
	m := &watch.Monitor{File: file, Line: yamlnode.Line(root)}
	var threshold, minVolume string
	d.Mapping(root, "", "a monitor", []field{
		{"name", func(v ast.Node, p string) { m.Name = d.Str(v, p) }},
		{"description", func(v ast.Node, p string) { m.Description = d.Str(v, p) }},
		{"metric", func(v ast.Node, p string) { m.Metric = d.Str(v, p) }},
		{"dimensions", func(v ast.Node, p string) { m.Dimensions = d.Strs(v, p) }},
		{"filters", func(v ast.Node, p string) { m.Filters = d.monitorFilters(v, p) }},
		{"query", func(v ast.Node, p string) { m.Query = d.Str(v, p) }},
		{"grain", func(v ast.Node, p string) { m.Grain = semantic.Grain(d.Str(v, p)) }},
		{"schedule", func(v ast.Node, p string) { m.Schedule = d.Str(v, p) }},
		{"detector", func(v ast.Node, p string) { m.Detector = watch.Detector(d.Str(v, p)) }},
		{"sensitivity", func(v ast.Node, p string) { m.Sensitivity = d.Str(v, p) }},
		{"threshold", func(v ast.Node, p string) { threshold = d.Str(v, p) }},
		{"direction", func(v ast.Node, p string) { m.Direction = watch.Direction(d.Str(v, p)) }},
		{"min_volume", func(v ast.Node, p string) { minVolume = d.Str(v, p) }},
		{"min_history", func(v ast.Node, p string) {
			if n := d.Integer(v, p); n < 0 {
				d.Errf(yamlnode.Line(v), p, "want a number of periods of at least 0, found %d", n)
			} else {
				m.MinHistory = int(n)
			}
		}},
		{"notify", func(v ast.Node, p string) { m.Notify, m.NotifyLine = d.Strs(v, p), d.LineOf(p) }},
		{"muted_until", func(v ast.Node, p string) { m.MutedUntil = d.Str(v, p) }},
	})
	if m.Name == "" {
		m.Name = strings.TrimSuffix(path.Base(file), path.Ext(file))
	}
	if m.Detector == "" {
		m.Detector = watch.ZScore
	}
	if m.Sensitivity == "" {
		m.Sensitivity = watch.DefaultSensitivity
	}
	if m.Direction == "" {
		m.Direction = watch.Both
	}
	m.Threshold = d.positive(threshold, "threshold", true)
	m.MinVolume = d.positive(minVolume, "min_volume", false)
	if minVolume == "" {
		m.MinVolume = -1 // unset: monitorsCheck gives the default
	}
	return m, d
}

// positive reads a number written as text; strict says it must be above
// zero (rather than at least zero).
func (d *decoder) positive(s, p string, strict bool) float64 {
	if s == "" {
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || (strict && f == 0) {
		what := "a number of at least 0"
		if strict {
			what = "a number above 0"
		}
		d.Errf(d.LineOf(p), p, "want %s, found %q", what, s)
		return 0
	}
	return f
}

func (d *decoder) monitorFilters(n ast.Node, path string) []watch.Filter {
	var out []watch.Filter
	d.Seq(n, path, "filters", func(_ int, v ast.Node, p string) {
		var f watch.Filter
		var value string
		d.Mapping(v, p, "a filter (field, op, values)", []field{
			{"field", func(v ast.Node, p string) { f.Field = d.Str(v, p) }},
			{"op", func(v ast.Node, p string) { f.Op = d.Str(v, p) }},
			{"value", func(v ast.Node, p string) { value = d.Str(v, p) }},
			{"values", func(v ast.Node, p string) { f.Values = d.Strs(v, p) }},
		})
		if value != "" {
			if len(f.Values) > 0 {
				d.Errf(d.LineOf(p+".value"), p+".value", "write value or values, not both")
			}
			f.Values = []string{value}
		}
		if f.Op == "" {
			f.Op = "="
			if len(f.Values) > 1 {
				f.Op = "in"
			}
		}
		out = append(out, f)
	})
	return out
}

// monitorsCheck validates the monitors against the model and the
// verified queries.
func (v *validator) monitorsCheck() {
	seen := map[string]string{}
	for i, m := range v.l.monitors {
		d := v.l.monD[i]
		if m == nil {
			continue
		}
		if msg := ValidMonitorName(m.Name); msg != "" {
			v.errf(d, "name", "%s", msg)
		} else if other, dup := seen[m.Name]; dup {
			v.errf(d, "name", "the monitor %q is also defined in %s; names are unique", m.Name, other)
		}
		seen[m.Name] = m.File
		v.monitorTarget(d, m)
		if m.MinVolume < 0 {
			m.MinVolume = 0
			if m.Metric != "" && watch.Additive(v.m, m.Metric) {
				m.MinVolume = watch.DefaultMinVolume
			}
		}
		switch m.Grain {
		case semantic.GrainDay, semantic.GrainWeek, semantic.GrainMonth:
		case "":
			v.errf(d, "grain", "missing; write day, week or month")
		default:
			v.errf(d, "grain", "want day, week or month, found %q", m.Grain)
		}
		if strings.TrimSpace(m.Schedule) == "" {
			v.errf(d, "schedule", "missing; write when to run it: a cron expression (\"0 9 * * 1\") or a phrase (\"every Monday at 9\")")
		} else if s, err := schedule.Parse(m.Schedule); err != nil {
			v.errf(d, "schedule", "%s", quarry.Message(err))
		} else {
			m.Cron = s.Cron
		}
		th, ok := watch.Threshold(m.Detector, m.Sensitivity)
		switch {
		case !oneOf(string(m.Detector), []string{string(watch.ZScore), string(watch.PercentChange)}):
			v.errf(d, "detector", "want zscore or percent_change, found %q%s", m.Detector, didYouMean(string(m.Detector), []string{"zscore", "percent_change"}))
		case !ok:
			v.errf(d, "sensitivity", "want low, medium or high, found %q", m.Sensitivity)
		case m.Threshold == 0:
			m.Threshold = th
		}
		if !oneOf(string(m.Direction), []string{"both", "up", "down"}) {
			v.errf(d, "direction", "want both, up or down, found %q", m.Direction)
		}
		named := map[string]bool{}
		for _, ch := range m.Notify {
			if named[ch] {
				v.errf(d, "notify", "%q is named twice; name each channel once", ch)
			}
			named[ch] = true
		}
		if m.MutedUntil != "" {
			if _, err := time.Parse(time.DateOnly, m.MutedUntil); err != nil {
				v.errf(d, "muted_until", "want a date YYYY-MM-DD, found %q", m.MutedUntil)
			}
		}
	}
}

// monitorTarget checks what a monitor watches: a metric with its
// dimensions and filters, or a verified query.
func (v *validator) monitorTarget(d *decoder, m *watch.Monitor) {
	switch {
	case m.Metric == "" && m.Query == "":
		v.errf(d, "metric", "missing; name the metric to watch (or query: the question of a verified query)")
		return
	case m.Metric != "" && m.Query != "":
		v.errf(d, "query", "write metric or query, not both")
		return
	case m.Query != "":
		// The query's SQL runs as it is: dimensions and filters would be
		// silently ignored, so they are a problem, not a no-op.
		const own = "a monitor of a verified query takes its segments from the query's columns; remove dimensions and filters"
		if len(m.Dimensions) > 0 {
			v.errf(d, "dimensions", own)
		}
		if len(m.Filters) > 0 {
			v.errf(d, "filters", own)
		}
		for _, q := range v.l.examples {
			if strings.EqualFold(strings.TrimSpace(q.Question), strings.TrimSpace(m.Query)) {
				return
			}
		}
		var known []string
		for _, q := range v.l.examples {
			known = append(known, q.Question)
		}
		v.errf(d, "query", "no verified query asks %q; known: %s", m.Query, knownList(m.Query, known))
		return
	}
	before := len(v.problems)
	mt := v.m.Metric(m.Metric)
	if mt == nil {
		var names []string
		for _, x := range v.m.Metrics {
			names = append(names, x.Name)
		}
		v.errf(d, "metric", "unknown metric %q; known: %s", m.Metric, knownList(m.Metric, names))
	} else {
		m.Metric = mt.Name
		if mt.Derived == "" && v.m.MetricTime(mt) == "" {
			v.errf(d, "metric", "metric %s has no time axis, so it cannot be watched period by period; set time on the metric", mt.Name)
		}
	}
	var dims []string
	for _, x := range v.m.Dimensions {
		if x.Type != "time" {
			dims = append(dims, x.Name)
		}
	}
	for i, name := range m.Dimensions {
		p := fmt.Sprintf("dimensions[%d]", i)
		x := v.m.Dimension(name)
		switch {
		case x == nil:
			v.errf(d, p, "unknown dimension %q; known: %s", name, sortedKnown(name, dims))
		case x.Type == "time":
			v.errf(d, p, "%s is a time dimension; the monitor's grain says how time is cut", name)
		case mt != nil && !watch.Splits(v.m, mt.Name, x.Name):
			v.errf(d, p, "%s does not split %s: a row of %s has no single %s (the dimension is on %s, not reached from it through many-to-one relationships)", x.Name, mt.Name, strings.Join(entitiesOf(v.m, mt), ", "), x.Name, x.Entity)
		default:
			m.Dimensions[i] = x.Name
		}
	}
	for i, f := range m.Filters {
		p := fmt.Sprintf("filters[%d]", i)
		if f.Field == "" {
			v.errf(d, p+".field", "missing; name the dimension to filter on")
		} else if e, c, ok := strings.Cut(f.Field, "."); ok {
			if ent := v.entity(d, p+".field", e); ent != nil {
				v.column(d, p+".field", ent, c)
			}
		} else if v.m.Dimension(f.Field) == nil {
			v.errf(d, p+".field", "unknown dimension %q; known: %s", f.Field, sortedKnown(f.Field, dims))
		}
		if !oneOf(f.Op, watch.FilterOps()) {
			v.errf(d, p+".op", "want one of %s, found %q", strings.Join(watch.FilterOps(), ", "), f.Op)
		}
		if len(f.Values) == 0 {
			v.errf(d, p+".values", "missing; write the value (value: web) or values (values: [web, mobile])")
		}
	}
	switch {
	case mt == nil || len(v.problems) > before:
		return
	case m.Grain != semantic.GrainDay && m.Grain != semantic.GrainWeek && m.Grain != semantic.GrainMonth:
		return // the grain's own problem says it
	}
	// What the names alone cannot tell: whether the metric can be cut by
	// the dimensions and filters (a path through the relationships, no
	// fan-out). The semantic layer says it the same way for every dialect.
	if _, err := semantic.Compile(v.m, m.SemanticQuery(time.Time{}, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)), quarry.DialectSQLite); err != nil {
		v.errf(d, "metric", "%s cannot be watched this way: %s", m.Metric, quarry.Message(err))
	}
}

// sortedKnown lists the known names closest to word, as knownList does,
// in alphabetical order: a list of dimensions read in the model's order
// looks random.
func sortedKnown(word string, known []string) string {
	if len(known) == 0 {
		return "none defined"
	}
	c := yamlnode.Closest(word, known, 8)
	sort.Strings(c)
	s := strings.Join(c, ", ")
	if len(known) > len(c) {
		s += fmt.Sprintf(", … (%d in all)", len(known))
	}
	return s
}

// entitiesOf names the entities a metric counts rows of.
func entitiesOf(m *semantic.Model, mt *semantic.Metric) []string {
	if mt.Derived == "" {
		return []string{mt.Entity}
	}
	return []string{"its parts"}
}
