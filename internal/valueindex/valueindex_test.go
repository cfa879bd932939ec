package valueindex

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3/driver"

	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// makeDB writes a SQLite database from statements and returns its path.
func makeDB(t testing.TB, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.db")
	db, err := driver.Open(fileURI(path, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

// source opens a database read-only through quarry's SQLite connector,
// with the column policy of m.
func source(t testing.TB, path string, m *semantic.Model) *sqlite.Conn {
	t.Helper()
	c, err := sqlite.Open(context.Background(), path, sqlite.Options{Policy: policy.FromModel(m)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func textCol(name string) semantic.Column { return semantic.Column{Name: name, Type: quarry.TypeText} }

// shop is a small database with values of every kind the index treats
// differently, and its model.
func shop(t testing.TB) (string, *semantic.Model) {
	path := makeDB(t,
		`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT, country TEXT, email TEXT, note TEXT)`,
		`INSERT INTO customers VALUES
			(1, 'Ann Lee', 'Zürich', 'Switzerland', 'ann@example.com', 'Met at the spring fair; wants a call back before the end of the quarter'),
			(2, 'Bo Chen', 'New York', 'United States', 'bo@example.com', 'Prefers email over phone for every kind of question about orders'),
			(3, 'Cy Park', 'York', 'United Kingdom', 'cy@example.com', 'Asked for the catalogue and a sample of the new autumn range of goods'),
			(4, 'The', 'Springfield', 'United States', 'the@example.com', 'A customer whose name is a function word, for the tests of the index'),
			(5, 'No', 'São Paulo', 'Brazil', 'no@example.com', 'Another customer whose name is a word people write in many questions')`,
		`CREATE TABLE stores (id INTEGER PRIMARY KEY, name TEXT, city TEXT)`,
		`INSERT INTO stores VALUES (1, 'Springfield', 'Aberdeen'), (2, 'Harbour', 'Autonomous Area')`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, order_ref TEXT, customer_id INTEGER, status TEXT)`,
		`INSERT INTO orders VALUES (1, 'ORD-1042', 1, 'open'), (2, 'ORD-1043', 2, 'closed'), (3, 'A-113', 3, 'open')`,
		`CREATE TABLE airports (code TEXT PRIMARY KEY, airport_name TEXT)`,
		`INSERT INTO airports VALUES ('APG', 'Phillips Aaf'), ('JFK', 'Kennedy International'), ('MOM', 'Montemorelos'), ('Abc', 'Mixed Case'), ('OR', 'Oregon Field')`,
	)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", Synonyms: []string{"clients"}, PrimaryKey: "id", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, textCol("name"), textCol("city"), textCol("country"), textCol("email"), textCol("note")}},
			{Name: "stores", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, textCol("name"), textCol("city")}},
			{Name: "orders", PrimaryKey: "id", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, textCol("order_ref"), {Name: "customer_id", Type: quarry.TypeInt}, textCol("status")}},
			{Name: "airports", PrimaryKey: "code", Columns: []semantic.Column{textCol("code"), textCol("airport_name")}},
		},
		Relationships: []semantic.Relationship{{From: "orders", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Restricted:    []string{"customers.email"},
	}
	return path, m
}

func buildShop(t testing.TB, lim Limits) (*Index, *Stats, string) {
	t.Helper()
	path, m := shop(t)
	ixPath := filepath.Join(t.TempDir(), ".cache", "values.db")
	st, err := Build(context.Background(), source(t, path, m), m, ixPath, lim)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ixPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix, st, ixPath
}

func TestLookup(t *testing.T) {
	ix, _, _ := buildShop(t, Limits{})
	v := func(e, c, val string) planner.Value { return planner.Value{Entity: e, Column: c, Value: val} }
	id := func(e, c, val string) planner.Value { return planner.Value{Entity: e, Column: c, Value: val, ID: true} }
	for _, tc := range []struct {
		q    string
		want []planner.Value
		as   string // the question as read, when rewritten
	}{
		// Without regard to accents and case, written as stored.
		{"how many customers in zurich", []planner.Value{v("customers", "city", "Zürich")}, "how many customers in Zürich"},
		{"customers in ZÜRICH", []planner.Value{v("customers", "city", "Zürich")}, ""},
		{"customers in sao paulo?", []planner.Value{v("customers", "city", "São Paulo")}, "customers in São Paulo?"},
		// A value of several words; the longest at a place.
		{"customers from New York", []planner.Value{v("customers", "city", "New York")}, ""},
		{"customers from York", []planner.Value{v("customers", "city", "York")}, ""},
		{"stores in the autonomous area", []planner.Value{v("stores", "city", "Autonomous Area")}, ""},
		// Words on their boundaries only: no prefixes, no parts.
		{"customers from Yorkshire", nil, ""},
		{"customers in Zur", nil, ""},
		// A function word alone is not a value, nor is a number.
		{"the customers with no orders", nil, ""},
		{"customers in 2024", nil, ""},
		// Two columns, narrowed by the table the question names.
		{"customers in Springfield", []planner.Value{v("customers", "city", "Springfield")}, ""},
		{"stores called Springfield", []planner.Value{v("stores", "name", "Springfield")}, ""},
		{"how many in Springfield", []planner.Value{v("customers", "city", "Springfield"), v("stores", "name", "Springfield")}, ""},
		// Other names of values.
		{"customers in the USA", []planner.Value{v("customers", "country", "United States")}, "customers in the United States"},
		{"customers in the UK", []planner.Value{v("customers", "country", "United Kingdom")}, "customers in the United Kingdom"},
		// Identifiers in key and code columns, exactly.
		{"status of order ORD-1042", []planner.Value{id("orders", "order_ref", "ORD-1042")}, ""},
		{"status of order ord-1042?", []planner.Value{id("orders", "order_ref", "ORD-1042")}, ""},
		{"status of order A-113", []planner.Value{id("orders", "order_ref", "A-113")}, ""},
		{"status of order ORD-104", nil, ""},
		// Codes in capitals in a key column, only as written (found on
		// Spider: "flights from APG" was not understood).
		{"flights from APG", []planner.Value{id("airports", "code", "APG")}, ""},
		{"flights from 'APG' or JFK?", []planner.Value{id("airports", "code", "APG"), id("airports", "code", "JFK")}, ""},
		{"flights from apg", nil, ""},
		// "OR" in capitals is a code, "or" a word (found from outside:
		// "members in OR" counted every member).
		{"flights from OR", []planner.Value{id("airports", "code", "OR")}, ""},
		{"flights from APG or JFK", []planner.Value{id("airports", "code", "APG"), id("airports", "code", "JFK")}, ""},
		{"flights from Apg", nil, ""},
		{"revenue MOM", nil, ""},
		{"the ABC airport", nil, ""},
		// A restricted column is never indexed.
		{"customers with ann@example.com", nil, ""},
	} {
		got, err := ix.Lookup(context.Background(), tc.q)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		if diff := cmp.Diff(tc.want, got.Values); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.q, diff)
		}
		as := tc.as
		if as == "" {
			as = tc.q
		}
		if got.Question != as {
			t.Errorf("%q read as %q, want %q", tc.q, got.Question, as)
		}
	}
}

// TestRestrictedNeverStored: the restricted column's values are nowhere
// in the file, and free text is left out.
func TestRestrictedNeverStored(t *testing.T) {
	_, st, path := buildShop(t, Limits{})
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"ann@example.com", "example.com", "spring fair"} {
		if strings.Contains(string(b), s) {
			t.Errorf("the index holds %q", s)
		}
	}
	if diff := cmp.Diff([]string{"customers.note"}, st.FreeText); diff != "" {
		t.Errorf("free text (-want +got):\n%s", diff)
	}
}

// TestCaps: the most frequent values of a column are kept up to the
// per-column cap, and the index says what it left out.
func TestCaps(t *testing.T) {
	stmts := []string{`CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, town TEXT)`}
	var b strings.Builder
	b.WriteString(`INSERT INTO people(name, town) VALUES `)
	for i := range 300 {
		if i > 0 {
			b.WriteString(", ")
		}
		// name i appears once, except the first ten, which appear twice.
		b.WriteString("('Person " + word3(i) + "', 'Town " + word3(i%40) + "')")
		if i < 10 {
			b.WriteString(", ('Person " + word3(i) + "', 'Town " + word3(i%40) + "')")
		}
	}
	stmts = append(stmts, b.String())
	path := makeDB(t, stmts...)
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "people", PrimaryKey: "id",
		Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, textCol("name"), textCol("town")}}}}
	ixPath := filepath.Join(t.TempDir(), "values.db")
	st, err := Build(context.Background(), source(t, path, m), m, ixPath, Limits{PerColumn: 50, Total: 70})
	if err != nil {
		t.Fatal(err)
	}
	want := &Stats{PerColumn: 50, Total: 70, Columns: 2, Values: 70, Truncated: []string{"people.name", "people.town"}}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	ix, err := Open(ixPath)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	stored, err := ix.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*want, stored); diff != "" {
		t.Errorf("stored stats (-want +got):\n%s", diff)
	}
	// The ten names that appear twice are the most frequent: kept.
	for i := range 10 {
		f, err := ix.Lookup(context.Background(), "people called person "+word3(i))
		if err != nil || len(f.Values) != 1 {
			t.Errorf("person %s: %v %v", word3(i), f.Values, err)
		}
	}
	st, err = Build(context.Background(), source(t, path, m), m, ixPath, Limits{PerColumn: 50, Total: 50})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"people.town"}, st.LeftOut); diff != "" {
		t.Errorf("left out (-want +got):\n%s", diff)
	}
}

// word3 spells i in letters, so that names are words and not numbers.
func word3(i int) string {
	return string([]byte{byte('a' + i/100%26), byte('a' + i/10%10), byte('a' + i%10)})
}

// TestAtomicRebuild: an interrupted build leaves the old index whole and
// no temporary file; a rebuild replaces it while an opened copy still
// reads the old one.
func TestAtomicRebuild(t *testing.T) {
	ix, _, ixPath := buildShop(t, Limits{})
	path, m := shop(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, source(t, path, m), m, ixPath, Limits{}); quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("canceled build: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(ixPath))
	if len(entries) != 1 || entries[0].Name() != "values.db" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("after a canceled build the folder holds %v", names)
	}
	if f, err := ix.Lookup(context.Background(), "customers in York"); err != nil || len(f.Values) != 1 {
		t.Errorf("old index after a canceled build: %v %v", f.Values, err)
	}
	// Rebuild over another database: the opened index keeps reading.
	other := makeDB(t, `CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT, country TEXT, email TEXT, note TEXT)`,
		`INSERT INTO customers VALUES (1, 'Di', 'Lyon', 'France', 'x', 'y')`)
	if _, err := Build(context.Background(), source(t, other, m), m, ixPath, Limits{}); err != nil {
		t.Fatal(err)
	}
	if f, err := ix.Lookup(context.Background(), "customers in York"); err != nil || len(f.Values) != 1 {
		t.Errorf("old index after a rebuild: %v %v", f.Values, err)
	}
	ix2, err := Open(ixPath)
	if err != nil {
		t.Fatal(err)
	}
	defer ix2.Close()
	if f, err := ix2.Lookup(context.Background(), "customers in Lyon"); err != nil || len(f.Values) != 1 {
		t.Errorf("new index: %v %v", f.Values, err)
	}
}

// TestOpenNotAnIndex: a file that is not a value index says to run learn.
func TestOpenNotAnIndex(t *testing.T) {
	path := makeDB(t, `CREATE TABLE t (x)`)
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	_, err = ix.Lookup(context.Background(), "customers in York")
	if quarry.KindOf(err) != quarry.KindConfig || !strings.Contains(quarry.Message(err), "quarry learn") {
		t.Errorf("Open of another database: %v", err)
	}
	_, err = Open(filepath.Join(t.TempDir(), "absent.db"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("Open of a missing file: no error")
	}
}
