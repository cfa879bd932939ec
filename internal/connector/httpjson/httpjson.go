// Package httpjson is a connector that reaches a user's database through an
// HTTP service the user runs: each statement is sent as a JSON POST of
// {"sql": "..."} to the configured URL, with the configured headers, and
// whatever the service answers (JSON rows, {columns, rows}, an envelope, a
// CSV or ASCII table) is read by connector/normalize into quarry rows.
//
// quarry's guard has already allowed every statement that reaches Query;
// the connector refuses nothing it is given, but it never retries a
// request. The URL and header values may hold secrets: they are never put
// into an error, a log line or an Identity.
package httpjson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/normalize"
	"github.com/quarrydata/quarry/internal/quarry"
)

// DefaultMaxBytes caps a response body when Options.MaxBytes is 0.
const DefaultMaxBytes = 64 << 20

// maxMessage bounds a server's error message as quarry repeats it.
const maxMessage = 300

// Options configure a connection.
type Options struct {
	// Name is the connection's name in quarry.yaml, for messages.
	Name string
	// URL receives the POST of {"sql": ...}. It may hold a secret.
	URL string
	// Headers are sent with every request; values may hold secrets.
	Headers map[string]string
	// Dialect is the dialect of the database behind the service; ""
	// means generic ("any").
	Dialect quarry.Dialect
	// SchemaURL, when set, is fetched with GET by Catalog and must answer
	// a quarry catalog as JSON ({"tables": [{"name", "columns": [...]}]}).
	// When empty, Catalog runs catalog queries for the dialect.
	SchemaURL string
	// MaxBytes caps a response body; 0 means DefaultMaxBytes.
	MaxBytes int64
	// Client is the HTTP client; nil means a plain one. Timeouts come from
	// the context and QueryOptions, not the client.
	Client *http.Client
}

// Conn is an open connection to an HTTP SQL service.
type Conn struct {
	opts   Options
	client *http.Client
	host   string
	target string // scheme://host:port, no user, path or query
}

var _ connector.Conn = (*Conn)(nil)

// Open checks the options and returns a connection. It does not contact the
// service: the first query does.
func Open(ctx context.Context, opts Options) (*Conn, error) {
	u, err := url.Parse(opts.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, quarry.Errorf(quarry.KindConfig, "connection %q: url must be an http:// or https:// address", opts.Name)
	}
	if opts.SchemaURL != "" {
		s, err := url.Parse(opts.SchemaURL)
		if err != nil || (s.Scheme != "http" && s.Scheme != "https") || s.Host == "" {
			return nil, quarry.Errorf(quarry.KindConfig, "connection %q: schema_url must be an http:// or https:// address", opts.Name)
		}
	}
	for k := range opts.Headers {
		if k == "" || strings.ContainsAny(k, " \t\r\n:") {
			return nil, quarry.Errorf(quarry.KindConfig, "connection %q: header name %q is not valid", opts.Name, short(k))
		}
	}
	if opts.Dialect == "" {
		opts.Dialect = quarry.DialectGeneric
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	c := opts.Client
	if c == nil {
		c = &http.Client{}
	}
	return &Conn{opts: opts, client: c, host: u.Hostname(), target: u.Scheme + "://" + u.Host}, nil
}

// Dialect returns the configured dialect of the database behind the service.
func (c *Conn) Dialect() quarry.Dialect { return c.opts.Dialect }

// Identity describes the connection without secrets: only the host.
func (c *Conn) Identity() connector.Identity {
	return connector.Identity{Name: c.opts.Name, Dialect: c.opts.Dialect, Target: c.target}
}

// Close releases idle connections.
func (c *Conn) Close() error {
	c.client.CloseIdleConnections()
	return nil
}

// Query posts the statement and returns the normalised rows, capped at
// opts.MaxRows.
func (c *Conn) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	body, err := json.Marshal(map[string]string{"sql": sql})
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "encode the request")
	}
	data, err := c.do(ctx, http.MethodPost, c.opts.URL, body, opts.Timeout)
	if err != nil {
		return nil, err
	}
	t, err := c.table(data)
	if err != nil {
		return nil, err
	}
	if opts.MaxRows > 0 && int64(len(t.Rows)) > opts.MaxRows {
		t.Rows = t.Rows[:opts.MaxRows]
		t.Truncated = true
	}
	if err := connector.CheckTable(t, opts); err != nil {
		return nil, err
	}
	return quarry.TableRows(t), nil
}

