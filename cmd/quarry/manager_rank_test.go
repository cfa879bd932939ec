package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestManagerRankings asks the demo the rankings and breakdowns a manager
// misread at reduced confidence (2026-12-02): a NULL group named the
// winner, one of several tied rows named alone (the answer still shows
// the rows the limit asks for, and names the others that tie), a value held to a column
// it is not a value of, and a breakdown whose groups with none had no row.
// Each is answered, and the answer says what a manager needs to read it.
func TestManagerRankings(t *testing.T) {
	demo := demoProject(t)
	for _, tt := range []struct {
		q      string
		rows   string   // the rows, as "a|b" joined by " "
		answer []string // fragments of the answer
		not    []string // fragments it must not have
	}{
		// The orders with no code are no discount code.
		{q: "which discount code has the most orders", rows: "FREESHIP|1582", not: []string{"NULL"}},
		{q: "which discount code has the fewest orders", rows: "SUMMER10|802"},
		{q: "top 3 discount codes by orders", answer: []string{"FREESHIP"}, not: []string{"NULL"}},
		// A tie: the limit keeps one row, and the sentence names both
		// and says the table shows one.
		{q: "which department has the most employees", answer: []string{"a tie — ", "Customer Support", "Engineering", "have **15** each; the limit of 1 shows"}},
		{q: "the name of the department with the most employees", answer: []string{"A tie: ", "Customer Support", "Engineering", "share the first place"}},
		{q: "which product category has the fewest products", answer: []string{"a tie — Beauty, Books, Electronics, Garden, Grocery, Home, Sports and Toys have **25** each"}},
		// Adversarial: no tie, one row; "top 2" is not widened.
		{q: "which customer has the most orders", rows: "Priya Dawson|456", not: []string{"a tie"}},
		{q: "top 2 departments by headcount", answer: []string{"Customer Support", "Engineering"}, not: []string{"a tie"}},
		// "a discount code" says the orders have one; "web" is a channel.
		{q: "revenue from orders with a discount code web", answer: []string{"filter channel = web", "filter discount_code is set"}},
		// A breakdown by a column whose values the knowledge lists says
		// which had none; one filtered to some values does not.
		{q: "urgent tickets by category yesterday", answer: []string{"Account, Billing, Product question and Returns have none (0)"}},
		{q: "tickets by category on 2026-06-27", answer: []string{"Product question and Technical issue have none (0)"}},
		{q: "orders web vs store in 2025", not: []string{"have none", "has none"}},
		{q: "tickets by priority last month", not: []string{"have none", "has none"}},
	} {
		t.Run(tt.q, func(t *testing.T) {
			r := quarryCmd(t, "", "-C", demo, "ask", "--as-of", "2026-06-30", "--json", tt.q)
			var out struct {
				Status     string   `json:"status"`
				Answer     string   `json:"answer"`
				Understood []string `json:"understood"`
				SQL        string   `json:"sql"`
				Rows       [][]any  `json:"rows"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
				t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
			}
			if out.Status != "succeeded" {
				t.Fatalf("status %s: %s%s", out.Status, r.stdout, r.stderr)
			}
			text := out.Answer + "\n" + strings.Join(out.Understood, "\n")
			if tt.rows != "" {
				var got []string
				for _, row := range out.Rows {
					var cells []string
					for _, c := range row {
						cells = append(cells, fmt.Sprint(c))
					}
					got = append(got, strings.Join(cells, "|"))
				}
				if strings.Join(got, " ") != tt.rows {
					t.Errorf("rows %v, want %s\n%s", got, tt.rows, out.SQL)
				}
			}
			for _, a := range tt.answer {
				if !strings.Contains(text, a) {
					t.Errorf("the answer does not say %q:\n%s", a, text)
				}
			}
			for _, a := range tt.not {
				if strings.Contains(text, a) {
					t.Errorf("the answer says %q:\n%s", a, text)
				}
			}
		})
	}
}
