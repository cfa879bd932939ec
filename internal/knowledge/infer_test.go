package knowledge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

func col(name, decl string) quarry.ColumnInfo {
	return quarry.ColumnInfo{Name: name, DeclType: decl, Type: quarryType(decl, name)}
}

func TestInferRelationshipsByNaming(t *testing.T) {
	cat := &quarry.Catalog{Tables: []quarry.TableInfo{
		{Name: "categories", PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{col("id", "INTEGER"), col("title", "TEXT")}},
		{Name: "products", PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{col("id", "INTEGER"), col("category_id", "INTEGER"), col("box_id", "INTEGER"), col("session_id", "INTEGER")}},
		{Name: "box", PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{col("id", "INTEGER")}},
		{Name: "boxes", PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{col("id", "INTEGER")}},
		{Name: "employees", PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{col("id", "INTEGER"), col("manager_id", "INTEGER"), col("mentor_id", "INTEGER"), col("CustomerID", "INTEGER")}},
		{Name: "Customer", Columns: []quarry.ColumnInfo{col("id", "INTEGER"), col("name", "TEXT")}},
		{Name: "orders", Schema: "public", PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{col("id", "INTEGER"), col("customer_id", "INTEGER")},
			ForeignKeys: []quarry.ForeignKey{{Columns: []string{"customer_id"}, RefTable: "Customer"}}},
		{Name: "orders", Schema: "archive", PrimaryKey: []string{"order_id"}, Columns: []quarry.ColumnInfo{col("order_id", "INTEGER"), col("total", "NUMERIC(10,2)")},
			ForeignKeys: []quarry.ForeignKey{{Columns: []string{"order_id"}, RefTable: "orders", RefSchema: "public", RefColumns: []string{"id"}}}},
	}}
	l := infer(cat)
	var got []string
	for _, r := range l.relationships {
		got = append(got, fmt.Sprintf("%s %s.%s -> %s.%s %s", r.Name, r.From, r.FromColumn, r.To, r.ToColumn, r.Cardinality))
	}
	want := []string{
		"customer orders.customer_id -> Customer.id many_to_one",     // declared, parent key implied
		"order archive_orders.order_id -> orders.id one_to_one",      // declared on the primary key, other schema
		"category products.category_id -> categories.id many_to_one", // naming, -ies plural
		"manager employees.manager_id -> employees.id many_to_one",   // hierarchical role, same table
		"mentor employees.mentor_id -> employees.id many_to_one",     //
		"Customer employees.CustomerID -> Customer.id many_to_one",   // CamelCase id
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("relationships (-want +got):\n%s", diff) // box_id is ambiguous (box, boxes); session_id has no table
	}
	var names, tables []string
	for _, e := range l.entities {
		names = append(names, e.Name)
		tables = append(tables, e.QualifiedName())
	}
	if diff := cmp.Diff([]string{"categories", "products", "box", "boxes", "employees", "Customer", "orders", "archive_orders"}, names); diff != "" {
		t.Errorf("entity names (-want +got):\n%s", diff)
	}
	if tables[7] != "archive.orders" || tables[6] != "orders" || l.entities[7].Schema != "archive" || l.entities[7].Table != "orders" {
		t.Errorf("tables %v: want the schema only outside the default one", tables)
	}
	if l.entities[5].PrimaryKey != "id" || l.entities[5].Label != "name" || l.entities[0].Label != "title" {
		t.Errorf("keys and labels: %+v %+v", l.entities[5], l.entities[0])
	}
	var cands []string
	for _, c := range l.candidates {
		cands = append(cands, c.Name+" "+c.Expr)
	}
	if diff := cmp.Diff([]string{"total_total SUM(archive_orders.total)"}, cands); diff != "" {
		t.Errorf("candidates (-want +got):\n%s", diff)
	}
}

