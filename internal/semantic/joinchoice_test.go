package semantic

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// twoRoutesModel reaches regions from claims two ways of equal length:
// through the policy's agent and through the policy's holder (found from
// outside: "claims in the Northeast" counted by the agent's region).
func twoRoutesModel() *Model {
	cols := func(names ...string) []Column {
		out := make([]Column, len(names))
		for i, n := range names {
			out[i] = Column{Name: n}
		}
		return out
	}
	return &Model{
		Entities: []Entity{
			{Name: "regions", Table: "regions", PrimaryKey: "region_id", Columns: cols("region_id", "region_name")},
			{Name: "agents", Table: "agents", PrimaryKey: "agent_id", Columns: cols("agent_id", "region_id")},
			{Name: "policyholders", Table: "policyholders", PrimaryKey: "holder_id", Columns: cols("holder_id", "region_id")},
			{Name: "policies", Table: "policies", PrimaryKey: "policy_id", Columns: cols("policy_id", "agent_id", "holder_id")},
			{Name: "claims", Table: "claims", PrimaryKey: "claim_id", Columns: cols("claim_id", "policy_id")},
		},
		Relationships: []Relationship{
			{Name: "region", From: "agents", FromColumn: "region_id", To: "regions", ToColumn: "region_id", Cardinality: ManyToOne},
			{Name: "policy", From: "claims", FromColumn: "policy_id", To: "policies", ToColumn: "policy_id", Cardinality: ManyToOne},
			{Name: "agent", From: "policies", FromColumn: "agent_id", To: "agents", ToColumn: "agent_id", Cardinality: ManyToOne},
			{Name: "holder", From: "policies", FromColumn: "holder_id", To: "policyholders", ToColumn: "holder_id", Cardinality: ManyToOne},
			{Name: "region", From: "policyholders", FromColumn: "region_id", To: "regions", ToColumn: "region_id", Cardinality: ManyToOne},
		},
		Metrics: []Metric{{Name: "count_claims", Entity: "claims", Expr: "COUNT(claims.claim_id)"}},
	}
}

