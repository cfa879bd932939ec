package semantic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestCompileRefuses(t *testing.T) {
	m := loadModel(t)
	cases := []struct {
		name string
		q    Query
		kind quarry.Kind
		msg  string // a part of the message
	}{
		{"restricted filter", Query{Metrics: []string{"customers"}, Filters: []Filter{{Field: "customers.email", Op: OpLike, Values: str("@example")}}}, quarry.KindForbidden, "customers.email is restricted by policy"},
		{"restricted dimension", Query{Metrics: []string{"customers"}, Dimensions: []DimRef{{Name: "customers.email"}}}, quarry.KindForbidden, "customers.email is restricted"},
		{"restricted rows column", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"name", "email"}}}, quarry.KindForbidden, "customers.email is restricted"},
		{"restricted rows order", Query{Rows: &RowsQuery{Entity: "employees"}, Order: []Order{{Field: "salary", Desc: true}}}, quarry.KindForbidden, "employees.salary is restricted"},
		{"restricted via dimension", Query{Metrics: []string{"tickets"}, Dimensions: []DimRef{{Name: "employees.salary"}}}, quarry.KindForbidden, "employees.salary"},
		{"unknown metric", Query{Metrics: []string{"profit"}}, quarry.KindInput, `unknown metric "profit"`},
		{"unknown field", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "colour"}}}, quarry.KindInput, `unknown field "colour"`},
		{"unknown column", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "orders.colour"}}}, quarry.KindInput, "has no column"},
		{"no metrics", Query{}, quarry.KindInput, "at least one metric"},
		{"bad grain", Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "month", Grain: "fortnight"}}}, quarry.KindInput, "unknown time grain"},
		{"order not in result", Query{Metrics: []string{"revenue"}, Order: []Order{{Field: "orders"}}}, quarry.KindInput, "cannot sort by orders"},
		{"negative limit", Query{Metrics: []string{"revenue"}, Limit: -1}, quarry.KindInput, "limit"},
		{"in without values", Query{Metrics: []string{"revenue"}, Filters: []Filter{{Field: "country", Op: OpIn}}}, quarry.KindInput, "at least one value"},
		{"eq without value", Query{Metrics: []string{"revenue"}, Filters: []Filter{{Field: "country", Op: OpEq}}}, quarry.KindInput, "takes 1 value"},
		{"bad value type", Query{Metrics: []string{"revenue"}, Filters: []Filter{{Field: "country", Op: OpEq, Values: []any{[]int{1}}}}}, quarry.KindInput, "cannot be used"},
		{"bad operator", Query{Metrics: []string{"revenue"}, Filters: []Filter{{Field: "country", Op: "~"}}}, quarry.KindInput, "unknown filter operator"},
		{"rows with metrics", Query{Metrics: []string{"revenue"}, Rows: &RowsQuery{Entity: "orders"}}, quarry.KindInput, "rows query"},
		{"rows by many side", Query{Rows: &RowsQuery{Entity: "customers"}, Filters: []Filter{{Field: "category", Op: OpEq, Values: str("Books")}}}, quarry.KindUnsupported, "repeat rows"},
		{"unknown dialect", Query{Metrics: []string{"revenue"}}, quarry.KindUnsupported, "dialect"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := quarry.DialectSQLite
			if tc.name == "unknown dialect" {
				d = "oracle"
			}
			c, err := Compile(m, tc.q, d)
			if err == nil {
				t.Fatalf("compiled, want a %s error:\n%s", tc.kind, c.SQL)
			}
			if k := quarry.KindOf(err); k != tc.kind {
				t.Errorf("kind %s, want %s (%v)", k, tc.kind, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("message %q does not say %q", err, tc.msg)
			}
		})
	}
}

func TestRestrictedAggregate(t *testing.T) {
	m := loadModel(t)
	m.Metrics = append(m.Metrics, Metric{Name: "payroll", Entity: "employees", Expr: "SUM(employees.salary)"},
		Metric{Name: "well_paid", Entity: "employees", Expr: "COUNT(employees.id)", Filters: []string{"employees.salary > 100"}},
		Metric{Name: "payroll_per_ticket", Derived: "{payroll} / {tickets}"})
	for _, name := range []string{"payroll", "well_paid", "payroll_per_ticket"} {
		_, err := Compile(m, Query{Metrics: []string{name}}, quarry.DialectPostgres)
		if quarry.KindOf(err) != quarry.KindForbidden || !strings.Contains(quarry.Message(err), "employees.salary is restricted by policy") {
			t.Errorf("%s: got %v, want a refusal naming employees.salary", name, err)
		}
	}
}

