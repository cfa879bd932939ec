package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/httpapi"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/schedule"
)

func (a *app) watchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Monitors: watch metrics, alert when they move, say where the change came from",
		Long: `A monitor watches a metric (or a verified query) period by period and alerts
when a complete period moves away from what its history expects. Monitors
are files in the knowledge folder (monitors/NAME.yaml, docs/watch.md); their
queries run through the same guard, column policy and limits as every
answer, and each is recorded as a run. Alerts are appended to alerts.jsonl
beside quarry's state database.`,
		Example: `  quarry watch add "weekly orders by channel"
  quarry watch backfill weekly_orders --since 2024-07-01
  quarry watch run`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(a.watchAddCmd(), a.watchListCmd(), a.watchShowCmd(), a.watchTestCmd(), a.watchRunCmd(), a.watchServeCmd(), a.watchBackfillCmd(), a.watchMuteCmd(), a.watchRedeliverCmd())
	return cmd
}

// day reads a YYYY-MM-DD flag.
func day(flag, s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return t, quarry.Errorf(quarry.KindUsage, "--%s %q is not a date; write it as YYYY-MM-DD", flag, s)
	}
	return t, nil
}

// asOfFlag is now, or the day after --as-of: periods ending on or before
// it are complete. A day after today (by the clock) is refused: its
// periods have not happened, and a run as of it would be remembered as
// the monitors' last run.
func (a *app) asOfFlag(s string) (time.Time, error) {
	if s == "" {
		return a.now(), nil
	}
	t, err := day("as-of", s)
	if err != nil {
		return t, err
	}
	if today := a.now().Format(time.DateOnly); s > today {
		return t, quarry.Errorf(quarry.KindUsage, "--as-of %s is after today (%s): its periods have not happened yet; give a day up to today", s, today)
	}
	return t.AddDate(0, 0, 1), nil
}

// lastComplete is the last day whose periods count as complete when they
// are judged as of now: the --as-of day as given, yesterday without one.
func lastComplete(now time.Time) string {
	return now.AddDate(0, 0, -1).Format(time.DateOnly)
}

func (a *app) watchAddCmd() *cobra.Command {
	var spec runtime.MonitorSpec
	var notify string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "add QUESTION",
		Short: "Write a monitor from a question, through the builtin planner",
		Long: `Plan the question with the builtin planner and write the monitor it maps to
as monitors/NAME.yaml in the knowledge folder: its metric, dimensions and
filters, the grain the question names (weekly when none), a schedule for the
grain, the z-score detector at medium sensitivity. Edit the file freely.`,
		Example: `  quarry watch add "weekly orders by channel"
  quarry watch add "daily revenue in Germany" --schedule "every day at 7" --notify ops`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().StringVar(&spec.Name, "name", "", "the monitor's name (default: from the question)")
	cmd.Flags().StringVar(&spec.Schedule, "schedule", "", `when to run: cron ("0 9 * * 1") or a phrase ("every Monday at 9")`)
	cmd.Flags().StringVar(&spec.Detector, "detector", "", "zscore (default) or percent_change")
	cmd.Flags().StringVar(&spec.Sensitivity, "sensitivity", "", "low, medium (default) or high")
	cmd.Flags().Float64Var(&spec.MinVolume, "min-volume", 0, "do not judge periods whose value and baseline are both below this")
	cmd.Flags().IntVar(&spec.MinHistory, "min-history", 0, "periods of history before a period is judged (53 for weekly: wait for a year)")
	cmd.Flags().StringVar(&notify, "notify", "", "channel names to tell, comma-separated")
	cmd.Flags().BoolVar(&spec.Force, "force", false, "replace a monitor of the same name")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		for _, n := range strings.Split(notify, ",") {
			if n = strings.TrimSpace(n); n != "" {
				spec.Notify = append(spec.Notify, n)
			}
		}
		added, err := a.rt.AddMonitor(ctx, args[0], spec)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, added)
		}
		fmt.Fprintf(a.stdout, "Wrote %s\n\n", added.Path)
		printMonitor(a.stdout, added.Monitor, a.now())
		for _, d := range added.Dropped {
			fmt.Fprintf(a.stdout, "Left out: %s\n", d)
		}
		fmt.Fprintf(a.stdout, "\nTry it: quarry watch test %s   ·   history: quarry watch backfill %s --since DATE\n", added.Monitor.Name, added.Monitor.Name)
		return nil
	})
	return cmd
}

