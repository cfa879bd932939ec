package config

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/deliver"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Channel is one destination of monitors' alerts (channels: in
// quarry.yaml): a webhook, a Slack-compatible incoming webhook or an email
// over SMTP. The URL, header values and the SMTP credentials are Secrets,
// expanded from ${VAR}.
type Channel struct {
	Name    string
	Kind    string // webhook | slack | email
	URL     Secret // webhook, slack
	Headers map[string]Secret
	SMTP    SMTP   // email
	From    string // email: the sender's address
	To      []string
	Line    int // line of the channel's name in quarry.yaml
}

// SMTP is an email channel's server and credentials.
type SMTP struct {
	Host     string
	Port     int // 0: the TLS mode's usual port
	Username Secret
	Password Secret
	TLS      string // starttls (""), tls or none
}

// Deliver is the channel as internal/deliver sends to it. The result
// holds the expanded secrets; deliver never prints them.
func (c *Channel) Deliver() deliver.Channel {
	ch := deliver.Channel{Name: c.Name, Kind: deliver.Kind(c.Kind), URL: c.URL.Value()}
	if len(c.Headers) > 0 {
		ch.Headers = make(map[string]string, len(c.Headers))
		for k, v := range c.Headers {
			ch.Headers[k] = v.Value()
		}
	}
	if c.Kind == string(deliver.Email) {
		ch.SMTP = deliver.SMTP{Host: c.SMTP.Host, Port: c.SMTP.Port, Username: c.SMTP.Username.Value(), Password: c.SMTP.Password.Value(),
			From: c.From, To: append([]string(nil), c.To...), TLS: deliver.TLSMode(c.SMTP.TLS)}
	}
	return ch
}

// channelKinds are the kinds a channel may be.
var channelKinds = []string{string(deliver.Webhook), string(deliver.Slack), string(deliver.Email)}

// channelDraft is a channel as written, before validation.
type channelDraft struct {
	Channel
	path, kindRaw, urlRaw string
	urlLine               int
}

// channels decodes the channels mapping, keeping file order.
func (d *decoder) channels(cfg *Config, n ast.Node, path string) error {
	m, err := d.mapping(n, path)
	if err != nil || m == nil {
		return err
	}
	cfg.Channels = map[string]*Channel{}
	for _, mv := range m.Values {
		name, err := d.keyText(mv.Key, path)
		if err != nil {
			return err
		}
		p := join(path, name)
		if !validName(name) {
			return d.errAt(lineOf(mv.Key), shorten(p), "a channel name uses letters, digits, _ and - only; rename it")
		}
		c := &channelDraft{path: p}
		c.Name, c.Line = name, lineOf(mv.Key)
		d.lines[p] = c.Line
		cm, err := d.mapping(mv.Value, p)
		if err != nil {
			return err
		}
		if cm == nil {
			return d.errAt(c.Line, p, "empty; give it a kind (webhook, slack or email) and where to send, e.g. `kind: slack` and `url: ${SLACK_WEBHOOK_URL}`")
		}
		err = d.fields(cm, p, []field{
			{"kind", d.str(&c.kindRaw)},
			{"url", func(n ast.Node, fp string) error {
				s, err := d.text(n, fp)
				if err != nil || s.null {
					return err
				}
				c.URL, c.urlRaw, c.urlLine = NewSecret(s.value), s.raw, s.line
				return nil
			}},
			{"headers", func(n ast.Node, fp string) error { return d.channelHeaders(n, fp, c) }},
			{"smtp", func(n ast.Node, fp string) error {
				sm, err := d.mapping(n, fp)
				if err != nil {
					return err
				}
				return d.fields(sm, fp, []field{
					{"host", d.str(&c.SMTP.Host)},
					{"port", d.intField(&c.SMTP.Port, 1)},
					{"username", func(n ast.Node, pp string) error {
						// A user name is often no secret; it is kept as one
						// (some providers' are keys) without a warning.
						s, err := d.text(n, pp)
						if err == nil && !s.null {
							c.SMTP.Username = NewSecret(s.value)
						}
						return err
					}},
					{"password", func(n ast.Node, pp string) error {
						raw, err := d.secretText(n, pp, &c.SMTP.Password)
						if err == nil && raw != "" && !strings.Contains(raw, "${") {
							return d.errAt(lineOf(n), pp, "the password is written into the file; move it to .env or the environment (SMTP_PASSWORD=...) and write password: ${SMTP_PASSWORD}")
						}
						return err
					}},
					{"tls", d.str(&c.SMTP.TLS)},
				})
			}},
			{"from", d.str(&c.From)},
			{"to", d.list(&c.To)},
		})
		if err != nil {
			return err
		}
		if err := d.validateChannel(c); err != nil {
			return err
		}
		ch := c.Channel
		cfg.Channels[name] = &ch
		cfg.ChannelNames = append(cfg.ChannelNames, name)
	}
	return nil
}

