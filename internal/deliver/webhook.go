package deliver

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// maxAnswer bounds how much of a receiver's answer is read for a message.
const maxAnswer = 4 << 10

// webhookBody is the JSON a webhook receives: the message's Payload, or
// quarry's envelope of the title, text and link.
func webhookBody(m Message) ([]byte, error) {
	if m.Payload != nil {
		return json.Marshal(m.Payload)
	}
	return json.Marshal(struct {
		Source string `json:"source"`
		Title  string `json:"title,omitempty"`
		Text   string `json:"text,omitempty"`
		Link   string `json:"link,omitempty"`
	}{"quarry", m.Title, m.Text, m.Link})
}

// reasonFunc explains a refusal (a status that is neither 2xx, 429 nor
// 5xx) from the status and the start of the answer: the error's kind, what
// happened and what to do.
type reasonFunc func(ch Channel, status int, answer string) (kind quarry.Kind, what, hint string)

// postJSON returns the try that POSTs body to the channel's URL.
func (s *Sender) postJSON(ch Channel, sc scrubber, body []byte, reason reasonFunc) sendFunc {
	client := s.HTTP
	if client == nil {
		client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	agent := s.UserAgent
	if agent == "" {
		agent = "quarry"
	}
	to := target(ch)
	return func(ctx context.Context) outcome {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, ch.URL, bytes.NewReader(body))
		if err != nil {
			return fail(quarry.KindConfig, false, 0, nil, "set an http:// or https:// URL", "the URL is not usable")
		}
		for k, v := range ch.Headers {
			req.Header.Set(k, v)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", agent)
		resp, err := client.Do(req)
		if err != nil {
			return netFailure(ctx, sc, to, err)
		}
		defer resp.Body.Close()
		head, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // let the connection be reused
		status := resp.StatusCode
		answer := quarry.Clean(sc.text(string(head)), 200)
		said := statusText(status, answer)
		switch {
		case status >= 200 && status < 300:
			return outcome{status: status}
		case status == http.StatusTooManyRequests:
			o := fail(quarry.KindConnection, true, status, nil, "it limits how often it takes messages: send fewer alerts to it, or try again later", "%s answered %s", to, said)
			o.after = retryAfter(resp.Header, s.now())
			return o
		case status >= 500:
			o := fail(quarry.KindConnection, true, status, nil, "the receiver is failing: check it, or try again later", "%s answered %s", to, said)
			o.after = retryAfter(resp.Header, s.now())
			return o
		case status >= 300 && status < 400:
			return fail(quarry.KindConfig, false, status, nil, "set the channel's URL to the address it redirects to", "%s answered %s, a redirect", to, said)
		}
		kind, what, hint := reason(ch, status, answer)
		return fail(kind, false, status, nil, hint, "%s answered %s%s", to, said, what)
	}
}

// statusText is "404 Not Found" with the answer's start quoted when there
// is one.
func statusText(status int, answer string) string {
	t := strconv.Itoa(status)
	if st := http.StatusText(status); st != "" {
		t += " " + st
	}
	if answer != "" {
		t += ` "` + answer + `"`
	}
	return t
}

// netFailure is a try that got no answer. A try that ran out of its own
// time, a refused or reset connection, a failed lookup: all may pass, and
// are retried; a certificate the system does not trust is not.
func netFailure(ctx context.Context, sc scrubber, to string, err error) outcome {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its text holds the whole URL
	}
	cause := sc.err(err)
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		return fail(quarry.KindTimeout, true, 0, nil, "check that the receiver is up and answers quickly", "%s did not answer in time", to)
	}
	if certErr(err) {
		return fail(quarry.KindConfig, false, 0, cause, "check the URL's host name and the receiver's certificate", "%s's TLS certificate is not trusted", to)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return fail(quarry.KindConfig, false, 0, cause, "check the host name in the channel's URL", "%s does not exist", to)
	}
	return fail(quarry.KindConnection, true, 0, cause, "check the address and that the receiver is up", "could not reach %s", to)
}

// certErr reports whether err is a TLS certificate that failed to verify.
func certErr(err error) bool {
	var (
		verr *tls.CertificateVerificationError
		uerr x509.UnknownAuthorityError
		herr x509.HostnameError
		ierr x509.CertificateInvalidError
	)
	return errors.As(err, &verr) || errors.As(err, &uerr) || errors.As(err, &herr) || errors.As(err, &ierr)
}

// retryAfter reads a Retry-After header, in seconds or as an HTTP date; 0
// when there is none or it is in the past.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		return time.Duration(min(n, 1<<20)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// webhookReason explains a webhook's refusal.
func webhookReason(_ Channel, status int, _ string) (quarry.Kind, string, string) {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return quarry.KindConfig, "", "check the credentials in the channel's URL or headers"
	case http.StatusNotFound, http.StatusGone, http.StatusMethodNotAllowed:
		return quarry.KindConfig, "", "the URL is wrong or no longer exists: set the channel's current URL"
	default:
		return quarry.KindInput, "", "the receiver refused the alert: check what it expects"
	}
}
