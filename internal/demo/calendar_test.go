package demo

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestCalendarProperties: for any anchor, history is the 36 calendar
// months ending with the anchor's month, cut at the anchor day, and the dip
// week is a Monday-to-Sunday week holding the day ten weeks before it.
func TestCalendarProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		anchor := time.Date(rapid.IntRange(1990, 2200).Draw(t, "year"), time.Month(rapid.IntRange(1, 12).Draw(t, "month")),
			rapid.IntRange(1, 31).Draw(t, "day"), rapid.IntRange(0, 23).Draw(t, "hour"), 0, 0, 0,
			time.FixedZone("z", rapid.IntRange(-12, 14).Draw(t, "zone")*3600))
		c := newCalendar(anchor)
		y, m, d := anchor.Date()
		if got, want := c.labels[c.days-1], time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Format(time.DateOnly); got != want {
			t.Fatalf("last day %s, want %s", got, want)
		}
		first := c.date(0)
		if first.Day() != 1 || (y*12+int(m))-(first.Year()*12+int(first.Month())) != 35 {
			t.Fatalf("first day %s for anchor %s", c.labels[0], anchor)
		}
		for i := 1; i < c.days; i++ {
			if c.labels[i] <= c.labels[i-1] {
				t.Fatalf("labels not increasing at %d: %s, %s", i, c.labels[i-1], c.labels[i])
			}
		}
		ten := c.days - 1 - 70
		if !c.inDip(ten) || c.date(c.dip[0]).Weekday() != time.Monday || c.dip[1]-c.dip[0] != 7 {
			t.Fatalf("dip %v does not hold day %d as a Monday-to-Sunday week", c.dip, ten)
		}
		if c.index(c.date(c.days/2)) != c.days/2 {
			t.Fatal("index does not invert date")
		}
	})
}

// TestSpread: the counts add up to the total exactly and follow the
// weights to within one.
func TestSpread(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		weights := rapid.SliceOfN(rapid.Float64Range(0.01, 100), 1, 400).Draw(t, "weights")
		total := rapid.IntRange(0, 100000).Draw(t, "total")
		counts := spread(weights, total)
		sum, wsum := 0, 0.0
		for _, w := range weights {
			wsum += w
		}
		for i, c := range counts {
			sum += c
			exact := weights[i] / wsum * float64(total)
			if float64(c) < exact-1 || float64(c) > exact+1 {
				t.Fatalf("day %d gets %d, want about %.2f", i, c, exact)
			}
		}
		if sum != total {
			t.Fatalf("counts add up to %d, want %d", sum, total)
		}
	})
}

func TestAppendTimestamp(t *testing.T) {
	c := newCalendar(testAnchor)
	tests := []struct {
		day, sec int
		want     string
	}{
		{0, 0, "2023-07-01 00:00:00"},
		{0, 86399, "2023-07-01 23:59:59"},
		{c.days - 1, 3723, "2026-06-30 01:02:03"},
		{c.days, 0, "2026-07-01 00:00:00"},
	}
	for _, tt := range tests {
		if got := string(c.appendTimestamp(nil, tt.day, tt.sec)); got != tt.want {
			t.Errorf("appendTimestamp(%d, %d) = %s, want %s", tt.day, tt.sec, got, tt.want)
		}
	}
}
