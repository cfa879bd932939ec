package runtime

import (
	"context"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/store"
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
	// Seq is its number in the alerts file (1 for the first kept), where
	// a page of them is cut; 0 when not read from it.
	Seq int
}

// withheldWhy is what a withheld alert or investigation says instead of
// its figures.
const withheldWhy = "withheld: it was read from a column the policy restricts (policy.yaml)"

// alertScope is what decides, under the column policy of now, how kept
// alerts may show: the policy, the monitors and the SQL each would run,
// the guard of the default connection, and the guard of each connection
// a run was made on. The CLI builds one from the runtime (alertScope), a
// server from its current generation (ServedMonitors).
type alertScope struct {
	policy   *policy.Policy
	monitors []watch.Monitor
	// refused reports whether the guard of the default connection refuses
	// the monitor's query now.
	refused func(ctx context.Context, m watch.Monitor) (bool, error)
	// guardFor is the guard of the connection a run was made on (nil:
	// the policy's own check of its dialect).
	guardFor func(ctx context.Context, connection string) analyst.Guard
	store    store.State
}

// alertScope is the runtime's alertScope: the folder and policy as read
// now, the default connection's guard opened once, when the policy
// restricts anything.
func (r *Runtime) alertScope(ctx context.Context) (*alertScope, func(), error) {
	p, err := r.Policy()
	if err != nil {
		return nil, nil, err
	}
	sc := &alertScope{policy: p}
	if p.Empty() {
		return sc, func() {}, nil
	}
	if sc.monitors, err = r.Monitors(); err != nil {
		return nil, nil, err
	}
	f, err := r.Folder()
	if err != nil {
		return nil, nil, err
	}
	if sc.store, err = r.Store(ctx); err != nil {
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
	sc.refused = func(ctx context.Context, m watch.Monitor) (bool, error) {
		return monitorRefused(ctx, an.Guard, f.Model, verified, an.Conn.Dialect(), m, r.o.Now())
	}
	gs := &runGuards{r: r, guards: map[string]analyst.Guard{}}
	sc.guardFor = gs.guard
	return sc, release, nil
}

// apply withholds, in place, what the policy of now does not let the
// alerts show (ServedMonitors.Alerts says what). Every surface that shows or
// sends a kept alert again goes through it: GET
// /api/monitors/{name}/alerts and quarry watch redeliver.
func (sc *alertScope) apply(ctx context.Context, out []KeptAlert) error {
	if len(out) == 0 || sc.policy.Empty() {
		return nil
	}
	reads := runLineage(sc.policy, sc.guardFor)
	readsRestricted := func(id string) bool {
		if id == "" {
			return false
		}
		run, err := sc.store.Run(ctx, id)
		if err != nil {
			// A run that cannot be read back (pruned) cannot show it
			// does not.
			return true
		}
		return reads(ctx, run)
	}
	refused := map[string]bool{}
	for i := range out {
		a := &out[i]
		ref, seen := refused[a.Monitor]
		if !seen {
			ref = true // a monitor no longer defined: nothing shows its query is allowed
			for _, m := range sc.monitors {
				if m.Name == a.Monitor {
					var err error
					if ref, err = sc.refused(ctx, m); err != nil {
						return err
					}
					break
				}
			}
			refused[a.Monitor] = ref
		}
		if ref || readsRestricted(a.Run) {
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
	return nil
}

// withhold keeps what says which alert it was (the monitor, its kind, the
// period, its runs and channels) and drops every figure and name that
// came from the data, and which way the figure moved and since when: of
// a monitor by a restricted column, that some city's orders rose in
// November is the column's data too (found from outside).
func withhold(k watchfile.Kept) watchfile.Kept {
	a := k.Alert
	out := watch.Alert{
		Monitor: a.Monitor, Kind: a.Kind, PeriodStart: a.PeriodStart, PeriodEnd: a.PeriodEnd,
		Detector: a.Detector, Threshold: a.Threshold, Method: a.Method,
		Notify: a.Notify, Run: a.Run, Message: policy.Redacted,
	}
	if a.Segment != "" {
		out.Segment = policy.Redacted
	}
	if a.Investigation != nil {
		out.Investigation = &watch.Investigation{BaselineStart: a.Investigation.BaselineStart, BaselineEnd: a.Investigation.BaselineEnd, Runs: a.Investigation.Runs}
	}
	return watchfile.Kept{At: k.At, To: k.To, Alert: out}
}

// monitorRefused reports whether g, the guard of the default connection
// with the column policy of now, refuses the monitor's query: what its
// next run would be told. It compiles the query without running it; a
// verified query that no longer exists counts as refused.
func monitorRefused(ctx context.Context, g analyst.Guard, model *semantic.Model, verified map[string]string, d quarry.Dialect, m watch.Monitor, now time.Time) (bool, error) {
	var sql string
	if m.Query != "" {
		var ok bool
		if sql, ok = verified[strings.ToLower(strings.TrimSpace(m.Query))]; !ok {
			return true, nil
		}
	} else {
		c, err := semantic.Compile(model, m.SemanticQuery(time.Time{}, now), d)
		if quarry.KindOf(err) == quarry.KindForbidden {
			// It reads a column the policy of the reader restricts (a
			// group's): refused, as its run would be.
			return true, nil
		}
		if err != nil {
			return false, quarry.Wrap(quarry.KindConfig, err, "monitor %s does not compile; fix %s", m.Name, m.File)
		}
		sql = c.SQL
	}
	return !g.Check(ctx, sql).Allowed, nil
}
