package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchDemoEndToEnd writes monitors from questions on the demo
// (anchor 2026-06-30), backfills them over their history and runs them:
// the planted dip (the week holding the day ten weeks before the anchor,
// when orders fell to about 40% and conversion with them) is found, and
// once a year of history makes the seasonal baseline it is the only
// alert, at the default sensitivity, for weekly orders and weekly
// conversion rate alike.
func TestWatchDemoEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo database")
	}
	if raceEnabled {
		t.Skip("builds the demo database; skipped under the race detector")
	}
	dir := filepath.Join(t.TempDir(), "demo")
	if r := quarryCmd(t, "", "init", "--demo", "--anchor", "2026-06-30", dir); r.code != 0 {
		t.Fatalf("init: %d %s", r.code, r.stderr)
	}
	anchor := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	d := anchor.AddDate(0, 0, -70)
	dipStart := d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7)).Format(time.DateOnly)
	dipEnd := d.AddDate(0, 0, 6-((int(d.Weekday())+6)%7)).Format(time.DateOnly)

	for q, name := range map[string]string{"watch weekly orders": "weekly_orders", "weekly conversion rate": "weekly_conversion_rate"} {
		r := quarryCmd(t, "", "-C", dir, "watch", "add", q, "--json")
		if r.code != 0 {
			t.Fatalf("watch add %q: %d %s", q, r.code, r.stderr)
		}
		var added struct {
			Monitor struct{ Name, Metric, Grain, Cron string }
			Path    string
		}
		if err := json.Unmarshal([]byte(r.stdout), &added); err != nil {
			t.Fatal(err)
		}
		if added.Monitor.Name != name || added.Monitor.Grain != "week" || added.Monitor.Cron != "0 9 * * 1" {
			t.Errorf("watch add %q wrote %+v", q, added.Monitor)
		}
		if _, err := os.Stat(added.Path); err != nil {
			t.Error(err)
		}
	}

	type alert struct {
		Kind        string  `json:"kind"`
		PeriodStart string  `json:"period_start"`
		PeriodEnd   string  `json:"period_end"`
		Value       float64 `json:"value"`
		Baseline    float64 `json:"baseline"`
		Method      string  `json:"baseline_method"`
		Message     string  `json:"message"`
	}
	backfill := func(name, since string) []alert {
		t.Helper()
		r := quarryCmd(t, "", "-C", dir, "watch", "backfill", name, "--since", since, "--as-of", "2026-06-30", "--json")
		if r.code != 0 {
			t.Fatalf("backfill %s: %d %s", name, r.code, r.stderr)
		}
		var out []alert
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			if l == "" {
				continue
			}
			var a alert
			if err := json.Unmarshal([]byte(l), &a); err != nil {
				t.Fatalf("backfill %s: line %q: %v", name, l, err)
			}
			out = append(out, a)
		}
		return out
	}
	for _, name := range []string{"weekly_orders", "weekly_conversion_rate"} {
		got := backfill(name, "2024-07-01")
		if len(got) != 1 || got[0].Kind != "alert" || got[0].PeriodStart != dipStart || got[0].PeriodEnd != dipEnd || got[0].Value >= got[0].Baseline*0.5 {
			t.Errorf("%s backfilled from 2024-07-01: %+v, want only the dip of %s to %s", name, got, dipStart, dipEnd)
		}
		// Over the whole history the dip is found too; in the first year
		// there is no earlier year to tell the year-end season from an
		// anomaly, and what fires there says so (a rolling baseline).
		all := backfill(name, "2023-07-01")
		found := false
		for _, a := range all {
			switch {
			case a.PeriodStart == dipStart:
				found = true
			case !strings.HasPrefix(a.Method, "rolling"):
				t.Errorf("%s: an alert with a seasonal baseline besides the dip: %s", name, a.Message)
			default:
				t.Logf("%s, first year: %s", name, a.Message)
			}
		}
		if !found {
			t.Errorf("%s over the whole history missed the dip: %+v", name, all)
		}
	}

	// A monitor told to wait for a year of history (min_history: 53
	// weeks) raises only the dip over the whole history.
	file := filepath.Join(dir, "knowledge", "monitors", "weekly_orders.yaml")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(src, "min_history: 53\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := backfill("weekly_orders", "2023-07-01"); len(got) != 1 || got[0].PeriodStart != dipStart {
		t.Errorf("weekly orders with min_history 53, over the whole history: %+v, want only the dip", got)
	}

	// Running on the Monday after the dip tells of it once, investigated.
	r := quarryCmd(t, "", "-C", dir, "watch", "run", "weekly_orders", "--as-of", dipEnd, "--json")
	if r.code != 0 {
		t.Fatalf("watch run: %d %s %s", r.code, r.stdout, r.stderr)
	}
	var outcomes []struct {
		Status string
		Alerts []struct {
			Kind          string `json:"kind"`
			PeriodStart   string `json:"period_start"`
			Investigation struct {
				Contributors []struct{ Dimension, Value string }
				Runs         []string
			} `json:"investigation"`
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &outcomes); err != nil {
		t.Fatal(err)
	}
	if len(outcomes) != 1 || len(outcomes[0].Alerts) != 1 || outcomes[0].Alerts[0].PeriodStart != dipStart {
		t.Fatalf("watch run: %s", r.stdout)
	}
	inv := outcomes[0].Alerts[0].Investigation
	if len(inv.Contributors) == 0 || len(inv.Runs) == 0 {
		t.Errorf("the alert was not investigated: %+v", inv)
	}
	for _, c := range inv.Contributors {
		if c.Dimension == "device" || c.Dimension == "source" {
			t.Errorf("orders broken down by %s, a dimension of web sessions", c.Dimension)
		}
	}
	if r := quarryCmd(t, "", "-C", dir, "watch", "run", "weekly_orders", "--as-of", dipEnd, "--json"); !strings.Contains(r.stdout, `"alerts": []`) {
		t.Errorf("the second run told again: %s", r.stdout)
	}
	b, err := os.ReadFile(filepath.Join(dir, ".quarry", "alerts.jsonl"))
	if err != nil || strings.Count(string(b), "\n") != 1 {
		t.Errorf("alerts.jsonl: %v\n%s", err, b)
	}
	// Every query of the monitors was a recorded run.
	if r := quarryCmd(t, "", "-C", dir, "runs", "list", "--json"); !strings.Contains(r.stdout, "quarry watch: monitor weekly_orders") {
		t.Errorf("the monitor's query is not among the runs: %.300s", r.stdout)
	}

	until := time.Now().AddDate(0, 0, 14).Format(time.DateOnly)
	if r := quarryCmd(t, "", "-C", dir, "watch", "mute", "weekly_orders", "--until", until); r.code != 0 {
		t.Fatalf("mute: %d %s", r.code, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "watch", "show", "weekly_orders", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"muted_until": "`+until+`"`) || !strings.Contains(r.stdout, `"muted": true`) {
		t.Errorf("show after mute: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "watch", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "muted until "+until) || !strings.Contains(r.stdout, "weekly_conversion_rate") {
		t.Errorf("list: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := quarryCmd(t, "", "-C", dir, "watch", "mute", "weekly_orders", "--off"); r.code != 0 {
		t.Fatalf("unmute: %d %s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "knowledge", "monitors", "weekly_orders.yaml")); strings.Contains(string(b), "muted_until") {
		t.Errorf("unmuted, the file still says muted_until:\n%s", b)
	}
	r = quarryCmd(t, "", "-C", dir, "watch", "test", "weekly_orders", "--as-of", "2026-06-30", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"period_start": "2026-06-22"`) {
		t.Errorf("test: the latest complete week as of the anchor is 2026-06-22: %d %s %s", r.code, r.stdout, r.stderr)
	}
}

func TestWatchRefuses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo database")
	}
	dir := demoProject(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"watch", "add", "weekly orders", "--schedule", "every other Tuesday"}, "cannot read the schedule"},
		{[]string{"watch", "add", "weekly blorps"}, "cannot watch that"},
		{[]string{"watch", "add", "revenue by month in 2025"}, "verified query"},
		{[]string{"watch", "backfill", "nothing", "--since", "2024-01-01"}, `no monitor "nothing"`},
		{[]string{"watch", "backfill", "nothing"}, "--since"},
		{[]string{"watch", "mute", "nothing"}, "--until"},
	} {
		r := quarryCmd(t, "", append([]string{"-C", dir}, tt.args...)...)
		if r.code == 0 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want an error saying %q", tt.args, r.code, r.stderr, tt.want)
		}
	}
}