// TestPreferringTheOtherRoute: where two routes of the same length reach
// an entity and differ before their last step, the compiler records the
// choice, and preferring the route not taken joins through it: the
// join_path check's control query must read the other route, not the
// same SQL again (which made the check say nothing).
func TestPreferringTheOtherRoute(t *testing.T) {
	m := twoRoutesModel()
	q := Query{Metrics: []string{"count_claims"}, Filters: []Filter{{Field: "regions.region_name", Op: "=", Values: []any{"Northeast"}}}}
	c, err := Compile(m, q, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Choices) != 1 || !strings.Contains(c.SQL, "agents.region_id") {
		t.Fatalf("choices %+v\n%s", c.Choices, c.SQL)
	}
	other, err := Compile(m.Preferring(c.Choices[0].OtherPath...), q, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(other.SQL, "JOIN policyholders ON policyholders.holder_id = policies.holder_id") || !strings.Contains(other.SQL, "regions.region_id = policyholders.region_id") || strings.Contains(other.SQL, "agents") {
		t.Errorf("the route not taken:\n%s", other.SQL)
	}
	// The route taken, preferred, is the same SQL.
	same, err := Compile(m.Preferring(c.Choices[0].UsedPath...), q, quarry.DialectSQLite)
	if err != nil || same.SQL != c.SQL {
		t.Errorf("the route taken, preferred: %v\n%s", err, same.SQL)
	}
}

// TestNamedRoute: where the question names a table on the route not
// declared first and none on the other ("claims of policyholders in the
// Northeast", "tickets handled by agents in the Billing team" — found
// from outside: that one counted tickets by the products' team), the
// compiler joins through it, says why, and records the choice with the
// original indices; a table on both routes or on neither decides nothing,
// and Preferring still reads the route asked for.
func TestNamedRoute(t *testing.T) {
	m := twoRoutesModel()
	northeast := Filter{Field: "regions.region_name", Op: "=", Values: []any{"Northeast"}}
	for _, tt := range []struct {
		name   string
		q      Query
		holder bool     // joined through the policyholders
		named  []string // JoinChoice.Named
	}{
		{"nothing named", Query{Metrics: []string{"count_claims"}, Filters: []Filter{northeast}}, false, nil},
		{"via the holders", Query{Metrics: []string{"count_claims"}, Filters: []Filter{northeast}, Via: []string{"policyholders"}}, true, []string{"policyholders"}},
		{"via the agents", Query{Metrics: []string{"count_claims"}, Filters: []Filter{northeast}, Via: []string{"agents"}}, false, []string{"agents"}},
		{"filtered by a holder column", Query{Metrics: []string{"count_claims"}, Filters: []Filter{northeast, {Field: "policyholders.holder_id", Op: "=", Values: []any{7}}}}, true, []string{"policyholders"}},
		{"grouped by a holder column", Query{Metrics: []string{"count_claims"}, Dimensions: []DimRef{{Name: "policyholders.holder_id"}, {Name: "regions.region_name"}}}, true, []string{"policyholders"}},
		{"only a table on both routes", Query{Metrics: []string{"count_claims"}, Filters: []Filter{northeast}, Via: []string{"policies"}}, false, nil},
	} {
		c, err := Compile(m, tt.q, quarry.DialectSQLite)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := strings.Contains(c.SQL, "regions.region_id = policyholders.region_id"); got != tt.holder {
			t.Errorf("%s: through the holders %v, want %v:\n%s", tt.name, got, tt.holder, c.SQL)
		}
		if len(c.Choices) != 1 {
			t.Fatalf("%s: choices %+v", tt.name, c.Choices)
		}
		ch := c.Choices[0]
		if !slices.Equal(ch.Named, tt.named) {
			t.Errorf("%s: named %v, want %v", tt.name, ch.Named, tt.named)
		}
		// The indices are m's: the route used ends with the relationship
		// that enters regions from the table it came through.
		if r := m.Relationships[ch.Used]; r.To != "regions" || (r.From == "policyholders") != tt.holder {
			t.Errorf("%s: used %d (%+v)", tt.name, ch.Used, r)
		}
		declared := strings.Contains(strings.Join(c.Notes, "\n"), "declared first")
		if declared != (tt.named == nil) || (tt.named != nil) != strings.Contains(strings.Join(c.Notes, "\n"), "which the question names") {
			t.Errorf("%s: notes %q", tt.name, c.Notes)
		}
		// The control query of the join_path check reads the other route.
		other, err := CompileAsDeclared(m.Preferring(ch.OtherPath...), tt.q, quarry.DialectSQLite)
		if err != nil || other.SQL == c.SQL {
			t.Errorf("%s: the other route: %v\n%s", tt.name, err, other.SQL)
		}
	}
}

// marketModel: orders reach regions through their buyer (two joins) and
// through their listing's seller (three).
func marketModel() *Model {
	cols := func(names ...string) []Column {
		out := make([]Column, len(names))
		for i, n := range names {
			out[i] = Column{Name: n}
		}
		return out
	}
	return &Model{
		Entities: []Entity{
			{Name: "regions", Table: "regions", PrimaryKey: "id", Columns: cols("id", "name")},
			{Name: "buyers", Table: "buyers", PrimaryKey: "id", Columns: cols("id", "region_id")},
			{Name: "sellers", Table: "sellers", PrimaryKey: "id", Columns: cols("id", "region_id")},
			{Name: "listings", Table: "listings", PrimaryKey: "id", Columns: cols("id", "seller_id")},
			{Name: "orders", Table: "orders", PrimaryKey: "id", Columns: cols("id", "listing_id", "buyer_id")},
		},
		Relationships: []Relationship{
			{From: "orders", FromColumn: "buyer_id", To: "buyers", ToColumn: "id", Cardinality: ManyToOne},
			{From: "buyers", FromColumn: "region_id", To: "regions", ToColumn: "id", Cardinality: ManyToOne},
			{From: "orders", FromColumn: "listing_id", To: "listings", ToColumn: "id", Cardinality: ManyToOne},
			{From: "listings", FromColumn: "seller_id", To: "sellers", ToColumn: "id", Cardinality: ManyToOne},
			{From: "sellers", FromColumn: "region_id", To: "regions", ToColumn: "id", Cardinality: ManyToOne},
		},
		Metrics: []Metric{{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"}},
	}
}

// TestViaALongerRoute: a table the query goes through that the shortest
// way does not pass (found from outside: "orders of sellers in the West"
// said "through sellers" and counted by the buyers' region, 859 against
// 440) is joined, by the longer way; grouped too. A table that leads
// nowhere the query goes is refused, never passed over.
func TestViaALongerRoute(t *testing.T) {
	m := marketModel()
	west := []Filter{{Field: "regions.name", Op: "=", Values: []any{"West"}}}
	for _, q := range []Query{
		{Metrics: []string{"orders"}, Filters: west, Via: []string{"sellers"}},
		{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "regions.name"}}, Via: []string{"sellers"}},
	} {
		c, err := Compile(m, q, quarry.DialectSQLite)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(c.SQL, "LEFT JOIN regions ON regions.id = sellers.region_id") || strings.Contains(c.SQL, "buyers") {
			t.Errorf("through sellers:\n%s", c.SQL)
		}
	}
	if c, err := Compile(m, Query{Metrics: []string{"orders"}, Filters: west}, quarry.DialectSQLite); err != nil || !strings.Contains(c.SQL, "buyers.region_id") {
		t.Errorf("no way named, the shortest: %v\n%v", err, c)
	}
	if _, err := Compile(m, Query{Metrics: []string{"orders"}, Filters: west, Via: []string{"listings", "buyers"}}, quarry.DialectSQLite); err == nil {
		t.Error("through listings and buyers at once: answered")
	}
	// Both routes of one length named: which, the question does not say.
	tr := twoRoutesModel()
	if _, err := Compile(tr, Query{Metrics: []string{"count_claims"}, Filters: []Filter{{Field: "regions.region_name", Op: "=", Values: []any{"Northeast"}}}, Via: []string{"agents", "policyholders"}}, quarry.DialectSQLite); err == nil || !strings.Contains(quarry.Message(err), "both") {
		t.Errorf("through agents and policyholders at once: %v", err)
	}
}

// TestThreeRoutes: a table reached three ways as good as each other (an
// order's city through its customer, its courier or its restaurant)
// records a choice for each route passed over, not only the last one
// found (found from outside: "orders by city" offered the couriers' and
// the customers' city, never the restaurant's, and "orders from Sakura in
// Madrid" read the couriers' city though the question named the
// restaurant).
func TestThreeRoutes(t *testing.T) {
	cols := func(names ...string) []Column {
		out := make([]Column, len(names))
		for i, n := range names {
			out[i] = Column{Name: n}
		}
		return out
	}
	ref := func(from, col, to string) Relationship {
		return Relationship{From: from, FromColumn: col, To: to, ToColumn: "id", Cardinality: ManyToOne}
	}
	m := &Model{
		Entities: []Entity{
			{Name: "cities", Table: "cities", PrimaryKey: "id", Columns: cols("id", "name")},
			{Name: "customers", Table: "customers", PrimaryKey: "id", Columns: cols("id", "city_id")},
			{Name: "restaurants", Table: "restaurants", PrimaryKey: "id", Columns: cols("id", "name", "city_id")},
			{Name: "couriers", Table: "couriers", PrimaryKey: "id", Columns: cols("id", "city_id")},
			{Name: "orders", Table: "orders", PrimaryKey: "id", Columns: cols("id", "customer_id", "restaurant_id", "courier_id")},
		},
		Relationships: []Relationship{
			ref("restaurants", "city_id", "cities"), ref("couriers", "city_id", "cities"), ref("customers", "city_id", "cities"),
			ref("orders", "customer_id", "customers"), ref("orders", "restaurant_id", "restaurants"), ref("orders", "courier_id", "couriers"),
		},
		Metrics: []Metric{{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	byCity := Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "cities.name"}}}
	c, err := Compile(m, byCity, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Choices) != 2 {
		t.Fatalf("choices %+v, want one for each of the two routes passed over", c.Choices)
	}
	via := map[string]bool{}
	for _, ch := range c.Choices {
		if ch.Used != c.Choices[0].Used || !slices.Equal(ch.UsedPath, c.Choices[0].UsedPath) {
			t.Errorf("choice %+v: another route used than %+v", ch, c.Choices[0])
		}
		via[m.Relationships[ch.Other].From] = true
	}
	via[m.Relationships[c.Choices[0].Used].From] = true
	if len(via) != 3 {
		t.Errorf("routes %v, want customers, restaurants and couriers", via)
	}
	// The restaurant named, its city is the one read.
	sakura := Query{Metrics: []string{"orders"}, Filters: []Filter{{Field: "restaurants.name", Op: "=", Values: []any{"Sakura"}}, {Field: "cities.name", Op: "=", Values: []any{"Madrid"}}}}
	c, err = Compile(m, sakura, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.SQL, "cities.id = restaurants.city_id") || strings.Contains(c.SQL, "couriers") || strings.Contains(c.SQL, "customers") {
		t.Errorf("the restaurant's city:\n%s", c.SQL)
	}
	for _, ch := range c.Choices {
		if !slices.Equal(ch.Named, []string{"restaurants"}) {
			t.Errorf("choice %+v: named %v, want restaurants", ch, ch.Named)
		}
	}
}

// TestOwnReferenceNoLongerChoice: rows with their own reference to a
// table (orders.restaurant_id) belong to its row; the same table reached
// one join further, through a row they name (the restaurant of the staff
// member an order names as its manager), is another thing, and no choice
// for the join_path check to put to the question (found from outside:
// every grouping of orders by restaurant warned that the manager's
// restaurant differs, at 0.85). Two routes through other tables, one a
// join longer, still are (TestViaALongerRoute, marketModel).
func TestOwnReferenceNoLongerChoice(t *testing.T) {
	cols := func(names ...string) []Column {
		out := make([]Column, len(names))
		for i, n := range names {
			out[i] = Column{Name: n}
		}
		return out
	}
	m := &Model{
		Entities: []Entity{
			{Name: "restaurants", Table: "restaurants", PrimaryKey: "id", Columns: cols("id", "name")},
			{Name: "staff", Table: "staff", PrimaryKey: "id", Columns: cols("id", "restaurant_id")},
			{Name: "orders", Table: "orders", PrimaryKey: "id", Columns: cols("id", "restaurant_id", "manager_id")},
		},
		Relationships: []Relationship{
			{From: "orders", FromColumn: "restaurant_id", To: "restaurants", ToColumn: "id", Cardinality: ManyToOne},
			{From: "orders", FromColumn: "manager_id", To: "staff", ToColumn: "id", Cardinality: ManyToOne},
			{From: "staff", FromColumn: "restaurant_id", To: "restaurants", ToColumn: "id", Cardinality: ManyToOne},
		},
		Metrics: []Metric{{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"}},
	}
	c, err := Compile(m, Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "restaurants.name"}}}, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Choices) != 0 || !strings.Contains(c.SQL, "restaurants.id = orders.restaurant_id") {
		t.Errorf("choices %+v\n%s", c.Choices, c.SQL)
	}
	mm := marketModel()
	if c, err := Compile(mm, Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "regions.name"}}}, quarry.DialectSQLite); err != nil || len(c.Choices) != 1 || !c.Choices[0].Longer {
		t.Errorf("buyers' region, or sellers' a join further: %v %+v", err, c)
	}
}
