package analyst

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPerAskedBack: "delivery attempts per driver last month", whose only
// fault is that "per driver" may mean the average, is asked back with the
// questions that answer it, not refused (found from outside: refused,
// though "by driver" was answered). "By driver" is answered as it was.
func TestPerAskedBack(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE drivers (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE attempts (id INTEGER PRIMARY KEY, driver_id INTEGER REFERENCES drivers(id), attempted_at DATE);
INSERT INTO drivers VALUES (1, 'Ana'), (2, 'Ben');
INSERT INTO attempts (driver_id, attempted_at) VALUES (1, '2026-05-02'), (1, '2026-05-03'), (2, '2026-05-04');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "drivers", Table: "drivers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "attempts", Table: "attempts", PrimaryKey: "id", TimeColumn: "attempted_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "driver_id", Type: quarry.TypeInt}, {Name: "attempted_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "attempts", FromColumn: "driver_id", To: "drivers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "attempts per driver last month", asOf)
	if err == nil || out.Status != "clarify" || out.Plan == nil || !slices.Contains(out.Plan.Options, "attempts by driver last month") {
		t.Fatalf("per driver: %v %s %+v; want asked, with by driver", err, out.Status, out.Plan)
	}
	out, err = a.Ask(context.Background(), event.NewRecorder("r2", a.Clock, &memSink{}), k, out.Plan.Options[0], asOf)
	if err != nil || out.Table == nil || len(out.Table.Rows) != 2 {
		t.Errorf("by driver: %v %s", err, out.Status)
	}
}

// TestPerAskedBackInTheQuestionsWords: "attempts per courier", the
// couriers being the staff an attempt's courier_id names, is asked back
// in the question's own word, not refused because the check names the
// table ("per staff": found from outside, "total donations per
// fundraiser this year" refused).
func TestPerAskedBackInTheQuestionsWords(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE attempts (id INTEGER PRIMARY KEY, courier_id INTEGER REFERENCES staff(id), attempted_at DATE);
INSERT INTO staff VALUES (1, 'Ana'), (2, 'Ben');
INSERT INTO attempts (courier_id, attempted_at) VALUES (1, '2026-05-02'), (1, '2026-05-03'), (2, '2026-05-04');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", Table: "staff", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "attempts", Table: "attempts", PrimaryKey: "id", TimeColumn: "attempted_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "courier_id", Type: quarry.TypeInt}, {Name: "attempted_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{Name: "courier", From: "attempts", FromColumn: "courier_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "attempts per courier last month", asOf)
	if err == nil || out.Status != "clarify" || out.Plan == nil || !slices.Contains(out.Plan.Options, "attempts by courier last month") {
		t.Fatalf("per courier: %v %s %+v; want asked, with by courier", err, out.Status, out.Plan)
	}
	out, err = a.Ask(context.Background(), event.NewRecorder("r2", a.Clock, &memSink{}), k, out.Plan.Options[0], asOf)
	if err != nil || out.Table == nil || len(out.Table.Rows) != 2 {
		t.Errorf("by courier: %v %s", err, out.Status)
	}
}
