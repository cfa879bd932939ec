package knowledge_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/knowledge"
)

var learnNow = time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)

// shopSchema is a small database with declared foreign keys, keys left
// to naming, a self reference, a view, a table comment-free layout and a
// column whose name needs quoting.
const shopSchema = `
CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT,
  country TEXT,
  created_at TIMESTAMP
);
CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT, category TEXT, "Shelf Zone" TEXT, price REAL);
CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER REFERENCES customers(id),
  status TEXT,
  amount REAL,
  ordered_at TIMESTAMP,
  updated_at TIMESTAMP
);
CREATE TABLE order_lines (id INTEGER PRIMARY KEY, order_id INTEGER, product_id INTEGER, qty INTEGER, line_year INTEGER);
CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT, manager_id INTEGER, hired_on DATE, salary REAL);
CREATE VIEW big_orders AS SELECT id, amount FROM orders WHERE amount > 100;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
INSERT INTO customers SELECT i, 'Customer ' || i, 'c' || i || '@example.com',
  CASE i % 3 WHEN 0 THEN 'Germany' WHEN 1 THEN 'France' ELSE 'Spain' END,
  '2025-01-' || printf('%02d', 1 + i % 28) || ' 10:00:00' FROM n;
INSERT INTO products VALUES (1, 'Mug', 'Home', 'A 1', 12.5), (2, 'Book', 'Books', 'B: 2', 20), (3, 'Lamp', 'Home', 'yes', 40);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 80)
INSERT INTO orders SELECT i, 1 + i % 60, CASE WHEN i % 5 = 0 THEN 'refunded' ELSE 'completed' END, i * 3.5,
  '2025-02-01 09:00:00', NULL FROM n;
INSERT INTO order_lines VALUES (1, 1, 1, 2, 2025), (2, 1, 2, 1, 2025), (3, 2, 3, 4, 2025);
INSERT INTO employees VALUES (1, 'Ada', NULL, '2020-01-01', 100), (2, 'Bo', 1, '2021-03-01', 80);
`

// makeDB creates a SQLite file from SQL and returns its path.
func makeDB(t *testing.T, sql string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	execDB(t, path, sql)
	return path
}

func execDB(t *testing.T, path, sql string) {
	t.Helper()
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec(sql); err != nil {
		t.Fatal(err)
	}
}

