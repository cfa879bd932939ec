package planner

import (
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// testModel mirrors the demo knowledge: a retailer with a membership club.
func testModel() *semantic.Model {
	col := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	syn := func(c semantic.Column, s ...string) semantic.Column {
		c.Synonyms = s
		return c
	}
	const (
		i  = quarry.TypeInt
		f  = quarry.TypeFloat
		s  = quarry.TypeText
		d  = quarry.TypeDate
		ts = quarry.TypeTimestamp
	)
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "id", TimeColumn: "signup_date", Label: "name", Synonyms: []string{"clients", "buyers"},
				Columns: []semantic.Column{col("id", i), col("name", s), syn(col("email", s), "email address", "e-mail"),
					col("country", s, "Germany", "France", "United States", "United Kingdom", "Spain", "Italy", "Netherlands", "Canada"),
					col("city", s, "Berlin", "Paris", "London", "Madrid", "New York"), col("segment", s, "consumer", "business"),
					syn(col("signup_date", d), "signup", "sign-up date"), col("referred_by", i)}},
			{Name: "products", PrimaryKey: "id", TimeColumn: "launched_on", Label: "name",
				Columns: []semantic.Column{col("id", i), col("name", s),
					col("category", s, "Electronics", "Books", "Home", "Garden", "Toys", "Sports", "Beauty", "Grocery"),
					syn(col("unit_price", f), "price", "list price"), syn(col("unit_cost", f), "cost"), col("launched_on", d), col("discontinued", i)}},
			{Name: "orders", PrimaryKey: "id", TimeColumn: "ordered_at",
				Columns: []semantic.Column{col("id", i), col("customer_id", i), col("ordered_at", ts),
					col("status", s, "completed", "refunded", "cancelled", "pending"), col("channel", s, "web", "mobile", "store"),
					col("discount_code", s)}},
			{Name: "order_items", PrimaryKey: "id",
				Columns: []semantic.Column{col("id", i), col("order_id", i), col("product_id", i), col("quantity", i), col("unit_price", f), col("discount", f)}},
			{Name: "plans", PrimaryKey: "id", Label: "name",
				Columns: []semantic.Column{col("id", i), col("name", s, "Basic", "Plus", "Premium"), col("monthly_price", f)}},
			{Name: "subscriptions", PrimaryKey: "id", TimeColumn: "started_on",
				Columns: []semantic.Column{col("id", i), col("customer_id", i), col("plan_id", i), col("started_on", d), col("ended_on", d),
					col("status", s, "active", "cancelled", "paused")}},
			{Name: "employees", PrimaryKey: "id", TimeColumn: "hired_on", Label: "name", Synonyms: []string{"staff"},
				Columns: []semantic.Column{col("id", i), col("name", s), col("title", s),
					col("department", s, "Engineering", "Sales", "Support", "Marketing", "Finance"),
					col("manager_id", i), col("hired_on", d), syn(col("salary", f), "pay", "wage")}},
			{Name: "support_tickets", PrimaryKey: "id", TimeColumn: "opened_at", Synonyms: []string{"tickets"},
				Columns: []semantic.Column{col("id", i), col("customer_id", i), col("assignee_id", i), col("opened_at", ts), col("closed_at", ts),
					col("priority", s, "low", "normal", "high", "urgent"), col("category", s, "billing", "shipping", "returns", "technical"),
					col("satisfaction", i)}},
			{Name: "web_sessions", PrimaryKey: "id", TimeColumn: "started_at", Synonyms: []string{"sessions", "visits"},
				Columns: []semantic.Column{col("id", i), col("customer_id", i), col("started_at", ts),
					col("source", s, "organic", "ads", "email", "referral", "social"), col("device", s, "desktop", "mobile", "tablet"),
					col("pages", i), col("converted", i)}},
		},
		Relationships: []semantic.Relationship{
			{From: "customers", FromColumn: "referred_by", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "orders", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "order_items", FromColumn: "order_id", To: "orders", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "order_items", FromColumn: "product_id", To: "products", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "subscriptions", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "subscriptions", FromColumn: "plan_id", To: "plans", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "employees", FromColumn: "manager_id", To: "employees", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "support_tickets", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "support_tickets", FromColumn: "assignee_id", To: "employees", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "web_sessions", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
		Metrics: []semantic.Metric{
			{Name: "revenue", Synonyms: []string{"sales", "turnover"}, Entity: "order_items",
				Expr:    "SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount))",
				Filters: []string{"orders.status = 'completed'"}, Time: "orders.ordered_at", Format: "currency"},
			{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)", Format: "integer"},
			{Name: "completed_orders", Entity: "orders", Expr: "COUNT(orders.id)", Filters: []string{"orders.status = 'completed'"}, Format: "integer"},
			{Name: "average_order_value", Synonyms: []string{"aov", "average basket"}, Derived: "{revenue} / {completed_orders}", Format: "currency"},
			{Name: "active_subscribers", Synonyms: []string{"members", "subscribers"}, Entity: "subscriptions",
				Expr: "COUNT(DISTINCT subscriptions.customer_id)", Filters: []string{"subscriptions.status = 'active'"}, Format: "integer"},
			{Name: "mrr", Synonyms: []string{"monthly recurring revenue"}, Entity: "subscriptions", Expr: "SUM(plans.monthly_price)",
				Filters: []string{"subscriptions.status = 'active'"}, Format: "currency"},
			{Name: "conversion_rate", Entity: "web_sessions", Expr: "AVG(web_sessions.converted)", Format: "percent"},
		},
		Dimensions: []semantic.Dimension{
			{Name: "country", Entity: "customers", Expr: "customers.country"},
			{Name: "channel", Entity: "orders", Expr: "orders.channel"},
			{Name: "category", Entity: "products", Expr: "products.category"},
			{Name: "plan", Entity: "plans", Expr: "plans.name", Synonyms: []string{"tier"}},
			{Name: "segment", Entity: "customers", Expr: "customers.segment"},
		},
		Restricted: []string{"customers.email", "employees.salary"},
	}
}
