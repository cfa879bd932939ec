package deliver

import (
	"cmp"
	"encoding/base64"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// redacted replaces a secret in text quarry repeats.
const redacted = "[redacted]"

// target is where a channel delivers, without a secret: the URL's scheme
// and host (a path, which may be a token, shows as "/…"), or the SMTP
// server's address.
func target(ch Channel) string {
	if ch.Kind == Email {
		return "smtp://" + smtpAddr(ch.SMTP)
	}
	u, err := url.Parse(ch.URL)
	if err != nil || u.Host == "" {
		return "(an unreadable URL)"
	}
	t := u.Scheme + "://" + u.Host
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		t += "/…"
	}
	return t
}

// smtpAddr is host:port of an SMTP server.
func smtpAddr(c SMTP) string {
	return joinHostPort(c.Host, c.port())
}

func joinHostPort(host string, port int) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + strconv.Itoa(port)
	}
	return host + ":" + strconv.Itoa(port)
}

// scrubber removes a channel's secrets from text that may echo them: a
// Go error that quotes the URL, a server's answer.
type scrubber struct {
	secrets []string // longest first
}

// minSecret is the shortest text scrubbed: shorter parts of a URL ("/",
// "api") would blank ordinary words and are not tokens.
const minSecret = 6

func newScrubber(ch Channel) scrubber {
	var s []string
	add := func(v string) {
		if len(v) >= minSecret {
			s = append(s, v)
		}
	}
	if u, err := url.Parse(ch.URL); err != nil {
		add(ch.URL)
	} else {
		// What follows the host; the scheme and host are the target, shown.
		add(u.RawQuery)
		add(u.EscapedPath())
		add(u.Path)
		add(u.Fragment)
		for _, seg := range strings.Split(u.Path, "/") {
			if tokenLike(seg) {
				add(seg)
			}
		}
		for _, vs := range u.Query() {
			for _, v := range vs {
				add(v)
			}
		}
		if p, ok := u.User.Password(); ok {
			add(p)
			add(url.QueryEscape(p))
		}
		add(u.User.String())
	}
	for _, v := range ch.Headers {
		add(v)
		if _, tok, ok := strings.Cut(v, " "); ok { // "Bearer <token>"
			add(tok)
		}
	}
	if p := ch.SMTP.Password; p != "" {
		if len(p) < minSecret {
			s = append(s, p)
		}
		add(p)
		add(base64.StdEncoding.EncodeToString([]byte("\x00" + ch.SMTP.Username + "\x00" + p)))
	}
	slices.SortFunc(s, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return scrubber{secrets: slices.Compact(s)}
}

// tokenLike reports whether a path segment may be a token: Slack's
// T0123ABCD and 24-character secrets are, "services" and "hooks" are not.
func tokenLike(seg string) bool {
	return len(seg) >= 16 || len(seg) >= minSecret && strings.ContainsAny(seg, "0123456789")
}

// text returns s with every secret replaced by [redacted].
func (sc scrubber) text(s string) string {
	for _, v := range sc.secrets {
		s = strings.ReplaceAll(s, v, redacted)
	}
	return s
}

// err returns err's text, scrubbed, as an error that keeps nothing else of
// err (a *url.Error would print the URL).
func (sc scrubber) err(err error) error {
	if err == nil {
		return nil
	}
	return errors.New(sc.text(err.Error()))
}
