package knowledge_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// snapshot reads every file under dir, by its slash path.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if e.IsDir() {
			out[filepath.ToSlash(rel)+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func load(t *testing.T, dir string) *knowledge.Folder {
	t.Helper()
	f, err := knowledge.Load(dir)
	if err != nil {
		var ps knowledge.Problems
		if errors.As(err, &ps) {
			for _, p := range ps {
				t.Log(p.Format(dir))
			}
		}
		t.Fatal(err)
	}
	return f
}

func TestLoadEntityLayouts(t *testing.T) {
	single := copyFS(t, demo.Knowledge())
	split := copyFS(t, demo.Knowledge())
	if _, err := knowledge.Migrate(t.Context(), split); err != nil {
		t.Fatal(err)
	}
	// mixed: two entities back in a model.yaml, with one relationship
	// that starts from an entity of a file
	mixed := copyFS(t, demo.Knowledge())
	if _, err := knowledge.Migrate(t.Context(), mixed); err != nil {
		t.Fatal(err)
	}
	var model strings.Builder
	model.WriteString("entities:\n")
	for _, name := range []string{"plans", "products"} {
		b, err := os.ReadFile(filepath.Join(mixed, "entities", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
			switch {
			case i == 0:
				model.WriteString("  - " + l + "\n")
			case l == "":
				model.WriteString("\n")
			default:
				model.WriteString("    " + l + "\n")
			}
		}
		os.Remove(filepath.Join(mixed, "entities", name+".yaml"))
	}
	orders := readFile(t, filepath.Join(mixed, "entities", "orders.yaml"))
	rel := orders[strings.Index(orders, "\nrelationships:\n")+len("\nrelationships:\n"):]
	writeFile(t, filepath.Join(mixed, "entities", "orders.yaml"), orders[:strings.Index(orders, "\nrelationships:\n")+1])
	model.WriteString("\nrelationships:\n" + strings.Replace(rel, "  - name: customer\n", "  - name: customer\n    from: orders\n", 1))
	writeFile(t, filepath.Join(mixed, "model.yaml"), model.String())

	want := knowledge.SortedModel(load(t, single).Model)
	for _, dir := range []string{split, mixed} {
		f := load(t, dir)
		if diff := cmp.Diff(want, knowledge.SortedModel(f.Model)); diff != "" {
			t.Errorf("%s: model differs from the single file's (-want +got):\n%s", filepath.Base(filepath.Dir(dir)), diff)
		}
		if !containsString(f.Files, "entities/orders.yaml") {
			t.Errorf("files %v lack entities/orders.yaml", f.Files)
		}
	}
	if f := load(t, split); containsString(f.Files, "model.yaml") {
		t.Errorf("files %v list a model.yaml the folder does not have", f.Files)
	}
}

// writeAll writes a file, making its folders.
func writeAll(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, s)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestLoadEntityFileErrorsNameTheFile checks the file:line: field format
// of problems of entity files placed by the semantic checks.
func TestLoadEntityFileErrorsNameTheFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "knowledge")
	writeAll(t, filepath.Join(dir, "entities", "orders.yaml"), `name: orders
primary_key: id
time_column: ordered_at
columns:
  - name: id
    type: int
  - name: ordered_at
    type: timestamp
`)
	writeAll(t, filepath.Join(dir, "entities", "order_items.yaml"), `name: order_items
primary_key: id
columns:
  - name: id
    type: int
  - name: order_id
    type: int
  - name: quantity
    type: int
relationships:
  - from_column: order_id
    to: orders
    to_column: id
    cardinality: many_to_one
`)
	writeAll(t, filepath.Join(dir, "metrics.yaml"), "metrics:\n  - name: units\n    entity: orders\n    expr: SUM(order_items.quantity)\n")
	_, err := knowledge.Load(dir)
	if err == nil {
		t.Fatal("loaded a metric over the many side of a join")
	}
	if got, want := quarry.Message(err), dir+"/metrics.yaml:4: metrics[0].expr: "; !strings.HasPrefix(got, want) {
		t.Errorf("message %q, want it to start with %q", got, want)
	}
	// an unknown join column is placed in the entity file
	writeAll(t, filepath.Join(dir, "metrics.yaml"), "metrics: []\n")
	src := readFile(t, filepath.Join(dir, "entities", "order_items.yaml"))
	writeAll(t, filepath.Join(dir, "entities", "order_items.yaml"), strings.Replace(src, "to_column: id", "to_column: ident", 1))
	_, err = knowledge.Load(dir)
	if got, want := quarry.Message(err), dir+"/entities/order_items.yaml:13: relationships[0].to_column: unknown column \"ident\""; err == nil || !strings.HasPrefix(got, want) {
		t.Errorf("message %q, want it to start with %q", got, want)
	}
}

