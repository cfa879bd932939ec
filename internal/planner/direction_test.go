package planner

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestDirections: a word of direction picks, of a table's two links of
// opposite directions to another, the one of its direction: "from" the
// origin, "to", "arriving" the destination. Two directions, or a
// direction with no such pair of links, are not guessed.
func TestDirections(t *testing.T) {
	p := New(logisticsModel(), nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for q, link := range map[string]string{
		"shipments from Chicago":                  "origin_warehouse",
		"how many shipments leaving from Chicago": "origin_warehouse",
		"how many shipments to Chicago":           "destination_warehouse",
		"shipments arriving in Chicago":           "destination_warehouse",
		"inbound shipments Chicago":               "",
		"shipments from Chicago to Denver":        "",
		"shipments in Chicago compared to Denver": "",
	} {
		t.Run(q, func(t *testing.T) {
			pl := p.Plan(q, asOf)
			if link == "" {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v; a direction before the rows is not read", pl.Query)
				}
				return
			}
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("kind %s: %s %s %v", pl.Kind, pl.Reason, pl.Question, pl.Unknown)
			}
			if !readsRole(pl, link) {
				t.Errorf("filters %+v do not read %s", pl.Query.Filters, link)
			}
			if !strings.Contains(strings.Join(pl.Understood, "; "), "read as the link shipments.") {
				t.Errorf("understood %q does not say which link", pl.Understood)
			}
		})
	}
}

// TestLinkDirection reads the direction of a link from its column's name.
func TestLinkDirection(t *testing.T) {
	for col, want := range map[string]int{
		"DestAirport": dirTo, "SourceAirport": dirFrom, "origin_warehouse_id": dirFrom,
		"to_warehouse_id": dirTo, "from_account": dirFrom, "destination": dirTo,
		"warehouse_id": dirNone, "from_to_id": dirNone, "tomato_id": dirNone,
	} {
		if got := linkDirection(col); got != want {
			t.Errorf("linkDirection(%q) = %d, want %d", col, got, want)
		}
	}
}

// TestNumbersOfAfterTable: "the shipment numbers of shipments" lists the
// ShipmentNo column; "numbers of" right after a table's word is no count
// (found on Spider: "the flight numbers of flights from United Airlines"
// answered the count of those flights, 100, at full confidence).
func TestNumbersOfAfterTable(t *testing.T) {
	m := logisticsModel()
	m.Entities[0].Columns = append(m.Entities[0].Columns, semantic.Column{Name: "ShipmentNo", Type: quarry.TypeInt})
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	pl := p.Plan("What are the shipment numbers of shipments with status lost?", asOf)
	if pl.Kind != KindRows {
		t.Fatalf("%s %+v; the question lists shipment numbers", pl.Kind, pl.Query)
	}
	if cols := pl.Query.Rows.Columns; len(cols) > 0 && !slices.Contains(cols, "ShipmentNo") {
		t.Errorf("listed %v, want ShipmentNo", cols) // none: the table's own columns
	}
	if pl := p.Plan("what is the number of shipments from Chicago", asOf); pl.Kind != KindMetric {
		t.Errorf("the number of shipments: %s %s", pl.Kind, pl.Reason)
	}
}

// depotsModel is a freight schema whose shipments hold their depots'
// codes in two columns of opposite directions.
func depotsModel() *semantic.Model {
	codes := []string{"JFK", "LHR", "FRA"}
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "shipments", Table: "shipments", PrimaryKey: "shipment_id", TimeColumn: "shipped_at", Columns: []semantic.Column{
				{Name: "shipment_id", Type: quarry.TypeInt},
				{Name: "origin_depot", Type: quarry.TypeText, Values: codes},
				{Name: "destination_depot", Type: quarry.TypeText, Values: codes},
				{Name: "hub_code", Type: quarry.TypeText, Values: codes},
				{Name: "weight_kg", Type: quarry.TypeFloat},
				{Name: "shipped_at", Type: quarry.TypeTimestamp}, {Name: "delivered_at", Type: quarry.TypeTimestamp},
				{Name: "shipment_status", Type: quarry.TypeText, Values: []string{"delivered", "in_transit", "lost"}},
			}},
			{Name: "depots", Table: "depots", PrimaryKey: "depot_code", Label: "depot_name", Columns: []semantic.Column{
				{Name: "depot_code", Type: quarry.TypeText, Values: codes}, {Name: "depot_name", Type: quarry.TypeText},
			}},
		},
		Relationships: []semantic.Relationship{
			{Name: "destination_depot", From: "shipments", FromColumn: "destination_depot", To: "depots", ToColumn: "depot_code", Cardinality: semantic.ManyToOne},
			{Name: "origin_depot", From: "shipments", FromColumn: "origin_depot", To: "depots", ToColumn: "depot_code", Cardinality: semantic.ManyToOne},
		},
	}
}

