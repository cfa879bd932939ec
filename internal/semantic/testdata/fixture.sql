CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, email TEXT, country TEXT, city TEXT, segment TEXT, signup_date DATE, referred_by INTEGER);
INSERT INTO customers VALUES
 (1, 'Ann', 'ann@example.com', 'Germany', 'Berlin', 'consumer', '2024-01-05', NULL),
 (2, 'Bob', 'bob@example.com', 'France', 'Paris', 'business', '2024-02-10', NULL),
 (3, 'Cid', 'cid@example.com', 'Germany', 'Munich', 'business', '2024-03-15', 1);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, category TEXT, unit_price REAL, unit_cost REAL, launched_on DATE, discontinued INTEGER);
INSERT INTO products VALUES
 (1, 'Book A', 'Books', 10, 5, '2023-05-01', 0),
 (2, 'Toy_B 100%', 'Toys', 20, 8, '2025-02-01', 0),
 (3, 'Lamp C', 'Home', 50, 30, '2025-04-15', 1);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, ordered_at TIMESTAMP, status TEXT, channel TEXT, discount_code TEXT);
INSERT INTO orders VALUES
 (1, 1, '2025-01-10 10:00:00', 'completed', 'web', NULL),
 (2, 1, '2025-01-20 12:00:00', 'completed', 'mobile', 'WINTER'),
 (3, 2, '2025-02-03 09:00:00', 'completed', 'web', NULL),
 (4, 3, '2025-02-14 18:00:00', 'refunded', 'web', NULL),
 (5, 2, '2025-03-01 08:00:00', 'completed', 'store', 'SPRING'),
 (6, 3, '2025-03-30 23:59:59', 'pending', 'mobile', NULL),
 (7, 1, '2025-05-05 11:00:00', 'completed', 'web', NULL);
CREATE TABLE order_items (id INTEGER PRIMARY KEY, order_id INTEGER, product_id INTEGER, quantity INTEGER, unit_price REAL, discount REAL);
INSERT INTO order_items VALUES
 (1, 1, 1, 2, 10, 0),
 (2, 1, 2, 1, 20, 0),
 (3, 1, 1, 1, 10, 0.5),
 (4, 2, 3, 1, 50, 0.1),
 (5, 3, 2, 3, 20, 0),
 (6, 3, 3, 1, 50, 0),
 (7, 4, 1, 1, 10, 0),
 (8, 5, 1, 4, 10, 0.25),
 (9, 6, 2, 1, 20, 0),
 (10, 7, 3, 2, 50, 0);
CREATE TABLE plans (id INTEGER PRIMARY KEY, name TEXT, monthly_price REAL);
INSERT INTO plans VALUES (1, 'Basic', 10), (2, 'Plus', 20), (3, 'Premium', 40);
CREATE TABLE subscriptions (id INTEGER PRIMARY KEY, customer_id INTEGER, plan_id INTEGER, started_on DATE, ended_on DATE, status TEXT);
INSERT INTO subscriptions VALUES
 (1, 1, 3, '2024-06-01', NULL, 'active'),
 (2, 2, 1, '2024-07-01', '2024-12-01', 'cancelled'),
 (3, 2, 2, '2025-01-01', NULL, 'active'),
 (4, 3, 3, '2025-02-01', NULL, 'paused'),
 (5, 3, 1, '2025-03-01', NULL, 'active');
CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT, title TEXT, department TEXT, manager_id INTEGER, hired_on DATE, salary REAL);
INSERT INTO employees VALUES
 (1, 'Eve', 'CTO', 'Engineering', NULL, '2020-01-01', 200),
 (2, 'Finn', 'Agent', 'Support', 1, '2021-01-01', 80);
CREATE TABLE support_tickets (id INTEGER PRIMARY KEY, customer_id INTEGER, assignee_id INTEGER, opened_at TIMESTAMP, closed_at TIMESTAMP, priority TEXT, category TEXT, satisfaction INTEGER);
INSERT INTO support_tickets VALUES
 (1, 1, 2, '2025-01-05 10:00:00', '2025-01-06 10:00:00', 'high', 'billing', 5),
 (2, 2, NULL, '2025-01-06 10:00:00', NULL, 'normal', 'shipping', NULL),
 (3, 3, 2, '2025-02-01 10:00:00', '2025-02-02 10:00:00', 'urgent', 'billing', 3);
CREATE TABLE web_sessions (id INTEGER PRIMARY KEY, customer_id INTEGER, started_at TIMESTAMP, source TEXT, device TEXT, pages INTEGER, converted INTEGER);
INSERT INTO web_sessions VALUES
 (1, 1, '2025-01-01 09:00:00', 'organic', 'desktop', 3, 1),
 (2, NULL, '2025-01-02 09:00:00', 'ads', 'mobile', 1, 0),
 (3, 2, '2025-01-03 09:00:00', 'ads', 'desktop', 5, 1),
 (4, NULL, '2025-02-01 09:00:00', 'email', 'mobile', 2, 0);