// monitorView is a monitor as list and show print it.
type monitorView struct {
	watch.Monitor
	Schedule string `json:"schedule"`
	Reads    string `json:"reads"` // the cron expression and rule
	Next     string `json:"next,omitempty"`
	LastRun  string `json:"last_run,omitempty"`
	Muted    bool   `json:"muted"`
}

func viewOf(m watch.Monitor, st watch.State, now time.Time) monitorView {
	v := monitorView{Monitor: m, Schedule: m.Schedule, Muted: m.Muted(now)}
	if s, err := schedule.Parse(m.Schedule); err == nil {
		v.Reads = s.Describe()
		from := now
		if ms, ok := st.Monitors[m.Name]; ok && !ms.LastRun.IsZero() {
			from = ms.LastRun
		}
		if n := s.Next(from); !n.IsZero() {
			v.Next = n.Format(time.RFC3339)
		}
	}
	if ms, ok := st.Monitors[m.Name]; ok && !ms.LastRun.IsZero() {
		v.LastRun = ms.LastRun.Format(time.RFC3339)
	}
	return v
}

func printMonitor(w io.Writer, m watch.Monitor, now time.Time) {
	v := viewOf(m, watch.State{}, now)
	fmt.Fprintf(w, "Monitor   %s  (%s)\n", m.Name, m.File)
	if m.Description != "" {
		fmt.Fprintf(w, "About     %s\n", m.Description)
	}
	fmt.Fprintf(w, "Watches   %s\n", m.Watches())
	fmt.Fprintf(w, "Schedule  %s, read as %s\n", m.Schedule, v.Reads)
	detector := fmt.Sprintf("%s, %s sensitivity (threshold %g), %s", m.Detector, m.Sensitivity, m.Threshold, m.Direction)
	if m.MinVolume > 0 {
		detector += fmt.Sprintf(", minimum volume %g", m.MinVolume)
	}
	if m.MinHistory > 0 {
		detector += fmt.Sprintf(", judged after %d periods of history", m.MinHistory)
	}
	fmt.Fprintf(w, "Detector  %s\n", detector)
	notify := strings.Join(m.Notify, ", ")
	if notify == "" {
		notify = "no one yet (alerts go to alerts.jsonl)"
	}
	fmt.Fprintf(w, "Notify    %s\n", notify)
	if m.MutedUntil != "" {
		fmt.Fprintf(w, "Muted     until %s\n", m.MutedUntil)
	}
}

func (a *app) watchListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{Use: "list", Short: "List the monitors", Args: cobra.NoArgs}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		ms, err := a.rt.Monitors()
		if err != nil {
			return err
		}
		st, err := a.rt.WatchState(ctx)
		if err != nil {
			return err
		}
		views := make([]monitorView, 0, len(ms))
		for _, m := range ms {
			views = append(views, viewOf(m, st, a.now()))
		}
		if asJSON {
			return writeJSON(a.stdout, views)
		}
		if len(views) == 0 {
			fmt.Fprintln(a.stdout, `No monitors yet. Write one: quarry watch add "weekly orders by channel"`)
			return nil
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tWATCHES\tSCHEDULE\tDETECTOR\tLAST RUN\tSTATE")
		for _, v := range views {
			state := "active"
			if v.Muted {
				state = "muted until " + v.MutedUntil
			}
			last := "never"
			if v.LastRun != "" {
				last = v.LastRun
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s %s\t%s\t%s\n", v.Name, v.Monitor.Watches(), v.Schedule, v.Detector, v.Sensitivity, last, state)
		}
		return tw.Flush()
	})
	return cmd
}