func learn(t *testing.T, dbPath, dir string, opts knowledge.LearnOptions) *knowledge.LearnReport {
	t.Helper()
	rep, err := learnErr(t, dbPath, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func learnErr(t *testing.T, dbPath, dir string, opts knowledge.LearnOptions) (*knowledge.LearnReport, error) {
	t.Helper()
	ctx := context.Background()
	conn, err := sqlite.Open(ctx, dbPath, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if opts.Now.IsZero() {
		opts.Now = learnNow
	}
	return knowledge.Learn(ctx, conn, dir, opts)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLearnGolden(t *testing.T) {
	db := makeDB(t, shopSchema)
	dir := filepath.Join(t.TempDir(), "knowledge")
	var progress strings.Builder
	rep := learn(t, db, dir, knowledge.LearnOptions{Progress: &progress, ProgressEvery: 2})
	for _, name := range []string{"model.yaml", "metrics.yaml", "policy.yaml"} {
		goldentest.AssertString(t, filepath.Join("testdata", "learn", name), readFile(t, filepath.Join(dir, name)))
	}
	wantFiles := []string{"model.yaml", "metrics.yaml", "policy.yaml", "README.md"}
	if diff := cmp.Diff(wantFiles, rep.Files); diff != "" {
		t.Errorf("files written (-want +got):\n%s", diff)
	}
	if len(rep.TablesAdded)+len(rep.ColumnsAdded)+len(rep.RelationshipsAdded)+len(rep.Drift) != 0 {
		t.Errorf("a first learn reports no additions or drift, got %+v", rep)
	}
	wantProgress := "learn: profiled 2/6 tables\nlearn: profiled 4/6 tables\nlearn: profiled 6/6 tables\n"
	if progress.String() != wantProgress {
		t.Errorf("progress %q, want %q", progress.String(), wantProgress)
	}
	if _, err := knowledge.Load(dir); err != nil {
		t.Fatalf("the learned folder does not load: %v", err)
	}
	// For a log, about ProgressLines lines, however many tables.
	var logged strings.Builder
	learn(t, db, filepath.Join(t.TempDir(), "knowledge"), knowledge.LearnOptions{Progress: &logged, ProgressEvery: 1, ProgressLines: 2})
	if want := "learn: profiled 3/6 tables\nlearn: profiled 6/6 tables\n"; logged.String() != want {
		t.Errorf("progress for a log %q, want %q", logged.String(), want)
	}
	// Learning again from the same database changes nothing.
	rep = learn(t, db, dir, knowledge.LearnOptions{})
	if len(rep.Files) != 0 || len(rep.Drift) != 0 || rep.ValuesAdded != 0 {
		t.Errorf("second learn changed %v, drift %v, %d values", rep.Files, rep.Drift, rep.ValuesAdded)
	}
}

func TestLearnRefreshKeepsEditsAddsAndReportsDrift(t *testing.T) {
	db := makeDB(t, shopSchema)
	dir := filepath.Join(t.TempDir(), "knowledge")
	learn(t, db, dir, knowledge.LearnOptions{})

	// A person edits the model, writes metrics, a policy, an example, a note.
	model := readFile(t, filepath.Join(dir, "model.yaml"))
	model = strings.Replace(model, "  - name: customers\n    table: customers\n",
		"  - name: customers\n    table: customers\n    description: People who buy from us.\n    synonyms: [clients]\n", 1)
	model = strings.Replace(model, "      - name: country\n        type: text\n        db_type: TEXT\n        values: [France, Germany, Spain]\n",
		"      - name: country\n        type: text\n        db_type: TEXT\n        synonyms: [nation]\n        values: [Atlantis, France, Germany, Spain]\n", 1)
	model = strings.Replace(model, "    label: title\n", "    label: category\n", 1)
	model = strings.Replace(model, "  - name: customers\n", "  # Our buyers; checked with sales in June.\n  - name: customers\n", 1)
	model = strings.Replace(model, "      - name: country\n", "      # ISO names, not codes\n      - name: country\n", 1)
	model = strings.Replace(model, "relationships:\n", "relationships:\n  # declared in the schema\n", 1)
	model = strings.Replace(model, "# model.yaml: the semantic model of this database.\n", "# model.yaml: the semantic model of this database.\n# Owner: data team.\n", 1)
	writeFile(t, filepath.Join(dir, "model.yaml"), model)
	metrics := `# Our metrics. Hand-written comment that must survive.
metrics:
  - name: revenue
    synonyms: [sales]
    entity: orders
    expr: SUM(orders.amount)
    filters: ["orders.status = 'completed'"]
  - name: orders
    entity: orders
    expr: COUNT(orders.id)

dimensions:
  - name: country
    entity: customers
    expr: customers.country
`
	writeFile(t, filepath.Join(dir, "metrics.yaml"), metrics+"\n"+candidatesOf(t, dir))
	writeFile(t, filepath.Join(dir, "policy.yaml"), "restricted:\n  - column: customers.email\n    reason: personal\n  - column: employees.salary\n    reason: confidential\n")
	writeFile(t, filepath.Join(dir, "examples", "verified.yaml"), `- question: Total amount
  sql: SELECT SUM(amount) FROM orders
  verified_by: ana
  verified_at: 2026-06-01
- question: Customers by country
  sql: SELECT country, COUNT(*) FROM customers GROUP BY country
  verified_by: ana
  verified_at: 2026-06-01
- question: Managed employees
  sql: SELECT name FROM employees WHERE manager_id IS NOT NULL
  verified_by: ana
  verified_at: 2026-06-01
`)
	writeFile(t, filepath.Join(dir, "notes", "team.md"), "# Team\nWe are small.\n")
	if _, err := knowledge.Load(dir); err != nil {
		t.Fatalf("edited folder does not load: %v", err)
	}

	// The database changes: a new column, a dropped column, a new table.
	execDB(t, db, `
ALTER TABLE customers ADD COLUMN segment TEXT;
UPDATE customers SET segment = CASE WHEN id % 2 = 0 THEN 'business' ELSE 'consumer' END;
INSERT INTO customers (id, name, email, country) VALUES (61, 'New', 'n@example.com', 'Italy');
DROP VIEW big_orders;
ALTER TABLE orders DROP COLUMN amount;
ALTER TABLE employees DROP COLUMN salary;
CREATE TABLE refunds (id INTEGER PRIMARY KEY, order_id INTEGER, reason TEXT, refunded_on DATE);
INSERT INTO refunds VALUES (1, 5, 'damaged', '2025-03-01');
`)
	rep := learn(t, db, dir, knowledge.LearnOptions{Now: learnNow.AddDate(0, 1, 0)})

	// Drift does not stop the folder from loading: learn keeps what people
	// wrote and reports it; a person decides.
	if _, err := knowledge.Load(dir); err != nil {
		t.Fatalf("refreshed folder does not load: %v", err)
	}
	got := readFile(t, filepath.Join(dir, "model.yaml"))
	for _, want := range []string{
		"description: People who buy from us.", "synonyms: [clients]", "synonyms: [nation]",
		"values: [Atlantis, France, Germany, Spain, Italy]", "label: category",
		"      - name: segment\n        type: text\n        db_type: TEXT\n        values: [business, consumer]\n",
		"  - name: refunds\n", "from: refunds\n    from_column: order_id\n    to: orders\n",
		"      - name: amount\n", // kept: people decide what to remove
		"# Last learned from the database on 2026-07-30.\n\nentities:",
		"  # Our buyers; checked with sales in June.\n  - name: customers\n",
		"      # ISO names, not codes\n      - name: country\n",
		"relationships:\n  # declared in the schema\n  - name: customer\n",
		"# model.yaml: the semantic model of this database.\n# Owner: data team.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("model.yaml lacks %q", want)
		}
	}
	if strings.Contains(got, "2026-06-30") {
		t.Error("model.yaml still holds the previous learn date")
	}
	gotMetrics := readFile(t, filepath.Join(dir, "metrics.yaml"))
	if !strings.HasPrefix(gotMetrics, metrics) {
		t.Errorf("metrics.yaml lost human content:\n%s", gotMetrics)
	}
	if strings.Contains(gotMetrics, "total_amount") || !strings.Contains(gotMetrics, "total_qty") {
		t.Errorf("candidates not refreshed:\n%s", gotMetrics[len(metrics):])
	}
	if diff := cmp.Diff([]string{"refunds"}, rep.TablesAdded); diff != "" {
		t.Errorf("tables added (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"customers.segment"}, rep.ColumnsAdded); diff != "" {
		t.Errorf("columns added (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"refunds.order_id -> orders.id"}, rep.RelationshipsAdded); diff != "" {
		t.Errorf("relationships added (-want +got):\n%s", diff)
	}
	wantDrift := []knowledge.Drift{
		{File: "model.yaml", Line: lineOf(t, got, "  - name: big_orders"), What: "entity big_orders", Message: "table big_orders no longer exists; remove the entity or set table: to its new name"},
		{File: "model.yaml", Line: lineOf(t, got, "      - name: salary"), What: "column employees.salary", Message: "column employees.salary no longer exists; remove it or rename it"},
		{File: "model.yaml", Line: lineOf(t, got, "  - name: orders\n") + lineOf(t, got[strings.Index(got, "  - name: orders\n"):], "      - name: amount") - 1, What: "column orders.amount", Message: "column orders.amount no longer exists; remove it or rename it"},
		{File: "metrics.yaml", Line: 3, What: "metric revenue", Message: "refers to orders.amount, but column orders.amount no longer exists; update the metric"},
		{File: "policy.yaml", Line: 4, What: "restricted employees.salary", Message: "column employees.salary no longer exists; update or remove the rule (if the column was renamed, restrict the new name)"},
		{File: "examples/verified.yaml", Line: 1, What: `verified query "Total amount"`, Message: "uses column orders.amount, which no longer exists; fix the SQL or move the example to examples/_pending/"},
	}
	if diff := cmp.Diff(wantDrift, rep.Drift); diff != "" {
		t.Errorf("drift (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"model.yaml", "metrics.yaml"}, rep.Files); diff != "" {
		t.Errorf("files written (-want +got):\n%s", diff)
	}
	if readFile(t, filepath.Join(dir, "notes", "team.md")) != "# Team\nWe are small.\n" {
		t.Error("notes changed")
	}
}

func candidatesOf(t *testing.T, dir string) string {
	t.Helper()
	s := readFile(t, filepath.Join(dir, "metrics.yaml"))
	i := strings.Index(s, "# ---- candidates")
	if i < 0 {
		t.Fatalf("metrics.yaml has no candidates section:\n%s", s)
	}
	return s[i:]
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func lineOf(t *testing.T, s, sub string) int {
	t.Helper()
	i := strings.Index(s, sub)
	if i < 0 {
		t.Fatalf("%q not found", sub)
	}
	return strings.Count(s[:i], "\n") + 1
}

func TestLearnSkipsViewsThatNoLongerCompile(t *testing.T) {
	db := makeDB(t, `CREATE TABLE a (id INTEGER PRIMARY KEY, kind TEXT);
CREATE TABLE b (id INTEGER PRIMARY KEY);
CREATE VIEW v AS SELECT id FROM b;
DROP TABLE b;`)
	dir := filepath.Join(t.TempDir(), "knowledge")
	rep := learn(t, db, dir, knowledge.LearnOptions{})
	if diff := cmp.Diff([]string{"v has no columns the database can describe (a broken view?); skipped"}, rep.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Model.Entities) != 1 || f.Model.Entities[0].Name != "a" {
		t.Errorf("entities %+v, want only a", f.Model.Entities)
	}
}