func TestSchemaQualifiedTable(t *testing.T) {
	m := &Model{
		Entities: []Entity{{Name: "orders", Schema: "sales", Table: "Orders", Columns: []Column{{Name: "id"}}}},
		Metrics:  []Metric{{Name: "n", Expr: "COUNT(orders.id)"}},
	}
	c, err := Compile(m, Query{Metrics: []string{"n"}}, quarry.DialectPostgres)
	if err != nil {
		t.Fatal(err)
	}
	if want := "SELECT COUNT(orders.id) AS n\nFROM sales.\"Orders\" AS orders"; c.SQL != want {
		t.Errorf("got %q, want %q", c.SQL, want)
	}
	// A table whose own name holds a dot is one name, never a schema.
	m.Entities[0].Schema, m.Entities[0].Table = "", "sales.Orders"
	if c, err = Compile(m, Query{Metrics: []string{"n"}}, quarry.DialectPostgres); err != nil {
		t.Fatal(err)
	}
	if want := "SELECT COUNT(orders.id) AS n\nFROM \"sales.Orders\" AS orders"; c.SQL != want {
		t.Errorf("got %q, want %q", c.SQL, want)
	}
}

func TestNoTimeAxis(t *testing.T) {
	m := loadModel(t)
	m.Entity("subscriptions").TimeColumn = ""
	for _, q := range []Query{
		{Metrics: []string{"mrr"}, Dimensions: []DimRef{{Name: "month"}}},
		{Metrics: []string{"mrr"}, TimeRange: q1},
		{Metrics: []string{"revenue", "mrr"}, Compare: []Period{jan, feb}},
	} {
		_, err := Compile(m, q, quarry.DialectSQLite)
		if quarry.KindOf(err) != quarry.KindInput || !strings.Contains(quarry.Message(err), "metric mrr has no time dimension") {
			t.Errorf("%+v: got %v", q, err)
		}
	}
}

