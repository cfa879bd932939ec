package retrieval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

func TestSplitWords(t *testing.T) {
	for in, want := range map[string][]string{
		"orderItems":        {"order", "items"},
		"order_items_2019":  {"order", "items", "2019"},
		"HTTPServerLog":     {"http", "server", "log"},
		"customer's orders": {"customer", "orders"},
		"Singer_ID":         {"singer", "id"},
		"v2":                {"v2"},
		"orders2019":        {"orders", "2019"},
		"Straße":            {"straße"},
	} {
		if got := splitWords(in); !cmp.Equal(got, want) {
			t.Errorf("splitWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTermsStemAndDropStopWords(t *testing.T) {
	got := terms("How many people bought orders in 2019?")
	want := []string{"person", "buy", "order", "2019"}
	if !cmp.Equal(got, want) {
		t.Errorf("terms = %q, want %q", got, want)
	}
}

// shop is a small catalog with near-duplicate names.
func shop() *Index {
	col := func(names ...string) []Column {
		var cs []Column
		for _, n := range names {
			cs = append(cs, Column{Name: n})
		}
		return cs
	}
	return Build(Input{Tables: []Table{
		{Name: "customers", Columns: col("id", "name", "country", "signup_date"), Synonyms: []string{"clients"}},
		{Name: "orders", Columns: col("id", "customer_id", "ordered_at", "status", "amount"),
			Keys: []Key{{Columns: []string{"customer_id"}, RefTable: "customers", RefColumns: []string{"id"}}}},
		{Name: "order_items", Columns: col("id", "order_id", "product_id", "quantity", "unit_price"),
			Keys: []Key{{Columns: []string{"order_id"}, RefTable: "orders", RefColumns: []string{"id"}},
				{Columns: []string{"product_id"}, RefTable: "products", RefColumns: []string{"id"}}}},
		{Name: "orders_archive", Columns: col("id", "customer_id", "ordered_at", "status", "amount")},
		{Name: "orders_2019", Columns: col("id", "customer_id", "ordered_at", "status", "amount")},
		{Name: "products", Columns: col("id", "name", "category", "list_price"), Desc: "Everything the shop sells."},
		{Name: "suppliers", Columns: col("id", "name", "country")},
		{Name: "web_sessions", Columns: col("id", "visitor", "started_at")},
	},
		Model: &semantic.Model{Metrics: []semantic.Metric{{Name: "revenue", Synonyms: []string{"sales", "turnover"}, Entity: "orders"}}},
	})
}

func names(r Result) []string {
	var out []string
	for _, s := range r.Shown {
		out = append(out, s.Table)
	}
	return out
}

func TestSearchRanksNearDuplicates(t *testing.T) {
	ix := shop()
	for _, c := range []struct {
		q     string
		first string
	}{
		{"how many orders were placed last month", "orders"},
		{"archived orders by status", "orders_archive"},
		{"orders in 2019", "orders_2019"},
		{"quantity of each order item", "order_items"},
		{"which clients are in France", "customers"},
		{"turnover by month", "orders"},
		{"products in each category", "products"},
		{"what does the shop sell", "products"},
	} {
		r := ix.Search(c.q, Options{})
		if len(r.Shown) == 0 || r.Shown[0].Table != c.first {
			t.Errorf("%q: shown %v, want %s first", c.q, names(r), c.first)
		}
	}
}

func TestSearchJoinsHitsAlongForeignKeys(t *testing.T) {
	ix := shop()
	r := ix.Search("customers by product category", Options{})
	got := names(r)
	if len(got) < 3 || !contains(got[:4], "orders") || !contains(got[:4], "order_items") {
		t.Fatalf("shown %v: want the join path customers–orders–order_items–products near the top", got)
	}
	for _, s := range r.Shown {
		if s.Table == "orders" && (s.Why == "words" || len(s.Via) == 0) {
			t.Errorf("orders shown because %q via %v, want a join or a neighbour of a hit", s.Why, s.Via)
		}
	}
	if !strings.Contains(r.Text, "join: orders.customer_id = customers.id") && !strings.Contains(r.Text, "join: customers.id = orders.customer_id") {
		t.Errorf("the join is not shown:\n%s", r.Text)
	}
}

func TestSearchBridgesTwoHits(t *testing.T) {
	ix := Build(Input{Tables: []Table{
		{Name: "warehouses", Columns: []Column{{Name: "id"}, {Name: "city"}}},
		{Name: "stock", Columns: []Column{{Name: "wh"}, {Name: "item"}},
			Keys: []Key{{Columns: []string{"wh"}, RefTable: "warehouses", RefColumns: []string{"id"}},
				{Columns: []string{"item"}, RefTable: "skus", RefColumns: []string{"id"}}}},
		{Name: "skus", Columns: []Column{{Name: "id"}, {Name: "colour"}}},
		{Name: "paints", Columns: []Column{{Name: "id"}, {Name: "colour"}}},
	}})
	r := ix.Search("colour of what each city warehouse holds", Options{})
	var why []string
	for _, s := range r.Shown {
		why = append(why, s.Table+":"+s.Why)
	}
	if len(why) < 3 || !contains(why[:3], "stock:join") {
		t.Errorf("shown %v: want stock as the join between warehouses and skus", why)
	}
}

func TestSearchMatchedColumnsAndValues(t *testing.T) {
	ix := shop()
	r := ix.Search("customers who signed up in France", Options{Values: []Value{{Table: "customers", Column: "country", Value: "France"}}})
	if len(r.Shown) == 0 || r.Shown[0].Table != "customers" {
		t.Fatalf("shown %v", names(r))
	}
	if diff := cmp.Diff([]string{"country"}, r.Shown[0].Matched); diff != "" {
		t.Errorf("matched columns (-want +got):\n%s", diff)
	}
}

func TestSearchStaysWithinBudget(t *testing.T) {
	var ts []Table
	for i := range 300 {
		ts = append(ts, Table{Name: fmt.Sprintf("sales_orders_%03d", i), Columns: []Column{{Name: "id"}, {Name: "order_total"}, {Name: "region"}}})
	}
	ix := Build(Input{Tables: ts})
	for _, budget := range []int{50, 200, 1000} {
		r := ix.Search("sales orders total by region", Options{Budget: budget})
		if r.Tokens > budget || Tokens(r.Text) > budget {
			t.Errorf("budget %d: shown %d tokens", budget, r.Tokens)
		}
		if len(r.Shown) == 0 || r.Omitted == 0 {
			t.Errorf("budget %d: shown %d, omitted %d", budget, len(r.Shown), r.Omitted)
		}
	}
	if ix.FullTokens() < 300*5 {
		t.Errorf("FullTokens = %d", ix.FullTokens())
	}
}

func TestFromCatalogKeepsSchemasAndKnowledge(t *testing.T) {
	cat := &quarry.Catalog{Tables: []quarry.TableInfo{
		{Schema: "shop", Name: "orders", Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "cust"}},
			ForeignKeys: []quarry.ForeignKey{{Columns: []string{"cust"}, RefTable: "clients", RefColumns: []string{"id"}}}},
		{Schema: "shop", Name: "clients", Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "nm"}}},
	}}
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "customers", Table: "clients", Description: "People who buy.",
		Columns: []semantic.Column{{Name: "nm", Synonyms: []string{"full name"}}}}}}
	ts := FromCatalog(cat, m)
	want := []Table{
		{Name: "shop.orders", Scope: "shop", Columns: []Column{{Name: "id"}, {Name: "cust"}},
			Keys: []Key{{Columns: []string{"cust"}, RefTable: "shop.clients", RefColumns: []string{"id"}}}},
		{Name: "shop.clients", Scope: "shop", Desc: "People who buy.", Synonyms: []string{"customers"},
			Columns: []Column{{Name: "id"}, {Name: "nm", Synonyms: []string{"full name"}}}},
	}
	if diff := cmp.Diff(want, ts); diff != "" {
		t.Fatalf("FromCatalog (-want +got):\n%s", diff)
	}
	r := Build(Input{Tables: ts}).Search("full name of customers", Options{})
	if len(r.Shown) == 0 || r.Shown[0].Table != "shop.clients" || !cmp.Equal(r.Shown[0].Matched, []string{"nm"}) {
		t.Errorf("shown %+v", r.Shown)
	}
}

