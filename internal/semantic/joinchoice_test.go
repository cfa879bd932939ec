package semantic

import (
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
