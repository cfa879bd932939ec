package difftest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// Bounds that keep the package's run time in check (also under -race).
const (
	maxGenerated   = 300             // accepted generated statements executed per dialect
	maxCandidates  = 3000            // generated candidates checked per dialect
	maxFuzzSeeds   = 200             // fuzz seed entries checked per dialect
	serverTimeout  = 2 * time.Second // the raw session's own statement timeout
	clientTimeout  = 6 * time.Second // the harness's deadline for one statement
	snapshotBudget = 30 * time.Second
	slowEvery      = 10 // statements between slow snapshots
)

// serverEnv returns the value of a server address variable. Outside CI a
// missing variable skips the test; in CI it fails it.
func serverEnv(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: the test command must start the servers (scripts/services.sh start)", name)
		}
		t.Skipf("%s is not set; run scripts/services.sh start to test against a real server", name)
	}
	return v
}

// snapshot is a fingerprint of everything a statement could change.
// Strict items must not change at all. Loose items live in places other
// processes share (server-wide catalogs, /tmp); their key is "kind:name" and
// a difference counts only when name appears in the statement's text.
type snapshot struct {
	strict map[string]string
	loose  map[string]string
}

func newSnapshot() snapshot {
	return snapshot{strict: map[string]string{}, loose: map[string]string{}}
}

// target is one database under test.
type target interface {
	// exec runs sql on the raw, writable connection, tails included.
	exec(ctx context.Context, sql string) error
	// snapshot fingerprints the database after the statement sql (the
	// statement tells which advisory lock names to look at).
	snapshot(ctx context.Context, sql string) (snapshot, error)
	// slowSnapshot fingerprints what is too slow to look at after every
	// statement; run takes it every slowEvery statements.
	slowSnapshot(ctx context.Context) (snapshot, error)
	// recover reopens the raw connection after it was lost, and undoes
	// session state a changing statement left behind.
	recover(ctx context.Context) error
}

// change is one difference between two snapshots.
type change struct {
	key, before, after string
}

func (c change) String() string {
	return fmt.Sprintf("%s: %s -> %s", c.key, clip(c.before), clip(c.after))
}

