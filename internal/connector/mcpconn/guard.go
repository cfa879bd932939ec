package mcpconn

import (
	"errors"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/quarry"
)

// errRefused is what a guarded reader returns once it has refused the
// server's bytes; the reason is kept in the reader.
var errRefused = errors.New("mcpconn: the server's output was refused")

// guard checks a server's output as it is read: valid UTF-8 (checked
// incrementally, carrying a partial rune from one read to the next), no
// message larger than max bytes, and, for stdio (lines true), every line a
// JSON value. It records why it refused, for the error the user sees.
type guard struct {
	r     io.Reader
	max   int64
	lines bool

	mu      sync.Mutex
	reason  string // why the output was refused; "" while it is fine
	huge    bool   // the reason is a message over max
	eof     bool   // the server closed its output
	carry   []byte // an incomplete rune from the end of the last read
	count   int64  // bytes of the current message
	atStart bool   // no byte of the current line seen but spaces
}

func newGuard(r io.Reader, max int64, lines bool) *guard {
	return &guard{r: r, max: max, lines: lines, atStart: true}
}

func (g *guard) Read(p []byte) (int, error) {
	if reason, _ := g.failed(); reason != "" {
		return 0, errRefused
	}
	n, err := g.r.Read(p)
	if n > 0 {
		if reason, huge := g.check(p[:n]); reason != "" {
			g.mu.Lock()
			g.reason, g.huge = reason, huge
			g.mu.Unlock()
			return 0, errRefused
		}
	}
	if err == io.EOF {
		g.mu.Lock()
		g.eof = true
		if len(g.carry) > 0 && g.reason == "" {
			g.reason = "the server wrote bytes that are not UTF-8"
		}
		g.mu.Unlock()
	}
	return n, err
}

// check looks at newly read bytes; it returns a reason to refuse them.
func (g *guard) check(b []byte) (reason string, huge bool) {
	// UTF-8, with the partial rune carried over from the last read.
	data := b
	if len(g.carry) > 0 {
		data = append(append([]byte(nil), g.carry...), b...)
		g.carry = nil
	}
	end := len(data)
	// Hold back an incomplete rune at the end (at most 3 bytes).
	for i := len(data) - 1; i >= 0 && i >= len(data)-3; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				end = i
			}
			break
		}
	}
	if !utf8.Valid(data[:end]) {
		return "the server wrote bytes that are not UTF-8", false
	}
	g.carry = append(g.carry, data[end:]...)
	for i, c := range b {
		if g.lines && c == '\n' {
			g.count, g.atStart = 0, true
			continue
		}
		g.count++
		if g.max > 0 && g.count > g.max {
			return "the server sent a message larger than " + size(g.max) + "; add a LIMIT or aggregate", true
		}
		if g.lines && g.atStart && c != ' ' && c != '\t' && c != '\r' {
			g.atStart = false
			if c != '{' && c != '[' {
				line := b[i:]
				if j := strings.IndexByte(string(line), '\n'); j >= 0 {
					line = line[:j]
				}
				return "the server wrote something that is not MCP JSON-RPC: " + quarry.Clean(string(line), 80), false
			}
		}
	}
	return "", false
}

// failed returns why the output was refused, or "", and whether the
// reason is a message over the size cap.
func (g *guard) failed() (string, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.reason, g.huge
}

// closed reports whether the server closed its output.
func (g *guard) closed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.eof
}

// Close closes the underlying reader when it can be closed.
func (g *guard) Close() error {
	if c, ok := g.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
