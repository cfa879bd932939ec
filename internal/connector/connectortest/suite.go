package connectortest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Fixture says how the suite creates its tables in one database.
type Fixture struct {
	// Dialect selects the DDL and the expected values (Cases, Setup).
	Dialect quarry.Dialect
	// Schema, when set, qualifies every table name (a PostgreSQL schema or
	// a MySQL database the caller created and drops afterwards).
	Schema string
	// Exec runs setup statements in order with a writable session. It is
	// called once, before open.
	Exec func(t *testing.T, stmts []string)
}

// Run runs the conformance suite: it creates the fixture tables with
// fx.Exec, calls open for a read-only connection (open registers its own
// cleanup) and checks values and types, NULLs, MaxRows, Timeout, Catalog
// and the refusal of writes.
func Run(t *testing.T, open func(t *testing.T) connector.Conn, fx Fixture) {
	t.Helper()
	if len(Cases(fx.Dialect)) == 0 {
		t.Fatalf("connectortest has no cases for dialect %q", fx.Dialect)
	}
	fx.Exec(t, Setup(fx.Dialect, fx.Schema))
	c := open(t)
	if c.Dialect() != fx.Dialect {
		t.Errorf("Dialect() = %q, want %q", c.Dialect(), fx.Dialect)
	}
	s := &suite{c: c, fx: fx}
	t.Run("Values", s.values)
	t.Run("MaxRows", s.maxRows)
	t.Run("ValueSize", s.valueSize)
	t.Run("Timeout", s.timeout)
	t.Run("Catalog", s.catalog)
	t.Run("WritesRefused", s.writesRefused)
}

type suite struct {
	c  connector.Conn
	fx Fixture
}

func (s *suite) q(name string) string { return Qualify(s.fx.Schema, name) }

// Collect reads all rows of a query into a Table, failing t on error.
func Collect(t testing.TB, c connector.Conn, sql string, opts connector.QueryOptions) *quarry.Table {
	t.Helper()
	tab, err := TryCollect(context.Background(), c, sql, opts)
	if err != nil {
		t.Fatalf("Query(%q): %v", sql, err)
	}
	return tab
}

// TryCollect reads all rows of a query into a Table, copying each row.
func TryCollect(ctx context.Context, c connector.Conn, sql string, opts connector.QueryOptions) (*quarry.Table, error) {
	rows, err := c.Query(ctx, sql, opts)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	tab := &quarry.Table{Columns: rows.Columns()}
	for rows.Next() {
		tab.Rows = append(tab.Rows, append([]any(nil), rows.Values()...))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if tr, ok := rows.(connector.Truncator); ok {
		tab.Truncated = tr.Truncated()
	}
	return tab, rows.Close()
}

func (s *suite) values(t *testing.T) {
	cases := Cases(s.fx.Dialect)
	cols := make([]string, len(cases))
	for i, c := range cases {
		cols[i] = c.Column
	}
	tab := Collect(t, s.c, "SELECT "+strings.Join(cols, ", ")+" FROM "+s.q("ct_values")+" ORDER BY id", connector.QueryOptions{})
	if len(tab.Rows) != 2 || len(tab.Columns) != len(cases) {
		t.Fatalf("got %d rows of %d columns, want 2 rows of %d", len(tab.Rows), len(tab.Columns), len(cases))
	}
	for i, c := range cases {
		col := tab.Columns[i]
		if col.Name != c.Column {
			t.Errorf("column %d is named %q, want %q", i, col.Name, c.Column)
		}
		if col.Type != c.Type {
			t.Errorf("%s (%s): type %s, want %s", c.Column, c.DDL, col.Type, c.Type)
		}
		v := tab.Rows[0][i]
		if err := checkGoType(c.Type, v); err != nil {
			t.Errorf("%s (%s): %v", c.Column, c.DDL, err)
		}
		got, err := json.Marshal(quarry.JSONValue(v))
		if err != nil {
			t.Errorf("%s (%s): json.Marshal(JSONValue(%#v)): %v", c.Column, c.DDL, v, err)
			continue
		}
		if diff := cmp.Diff(decodeJSON(t, c.JSON), decodeJSON(t, string(got))); diff != "" {
			t.Errorf("%s (%s): value %s, want %s (-want +got):\n%s", c.Column, c.DDL, got, c.JSON, diff)
		}
		if n := tab.Rows[1][i]; n != nil {
			t.Errorf("%s (%s): NULL arrived as %#v, want nil", c.Column, c.DDL, n)
		}
	}
}

// checkGoType checks that v is one of the Go types quarry.Table allows for
// t (nil aside).
func checkGoType(t quarry.Type, v any) error {
	ok := false
	switch x := v.(type) {
	case bool:
		ok = t == quarry.TypeBool
	case int64:
		ok = t == quarry.TypeInt
	case float64:
		ok = t == quarry.TypeFloat
	case string:
		ok = t != quarry.TypeInt && t != quarry.TypeFloat && t != quarry.TypeBool && t != quarry.TypeBytes
	case []byte:
		ok = t == quarry.TypeBytes
	case time.Time:
		ok = t == quarry.TypeTimestamp
	case json.RawMessage:
		ok = t == quarry.TypeJSON && json.Valid(x)
	case []any:
		ok = t == quarry.TypeArray
	}
	if !ok {
		return fmt.Errorf("value %#v (%T) is not a valid Go value for a %s column", v, v, t)
	}
	return nil
}

func decodeJSON(t testing.TB, s string) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("invalid JSON %s: %v", s, err)
	}
	return v
}

