package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/deliver"
	"github.com/quarrydata/quarry/internal/quarry"
)

func channelEnv() Lookup {
	return func(k string) (string, bool) {
		v, ok := map[string]string{
			"SLACK_URL":     "https://hooks.slack.com/services/T0/B0/" + secretValue,
			"HOOK_TOKEN":    secretValue,
			"SMTP_PASSWORD": secretValue,
			"EMPTY":         "",
		}[k]
		return v, ok
	}
}

// TestChannels loads a channels: section of every kind: the secrets come
// from ${VAR}, the channel is what deliver sends to, and nothing printed
// holds a secret.
func TestChannels(t *testing.T) {
	src := `version: 1
server:
  public_url: https://quarry.example.com/
channels:
  ops-alerts:
    kind: slack
    url: ${SLACK_URL}
  hook:
    kind: webhook
    url: http://127.0.0.1:9999/hook
    headers:
      Authorization: Bearer ${HOOK_TOKEN}
      X-Team: data
  mail:
    kind: email
    smtp:
      host: smtp.example.com
      port: 587
      username: alerts
      password: ${SMTP_PASSWORD}
    from: Quarry <alerts@example.com>
    to: [ana@example.com, ops@example.com]
`
	cfg, err := Parse([]byte(src), "quarry.yaml", channelEnv())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"ops-alerts", "hook", "mail"}, cfg.ChannelNames); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if cfg.Server.PublicURL != "https://quarry.example.com" {
		t.Errorf("public_url %q", cfg.Server.PublicURL)
	}
	want := deliver.Channel{Name: "mail", Kind: deliver.Email, SMTP: deliver.SMTP{Host: "smtp.example.com", Port: 587, Username: "alerts", Password: secretValue,
		From: "Quarry <alerts@example.com>", To: []string{"ana@example.com", "ops@example.com"}}}
	if diff := cmp.Diff(want, cfg.Channels["mail"].Deliver()); diff != "" {
		t.Errorf("mail (-want +got):\n%s", diff)
	}
	if got := cfg.Channels["hook"].Deliver().Headers["Authorization"]; got != "Bearer "+secretValue {
		t.Errorf("hook's header %q", got)
	}
	if got := cfg.Channels["ops-alerts"].Deliver().URL; !strings.HasSuffix(got, secretValue) {
		t.Errorf("slack url %q", got)
	}
	if cfg.Channels["hook"].Line != 8 {
		t.Errorf("hook's line %d", cfg.Channels["hook"].Line)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings: %q", cfg.Warnings)
	}
	for _, f := range []func() ([]byte, error){cfg.Redacted, cfg.RedactedJSON} {
		out, err := f()
		if err != nil || strings.Contains(string(out), secretValue) || !strings.Contains(string(out), "ops-alerts") {
			t.Errorf("the redacted config shows a secret or misses the channel: %v\n%s", err, out)
		}
	}
}

