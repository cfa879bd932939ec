package semantic

import (
	"errors"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// shipModel is a table with two links to the same table.
func shipModel() *Model {
	return &Model{
		Entities: []Entity{
			{Name: "shipments", Table: "shipments", PrimaryKey: "shipment_id", Columns: []Column{
				{Name: "shipment_id", Type: quarry.TypeInt}, {Name: "origin_warehouse_id", Type: quarry.TypeInt},
				{Name: "destination_warehouse_id", Type: quarry.TypeInt}, {Name: "weight", Type: quarry.TypeFloat},
			}},
			{Name: "warehouses", Table: "warehouses", PrimaryKey: "warehouse_id", Label: "name", Columns: []Column{
				{Name: "warehouse_id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "city", Type: quarry.TypeText, Values: []string{"Chicago", "Rotterdam"}}, {Name: "secret_code", Type: quarry.TypeText},
			}},
		},
		Relationships: []Relationship{
			{Name: "destination_warehouse", From: "shipments", FromColumn: "destination_warehouse_id", To: "warehouses", ToColumn: "warehouse_id", Cardinality: ManyToOne},
			{Name: "origin_warehouse", From: "shipments", FromColumn: "origin_warehouse_id", To: "warehouses", ToColumn: "warehouse_id", Cardinality: ManyToOne},
		},
		Metrics:    []Metric{{Name: "shipment_count", Entity: "shipments", Expr: "COUNT(*)"}},
		Restricted: []string{"warehouses.secret_code"},
	}
}

func TestWithRolesDerivesOnePerLink(t *testing.T) {
	m := WithRoles(shipModel())
	for _, c := range []struct{ name, word, col string }{{"origin_warehouse", "origin", "origin_warehouse_id"}, {"destination_warehouse", "destination", "destination_warehouse_id"}} {
		r := m.RoleOf(c.name)
		if r == nil || r.Word != c.word || r.Of != "warehouses" || r.FromColumn != c.col || r.From != "shipments" {
			t.Fatalf("role %s = %+v", c.name, r)
		}
		if e := m.Entity(c.name); e.TableName() != "warehouses" || e.Column("city") == nil {
			t.Fatalf("role entity %s reads table %s", c.name, e.TableName())
		}
	}
	if probs := m.Validate(); len(probs) > 0 {
		t.Fatalf("the model with roles does not validate: %v", probs)
	}
	if again := WithRoles(m); len(again.Entities) != len(m.Entities) || len(again.Relationships) != len(m.Relationships) {
		t.Fatalf("WithRoles twice added %d entities", len(again.Entities)-len(m.Entities))
	}
	// One link, a link to itself, or one key declared twice: no roles.
	one := shipModel()
	one.Relationships = one.Relationships[:1]
	if got := WithRoles(one); len(got.Entities) != 2 {
		t.Fatalf("one link got role entities: %d", len(got.Entities))
	}
	twice := shipModel()
	twice.Relationships[1].FromColumn = "destination_warehouse_id"
	if got := WithRoles(twice); len(got.Entities) != 2 {
		t.Fatalf("one key declared twice got role entities: %d", len(got.Entities))
	}
}

func TestRoleCompilesToAliasedJoin(t *testing.T) {
	m := WithRoles(shipModel())
	q := Query{Metrics: []string{"shipment_count"}, Dimensions: []DimRef{{Name: "origin_warehouse.city"}, {Name: "destination_warehouse.city"}}}
	c, err := Compile(m, q, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"JOIN warehouses AS origin_warehouse ON origin_warehouse.warehouse_id = shipments.origin_warehouse_id",
		"JOIN warehouses AS destination_warehouse ON destination_warehouse.warehouse_id = shipments.destination_warehouse_id",
		"origin_warehouse.city", "destination_warehouse.city",
	} {
		if !strings.Contains(c.SQL, want) {
			t.Errorf("SQL lacks %q:\n%s", want, c.SQL)
		}
	}
	if len(c.Choices) > 0 {
		t.Errorf("a role's join is no choice: %v", c.Choices)
	}
}

// The attack: a restricted column of warehouses stays refused when it is
// reached through a role, in every place a query can name it.
func TestRoleKeepsRestrictedColumns(t *testing.T) {
	m := WithRoles(shipModel())
	for _, q := range []Query{
		{Metrics: []string{"shipment_count"}, Dimensions: []DimRef{{Name: "origin_warehouse.secret_code"}}},
		{Metrics: []string{"shipment_count"}, Filters: []Filter{{Field: "destination_warehouse.secret_code", Op: OpEq, Values: []any{"x"}}}},
		{Rows: &RowsQuery{Entity: "origin_warehouse", Columns: []string{"origin_warehouse.secret_code"}}},
		{Rows: &RowsQuery{Entity: "shipments", Columns: []string{"origin_warehouse.secret_code"}}},
	} {
		_, err := Compile(m, q, quarry.DialectSQLite)
		var qe *quarry.Error
		if !errors.As(err, &qe) || qe.Kind != quarry.KindForbidden {
			t.Errorf("%+v compiled (err %v); want it refused by the column policy", q, err)
		}
	}
	if !m.IsRestricted("origin_warehouse", "secret_code") || !m.RestrictedCheck()(m.Entity("destination_warehouse"), "secret_code") {
		t.Error("the policy does not read a role entity as its table")
	}
	// A role entity's default columns leave the restricted one out.
	for _, c := range m.defaultColumns(m.Entity("origin_warehouse")) {
		if strings.Contains(c, "secret") {
			t.Errorf("default columns of a role show %s", c)
		}
	}
}

// TestSelfLinkRole: a table's link to itself gets a role entity, joined
// under its own alias, so that the rows can be grouped by, or filtered
// on, the row they point at.
func TestSelfLinkRole(t *testing.T) {
	m := &Model{
		Entities:      []Entity{{Name: "employees", PrimaryKey: "id", Label: "name", Columns: []Column{{Name: "id", Type: "int"}, {Name: "name", Type: "text"}, {Name: "manager_id", Type: "int"}}}},
		Metrics:       []Metric{{Name: "headcount", Entity: "employees", Expr: "COUNT(employees.id)"}},
		Relationships: []Relationship{{Name: "manager", From: "employees", FromColumn: "manager_id", To: "employees", ToColumn: "id", Cardinality: ManyToOne}},
	}
	r := WithRoles(m)
	e := r.Entity("manager")
	if e == nil || e.Role == nil || e.Role.Of != "employees" {
		t.Fatalf("manager: %+v", e)
	}
	if e.Column("manager_id") != nil {
		// The manager's own manager_id is no column of the role a
		// question means (found from outside: "customers who have
		// referred at least 3 people" compared referrer.referred_by).
		t.Errorf("manager keeps manager_id")
	}
	c, err := Compile(r, Query{Metrics: []string{"headcount"}, Dimensions: []DimRef{{Name: "manager.name"}}}, "sqlite")
	if err != nil || !strings.Contains(c.SQL, "LEFT JOIN employees AS manager ON manager.id = employees.manager_id") {
		t.Errorf("%v\n%v", err, c)
	}
}

// TestSelfLinkRoleKeepsThePolicy: the attack on a self link's role is
// to read a restricted column of the table through it ("the manager's
// salary"); the role is the table, so the column policy refuses it as
// it refuses the table's own.
func TestSelfLinkRoleKeepsThePolicy(t *testing.T) {
	m := WithRoles(&Model{
		Entities:      []Entity{{Name: "employees", PrimaryKey: "id", Label: "name", Columns: []Column{{Name: "id", Type: "int"}, {Name: "name", Type: "text"}, {Name: "salary", Type: "float"}, {Name: "manager_id", Type: "int"}}}},
		Metrics:       []Metric{{Name: "headcount", Entity: "employees", Expr: "COUNT(employees.id)"}},
		Relationships: []Relationship{{Name: "manager", From: "employees", FromColumn: "manager_id", To: "employees", ToColumn: "id", Cardinality: ManyToOne}},
		Restricted:    []string{"employees.salary"},
	})
	for _, q := range []Query{
		{Metrics: []string{"headcount"}, Dimensions: []DimRef{{Name: "manager.salary"}}},
		{Metrics: []string{"headcount"}, Filters: []Filter{{Field: "manager.salary", Op: OpGt, Values: []any{100000}}}},
		{Rows: &RowsQuery{Entity: "employees", Columns: []string{"manager.salary"}}},
		{Rows: &RowsQuery{Entity: "manager", Columns: []string{"manager.name", "manager.salary"}}},
	} {
		_, err := Compile(m, q, quarry.DialectSQLite)
		var qe *quarry.Error
		if !errors.As(err, &qe) || qe.Kind != quarry.KindForbidden {
			t.Errorf("%+v compiled (err %v); want it refused by the column policy", q, err)
		}
	}
}
