package deliver

import (
	"net/http"
	"net/mail"
	"net/netip"
	"net/url"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Validate checks a channel as configured, before anything is sent: its
// name and kind; for a webhook or Slack, an https URL (http only to this
// machine) and header names and values that can be sent; for email, the
// server, addresses that parse, a known TLS mode and a password that never
// goes to another machine in clear text. The error is a KindConfig
// *quarry.Error that names the channel and the field, never a secret.
func Validate(ch Channel) error {
	if strings.TrimSpace(ch.Name) == "" {
		return quarry.Errorf(quarry.KindConfig, "deliver: a %s channel has no name; give every channel a name", kindName(ch.Kind))
	}
	bad := func(format string, args ...any) error {
		return quarry.Errorf(quarry.KindConfig, "deliver: channel %q: "+format, append([]any{ch.Name}, args...)...)
	}
	switch ch.Kind {
	case Webhook, Slack:
		if strings.TrimSpace(ch.URL) == "" {
			return bad("url is empty; set the %s's URL (a ${VAR} that is not set expands to nothing)", kindName(ch.Kind))
		}
		u, err := url.Parse(ch.URL)
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return bad("url is not an http(s) address; set it like https://example.com/hook")
		}
		if u.Scheme == "http" && !loopback(u.Hostname()) {
			return bad("url must be https://; http:// is only for a receiver on this machine")
		}
		for name, value := range ch.Headers {
			if !validHeaderName(name) {
				return bad("header %q is not a valid HTTP header name", name)
			}
			switch http.CanonicalHeaderKey(name) {
			case "Host", "Content-Length", "Content-Type", "Transfer-Encoding", "Connection", "User-Agent":
				return bad("header %q is set by quarry; remove it", name)
			}
			if strings.ContainsAny(value, "\r\n\x00") {
				return bad("the value of header %q holds a line break; remove it", name)
			}
		}
	case Email:
		c := ch.SMTP
		if strings.TrimSpace(c.Host) == "" || strings.ContainsAny(c.Host, " /:@") && !isIPv6(c.Host) {
			return bad("smtp host must be a host name or address, like smtp.example.com")
		}
		if c.Port < 0 || c.Port > 65535 {
			return bad("smtp port %d is not a port; use 587 (starttls), 465 (tls) or 25", c.Port)
		}
		switch c.tls() {
		case StartTLS, ImplicitTLS, NoTLS:
		default:
			return bad("tls %q is not one of starttls, tls, none", c.TLS)
		}
		if _, err := mail.ParseAddress(c.From); err != nil {
			return bad("from %q is not an email address; set it like alerts@example.com", c.From)
		}
		if len(c.To) == 0 {
			return bad("to lists no one; add at least one address")
		}
		for _, t := range c.To {
			if _, err := mail.ParseAddress(t); err != nil {
				return bad("to %q is not an email address", t)
			}
		}
		if (c.Username == "") != (c.Password == "") {
			return bad("set both username and password, or neither (a ${VAR} that is not set expands to nothing)")
		}
		if c.Password != "" && c.tls() == NoTLS && !isLocalhost(c.Host) {
			return bad("tls: none would send the password in clear text to %s; use starttls or tls", c.Host)
		}
	default:
		return bad("kind %q is not one of webhook, slack, email", ch.Kind)
	}
	return nil
}

func kindName(k Kind) string {
	if k == "" {
		return "delivery"
	}
	return string(k)
}

// loopback reports whether host is this machine: localhost or a loopback
// address.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

func isIPv6(host string) bool {
	a, err := netip.ParseAddr(host)
	return err == nil && a.Is6()
}

// validHeaderName reports whether name is an HTTP token (RFC 9110 5.6.2).
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r > 0x7e || r <= 0x20 || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}
