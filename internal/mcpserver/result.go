package mcpserver

import (
	"errors"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Column is a result column as tools return it.
type Column struct {
	Name   string      `json:"name"`
	Type   quarry.Type `json:"type"`
	DBType string      `json:"db_type,omitempty"` // the database's own spelling, when known
}

// Result is a result as tools return it: the columns, the rows as JSON
// values, how many rows the statement returned, and whether a row cap cut
// it short.
type Result struct {
	Columns   []Column `json:"columns"`
	Rows      [][]any  `json:"rows"`
	RowCount  int64    `json:"row_count"`
	Truncated bool     `json:"truncated"`
}

func columns(cols []quarry.Column) []Column {
	out := make([]Column, len(cols))
	for i, c := range cols {
		out[i] = Column{Name: c.Name, Type: c.Type, DBType: c.DBType}
	}
	return out
}

// jsonRow copies a row as JSON-safe values (times as RFC 3339, NaN and
// infinities as strings).
func jsonRow(r []any) []any {
	vals := make([]any, len(r))
	for i, v := range r {
		vals[i] = quarry.JSONValue(v)
	}
	return vals
}

// collector is a RowSink that keeps the first keep rows as JSON values
// (or, raw, as the connector gave them), with restricted columns
// redacted, and counts them all.
type collector struct {
	keep   int
	raw    bool
	policy restricted
	cols   []quarry.Column
	hide   []int // indexes of restricted columns
	rows   [][]any
	n      int64
}

func (c *collector) Begin(cols []quarry.Column) error {
	c.cols = cols
	c.hide = c.policy.columns(cols)
	return nil
}

func (c *collector) Row(vals []any) error {
	c.n++
	if len(c.rows) < c.keep {
		var row []any
		if c.raw {
			row = slices.Clone(vals)
		} else {
			row = jsonRow(vals)
		}
		c.rows = append(c.rows, c.policy.redact(row, c.hide))
	}
	return nil
}

func (c *collector) result(truncated bool) Result {
	rows := c.rows
	if rows == nil {
		rows = [][]any{}
	}
	return Result{Columns: columns(c.cols), Rows: rows, RowCount: c.n, Truncated: truncated}
}

// redactedValue replaces every value of a restricted column.
const redactedValue = "[restricted]"

// restricted is the column policy as a transport applies it: an MCP
// client is usually a language model, and restricted columns never reach
// one. Statements that read a restricted column are refused by the guard
// (the policy's lineage check) before they run; a result column called
// like a restricted one is still hidden here, by name, as the last line.
type restricted struct {
	p *policy.Policy
}

// columns returns the indexes of the restricted columns of a result.
func (p restricted) columns(cols []quarry.Column) []int {
	var idx []int
	for i, c := range cols {
		if p.p.Name(c.Name) {
			idx = append(idx, i)
		}
	}
	return idx
}

// redact replaces the values at idx in row, in place, and returns row.
func (p restricted) redact(row []any, idx []int) []any {
	for _, i := range idx {
		if i < len(row) {
			row[i] = redactedValue
		}
	}
	return row
}

// toolError is a tool result with IsError set: one line that says what
// happened and what to do, never a stack.
type toolError struct{ msg string }

func (e *toolError) Error() string { return e.msg }

// fail returns the tool error for err: its user message, on one line.
func fail(err error) error {
	var te *toolError
	if errors.As(err, &te) {
		return te
	}
	return &toolError{msg: oneLine(quarry.Message(err))}
}

func failf(msg string) error { return &toolError{msg: oneLine(msg)} }

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// textResult returns a tool result whose text content is text; the SDK
// adds the structured content.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// readOnly marks a tool that changes nothing in the user's database.
func readOnly(title string) *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, DestructiveHint: &f, OpenWorldHint: &f}
}