// TestDirectionPicksTheColumnOfTheValue: a value held by a table's two
// columns of opposite directions is the one of the direction said right
// before it ("delivered to JFK" counted by origin, 54 for 67, at full
// confidence, found from outside); with none said, or "compared to", it
// is asked.
func TestDirectionPicksTheColumnOfTheValue(t *testing.T) {
	p := New(depotsModel(), nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q    string
		want []string // field = value filters; nil: not answered
	}{
		{"how many shipments delivered to JFK", []string{"shipments.destination_depot=JFK", "shipments.shipment_status=delivered"}},
		{"how many shipments delivered from JFK", []string{"shipments.origin_depot=JFK", "shipments.shipment_status=delivered"}},
		{"how many shipments to JFK", []string{"shipments.destination_depot=JFK"}},
		{"how many shipments from LHR", []string{"shipments.origin_depot=LHR"}},
		{"shipments from LHR to JFK", []string{"shipments.destination_depot=JFK", "shipments.origin_depot=LHR"}},
		{"total weight shipped to FRA", []string{"shipments.destination_depot=FRA"}},
		{"how many shipments in transit to FRA", []string{"shipments.destination_depot=FRA", "shipments.shipment_status=in_transit"}},
		{"how many shipments to JFK via LHR", []string{"shipments.destination_depot=JFK", "shipments.hub_code=LHR"}},
		{"how many shipments JFK", nil},
		{"shipments at LHR compared to JFK", nil},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			answered := pl.Kind == KindMetric || pl.Kind == KindRows
			if tt.want == nil {
				if answered {
					t.Fatalf("answered %+v; no direction says which column", pl.Query.Filters)
				}
				return
			}
			if !answered {
				t.Fatalf("kind %s: %s %s %v", pl.Kind, pl.Reason, pl.Question, pl.Unknown)
			}
			var got []string
			for _, f := range pl.Query.Filters {
				for _, v := range f.Values {
					got = append(got, f.Field+"="+fmt.Sprint(v))
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("filters %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPlaceVerbPicksTheColumn: a value held by a table's home and work
// columns is the one the verb before it says: "live in" the home, "work
// in" the work (found from outside: "employees who live in Denver" read
// as the work city, "live" dropped); with no such verb it is asked.
func TestPlaceVerbPicksTheColumn(t *testing.T) {
	cities := []string{"Denver", "Zürich"}
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "employees", Table: "employees", PrimaryKey: "emp_id", Columns: []semantic.Column{
		{Name: "emp_id", Type: quarry.TypeInt}, {Name: "home_city", Type: quarry.TypeText, Values: cities}, {Name: "work_city", Type: quarry.TypeText, Values: cities}}}}}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"how many employees live in Denver":      "employees.home_city",
		"employees who live in Zürich":           "employees.home_city",
		"how many employees work in Denver":      "employees.work_city",
		"how many employees are based in Denver": "employees.work_city",
		"how many employees in Denver":           "",
	} {
		pl := p.Plan(q, asOf)
		if want == "" {
			if pl.Kind == KindMetric || pl.Kind == KindRows {
				t.Errorf("%q: answered %+v; want it asked", q, pl.Query.Filters)
			}
			continue
		}
		if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != want {
			t.Errorf("%q: %s %q %+v; want a filter on %s", q, pl.Kind, pl.Reason, pl.Query, want)
		}
	}
}
