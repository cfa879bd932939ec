package runtime

import "testing"

func TestSetTopLevel(t *testing.T) {
	src := "# a monitor\nmetric: orders\nmuted_until: 2026-01-01\ngrain: week\n"
	for _, tt := range []struct{ value, want string }{
		{"2026-07-15", "# a monitor\nmetric: orders\nmuted_until: 2026-07-15\ngrain: week\n"},
		{"", "# a monitor\nmetric: orders\ngrain: week\n"},
	} {
		if got := setTopLevel(src, "muted_until", tt.value); got != tt.want {
			t.Errorf("setTopLevel(%q) = %q, want %q", tt.value, got, tt.want)
		}
	}
	if got := setTopLevel("metric: orders", "muted_until", "2026-07-15"); got != "metric: orders\nmuted_until: 2026-07-15\n" {
		t.Errorf("appended: %q", got)
	}
}

func TestNameOf(t *testing.T) {
	for in, want := range map[string]string{
		"weekly_orders_by_channel":       "weekly_orders_by_channel",
		"Weekly Orders — by Channel!":    "weekly_orders_by_channel",
		"":                               "monitor",
		"What is our MRR? (verified) ok": "what_is_our_mrr_verified_ok",
	} {
		if got := nameOf(in); got != want {
			t.Errorf("nameOf(%q) = %q, want %q", in, got, want)
		}
	}
}