// channelHeaders decodes a webhook channel's headers. A header whose name
// suggests a credential must be a ${VAR} reference.
func (d *decoder) channelHeaders(n ast.Node, path string, c *channelDraft) error {
	m, err := d.mapping(n, path)
	if err != nil || m == nil {
		return err
	}
	c.Headers = map[string]Secret{}
	for _, mv := range m.Values {
		name, err := d.keyText(mv.Key, path)
		if err != nil {
			return err
		}
		hp := path + "." + name
		d.lines[hp] = lineOf(mv.Key)
		for k := range c.Headers {
			if strings.EqualFold(k, name) {
				return d.errAt(lineOf(mv.Key), shorten(hp), "repeats the header %q", shorten(k))
			}
		}
		s, err := d.text(mv.Value, hp)
		if err != nil {
			return err
		}
		if sensitiveHeader(name) && s.raw != "" && !strings.Contains(s.raw, "${") {
			return d.errAt(s.line, shorten(hp), "a credential is written into the file; move it to .env or the environment and write ${VAR} here")
		}
		c.Headers[name] = NewSecret(s.value)
	}
	return nil
}

// validateChannel checks a channel's fields for its kind, refuses secrets
// written into the file, and then asks deliver.Validate, pointing its
// message at the field's line.
func (d *decoder) validateChannel(c *channelDraft) error {
	p := c.path
	kind := strings.ToLower(strings.TrimSpace(c.kindRaw))
	switch {
	case c.kindRaw == "":
		return d.errAt(c.Line, p, "missing kind; add `kind: webhook`, `kind: slack` or `kind: email`")
	case !slices.Contains(channelKinds, kind):
		return d.errAt(d.lines[p+".kind"], p+".kind", "unknown kind %q; %s", shorten(c.kindRaw), hint(kind, channelKinds))
	}
	c.Kind = kind
	only := func(fields []string, what string) error {
		for _, f := range fields {
			if line := d.lines[p+"."+f]; line != 0 {
				return d.errAt(line, p+"."+f, "is only for %s; remove it", what)
			}
		}
		return nil
	}
	switch deliver.Kind(kind) {
	case deliver.Email:
		if err := only([]string{"url", "headers"}, "webhook and slack channels"); err != nil {
			return err
		}
		if d.lines[p+".smtp"] == 0 {
			return d.errAt(c.Line, p, "missing smtp; add `smtp:` with the server's host (and port, tls, username, password)")
		}
	case deliver.Slack:
		if err := only([]string{"smtp", "from", "to", "headers"}, "other kinds of channel"); err != nil {
			return err
		}
	default:
		if err := only([]string{"smtp", "from", "to"}, "email channels"); err != nil {
			return err
		}
	}
	if kind != string(deliver.Email) {
		switch {
		case d.lines[p+".url"] == 0:
			return d.errAt(c.Line, p, "missing url; add `url: ${%s}` and set it in the environment or in .env beside quarry.yaml", envName(c.Name, "URL"))
		case c.urlRaw != "" && !strings.Contains(c.urlRaw, "${") && (kind == string(deliver.Slack) || literalCredential(c.urlRaw)):
			why := "the URL carries a user, password or query, which are secrets"
			if kind == string(deliver.Slack) {
				why = "a Slack webhook's URL is its token"
			}
			return d.errAt(c.urlLine, p+".url", "%s; move it to .env or the environment (%s=...) and write url: ${%s}", why, envName(c.Name, "URL"), envName(c.Name, "URL"))
		}
	}
	if err := deliver.Validate(c.Deliver()); err != nil {
		msg := strings.TrimPrefix(quarry.Message(err), "deliver: channel "+strconv.Quote(c.Name)+": ")
		field := channelField(msg)
		line := d.lines[p+"."+field]
		if line == 0 {
			field, line = "", c.Line
		}
		if field == "" {
			return d.errAt(line, p, "%s", msg)
		}
		return d.errAt(line, p+"."+field, "%s", msg)
	}
	return nil
}

// channelField is the field deliver.Validate's message is about, by how
// the message begins.
func channelField(msg string) string {
	for _, f := range []struct{ prefix, field string }{
		{"url ", "url"},
		{"smtp host", "smtp.host"},
		{"smtp port", "smtp.port"},
		{"tls", "smtp.tls"},
		{"from ", "from"},
		{"to ", "to"},
		{"set both username", "smtp"},
		{"header ", "headers"},
		{"the value of header", "headers"},
	} {
		if strings.HasPrefix(msg, f.prefix) {
			return f.field
		}
	}
	return ""
}

// envName suggests a variable for a channel's secret: ops-alerts, URL →
// OPS_ALERTS_URL.
func envName(channel, what string) string {
	return strings.ToUpper(strings.NewReplacer("-", "_").Replace(channel)) + "_" + what
}

// ChannelLabel describes a channel without its secrets: its kind and
// where it sends (the URL's scheme and host, or the SMTP server).
func (c *Channel) ChannelLabel() string {
	if c.Kind == string(deliver.Email) {
		return fmt.Sprintf("email via %s to %s", c.SMTP.Host, strings.Join(c.To, ", "))
	}
	u, err := url.Parse(c.URL.Value())
	if err != nil || u.Host == "" {
		return c.Kind
	}
	return fmt.Sprintf("%s to %s://%s/…", c.Kind, u.Scheme, u.Host)
}

// validatePublicURL checks server.public_url: an http(s) address without
// a user, query or fragment, kept without its trailing slash.
func (d *decoder) validatePublicURL(cfg *Config) error {
	s := strings.TrimRight(strings.TrimSpace(cfg.Server.PublicURL), "/")
	if s == "" {
		cfg.Server.PublicURL = ""
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return d.errAt(d.lines["server.public_url"], "server.public_url", "expected the http:// or https:// address people open quarry serve at, like https://quarry.example.com")
	}
	cfg.Server.PublicURL = s
	return nil
}
