package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestUnseenLibrary asks a database quarry has never seen, with
// knowledge from learn alone, what an outside tester found answered
// wrong at confidence 1.00: a breakdown by "member city" grouped by each
// member as well; "fines paid in 2024" and "loans returned in May 2025"
// dated by the date the rows were made, where the dates are SQLite TEXT
// columns; "how many loans in 2024" refused although loans are events;
// and "amount" not understood for amount_usd. Each answer must hold the figures an independent query gives,
// or be refused with the fragment given.
func TestUnseenLibrary(t *testing.T) {
	var b strings.Builder
	b.WriteString(`CREATE TABLE branches (branch_id INTEGER PRIMARY KEY, branch_name TEXT);
INSERT INTO branches VALUES (1, 'North'), (2, 'South');
CREATE TABLE members (member_ID INTEGER PRIMARY KEY, full_name TEXT, city TEXT, joined_on TEXT, branch_id INTEGER REFERENCES branches(branch_id));
CREATE TABLE loans (loan_id INTEGER PRIMARY KEY, member_ID INTEGER REFERENCES members(member_ID), borrowed_on TEXT, due_on TEXT, returned_on TEXT, status TEXT);
CREATE TABLE fines (fine_id INTEGER PRIMARY KEY, loan_id INTEGER REFERENCES loans(loan_id), amount_usd REAL, issued_on TEXT, paid_on TEXT);
`)
	cities := []string{"Lakeside", "Hillview", "Riverton"}
	for m := 1; m <= 30; m++ {
		fmt.Fprintf(&b, "INSERT INTO members VALUES (%d, 'Member %d', '%s', '2023-%02d-01', %d);\n", m, m, cities[m%3], m%12+1, m%2+1)
	}
	// Two members with no city, who never borrowed.
	b.WriteString("INSERT INTO members VALUES (31, 'Member 31', NULL, '2023-05-01', 1), (32, 'Member 32', NULL, '2023-06-01', 2);\n")
	for l := 1; l <= 400; l++ {
		// Borrowed across 2024 and 2025; returned 10 to 40 days later,
		// often in the next month; every fifth still out.
		month, day := l%24, l%28+1
		borrowed := fmt.Sprintf("%d-%02d-%02d", 2024+month/12, month%12+1, day)
		returned, status := "NULL", "'out'"
		if l%5 != 0 {
			rm := month + (day+10+l%30)/28
			returned, status = fmt.Sprintf("'%d-%02d-%02d'", 2024+rm/12, rm%12+1, (day+10+l%30)%28+1), "'returned'"
		}
		fmt.Fprintf(&b, "INSERT INTO loans VALUES (%d, %d, '%s', date('%s', '+21 days'), %s, %s);\n", l, l%30+1, borrowed, borrowed, returned, status)
		if l%3 == 0 {
			paid := "NULL"
			if l%2 == 0 {
				paid = fmt.Sprintf("date('%s', '+%d days')", borrowed, 30+l%60)
			}
			fmt.Fprintf(&b, "INSERT INTO fines VALUES (%d, %d, %d.25, date('%s', '+25 days'), %s);\n", l, l, l%7+1, borrowed, paid)
		}
	}
	dir, rows := learnedDB(t, "library.db", b.String(), "")
	for _, tt := range []struct {
		q      string
		want   string // an independent query for every row
		refuse string
		warn   string // a check that must warn, with this in its detail
	}{
		{q: "loans by member city", want: "SELECT m.city, count(*) FROM loans l JOIN members m ON m.member_ID = l.member_ID GROUP BY m.city ORDER BY m.city"},
		{q: "loans by city of member", want: "SELECT m.city, count(*) FROM loans l JOIN members m ON m.member_ID = l.member_ID GROUP BY m.city ORDER BY m.city"},
		{q: "loans by member branch", want: "SELECT b.branch_name, count(*) FROM loans l JOIN members m ON m.member_ID = l.member_ID JOIN branches b ON b.branch_id = m.branch_id GROUP BY b.branch_id ORDER BY b.branch_id"},
		{q: "how many fines paid in 2024", want: "SELECT count(*) FROM fines WHERE paid_on >= '2024-01-01' AND paid_on < '2025-01-01'"},
		{q: "how many loans returned in May 2025", want: "SELECT count(*) FROM loans WHERE status = 'returned' AND returned_on >= '2025-05-01' AND returned_on < '2025-06-01'"},
		{q: "how many loans in 2024", want: "SELECT count(*) FROM loans WHERE borrowed_on >= '2024-01-01' AND borrowed_on < '2025-01-01'"},
		// A unit at the end of a column's name: "amount" is amount_usd.
		{q: "total fine amount in 2024", want: "SELECT sum(amount_usd) FROM fines WHERE issued_on >= '2024-01-01' AND issued_on < '2025-01-01'"},
		{q: "which members borrowed last month", want: "SELECT full_name FROM members m WHERE EXISTS (SELECT 1 FROM loans l WHERE l.member_ID = m.member_ID AND borrowed_on >= '2025-11-01' AND borrowed_on < '2025-12-01') ORDER BY member_ID"},
		{q: "how many members borrowed last month", want: "SELECT count(DISTINCT member_ID) FROM loans WHERE borrowed_on >= '2025-11-01' AND borrowed_on < '2025-12-01'"},
		// "not X" keeps the members with no city: they are not in
		// Lakeside either (the compiler's OrNull; it used to drop them
		// with a warning).
		{q: "how many members aren't in Lakeside", want: "SELECT count(*) FROM members WHERE city IS NULL OR city <> 'Lakeside'"},
	} {
		t.Run(tt.q, func(t *testing.T) {
			out := askAt(t, dir, "2025-12-31", tt.q)
			if tt.want == "" {
				if tt.refuse != "" && (out.Status == "succeeded" || !strings.Contains(out.Message, tt.refuse)) {
					t.Errorf("status %s %q; want a refusal saying %q", out.Status, out.Message, tt.refuse)
				}
				return
			}
			got := out.rowStrings()
			if want := rows(tt.want); out.Status != "succeeded" || strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("status %s %q\nSQL %s\nrows %v\nwant %v", out.Status, out.Message, out.SQL, got, want)
			}
			if tt.warn != "" && !slices.ContainsFunc(out.Checks, func(c checkOut) bool { return c.Status == "warn" && strings.Contains(c.Detail, tt.warn) }) {
				t.Errorf("no check warns %q: %+v", tt.warn, out.Checks)
			}
		})
	}
}