func (a *app) watchShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{Use: "show NAME", Short: "Show a monitor: what it watches, when, and how it judges", Args: cobra.ExactArgs(1)}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		m, err := a.rt.Monitor(args[0])
		if err != nil {
			return err
		}
		st, err := a.rt.WatchState(ctx)
		if err != nil {
			return err
		}
		v := viewOf(m, st, a.now())
		if asJSON {
			return writeJSON(a.stdout, v)
		}
		printMonitor(a.stdout, m, a.now())
		if v.LastRun != "" {
			fmt.Fprintf(a.stdout, "Last run  %s\n", v.LastRun)
		}
		if v.Next != "" {
			fmt.Fprintf(a.stdout, "Next run  %s\n", v.Next)
		}
		return nil
	})
	return cmd
}

// testView is one segment's latest complete period, as watch test prints it.
type testView struct {
	Segment     string  `json:"segment,omitempty"`
	PeriodStart string  `json:"period_start"`
	PeriodEnd   string  `json:"period_end"`
	Value       float64 `json:"value"`
	Baseline    float64 `json:"baseline"`
	Change      float64 `json:"change"`
	Score       float64 `json:"score"`
	Judged      bool    `json:"judged"`
	NotJudged   string  `json:"not_judged,omitempty"` // why not
	Anomalous   bool    `json:"anomalous"`
	Method      string  `json:"baseline_method,omitempty"`
}

func (a *app) watchTestCmd() *cobra.Command {
	var asJSON bool
	var asOf string
	cmd := &cobra.Command{
		Use:   "test NAME",
		Short: "Judge a monitor's latest complete period now, telling no one",
		Long: `Read the monitor's history, judge its latest complete period (a period still
under way is never judged) and print the reading of each segment: the
value, the baseline, the change and the detector's score. Nothing is sent
and nothing is remembered; the queries are recorded as runs.`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&asOf, "as-of", "", "judge as on the day after this one, YYYY-MM-DD (default: now)")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		m, now, r, release, err := a.monitorRunner(ctx, args[0], asOf)
		if err != nil {
			return err
		}
		defer release()
		c, err := r.Check(ctx, m, time.Time{}, now)
		if err != nil {
			return err
		}
		views := []testView{}
		for _, s := range c.Segments {
			if s.Latest == nil {
				continue
			}
			l := s.Latest
			views = append(views, testView{Segment: s.Segment, PeriodStart: l.Start.Format(time.DateOnly), PeriodEnd: l.End.AddDate(0, 0, -1).Format(time.DateOnly),
				Value: l.Value, Baseline: round4(l.Baseline), Change: round4(l.Change), Score: round4(l.Score), Judged: l.Judged, NotJudged: l.NotJudged, Anomalous: l.Anomalous, Method: l.Method})
		}
		// The last complete day, as the user gave it and the API echoes it
		// (c.AsOf is the day the periods are judged on, the day after).
		day := lastComplete(now)
		if asJSON {
			out := map[string]any{"monitor": m.Name, "as_of": day, "runs": c.Runs, "threshold": m.Threshold, "detector": m.Detector, "segments": views}
			if c.NoData != "" {
				out["no_data_since"], out["no_data"] = c.NoDataSince, c.NoData
			}
			return writeJSON(a.stdout, out)
		}
		fmt.Fprintf(a.stdout, "%s: %s, as of %s (runs %s)\n", m.Name, m.Watches(), day, strings.Join(c.Runs, ", "))
		if c.NoData != "" {
			fmt.Fprintf(a.stdout, "NO DATA: %s\n", c.NoData)
		}
		if len(views) == 0 {
			fmt.Fprintln(a.stdout, "No complete period yet.")
			return nil
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SEGMENT\tPERIOD\tVALUE\tBASELINE\tCHANGE\tSCORE\tVERDICT")
		for _, v := range views {
			verdict := "normal"
			switch {
			case !v.Judged:
				verdict = "not judged (" + v.NotJudged + ")"
			case v.Anomalous:
				verdict = fmt.Sprintf("ALERT (threshold %g)", m.Threshold)
			}
			seg := v.Segment
			if seg == "" {
				seg = "(all)"
			}
			fmt.Fprintf(tw, "%s\t%s – %s\t%s\t%s\t%+.1f%%\t%.2f\t%s\n", seg, v.PeriodStart, v.PeriodEnd, fig(v.Value), fig(v.Baseline), 100*v.Change, v.Score, verdict)
		}
		return tw.Flush()
	})
	return cmd
}

