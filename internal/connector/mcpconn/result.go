package mcpconn

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/normalize"
	"github.com/quarrydata/quarry/internal/quarry"
)

// maxMessage bounds a server's message as quarry repeats it.
const maxMessage = 300

// table reads a tool result: an error the server reported, the structured
// content when there is one, else the text content.
func (c *Conn) table(res *mcp.CallToolResult, tool string) (*quarry.Table, error) {
	name := c.opts.Name
	text := textOf(res)
	if res.IsError {
		msg := c.red.clean(text)
		if msg == "" {
			msg = "no message"
		}
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server reported an error: %s", name, msg)
	}
	var data []byte
	if res.StructuredContent != nil {
		// The usual shape, {columns, rows}, is read from what the SDK
		// decoded, not encoded and decoded a second time.
		if t, n, ok := normalize.FromDecoded(res.StructuredContent); ok {
			if n > normalize.MaxBytes {
				return nil, tooLarge(name, normalize.MaxBytes)
			}
			return t, nil
		}
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server's structured answer cannot be read", name)
		}
		data = b
	} else {
		data = []byte(text)
	}
	if strings.TrimSpace(string(data)) == "" {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: tool %q answered no text and no structured content; check that it returns the query's rows", name, short(tool))
	}
	if !utf8.Valid(data) {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server wrote bytes that are not UTF-8", name)
	}
	if len(data) > normalize.MaxBytes {
		return nil, tooLarge(name, normalize.MaxBytes)
	}
	t, _, err := normalize.Parse(data)
	if err != nil {
		msg := quarry.Message(err)
		// Servers that print the database's error as the tool's text
		// (without isError) get the same message as those that flag it.
		if rest, ok := strings.CutPrefix(msg, normalize.ErrorTextPrefix); ok {
			return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server reported an error: %s", name, c.red.clean(rest))
		}
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server's answer is not a result table: %s", name, c.red.clean(msg))
	}
	return t, nil
}

// callBinary calls the binary twin of run_query and decodes its result
// (connector.BinaryQueryTool).
func (c *Conn) callBinary(ctx context.Context, s *session, args map[string]any, opts connector.QueryOptions) (*quarry.Table, error) {
	timeout := opts.Timeout
	res, err := c.callRaw(ctx, s, s.binary, args, timeout)
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return c.table(res, s.binary)
	}
	name := c.opts.Name
	for _, ct := range res.Content {
		er, ok := ct.(*mcp.EmbeddedResource)
		if !ok || er.Resource == nil || er.Resource.MIMEType != connector.ResultMIME {
			continue
		}
		// Read at most MaxBytes of it, as of a JSON answer: a small blob
		// may inflate without end.
		enc, err := inflate(er.Resource.Blob, er.Resource.Meta["size"])
		if err != nil {
			return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server's binary result cannot be read: %s", name, sanitize(err.Error()))
		}
		if len(enc) > normalize.MaxBytes {
			return nil, tooLarge(name, normalize.MaxBytes)
		}
		// Within what a result may hold, so that a few kilobytes of
		// values that take no bytes (NULLs) cannot ask for gigabytes.
		t, err := quarry.DecodeTableWithin(enc, quarry.DecodeLimits{MaxRows: opts.MaxRows, MaxColumns: maxColumns, MaxCells: maxCells, MaxNestedBytes: maxNestedBytes})
		if err != nil {
			return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server's binary result cannot be read: %s", name, sanitize(err.Error()))
		}
		if err := checkDecoded(t); err != nil {
			return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server's binary result cannot be used: %s", name, sanitize(err.Error()))
		}
		if more, _ := er.Resource.Meta["truncated"].(bool); more {
			t.Truncated = true
		}
		return t, nil
	}
	return nil, quarry.Errorf(quarry.KindQuery, "connection %q: tool %q answered no result of type %s", name, short(s.binary), connector.ResultMIME)
}