// TestChannelErrors: each mistake in a channel is one line naming the
// file, the line and the field, with no secret in it.
func TestChannelErrors(t *testing.T) {
	head := "version: 1\nchannels:\n  ops:\n"
	for _, tt := range []struct {
		name, body, want string
	}{
		{"bad kind", "    kind: sms\n    url: ${SLACK_URL}\n", "quarry.yaml:4: channels.ops.kind: unknown kind \"sms\"; expected one of: email, slack, webhook"},
		{"misspelt kind", "    kind: slak\n    url: ${SLACK_URL}\n", `quarry.yaml:4: channels.ops.kind: unknown kind "slak"; did you mean "slack"?`},
		{"no kind", "    url: ${SLACK_URL}\n", "quarry.yaml:3: channels.ops: missing kind"},
		{"unknown field", "    kind: slack\n    ulr: ${SLACK_URL}\n", `quarry.yaml:5: channels.ops.ulr: unknown field; did you mean "url"?`},
		{"missing variable", "    kind: slack\n    url: ${SLACK_WEBHOOK}\n", "quarry.yaml:5: channels.ops.url: ${SLACK_WEBHOOK} is not set; set SLACK_WEBHOOK in the environment or in .env"},
		{"empty variable", "    kind: webhook\n    url: ${EMPTY}\n", "quarry.yaml:5: channels.ops.url: url is empty"},
		{"no url", "    kind: webhook\n", "quarry.yaml:3: channels.ops: missing url; add `url: ${OPS_URL}`"},
		{"plain slack url", "    kind: slack\n    url: https://hooks.slack.com/services/T0/B0/XYZ\n", "quarry.yaml:5: channels.ops.url: a Slack webhook's URL is its token; move it to .env or the environment (OPS_URL=...) and write url: ${OPS_URL}"},
		{"plain url with a token", "    kind: webhook\n    url: https://example.com/hook?token=abc\n", "quarry.yaml:5: channels.ops.url: the URL carries a user, password or query"},
		{"plain password", "    kind: email\n    smtp:\n      host: smtp.example.com\n      username: me\n      password: hunter2\n    from: a@example.com\n    to: [b@example.com]\n", "quarry.yaml:8: channels.ops.smtp.password: the password is written into the file"},
		{"plain token header", "    kind: webhook\n    url: https://example.com/hook\n    headers:\n      Authorization: Bearer abc\n", "quarry.yaml:7: channels.ops.headers.Authorization: a credential is written into the file"},
		{"bad url", "    kind: webhook\n    url: ftp://example.com/hook\n", "quarry.yaml:5: channels.ops.url: url is not an http(s) address"},
		{"http to another machine", "    kind: webhook\n    url: http://example.com/hook\n", "quarry.yaml:5: channels.ops.url: url must be https://; http:// is only for a receiver on this machine"},
		{"bad address", "    kind: email\n    smtp:\n      host: smtp.example.com\n    from: not an address\n    to: [b@example.com]\n", `quarry.yaml:7: channels.ops.from: from "not an address" is not an email address`},
		{"no recipient", "    kind: email\n    smtp:\n      host: smtp.example.com\n    from: a@example.com\n", "quarry.yaml:3: channels.ops: to lists no one"},
		{"clear-text password", "    kind: email\n    smtp:\n      host: smtp.example.com\n      tls: none\n      username: me\n      password: ${SMTP_PASSWORD}\n    from: a@example.com\n    to: [b@example.com]\n", "quarry.yaml:7: channels.ops.smtp.tls: tls: none would send the password in clear text"},
		{"smtp on a webhook", "    kind: webhook\n    url: https://example.com/hook\n    to: [b@example.com]\n", "quarry.yaml:6: channels.ops.to: is only for email channels; remove it"},
		{"no smtp", "    kind: email\n    from: a@example.com\n    to: [b@example.com]\n", "quarry.yaml:3: channels.ops: missing smtp"},
	} {
		_, err := Parse([]byte(head+tt.body), "quarry.yaml", channelEnv())
		if err == nil {
			t.Errorf("%s: loaded", tt.name)
			continue
		}
		var qe *quarry.Error
		msg := err.Error()
		switch {
		case !errors.As(err, &qe) || qe.Kind != quarry.KindConfig:
			t.Errorf("%s: %v is not a config error", tt.name, err)
		case strings.ContainsAny(msg, "\r\n") || strings.Contains(msg, secretValue) || strings.Contains(msg, "XYZ") || strings.Contains(msg, "hunter2") || strings.Contains(msg, "token=abc"):
			t.Errorf("%s: not one line, or shows a secret: %q", tt.name, msg)
		case !strings.HasPrefix(msg, tt.want):
			t.Errorf("%s:\n got %s\nwant %s…", tt.name, msg, tt.want)
		}
	}
}

func TestPublicURL(t *testing.T) {
	_, err := Parse([]byte("version: 1\nserver:\n  public_url: quarry.example.com\n"), "quarry.yaml", nil)
	if err == nil || !strings.HasPrefix(err.Error(), "quarry.yaml:3: server.public_url: expected the http:// or https:// address") {
		t.Errorf("got %v", err)
	}
}