func round4(f float64) float64 {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 6, 64), 64)
	return v
}

func fig(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	if math.Abs(f) >= 100 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'g', 4, 64)
}

func (a *app) watchRunCmd() *cobra.Command {
	var asJSON, all, noInvestigate bool
	var asOf string
	cmd := &cobra.Command{
		Use:   "run [NAME...]",
		Short: "Run the monitors that are due (or those named) and tell of new alerts",
		Long: `Run the monitors whose schedule came due since they last ran, or the ones
named (all of them with --all). Each judges its complete periods; a period
is told of once: an alert when an incident begins, a recovery when it ends.
A new alert of a metric monitor is investigated: the metric is broken down
by each dimension for the alert's period against the weeks (days, months)
before it, and the segments that moved most are named. Alerts are appended
to alerts.jsonl beside quarry's state database, then delivered to the
channels the monitor's notify: names (channels: in quarry.yaml), each
delivery recorded in deliveries.jsonl; a muted monitor runs and tells no
one. Run it from cron or a scheduler, e.g. every few minutes.

Exit status: 0 when every monitor ran and every alert was delivered; 1
when a monitor failed (it runs again next time); 4 when every monitor ran
but an alert could not be delivered to a channel (one line each above;
the alert is kept in alerts.jsonl and is not sent again).`,
		Example: `  quarry watch run
  quarry watch run weekly_orders --json`,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&all, "all", false, "run every monitor, due or not")
	cmd.Flags().BoolVar(&noInvestigate, "no-investigate", false, "do not break alerts down by dimension")
	cmd.Flags().StringVar(&asOf, "as-of", "", "run as on the day after this one, YYYY-MM-DD (default: now)")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		ms, err := a.rt.Monitors()
		if err != nil {
			return err
		}
		force := all || len(args) > 0
		if len(args) > 0 {
			ms = ms[:0:0]
			for _, n := range args {
				m, err := a.rt.Monitor(n)
				if err != nil {
					return err
				}
				ms = append(ms, m)
			}
		}
		now, err := a.asOfFlag(asOf)
		if err != nil {
			return err
		}
		r, release, err := a.rt.WatchRunner(ctx, !noInvestigate)
		if err != nil {
			return err
		}
		defer release()
		out, err := r.Run(ctx, ms, now, force)
		if err != nil {
			return err
		}
		if asJSON {
			if err := writeJSON(a.stdout, out); err != nil {
				return err
			}
		} else {
			a.printOutcomes(out)
		}
		for _, o := range out {
			if o.Status == "failed" {
				return errSilent
			}
		}
		if failed := watch.Undelivered(out); len(failed) > 0 {
			if cfg, err := a.config(); err == nil {
				alerts, _ := runtime.WatchFiles(cfg)
				fmt.Fprintf(a.stderr, "quarry: %d alert deliveries failed; the alerts are kept in %s, every attempt in %s\n", len(failed), alerts, runtime.DeliveriesFile(cfg))
			}
			return errUndelivered
		}
		return nil
	})
	return cmd
}

// errUndelivered ends quarry watch run with exit code 4 when every
// monitor ran but an alert could not be delivered to a channel.
const errUndelivered = silentError(quarry.ExitConnection)