func TestVerifiedQuestionsAndNotesPointAtTheirTables(t *testing.T) {
	ix := Build(Input{
		Tables:   []Table{{Name: "t_ord", Columns: []Column{{Name: "x"}}}, {Name: "t_cus", Columns: []Column{{Name: "y"}}}},
		Verified: []Verified{{Question: "What was the churn rate?", SQL: "SELECT avg(x) FROM t_ord"}},
		Notes:    []string{"Loyalty tiers live in t_cus.y."},
	})
	if r := ix.Search("churn rate last year", Options{}); len(r.Shown) == 0 || r.Shown[0].Table != "t_ord" {
		t.Errorf("churn: %v", names(r))
	}
	if r := ix.Search("loyalty tier", Options{}); len(r.Shown) == 0 || r.Shown[0].Table != "t_cus" {
		t.Errorf("loyalty: %v", names(r))
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestListingKeepsOrderWithinBudget(t *testing.T) {
	ix := shop()
	all := ix.Listing(100000)
	if len(all.Shown) != ix.Len() || all.Shown[0].Table != "customers" || all.Omitted != 0 || all.Tokens > ix.FullTokens() {
		t.Fatalf("listing: %v, omitted %d, %d of %d tokens", names(all), all.Omitted, all.Tokens, ix.FullTokens())
	}
	some := ix.Listing(30)
	if some.Tokens > 30 || len(some.Shown) == 0 || some.Omitted != ix.Len()-len(some.Shown) {
		t.Errorf("listing within 30 tokens: %v (%d tokens), omitted %d", names(some), some.Tokens, some.Omitted)
	}
}
