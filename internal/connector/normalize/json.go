package normalize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// maxDepth bounds how deep Parse looks into envelopes for the rows.
const maxDepth = 6

// parseJSON reads an array of objects, an array of arrays (the first one
// the header), {columns, rows}, or one of those inside an envelope object.
func parseJSON(data []byte, depth int) (*quarry.Table, error) {
	if t, ok := parseColumnsRows(data); ok {
		return t, nil
	}
	v, err := decodeOrdered(data)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "the pasted result looks like JSON but is not valid JSON: %s", err.Error())
	}
	if msg, ok := toolError(v); ok {
		return nil, quarry.Errorf(quarry.KindInput, "%s%s", ErrorTextPrefix, short(msg))
	}
	t, err := find(v, depth)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, quarry.Errorf(quarry.KindInput, "the pasted JSON holds no table: give an array of objects, or {\"columns\": […], \"rows\": […]}")
	}
	return t, nil
}

// parseColumnsRows reads {"columns": […], "rows": [[…], …]} whose cells
// are all scalars, the shape quarry's own servers and many others answer,
// with one Unmarshal rather than a token at a time (several times faster
// on a large result). It reports false for anything else, which the
// general, order-keeping decoder then reads.
func parseColumnsRows(data []byte) (*quarry.Table, bool) {
	var v struct {
		Columns   []any   `json:"columns"`
		Rows      [][]any `json:"rows"`
		Truncated bool    `json:"truncated"`
		IsError   bool    `json:"isError"`
		Error     any     `json:"error"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&v) != nil || dec.More() || v.Columns == nil || v.Rows == nil || v.IsError || v.Error != nil {
		return nil, false
	}
	cols := make([]any, len(v.Columns))
	for i, c := range v.Columns {
		switch x := c.(type) {
		case string:
			cols[i] = x
		case map[string]any:
			cols[i] = &object{vals: x}
		default:
			return nil, false
		}
	}
	names, decl := columnNames(cols)
	if names == nil {
		return nil, false
	}
	rows := make([]any, len(v.Rows))
	for i, r := range v.Rows {
		if len(r) != len(names) {
			return nil, false
		}
		for _, c := range r {
			switch c.(type) {
			case json.Number, string, bool, nil:
			default:
				return nil, false
			}
		}
		rows[i] = r
	}
	t := fromArray(rows, names)
	if t == nil {
		return nil, false
	}
	declare(t, decl)
	if v.Truncated {
		t.Truncated = true
	}
	return t, true
}

// object is a JSON object with its keys in order.
type object struct {
	keys []string
	vals map[string]any
}

// decodeOrdered decodes JSON keeping the order of object keys, which is the
// order of the columns.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > 64 {
		return nil, fmt.Errorf("nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch d := tok.(type) {
	case json.Delim:
		switch d {
		case '{':
			o := &object{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("an object key is not a string")
				}
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				if _, dup := o.vals[k]; !dup {
					o.keys = append(o.keys, k)
				}
				o.vals[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			var arr []any
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			if arr == nil {
				arr = []any{}
			}
			return arr, nil
		}
		return nil, fmt.Errorf("unexpected %v", d)
	default:
		return tok, nil
	}
}

// toolError reports an MCP tool result with isError set, or an object
// whose only news is an error ({"error": "..."}), and its message.
func toolError(v any) (string, bool) {
	o, ok := v.(*object)
	if !ok {
		return "", false
	}
	if b, _ := o.vals["isError"].(bool); b {
		if text := contentText(o); text != "" {
			return firstLine(text), true
		}
		return "the tool reported an error without a message", true
	}
	switch e := o.vals["error"].(type) {
	case string:
		if e != "" {
			return firstLine(e), true
		}
	case *object:
		if m, ok := e.vals["message"].(string); ok && m != "" {
			return firstLine(m), true
		}
	}
	return "", false
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(l)
}

// contentText joins the text items of an MCP tool result's content.
func contentText(o *object) string {
	items, ok := o.vals["content"].([]any)
	if !ok {
		return ""
	}
	var parts []string
	for _, it := range items {
		io, ok := it.(*object)
		if !ok {
			continue
		}
		if typ, _ := io.vals["type"].(string); typ != "text" {
			continue
		}
		if text, ok := io.vals["text"].(string); ok {
			parts = append(parts, text)
		}
	}
	return strings.Join(parts, "\n")
}

// find looks for the table in v: v itself, an MCP tool result's
// structuredContent or text content, or the first table among an
// envelope's values (data, result, results, rows, items, records first).
func find(v any, depth int) (*quarry.Table, error) {
	if depth > maxDepth {
		return nil, nil
	}
	switch x := v.(type) {
	case []any:
		// [{"results": [...], "success": true}]: one envelope in an array.
		if len(x) == 1 {
			if o, ok := x[0].(*object); ok && isEnvelope(o) {
				return find(o, depth+1)
			}
		}
		return fromArray(x, nil), nil
	case *object:
		if cols, ok := x.vals["columns"]; ok {
			if rows, ok := x.vals["rows"].([]any); ok {
				if names, decl := columnNames(cols); names != nil {
					t := fromArray(rows, names)
					declare(t, decl)
					// {"columns", "rows", "truncated": true}: the
					// server stopped at its own row cap.
					if tr, ok := x.vals["truncated"].(bool); ok && tr && t != nil {
						t.Truncated = true
					}
					return t, nil
				}
			}
		}
		if sc, ok := x.vals["structuredContent"]; ok {
			if t, err := find(sc, depth+1); t != nil || err != nil {
				return t, err
			}
		}
		if text := contentText(x); text != "" {
			t, _, err := parse([]byte(text), depth+1)
			if err != nil {
				return nil, err
			}
			return t, nil
		}
		keys := append([]string{"data", "result", "results", "rows", "items", "records"}, x.keys...)
		for _, k := range keys {
			if c, ok := x.vals[k]; ok {
				if _, isObj := c.(*object); isObj || isArray(c) {
					if t, err := find(c, depth+1); t != nil || err != nil {
						return t, err
					}
				}
			}
		}
	}
	return nil, nil
}

// isEnvelope reports an object that wraps a table rather than being a row:
// it has columns and rows, content, structuredContent, or an envelope key
// holding an array or object.
func isEnvelope(o *object) bool {
	if _, ok := o.vals["columns"]; ok {
		if _, ok := o.vals["rows"].([]any); ok {
			return true
		}
	}
	if _, ok := o.vals["structuredContent"]; ok {
		return true
	}
	if _, ok := o.vals["content"].([]any); ok {
		return true
	}
	for _, k := range []string{"data", "result", "results", "rows", "items", "records"} {
		switch o.vals[k].(type) {
		case []any, *object:
			return true
		}
	}
	return false
}

func isArray(v any) bool { _, ok := v.([]any); return ok }

// columnNames reads ["a","b"] or [{"name":"a"},…].
func columnNames(v any) ([]string, []declared) {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return nil, nil
	}
	out := make([]string, len(arr))
	decl := make([]declared, len(arr))
	for i, c := range arr {
		switch x := c.(type) {
		case string:
			out[i] = x
		case *object:
			n, ok := x.vals["name"].(string)
			if !ok {
				return nil, nil
			}
			out[i] = n
			typ, _ := x.vals["type"].(string)
			db, _ := x.vals["db_type"].(string)
			if portable[quarry.Type(typ)] {
				decl[i].typ = quarry.Type(typ)
			} else if db == "" {
				db = typ // {"name", "type": "INTEGER"}: the database's spelling
			}
			decl[i].db = db
		default:
			return nil, nil
		}
	}
	return out, decl
}

// declared is what a server says of a column beyond its name: quarry's
// portable type and the database's own spelling of it.
type declared struct {
	typ quarry.Type
	db  string
}

// portable are the type names a server may declare in quarry's terms.
var portable = map[quarry.Type]bool{
	quarry.TypeBool: true, quarry.TypeInt: true, quarry.TypeBigInt: true, quarry.TypeDecimal: true,
	quarry.TypeFloat: true, quarry.TypeText: true, quarry.TypeBytes: true, quarry.TypeDate: true,
	quarry.TypeTimestamp: true, quarry.TypeTime: true, quarry.TypeInterval: true, quarry.TypeJSON: true,
	quarry.TypeArray: true,
}

// declare keeps what the server declared of t's columns: the database's
// type always, and the portable type of a column with no values to infer
// one from (every cell NULL, or no rows).
func declare(t *quarry.Table, decl []declared) {
	if t == nil || len(decl) != len(t.Columns) {
		return
	}
	for c, d := range decl {
		if d.db != "" {
			t.Columns[c].DBType = d.db
		}
		if d.typ == "" {
			continue
		}
		empty := true
		for _, r := range t.Rows {
			if r[c] != nil {
				empty = false
				break
			}
		}
		if empty {
			t.Columns[c].Type = d.typ
		}
	}
}

// fromArray builds a table from rows that are objects (keys are the
// columns, in first-seen order) or arrays (names given, or the first row).
func fromArray(rows []any, names []string) *quarry.Table {
	if len(rows) == 0 {
		if names == nil {
			return nil
		}
		return typed(names, nil)
	}
	switch rows[0].(type) {
	case *object:
		if names == nil {
			seen := map[string]bool{}
			for _, r := range rows {
				o, ok := r.(*object)
				if !ok {
					return nil
				}
				for _, k := range o.keys {
					if !seen[k] {
						seen[k] = true
						names = append(names, k)
					}
				}
			}
		}
		cells := make([][]any, len(rows))
		for i, r := range rows {
			o, ok := r.(*object)
			if !ok {
				return nil
			}
			cells[i] = make([]any, len(names))
			for c, n := range names {
				cells[i][c] = o.vals[n]
			}
		}
		return typed(names, cells)
	case []any:
		if names == nil {
			head := rows[0].([]any)
			for _, h := range head {
				s, ok := h.(string)
				if !ok {
					return nil
				}
				names = append(names, s)
			}
			rows = rows[1:]
		}
		cells := make([][]any, len(rows))
		for i, r := range rows {
			a, ok := r.([]any)
			if !ok || len(a) != len(names) {
				return nil
			}
			cells[i] = a
		}
		return typed(names, cells)
	}
	return nil
}

// exactNum is a JSON number that a float64 or int64 cannot hold exactly;
// it is kept as written.
type exactNum struct {
	s string
	t quarry.Type // TypeBigInt or TypeDecimal
}

// cellType is the type one JSON cell suggests. Strings that spell dates,
// timestamps or numbers (as servers write bigint and numeric columns)
// suggest those types; a number-as-string with a leading zero stays text.
func cellType(v any) quarry.Type {
	switch x := v.(type) {
	case int64:
		return quarry.TypeInt
	case float64:
		return quarry.TypeFloat
	case bool:
		return quarry.TypeBool
	case exactNum:
		return x.t
	case string:
		k := kindOf(x)
		switch k {
		case quarry.TypeDate, quarry.TypeTimestamp:
			return k
		case quarry.TypeInt, quarry.TypeBigInt:
			d := strings.TrimLeft(x, "+-")
			if len(d) > 1 && d[0] == '0' {
				return quarry.TypeText
			}
			return k
		case quarry.TypeFloat, quarry.TypeDecimal:
			if d := strings.TrimLeft(x, "+-"); len(d) > 1 && d[0] == '0' && d[1] != '.' {
				return quarry.TypeText
			}
			return quarry.TypeDecimal
		}
	}
	return quarry.TypeText
}

// typed converts JSON cells to quarry values and types the columns.
func typed(names []string, cells [][]any) *quarry.Table {
	if len(names) == 0 {
		return nil
	}
	t := &quarry.Table{Columns: make([]quarry.Column, len(names)), Rows: make([][]any, len(cells))}
	for i := range cells {
		t.Rows[i] = make([]any, len(names))
	}
	for c, n := range names {
		typ := quarry.Type("")
		for i, r := range cells {
			v := value(r[c])
			t.Rows[i][c] = v
			if v == nil {
				continue
			}
			typ = merge(typ, cellType(v))
		}
		if typ == "" {
			typ = quarry.Type(quarry.TypeText)
		}
		t.Columns[c] = quarry.Column{Name: n, Type: typ}
		for i := range t.Rows {
			if t.Rows[i][c] != nil {
				t.Rows[i][c] = as(t.Rows[i][c], typ)
			}
		}
	}
	return t
}

// as converts one JSON cell to a value of the column's type.
func as(v any, typ quarry.Type) any {
	text := func() string {
		switch x := v.(type) {
		case exactNum:
			return x.s
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		case string:
			return x
		}
		return fmt.Sprint(v)
	}
	switch typ {
	case quarry.TypeInt:
		if s, ok := v.(string); ok {
			return cellValue(s, typ)
		}
	case quarry.TypeFloat:
		switch x := v.(type) {
		case int64:
			return float64(x)
		case string:
			return cellValue(x, typ)
		}
	case quarry.TypeBigInt, quarry.TypeDecimal:
		return strings.TrimPrefix(text(), "+")
	case quarry.TypeBool:
		return v
	default:
		if _, ok := v.(string); !ok {
			return text()
		}
	}
	return v
}

// value converts one decoded JSON value: numbers to int64 or float64 (or
// exactNum when neither holds them exactly), nested objects and arrays to
// their JSON text.
func value(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		s := x.String()
		if isInt(s) {
			return exactNum{s, quarry.TypeBigInt}
		}
		if sigDigits(s) > maxExactDigits {
			return exactNum{s, quarry.TypeDecimal}
		}
		f, err := x.Float64()
		if err != nil {
			return exactNum{s, quarry.TypeDecimal}
		}
		return f
	case string, bool, nil:
		return x
	case *object:
		var b strings.Builder
		b.WriteString("{")
		for i, k := range x.keys {
			if i > 0 {
				b.WriteString(",")
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteString(":")
			b.WriteString(fmt.Sprint(jsonText(x.vals[k])))
		}
		b.WriteString("}")
		return b.String()
	case []any:
		return jsonText(x)
	}
	return fmt.Sprint(v)
}

func jsonText(v any) string {
	switch x := v.(type) {
	case *object:
		return value(x).(string)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = jsonText(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case json.Number:
		return x.String()
	case nil:
		return "null"
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}
