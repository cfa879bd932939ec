package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"driver", "driver", 0},
		{"drvier", "driver", 2},
		{"Driver", "driver", 0},
		{"revenue", "revenu", 1},
		{"kitten", "sitting", 3},
		{"café", "cafe", 1},
		{"", "abc", 3},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	if w, d := Closest("drvier", []string{"path", "driver", "url"}); w != "driver" || d != 2 {
		t.Errorf("Closest = %q, %d", w, d)
	}
	if w, d := Closest("x", nil); w != "" || d != -1 {
		t.Errorf("Closest of nothing = %q, %d", w, d)
	}
	if w, _ := Closest("ab", []string{"aa", "bb"}); w != "aa" {
		t.Errorf("a tie should keep the first word, got %q", w)
	}
}

func TestTypos(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"ordres", "orders", 1},
		{"ordres", "ordered", 2},
		{"chanel", "channel", 1},
		{"Revnue", "revenue", 1},
		{"", "abc", 3},
	} {
		if got := Typos(c.a, c.b); got != c.want {
			t.Errorf("Typos(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