func (a *app) printOutcomes(out []watch.Outcome) {
	if len(out) == 0 {
		fmt.Fprintln(a.stdout, `No monitors yet. Write one: quarry watch add "weekly orders by channel"`)
		return
	}
	cfg, _ := a.config()
	for _, o := range out {
		switch o.Status {
		case "not_due":
			fmt.Fprintf(a.stdout, "%s: not due (next %s)\n", o.Monitor, o.Next)
			continue
		case "failed":
			fmt.Fprintf(a.stdout, "%s: failed: %s\n", o.Monitor, o.Error)
			continue
		}
		what := "no new alerts"
		if n := len(o.Alerts); n > 0 {
			what = fmt.Sprintf("%d new", n)
			if o.Status == "muted" {
				what += " (muted: told no one)"
			}
		}
		fmt.Fprintf(a.stdout, "%s: ran, %s\n", o.Monitor, what)
		for _, al := range o.Alerts {
			fmt.Fprintf(a.stdout, "  %s %s\n", strings.ToUpper(al.Kind), al.Message)
			if inv := al.Investigation; inv != nil {
				for _, c := range inv.Contributors {
					share := ""
					if c.Share != 0 {
						share = fmt.Sprintf(", %.0f%% of the change", 100*c.Share)
					}
					fmt.Fprintf(a.stdout, "    %s=%s: %s against %s a period (%s%s)\n", c.Dimension, c.Value, fig(c.Current), fig(c.Baseline), signed(c.Delta), share)
				}
			}
			for _, d := range o.Deliveries {
				if d.Kind != al.Kind || d.Segment != al.Segment || d.PeriodStart != al.PeriodStart {
					continue
				}
				if d.OK {
					fmt.Fprintf(a.stdout, "  -> %s: delivered (%s)\n", d.Channel, tries(d.Tries))
				} else {
					fmt.Fprintf(a.stdout, "  -> %s: NOT DELIVERED (%s): %s\n", d.Channel, tries(d.Tries), oneLine(d.Error))
				}
			}
		}
	}
	if cfg != nil {
		alerts, _ := runtime.WatchFiles(cfg)
		fmt.Fprintf(a.stdout, "Alerts are kept in %s\n", alerts)
		if len(cfg.ChannelNames) > 0 {
			fmt.Fprintf(a.stdout, "Deliveries are recorded in %s\n", runtime.DeliveriesFile(cfg))
		}
	}
}

func tries(n int) string {
	if n == 1 {
		return "1 try"
	}
	return fmt.Sprintf("%d tries", n)
}

func signed(f float64) string {
	if f > 0 {
		return "+" + fig(f)
	}
	return fig(f)
}

func (a *app) watchBackfillCmd() *cobra.Command {
	var asJSON, recoveries bool
	var since, asOf string
	cmd := &cobra.Command{
		Use:   "backfill NAME --since DATE",
		Short: "Replay a monitor's history and show what it would have told",
		Long: `Judge every complete period of the monitor's history from --since on (the
history before it still makes the baselines) and print the alerts it would
have sent, one per incident. Nothing is sent and nothing is remembered.
With --json, one JSON object per line and alert: monitor, segment,
period_start and period_end (ISO dates, both days included), value,
baseline, change, score and the message.`,
		Example: `  quarry watch backfill weekly_orders --since 2024-07-01
  quarry watch backfill weekly_orders --since 2024-07-01 --json`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().StringVar(&since, "since", "", "the first day to report alerts from, YYYY-MM-DD (required)")
	cmd.Flags().StringVar(&asOf, "as-of", "", "replay up to the day after this one, YYYY-MM-DD (default: now)")
	cmd.Flags().BoolVar(&recoveries, "recoveries", false, "also show when each incident ended")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per alert, one a line")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		if since == "" {
			return quarry.Errorf(quarry.KindUsage, "say where to start: --since YYYY-MM-DD")
		}
		from, err := day("since", since)
		if err != nil {
			return err
		}
		if last := lastComplete(a.now()); asOf != "" {
			last = asOf
			if since > last {
				return quarry.Errorf(quarry.KindUsage, "--since %s is after --as-of %s: no period lies between them", since, asOf)
			}
		} else if since > last {
			return quarry.Errorf(quarry.KindUsage, "--since %s is after the last complete day (%s): no period lies between them", since, last)
		}
		m, now, r, release, err := a.monitorRunner(ctx, args[0], asOf)
		if err != nil {
			return err
		}
		defer release()
		alerts, c, err := r.Backfill(ctx, m, from, now, recoveries)
		if err != nil {
			return err
		}
		if asJSON {
			enc := json.NewEncoder(a.stdout)
			for _, al := range alerts {
				if err := enc.Encode(al); err != nil {
					return err
				}
			}
			return nil
		}
		periods := 0
		for _, s := range c.Segments {
			for _, r := range s.Readings {
				if r.Judged && r.Start.Format(time.DateOnly) >= since {
					periods++
				}
			}
		}
		fmt.Fprintf(a.stdout, "%s: %s; %d periods judged from %s to %s (run %s)\n", m.Name, m.Watches(), periods, since, lastComplete(now), strings.Join(c.Runs, ", "))
		if len(alerts) == 0 {
			fmt.Fprintln(a.stdout, "No alerts.")
			return nil
		}
		for _, al := range alerts {
			fmt.Fprintf(a.stdout, "%s – %s  %-8s %s\n", al.PeriodStart, al.PeriodEnd, strings.ToUpper(al.Kind), al.Message)
		}
		return nil
	})
	return cmd
}

