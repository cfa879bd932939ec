package deliver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Kind is how a channel delivers.
type Kind string

// The kinds of channel.
const (
	Webhook Kind = "webhook" // a JSON POST to a URL
	Slack   Kind = "slack"   // a Slack-compatible incoming webhook
	Email   Kind = "email"   // an email over SMTP
)

// TLSMode is how an email channel protects its SMTP connection.
type TLSMode string

// The TLS modes. There is no opportunistic mode: a channel that sends a
// password must know it is encrypted, and one that does not can say none.
const (
	// StartTLS (the default, port 587) upgrades the connection with
	// STARTTLS and refuses to go on when the server does not offer it.
	StartTLS TLSMode = "starttls"
	// ImplicitTLS (port 465) speaks TLS from the first byte.
	ImplicitTLS TLSMode = "tls"
	// NoTLS (port 25) sends in clear text; a password only ever goes to
	// a server on this machine.
	NoTLS TLSMode = "none"
)

// Channel is one destination of alerts, as configured. URL, Headers'
// values and SMTP.Password hold secrets already expanded from ${VAR}: they
// are used to deliver and never printed (Channel and SMTP format redacted).
type Channel struct {
	// Name is the channel's name in the configuration, for messages and
	// attempts.
	Name string
	// Kind is how it delivers.
	Kind Kind
	// URL receives the POST (Webhook, Slack). Its path and query may be
	// a token (a Slack webhook's always is).
	URL string
	// Headers are sent with a webhook's POST; values may be secrets
	// (Authorization).
	Headers map[string]string
	// SMTP is where and how an Email channel sends.
	SMTP SMTP
}

// SMTP is an email channel's server, credentials and addresses.
type SMTP struct {
	Host string
	// Port is the server's port; 0 means the TLS mode's usual port (587,
	// 465 or 25).
	Port int
	// Username and Password authenticate with AUTH PLAIN, only over TLS or
	// to this machine; both empty means no AUTH.
	Username string
	Password string
	// From is the sender's address, with or without a display name.
	From string
	// To lists the recipients' addresses.
	To []string
	// TLS is how the connection is protected; "" means StartTLS.
	TLS TLSMode
}

// Message is one alert, written once for every kind of channel.
type Message struct {
	// Title is one line: the email's subject, Slack's header.
	Title string
	// Text is the plain-text body: the email's body and Slack's fallback.
	Text string
	// Markdown is the body for Slack, in Markdown (bold, links, headings
	// are turned into Slack's mrkdwn); "" means Text.
	Markdown string
	// Link is an absolute URL to what the alert is about.
	Link string
	// Payload is a webhook's JSON body; nil means {"source": "quarry",
	// "title", "text", "link"}.
	Payload any
}

// Attempt records one try to deliver. It holds no secret: the target is
// the URL's scheme and host, or the SMTP server's address.
type Attempt struct {
	Channel string    `json:"channel"`
	Kind    Kind      `json:"kind"`
	Target  string    `json:"target"`
	Try     int       `json:"try"` // 1 for the first
	At      time.Time `json:"at"`
	// Duration is how long the try took, by the Sender's clock.
	Duration time.Duration `json:"duration_ns"`
	OK       bool          `json:"ok"`
	// Status is the HTTP status or the SMTP reply code of the failure,
	// or of success for HTTP; 0 when there was none (a network error).
	Status int `json:"status,omitempty"`
	// Error is the failure in one line; "" when OK.
	Error string `json:"error,omitempty"`
	// Retryable says a later try could succeed where this one failed.
	Retryable bool `json:"retryable,omitempty"`
	// Wait is how long the Sender waited after this try before the next;
	// 0 when no try followed.
	Wait time.Duration `json:"wait_ns,omitempty"`
}

// The Sender's defaults.
const (
	DefaultMaxTries = 4
	DefaultBackoff  = 2 * time.Second
	DefaultMaxWait  = 2 * time.Minute
	DefaultTimeout  = 20 * time.Second
)

