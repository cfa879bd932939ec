package planner

import (
	"strings"
	"testing"
	"time"
)

// TestRoleAndKindReadings: a role naming the one link to another table
// is read as that table, and a plural value of a kind column as the rows
// of that kind; other words stay refused.
func TestRoleAndKindReadings(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q, read, note string // read empty: refused
	}{
		{"tickets by assignee", "tickets by employee", `"assignee" read as the employee of support_tickets.assignee_id`},
		{"tickets by agent last month", "tickets by employee last month", `"agent" read as the employee`},
		{"how many accountants", "how many Accountant employees", `"accountants" read as employees whose title is Accountant`},
		{"how many support agents in Finance", "how many Support Agent employees in Finance", `"support agents" read as employees whose title is Support Agent`},
		{"revenue by assignee", "", ""},
		{"customers by referrer", "", ""},
		{"employees by manager", "", ""},
		{"how many engineers", "", ""},
		{"how many stores", "", ""},
		{"how many toys", "", ""},
		// A role said to be missing: the link's key column is empty,
		// for a self link too (found from outside: "no assignee",
		// "unassigned", "no manager" were not understood).
		{"how many tickets have no assignee", "how many tickets have no assignee id", `"assignee" read as support_tickets.assignee_id is empty`},
		{"tickets without an assignee last month", "tickets without an assignee id last month", `"assignee" read as support_tickets.assignee_id is empty`},
		{"how many open tickets are unassigned", "how many open tickets are with no assignee id", `"unassigned" read as support_tickets.assignee_id is empty`},
		{"employees with no manager", "employees with no manager id", `"manager" read as employees.manager_id is empty`},
		{"how many customers have no referrer", "how many customers have no referred by", `"referrer" read as customers.referred_by is empty`},
		{"how many tickets are unwatched", "", ""},
		{"how many orders have no assignee", "", ""},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if tt.read == "" {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v; want a refusal", pl.Query)
				}
				return
			}
			if pl.Kind != KindMetric && pl.Kind != KindRows || pl.Read != tt.read || len(pl.Notes) == 0 || !strings.Contains(pl.Notes[0], tt.note) {
				t.Fatalf("kind %s (%s), read %q, notes %q; want %q with %q", pl.Kind, pl.Reason, pl.Read, pl.Notes, tt.read, tt.note)
			}
		})
	}
}
