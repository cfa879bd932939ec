package analyst

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPathCheck: tickets join employees by assignee and by opener, equally
// well; the compiler takes the one declared first. Grouped by the
// employee's department, the two paths give different answers, and the
// check says so; counted without the employees, they agree.
func TestPathCheck(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE employees (id INTEGER PRIMARY KEY, department TEXT);
CREATE TABLE tickets (id INTEGER PRIMARY KEY, assignee_id INTEGER, opener_id INTEGER);
INSERT INTO employees VALUES (1, 'Support'), (2, 'Sales');
INSERT INTO tickets VALUES (1, 1, 2), (2, 1, 2), (3, 2, 2);`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "employees", Table: "employees", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "department", Type: quarry.TypeText}}},
			{Name: "tickets", Table: "tickets", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "assignee_id", Type: quarry.TypeInt}, {Name: "opener_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{From: "tickets", FromColumn: "assignee_id", To: "employees", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "tickets", FromColumn: "opener_id", To: "employees", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
		Metrics:    []semantic.Metric{{Name: "tickets", Entity: "tickets", Expr: "COUNT(tickets.id)"}},
		Dimensions: []semantic.Dimension{{Name: "department", Entity: "employees", Expr: "employees.department"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	check := func(q semantic.Query) (string, string) {
		ch := runCheck(t, a, m, q, a.PathCheck)
		return ch.Status, ch.Detail
	}
	status, detail := check(semantic.Query{Metrics: []string{"tickets"}, Dimensions: []semantic.DimRef{{Name: "department"}}})
	if status != "warn" || !strings.Contains(detail, "tickets.opener_id = employees.id the result differs") || !strings.Contains(detail, "control query: SELECT") {
		t.Errorf("tickets by department: %s %q", status, detail)
	}
	if status, detail := check(semantic.Query{Metrics: []string{"tickets"}}); status != "" {
		t.Errorf("tickets in all, no join: %s %q", status, detail)
	}
}
