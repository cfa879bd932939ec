package knowledge_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// folderFiles reads every file of a knowledge folder but its cache.
func folderFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == knowledge.CacheDir {
				return fs.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

func TestLearnOnlyNewFolder(t *testing.T) {
	db := makeDB(t, shopSchema)
	dir := filepath.Join(t.TempDir(), "knowledge")
	var progress strings.Builder
	rep := learn(t, db, dir, knowledge.LearnOptions{Only: []string{"*ORDER*"}, Progress: &progress})
	if rep.Matched != 3 || !strings.Contains(progress.String(), "learn: 3 of 6 tables match --only *ORDER*") {
		t.Errorf("matched %d; progress:\n%s", rep.Matched, progress.String())
	}
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range f.Model.Entities {
		names = append(names, e.Name)
	}
	if diff := cmp.Diff([]string{"big_orders", "order_lines", "orders"}, names); diff != "" {
		t.Errorf("entities (-want +got):\n%s", diff)
	}
	// orders.customer_id → customers is left out: the folder has no
	// customers; order_lines.order_id → orders is in.
	var rels []string
	for _, r := range f.Model.Relationships {
		rels = append(rels, r.From+"."+r.FromColumn+" -> "+r.To)
	}
	if diff := cmp.Diff([]string{"order_lines.order_id -> orders"}, rels); diff != "" {
		t.Errorf("relationships (-want +got):\n%s", diff)
	}
	// main.orders names the table with its schema.
	dir2 := filepath.Join(t.TempDir(), "knowledge")
	if rep := learn(t, db, dir2, knowledge.LearnOptions{Only: knowledge.OnlyPatterns([]string{"main.orders, customers"})}); rep.Matched != 2 {
		t.Errorf("main.orders,customers matched %d tables, want 2", rep.Matched)
	}
}

func TestLearnOnlyRefreshKeepsTheOthers(t *testing.T) {
	db := makeDB(t, shopSchema)
	dir := filepath.Join(t.TempDir(), "knowledge")
	learn(t, db, dir, knowledge.LearnOptions{})
	// A person edits two entities; the database gains a column in each
	// of their tables and a new table.
	model := filepath.Join(dir, "model.yaml")
	src := readFile(t, model)
	src = strings.Replace(src, "  - name: customers\n", "  - name: customers\n    description: People who buy.\n", 1)
	src = strings.Replace(src, "  - name: orders\n", "  - name: orders\n    description: What people buy.\n", 1)
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	execDB(t, db, `ALTER TABLE customers ADD COLUMN tier TEXT; ALTER TABLE orders ADD COLUMN channel TEXT;
CREATE TABLE order_notes (id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders(id), note TEXT);
CREATE TABLE refunds (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), amount REAL);`)
	metricsBefore := readFile(t, filepath.Join(dir, "metrics.yaml"))

	rep := learn(t, db, dir, knowledge.LearnOptions{Only: []string{"orders", "order_*"}})
	if rep.Matched != 3 {
		t.Errorf("matched %d tables, want orders, order_lines, order_notes", rep.Matched)
	}
	if diff := cmp.Diff([]string{"order_notes"}, rep.TablesAdded); diff != "" {
		t.Errorf("tables added (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"orders.channel"}, rep.ColumnsAdded); diff != "" {
		t.Errorf("columns added (-want +got):\n%s", diff)
	}
	if len(rep.Drift) != 0 {
		t.Errorf("drift: %+v", rep.Drift)
	}
	after, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Entities outside the patterns are exactly as they were: customers
	// has no tier, refunds is not learned.
	for _, name := range []string{"customers", "products", "employees", "big_orders"} {
		if diff := cmp.Diff(before.Model.Entity(name), after.Model.Entity(name)); diff != "" {
			t.Errorf("%s changed (-before +after):\n%s", name, diff)
		}
	}
	if after.Model.Entity("refunds") != nil {
		t.Error("refunds learned, outside --only")
	}
	if o := after.Model.Entity("orders"); o.Description != "What people buy." || o.Column("channel") == nil {
		t.Errorf("orders: %+v", o)
	}
	// The relationship to customers, outside the patterns but in the
	// folder, is kept; the new one to orders is added.
	var rels []string
	for _, r := range after.Model.Relationships {
		rels = append(rels, r.From+"."+r.FromColumn+" -> "+r.To)
	}
	for _, want := range []string{"orders.customer_id -> customers", "order_notes.order_id -> orders"} {
		if !strings.Contains(strings.Join(rels, "\n"), want) {
			t.Errorf("relationship %s missing: %v", want, rels)
		}
	}
	// Candidate measures of the others are kept, in their order.
	if m := readFile(t, filepath.Join(dir, "metrics.yaml")); m != metricsBefore {
		t.Errorf("metrics.yaml changed:\n%s", cmp.Diff(metricsBefore, m))
	}
}

func TestLearnOnlyMatchingNothing(t *testing.T) {
	db := makeDB(t, shopSchema)
	dir := filepath.Join(t.TempDir(), "knowledge")
	for _, tc := range []struct{ pattern, want string }{
		{"ordres", `--only "ordres" matches no table; did you mean orders`},
		{"custmer*", `did you mean customers`},
		{"zzz.qqq", `--only "zzz.qqq" matches no table of the 6 in the database`},
		{"orders[", `--only "orders[" is not a valid pattern`},
	} {
		_, err := learnErr(t, db, dir, knowledge.LearnOptions{Only: []string{"orders", tc.pattern}})
		if quarry.KindOf(err) != quarry.KindUsage || !strings.Contains(quarry.Message(err), tc.want) || strings.Contains(quarry.Message(err), "\n") {
			t.Errorf("%s: %v (kind %s), want %q", tc.pattern, err, quarry.KindOf(err), tc.want)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a failed learn made the folder: %v", err)
	}
}

// stopAfter is a database that cancels the run after its first n
// queries, as Ctrl-C would, and counts the queries it is asked.
type stopAfter struct {
	knowledge.Source
	n       int
	cancel  context.CancelFunc
	queries int
}

func (s *stopAfter) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	s.queries++
	if s.n > 0 && s.queries > s.n {
		s.cancel()
	}
	return s.Source.Query(ctx, sql, opts)
}

func learnStopping(t *testing.T, dbPath, dir string, n int) (*stopAfter, *knowledge.LearnReport, error) {
	t.Helper()
	return learnStoppingAt(t, dbPath, dir, n, learnNow)
}

func learnStoppingAt(t *testing.T, dbPath, dir string, n int, now time.Time) (*stopAfter, *knowledge.LearnReport, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conn, err := sqlite.Open(ctx, dbPath, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	src := &stopAfter{Source: conn, n: n, cancel: cancel}
	rep, err := knowledge.Learn(ctx, src, dir, knowledge.LearnOptions{Now: now, DatabaseFile: dbPath})
	return src, rep, err
}

func TestLearnInterruptedAndResumed(t *testing.T) {
	db := makeDB(t, shopSchema)
	// A full run, uninterrupted, for reference.
	full := filepath.Join(t.TempDir(), "knowledge")
	ref, _, err := learnStopping(t, db, full, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := folderFiles(t, full)

	// Interrupted in a new folder: nothing is written but the progress.
	dir := filepath.Join(t.TempDir(), "knowledge")
	stopped, _, err := learnStopping(t, db, dir, 4)
	if quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("interrupted learn: %v", err)
	}
	if got := folderFiles(t, dir); len(got) != 0 {
		t.Errorf("an interrupted learn wrote %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, knowledge.LearnProgressFile)); err != nil {
		t.Fatalf("no progress file: %v", err)
	}
	// Run again, it resumes: the queries answered before are not asked
	// again, and the folder is the one a full run writes.
	resumed, rep, err := learnStopping(t, db, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Resumed == 0 || resumed.queries > ref.queries-4+1 {
		t.Errorf("resumed %d tables with %d queries; a full run asks %d, the interrupted one asked %d", rep.Resumed, resumed.queries, ref.queries, stopped.queries)
	}
	if diff := cmp.Diff(want, folderFiles(t, dir)); diff != "" {
		t.Errorf("resumed folder differs from a full run's (-full +resumed):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(dir, knowledge.LearnProgressFile)); !os.IsNotExist(err) {
		t.Errorf("progress file left after a finished run: %v", err)
	}

	// A refresh interrupted at any query leaves the folder as it was.
	execDB(t, db, `ALTER TABLE customers ADD COLUMN tier TEXT; CREATE TABLE refunds (id INTEGER PRIMARY KEY, reason TEXT);
INSERT INTO refunds VALUES (1, 'broken'), (2, 'late');`)
	for _, n := range []int{1, 5, 8} {
		_, _, err := learnStopping(t, db, dir, n)
		if quarry.KindOf(err) != quarry.KindCanceled {
			t.Fatalf("refresh stopped after %d queries: %v", n, err)
		}
		if diff := cmp.Diff(want, folderFiles(t, dir)); diff != "" {
			t.Errorf("refresh stopped after %d queries changed the folder:\n%s", n, diff)
		}
		if _, err := knowledge.Load(dir); err != nil {
			t.Errorf("after a refresh stopped after %d queries: %v", n, err)
		}
	}
	// Resumed, it finishes the refresh.
	rep, err = learnErr(t, db, dir, knowledge.LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"refunds"}, rep.TablesAdded); diff != "" {
		t.Errorf("tables added (-want +got):\n%s", diff)
	}
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c := f.Model.Entity("refunds").Column("reason"); c == nil || !cmp.Equal(c.Values, []string{"broken", "late"}) {
		t.Errorf("refunds.reason: %+v", c)
	}
}

// TestLearnResumeNeedsTheSameTable: an answer is reused only while the
// table's catalog entry (here its row count) is the same.
func TestLearnResumeNeedsTheSameTable(t *testing.T) {
	db := makeDB(t, shopSchema)
	dir := filepath.Join(t.TempDir(), "knowledge")
	if _, _, err := learnStopping(t, db, dir, 8); quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("interrupted learn: %v", err)
	}
	execDB(t, db, `INSERT INTO customers VALUES (61, 'Customer 61', 'c61@example.com', 'Italy', '2025-03-01 10:00:00')`)
	if _, _, err := learnStopping(t, db, dir, 0); err != nil {
		t.Fatal(err)
	}
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Model.Entity("customers").Column("country").Values; !cmp.Equal(got, []string{"France", "Germany", "Italy", "Spain"}) {
		t.Errorf("customers.country values %v: read from the interrupted run's answers", got)
	}
}

// TestLearnResumeOnlyWithinADay: the answers of a run interrupted more
// than ProgressMaxAge ago, or of another database, are read again.
func TestLearnResumeOnlyWithinADay(t *testing.T) {
	db := makeDB(t, shopSchema)
	dir := filepath.Join(t.TempDir(), "knowledge")
	if _, _, err := learnStopping(t, db, dir, 8); quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("interrupted learn: %v", err)
	}
	// Another file with the same tables: nothing is reused.
	other := filepath.Join(t.TempDir(), "copy.db")
	execDB(t, other, shopSchema)
	if _, rep, err := learnStopping(t, other, dir, 0); err != nil || rep.Resumed != 0 {
		t.Errorf("learn of another database resumed %d tables (%v)", rep.Resumed, err)
	}
	dir = filepath.Join(t.TempDir(), "knowledge")
	if _, _, err := learnStopping(t, db, dir, 8); quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("interrupted learn: %v", err)
	}
	if _, rep, err := learnStoppingAt(t, db, dir, 0, learnNow.Add(knowledge.ProgressMaxAge+time.Minute)); err != nil || rep.Resumed != 0 {
		t.Errorf("learn a day later resumed %d tables (%v)", rep.Resumed, err)
	}
}

// TestLearnWritesPrivateFiles: the files learn writes hold known values
// of the database's columns, and only their owner may read them.
func TestLearnWritesPrivateFiles(t *testing.T) {
	db := makeDB(t, shopSchema)
	dir := filepath.Join(t.TempDir(), "knowledge")
	if _, _, err := learnStopping(t, db, dir, 0); err != nil {
		t.Fatal(err)
	}
	n := 0
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || strings.Contains(p, knowledge.CacheDir) || filepath.Ext(p) != ".yaml" {
			return err
		}
		n++
		if st, err := os.Stat(p); err != nil || st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: mode %v, want readable by its owner alone", p, st.Mode().Perm())
		}
		return nil
	})
	if n == 0 {
		t.Fatal("learn wrote no YAML file")
	}
}