func TestNoJoinPath(t *testing.T) {
	m := loadModel(t)
	m.Entities = append(m.Entities, Entity{Name: "weather", Columns: []Column{{Name: "city"}, {Name: "temp"}}})
	m.Dimensions = append(m.Dimensions, Dimension{Name: "temp", Entity: "weather", Expr: "weather.temp"})
	_, err := Compile(m, Query{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "temp"}}}, quarry.DialectSQLite)
	want := "no relationship joins order_items to weather; add one under relationships in the knowledge folder"
	if err == nil || quarry.Message(err) != want || quarry.KindOf(err) != quarry.KindConfig {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// Two foreign keys from tickets to employees: the first declared wins and
// a note says so; the second one stays usable by reordering.
func TestAmbiguousPathNote(t *testing.T) {
	m := loadModel(t)
	for i := range m.Entities {
		if m.Entities[i].Name == "support_tickets" {
			m.Entities[i].Columns = append(m.Entities[i].Columns, Column{Name: "reviewer_id", Type: quarry.TypeInt})
		}
	}
	m.Relationships = append(m.Relationships, Relationship{From: "support_tickets", FromColumn: "reviewer_id", To: "employees", ToColumn: "id", Cardinality: ManyToOne})
	c, err := Compile(m, Query{Metrics: []string{"tickets"}, Dimensions: []DimRef{{Name: "department"}}}, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.SQL, "employees.id = support_tickets.assignee_id") {
		t.Errorf("did not join through the first declared key:\n%s", c.SQL)
	}
	want := []string{"employees reached through support_tickets.assignee_id = employees.id, the relationship declared first; support_tickets.reviewer_id = employees.id would also join it"}
	if diff := cmp.Diff(want, c.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// A path with no fan-out wins over an equally short one with fan-out.
func TestPathPrefersNoFanOut(t *testing.T) {
	m := &Model{
		Entities: []Entity{
			{Name: "a", PrimaryKey: "id", Columns: []Column{{Name: "id"}, {Name: "b_id"}}},
			{Name: "b", PrimaryKey: "id", Columns: []Column{{Name: "id"}, {Name: "x"}}},
			{Name: "c", PrimaryKey: "id", Columns: []Column{{Name: "id"}, {Name: "a_id"}, {Name: "b_id"}}},
		},
		Relationships: []Relationship{
			{From: "c", FromColumn: "a_id", To: "a", ToColumn: "id", Cardinality: ManyToOne},
			{From: "c", FromColumn: "b_id", To: "b", ToColumn: "id", Cardinality: ManyToOne},
			{From: "a", FromColumn: "b_id", To: "b", ToColumn: "id", Cardinality: ManyToOne},
		},
		Metrics: []Metric{{Name: "n", Entity: "a", Expr: "COUNT(a.id)"}},
	}
	c, err := Compile(m, Query{Metrics: []string{"n"}, Dimensions: []DimRef{{Name: "b.x"}}}, quarry.DialectPostgres)
	if err != nil {
		t.Fatal(err)
	}
	want := "SELECT b.x AS x, COUNT(a.id) AS n\nFROM a\nLEFT JOIN b ON b.id = a.b_id\nGROUP BY b.x\nORDER BY x"
	if diff := cmp.Diff(want, c.SQL); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCompiledColumns(t *testing.T) {
	m := loadModel(t)
	c, err := Compile(m, Query{Metrics: []string{"revenue", "average_order_value"}, Dimensions: []DimRef{{Name: "month"}}, Compare: []Period{jan, feb}, Share: true}, quarry.DialectDuckDB)
	if err != nil {
		t.Fatal(err)
	}
	want := []OutColumn{
		{Name: "period", Role: RolePeriod},
		{Name: "month", Role: RoleDimension, Format: "date", Grain: GrainMonth},
		{Name: "revenue", Role: RoleMetric, Format: "currency"},
		{Name: "average_order_value", Role: RoleMetric, Format: "currency"},
		{Name: "revenue_share", Role: RoleShare, Format: "percent"},
		{Name: "average_order_value_share", Role: RoleShare, Format: "percent"},
	}
	if diff := cmp.Diff(want, c.Columns); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestQuotingAndLiterals(t *testing.T) {
	m := &Model{
		Entities: []Entity{{Name: "Order", Table: "sales order", Columns: []Column{{Name: "id"}, {Name: "group"}, {Name: "Amount"}}}},
		Metrics:  []Metric{{Name: "total", Expr: "SUM(Order.Amount)"}},
	}
	q := Query{Metrics: []string{"total"}, Dimensions: []DimRef{{Name: "Order.group"}}, Filters: []Filter{{Field: "Order.group", Op: OpIn, Values: []any{"it's", `back\slash`, 3.5, int64(7)}}}}
	want := map[quarry.Dialect]string{
		quarry.DialectSQLite: "SELECT \"Order\".\"group\" AS \"group\", SUM(\"Order\".\"Amount\") AS total\nFROM \"sales order\" AS \"Order\"\n" +
			"WHERE \"Order\".\"group\" IN ('it''s', 'back\\slash', 3.5, 7)\nGROUP BY \"Order\".\"group\"\nORDER BY \"group\"",
		quarry.DialectMySQL: "SELECT `Order`.`group` AS `group`, SUM(`Order`.`Amount`) AS total\nFROM `sales order` AS `Order`\n" +
			"WHERE `Order`.`group` IN ('it''s', 'back\\\\slash', 3.5, 7)\nGROUP BY `Order`.`group`\nORDER BY `group`",
	}
	for d, w := range want {
		c, err := Compile(m, q, d)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(w, c.SQL); diff != "" {
			t.Errorf("%s (-want +got):\n%s", d, diff)
		}
	}
}

func TestRewriteRefsSkipsLiterals(t *testing.T) {
	m := &Model{Entities: []Entity{{Name: "orders", Columns: []Column{{Name: "status"}, {Name: "id"}}}}}
	isEnt := refNamesOf(m, m.Entity)
	got, refs := rewriteRefs("CASE WHEN orders.status = 'orders.status' THEN 1.5 ELSE x.y END + orders.id", isEnt, false, func(r colRef) string { return "[" + r.String() + "]" })
	want := "CASE WHEN [orders.status] = 'orders.status' THEN 1.5 ELSE x.y END + [orders.id]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if diff := cmp.Diff([]colRef{{"orders", "status"}, {"orders", "id"}}, refs); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}
	got, _ = rewriteRefs("'it''s orders.id' || orders.id", isEnt, false, func(r colRef) string { return "X" })
	if want := "'it''s orders.id' || X"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestRenderDerived(t *testing.T) {
	ref := func(n string) string { return "m." + n }
	guard := func(x string) string { return "NULLIF(" + x + ", 0)" }
	cases := map[string]string{
		"{a} / {b}":          "m.a / NULLIF(m.b, 0)",
		"{a}/({b} - {c})":    "m.a/NULLIF((m.b - m.c), 0)",
		"100 * {a} / {b} /2": "100 * m.a / NULLIF(m.b, 0) /NULLIF(2, 0)",
		"{a} + {b}":          "m.a + m.b",
	}
	for in, want := range cases {
		if got := renderDerived(in, ref, guard); got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}
