package demo

// tableNames lists the demo tables in creation order.
var tableNames = []string{
	"customers", "products", "orders", "order_items", "plans",
	"subscriptions", "employees", "support_tickets", "web_sessions",
}

// schema creates the demo tables. The declared types are part of the
// contract: DATE for dates, TIMESTAMP for date-times, both stored as
// ISO-8601 text.
const schema = `
CREATE TABLE customers (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  email       TEXT NOT NULL,
  country     TEXT NOT NULL,
  city        TEXT NOT NULL,
  segment     TEXT NOT NULL,
  signup_date DATE NOT NULL,
  referred_by INTEGER REFERENCES customers(id)
);
CREATE TABLE products (
  id           INTEGER PRIMARY KEY,
  name         TEXT NOT NULL,
  category     TEXT NOT NULL,
  unit_price   REAL NOT NULL,
  unit_cost    REAL NOT NULL,
  launched_on  DATE NOT NULL,
  discontinued INTEGER NOT NULL
);
CREATE TABLE orders (
  id            INTEGER PRIMARY KEY,
  customer_id   INTEGER NOT NULL REFERENCES customers(id),
  ordered_at    TIMESTAMP NOT NULL,
  status        TEXT NOT NULL,
  channel       TEXT NOT NULL,
  discount_code TEXT
);
CREATE TABLE order_items (
  id         INTEGER PRIMARY KEY,
  order_id   INTEGER NOT NULL REFERENCES orders(id),
  product_id INTEGER NOT NULL REFERENCES products(id),
  quantity   INTEGER NOT NULL,
  unit_price REAL NOT NULL,
  discount   REAL NOT NULL
);
CREATE TABLE plans (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL,
  monthly_price REAL NOT NULL
);
CREATE TABLE subscriptions (
  id          INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(id),
  plan_id     INTEGER NOT NULL REFERENCES plans(id),
  started_on  DATE NOT NULL,
  ended_on    DATE,
  status      TEXT NOT NULL
);
CREATE TABLE employees (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  title      TEXT NOT NULL,
  department TEXT NOT NULL,
  manager_id INTEGER REFERENCES employees(id),
  hired_on   DATE NOT NULL,
  salary     REAL NOT NULL
);
CREATE TABLE support_tickets (
  id           INTEGER PRIMARY KEY,
  customer_id  INTEGER NOT NULL REFERENCES customers(id),
  assignee_id  INTEGER REFERENCES employees(id),
  opened_at    TIMESTAMP NOT NULL,
  closed_at    TIMESTAMP,
  priority     TEXT NOT NULL,
  category     TEXT NOT NULL,
  satisfaction INTEGER
);
CREATE TABLE web_sessions (
  id          INTEGER PRIMARY KEY,
  customer_id INTEGER REFERENCES customers(id),
  started_at  TIMESTAMP NOT NULL,
  source      TEXT NOT NULL,
  device      TEXT NOT NULL,
  pages       INTEGER NOT NULL,
  converted   INTEGER NOT NULL
);
`

// indexes are created after the data is loaded: foreign keys and the time
// columns that analytics filter and group by.
const indexes = `
CREATE INDEX customers_signup_date ON customers(signup_date);
CREATE INDEX customers_referred_by ON customers(referred_by);
CREATE INDEX orders_customer_id ON orders(customer_id);
CREATE INDEX orders_ordered_at ON orders(ordered_at);
CREATE INDEX order_items_order_id ON order_items(order_id);
CREATE INDEX order_items_product_id ON order_items(product_id);
CREATE INDEX subscriptions_customer_id ON subscriptions(customer_id);
CREATE INDEX subscriptions_plan_id ON subscriptions(plan_id);
CREATE INDEX employees_manager_id ON employees(manager_id);
CREATE INDEX support_tickets_customer_id ON support_tickets(customer_id);
CREATE INDEX support_tickets_assignee_id ON support_tickets(assignee_id);
CREATE INDEX support_tickets_opened_at ON support_tickets(opened_at);
CREATE INDEX web_sessions_customer_id ON web_sessions(customer_id);
CREATE INDEX web_sessions_started_at ON web_sessions(started_at);
`
