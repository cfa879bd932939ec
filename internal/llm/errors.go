package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// CallError is the cause inside a provider's *quarry.Error that tells the
// Gateway whether the attempt may be retried, and after how long at least.
type CallError struct {
	Status     int           // the HTTP status; 0 when no response came
	RetryAfter time.Duration // what the server's Retry-After asked for; 0 if nothing
	Retryable  bool          // 429, 5xx, overloaded and dropped connections
	Err        error         // the SDK's error, never shown to the user
}

func (e *CallError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("status %d", e.Status)
}

func (e *CallError) Unwrap() error { return e.Err }

// Endpoint names a provider's API in messages and tells the user how to fix
// its key and model: Name is what the user knows it as ("the Anthropic API",
// "the OpenAI-compatible endpoint at http://localhost:11434/v1"), KeyHint
// where its key comes from.
type Endpoint struct {
	Name    string
	KeyHint string // e.g. "ANTHROPIC_API_KEY (or model.api_key in quarry.yaml)"
}

// StatusError turns an HTTP error status from a provider into a quarry error
// with a message that says what to do. detail is the API's own message; it
// is shortened and never contains the key (APIs do not echo keys, and the
// key is scrubbed from it anyway).
func (ep Endpoint) StatusError(status int, retryAfter time.Duration, model, detail string, cause error, key string) *quarry.Error {
	detail = Scrub(oneLine(detail, 200), key)
	// The cause is kept only as scrubbed text: SDK errors quote response
	// bodies, and an API refusing a key may quote part of it.
	var safe error = fmt.Errorf("HTTP %d", status)
	if cause != nil && status != http.StatusUnauthorized && status != http.StatusForbidden {
		safe = errors.New(Scrub(oneLine(cause.Error(), 300), key))
	}
	ce := &CallError{Status: status, RetryAfter: retryAfter, Err: safe}
	var msg string
	switch {
	case status == http.StatusUnauthorized:
		msg = fmt.Sprintf("%s refused the key (401); check %s", ep.Name, ep.KeyHint)
	case status == http.StatusForbidden:
		msg = fmt.Sprintf("%s refused access (403): %s; check %s and its permissions", ep.Name, detail, ep.KeyHint)
	case status == http.StatusNotFound:
		msg = fmt.Sprintf("%s does not know model %q (404); check model.model in quarry.yaml or --model", ep.Name, model)
	case status == http.StatusTooManyRequests:
		ce.Retryable = true
		msg = fmt.Sprintf("%s is limiting the rate of requests (429); wait a minute and try again, or raise the account's rate limit", ep.Name)
	case status == 529:
		ce.Retryable = true
		msg = fmt.Sprintf("%s is overloaded (529); try again in a few minutes", ep.Name)
	case status >= 500:
		ce.Retryable = true
		msg = fmt.Sprintf("%s failed with a server error (%d); try again later", ep.Name, status)
	case status == http.StatusRequestEntityTooLarge:
		msg = fmt.Sprintf("%s refused a request that is too large (413); ask a narrower question", ep.Name)
	default:
		msg = fmt.Sprintf("%s rejected the request (%d): %s", ep.Name, status, detail)
	}
	return quarry.Wrap(quarry.KindModel, ce, "%s", msg)
}

// TransportError turns a failure to get a response (or to read one to its
// end) into a quarry error. The context decides first: a canceled ctx gives
// KindCanceled and an expired one KindTimeout, never retried. Dropped and
// refused connections are retryable.
func (ep Endpoint) TransportError(ctx context.Context, err error, key string) *quarry.Error {
	switch {
	case errors.Is(ctx.Err(), context.Canceled) || (ctx.Err() == nil && errors.Is(err, context.Canceled)):
		return quarry.Wrap(quarry.KindCanceled, err, "the call to %s was canceled", ep.Name)
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		return quarry.Wrap(quarry.KindTimeout, err, "%s did not answer in time; try again, or raise the model call timeout", ep.Name)
	}
	ce := &CallError{Err: err, Retryable: retryableTransport(err)}
	if ce.Retryable {
		return quarry.Wrap(quarry.KindModel, ce, "the connection to %s failed (%s); check the network and the base URL, then try again", ep.Name, Scrub(oneLine(err.Error(), 120), key))
	}
	return quarry.Wrap(quarry.KindModel, ce, "could not reach %s (%s); check model.base_url and the network", ep.Name, Scrub(oneLine(err.Error(), 120), key))
}

// Malformed reports a response that could not be read: garbage JSON, an
// unexpected shape, an empty stream. It is not retried.
func (ep Endpoint) Malformed(err error, key string) *quarry.Error {
	return quarry.Wrap(quarry.KindModel, &CallError{Err: errors.New(Scrub(oneLine(err.Error(), 300), key))}, "%s returned a response quarry could not read (%s); check that the base URL points at a compatible API", ep.Name, Scrub(oneLine(err.Error(), 120), key))
}

// retryableTransport reports whether a transport error is a dropped or
// refused connection worth another try.
func retryableTransport(err error) bool {
	if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false // a transport timeout is a timeout, see TransportError
	}
	var oe *net.OpError
	return errors.As(err, &oe)
}

// RetryAfter reads a Retry-After (seconds or an HTTP date) or
// Retry-After-Ms header; now is the current time, for dates.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// Scrub removes key from s, for messages built from text a server sent.
func Scrub(s, key string) string {
	if len(key) < 4 {
		return s
	}
	return strings.ReplaceAll(s, key, "[redacted]")
}

// oneLine shortens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	if s == "" {
		s = "no detail"
	}
	return s
}
