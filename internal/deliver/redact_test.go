package deliver

import "testing"

func TestTargetAndScrub(t *testing.T) {
	tests := []struct {
		ch     Channel
		target string
		in     string // text that echoes the channel
		want   string
	}{
		{Channel{Kind: Webhook, URL: "https://example.com"}, "https://example.com", "could not reach https://example.com", "could not reach https://example.com"},
		{Channel{Kind: Webhook, URL: "https://example.com/"}, "https://example.com", "https://example.com/ said no", "https://example.com/ said no"},
		{Channel{Kind: Slack, URL: "https://hooks.slack.com/services/T0123ABCD/B0123ABCD/abcdefghijklmnopqrstuvwx"}, "https://hooks.slack.com/…",
			`Post "https://hooks.slack.com/services/T0123ABCD/B0123ABCD/abcdefghijklmnopqrstuvwx": EOF; services for abcdefghijklmnopqrstuvwx`,
			`Post "https://hooks.slack.com[redacted]": EOF; services for [redacted]`},
		{Channel{Kind: Webhook, URL: "https://user:pa55word@example.com:8443/hook?key=k3y-value"}, "https://example.com:8443/…",
			"user:pa55word k3y-value pa55word /hook?key=k3y-value", "[redacted] [redacted] [redacted] /hook?[redacted]"},
		{Channel{Kind: Webhook, URL: "https://example.com/h", Headers: map[string]string{"Authorization": "Bearer tok3n-abc"}}, "https://example.com/…",
			"auth Bearer tok3n-abc; tok3n-abc", "auth [redacted]; [redacted]"},
		{Channel{Kind: Email, SMTP: SMTP{Host: "smtp.example.com", Username: "u", Password: "pw"}}, "smtp://smtp.example.com:587", "pw is pw", "[redacted] is [redacted]"},
		{Channel{Kind: Email, SMTP: SMTP{Host: "::1", TLS: ImplicitTLS}}, "smtp://[::1]:465", "x", "x"},
		{Channel{Kind: Email, SMTP: SMTP{Host: "localhost", TLS: NoTLS}}, "smtp://localhost:25", "x", "x"},
	}
	for _, tt := range tests {
		if got := target(tt.ch); got != tt.target {
			t.Errorf("target(%s) = %q, want %q", tt.ch.URL, got, tt.target)
		}
		if got := newScrubber(tt.ch).text(tt.in); got != tt.want {
			t.Errorf("scrub(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
