package normalize

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/quarry"
)

// FromDecoded reads {"columns": […], "rows": [[…], …]} from a value that
// a JSON decoder already decoded into map[string]any with numbers as
// float64, as an MCP client library hands over a tool's structured
// content, without encoding it again and decoding it a second time. The
// table is the one Parse gives for json.Marshal(v), and size is the length
// of that encoding; ok is false for any other shape or for cells that are
// not scalars (then encode v and call Parse).
func FromDecoded(v any) (t *quarry.Table, size int, ok bool) {
	m, isMap := v.(map[string]any)
	if !isMap {
		return nil, 0, false
	}
	for k := range m {
		// encoding/json matches struct fields without regard to case;
		// leave such spellings to Parse.
		for _, f := range []string{"columns", "rows", "truncated", "isError", "error"} {
			if k != f && strings.EqualFold(k, f) {
				return nil, 0, false
			}
		}
	}
	colsV, ok1 := m["columns"].([]any)
	rowsV, ok2 := m["rows"].([]any)
	if !ok1 || !ok2 || m["error"] != nil {
		return nil, 0, false
	}
	// isError and truncated, when present and not null, must be booleans
	// (encoding/json would refuse anything else); an error is not a table.
	isError, errOK := m["isError"].(bool)
	truncated, truncOK := m["truncated"].(bool)
	if (!errOK && m["isError"] != nil) || (!truncOK && m["truncated"] != nil) || isError {
		return nil, 0, false
	}
	cols := make([]any, len(colsV))
	for i, c := range colsV {
		switch x := c.(type) {
		case string:
			cols[i] = x
		case map[string]any:
			cols[i] = &object{vals: x}
		default:
			return nil, 0, false
		}
	}
	names, decl := columnNames(cols)
	if names == nil {
		return nil, 0, false
	}
	// The encoding's length: everything but the rows, then the rows.
	rest := make(map[string]any, len(m))
	for k, x := range m {
		if k != "rows" {
			rest[k] = x
		}
	}
	head, err := json.Marshal(rest)
	if err != nil {
		return nil, 0, false
	}
	size = len(head) + len(`"rows":[]`)
	if len(rest) > 0 {
		size++ // the comma between rows and the rest
	}
	size += max(len(rowsV)-1, 0)
	var num []byte
	rows := make([]any, len(rowsV))
	for i, r := range rowsV {
		cells, isArr := r.([]any)
		if !isArr || len(cells) != len(names) {
			return nil, 0, false
		}
		size += 2 + max(len(cells)-1, 0)
		out := make([]any, len(cells))
		for j, c := range cells {
			switch x := c.(type) {
			case float64:
				// The number as json.Marshal writes it, as Parse reads it.
				num = quarry.AppendJSONFloat(num[:0], x)
				out[j] = json.Number(num)
				size += len(num)
			case string:
				if !utf8.ValidString(x) {
					return nil, 0, false
				}
				out[j] = x
				size += quarry.JSONStringLen(x)
			case bool:
				out[j] = x
				size += len("false")
				if x {
					size--
				}
			case nil:
				size += len("null")
			default:
				return nil, 0, false
			}
		}
		rows[i] = out
	}
	t = fromArray(rows, names)
	if t == nil {
		return nil, 0, false
	}
	declare(t, decl)
	if truncated {
		t.Truncated = true
	}
	return t, size, true
}