// Sender delivers messages. The zero value works: every field has a
// default. It holds no state between calls and is safe for concurrent use.
type Sender struct {
	// HTTP posts webhooks; nil means a client that does not follow
	// redirects (a redirect is reported, so that the URL gets fixed).
	HTTP *http.Client
	// Clock is the time of attempts and of Retry-After dates; nil means
	// time.Now.
	Clock func() time.Time
	// Sleep waits between tries and returns early with ctx's error; nil
	// means a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// MaxTries bounds the tries of one delivery; 0 means DefaultMaxTries.
	MaxTries int
	// Backoff is the wait after the first failed try, doubled after each
	// one; 0 means DefaultBackoff.
	Backoff time.Duration
	// MaxWait caps any wait between tries. A server whose Retry-After asks
	// for longer is not tried again. 0 means DefaultMaxWait.
	MaxWait time.Duration
	// Timeout bounds one try; 0 means DefaultTimeout.
	Timeout time.Duration
	// Dial opens SMTP connections; nil means a net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLS is the base TLS configuration for SMTP (root certificates);
	// ServerName is always the channel's host. nil means the system's
	// roots.
	TLS *tls.Config
	// Hello is the name sent in EHLO; "" means "localhost".
	Hello string
	// Rand makes Message-IDs unique; nil means crypto/rand. A Sender
	// shared between goroutines needs a Rand that is safe to share.
	Rand io.Reader
	// UserAgent is sent with webhooks; "" means "quarry".
	UserAgent string
}

// outcome is how one try went.
type outcome struct {
	status int
	failed bool          // false: delivered
	kind   quarry.Kind   // the error's kind when it failed
	what   string        // what went wrong, without a secret: "… answered 503"
	hint   string        // what to do about it
	cause  error         // scrubbed
	retry  bool          // a later try could succeed
	after  time.Duration // the server's Retry-After, 0 if none
}

// fail is a failed try.
func fail(kind quarry.Kind, retry bool, status int, cause error, hint, format string, args ...any) outcome {
	return outcome{failed: true, kind: kind, retry: retry, status: status, cause: cause, hint: hint, what: fmt.Sprintf(format, args...)}
}

// line is the try's failure in one line, for its Attempt.
func (o outcome) line() string {
	if o.cause != nil {
		return o.what + ": " + o.cause.Error()
	}
	return o.what
}

// error is the delivery's error after tries tries ended with o.
func (o outcome) error(ch Channel, tries int) *quarry.Error {
	what := o.what
	if tries > 1 {
		what += fmt.Sprintf(" (%d tries)", tries)
	}
	return quarry.Wrap(o.kind, o.cause, "deliver: channel %q: %s; %s", ch.Name, what, o.hint)
}

// sendFunc makes one try.
type sendFunc func(ctx context.Context) outcome

// Send delivers m to ch, retrying what can be retried, and returns every
// attempt it made, also when it fails. The error is a *quarry.Error whose
// message names the channel and says what to do; it never holds a secret.
func (s *Sender) Send(ctx context.Context, ch Channel, m Message) ([]Attempt, error) {
	if err := Validate(ch); err != nil {
		return nil, err
	}
	if strings.TrimSpace(m.Title) == "" && strings.TrimSpace(m.Text) == "" && strings.TrimSpace(m.Markdown) == "" {
		return nil, quarry.Errorf(quarry.KindInput, "deliver: the alert for channel %q has neither a title nor a text; give the monitor a message", ch.Name)
	}
	sc := newScrubber(ch)
	var try sendFunc
	switch ch.Kind {
	case Webhook:
		body, err := webhookBody(m)
		if err != nil {
			return nil, quarry.Wrap(quarry.KindInput, sc.err(err), "deliver: the alert's payload for channel %q is not JSON", ch.Name)
		}
		try = s.postJSON(ch, sc, body, webhookReason)
	case Slack:
		body, err := slackBody(m)
		if err != nil {
			return nil, quarry.Wrap(quarry.KindInternal, err, "deliver: could not build the Slack message for channel %q", ch.Name)
		}
		try = s.postJSON(ch, sc, body, slackReason)
	case Email:
		msg, err := s.buildEmail(ch, m)
		if err != nil {
			return nil, err
		}
		try = s.sendMail(ch, sc, msg)
	}
	return s.retry(ctx, ch, sc, try)
}