// table reads a 2xx body: a server error inside it, or a table.
func (c *Conn) table(data []byte) (*quarry.Table, error) {
	if !utf8.Valid(data) {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the service answered bytes that are not UTF-8 text", c.opts.Name)
	}
	if bytes.ContainsFunc(data, func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' }) {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the service answered binary data, not a result table", c.opts.Name)
	}
	if msg, ok := serverError(data); ok {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the service reported an error: %s", c.opts.Name, msg)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the service answered an empty body", c.opts.Name)
	}
	if trimmed[0] == '<' {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the service answered HTML or XML, not a result table: %s", c.opts.Name, sanitize(string(trimmed)))
	}
	t, _, err := normalize.Parse(data)
	if err != nil {
		msg := quarry.Message(err)
		if rest, ok := strings.CutPrefix(msg, normalize.ErrorTextPrefix); ok {
			return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the service reported an error: %s", c.opts.Name, sanitize(rest))
		}
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the service's answer is not a result table: %s", c.opts.Name, sanitize(msg))
	}
	return t, nil
}

// do sends one request, never retried, and reads at most MaxBytes of the
// answer. A non-2xx status is an error carrying the server's message.
func (c *Conn) do(ctx context.Context, method, u string, body []byte, timeout time.Duration) ([]byte, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, quarry.Errorf(quarry.KindConfig, "connection %q: the url cannot be requested", c.opts.Name)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/csv;q=0.8, text/plain;q=0.5")
	for k, v := range c.opts.Headers {
		req.Header.Set(k, v)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, err, timeout)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxBytes+1))
	if err != nil {
		return nil, c.transportError(ctx, err, timeout)
	}
	if int64(len(data)) > c.opts.MaxBytes {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the service's answer is larger than %s; add a LIMIT or aggregate", c.opts.Name, size(c.opts.MaxBytes))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg, ok := serverError(data)
		if !ok {
			msg = sanitize(string(data))
		}
		if msg == "" {
			msg = http.StatusText(resp.StatusCode)
		}
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the service answered HTTP %d: %s", c.opts.Name, resp.StatusCode, msg)
	}
	return data, nil
}

// transportError turns a client error into a one-line quarry error without
// the URL (which may hold a secret).
func (c *Conn) transportError(ctx context.Context, err error, timeout time.Duration) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		if timeout > 0 {
			return quarry.Errorf(quarry.KindTimeout, "connection %q: the service did not answer within %s", c.opts.Name, timeout)
		}
		return quarry.Errorf(quarry.KindTimeout, "connection %q: the service did not answer in time", c.opts.Name)
	case errors.Is(ctx.Err(), context.Canceled):
		return quarry.Errorf(quarry.KindCanceled, "connection %q: the request was canceled", c.opts.Name)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return quarry.Errorf(quarry.KindConnection, "connection %q: the service at %s could not be reached: %s", c.opts.Name, c.host, sanitize(err.Error()))
}

// serverError finds an error message in a JSON answer: {"error": "..."},
// {"error": {"message": "..."}}, {"message": "...", "success": false} or an
// MCP tool result with isError. It reports false for anything else.
func serverError(data []byte) (string, bool) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return "", false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(t, &m) != nil {
		return "", false
	}
	if raw, ok := m["error"]; ok && string(raw) != "null" && string(raw) != "false" {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return sanitize(s), true
		}
		var o map[string]json.RawMessage
		if json.Unmarshal(raw, &o) == nil {
			for _, k := range []string{"message", "detail", "error"} {
				if json.Unmarshal(o[k], &s) == nil && s != "" {
					return sanitize(s), true
				}
			}
		}
		return sanitize(string(raw)), true
	}
	var isErr, success *bool
	json.Unmarshal(m["isError"], &isErr)
	json.Unmarshal(m["success"], &success)
	if (isErr != nil && *isErr) || (success != nil && !*success) {
		var s string
		if json.Unmarshal(m["message"], &s) == nil && s != "" {
			return sanitize(s), true
		}
		var content []struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(m["content"], &content) == nil && len(content) > 0 {
			return sanitize(content[0].Text), true
		}
		return "the service reported a failure without a message", true
	}
	return "", false
}

// sanitize makes a server's text safe to repeat: valid UTF-8, one line,
// no control characters, at most maxMessage bytes.
func sanitize(s string) string { return quarry.Clean(s, maxMessage) }

func short(s string) string { return sanitize(s) }

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
