package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestOwnedRoute: a table reached in several ways of one length, one of
// them a chain of keys each named after its table, is reached that way
// (found from outside: "bookings by location" was asked back "host or
// game master?", where a manager means the room's location). Where the
// question names a role, that role's way is taken; where two owned
// chains tie, it is asked.
func TestOwnedRoute(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	name := semantic.Column{Name: "name", Type: quarry.TypeText}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "locations", PrimaryKey: "id", Columns: []semantic.Column{id("id"), name}},
			{Name: "rooms", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("location_id"), name}},
			{Name: "staff", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("location_id"), {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "bookings", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("room_id"), id("host_id"), id("game_master_id")}},
		},
		Relationships: []semantic.Relationship{
			{From: "rooms", FromColumn: "location_id", To: "locations", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "staff", FromColumn: "location_id", To: "locations", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "bookings", FromColumn: "host_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "bookings", FromColumn: "game_master_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "bookings", FromColumn: "room_id", To: "rooms", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(semantic.WithRoles(m), nil)
	for _, q := range []string{"bookings by location", "how many bookings by location name"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil {
			t.Errorf("%q: %s %q %v", q, pl.Kind, pl.Reason, pl.Options)
			continue
		}
		if !slices.Contains(pl.Query.Via, "rooms") {
			t.Errorf("%q: via %v; want through rooms", q, pl.Query.Via)
		}
		c, err := semantic.Compile(pl.Model(p.m), *pl.Query, "sqlite")
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if sql := c.SQL; !strings.Contains(sql, "JOIN rooms") || !strings.Contains(sql, "rooms.location_id") {
			t.Errorf("%q: SQL does not go through the room:\n%s", q, c.SQL)
		}
	}
	// Two owned chains of one length: asked, not chosen.
	m2 := *m
	m2.Entities = append(slices.Clone(m.Entities), semantic.Entity{Name: "games", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("location_id"), name}})
	m2.Entities[3].Columns = append(slices.Clone(m2.Entities[3].Columns), id("game_id"))
	m2.Relationships = append(slices.Clone(m.Relationships),
		semantic.Relationship{From: "games", FromColumn: "location_id", To: "locations", ToColumn: "id", Cardinality: semantic.ManyToOne},
		semantic.Relationship{From: "bookings", FromColumn: "game_id", To: "games", ToColumn: "id", Cardinality: semantic.ManyToOne})
	if via, ok := New(semantic.WithRoles(&m2), nil).ownedRoute("bookings", "locations", true); ok {
		t.Errorf("two owned routes: took %v", via)
	}
}

// TestOwnedRouteThroughOtherTables: two ways of one length through
// different tables ("bookings by marina": the berth's marina, or that of
// the staff member who took the booking) take the chain of owned keys
// (found from outside: asked back between berths and staff).
func TestOwnedRouteThroughOtherTables(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	name := semantic.Column{Name: "name", Type: quarry.TypeText}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "marinas", PrimaryKey: "id", Columns: []semantic.Column{id("id"), name}},
			{Name: "berths", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("marina_id"), {Name: "code", Type: quarry.TypeText}}},
			{Name: "staff", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("marina_id"), {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "bookings", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("berth_id"), id("booked_by_staff_id")}},
		},
		Relationships: []semantic.Relationship{
			{From: "bookings", FromColumn: "booked_by_staff_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "staff", FromColumn: "marina_id", To: "marinas", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "bookings", FromColumn: "berth_id", To: "berths", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "berths", FromColumn: "marina_id", To: "marinas", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(semantic.WithRoles(m), nil)
	pl := p.Plan("bookings by marina", asOf)
	if pl.Kind != KindMetric || pl.Query == nil || !slices.Contains(pl.Query.Via, "berths") {
		t.Fatalf("bookings by marina: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	c, err := semantic.Compile(pl.Model(p.m), *pl.Query, "sqlite")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.SQL, "berths.marina_id") || strings.Contains(c.SQL, "staff") {
		t.Errorf("bookings by marina not through the berth:\n%s", c.SQL)
	}
	// One way only: nothing chosen, nothing said.
	if via, ok := p.ownedRoute("berths", "marinas", false); ok {
		t.Errorf("one way: took %v", via)
	}
}
