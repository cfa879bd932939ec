package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestManagerQuestionsOnLearnedSchemas asks, of depots, shipments,
// accounts, subscriptions, payments and pets that quarry learns, what an
// outside tester asked in a manager's words — among them eleven answers
// found wrong at full confidence (a destination read as the origin, the
// signup date for the year founded, a share of churn in a period by the
// start date, payments in francs among those "above 1000 euros") — and
// checks each answer against SQL written by hand, or that it is refused.
func TestManagerQuestionsOnLearnedSchemas(t *testing.T) {
	var b strings.Builder
	b.WriteString(`CREATE TABLE depots (depot_code TEXT PRIMARY KEY, depot_name TEXT NOT NULL, city TEXT);
INSERT INTO depots VALUES ('JFK', 'New York JFK', 'New York'), ('LHR', 'London Heathrow', 'London'), ('FRA', 'Frankfurt', 'Frankfurt');
CREATE TABLE shipments (shipment_id INTEGER PRIMARY KEY, origin_depot TEXT NOT NULL REFERENCES depots(depot_code), destination_depot TEXT NOT NULL REFERENCES depots(depot_code), weight_kg REAL NOT NULL, shipped_at TEXT NOT NULL, delivered_at TEXT, shipment_status TEXT NOT NULL);
CREATE TABLE plans (plan_id INTEGER PRIMARY KEY, plan_name TEXT NOT NULL);
INSERT INTO plans VALUES (1, 'Team'), (2, 'Business'), (3, 'Enterprise');
CREATE TABLE accounts (account_id INTEGER PRIMARY KEY, company_name TEXT NOT NULL, year_founded INTEGER, signed_up_at TEXT NOT NULL);
CREATE TABLE subscriptions (subscription_id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts(account_id), plan_id INTEGER NOT NULL REFERENCES plans(plan_id), started_on TEXT NOT NULL, ended_on TEXT, mrr REAL NOT NULL, status TEXT NOT NULL);
CREATE TABLE payments (payment_id INTEGER PRIMARY KEY, subscription_id INTEGER NOT NULL REFERENCES subscriptions(subscription_id), paid_at TEXT NOT NULL, amount REAL NOT NULL, currency TEXT NOT NULL);
CREATE TABLE pets (pet_id INTEGER PRIMARY KEY, pet_name TEXT NOT NULL, species TEXT NOT NULL, birth_year INTEGER, weight_kg REAL, neutered INTEGER);
`)
	codes := []string{"JFK", "LHR", "FRA"}
	statuses := []string{"delivered", "delivered", "in_transit", "lost"}
	for i := 1; i <= 120; i++ {
		day := fmt.Sprintf("2025-%02d-%02d", i%12+1, i%27+1)
		fmt.Fprintf(&b, "INSERT INTO shipments VALUES (%d, '%s', '%s', %d.5, '%s', '%s', '%s');\n", i, codes[i%3], codes[(i/3+1+i)%3], 100+i*37%900, day, day, statuses[i%4])
	}
	for i := 1; i <= 80; i++ {
		fmt.Fprintf(&b, "INSERT INTO accounts VALUES (%d, 'Company %d', %d, '%d-%02d-10');\n", i, i, 1980+i*7%45, 2021+i%4, i%12+1)
	}
	subStatus := []string{"active", "active", "churned", "trialing"}
	for i := 1; i <= 160; i++ {
		st := subStatus[i%4]
		end := "NULL"
		if st == "churned" {
			end = fmt.Sprintf("'2026-%02d-15'", i%6+1)
		}
		fmt.Fprintf(&b, "INSERT INTO subscriptions VALUES (%d, %d, %d, '2025-%02d-01', %s, %d, '%s');\n", i, i%80+1, i%3+1, i%12+1, end, 50+i*13%400, st)
	}
	currencies := []string{"EUR", "EUR", "CHF"}
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "INSERT INTO payments VALUES (%d, %d, '2025-%02d-03', %d, '%s');\n", i, i%160+1, i%12+1, 500+i*71%1500, currencies[i%3])
	}
	species := []string{"Dog", "Cat", "Dog", "Rabbit"}
	for i := 1; i <= 90; i++ {
		fmt.Fprintf(&b, "INSERT INTO pets VALUES (%d, 'Pet %d', '%s', %d, %d.%d, %d);\n", i, i, species[i%4], 2008+i%17, 2+i*7%40, i%10, i%3%2)
	}
	dir, rows := learnedDB(t, "round46.db", b.String(), "")
	answersAsHand(t, dir, rows, []struct{ q, want string }{
		{"how many shipments delivered to JFK", "SELECT count(*) FROM shipments WHERE shipment_status = 'delivered' AND destination_depot = 'JFK'"},
		{"how many shipments from LHR", "SELECT count(*) FROM shipments WHERE origin_depot = 'LHR'"},
		{"how many shipments from LHR to JFK", "SELECT count(*) FROM shipments WHERE origin_depot = 'LHR' AND destination_depot = 'JFK'"},
		{"how many accounts were founded before 2000", "SELECT count(*) FROM accounts WHERE year_founded < 2000"},
		{"how many accounts were founded between 1990 and 1999", "SELECT count(*) FROM accounts WHERE year_founded BETWEEN 1990 AND 1999"},
		{"how many payments above 1000 euros", "SELECT count(*) FROM payments WHERE amount > 1000 AND currency = 'EUR'"},
		{"how many neutered dogs", "SELECT count(*) FROM pets WHERE neutered = 1 AND species = 'Dog'"},
		{"how many pets born before 2015", "SELECT count(*) FROM pets WHERE birth_year < 2015"},
		{"the 3 heaviest pets", "SELECT pet_name FROM pets ORDER BY weight_kg DESC LIMIT 3"},
	})
	refusalsSay(t, dir, []struct{ q, says string }{
		// The period on the start date, where churn has its own date.
		{"what share of subscriptions churned in Q1", "ended_on"},
		{"how many payments above 1000 pounds", "does not convert"},
		// The year a pet was born is not when it was seen.
		{"how many dogs did we see in 2025", ""},
	})
	// A total of what subscriptions that end hold asks whether those
	// ended count; the total of every one takes in the churned and trial
	// ones: answered, with the warning.
	if out := askAt(t, dir, "2026-06-30", "total MRR"); out.Status != "clarify" {
		t.Errorf("total MRR: status %s %q; want asked whether the ended ones count", out.Status, out.Message)
	}
	out := askAt(t, dir, "2026-06-30", "total MRR in all")
	if out.Status != "succeeded" || !strings.Contains(fmt.Sprint(out.Checks), "churned") {
		t.Errorf("total MRR: status %s %q, checks %v; want the statuses warned of", out.Status, out.Message, out.Checks)
	}
}
