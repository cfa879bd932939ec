package runtime

import (
	"context"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/watchfile"
)

// KeptAlert is one alert of the alerts file as a surface may show it
// under the column policy of now. Withheld, when set, says why its
// figures, segment, message and investigation are not shown: they came
// from a query that reads a column the policy restricts now (the alert
// was kept before the column was restricted, or through a view of it).
type KeptAlert struct {
	watchfile.Kept
	Withheld string
}

// withheldWhy is what a withheld alert or investigation says instead of
// its figures.
const withheldWhy = "withheld: it was read from a column the policy restricts (policy.yaml)"

// MonitorAlerts returns the kept alerts of the monitor called name, in
// the order they were kept, under the column policy of now. An alert is
// withheld whole when the monitor's own query is refused by the guard of
// the default connection now, or when the run that read its series reads
// a restricted column now (the lineage check `quarry runs export`
// makes); its investigation alone is withheld when one of the
// investigation's runs does.
func (r *Runtime) MonitorAlerts(ctx context.Context, name string) ([]KeptAlert, error) {
	m, err := r.Monitor(name)
	if err != nil {
		return nil, err
	}
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	path, _ := WatchFiles(cfg)
	all, err := watchfile.ReadAlerts(path)
	if err != nil {
		return nil, err
	}
	var out []KeptAlert
	for _, k := range all {
		if k.Monitor == name {
			out = append(out, KeptAlert{Kept: k})
		}
	}
	if len(out) == 0 {
		return out, nil
	}
	p, err := r.Policy()
	if err != nil {
		return nil, err
	}
	if p.Empty() {
		return out, nil
	}
	refused, err := r.monitorRefused(ctx, m)
	if err != nil {
		return nil, err
	}
	st, err := r.Store(ctx)
	if err != nil {
		return nil, err
	}
	gs := &runGuards{r: r, guards: map[string]analyst.Guard{}}
	reads := runLineage(p, gs.guard)
	readsRestricted := func(id string) bool {
		if id == "" {
			return false
		}
		run, err := st.Run(ctx, id)
		if err != nil {
			// A run that cannot be read back (pruned) cannot show it
			// does not.
			return true
		}
		return reads(ctx, run)
	}
	for i := range out {
		a := &out[i]
		if refused || readsRestricted(a.Run) {
			a.Kept = withhold(a.Kept)
			a.Withheld = withheldWhy
			continue
		}
		if inv := a.Investigation; inv != nil {
			for _, id := range inv.Runs {
				if readsRestricted(id) {
					a.Investigation = &watch.Investigation{BaselineStart: inv.BaselineStart, BaselineEnd: inv.BaselineEnd, Runs: inv.Runs, Skipped: []string{"the breakdowns are " + withheldWhy}}
					break
				}
			}
		}
	}
	return out, nil
}

// withhold keeps what says which alert it was (the monitor, its kind, the
// period, its runs and channels) and drops every figure and name that
// came from the data.
func withhold(k watchfile.Kept) watchfile.Kept {
	a := k.Alert
	out := watch.Alert{
		Monitor: a.Monitor, Kind: a.Kind, PeriodStart: a.PeriodStart, PeriodEnd: a.PeriodEnd,
		Detector: a.Detector, Threshold: a.Threshold, Direction: a.Direction, Method: a.Method,
		IncidentStart: a.IncidentStart, Notify: a.Notify, Run: a.Run, Message: policy.Redacted,
	}
	if a.Segment != "" {
		out.Segment = policy.Redacted
	}
	if a.Investigation != nil {
		out.Investigation = &watch.Investigation{BaselineStart: a.Investigation.BaselineStart, BaselineEnd: a.Investigation.BaselineEnd, Runs: a.Investigation.Runs}
	}
	return watchfile.Kept{At: k.At, To: k.To, Alert: out}
}

// monitorRefused reports whether the guard of the default connection,
// with the column policy of now, refuses the monitor's query: what its
// next run would be told. It compiles the query without running it.
func (r *Runtime) monitorRefused(ctx context.Context, m watch.Monitor) (bool, error) {
	f, err := r.Folder()
	if err != nil {
		return false, err
	}
	an, release, err := r.Analyst(ctx, "", monitorRows)
	if err != nil {
		return false, err
	}
	defer release()
	sql := ""
	if m.Query != "" {
		for _, v := range f.Verified {
			if strings.EqualFold(strings.TrimSpace(v.Question), strings.TrimSpace(m.Query)) {
				sql = v.SQL
			}
		}
		if sql == "" {
			return true, nil
		}
	} else {
		c, err := semantic.Compile(f.Model, m.SemanticQuery(time.Time{}, r.o.Now()), an.Conn.Dialect())
		if err != nil {
			return false, quarry.Wrap(quarry.KindConfig, err, "monitor %s does not compile; fix %s", m.Name, m.File)
		}
		sql = c.SQL
	}
	return !an.Guard.Check(ctx, sql).Allowed, nil
}
