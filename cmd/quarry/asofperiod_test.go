package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestAsOfPeriodKeepsRelatedRows: asked as of an earlier day, a count with
// a period of its own keeps the rows its condition reads to that day too:
// "customers who joined this year never bought a ticket" counts those who
// bought their first one after the day (found from outside: 177 for 202,
// at 1.00, the later purchases read as made by the day).
func TestAsOfPeriodKeepsRelatedRows(t *testing.T) {
	today := time.Now().UTC().Truncate(24 * time.Hour)
	asOf := today.AddDate(0, 0, -20)
	day := func(d time.Time) string { return d.Format("2006-01-02") }
	yearStart := time.Date(asOf.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	var b strings.Builder
	b.WriteString(`CREATE TABLE customers (id INTEGER PRIMARY KEY, full_name TEXT, joined_on TEXT);
CREATE TABLE tickets (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), sold_at TEXT, price_cents INTEGER);
`)
	for i := 1; i <= 60; i++ {
		// Joined this year, by the as-of day.
		joined := yearStart.AddDate(0, 0, i%max(1, int(asOf.Sub(yearStart).Hours()/24)))
		fmt.Fprintf(&b, "INSERT INTO customers VALUES (%d, 'Customer %d', '%s');\n", i, i, day(joined))
		switch {
		case i%3 == 0: // bought by the day
			fmt.Fprintf(&b, "INSERT INTO tickets VALUES (%d, %d, '%s', 1200);\n", i, i, day(asOf.AddDate(0, 0, -1)))
		case i%3 == 1: // bought only after the day
			fmt.Fprintf(&b, "INSERT INTO tickets VALUES (%d, %d, '%s', 1200);\n", i, i, day(asOf.AddDate(0, 0, 5)))
		}
	}
	dir, rows := learnedDB(t, "asofperiod.db", b.String(), "")
	want := rows(fmt.Sprintf("SELECT count(*) FROM customers c WHERE joined_on >= '%s' AND joined_on <= '%s' AND NOT EXISTS (SELECT 1 FROM tickets k WHERE k.customer_id = c.id AND k.sold_at <= '%s')", day(yearStart), day(asOf), day(asOf)))
	out := askAt(t, dir, day(asOf), "how many customers who joined this year never bought a ticket")
	var got []string
	for _, row := range out.Rows {
		got = append(got, fmt.Sprint(row...))
	}
	if out.Status != "succeeded" || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("status %s %q\nSQL %s\nrows %v\nwant %v", out.Status, out.Message, out.SQL, got, want)
	}
}