func (s *suite) maxRows(t *testing.T) {
	sql := "SELECT n FROM " + s.q("ct_numbers") + " ORDER BY n"
	for _, tc := range []struct {
		max       int64
		rows      int
		truncated bool
	}{{0, 10, false}, {3, 3, true}, {10, 10, false}, {11, 10, false}} {
		tab := Collect(t, s.c, sql, connector.QueryOptions{MaxRows: tc.max})
		if len(tab.Rows) != tc.rows || tab.Truncated != tc.truncated {
			t.Errorf("MaxRows %d: %d rows, truncated %v; want %d, %v", tc.max, len(tab.Rows), tab.Truncated, tc.rows, tc.truncated)
		}
		for i, r := range tab.Rows {
			if r[0] != int64(i+1) {
				t.Errorf("MaxRows %d: row %d = %#v, want %d", tc.max, i, r[0], i+1)
				break
			}
		}
	}
}

// BigValue is an expression of 5,000 bytes of text in the dialect.
func BigValue(d quarry.Dialect) string {
	if d == quarry.DialectSQLite {
		return "printf('%5000s', 'x')"
	}
	return "repeat('x', 5000)"
}

// valueSize checks MaxValueBytes and MaxResultBytes: a value over the
// first, and a result over the second, fail the query with a
// KindTooCostly error that names the column or the result and the limit;
// under them the rows come back whole.
func (s *suite) valueSize(t *testing.T) {
	sql := "SELECT n, " + BigValue(s.fx.Dialect) + " AS big FROM " + s.q("ct_numbers") + " ORDER BY n"
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		opts     connector.QueryOptions
		wantErr  []string // substrings of the message; nil: no error
		wantRows int
		bigLen   int
	}{
		{"under both", connector.QueryOptions{MaxValueBytes: 5000, MaxResultBytes: 60000}, nil, 10, 5000},
		{"value over", connector.QueryOptions{MaxValueBytes: 4999}, []string{`column "big"`, "5000 bytes", "limits.max_value_bytes (4999)"}, 0, 0},
		{"result over", connector.QueryOptions{MaxResultBytes: 20000}, []string{"limits.max_result_bytes (20000 bytes)", "after 4 rows"}, 0, 0},
		{"result over, row cap first", connector.QueryOptions{MaxResultBytes: 20000, MaxRows: 3}, nil, 3, 5000},
	} {
		tab, err := TryCollect(ctx, s.c, sql, tc.opts)
		if tc.wantErr != nil {
			if quarry.KindOf(err) != quarry.KindTooCostly {
				t.Errorf("%s: err = %v (kind %s), want kind too_costly", tc.name, err, quarry.KindOf(err))
				continue
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(quarry.Message(err), w) {
					t.Errorf("%s: message %q does not say %q", tc.name, quarry.Message(err), w)
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(tab.Rows) != tc.wantRows {
			t.Errorf("%s: %d rows, want %d", tc.name, len(tab.Rows), tc.wantRows)
		}
		if v, ok := tab.Rows[0][1].(string); !ok || len(v) != tc.bigLen {
			t.Errorf("%s: big = %T of %d bytes", tc.name, tab.Rows[0][1], len(fmt.Sprint(tab.Rows[0][1])))
		}
	}
	// After a refusal, the connection still answers.
	if tab := Collect(t, s.c, "SELECT count(*) FROM "+s.q("ct_numbers"), connector.QueryOptions{}); len(tab.Rows) != 1 {
		t.Errorf("after the size refusals: %v", tab.Rows)
	}
}

// SlowSQL is a read-only query that runs for minutes on every dialect: a
// count over nine copies of ct_numbers (10^9 rows), filtered on a sum of
// their columns so that no engine can count the product from the tables'
// sizes (DuckDB does, for a bare count of a cross product).
func SlowSQL(schema string) string {
	from := make([]string, 9)
	sum := make([]string, 9)
	for i := range from {
		from[i] = fmt.Sprintf("%s t%d", Qualify(schema, "ct_numbers"), i)
		sum[i] = fmt.Sprintf("t%d.n", i)
	}
	return "SELECT count(*) FROM " + strings.Join(from, ", ") + " WHERE " + strings.Join(sum, " + ") + " >= 0"
}

func (s *suite) timeout(t *testing.T) {
	start := time.Now()
	_, err := TryCollect(context.Background(), s.c, SlowSQL(s.fx.Schema), connector.QueryOptions{Timeout: 300 * time.Millisecond})
	took := time.Since(start)
	if quarry.KindOf(err) != quarry.KindTimeout {
		t.Fatalf("slow query with a 300ms timeout: err = %v (kind %s), want kind timeout", err, quarry.KindOf(err))
	}
	if took > 10*time.Second {
		t.Errorf("the timeout took %v to stop the query", took)
	}
	// The connection still works.
	tab := Collect(t, s.c, "SELECT count(*) FROM "+s.q("ct_numbers"), connector.QueryOptions{})
	if len(tab.Rows) != 1 || fmt.Sprint(tab.Rows[0][0]) != "10" {
		t.Errorf("after a timeout: count = %v, want 10", tab.Rows)
	}
}

func (s *suite) catalog(t *testing.T) {
	cat, err := s.c.Catalog(context.Background())
	if err != nil {
		t.Fatalf("Catalog: %v", err)
	}
	find := func(name string) *quarry.TableInfo {
		for i := range cat.Tables {
			tb := &cat.Tables[i]
			if strings.EqualFold(tb.Name, name) && (s.fx.Schema == "" || strings.EqualFold(tb.Schema, s.fx.Schema)) {
				return tb
			}
		}
		t.Fatalf("Catalog has no table %s", s.q(name))
		return nil
	}
	child := find("ct_child")
	var names []string
	for _, c := range child.Columns {
		names = append(names, strings.ToLower(c.Name))
	}
	if diff := cmp.Diff([]string{"id", "parent_id", "note"}, names); diff != "" {
		t.Errorf("ct_child columns (-want +got):\n%s", diff)
	}
	if c := child.Column("parent_id"); c != nil && (c.Nullable || c.Type != quarry.TypeInt) {
		t.Errorf("ct_child.parent_id = %+v, want a NOT NULL int", *c)
	}
	if c := child.Column("note"); c != nil && (!c.Nullable || c.Type != quarry.TypeText) {
		t.Errorf("ct_child.note = %+v, want a nullable text", *c)
	}
	if diff := cmp.Diff([]string{"id"}, lower(child.PrimaryKey)); diff != "" {
		t.Errorf("ct_child primary key (-want +got):\n%s", diff)
	}
	if len(child.ForeignKeys) != 1 {
		t.Fatalf("ct_child foreign keys = %+v, want one", child.ForeignKeys)
	}
	fk := child.ForeignKeys[0]
	if !strings.EqualFold(fk.RefTable, "ct_parent") || cmp.Diff([]string{"parent_id"}, lower(fk.Columns)) != "" || cmp.Diff([]string{"id"}, lower(fk.RefColumns)) != "" {
		t.Errorf("ct_child foreign key = %+v, want (parent_id) → ct_parent(id)", fk)
	}
	if s.fx.Schema != "" && !strings.EqualFold(fk.RefSchema, s.fx.Schema) && fk.RefSchema != "" {
		t.Errorf("ct_child foreign key schema = %q, want %q", fk.RefSchema, s.fx.Schema)
	}
	parent := find("ct_parent")
	if parent.View {
		t.Errorf("ct_parent is listed as a view")
	}
	if HasComments(s.fx.Dialect) {
		if parent.Comment != "parents of children" {
			t.Errorf("ct_parent comment = %q, want %q", parent.Comment, "parents of children")
		}
		if c := parent.Column("name"); c == nil || c.Comment != "what the parent is called" {
			t.Errorf("ct_parent.name = %+v, want the comment %q", c, "what the parent is called")
		}
	}
	if parent.RowCount < -1 {
		t.Errorf("ct_parent row count %d; want an estimate or -1", parent.RowCount)
	}
	if v := find("ct_parent_view"); !v.View || len(v.Columns) != 2 {
		t.Errorf("ct_parent_view = %+v, want a view with 2 columns", *v)
	}
}

func lower(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

// writesRefused sends writes straight to Query, with no guard in front:
// the connector's own read-only layers must refuse every one, with an
// error of a meaningful kind, and nothing may change.
func (s *suite) writesRefused(t *testing.T) {
	n := s.q("ct_numbers")
	for _, sql := range []string{
		"DELETE FROM " + n,
		"UPDATE " + n + " SET n = n + 100",
		"INSERT INTO " + n + " VALUES (99)",
		"SELECT 1; DELETE FROM " + n,
		"DROP TABLE " + n,
		"CREATE TABLE " + s.q("ct_new") + " (x integer)",
	} {
		_, err := TryCollect(context.Background(), s.c, sql, connector.QueryOptions{})
		if err == nil {
			t.Errorf("Query(%q) succeeded; the connector must refuse writes", sql)
			continue
		}
		if k := quarry.KindOf(err); k == quarry.KindInternal {
			t.Errorf("Query(%q): %v: kind %s, want rejected or query", sql, err, k)
		}
	}
	tab := Collect(t, s.c, "SELECT count(*), sum(n) FROM "+n, connector.QueryOptions{})
	if fmt.Sprint(tab.Rows[0][0]) != "10" || fmt.Sprint(tab.Rows[0][1]) != "55" {
		t.Errorf("after the refused writes: count, sum = %v, want 10, 55", tab.Rows[0])
	}
}