// TestWatchRefusesFutureAsOf: an --as-of after today judges periods that
// have not happened, and watch run would remember it as the last run;
// every command that takes one refuses it as a usage error, one line.
// So are watch add of a monitor that exists and a name over 64
// characters.
func TestWatchRefusesFutureAsOf(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo database")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(demoProject(t))); err != nil {
		t.Fatal(err)
	}
	if r := quarryCmd(t, "", "-C", dir, "watch", "add", "weekly orders"); r.code != 0 {
		t.Fatalf("watch add: %d %s", r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"watch", "test", "weekly_orders", "--as-of", "2030-01-01"},
		{"watch", "run", "--as-of", "2030-01-01"},
		{"watch", "run", "weekly_orders", "--as-of", "2030-01-01"},
		{"watch", "backfill", "weekly_orders", "--since", "2026-01-01", "--as-of", "2030-01-01"},
		{"watch", "serve", "--as-of", "2030-01-01"},
	} {
		r := quarryCmd(t, "", append([]string{"-C", dir}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "--as-of 2030-01-01 is after today") || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	// The as-of said back is the day given (the last complete day), as
	// the API echoes it.
	if r := quarryCmd(t, "", "-C", dir, "watch", "test", "weekly_orders", "--as-of", "2026-04-26"); r.code != 0 || !strings.Contains(r.stdout, "as of 2026-04-26 ") {
		t.Errorf("watch test --as-of 2026-04-26: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := quarryCmd(t, "", "-C", dir, "watch", "test", "weekly_orders", "--as-of", "2026-04-26", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"as_of": "2026-04-26"`) && !strings.Contains(r.stdout, `"as_of":"2026-04-26"`) {
		t.Errorf("watch test --as-of 2026-04-26 --json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// Mute and backfill flags that contradict each other, or a past day.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"watch", "mute", "weekly_orders", "--for", "2w", "--off"}, "--for and --off: pick one"},
		{[]string{"watch", "mute", "weekly_orders", "--until", "2001-01-01"}, "--until 2001-01-01 is in the past"},
		{[]string{"watch", "mute", "weekly_orders", "--for", "100y"}, "at most 3660 days"},
		{[]string{"watch", "backfill", "weekly_orders", "--since", "2026-05-01", "--as-of", "2026-04-01"}, "--since 2026-05-01 is after --as-of 2026-04-01"},
	} {
		r := quarryCmd(t, "", append([]string{"-C", dir}, tt.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tt.args, r.code, r.stderr, tt.want)
		}
	}

	// A monitor that exists, and a name too long for a file: usage
	// errors, not quarry's own failure.
	r := quarryCmd(t, "", "-C", dir, "watch", "add", "weekly orders")
	if r.code != 2 || !strings.Contains(r.stderr, "a monitor weekly_orders exists") || !strings.Contains(r.stderr, "pass --name to choose another") {
		t.Errorf("add an existing monitor: exit %d, stderr %q", r.code, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "watch", "add", "weekly orders", "--name", strings.Repeat("a", 250))
	if r.code != 2 || !strings.Contains(r.stderr, "at most 64 characters") {
		t.Errorf("add with a 250-character name: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := quarryCmd(t, "", "-C", dir, "watch", "list"); strings.Contains(r.stdout, "2030") {
		t.Errorf("a refused run was remembered:\n%s", r.stdout)
	}
}
