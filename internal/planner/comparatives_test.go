package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestComparatives: a comparison said with a comparative adjective is
// the comparison it means, on the column named or the one the adjective
// names; without such a column, refused.
func TestComparatives(t *testing.T) {
	m := testModel()
	for i := range m.Entities {
		if m.Entities[i].Name == "products" {
			m.Entities[i].Columns = append(m.Entities[i].Columns, semantic.Column{Name: "weight_kg", Type: quarry.TypeFloat, Synonyms: []string{"weight"}})
		}
	}
	p := New(m, nil)
	gt := func(field string, n float64) semantic.Filter {
		return semantic.Filter{Field: field, Op: semantic.OpGt, Values: []any{fmtNum(n)}}
	}
	lt := func(field string, n float64) semantic.Filter {
		return semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{fmtNum(n)}}
	}
	avg := func(field string, op semantic.Op) semantic.Filter {
		return semantic.Filter{Field: field, Op: op, Against: "avg"}
	}
	for _, tc := range []struct {
		q       string
		filters []semantic.Filter // nil: refused
	}{
		{"products with a greater price than 10", []semantic.Filter{gt("products.unit_price", 10)}},
		{"how many products have a lower price than 10", []semantic.Filter{lt("products.unit_price", 10)}},
		{"products heavier than 2", []semantic.Filter{gt("products.weight_kg", 2)}},
		{"products whose weight is lighter than 2", []semantic.Filter{lt("products.weight_kg", 2)}},
		{"products above the average price", []semantic.Filter{avg("products.unit_price", semantic.OpGt)}},
		{"products with a price higher than average", []semantic.Filter{avg("products.unit_price", semantic.OpGt)}},
		// The column said first is not said again.
		{"products with a price above the average price", []semantic.Filter{avg("products.unit_price", semantic.OpGt)}},
		{"customers with more than a single order", []semantic.Filter{{Field: "orders", Op: semantic.OpGt, Values: []any{fmtNum(1)}, Count: true}}},
		// No column of height: "taller" names nothing here.
		{"products taller than 2", nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.filters == nil {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v, want refused", pl.Query)
				}
				return
			}
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("%s (%s %v)", pl.Kind, pl.Reason, pl.Unknown)
			}
			if diff := cmp.Diff(tc.filters, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
		})
	}
}

// TestListedBeside: "show customers and the number of orders they
// placed" asks the count of each customer listed, as "by customer"; with
// a grouping said, or no measure, the list is not made a grouping.
func TestListedBeside(t *testing.T) {
	p := New(testModel(), nil)
	pl := p.Plan("show customers and the number of orders they placed", asOf)
	if pl.Kind != KindMetric {
		t.Fatalf("%s (%s %v), want the count by customer", pl.Kind, pl.Reason, pl.Unknown)
	}
	var dims []string
	for _, d := range pl.Query.Dimensions {
		dims = append(dims, d.Name)
	}
	if diff := cmp.Diff([]string{"customers.id", "customers.name"}, dims); diff != "" || len(pl.Query.Metrics) != 1 || pl.Query.Metrics[0] != "orders" {
		t.Errorf("metrics %v dimensions (-want +got):\n%s", pl.Query.Metrics, diff)
	}
	if pl := p.Plan("show customers and the number of orders by channel", asOf); pl.Kind == KindMetric {
		for _, d := range pl.Query.Dimensions {
			if d.Name == "customers.name" {
				t.Errorf("grouped by the customers listed as well as the channel said: %+v", pl.Query.Dimensions)
			}
		}
	}
}

// TestNameThroughLink: rows with no label of their own and one link to a
// table that has one are named by it ("the names of poker players": each
// is one person); with several links (an order line's order or product?)
// refused as before.
func TestNameThroughLink(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "people", PrimaryKey: "people_id", Label: "name", Columns: []semantic.Column{{Name: "people_id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "poker_player", PrimaryKey: "poker_player_id", Columns: []semantic.Column{{Name: "poker_player_id", Type: quarry.TypeInt}, {Name: "people_id", Type: quarry.TypeInt}, {Name: "earnings", Type: quarry.TypeFloat}}},
		},
		Relationships: []semantic.Relationship{{Name: "people", From: "poker_player", FromColumn: "people_id", To: "people", ToColumn: "people_id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	pl := p.Plan("what are the names of poker players", asOf)
	if pl.Kind != KindRows || !cmp.Equal(pl.Query.Rows.Columns, []string{"people.name"}) || pl.Query.Rows.Entity != "poker_player" {
		t.Fatalf("%s %s %+v, want poker players named by people.name", pl.Kind, pl.Reason, pl.Query)
	}
	if len(pl.Notes) == 0 {
		t.Errorf("no note says whose name it is")
	}
	if pl := New(testModel(), nil).Plan("names of order items", asOf); pl.Kind == KindRows {
		t.Errorf("order items named by %v; they link to two tables", pl.Query.Rows.Columns)
	}
}