func TestEntityFileNames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "knowledge")
	names := []string{"orders", "Sales.Orders", "order items", "order_items", "CON", ".hidden", "Straße", "strasse"}
	model := "entities:\n"
	for _, n := range names {
		model += fmt.Sprintf("  - name: %q\n    columns:\n      - name: id\n", n)
	}
	writeAll(t, filepath.Join(dir, "model.yaml"), model)
	rep, err := knowledge.Migrate(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"entities/con-a3dbc4b6.yaml",
		"entities/hidden-16924190.yaml",
		"entities/order_items-d9206391.yaml",
		"entities/order_items.yaml",
		"entities/orders.yaml",
		"entities/sales.orders.yaml",
		"entities/stra_e-58a3778c.yaml",
		"entities/strasse.yaml",
	}
	if diff := cmp.Diff(want, rep.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// the name inside the file is what counts
	if err := os.Rename(filepath.Join(dir, "entities", "orders.yaml"), filepath.Join(dir, "entities", "anything.yaml")); err != nil {
		t.Fatal(err)
	}
	f := load(t, dir)
	if f.Model.Entity("orders") == nil || f.Model.Entity("Sales.Orders") == nil {
		t.Errorf("entities %v", f.Model.Entities)
	}
}

func TestMigrate(t *testing.T) {
	dir := copyFS(t, demo.Knowledge())
	src := readFile(t, filepath.Join(dir, "model.yaml"))
	// comments of every kind a person writes
	src = strings.Replace(src, "  - name: orders\n", "  # Orders: checked with finance.\n  - name: orders\n", 1)
	src = strings.Replace(src, "    time_column: ordered_at\n", "    time_column: ordered_at   # the shop's time\n", 1)
	src = strings.Replace(src, "relationships:\n", "relationships:\n  # from the schema\n", 1)
	writeFile(t, filepath.Join(dir, "model.yaml"), src)
	before := load(t, dir)

	rep, err := knowledge.Migrate(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Done || rep.Entities != len(before.Model.Entities) || rep.Relationships != len(before.Model.Relationships) || !rep.ModelRemoved {
		t.Errorf("report %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(dir, "model.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("model.yaml is still there: %v", err)
	}
	after := load(t, dir)
	if diff := cmp.Diff(knowledge.SortedModel(before.Model), knowledge.SortedModel(after.Model)); diff != "" {
		t.Errorf("model changed (-before +after):\n%s", diff)
	}
	if before.Hash == after.Hash {
		t.Error("the hash did not change")
	}
	orders := readFile(t, filepath.Join(dir, "entities", "orders.yaml"))
	for _, want := range []string{
		"# Orders: checked with finance.\nname: orders\n",
		"time_column: ordered_at   # the shop's time\n",
		"\nrelationships:\n  # from the schema\n  - name: customer\n    from_column: customer_id\n",
	} {
		if !strings.Contains(orders, want) {
			t.Errorf("entities/orders.yaml lacks %q:\n%s", want, orders)
		}
	}
	if strings.Contains(orders, "from: orders") {
		t.Errorf("entities/orders.yaml repeats from:\n%s", orders)
	}

	// twice: nothing to do, nothing touched
	files := snapshot(t, dir)
	rep, err = knowledge.Migrate(t.Context(), dir)
	if err != nil || !rep.Done {
		t.Fatalf("second run: %+v, %v", rep, err)
	}
	if diff := cmp.Diff(files, snapshot(t, dir)); diff != "" {
		t.Errorf("second run changed the folder:\n%s", diff)
	}
}

// TestMigrateKeepsRelationshipsOfFileEntities: a relationship of
// model.yaml from an entity that already has its file stays there.
func TestMigrateKeepsRelationshipsOfFileEntities(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "knowledge")
	writeAll(t, filepath.Join(dir, "model.yaml"), `# Owner: data team.
entities:
  - name: customers
    primary_key: id
    columns:
      - name: id
relationships:
  - from: orders
    from_column: customer_id
    to: customers
    to_column: id
    cardinality: many_to_one
`)
	writeAll(t, filepath.Join(dir, "entities", "orders.yaml"), "name: orders\ncolumns:\n  - name: id\n  - name: customer_id\n")
	before := load(t, dir)
	rep, err := knowledge.Migrate(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Entities != 1 || rep.Relationships != 0 || rep.Kept != 1 || rep.ModelRemoved {
		t.Errorf("report %+v", rep)
	}
	want := "# Owner: data team.\nrelationships:\n  - from: orders\n    from_column: customer_id\n    to: customers\n    to_column: id\n    cardinality: many_to_one\n"
	if got := readFile(t, filepath.Join(dir, "model.yaml")); got != want {
		t.Errorf("model.yaml:\n%s\nwant:\n%s", got, want)
	}
	if diff := cmp.Diff(knowledge.SortedModel(before.Model), knowledge.SortedModel(load(t, dir).Model)); diff != "" {
		t.Errorf("model changed (-before +after):\n%s", diff)
	}
}

func TestMigrateRefusesAFolderThatDoesNotLoad(t *testing.T) {
	dir := copyFS(t, demo.Knowledge())
	// a file already in entities/ defines an entity of model.yaml again
	customers := "name: customers\ncolumns:\n  - name: id\n"
	writeAll(t, filepath.Join(dir, "entities", "customers.yaml"), customers)
	files := snapshot(t, dir)
	_, err := knowledge.Migrate(t.Context(), dir)
	if err == nil || quarry.KindOf(err) != quarry.KindConfig || !strings.Contains(quarry.Message(err), "is defined twice") {
		t.Fatalf("err = %v", err)
	}
	if diff := cmp.Diff(files, snapshot(t, dir)); diff != "" {
		t.Errorf("the folder changed:\n%s", diff)
	}
}

func TestLearnPerEntityRefreshKeepsEdits(t *testing.T) {
	db := makeDB(t, shopSchema)
	dir := filepath.Join(t.TempDir(), "knowledge")
	learn(t, db, dir, knowledge.LearnOptions{})
	before := load(t, dir)
	if _, err := knowledge.Migrate(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	after := load(t, dir)
	if diff := cmp.Diff(knowledge.SortedModel(before.Model), knowledge.SortedModel(after.Model)); diff != "" {
		t.Errorf("migrating the learned folder changed its model (-before +after):\n%s", diff)
	}
	path := filepath.Join(dir, "entities", "customers.yaml")
	src := readFile(t, path)
	src = strings.Replace(src, "name: customers\ntable: customers\n", "# Our buyers.\nname: customers\ntable: customers\ndescription: People who buy from us.\nsynonyms: [clients]\n", 1)
	src = strings.Replace(src, "  - name: country\n", "  # ISO names\n  - name: country\n", 1)
	writeFile(t, path, src)
	opath := filepath.Join(dir, "entities", "orders.yaml")
	writeFile(t, opath, strings.Replace(readFile(t, opath), "  - name: customer\n", "  # declared\n  - name: customer\n", 1))
	if !strings.Contains(readFile(t, opath), "cardinality: many_to_one\n") {
		t.Fatalf("orders.yaml has no relationship:\n%s", readFile(t, opath))
	}
	opathSrc := readFile(t, opath)
	writeFile(t, opath, strings.Replace(opathSrc, "    cardinality: many_to_one\n", "    cardinality: many_to_one\n    verbs: [buy]\n", 1))

	execDB(t, db, `
ALTER TABLE customers ADD COLUMN segment TEXT;
UPDATE customers SET segment = CASE WHEN id % 2 = 0 THEN 'business' ELSE 'consumer' END;
DROP VIEW big_orders;
CREATE TABLE refunds (id INTEGER PRIMARY KEY, order_id INTEGER, reason TEXT);
`)
	rep := learn(t, db, dir, knowledge.LearnOptions{})
	if _, err := os.Stat(filepath.Join(dir, "model.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("learn wrote a model.yaml into a per-entity folder: %v", err)
	}
	got := readFile(t, path)
	for _, want := range []string{
		"# Our buyers.\nname: customers\ntable: customers\ndescription: People who buy from us.\nsynonyms: [clients]\n",
		"  # ISO names\n  - name: country\n",
		"  - name: segment\n    type: text\n    db_type: TEXT\n    values: [business, consumer]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("entities/customers.yaml lacks %q:\n%s", want, got)
		}
	}
	if got := readFile(t, opath); !strings.Contains(got, "  # declared\n  - name: customer\n") || !strings.Contains(got, "verbs: [buy]") {
		t.Errorf("entities/orders.yaml lost an edit:\n%s", got)
	}
	refunds := readFile(t, filepath.Join(dir, "entities", "refunds.yaml"))
	if !strings.HasPrefix(refunds, "name: refunds\n") || !strings.Contains(refunds, "relationships:\n  - name: order\n    from_column: order_id\n    to: orders\n") {
		t.Errorf("entities/refunds.yaml:\n%s", refunds)
	}
	// the entity whose table is gone stays, reported as drift in its file
	if _, err := os.Stat(filepath.Join(dir, "entities", "big_orders.yaml")); err != nil {
		t.Error(err)
	}
	var drift *knowledge.Drift
	for i := range rep.Drift {
		if rep.Drift[i].What == "entity big_orders" {
			drift = &rep.Drift[i]
		}
	}
	if drift == nil || drift.File != "entities/big_orders.yaml" || drift.Line != 1 {
		t.Errorf("drift %+v", rep.Drift)
	}
	if diff := cmp.Diff([]string{"refunds"}, rep.TablesAdded); diff != "" {
		t.Errorf("tables added (-want +got):\n%s", diff)
	}
	load(t, dir)

	// once more: nothing to write
	rep = learn(t, db, dir, knowledge.LearnOptions{})
	for _, f := range rep.Files {
		if strings.HasPrefix(f, "entities/") {
			t.Errorf("learn rewrote %s with nothing new", f)
		}
	}
}

func TestLearnSplitsALargeSchema(t *testing.T) {
	var schema strings.Builder
	for i := range knowledge.SplitTables + 1 {
		fmt.Fprintf(&schema, "CREATE TABLE t%03d (id INTEGER PRIMARY KEY, name TEXT);\n", i)
	}
	db := makeDB(t, schema.String())
	dir := filepath.Join(t.TempDir(), "knowledge")
	rep := learn(t, db, dir, knowledge.LearnOptions{})
	if !rep.EntityFiles {
		t.Error("report does not say the folder was split")
	}
	if _, err := os.Stat(filepath.Join(dir, "model.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("model.yaml written: %v", err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "entities"))
	if err != nil || len(entries) != knowledge.SplitTables+1 {
		t.Fatalf("entities/: %d files, %v", len(entries), err)
	}
	if f := load(t, dir); len(f.Model.Entities) != knowledge.SplitTables+1 {
		t.Errorf("%d entities", len(f.Model.Entities))
	}

	// a small schema keeps model.yaml
	small := filepath.Join(t.TempDir(), "knowledge")
	if rep := learn(t, makeDB(t, shopSchema), small, knowledge.LearnOptions{}); rep.EntityFiles {
		t.Error("a small schema was split")
	}
	if _, err := os.Stat(filepath.Join(small, "entities")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("entities/ written for a small schema: %v", err)
	}
}

// TestLoadCacheEntityLayout: the folder cache sees an edit of an entity
// file.
func TestLoadCacheEntityLayout(t *testing.T) {
	dir := copyFS(t, demo.Knowledge())
	if _, err := knowledge.Migrate(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	first := load(t, dir)
	path := filepath.Join(dir, "entities", "plans.yaml")
	writeFile(t, path, strings.Replace(readFile(t, path), "description: Membership club plans and their monthly price.\n", "description: Edited after the cache was written.\n", 1))
	second := load(t, dir)
	if second.Hash == first.Hash || second.Model.Entity("plans").Description != "Edited after the cache was written." {
		t.Errorf("the cached folder was read after an edit: %q", second.Model.Entity("plans").Description)
	}
	if third := load(t, dir); third.Hash != second.Hash || !cmp.Equal(third.Model, second.Model) {
		t.Error("the folder read back differs")
	}
}

// BenchmarkLoad10000Entities loads and validates (without the cache) a
// folder of 10,000 entities, each with a relationship to the one before,
// in both layouts.
func BenchmarkLoad10000Entities(b *testing.B) {
	const n = 10000
	entity := func(i int) semantic.Entity {
		return semantic.Entity{Name: fmt.Sprintf("t%05d", i), Table: fmt.Sprintf("t%05d", i), PrimaryKey: "id", TimeColumn: "created_at", Label: "name",
			Columns: []semantic.Column{{Name: "id", Type: "int"}, {Name: "name", Type: "text"}, {Name: "parent_id", Type: "int"}, {Name: "created_at", Type: "timestamp"}, {Name: "amount", Type: "decimal"}}}
	}
	writeEntity := func(w *strings.Builder, e semantic.Entity, indent string) {
		fmt.Fprintf(w, "%sname: %s\n%stable: %s\n%sprimary_key: id\n%stime_column: created_at\n%slabel: name\n%scolumns:\n", indent, e.Name, indent, e.Table, indent, indent, indent, indent)
		for _, c := range e.Columns {
			fmt.Fprintf(w, "%s  - name: %s\n%s    type: %s\n", indent, c.Name, indent, c.Type)
		}
	}
	rel := func(i int, from bool) string {
		s := "  - from_column: parent_id\n"
		if from {
			s = fmt.Sprintf("  - from: t%05d\n    from_column: parent_id\n", i)
		}
		return s + fmt.Sprintf("    to: t%05d\n    to_column: id\n    cardinality: many_to_one\n", i-1)
	}
	metrics := "metrics:\n  - name: total\n    entity: t00001\n    expr: SUM(t00001.amount)\n"
	for _, layout := range []string{"model.yaml", "entities"} {
		dir := b.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "metrics.yaml"), []byte(metrics), 0o644); err != nil {
			b.Fatal(err)
		}
		if layout == "model.yaml" {
			var w strings.Builder
			w.WriteString("entities:\n")
			for i := range n {
				e := entity(i)
				var x strings.Builder
				writeEntity(&x, e, "    ")
				w.WriteString("  - " + strings.TrimPrefix(x.String(), "    "))
			}
			w.WriteString("relationships:\n")
			for i := 1; i < n; i++ {
				w.WriteString(rel(i, true))
			}
			if err := os.WriteFile(filepath.Join(dir, "model.yaml"), []byte(w.String()), 0o644); err != nil {
				b.Fatal(err)
			}
		} else {
			if err := os.Mkdir(filepath.Join(dir, "entities"), 0o755); err != nil {
				b.Fatal(err)
			}
			for i := range n {
				var w strings.Builder
				writeEntity(&w, entity(i), "")
				if i > 0 {
					w.WriteString("relationships:\n" + rel(i, false))
				}
				if err := os.WriteFile(filepath.Join(dir, "entities", entity(i).Name+".yaml"), []byte(w.String()), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Run(layout, func(b *testing.B) {
			for b.Loop() {
				f, err := knowledge.LoadFS(os.DirFS(dir), dir)
				if err != nil {
					b.Fatal(err)
				}
				if len(f.Model.Entities) != n || len(f.Model.Relationships) != n-1 {
					b.Fatalf("%d entities, %d relationships", len(f.Model.Entities), len(f.Model.Relationships))
				}
			}
		})
	}
}

// TestImportIntoEntityFiles: import writes a new entity of a per-entity
// folder to its own file, and fills an existing entity's file.
func TestImportIntoEntityFiles(t *testing.T) {
	dir := copyFS(t, demo.Knowledge())
	if _, err := knowledge.Migrate(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	in := &knowledge.Imported{
		Name: "dbt",
		Entities: []semantic.Entity{
			{Name: "returns", Table: "returns", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: "int"}, {Name: "order_id", Type: "int"}}},
			{Name: "plans", Table: "plans", Columns: []semantic.Column{{Name: "tier_code", Type: "text"}}},
		},
		Relationships: []semantic.Relationship{{From: "returns", FromColumn: "order_id", To: "orders", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	rep, err := knowledge.Import(t.Context(), dir, in)
	if err != nil {
		t.Fatal(err)
	}
	// (the demo's hand-written files are re-rendered in learn's layout,
	// as model.yaml is)
	if !containsString(rep.Files, "entities/plans.yaml") || !containsString(rep.Files, "entities/returns.yaml") {
		t.Errorf("files %v", rep.Files)
	}
	if _, err := os.Stat(filepath.Join(dir, "model.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("model.yaml: %v", err)
	}
	got := readFile(t, filepath.Join(dir, "entities", "returns.yaml"))
	if !strings.Contains(got, "relationships:\n  - from_column: order_id\n    to: orders\n") {
		t.Errorf("entities/returns.yaml:\n%s", got)
	}
	if f := load(t, dir); f.Model.Entity("returns") == nil || f.Model.Entity("plans").Column("tier_code") == nil {
		t.Error("the import is not in the model")
	}
}
