package runtime

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/deliver"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/suggest"
	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/watchdeliver"
	"github.com/quarrydata/quarry/internal/watch/watchfile"
)

// monitorRows caps the rows a monitor's query reads: years of periods
// times its segments.
const monitorRows = 200_000

// Monitors are the knowledge folder's monitors, by file name. A monitor
// whose notify: names a channel that quarry.yaml does not define is a
// config error (the first one, with its file and line).
func (r *Runtime) Monitors() ([]watch.Monitor, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	f, err := r.Folder()
	if err != nil {
		return nil, err
	}
	if ps := NotifyProblems(cfg, f.Monitors); len(ps) > 0 {
		msg := ps[0]
		if len(ps) > 1 {
			msg += fmt.Sprintf(" (and %d more problems)", len(ps)-1)
		}
		return nil, quarry.Errorf(quarry.KindConfig, "%s", msg)
	}
	return f.Monitors, nil
}

// NotifyProblems says, one line each with the monitor's file and line,
// which names in the monitors' notify: lists are not channels of
// quarry.yaml.
func NotifyProblems(cfg *config.Config, ms []watch.Monitor) []string {
	var out []string
	dir, err := filepath.Rel(cfg.Dir, cfg.Knowledge)
	if err != nil || strings.HasPrefix(dir, "..") {
		dir = cfg.Knowledge
	}
	for _, m := range ms {
		for _, name := range m.Notify {
			if _, ok := cfg.Channels[name]; ok {
				continue
			}
			where := filepath.Join(dir, filepath.FromSlash(m.File))
			if m.NotifyLine > 0 {
				where += fmt.Sprintf(":%d", m.NotifyLine)
			}
			fix := "define it under channels: in " + filepath.Base(cfg.Path) + " (docs/watch.md), or remove it from notify:"
			if len(cfg.ChannelNames) > 0 {
				fix = "the channels are " + strings.Join(cfg.ChannelNames, ", ") + "; " + fix
				if best, d := suggest.Closest(name, cfg.ChannelNames); best != "" && d <= 2 {
					fix = fmt.Sprintf("did you mean %q? ", best) + fix
				}
			}
			out = append(out, fmt.Sprintf("%s: notify: no channel named %q in %s; %s", where, name, filepath.Base(cfg.Path), fix))
		}
	}
	return out
}

// Monitor is the monitor called name.
func (r *Runtime) Monitor(name string) (watch.Monitor, error) {
	ms, err := r.Monitors()
	if err != nil {
		return watch.Monitor{}, err
	}
	var names []string
	for _, m := range ms {
		if m.Name == name {
			return m, nil
		}
		names = append(names, m.Name)
	}
	if len(names) == 0 {
		return watch.Monitor{}, quarry.Errorf(quarry.KindNotFound, "no monitor %q: the knowledge folder has no monitors yet; write one with quarry watch add \"weekly orders\"", name)
	}
	hint := ""
	if best, d := suggest.Closest(name, names); best != "" && d <= 3 {
		hint = fmt.Sprintf(" (did you mean %q?)", best)
	}
	return watch.Monitor{}, quarry.Errorf(quarry.KindNotFound, "no monitor %q%s; quarry watch list shows them", name, hint)
}

// WatchFiles are where monitors' alerts and memory are kept: beside the
// state database (or in .quarry/ of the project when the state is a
// PostgreSQL URL).
func WatchFiles(cfg *config.Config) (alerts, state string) {
	dir := localDir(cfg)
	return filepath.Join(dir, "alerts.jsonl"), filepath.Join(dir, "watch.json")
}

// DeliveriesFile is where every delivery of an alert to a channel is
// recorded, with its attempts: deliveries.jsonl beside alerts.jsonl.
func DeliveriesFile(cfg *config.Config) string {
	alerts, _ := WatchFiles(cfg)
	return filepath.Join(filepath.Dir(alerts), "deliveries.jsonl")
}

// RunLink is the address of a run's provenance bundle on quarry serve at
// server.public_url; "" when it is not set.
func RunLink(cfg *config.Config, run string) string {
	if cfg.Server.PublicURL == "" || run == "" {
		return ""
	}
	return cfg.Server.PublicURL + "/api/runs/" + url.PathEscape(run) + "/export"
}