func TestPickTimeColumn(t *testing.T) {
	tests := []struct {
		cols  []quarry.ColumnInfo
		want  string
		table string
	}{
		{[]quarry.ColumnInfo{col("id", "INTEGER"), col("updated_at", "TIMESTAMP"), col("created_at", "TIMESTAMP")}, "created_at", ""},
		{[]quarry.ColumnInfo{col("ended_on", "DATE"), col("started_on", "DATE")}, "started_on", ""},
		{[]quarry.ColumnInfo{col("name", "TEXT"), col("signup_date", "TEXT")}, "signup_date", ""},
		{[]quarry.ColumnInfo{col("birth_date", "DATE")}, "", ""}, // a date of birth is never the time axis
		{[]quarry.ColumnInfo{col("state", "TEXT"), col("amount", "REAL")}, "", ""},
		{[]quarry.ColumnInfo{col("opened_at", "TIMESTAMP"), col("closed_at", "TIMESTAMP")}, "opened_at", ""},
		{[]quarry.ColumnInfo{col("dob", "DATE"), col("DateOfBirth", "DATE"), col("joined", "DATE")}, "joined", "people"},
		{[]quarry.ColumnInfo{col("created_at", "TIMESTAMP"), col("ordered_at", "TIMESTAMP")}, "ordered_at", "orders"},
		{[]quarry.ColumnInfo{col("updated_at", "TIMESTAMP"), col("ship_date", "DATE"), col("order_date", "DATE")}, "order_date", "orders"},
		// The table's own date in a short form beats another event's
		// (found from outside: appointments dated by when they were
		// booked, not when they took place).
		{[]quarry.ColumnInfo{col("booked_dt", "TEXT"), col("appt_dt", "TEXT"), col("cancelled_dt", "TEXT")}, "appt_dt", "appointments"},
		{[]quarry.ColumnInfo{col("cancelled_at", "TIMESTAMP"), col("signup_date", "DATE")}, "signup_date", "subscriptions"},
		{[]quarry.ColumnInfo{col("last_login", "TIMESTAMP"), col("attendance_date", "DATE")}, "attendance_date", "visits"},
		{[]quarry.ColumnInfo{col("placed", "TIMESTAMP"), col("closed_at", "TIMESTAMP")}, "placed", "orders"},
		// Text columns named with a short form of date or timestamp.
		{[]quarry.ColumnInfo{col("amount", "REAL"), col("gift_dt", "TEXT")}, "gift_dt", "donations"},
		{[]quarry.ColumnInfo{col("order_ts", "TEXT"), col("note", "TEXT")}, "order_ts", "orders"},
	}
	for _, tt := range tests {
		if tt.table == "" {
			tt.table = "t"
		}
		if got := pickTimeColumn(&quarry.TableInfo{Name: tt.table, Columns: tt.cols}); got != tt.want {
			t.Errorf("%v: got %q, want %q", tt.cols, got, tt.want)
		}
	}
}

