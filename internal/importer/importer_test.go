package importer_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/importer"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// formats are the example of each format under testdata.
var formats = []struct {
	format importer.Format
	path   string
}{
	{importer.DBT, "testdata/dbt"},
	{importer.Cube, "testdata/cube/shop.yml"},
	{importer.Cortex, "testdata/cortex/shop.yaml"},
}

// readFiles reads a file, or the .yml/.yaml files under a folder.
func readFiles(t testing.TB, path string) []importer.File {
	t.Helper()
	var files []importer.File
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(p); ext == ".yml" || ext == ".yaml" {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files = append(files, importer.File{Name: filepath.ToSlash(p), Data: b})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func importInto(t *testing.T, path, dir string, f importer.Format) *knowledge.ImportReport {
	t.Helper()
	in, err := importer.Parse(readFiles(t, path), f)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := knowledge.Import(context.Background(), dir, in)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// report renders what an import did, for the golden files.
func report(rep *knowledge.ImportReport) string {
	var b strings.Builder
	line := func(label string, items []string) {
		fmt.Fprintf(&b, "%s: %s\n", label, strings.Join(items, ", "))
	}
	line("entities added", rep.EntitiesAdded)
	line("relationships added", rep.RelationshipsAdded)
	line("metrics added", rep.MetricsAdded)
	line("dimensions added", rep.DimensionsAdded)
	fmt.Fprintf(&b, "examples added: %d, pending: %d\n", rep.ExamplesAdded, rep.PendingAdded)
	line("files", rep.Files)
	b.WriteString("warnings:\n")
	for _, w := range rep.Warnings {
		fmt.Fprintf(&b, "  %s\n", w)
	}
	b.WriteString("skipped:\n")
	for _, s := range rep.Skipped {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	return b.String()
}

func TestImportGolden(t *testing.T) {
	for _, tc := range formats {
		t.Run(string(tc.format), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "knowledge")
			// Detected from the content, not told.
			rep := importInto(t, tc.path, dir, "")
			golden := filepath.Join("testdata", "golden", string(tc.format))
			goldentest.AssertString(t, filepath.Join(golden, "report.txt"), report(rep))
			var names []string
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, "policy.yaml") {
					rel, _ := filepath.Rel(dir, p)
					names = append(names, filepath.ToSlash(rel))
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(names)
			for _, n := range names {
				b, err := os.ReadFile(filepath.Join(dir, n))
				if err != nil {
					t.Fatal(err)
				}
				goldentest.Assert(t, filepath.Join(golden, strings.ReplaceAll(n, "/", "__")), b)
			}
			// The folder loads and validates, as quarry doctor checks it.
			if _, err := knowledge.Load(dir); err != nil {
				t.Fatalf("the imported folder does not load: %v", err)
			}
			for _, s := range rep.Skipped {
				if s.Name == "" || s.Reason == "" {
					t.Errorf("skipped without a name or reason: %+v", s)
				}
			}
		})
	}
}

// TestImportSkipsByName: each thing that cannot be represented is named.
func TestImportSkipsByName(t *testing.T) {
	want := map[importer.Format][]string{
		importer.DBT:    {"metric cumulative_revenue", "metric visit_to_purchase", "metric median_order", "metric recent_revenue", "metric revenue_growth_mom", "measure orders.p90_order_value", "measure orders.latest_amount"},
		importer.Cube:   {"measure orders.rolling_amount", "measure orders.running_amount", "measure orders.last_status", "cube big_orders", "view sales"},
		importer.Cortex: {"metric revenue_per_customer", "relationship items_by_two_keys", "verified query revenue by country", "default aggregation order_items.unit_price"},
	}
	for _, tc := range formats {
		in, err := importer.Parse(readFiles(t, tc.path), tc.format)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, s := range in.Skipped {
			got[s.What+" "+s.Name] = true
		}
		for _, w := range want[tc.format] {
			if !got[w] {
				t.Errorf("%s: %s is not reported as skipped; skipped: %v", tc.format, w, in.Skipped)
			}
		}
	}
}

const shopDB = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, country TEXT, segment TEXT, signup_date DATE);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), status TEXT, ordered_at TIMESTAMP, amount REAL);
CREATE TABLE order_items (id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders(id), product TEXT, quantity INTEGER, unit_price REAL);
INSERT INTO customers VALUES (1, 'Ada', 'Germany', 'business', '2025-01-03'), (2, 'Linus', 'Finland', 'private', '2025-02-11'), (3, 'Grace', 'Spain', 'private', '2025-03-01');
INSERT INTO orders VALUES
  (1, 1, 'completed', '2025-01-05 10:00:00', 100.0),
  (2, 1, 'completed', '2025-02-07 11:00:00', 50.5),
  (3, 2, 'cancelled', '2025-02-09 12:00:00', 80.0),
  (4, 3, 'completed', '2025-03-02 09:30:00', 20.0),
  (5, 2, 'refunded', '2025-03-15 16:45:00', 12.25);
