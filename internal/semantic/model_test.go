package semantic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestValidateTestModel(t *testing.T) {
	if ps := loadModel(t).Validate(); len(ps) != 0 {
		t.Fatalf("the test model has problems: %v", ps)
	}
}

func TestValidateProblems(t *testing.T) {
	m := loadModel(t)
	m.Entities = append(m.Entities, Entity{Name: "orders", Columns: []Column{{Name: "id"}}})
	m.Relationships = append(m.Relationships,
		Relationship{From: "orders", FromColumn: "shop_id", To: "shops", ToColumn: "id", Cardinality: "many_to_few"})
	m.Metrics = append(m.Metrics,
		Metric{Name: "profit", Expr: "SUM(order_items.margin) + SUM(ordrs.x)", Filters: []string{"orders.state = 'x'; DROP TABLE t"}},
		Metric{Name: "loop_a", Derived: "{loop_b} / {revenue}"},
		Metric{Name: "loop_b", Derived: "{loop_a} * 2"},
		Metric{Name: "ghost", Derived: "{nothing}"},
		Metric{Name: "empty"},
		Metric{Name: "late", Entity: "orders", Expr: "COUNT(orders.id)", Time: "orders.shipped_at"},
		Metric{Name: "items_wrong_grain", Entity: "orders", Expr: "SUM(order_items.quantity)"},
		Metric{Name: "revenue", Expr: "SUM(orders.id)"},
	)
	m.Dimensions = append(m.Dimensions, Dimension{Name: "when", Entity: "orders", Expr: "orders.ordered_at", Grains: []Grain{"hour"}})
	m.Restricted = append(m.Restricted, "customers.password", "nodot")
	want := []Problem{
		{"entities[orders]", "entity orders is defined twice"},
		{"relationships[10].from_column", `join column "shop_id" is not a column of orders`},
		{"relationships[10].to", `"shops" is not an entity`},
		{"relationships[10].cardinality", `cardinality "many_to_few" is not one of many_to_one, one_to_one, one_to_many, many_to_many`},
		{"metrics[profit].expr", "order_items.margin: entity order_items has no column \"margin\""},
		{"metrics[profit].expr", `ordrs.x refers to "ordrs", which is not an entity`},
		{"metrics[profit].filters[0]", "an expression may not contain ';' or comments"},
		{"metrics[profit].filters[0]", `orders.state: entity orders has no column "state"`},
		{"metrics[ghost].derived", "{nothing} is not a metric"},
		{"metrics[empty]", "a metric needs an expr (an aggregate) or derived (an expression over other metrics)"},
		{"metrics[late].time", `time "shipped_at" is not a column of orders`},
		{"metrics[items_wrong_grain].expr", "the aggregate reads order_items.quantity, which is on the many side of orders; set the metric's entity to order_items"},
		{"metrics[revenue]", "metric revenue is defined twice"},
		{"metrics[loop_a].derived", "derived metrics refer to each other in a cycle"},
		{"metrics[loop_b].derived", "derived metrics refer to each other in a cycle"},
		{"dimensions[when].grains", `grain "hour" is not one of day, week, month, quarter, year`},
		{"restricted[2]", `customers has no column "password"`},
		{"restricted[3]", `"nodot" must be written table.column`},
	}
	if diff := cmp.Diff(want, m.Validate()); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestResolveField(t *testing.T) {
	m := loadModel(t)
	cases := []struct {
		ref  string
		kind FieldKind
		name string
	}{
		{"revenue", FieldMetric, "revenue"},
		{"Revenue", FieldMetric, "revenue"},
		{"customers", FieldMetric, "customers"}, // metrics win over entity names
		{"country", FieldDimension, "country"},
		{"orders.channel", FieldColumn, "orders.channel"},
		{"ORDERS.Channel", FieldColumn, "orders.channel"},
	}
	for _, tc := range cases {
		f, err := m.ResolveField(tc.ref)
		if err != nil {
			t.Errorf("%s: %v", tc.ref, err)
			continue
		}
		if f.Kind != tc.kind || f.Name() != tc.name {
			t.Errorf("%s: got %s %s, want %s %s", tc.ref, f.Kind, f.Name(), tc.kind, tc.name)
		}
	}
	for _, ref := range []string{"colour", "shops.id", "orders.colour", ""} {
		if _, err := m.ResolveField(ref); quarry.KindOf(err) != quarry.KindInput {
			t.Errorf("%q: got %v, want an input error", ref, err)
		}
	}
}

func TestLookups(t *testing.T) {
	m := loadModel(t)
	if e := m.Entity("Customers"); e == nil || e.Name != "customers" || e.TableName() != "customers" {
		t.Errorf("Entity(Customers) = %+v", e)
	}
	if m.Entity("clients") != nil {
		t.Error("synonyms are the planner's business, not a lookup")
	}
	if mt := m.Metric("mrr"); mt == nil || mt.Entity != "subscriptions" {
		t.Errorf("Metric(mrr) = %+v", mt)
	}
	if d := m.Dimension("plan"); d == nil || d.Expr != "plans.name" {
		t.Errorf("Dimension(plan) = %+v", d)
	}
	if m.Metric("nope") != nil || m.Dimension("nope") != nil {
		t.Error("unknown names resolved")
	}
	for _, tc := range []struct {
		table, col string
		want       bool
	}{{"customers", "email", true}, {"CUSTOMERS", "Email", true}, {"employees", "salary", true}, {"customers", "name", false}, {"orders", "email", false}} {
		if got := m.IsRestricted(tc.table, tc.col); got != tc.want {
			t.Errorf("IsRestricted(%s, %s) = %v", tc.table, tc.col, got)
		}
	}
	m.Entities = append(m.Entities, Entity{Name: "staff", Table: "employees", Columns: []Column{{Name: "salary"}}})
	if !m.IsRestricted("staff", "salary") {
		t.Error("an entity over a restricted table's column is not restricted")
	}
}

func BenchmarkCompile(b *testing.B) {
	m := loadModel(b)
	qs := []Query{
		{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "month"}}, TimeRange: q1},
		{Metrics: []string{"average_order_value", "orders"}, Dimensions: []DimRef{{Name: "category"}}},
		{Metrics: []string{"revenue"}, Dimensions: []DimRef{{Name: "country"}}, Compare: []Period{jan, feb}, Share: true},
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Compile(m, qs[i%len(qs)], quarry.DialectSQLite); err != nil {
			b.Fatal(err)
		}
	}
}
