package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// relatedStateModel is a restaurant group and a manufacturer: tables
// whose rows end (staff who left, machines decommissioned) under tables
// that end too (restaurants closed).
func relatedStateModel() *semantic.Model {
	col := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	date := func(name, role string) semantic.Column {
		return semantic.Column{Name: name, Type: quarry.TypeDate, TimeRole: role}
	}
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "restaurants", PrimaryKey: "id", Label: "name", TimeColumn: "opened_on", Columns: []semantic.Column{col("id", quarry.TypeInt), col("name", quarry.TypeText),
				date("opened_on", semantic.TimeRoleStart), date("closed_on", semantic.TimeRoleEnd)}},
			{Name: "staff", PrimaryKey: "id", Label: "name", TimeColumn: "hired_on", Columns: []semantic.Column{col("id", quarry.TypeInt), col("name", quarry.TypeText),
				col("restaurant_id", quarry.TypeInt), col("role", quarry.TypeText, "cook", "manager", "server"), col("hourly_rate", quarry.TypeFloat),
				date("hired_on", semantic.TimeRoleStart), date("left_on", semantic.TimeRoleEnd)}},
			{Name: "plants", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{col("id", quarry.TypeInt), col("name", quarry.TypeText)}},
			{Name: "machines", PrimaryKey: "id", Label: "model", TimeColumn: "installed_on", Columns: []semantic.Column{col("id", quarry.TypeInt), col("model", quarry.TypeText),
				col("plant_id", quarry.TypeInt), date("installed_on", semantic.TimeRoleStart), date("decommissioned_on", semantic.TimeRoleEnd)}},
		},
		Relationships: []semantic.Relationship{
			{From: "staff", FromColumn: "restaurant_id", To: "restaurants", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "machines", FromColumn: "plant_id", To: "plants", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
}

// someWhere is the conditions of the plan's filter on having rows of
// entity, as text, and whether it has one.
func someWhere(pl *Plan, entity string) ([]string, bool) {
	if pl.Query == nil {
		return nil, false
	}
	for _, f := range pl.Query.Filters {
		if f.Op == semantic.OpSome && strings.EqualFold(f.Field, entity) {
			var out []string
			for _, w := range f.Where {
				out = append(out, w.Field+" "+string(w.Op))
			}
			return out, true
		}
	}
	return nil, false
}

// TestRelatedRowsState: a state said of the related rows holds on them,
// never on the subject's nor read past (found from outside, each at
// 1.00): "plants with a decommissioned machine" counted every plant with
// a machine, "restaurants with a current manager" the restaurants not
// closed with any manager ever, and "how many managers per restaurant"
// the restaurants with one.
func TestRelatedRowsState(t *testing.T) {
	m := relatedStateModel()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, want := range map[string][]string{
		"how many plants have a decommissioned machine": {"machines", "machines.decommissioned_on is_not_null"},
		"which plants have decommissioned machines":     {"machines", "machines.decommissioned_on is_not_null"},
		"how many restaurants have a current manager":   {"staff", "staff.left_on is_null"},
		"how many restaurants have an active manager":   {"staff", "staff.left_on is_null"},
		"which restaurants have a current manager":      {"staff", "staff.left_on is_null"},
	} {
		pl := p.Plan(q, asOf)
		where, ok := someWhere(pl, want[0])
		if !ok || !slices.Contains(where, want[1]) {
			t.Errorf("%q: %s %q %v; want rows of %s where %s", q, pl.Kind, pl.Reason, filterTexts(pl), want[0], want[1])
		}
		if slices.Contains(filterTexts(pl), "restaurants.closed_on is_null []") {
			t.Errorf("%q: %v; the restaurants' own state was not said", q, filterTexts(pl))
		}
	}
	for _, q := range []string{"how many managers per restaurant", "number of managers per restaurant", "how many managers does each restaurant have"} {
		pl := p.Plan(q, asOf)
		if pl.Query != nil && slices.ContainsFunc(pl.Query.Metrics, func(n string) bool { return strings.Contains(n, "restaurants") }) {
			t.Errorf("%q: %s %v; counts the restaurants, want the managers counted or a question back", q, pl.Kind, pl.Query.Metrics)
		}
	}
	// Said in the present with no word of which: asked back, each
	// option planned to its reading.
	for _, q := range []string{"how many restaurants have a manager", "which restaurants have a manager"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindClarify || len(pl.Options) != 2 {
			t.Errorf("%q: %s %v; want asked back, all or current", q, pl.Kind, filterTexts(pl))
			continue
		}
		if w, _ := someWhere(p.Plan(pl.Options[0], asOf), "staff"); slices.Contains(w, "staff.left_on is_null") {
			t.Errorf("%q: %v; want every manager on record", pl.Options[0], w)
		}
		if w, _ := someWhere(p.Plan(pl.Options[1], asOf), "staff"); !slices.Contains(w, "staff.left_on is_null") {
			t.Errorf("%q: %v; want the current managers", pl.Options[1], w)
		}
	}
	if pl := p.Plan("how many restaurants had a manager", asOf); pl.Kind != KindMetric {
		t.Errorf("had a manager: %s; want every one on record", pl.Kind)
	}
	// The staff's own state, said of them as the subject.
	pl := p.Plan("average hourly rate of current servers", asOf)
	if !slices.Contains(filterTexts(pl), "staff.left_on is_null []") {
		t.Errorf("current servers: %s %q %v; want staff.left_on is_null", pl.Kind, pl.Reason, filterTexts(pl))
	}
}

// TestCountedValueBeforeTable: a value right after "how many" is an
// adjective of the table named after it ("how many active accounts":
// accounts with an active subscription), not what is counted.
func TestCountedValueBeforeTable(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "accounts", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "subscriptions", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "account_id", Type: quarry.TypeInt},
				{Name: "status", Type: quarry.TypeText, Values: []string{"active", "canceled", "past_due"}},
				{Name: "ended_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{{From: "subscriptions", FromColumn: "account_id", To: "accounts", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	pl := p.Plan("how many active accounts", asOf)
	if where, ok := someWhere(pl, "subscriptions"); !ok || !slices.Contains(where, "subscriptions.status =") {
		t.Errorf("how many active accounts: %s %q %v; want accounts with an active subscription", pl.Kind, pl.Reason, filterTexts(pl))
	}
	// A state of the related rows said: nothing to ask of rows that end.
	pl = p.Plan("how many accounts have an active subscription", asOf)
	if where, ok := someWhere(pl, "subscriptions"); !ok || !slices.Contains(where, "subscriptions.status =") {
		t.Errorf("accounts with an active subscription: %s %q %v; want answered", pl.Kind, pl.Question, filterTexts(pl))
	}
}

// TestParticipleBeforeTableListed: in a list, a participle of a table's
// date right before its name is a condition on its rows ("events at
// closed venues": the venue's closed_on set), not a column to show, as a
// count reads it (found from outside: every event listed with its
// venue's closing day, at 1.00).
func TestParticipleBeforeTableListed(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "venues", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "closed_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
			{Name: "events", PrimaryKey: "id", Label: "title", TimeColumn: "starts_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "title", Type: quarry.TypeText},
				{Name: "venue_id", Type: quarry.TypeInt}, {Name: "starts_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "events", FromColumn: "venue_id", To: "venues", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for _, q := range []string{"events at closed venues", "list events at closed venues", "how many events at closed venues", "closed venues"} {
		if pl := p.Plan(q, asOf); !slices.Contains(filterTexts(pl), "venues.closed_on is_not_null []") {
			t.Errorf("%q: %s %q %v; want venues.closed_on set", q, pl.Kind, pl.Reason, filterTexts(pl))
		}
	}
}