INSERT INTO order_items VALUES (1, 1, 'book', 2, 25.0), (2, 1, 'pen', 10, 5.0), (3, 2, 'book', 1, 50.5), (4, 4, 'pen', 4, 5.0);
`

// TestImportedMetricAnswersAQuestion: the builtin planner answers a
// question with an imported metric, on a real SQLite database.
func TestImportedMetricAnswersAQuestion(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlite3.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(shopDB); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ctx := context.Background()
	conn, err := sqlite.Open(ctx, dbPath, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cases := []struct {
		format   importer.Format
		question string
		metric   string
		want     float64
	}{
		{importer.DBT, "revenue", "revenue", 170.5},
		{importer.DBT, "completion rate", "completion_rate", 0.6},
		{importer.Cube, "completed amount", "completed_amount", 170.5},
		{importer.Cortex, "revenue", "revenue", 170.5},
	}
	asOf := time.Date(2025, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tc := range cases {
		t.Run(string(tc.format)+"/"+tc.question, func(t *testing.T) {
			var path string
			for _, f := range formats {
				if f.format == tc.format {
					path = f.path
				}
			}
			dir := filepath.Join(t.TempDir(), "knowledge")
			importInto(t, path, dir, tc.format)
			f, err := knowledge.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			pl := planner.New(f.Model, nil).Plan(tc.question, asOf)
			if pl.Kind != planner.KindMetric || pl.Query == nil {
				t.Fatalf("plan: %s %s (unknown %v)", pl.Kind, pl.Reason, pl.Unknown)
			}
			if diff := cmp.Diff([]string{tc.metric}, pl.Query.Metrics); diff != "" {
				t.Fatalf("metrics (-want +got):\n%s", diff)
			}
			c, err := semantic.Compile(pl.Model(f.Model), *pl.Query, quarry.DialectSQLite)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := conn.Query(ctx, c.SQL, connector.QueryOptions{MaxRows: 10})
			if err != nil {
				t.Fatalf("%v\n%s", err, c.SQL)
			}
			defer rows.Close()
			if !rows.Next() {
				t.Fatalf("no rows: %v\n%s", rows.Err(), c.SQL)
			}
			v := rows.Values()
			got, ok := v[len(v)-1].(float64)
			if !ok {
				if n, isInt := v[len(v)-1].(int64); isInt {
					got, ok = float64(n), true
				}
			}
			if !ok || got < tc.want-1e-9 || got > tc.want+1e-9 {
				t.Errorf("%s = %v, want %v\n%s", tc.metric, v, tc.want, c.SQL)
			}
		})
	}
}

func TestImportIsIdempotent(t *testing.T) {
	for _, tc := range formats {
		t.Run(string(tc.format), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "knowledge")
			importInto(t, tc.path, dir, tc.format)
			before := snapshot(t, dir)
			rep := importInto(t, tc.path, dir, tc.format)
			if len(rep.Files) != 0 || len(rep.MetricsAdded) != 0 || len(rep.EntitiesAdded) != 0 || len(rep.Kept) != 0 {
				t.Errorf("second import changed something: %+v", rep)
			}
			if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
				t.Errorf("files changed (-first +second):\n%s", diff)
			}
		})
	}
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportKeepsHumanEdits: what a person wrote after an import wins
// when the import runs again.
func TestImportKeepsHumanEdits(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "knowledge")
	importInto(t, "testdata/dbt", dir, importer.DBT)
	edit := func(name, old, new string) {
		t.Helper()
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), old) {
			t.Fatalf("%s has no %q", name, old)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("model.yaml", "description: One row per order.", "description: Orders, including cancelled ones.\n    synonyms: [purchases]")
	edit("model.yaml", "  - name: customers\n", "  # Customers come from the CRM export.\n  - name: customers\n")
	edit("metrics.yaml", "description: Total amount of completed orders.", "description: Net sales, as finance reports them.")
	edit("metrics.yaml", "  - name: orders\n", "  # Counted at checkout.\n  - name: orders\n")
	edit("metrics.yaml", "expr: COUNT(*)\n", "expr: COUNT(orders.id)\n")
	rep := importInto(t, "testdata/dbt", dir, importer.DBT)
	model, _ := os.ReadFile(filepath.Join(dir, "model.yaml"))
	metrics, _ := os.ReadFile(filepath.Join(dir, "metrics.yaml"))
	for _, want := range []string{"Orders, including cancelled ones.", "synonyms: [purchases]", "# Customers come from the CRM export."} {
		if !strings.Contains(string(model), want) {
			t.Errorf("model.yaml lost %q:\n%s", want, model)
		}
	}
	for _, want := range []string{"Net sales, as finance reports them.", "# Counted at checkout.", "expr: COUNT(orders.id)"} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("metrics.yaml lost %q:\n%s", want, metrics)
		}
	}
	if diff := cmp.Diff([]string{"metric orders"}, rep.Kept); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	if _, err := knowledge.Load(dir); err != nil {
		t.Fatal(err)
	}
	// And again: nothing more changes.
	if rep := importInto(t, "testdata/dbt", dir, importer.DBT); len(rep.Files) != 0 {
		t.Errorf("third import wrote %v", rep.Files)
	}
}

// TestImportIntoALearnedFolder: an imported model matches the learned
// entities by table, and its metrics use the folder's entity names.
func TestImportIntoALearnedFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "knowledge")
	importInto(t, "testdata/cube/shop.yml", dir, importer.Cube)
	edit := filepath.Join(dir, "model.yaml")
	b, _ := os.ReadFile(edit)
	renamed := strings.Replace(string(b), "- name: orders\n    table: orders", "- name: purchases\n    table: orders", 1)
	if renamed == string(b) {
		t.Fatal("no orders entity to rename")
	}
	// A person renamed the entity everywhere.
	renamed = strings.NewReplacer("from: orders\n", "from: purchases\n", "to: orders\n", "to: purchases\n").Replace(renamed)
	os.WriteFile(edit, []byte(renamed), 0o644)
	m, _ := os.ReadFile(filepath.Join(dir, "metrics.yaml"))
	os.WriteFile(filepath.Join(dir, "metrics.yaml"), []byte(strings.NewReplacer("orders.", "purchases.", "entity: orders", "entity: purchases").Replace(string(m))), 0o644)
	if _, err := knowledge.Load(dir); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "metrics.yaml"))
	rep := importInto(t, "testdata/cube/shop.yml", dir, importer.Cube)
	if len(rep.EntitiesAdded) != 0 {
		t.Errorf("entities added again: %v", rep.EntitiesAdded)
	}
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m := f.Model.Metric("total_amount"); m == nil || m.Expr != "SUM(purchases.amount)" {
		t.Errorf("total_amount = %+v, want SUM(purchases.amount)", m)
	}
}

func TestImportBadInput(t *testing.T) {
	cases := []struct {
		name   string
		files  []importer.File
		format importer.Format
		want   string
	}{
		{"malformed", readFiles(t, "testdata/bad/broken.yml"), "", "testdata/bad/broken.yml is not valid YAML"},
		{"wrong shape", readFiles(t, "testdata/bad/shape.yml"), "", "testdata/bad/shape.yml is not valid YAML or not in the expected shape"},
		{"unknown format", readFiles(t, "testdata/bad/unknown.yml"), "", "is not a dbt, Cube or Cortex Analyst semantic model"},
		{"mixed", append(readFiles(t, "testdata/cube/shop.yml"), readFiles(t, "testdata/cortex/shop.yaml")...), "", "the files mix formats"},
		{"empty", []importer.File{{Name: "x.yml", Data: []byte("tables: []\n")}}, importer.Cortex, "holds no tables"},
		{"none", nil, "", "no .yaml or .yml files"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := importer.Parse(tc.files, tc.format)
			if err == nil {
				t.Fatal("no error")
			}
			var qe *quarry.Error
			if !errors.As(err, &qe) || qe.Kind != quarry.KindUsage {
				t.Fatalf("error %v is not a usage error", err)
			}
			msg := quarry.Message(err)
			if !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("message %q: want one line containing %q", msg, tc.want)
			}
		})
	}
}

// TestImportWritesNothingOnAnUnreadableFolder: import refuses to merge
// into a file it cannot parse, and leaves the folder as it was.
func TestImportWritesNothingOnAnUnreadableFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "knowledge")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "metrics.yaml"), []byte("metrics: [\n"), 0o644)
	before := snapshot(t, dir)
	in, err := importer.Parse(readFiles(t, "testdata/dbt"), importer.DBT)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := knowledge.Import(context.Background(), dir, in); err == nil || quarry.KindOf(err) != quarry.KindConfig {
		t.Fatalf("import over a broken metrics.yaml: %v", err)
	}
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("files changed:\n%s", diff)
	}
}

func FuzzParse(f *testing.F) {
	for _, tc := range formats {
		for _, file := range readFiles(f, tc.path) {
			f.Add(file.Data)
		}
	}
	f.Add([]byte("cubes:\n  - name: x\n    sql_table: x\n    measures:\n      - name: m\n        type: number\n        sql: \"{m}\"\n"))
	f.Add([]byte("metrics:\n  - name: a\n    type: derived\n    type_params: {expr: a, metrics: [a]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := importer.File{Name: "fuzz.yml", Data: data}
		if _, err := importer.Detect(file); err != nil {
			return
		}
		in, err := importer.Parse([]importer.File{file}, "")
		if err != nil {
			var qe *quarry.Error
			if !errors.As(err, &qe) || strings.Contains(qe.Msg, "\n") {
				t.Fatalf("error is not one line of a quarry error: %v", err)
			}
			return
		}
		if in == nil {
			t.Fatal("nil result without an error")
		}
	})
}

// TestDeepFilesRefused: a file nested far deeper than any semantic model
// is refused with one line before the YAML parser reads it (its time
// grows faster than the nesting: minutes for a few hundred kilobytes).
func TestDeepFilesRefused(t *testing.T) {
	for _, in := range []string{
		"cubes:\n  - name: " + strings.Repeat("[", 50000),
		"cubes:\n  - name: " + strings.Repeat("{a: ", 50000),
		"cubes:\n" + strings.Repeat(" ", 300) + "- name: x\n",
	} {
		_, err := importer.Detect(importer.File{Name: "deep.yml", Data: []byte(in)})
		if err == nil || !strings.Contains(err.Error(), "nested more than") || strings.Contains(err.Error(), "\n") {
			t.Errorf("Detect: %v, want a one-line refusal of the nesting", err)
		}
	}
	// Brackets inside quotes and comments are text.
	ok := "cubes:\n  - name: x # [[[[\n    sql_table: \"" + strings.Repeat("[", 100) + "\"\n"
	if _, err := importer.Detect(importer.File{Name: "ok.yml", Data: []byte(ok)}); err != nil {
		t.Errorf("brackets in text: %v", err)
	}
}
