package deliver

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestValidate(t *testing.T) {
	mail := func(f func(*SMTP)) Channel {
		c := Channel{Name: "oncall", Kind: Email, SMTP: SMTP{Host: "smtp.example.com", From: "alerts@example.com", To: []string{"ops@example.com"}, Username: "u", Password: "p4ssword-secret"}}
		if f != nil {
			f(&c.SMTP)
		}
		return c
	}
	tests := []struct {
		name string
		ch   Channel
		want string // a part of the message; "" for valid
	}{
		{"webhook", Channel{Name: "ops", Kind: Webhook, URL: "https://example.com/hook?token=abc", Headers: map[string]string{"Authorization": "Bearer x"}}, ""},
		{"http to localhost", Channel{Name: "ops", Kind: Webhook, URL: "http://localhost:9000/hook"}, ""},
		{"http to 127.0.0.2", Channel{Name: "ops", Kind: Webhook, URL: "http://127.0.0.2/hook"}, ""},
		{"http to ::1", Channel{Name: "ops", Kind: Webhook, URL: "http://[::1]:9000/hook"}, ""},
		{"slack", Channel{Name: "ops", Kind: Slack, URL: "https://hooks.slack.com/services/T0/B0/secret"}, ""},
		{"email", mail(nil), ""},
		{"email on 465", mail(func(c *SMTP) { c.TLS, c.Port = ImplicitTLS, 465 }), ""},
		{"email without auth in clear text", mail(func(c *SMTP) { c.TLS, c.Username, c.Password = NoTLS, "", "" }), ""},
		{"auth in clear text to localhost", mail(func(c *SMTP) { c.TLS, c.Host = NoTLS, "localhost" }), ""},
		{"ipv6 host", mail(func(c *SMTP) { c.Host = "2001:db8::1" }), ""},

		{"no name", Channel{Kind: Webhook, URL: "https://example.com"}, "a webhook channel has no name"},
		{"unknown kind", Channel{Name: "ops", Kind: "pager"}, `kind "pager" is not one of webhook, slack, email`},
		{"no kind", Channel{Name: "ops"}, `kind "" is not one of`},
		{"empty url", Channel{Name: "ops", Kind: Slack, URL: ""}, "url is empty; set the slack's URL"},
		{"not a url", Channel{Name: "ops", Kind: Webhook, URL: "hooks.example.com/x-secret"}, "url is not an http(s) address"},
		{"ftp", Channel{Name: "ops", Kind: Webhook, URL: "ftp://example.com/x-secret"}, "url is not an http(s) address"},
		{"bad escape", Channel{Name: "ops", Kind: Webhook, URL: "https://example.com/%zz-secret"}, "url is not an http(s) address"},
		{"http elsewhere", Channel{Name: "ops", Kind: Webhook, URL: "http://example.com/x-secret"}, "url must be https://"},
		{"http to a lookalike", Channel{Name: "ops", Kind: Webhook, URL: "http://localhost.example.com/x-secret"}, "url must be https://"},
		{"bad header name", Channel{Name: "ops", Kind: Webhook, URL: "https://e.com", Headers: map[string]string{"X Bad": "v"}}, `header "X Bad" is not a valid`},
		{"header quarry sets", Channel{Name: "ops", Kind: Webhook, URL: "https://e.com", Headers: map[string]string{"content-type": "text/plain"}}, `header "content-type" is set by quarry`},
		{"header injection", Channel{Name: "ops", Kind: Webhook, URL: "https://e.com", Headers: map[string]string{"X-Token": "a-secret\r\nX-Evil: 1"}}, `the value of header "X-Token" holds a line break`},
		{"no host", mail(func(c *SMTP) { c.Host = "" }), "smtp host must be"},
		{"host with a port", mail(func(c *SMTP) { c.Host = "smtp.example.com:587" }), "smtp host must be"},
		{"bad port", mail(func(c *SMTP) { c.Port = 70000 }), "smtp port 70000 is not a port"},
		{"bad tls", mail(func(c *SMTP) { c.TLS = "ssl" }), `tls "ssl" is not one of starttls, tls, none`},
		{"bad from", mail(func(c *SMTP) { c.From = "alerts" }), `from "alerts" is not an email address`},
		{"from injection", mail(func(c *SMTP) { c.From = "a@example.com\r\nBcc: b@example.com" }), "is not an email address"},
		{"no to", mail(func(c *SMTP) { c.To = nil }), "to lists no one"},
		{"bad to", mail(func(c *SMTP) { c.To = []string{"ops@example.com", "ops at example"} }), `to "ops at example" is not an email address`},
		{"username without password", mail(func(c *SMTP) { c.Password = "" }), "set both username and password"},
		{"password in clear text", mail(func(c *SMTP) { c.TLS = NoTLS }), "tls: none would send the password in clear text to smtp.example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.ch)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if quarry.KindOf(err) != quarry.KindConfig || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate = %v, want a config error with %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "deliver: ") || strings.Contains(err.Error(), "secret") {
				t.Errorf("message %q", err)
			}
		})
	}
}