// WatchRunner is the runner of the project's monitors on the default
// connection: their queries run through the analyst pipeline (compiled
// by the semantic layer, checked by the connection's guard and column
// policy, executed under its limits, recorded as runs), alerts go to the
// alerts file and then to the channels of each monitor's notify:
// (watchdeliver, recorded in the deliveries file), and its memory to the
// monitors' memory in the state database (WatchStore). The returned func
// releases the connection's guard.
func (r *Runtime) WatchRunner(ctx context.Context, investigate bool) (*watch.Runner, func(), error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, nil, err
	}
	f, err := r.Folder()
	if err != nil {
		return nil, nil, err
	}
	if _, err := r.Monitors(); err != nil {
		return nil, nil, err
	}
	an, release, err := r.Analyst(ctx, "", monitorRows)
	if err != nil {
		return nil, nil, err
	}
	verified := map[string]string{}
	for _, v := range f.Verified {
		verified[strings.ToLower(strings.TrimSpace(v.Question))] = v.SQL
	}
	wq, err := r.WatchStore(ctx)
	if err != nil {
		release()
		return nil, nil, err
	}
	notifier := r.notifier(cfg)
	return &watch.Runner{
		Model:       f.Model,
		Verified:    verified,
		Source:      &watchSource{r: r, an: an, model: f.Model},
		Notifier:    notifier,
		State:       wq.Memory(""),
		Investigate: investigate,
	}, release, nil
}

// notifier keeps each alert in the alerts file, then delivers it to the
// channels of quarry.yaml, recording each delivery.
func (r *Runtime) notifier(cfg *config.Config) *watchdeliver.Notifier {
	alerts, _ := WatchFiles(cfg)
	channels := make(map[string]deliver.Channel, len(cfg.Channels))
	for name, ch := range cfg.Channels {
		channels[name] = ch.Deliver()
	}
	return &watchdeliver.Notifier{
		Keep: watchfile.Notifier{Path: alerts, Now: r.o.Now},
		Told: func(_ context.Context, a watch.Alert) (bool, error) {
			return watchfile.ToldAlert(alerts, a)
		},
		Channels: channels,
		Sender:   &deliver.Sender{Clock: r.o.Now},
		Log:      watchfile.Deliveries{Path: DeliveriesFile(cfg), Now: r.o.Now},
		Link:     func(run string) string { return RunLink(cfg, run) },
	}
}