func (a *app) watchMuteCmd() *cobra.Command {
	var until, forAge string
	var off, asJSON bool
	cmd := &cobra.Command{
		Use:   "mute NAME (--until DATE | --for AGE | --off)",
		Short: "Silence a monitor up to a day (it still runs and remembers)",
		Long: `Write muted_until into the monitor's file: up to and including that day the
monitor runs and remembers what it saw, and tells no one. --off removes it.`,
		Example: `  quarry watch mute weekly_orders --until 2026-07-15
  quarry watch mute weekly_orders --for 2w
  quarry watch mute weekly_orders --off`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().StringVar(&until, "until", "", "the last muted day, YYYY-MM-DD")
	cmd.Flags().StringVar(&forAge, "for", "", "mute for this long from today: 3d, 2w")
	cmd.Flags().BoolVar(&off, "off", false, "unmute")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		var given []string
		for _, f := range []struct {
			name string
			set  bool
		}{{"--until", until != ""}, {"--for", forAge != ""}, {"--off", off}} {
			if f.set {
				given = append(given, f.name)
			}
		}
		switch {
		case len(given) == 0:
			return quarry.Errorf(quarry.KindUsage, "say how long: --until YYYY-MM-DD, --for 2w, or --off")
		case len(given) > 1:
			return quarry.Errorf(quarry.KindUsage, "%s: pick one", strings.Join(given, " and "))
		}
		value := ""
		today := a.now().Format(time.DateOnly)
		switch {
		case until != "":
			if _, err := day("until", until); err != nil {
				return err
			}
			if until < today {
				return quarry.Errorf(quarry.KindUsage, "--until %s is in the past; give today (%s) or a later day", until, today)
			}
			value = until
		case forAge != "":
			age, err := config.ParseAge(forAge)
			if err != nil || age <= 0 {
				return quarry.Errorf(quarry.KindUsage, "--for %q: give a length such as 3d or 2w", forAge)
			}
			if age > time.Duration(httpapi.MaxMuteDays)*24*time.Hour {
				return quarry.Errorf(quarry.KindUsage, "--for %s: mute for at most %d days (10 years), or use --until", forAge, httpapi.MaxMuteDays)
			}
			value = a.now().Add(age).Format(time.DateOnly)
		}
		m, err := a.rt.MuteMonitor(args[0], value)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, m)
		}
		if value == "" {
			fmt.Fprintf(a.stdout, "%s is no longer muted (%s)\n", m.Name, m.File)
		} else {
			fmt.Fprintf(a.stdout, "%s is muted up to and including %s (%s)\n", m.Name, value, m.File)
		}
		return nil
	})
	return cmd
}

// monitorRunner reads one monitor, the day it is judged as of (--as-of)
// and a runner that does not investigate: what watch test and watch
// backfill both start from.
func (a *app) monitorRunner(ctx context.Context, name, asOf string) (watch.Monitor, time.Time, *watch.Runner, func(), error) {
	m, err := a.rt.Monitor(name)
	if err != nil {
		return watch.Monitor{}, time.Time{}, nil, nil, err
	}
	now, err := a.asOfFlag(asOf)
	if err != nil {
		return watch.Monitor{}, time.Time{}, nil, nil, err
	}
	r, release, err := a.rt.WatchRunner(ctx, false)
	if err != nil {
		return watch.Monitor{}, time.Time{}, nil, nil, err
	}
	return m, now, r, release, nil
}
