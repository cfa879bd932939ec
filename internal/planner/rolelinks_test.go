package planner

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// logisticsModel: shipments with two links to warehouses, a link to
// carriers, and a restricted column of warehouses.
func logisticsModel() *semantic.Model {
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "shipments", Table: "shipments", PrimaryKey: "shipment_id", TimeColumn: "shipped_at", Columns: []semantic.Column{
				{Name: "shipment_id", Type: quarry.TypeInt}, {Name: "origin_warehouse_id", Type: quarry.TypeInt},
				{Name: "destination_warehouse_id", Type: quarry.TypeInt}, {Name: "carrier_id", Type: quarry.TypeInt},
				{Name: "shipped_at", Type: quarry.TypeTimestamp}, {Name: "weight_kg", Type: quarry.TypeFloat, Synonyms: []string{"weight"}},
				{Name: "status", Type: quarry.TypeText, Values: []string{"delivered", "lost"}},
			}},
			{Name: "warehouses", Table: "warehouses", PrimaryKey: "warehouse_id", Label: "name", Columns: []semantic.Column{
				{Name: "warehouse_id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "city", Type: quarry.TypeText, Values: []string{"Chicago", "Rotterdam"}},
				{Name: "manager_phone", Type: quarry.TypeText},
			}},
			{Name: "carriers", Table: "carriers", PrimaryKey: "carrier_id", Label: "carrier_name", Columns: []semantic.Column{
				{Name: "carrier_id", Type: quarry.TypeInt}, {Name: "carrier_name", Type: quarry.TypeText},
			}},
		},
		Relationships: []semantic.Relationship{
			{Name: "carrier", From: "shipments", FromColumn: "carrier_id", To: "carriers", ToColumn: "carrier_id", Cardinality: semantic.ManyToOne},
			{Name: "destination_warehouse", From: "shipments", FromColumn: "destination_warehouse_id", To: "warehouses", ToColumn: "warehouse_id", Cardinality: semantic.ManyToOne},
			{Name: "origin_warehouse", From: "shipments", FromColumn: "origin_warehouse_id", To: "warehouses", ToColumn: "warehouse_id", Cardinality: semantic.ManyToOne},
		},
		Restricted: []string{"warehouses.manager_phone"},
	}
}

func TestRoleLinkReadings(t *testing.T) {
	base := logisticsModel()
	p := New(base, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q    string
		dims []string // the grouping fields; nil: not answered
		join []string // in the SQL
	}{
		{"shipments by origin warehouse city", []string{"origin_warehouse.city"}, []string{"LEFT JOIN warehouses AS origin_warehouse ON origin_warehouse.warehouse_id = shipments.origin_warehouse_id"}},
		{"shipments by destination warehouse city", []string{"destination_warehouse.city"}, []string{"LEFT JOIN warehouses AS destination_warehouse ON destination_warehouse.warehouse_id = shipments.destination_warehouse_id"}},
		{"shipments by origin warehouse city and destination warehouse city", []string{"origin_warehouse.city", "destination_warehouse.city"}, []string{"AS origin_warehouse ON", "AS destination_warehouse ON"}},
		{"total weight by origin warehouse", []string{"origin_warehouse.name"}, []string{"AS origin_warehouse ON origin_warehouse.warehouse_id = shipments.origin_warehouse_id"}},
		{"shipments by origin", []string{"origin_warehouse.name"}, []string{"AS origin_warehouse ON"}},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if pl.Kind != KindMetric {
				t.Fatalf("kind %s: %s %s %v", pl.Kind, pl.Reason, pl.Question, pl.Unknown)
			}
			var dims []string
			for _, d := range pl.Query.Dimensions {
				dims = append(dims, d.Name)
			}
			for _, d := range tt.dims {
				if !slices.Contains(dims, d) {
					t.Fatalf("dimensions %v; want %v", dims, tt.dims)
				}
			}
			c, err := semantic.Compile(pl.Model(base), *pl.Query, quarry.DialectSQLite)
			if err != nil {
				t.Fatal(err)
			}
			for _, j := range tt.join {
				if !strings.Contains(c.SQL, j) {
					t.Errorf("SQL lacks %q:\n%s", j, c.SQL)
				}
			}
			if !strings.Contains(strings.Join(pl.Notes, "; "), "reached through shipments.") {
				t.Errorf("notes %q do not say which link", pl.Notes)
			}
		})
	}
}

// The table's own name is asked back in the links' words; a role is
// never the rows counted or listed; its restricted column stays refused.
func TestRoleLinkRefusals(t *testing.T) {
	p := New(logisticsModel(), nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"which warehouse shipped the most shipments", "shipments by warehouse city", "shipments in Chicago"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindClarify || !slices.Equal(pl.Options, []string{"destination warehouse", "origin warehouse"}) {
			t.Errorf("%q: kind %s, options %q; want the links in words", q, pl.Kind, pl.Options)
		}
	}
	for _, q := range []string{"how many origin warehouses", "list destination warehouses"} {
		if pl := p.Plan(q, asOf); pl.Kind == KindMetric || pl.Kind == KindRows {
			t.Errorf("%q answered %+v; a role is not rows of its own", q, pl.Query)
		}
	}
	for _, q := range []string{"shipments by origin warehouse manager phone", "list shipments with destination warehouse manager phone"} {
		pl := p.Plan(q, asOf)
		if pl.Kind == KindMetric || pl.Kind == KindRows {
			c, err := semantic.Compile(pl.Model(logisticsModel()), *pl.Query, quarry.DialectSQLite)
			if err == nil {
				t.Errorf("%q compiled a restricted column through a role:\n%s", q, c.SQL)
			}
		}
	}
}

// TestValuesThroughRole: a value of a role's table is read through the
// role the question names — by its name or its verb — where it names no
// other: "how many events did Lonely Wolves headline" (found from
// outside: refused, though "events by headliner" was answered). Naming
// neither role asks which; naming both is not guessed.
func TestValuesThroughRole(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "artists", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText, Values: []string{"Lonely Wolves", "Wild Echo"}}, {Name: "genre", Type: quarry.TypeText, Values: []string{"rock", "jazz"}}}},
			{Name: "events", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("headliner_id"), id("opener_id")}},
		},
		Relationships: []semantic.Relationship{
			{Name: "headliner", From: "events", FromColumn: "headliner_id", To: "artists", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "opener", From: "events", FromColumn: "opener_id", To: "artists", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, tc := range []struct{ q, field string }{
		{"how many events did Lonely Wolves headline", "headliner.name"},
		{"how many events had Wild Echo as opener", "opener.name"},
		{"number of events with a rock headliner", "headliner.genre"},
	} {
		pl := p.Plan(tc.q, asOf)
		if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != tc.field {
			t.Errorf("%q: %s %q %+v", tc.q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	if pl := p.Plan("how many events with Lonely Wolves", asOf); pl.Kind != KindClarify {
		t.Errorf("no role named: %s %q", pl.Kind, pl.Reason)
	}
	if pl := p.Plan("how many events did Lonely Wolves headline and Wild Echo open", asOf); pl.Query != nil {
		t.Errorf("two roles: %+v", pl.Query)
	}
}