func TestTimeRole(t *testing.T) {
	tests := map[string]string{
		"created_at": "start", "signup_date": "start", "joined": "start", "DateJoined": "start", "hired_on": "start",
		"ordered_at": "event", "placed": "event", "order_date": "event", "PaymentDate": "event",
		"closed_at": "end", "ended": "end", "cancelled_at": "end", "canceled_on": "end", "EndDate": "end",
		"retired_on": "end", "decommissioned_at": "end", // taken out of use (found from outside)
		"removed_on": "end", "restored_at": "end", "installed_on": "start", // a meter taken out, an outage over (found from outside)
		"birth_date": "birth", "dob": "birth", "DateOfBirth": "birth", "birthday": "birth",
		"ship_date": "event", "dispatch_dt": "event", "bkg_dt": "event", "enr_dt": "start", "updated_at": "", "date": "", "attendance_date": "",
	}
	for name, want := range tests {
		if got := timeRole(name); got != want {
			t.Errorf("timeRole(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestQuarryType(t *testing.T) {
	tests := map[string]quarry.Type{
		"INTEGER": quarry.TypeInt, "bigint": quarry.TypeBigInt, "VARCHAR(20)": quarry.TypeText, "numeric(10,2)": quarry.TypeDecimal,
		"REAL": quarry.TypeFloat, "double precision": quarry.TypeFloat, "DATE": quarry.TypeDate, "TIMESTAMP": quarry.TypeTimestamp,
		"timestamp with time zone": quarry.TypeTimestamp, "datetime": quarry.TypeTimestamp, "BOOLEAN": quarry.TypeBool,
		"BLOB": quarry.TypeBytes, "jsonb": quarry.TypeJSON, "": quarry.TypeUnknown, "geometry": quarry.TypeUnknown, "interval": quarry.TypeInterval,
	}
	for decl, want := range tests {
		if got := quarryType(decl, "x"); got != want {
			t.Errorf("quarryType(%q) = %q, want %q", decl, got, want)
		}
	}
}

// TestYAMLScalarRoundTrip: whatever learn writes as a value reads back as
// the same string, in block and in flow lists.
func TestYAMLScalarRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.String(),
			rapid.StringMatching(`[A-Za-z0-9 :#,\[\]{}'"\-?&*!|>%@.]{1,12}`),
			rapid.SampledFrom([]string{"yes", "No", "null", "~", "1", "0.5", "1e3", "2025-01-01", "- x", "a: b", "a #b", "x:", " lead", "trail ", "@at", "0x1F", "TRUE"}),
		).Draw(t, "s")
		if strings.TrimSpace(s) == "" {
			return // blank entries are rejected by validation, and learn never writes them
		}
		src := fmt.Sprintf("entities:\n  - name: e\n    synonyms: [%s]\n    columns:\n      - name: %s\n        values:\n          - %s\n",
			yamlnode.Quote(s, true), yamlnode.Quote(s, false), yamlnode.Quote(s, false))
		m := decodeModel([]byte(src))
		if len(m.d.Problems) > 0 {
			t.Fatalf("%q: %v\n%s", s, m.d.Problems, src)
		}
		e := m.Entities[0]
		if len(e.Synonyms) != 1 || e.Synonyms[0] != s || e.Columns[0].Name != s || e.Columns[0].Values[0] != s {
			t.Fatalf("%q read back as %q / %q / %q\n%s", s, e.Synonyms, e.Columns[0].Name, e.Columns[0].Values, src)
		}
	})
}

// FuzzDecode: no input makes the decoders panic, and every problem has a
// message.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("entities:\n  - name: a\n    columns: [{name: id}]\n"))
	f.Add([]byte("metrics:\n  - {name: m, expr: 'COUNT(a.id)', entity: a}\ncandidates: []\n"))
	f.Add([]byte("restricted:\n  - column: a.b\n    reason: r\n"))
	f.Add([]byte("- question: q\n  sql: |\n    SELECT 1\n  verified_at: 2026-01-01\n"))
	f.Add([]byte("a: &x [1]\nb: *x\n--- \nc: !!str d\n"))
	f.Add([]byte("metric: orders\ndimensions: [channel]\nfilters:\n  - {field: country, value: France}\ngrain: week\nschedule: every Monday at 9\nthreshold: 4.5\nmin_volume: 10\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		check := func(ps []Problem) {
			for _, p := range ps {
				if p.Msg == "" {
					t.Fatalf("problem without a message: %+v", p)
				}
			}
		}
		check(decodeModel(src).d.Problems)
		check(decodeMetrics(src).d.Problems)
		_, d := decodePolicy(src)
		check(d.Problems)
		_, d = decodeExamples("examples/x.yaml", src)
		check(d.Problems)
		_, d = decodeMonitor("monitors/x.yaml", src)
		check(d.Problems)
	})
}

