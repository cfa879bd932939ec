package workflow

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/yamlnode"
)

// Encode writes w in the one canonical form: the keys in a fixed order,
// empty fields left out, text plain where YAML reads it back the same and
// quoted or as a block otherwise. Decode(Encode(w)) gives w back, and a
// file in this form encodes to the same bytes: the CLI (`quarry workflow
// fmt`) and the web editor's export both write it.
func Encode(w *Workflow) []byte {
	var e encoder
	e.field(0, "name", w.Name)
	e.field(0, "description", w.Description)
	e.field(0, "schedule", w.Schedule)
	if len(w.Params) > 0 {
		e.line(0, "params:")
		for _, p := range w.Params {
			e.item()
			e.field(2, "name", p.Name)
			e.field(2, "type", string(p.Type))
			if p.Type == Number {
				if _, err := strconv.ParseFloat(p.Default, 64); err == nil {
					e.raw(2, "default", p.Default)
				} else {
					e.field(2, "default", p.Default)
				}
			} else {
				e.field(2, "default", p.Default)
			}
			if p.Required {
				e.raw(2, "required", "true")
			}
			e.field(2, "description", p.Description)
		}
	}
	e.line(0, "nodes:")
	for _, n := range w.Nodes {
		e.item()
		e.field(2, "id", n.ID)
		e.field(2, "kind", string(n.Kind))
		e.field(2, "title", n.Title)
		e.field(2, "question", n.Question)
		e.field(2, "verified", n.Verified)
		e.field(2, "sql", n.SQL)
		if n.Kind == Branch {
			e.field(2, "if", n.Expr)
		} else {
			e.field(2, "expr", n.Expr)
		}
		if n.MinConfidence != 0 {
			e.raw(2, "min_confidence", strconv.FormatFloat(n.MinConfidence, 'f', -1, 64))
		}
		if n.Retries != 0 {
			e.raw(2, "retries", strconv.Itoa(n.Retries))
		}
		e.field(2, "for", n.For)
		e.field(2, "until", n.Until)
		e.field(2, "approval", n.Approval)
		if len(n.Channels) > 0 {
			parts := make([]string, len(n.Channels))
			for i, c := range n.Channels {
				parts[i] = yamlnode.Quote(c, true)
			}
			e.raw(2, "channels", "["+strings.Join(parts, ", ")+"]")
		}
		e.field(2, "message", n.Message)
		e.field(2, "status", n.Status)
		e.field(2, "next", n.Next)
		e.field(2, "then", n.Then)
		e.field(2, "else", n.Else)
	}
	return []byte(e.b.String())
}

type encoder struct {
	b       strings.Builder
	pending bool // the next field starts a list item ("- ")
}

func (e *encoder) item() { e.pending = true }

func (e *encoder) line(indent int, format string, args ...any) {
	e.b.WriteString(strings.Repeat(" ", indent))
	fmt.Fprintf(&e.b, format, args...)
	e.b.WriteByte('\n')
}

// raw writes key: value as given (a number, a flow list).
func (e *encoder) raw(indent int, key, value string) {
	if e.pending {
		e.pending = false
		e.line(indent-2, "- %s: %s", key, value)
		return
	}
	e.line(indent, "%s: %s", key, value)
}

// field writes key: text, when text is not empty: plain, quoted, or as a
// literal block when it spans lines.
func (e *encoder) field(indent int, key, text string) {
	if text == "" {
		return
	}
	if block, ok := literal(text); ok {
		e.raw(indent, key, block)
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if l == "" {
				e.b.WriteByte('\n')
				continue
			}
			e.line(indent+2, "%s", l)
		}
		return
	}
	e.raw(indent, key, yamlnode.Quote(text, false))
}

// literal says whether text is written as a literal block, and its
// header: "|" when it ends with one newline, "|-" when with none. Text
// that a block would not give back exactly (leading space on its first
// line, trailing spaces, several trailing newlines, control characters)
// is quoted instead.
func literal(text string) (string, bool) {
	if !strings.Contains(strings.TrimSuffix(text, "\n"), "\n") {
		return "", false
	}
	if strings.HasPrefix(text, " ") || strings.HasSuffix(text, "\n\n") || strings.HasPrefix(text, "\n") {
		return "", false
	}
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.TrimRight(l, " \t") != l {
			return "", false
		}
		for _, r := range l {
			if r < 0x20 && r != '\t' || r == 0x7f || r == '\uFEFF' {
				return "", false
			}
		}
	}
	if strings.HasSuffix(text, "\n") {
		return "|", true
	}
	return "|-", true
}
