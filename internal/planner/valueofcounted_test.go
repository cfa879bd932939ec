package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestValueOfTheCountedRows: a value said of the rows a count condition
// counts ("plans with more than 10 subscriptions that are active", where
// plans have the status active too) is not put on the other rows (found
// from outside: plans.status = active, at 1.00). Said right before the
// rows counted ("… 10 active subscriptions"), it keeps the count to
// them; said after them, quarry refuses. Said before the rows kept
// ("active plans with …"), it is theirs, as before.
func TestValueOfTheCountedRows(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "plans", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "status", Type: quarry.TypeText, Values: []string{"active", "retired"}}}},
			{Name: "subscriptions", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "plan_id", Type: quarry.TypeInt},
				{Name: "status", Type: quarry.TypeText, Values: []string{"active", "cancelled"}}}},
		},
		Relationships: []semantic.Relationship{{From: "subscriptions", FromColumn: "plan_id", To: "plans", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	onPlans := func(f semantic.Filter) bool { return f.Field == "plans.status" }
	if pl := p.Plan("plans with more than 10 subscriptions that are active", asOf); pl.Query != nil && (pl.Kind == KindRows || pl.Kind == KindMetric) {
		t.Errorf("… subscriptions that are active: %s %+v; want a refusal", pl.Kind, pl.Query)
	}
	pl := p.Plan("plans with more than 10 active subscriptions", asOf)
	activeCounted := func(f semantic.Filter) bool {
		return f.Count && f.Field == "subscriptions" && slices.ContainsFunc(f.Where, func(w semantic.Filter) bool {
			return w.Field == "subscriptions.status" && len(w.Values) == 1 && w.Values[0] == "active"
		})
	}
	if pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, activeCounted) || slices.ContainsFunc(pl.Query.Filters, onPlans) {
		t.Errorf("… 10 active subscriptions: %s %q %+v; want the count kept to active subscriptions", pl.Kind, pl.Reason, pl.Query)
	}
	pl = p.Plan("active plans with more than 10 subscriptions", asOf)
	if pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, onPlans) {
		t.Errorf("active plans with more than 10 subscriptions: %s %q %+v; want plans.status = active", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestValuesOfTheRowsCounted: values said between a count's number and
// the table it counts ("owners with more than 3 completed bookings",
// "… completed or confirmed bookings") keep the count to those rows,
// whether the table refers to the subject itself (a count filter's
// Where) or through another (a filter on the rows grouped), and though
// the word also names another table's date (completed_at). Found from
// outside: the number went to the value, and the question, the very one
// a warning told the tester to ask, was refused.
func TestValuesOfTheRowsCounted(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	status := semantic.Column{Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "completed", "confirmed"}}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "owners", PrimaryKey: "id", Label: "full_name", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart}}},
			{Name: "boats", PrimaryKey: "id", Label: "boat_name", Columns: []semantic.Column{id("id"), id("owner_id"), {Name: "boat_name", Type: quarry.TypeText}}},
			{Name: "bookings", PrimaryKey: "id", TimeColumn: "departs_on", Columns: []semantic.Column{id("id"), id("boat_id"), status,
				{Name: "departs_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
			{Name: "service_jobs", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("boat_id"), status,
				{Name: "scheduled_for", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "completed_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{
			{From: "boats", FromColumn: "owner_id", To: "owners", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "bookings", FromColumn: "boat_id", To: "boats", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "service_jobs", FromColumn: "boat_id", To: "boats", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, want := range map[string][]any{
		"boats with more than 3 completed bookings":                      {"completed"},
		"how many owners had more than 3 bookings in 2025":               nil,
		"boats with fewer than 2 completed or confirmed bookings":        {"completed", "confirmed"},
		"how many boats had at least 2 cancelled bookings in 2025":       {"cancelled"},
		"how many owners had more than 3 completed bookings in 2025":     {"completed"},
		"owners with more than 3 completed or confirmed bookings":        {"completed", "confirmed"},
		"how many owners had more than 3 completed service jobs in 2025": {"completed"},
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || pl.Kind != KindRows && pl.Kind != KindMetric {
			t.Errorf("%q: %s %q %q; want an answer", q, pl.Kind, pl.Reason, pl.Options)
			continue
		}
		var got []any
		for _, f := range pl.Query.Filters {
			for _, w := range append([]semantic.Filter{f}, f.Where...) {
				if strings.HasSuffix(w.Field, ".status") {
					got = append(got, w.Values...)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: states kept %v, want %v (%+v)", q, got, want, pl.Query)
		}
		c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
		if err != nil {
			t.Errorf("%q: %v", q, err)
			continue
		}
		if (len(want) > 0) != strings.Contains(c.SQL, ".status") {
			t.Errorf("%q: the state is not in the SQL:\n%s", q, c.SQL)
		}
	}
}