func clip(s string) string {
	if s == "" {
		return "(none)"
	}
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

// compare returns the strict items that differ (volatile ones excepted) and
// the loose items that differ and are named in sql.
func compare(before, after snapshot, volatile map[string]bool, sql string) []change {
	var out []change
	for _, k := range unionKeys(before.strict, after.strict) {
		if volatile[k] || before.strict[k] == after.strict[k] {
			continue
		}
		out = append(out, change{k, before.strict[k], after.strict[k]})
	}
	lower := strings.ToLower(sql)
	for _, k := range unionKeys(before.loose, after.loose) {
		if before.loose[k] == after.loose[k] {
			continue
		}
		_, name, _ := strings.Cut(k, ":")
		if name != "" && strings.Contains(lower, strings.ToLower(name)) {
			out = append(out, change{k, before.loose[k], after.loose[k]})
		}
	}
	return out
}

func unionKeys(a, b map[string]string) []string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range []map[string]string{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// calibrate finds the strict items that change when nothing but a trivial
// query runs (server clocks, counters); they are left out of comparisons.
func calibrate(ctx context.Context, t *testing.T, tg target) map[string]bool {
	t.Helper()
	volatile := map[string]bool{}
	both := func() (snapshot, snapshot) {
		a, err := tg.snapshot(ctx, "")
		if err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		b, err := tg.slowSnapshot(ctx)
		if err != nil {
			t.Fatalf("slow snapshot: %v", err)
		}
		return a, b
	}
	prev, prevSlow := both()
	for range 3 {
		if err := tg.exec(ctx, "SELECT 1"); err != nil {
			t.Fatalf("calibration query: %v", err)
		}
		cur, curSlow := both()
		for _, c := range append(compare(prev, cur, nil, ""), compare(prevSlow, curSlow, nil, "")...) {
			volatile[c.key] = true
		}
		prev, prevSlow = cur, curSlow
	}
	if len(volatile) > 0 {
		var keys []string
		for k := range volatile {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Logf("volatile items left out of the comparison: %s", strings.Join(keys, ", "))
	}
	return volatile
}

// counts are the numbers a run reports.
type counts struct {
	allowRows, allowAccepted, allowSucceeded int
	rejectRows, rejectAccepted               int
	otherAccepted                            int // rows of other dialects the guard accepts
	fuzzChecked, fuzzAccepted                int
	generated, generatedAccepted             int
	executed, succeeded, changed             int
	ignoredShared                            int // differences in shared places not named by the statement
}

// run drives one dialect: it checks every statement with the guard, runs
// the accepted ones on tg and compares fingerprints around each.
func run(t *testing.T, d quarry.Dialect, tg target, gen generatorConfig, probes []string) {
	ctx := context.Background()
	g, err := guard.New(sqlguard.Options{Dialect: d})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	check := func(sql string) bool {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return g.Check(cctx, sql).Allowed
	}

	rows := loadRows(t)
	stmts, n := collect(t, d, rows, check, gen)
	volatile := calibrate(ctx, t, tg)

	prev, err := tg.snapshot(ctx, "")
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	prevSlow, err := tg.slowSnapshot(ctx)
	if err != nil {
		t.Fatalf("slow snapshot: %v", err)
	}
	var failures []string
	var since []stmt // statements since the last slow snapshot
	for i, s := range stmts {
		since = append(since, s)
		n.executed++
		ectx, cancel := context.WithTimeout(ctx, clientTimeout)
		execErr := tg.exec(ectx, s.sql)
		cancel()
		if execErr == nil {
			n.succeeded++
			if s.kind == kindAllow {
				n.allowSucceeded++
			}
		} else if s.kind == kindAllow {
			t.Logf("%s: corpus allow row failed on the server (counted as executed): %s: %v", d, s.source, execErr)
		}
		var lost error
		if execErr != nil && isConnLost(execErr) {
			lost = execErr
			if err := tg.recover(ctx); err != nil {
				t.Fatalf("reopen the raw connection after %q: %v", s.sql, err)
			}
		}
		sctx, cancel := context.WithTimeout(ctx, snapshotBudget)
		cur, err := tg.snapshot(sctx, s.sql)
		cancel()
		if err != nil {
			// The statement may have broken the raw session in a way the
			// snapshot notices first (a session it terminated, say).
			if rerr := tg.recover(ctx); rerr != nil {
				t.Fatalf("snapshot after %q: %v (reopen: %v)", s.sql, err, rerr)
			}
			lost = err
			if cur, err = tg.snapshot(ctx, s.sql); err != nil {
				t.Fatalf("snapshot after %q: %v", s.sql, err)
			}
		}
		changes := compare(prev, cur, volatile, s.sql)
		n.ignoredShared += countIgnored(prev, cur, s.sql)
		if lost != nil {
			changes = append(changes, change{"raw session", "open", "lost: " + lost.Error()})
		}
		if len(changes) > 0 {
			n.changed++
			var b strings.Builder
			fmt.Fprintf(&b, "%s: an accepted statement changed the database\n\tsql:    %q\n\tsource: %s\n\texec:   %v", d, s.sql, s.source, execErr)
			for _, c := range changes {
				fmt.Fprintf(&b, "\n\tchanged %s", c)
			}
			failures = append(failures, b.String())
			// Undo session state the statement left (locks, open
			// transactions), then compare the next statement against the
			// database as it now is.
			if err := tg.recover(ctx); err != nil {
				t.Fatalf("reset after a change: %v", err)
			}
			if cur, err = tg.snapshot(ctx, ""); err != nil {
				t.Fatalf("snapshot: %v", err)
			}
		}
		prev = cur
		if len(since) < slowEvery && i < len(stmts)-1 {
			continue
		}
		curSlow, err := tg.slowSnapshot(ctx)
		if err != nil {
			t.Fatalf("slow snapshot: %v", err)
		}
		if changes := compare(prevSlow, curSlow, volatile, joinSQL(since)); len(changes) > 0 {
			n.changed++
			var b strings.Builder
			fmt.Fprintf(&b, "%s: one of these %d accepted statements changed the database", d, len(since))
			for _, s := range since {
				fmt.Fprintf(&b, "\n\tsql: %q (%s)", s.sql, s.source)
			}
			for _, c := range changes {
				fmt.Fprintf(&b, "\n\tchanged %s", c)
			}
			failures = append(failures, b.String())
		}
		prevSlow, since = curSlow, nil
	}
	for _, f := range failures {
		t.Error(f)
	}
	detected := checkProbes(ctx, t, d, tg, volatile, probes)
	t.Logf("%s: corpus allow rows %d (guard accepts %d, %d ran without error); reject rows %d (guard accepts %d); other dialects' rows accepted %d; fuzz seeds %d (accepted %d); generated %d (accepted, executed %d)",
		d, n.allowRows, n.allowAccepted, n.allowSucceeded, n.rejectRows, n.rejectAccepted, n.otherAccepted, n.fuzzChecked, n.fuzzAccepted, n.generated, n.generatedAccepted)
	t.Logf("%s: executed %d, succeeded %d, failed %d, changed %d; differences in shared places not named by a statement (other sessions): %d; planted writes detected %d/%d",
		d, n.executed, n.succeeded, n.executed-n.succeeded, n.changed, n.ignoredShared, detected, len(probes))
}

// checkProbes runs statements that do change something, without the
// guard, and fails the test for each the fingerprints miss: it shows that
// the comparison can see the kinds of change it looks for. It returns the
// number detected.
func checkProbes(ctx context.Context, t *testing.T, d quarry.Dialect, tg target, volatile map[string]bool, probes []string) int {
	t.Helper()
	detected := 0
	for _, p := range probes {
		before, err := tg.snapshot(ctx, p)
		if err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		beforeSlow, err := tg.slowSnapshot(ctx)
		if err != nil {
			t.Fatalf("slow snapshot: %v", err)
		}
		execErr := tg.exec(ctx, p)
		after, err := tg.snapshot(ctx, p)
		if err != nil {
			detected++ // the session it broke is noticed
			if err := tg.recover(ctx); err != nil {
				t.Fatal(err)
			}
			continue
		}
		afterSlow, err := tg.slowSnapshot(ctx)
		if err != nil {
			t.Fatalf("slow snapshot: %v", err)
		}
		if len(compare(before, after, volatile, p))+len(compare(beforeSlow, afterSlow, volatile, p)) > 0 {
			detected++
		} else {
			t.Errorf("%s: the fingerprints missed a planted write: %q (exec: %v)", d, p, execErr)
		}
		if err := tg.recover(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return detected
}

func countIgnored(before, after snapshot, sql string) int {
	lower := strings.ToLower(sql)
	n := 0
	for _, k := range unionKeys(before.loose, after.loose) {
		if before.loose[k] == after.loose[k] {
			continue
		}
		_, name, _ := strings.Cut(k, ":")
		if name == "" || !strings.Contains(lower, strings.ToLower(name)) {
			n++
		}
	}
	return n
}

func joinSQL(ss []stmt) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s.sql)
		b.WriteByte('\n')
	}
	return b.String()
}

// errConnLost marks an error after which the raw connection is unusable.
var errConnLost = errors.New("connection lost")

func isConnLost(err error) bool { return errors.Is(err, errConnLost) }