// retry runs try until it succeeds, fails for good, runs out of tries or
// ctx ends.
func (s *Sender) retry(ctx context.Context, ch Channel, sc scrubber, try sendFunc) ([]Attempt, error) {
	var attempts []Attempt
	wait := s.backoff()
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return attempts, ctxError(ch, err)
		}
		start := s.now()
		tctx, cancel := context.WithTimeout(ctx, s.timeout())
		o := try(tctx)
		cancel()
		a := Attempt{Channel: ch.Name, Kind: ch.Kind, Target: target(ch), Try: n, At: start, Duration: s.now().Sub(start), OK: !o.failed, Status: o.status, Retryable: o.retry}
		if !o.failed {
			return append(attempts, a), nil
		}
		if err := ctx.Err(); err != nil { // the try failed because the caller gave up
			a.Error, a.Retryable = ctxError(ch, err).Msg, false
			return append(attempts, a), ctxError(ch, err)
		}
		a.Error = quarry.Clean(sc.text(o.line()), 500)
		if !o.retry || n >= s.maxTries() {
			return append(attempts, a), o.error(ch, n)
		}
		d := max(wait, o.after)
		if o.after > s.maxWait() {
			attempts = append(attempts, a)
			return attempts, quarry.Errorf(quarry.KindConnection, "deliver: channel %q: %s asked to wait %s before another try, longer than quarry waits (%s); the alert was not delivered",
				ch.Name, target(ch), o.after.Round(time.Second), s.maxWait())
		}
		d = min(d, s.maxWait())
		a.Wait = d
		attempts = append(attempts, a)
		if err := s.sleep(ctx, d); err != nil {
			return attempts, ctxError(ch, err)
		}
		wait *= 2
	}
}

// ctxError is the error of a delivery whose context ended.
func ctxError(ch Channel, err error) *quarry.Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return quarry.Wrap(quarry.KindTimeout, err, "deliver: delivery to channel %q ran out of time", ch.Name)
	}
	return quarry.Wrap(quarry.KindCanceled, err, "deliver: delivery to channel %q was canceled", ch.Name)
}

func (s *Sender) now() time.Time {
	if s.Clock != nil {
		return s.Clock()
	}
	return time.Now()
}

func (s *Sender) sleep(ctx context.Context, d time.Duration) error {
	if s.Sleep != nil {
		return s.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (s *Sender) maxTries() int {
	if s.MaxTries > 0 {
		return s.MaxTries
	}
	return DefaultMaxTries
}

func (s *Sender) backoff() time.Duration {
	if s.Backoff > 0 {
		return s.Backoff
	}
	return DefaultBackoff
}

func (s *Sender) maxWait() time.Duration {
	if s.MaxWait > 0 {
		return s.MaxWait
	}
	return DefaultMaxWait
}

func (s *Sender) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

// String describes the channel without its secrets.
func (ch Channel) String() string {
	return fmt.Sprintf("%s channel %q → %s", ch.Kind, ch.Name, target(ch))
}

// Format prints the redacted description for every verb, so that no
// formatting of a Channel (%v, %+v, %#v) shows a secret.
func (ch Channel) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", ch.String())
		return
	}
	fmt.Fprint(f, ch.String())
}

// LogValue makes log/slog record the redacted description.
func (ch Channel) LogValue() slog.Value { return slog.StringValue(ch.String()) }

// String describes the SMTP settings without the credentials (some
// providers' usernames are keys too).
func (c SMTP) String() string {
	auth := ""
	if c.Username != "" || c.Password != "" {
		auth = " with AUTH"
	}
	return fmt.Sprintf("smtp://%s (%s)%s from %s to %s", smtpAddr(c), c.tls(), auth, c.From, strings.Join(c.To, ", "))
}

// Format prints the redacted description for every verb.
func (c SMTP) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", c.String())
		return
	}
	fmt.Fprint(f, c.String())
}

// LogValue makes log/slog record the redacted description.
func (c SMTP) LogValue() slog.Value { return slog.StringValue(c.String()) }

func (c SMTP) tls() TLSMode {
	if c.TLS == "" {
		return StartTLS
	}
	return c.TLS
}

func (c SMTP) port() int {
	if c.Port != 0 {
		return c.Port
	}
	switch c.tls() {
	case ImplicitTLS:
		return 465
	case NoTLS:
		return 25
	default:
		return 587
	}
}