// TestInferNamesDifferingInCase: PostgreSQL's "Orders" and orders are two
// tables; entity names are matched without regard to case, so they must
// not become one entity (an outside tester saw their columns merged).
func TestInferNamesDifferingInCase(t *testing.T) {
	cat := &quarry.Catalog{Tables: []quarry.TableInfo{
		{Name: "Orders", Schema: "public", PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{col("id", "INTEGER"), col("amount", "INTEGER")}},
		{Name: "orders", Schema: "public", PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{col("id", "INTEGER"), col("total", "INTEGER")}},
		{Name: "orders_2", Schema: "public", PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{col("id", "INTEGER")}},
	}}
	l := infer(cat)
	var got []string
	for _, e := range l.entities {
		var cols []string
		for _, c := range e.Columns {
			cols = append(cols, c.Name)
		}
		got = append(got, e.Name+" "+e.TableName()+" "+strings.Join(cols, ","))
	}
	want := []string{"Orders Orders id,amount", "orders_3 orders id,total", "orders_2 orders_2 id"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entities (-want +got):\n%s", diff)
	}
}

// TestCheckInOut: a stay's check-in and check-out are its start and end
// (found from outside: a hotel's check_in and check_out had no role, so
// the length of a stay could not be read); a checkout alone stays an
// event.
func TestCheckInOut(t *testing.T) {
	date := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeDate} }
	e := semantic.Entity{Columns: []semantic.Column{date("check_in"), date("check_out"), date("booked_at")}}
	checkInOut(&e)
	if e.Columns[0].TimeRole != semantic.TimeRoleStart || e.Columns[1].TimeRole != semantic.TimeRoleEnd {
		t.Errorf("roles %q %q; want start and end", e.Columns[0].TimeRole, e.Columns[1].TimeRole)
	}
	lib := semantic.Entity{Columns: []semantic.Column{{Name: "checkout_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, date("due_date")}}
	checkInOut(&lib)
	if lib.Columns[0].TimeRole != semantic.TimeRoleEvent {
		t.Errorf("a checkout alone: %q; want event", lib.Columns[0].TimeRole)
	}
}

// TestInferRelationshipsInAFamily: a table named with a family's prefix
// ("amer_sales_orders_2019") refers by naming to its own family's table
// ("amer_sales_customers"), not to a table of the same name outside it
// (found from outside: every regional copy joined the core customers, a
// join across regions); a table with no family's table of the name
// still refers to the plain one.
func TestInferRelationshipsInAFamily(t *testing.T) {
	keyed := func(name string, cols ...string) quarry.TableInfo {
		t := quarry.TableInfo{Name: name, PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{col("id", "INTEGER")}}
		for _, c := range cols {
			t.Columns = append(t.Columns, col(c, "INTEGER"))
		}
		return t
	}
	cat := &quarry.Catalog{Tables: []quarry.TableInfo{
		keyed("customers"), keyed("orders", "customer_id"),
		keyed("amer_sales_customers"), keyed("amer_sales_orders_2019", "customer_id"), keyed("amer_sales_returns", "customer_id"),
		keyed("emea_sales_orders", "customer_id"), // no emea customers: the plain one
		keyed("amer_hr_customers"), keyed("amer_hr_staff", "customer_id"),
		keyed("sales_orders", "order_id"), keyed("sales_order_lines", "order_id"), // not itself: the plain orders
	}}
	var got []string
	for _, r := range infer(cat).relationships {
		got = append(got, r.From+"."+r.FromColumn+" -> "+r.To)
	}
	want := []string{
		"orders.customer_id -> customers",
		"amer_sales_orders_2019.customer_id -> amer_sales_customers",
		"amer_sales_returns.customer_id -> amer_sales_customers",
		"emea_sales_orders.customer_id -> customers",
		"amer_hr_staff.customer_id -> amer_hr_customers",
		"sales_orders.order_id -> orders",
		"sales_order_lines.order_id -> sales_orders",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("relationships (-want +got):\n%s", diff)
	}
}
