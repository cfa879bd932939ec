package planner

import (
	"strings"
	"testing"
	"time"
)

// TestPhrasalNounIsNoWrite: a noun made of a verb and its particle
// ("charge-offs", "write-offs", "sign-ups") is asked about, not an order
// to change data (found from outside, on a credit union: "charge-offs in
// Q1" refused as a write). The verb with its particle as an order still
// is.
func TestPhrasalNounIsNoWrite(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, write := range map[string]bool{
		"charge-offs in Q1":            false,
		"charge offs by month":         false,
		"write-offs last year":         false,
		"charge off order 42":          true,
		"write off the unpaid orders":  true,
		"update the price of Premium":  true,
		"please delete cancelled ones": true,
	} {
		pl := p.Plan(q, asOf)
		if got := pl.Kind == KindRefuse && strings.Contains(pl.Reason, "asks to change data"); got != write {
			t.Errorf("%q: refused as a write %v, want %v (%s %q)", q, got, write, pl.Kind, pl.Reason)
		}
	}
}