// inflate reads a binary result's blob, at most normalize.MaxBytes+1 bytes
// of it, into a buffer of the size the server said (the meta's "size", a
// JSON number), where it said one within that bound: reading into a
// buffer that doubles zeroed and copied each size on the way.
func inflate(blob []byte, size any) ([]byte, error) {
	hint := bytes.MinRead
	if n, ok := size.(float64); ok && n > 0 {
		// ReadFrom grows the buffer unless MinRead bytes are free
		// before each read, the last one (EOF) too.
		hint += int(min(n, normalize.MaxBytes+1))
	}
	buf := bytes.NewBuffer(make([]byte, 0, hint))
	_, err := buf.ReadFrom(io.LimitReader(flate.NewReader(bytes.NewReader(blob)), normalize.MaxBytes+1))
	return buf.Bytes(), err
}

// Bounds of a binary result beyond its row cap: more columns than any
// database returns (PostgreSQL stops at 1,664, SQLite by default at
// 2,000), more values than 100,000 rows of 80 columns, and arrays and
// structs of more than 8 MiB of JSON (each of whose bytes costs tens once
// decoded).
const (
	maxColumns     = 32_767
	maxCells       = 8 << 20
	maxNestedBytes = 8 << 20
)

func tooLarge(name string, bound int64) error {
	return quarry.Errorf(quarry.KindQuery, "connection %q: the server's answer is larger than %s; add a LIMIT or aggregate", name, size(bound))
}

// textOf joins a result's text content.
func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, ct := range res.Content {
		if t, ok := ct.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// redactor removes secrets (environment and header values, the URL and
// its credentials) from text quarry repeats, and sanitises it.
type redactor struct {
	secrets []string // longest first
}

func newRedactor(opts Options) *redactor {
	var s []string
	add := func(v string) {
		if len(v) >= 3 {
			s = append(s, v)
		}
	}
	for _, kv := range opts.Env {
		if _, v, ok := strings.Cut(kv, "="); ok {
			add(v)
		}
	}
	for _, v := range opts.Headers {
		add(v)
		if _, tok, ok := strings.Cut(v, " "); ok {
			add(tok)
		}
	}
	if opts.URL != "" {
		add(opts.URL)
		if u, err := url.Parse(opts.URL); err == nil {
			if p, ok := u.User.Password(); ok {
				add(p)
			}
			add(u.RawQuery)
		}
	}
	sort.Slice(s, func(i, j int) bool { return len(s[i]) > len(s[j]) })
	return &redactor{secrets: s}
}

// clean returns text safe to put into a message: secrets replaced, one
// line, no control characters, at most maxMessage bytes.
func (r *redactor) clean(text string) string {
	for _, s := range r.secrets {
		text = strings.ReplaceAll(text, s, "[redacted]")
	}
	return sanitize(text)
}

// sanitize makes a server's text safe to repeat: valid UTF-8, one line,
// no control characters, at most maxMessage bytes.
func sanitize(s string) string { return quarry.Clean(s, maxMessage) }

// short is sanitize for names quarry repeats (tools, commands, headers).
func short(s string) string { return sanitize(s) }

// checkDecoded holds a decoded result to what quarry's own encoder
// writes, since any server may list the binary tool: column names that
// are text without control characters but for whitespace (SQLite gives
// an alias with a tab as it is), and types quarry knows. Its values are already of the
// kinds any connector gives (DecodeTable reads no others), and a value
// need not match its column's type: SQLite's need not either.
func checkDecoded(t *quarry.Table) error {
	for i, c := range t.Columns {
		if !utf8.ValidString(c.Name) || strings.ContainsFunc(c.Name, func(r rune) bool { return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' }) {
			return fmt.Errorf("column %d has a name that is not printable text", i+1)
		}
		if !knownType(c.Type) {
			return fmt.Errorf("column %q has the unknown type %q", c.Name, short(string(c.Type)))
		}
	}
	return nil
}

func knownType(t quarry.Type) bool {
	switch t {
	case quarry.TypeUnknown, quarry.TypeBool, quarry.TypeInt, quarry.TypeBigInt, quarry.TypeDecimal, quarry.TypeFloat, quarry.TypeText,
		quarry.TypeBytes, quarry.TypeDate, quarry.TypeTimestamp, quarry.TypeTime, quarry.TypeInterval, quarry.TypeJSON, quarry.TypeArray:
		return true
	}
	return false
}