// Undelivered lists the kept alerts that some channel of theirs never
// got (deliveries.jsonl records only failures for it, or nothing), as
// the column policy of now lets them be told: an alert withheld by
// the rules of the Monitors page's alerts (ServedMonitors.Alerts) is sent with no figure, segment or breakdown of
// the data, its message saying why.
func (r *Runtime) Undelivered(ctx context.Context) ([]watchdeliver.Pending, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	alerts, _ := WatchFiles(cfg)
	kept, err := watchfile.ReadAlerts(alerts)
	if err != nil {
		return nil, err
	}
	ds, err := watchfile.ReadDeliveries(DeliveriesFile(cfg))
	if err != nil {
		return nil, err
	}
	pending := watchdeliver.Undelivered(kept, ds)
	if len(pending) == 0 {
		return pending, nil
	}
	shown := make([]KeptAlert, len(pending))
	for i, p := range pending {
		shown[i] = KeptAlert{Kept: watchfile.Kept{Alert: p.Alert}}
	}
	sc, release, err := r.alertScope(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := sc.apply(ctx, shown); err != nil {
		return nil, err
	}
	for i, k := range shown {
		if k.Withheld != "" {
			pending[i].Withheld, pending[i].KeptSegment = true, pending[i].Alert.Segment
		}
		pending[i].Alert = k.Alert
		if k.Withheld != "" {
			pending[i].Alert.Message = fmt.Sprintf("%s: %s for %s to %s; its figures are %s", k.Monitor, k.Kind, k.PeriodStart, k.PeriodEnd, k.Withheld)
		}
	}
	return pending, nil
}

// Redeliver tells each pending alert (from Undelivered, so under the
// column policy of now) to its channel again, with the channels as
// quarry.yaml defines them now, recording every delivery.
func (r *Runtime) Redeliver(ctx context.Context, pending []watchdeliver.Pending) ([]watch.Delivery, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	return r.notifier(cfg).Redeliver(ctx, pending)
}

// watchSource runs monitors' queries as recorded runs of the analyst.
type watchSource struct {
	r     *Runtime
	an    *analyst.Analyst
	model *semantic.Model
}

func (s *watchSource) Metric(ctx context.Context, label string, q semantic.Query) (*quarry.Table, string, error) {
	c, err := semantic.Compile(s.model, q, s.an.Conn.Dialect())
	if err != nil {
		return nil, "", err
	}
	return s.SQL(ctx, label, c.SQL)
}

// SQL runs sql as a recorded run, its first line a comment naming the
// monitor that asked, and collects its rows.
func (s *watchSource) SQL(ctx context.Context, label, sql string) (*quarry.Table, string, error) {
	rec, err := s.r.Recorder(ctx)
	if err != nil {
		return nil, "", err
	}
	sink := &tableSink{max: monitorRows}
	out, err := s.an.Run(ctx, rec, "-- quarry watch: "+oneLineLabel(label)+"\n"+sql, sink)
	var id string
	if out != nil {
		id = out.RunID
		sink.t.Truncated = sink.t.Truncated || out.Truncated
	}
	if err != nil {
		return nil, id, err
	}
	return &sink.t, id, nil
}

func oneLineLabel(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// tableSink keeps the rows of a streamed result.
type tableSink struct {
	t   quarry.Table
	max int
}

func (s *tableSink) Begin(cols []quarry.Column) error {
	s.t.Columns = cols
	return nil
}

func (s *tableSink) Row(vals []any) error {
	if len(s.t.Rows) >= s.max {
		s.t.Truncated = true
		return nil
	}
	s.t.Rows = append(s.t.Rows, append([]any(nil), vals...))
	return nil
}

// MuteMonitor writes muted_until into the monitor's file (until empty:
// removes it), then reads the knowledge folder again.
func (r *Runtime) MuteMonitor(name, until string) (watch.Monitor, error) {
	m, err := r.Monitor(name)
	if err != nil {
		return m, err
	}
	cfg, err := r.Config()
	if err != nil {
		return m, err
	}
	path := filepath.Join(cfg.Knowledge, filepath.FromSlash(m.File))
	src, err := os.ReadFile(path)
	if err != nil {
		return m, quarry.Wrap(quarry.KindInternal, err, "cannot read %s", path)
	}
	out := setTopLevel(string(src), "muted_until", until)
	if err := WriteFileAtomic(path, []byte(out), 0o644); err != nil {
		return m, quarry.Wrap(quarry.KindInternal, err, "cannot write %s", path)
	}
	r.Reload()
	m, err = r.Monitor(name)
	if err != nil {
		// The edit broke the folder: put the file back as it was.
		_ = WriteFileAtomic(path, src, 0o644)
		r.Reload()
	}
	return m, err
}

// setTopLevel sets (or, with value empty, removes) the top-level key of a
// YAML mapping written one key a line, keeping every other line.
func setTopLevel(src, key, value string) string {
	lines := strings.SplitAfter(src, "\n")
	var out []string
	done := false
	for _, l := range lines {
		if strings.HasPrefix(l, key+":") {
			if value != "" && !done {
				out = append(out, key+": "+value+"\n")
				done = true
			}
			continue
		}
		out = append(out, l)
	}
	s := strings.Join(out, "")
	if value != "" && !done {
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		s += key + ": " + value + "\n"
	}
	return s
}

// monitorPath is the file of the monitor called name.
func (r *Runtime) monitorPath(name string) (string, error) {
	cfg, err := r.Config()
	if err != nil {
		return "", err
	}
	return filepath.Join(cfg.Knowledge, filepath.FromSlash(knowledge.MonitorFile(name))), nil
}

// WatchState is what the monitors' runner remembers (their last runs).
func (r *Runtime) WatchState(ctx context.Context) (watch.State, error) {
	wq, err := r.WatchStore(ctx)
	if err != nil {
		return watch.State{}, err
	}
	return wq.Memory("").Load(ctx)
}
