package knowledge_test

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/watch"
)

// demoWith is the demo knowledge folder with extra files.
func demoWith(t *testing.T, extra map[string]string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(demo.Knowledge(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(demo.Knowledge(), p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, s := range extra {
		m[p] = &fstest.MapFile{Data: []byte(s)}
	}
	return m
}

func TestMonitorLoads(t *testing.T) {
	f, err := knowledge.LoadFS(demoWith(t, map[string]string{
		"monitors/weekly_orders.yaml": `# Orders by channel, every Monday.
metric: Orders
dimensions: [channel]
filters:
  - field: country
    values: [Germany, France]
grain: week
schedule: every Monday at 9
min_volume: 20
min_history: 53
notify: [ops]
muted_until: 2026-07-15
`,
	}), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	want := []watch.Monitor{{
		Name: "weekly_orders", Metric: "orders", Dimensions: []string{"channel"},
		Filters: []watch.Filter{{Field: "country", Op: "in", Values: []string{"Germany", "France"}}},
		Grain:   "week", Schedule: "every Monday at 9", Cron: "0 9 * * 1",
		Detector: watch.ZScore, Sensitivity: "medium", Threshold: 4, Direction: watch.Both,
		MinVolume: 20, MinHistory: 53, Notify: []string{"ops"}, NotifyLine: 11, MutedUntil: "2026-07-15",
		File: "monitors/weekly_orders.yaml", Line: 2,
	}}
	if d := cmp.Diff(want, f.Monitors); d != "" {
		t.Errorf("monitors (-want +got):\n%s", d)
	}
}

func TestMonitorProblems(t *testing.T) {
	_, problems, err := knowledge.Check(demoWith(t, map[string]string{
		"monitors/bad.yaml": `metric: ordrs
dimensions: [chanel, order_date]
filters:
  - field: country
    op: between
grain: fortnight
schedule: every other Tuesday
detector: zscores
muted_until: soon
colour: red
`,
		"monitors/empty.yaml":       ``,
		"monitors/unreachable.yaml": "metric: headcount\ndimensions: [channel]\ngrain: month\nschedule: monthly\n",
		"monitors/grain.yaml":       "metric: orders\ngrain: fortnight\nschedule: weekly\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Format("knowledge"))
	}
	want := []string{
		`knowledge/monitors/bad.yaml:1: metric: unknown metric "ordrs"; known: orders, mrr, products, customers, tickets, revenue, sessions, conversions, … (27 in all)`,
		`knowledge/monitors/bad.yaml:2: dimensions[0]: unknown dimension "chanel"; known: category, channel, city, country, customer, plan, segment, source, … (17 in all)`,
		`knowledge/monitors/bad.yaml:2: dimensions[1]: order_date is a time dimension; the monitor's grain says how time is cut`,
		`knowledge/monitors/bad.yaml:4: filters[0].values: missing; write the value (value: web) or values (values: [web, mobile])`,
		`knowledge/monitors/bad.yaml:5: filters[0].op: want one of =, !=, in, not_in, <, <=, >, >=, like, starts_with, ends_with, found "between"`,
		`knowledge/monitors/bad.yaml:6: grain: want day, week or month, found "fortnight"`,
		`knowledge/monitors/bad.yaml:7: schedule: cannot read the schedule "every other Tuesday" exactly; write a cron expression ("0 9 * * 1") or one of: hourly | every hour [on weekdays | on weekends | on DAYS]; every N minutes | every N hours [on …] (N divides the hour or the day); daily | every day [at TIME]; every weekday | weekdays | every weekend [at TIME]; every DAY [and DAY …] [at TIME] (Monday … Sunday); weekly | every week [on DAY] [at TIME] (Monday when no day is named); monthly | every month [on the Nth] [at TIME] (the 1st when none is named); the Nth of every month [at TIME] (N from 1 to 28); first business day of the month [at TIME]`,
		`knowledge/monitors/bad.yaml:8: detector: want zscore or percent_change, found "zscores" (did you mean "zscore"?)`,
		`knowledge/monitors/bad.yaml:9: muted_until: want a date YYYY-MM-DD, found "soon"`,
		`knowledge/monitors/bad.yaml:10: colour: unknown field "colour"; known fields: name, description, metric, dimensions, filters, query, grain, schedule, detector, sensitivity, threshold, direction, min_volume, min_history, notify, muted_until`,
		`knowledge/monitors/empty.yaml: the file is empty; write a monitor (docs/watch.md) or remove the file`,
		`knowledge/monitors/grain.yaml:2: grain: want day, week or month, found "fortnight"`,
		`knowledge/monitors/unreachable.yaml:2: dimensions[0]: channel does not split headcount: a row of employees has no single channel (the dimension is on orders, not reached from it through many-to-one relationships)`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
}

func TestMonitorOfAVerifiedQueryTakesNoDimensions(t *testing.T) {
	_, problems, err := knowledge.Check(demoWith(t, map[string]string{
		"monitors/vq.yaml":    "query: Revenue by month in 2025\ndimensions: [channel]\ngrain: month\nschedule: monthly\n",
		"monitors/vqf.yaml":   "query: Revenue by month in 2025\nfilters:\n  - field: country\n    values: [France]\ngrain: month\nschedule: monthly\n",
		"monitors/hooks.yaml": "metric: orders\ngrain: week\nschedule: weekly\nnotify: [ops, team, ops]\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Format("knowledge"))
	}
	want := []string{
		`knowledge/monitors/hooks.yaml:4: notify: "ops" is named twice; name each channel once`,
		`knowledge/monitors/vq.yaml:2: dimensions: a monitor of a verified query takes its segments from the query's columns; remove dimensions and filters`,
		`knowledge/monitors/vqf.yaml:2: filters: a monitor of a verified query takes its segments from the query's columns; remove dimensions and filters`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
}

// TestMonitorMinVolumeDefault: a count or a sum that sets no min_volume
// gets watch.DefaultMinVolume, so tiny segments are not judged; one
// written (even 0) is kept, and an average or ratio gets none.
func TestMonitorMinVolumeDefault(t *testing.T) {
	f, err := knowledge.LoadFS(demoWith(t, map[string]string{
		"monitors/a_unset.yaml": "metric: orders\ngrain: week\nschedule: weekly\n",
		"monitors/b_zero.yaml":  "metric: orders\ngrain: week\nschedule: weekly\nmin_volume: 0\n",
		"monitors/c_set.yaml":   "metric: orders\ngrain: week\nschedule: weekly\nmin_volume: 3\n",
		"monitors/d_ratio.yaml": "metric: average_order_value\ngrain: week\nschedule: weekly\n",
	}), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, m := range f.Monitors {
		got[m.Name] = m.MinVolume
	}
	want := map[string]float64{"a_unset": watch.DefaultMinVolume, "b_zero": 0, "c_set": 3, "d_ratio": 0}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("min_volume (-want +got):\n%s", d)
	}
}
