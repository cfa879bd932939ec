package normalize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// maxDepth bounds how deep Parse looks into envelopes for the rows.
const maxDepth = 6

// parseJSON reads an array of objects, an array of arrays (the first one
// the header), {columns, rows}, or one of those inside an envelope object.
func parseJSON(data []byte) (*quarry.Table, error) {
	v, err := decodeOrdered(data)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "the pasted result looks like JSON but is not valid JSON: %s", err.Error())
	}
	t := find(v, 0)
	if t == nil {
		return nil, quarry.Errorf(quarry.KindInput, "the pasted JSON holds no table: give an array of objects, or {\"columns\": […], \"rows\": […]}")
	}
	return t, nil
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

// find looks for the table in v: v itself, or the first table among an
// envelope's values (data, result, results, rows, items, records first).
func find(v any, depth int) *quarry.Table {
	if depth > maxDepth {
		return nil
	}
	switch x := v.(type) {
	case []any:
		return fromArray(x, nil)
	case *object:
		if cols, ok := x.vals["columns"]; ok {
			if rows, ok := x.vals["rows"].([]any); ok {
				if names := columnNames(cols); names != nil {
					return fromArray(rows, names)
				}
			}
		}
		keys := append([]string{"data", "result", "results", "rows", "items", "records"}, x.keys...)
		for _, k := range keys {
			if c, ok := x.vals[k]; ok {
				if _, isObj := c.(*object); isObj || isArray(c) {
					if t := find(c, depth+1); t != nil {
						return t
					}
				}
			}
		}
	}
	return nil
}

func isArray(v any) bool { _, ok := v.([]any); return ok }

// columnNames reads ["a","b"] or [{"name":"a"},…].
func columnNames(v any) []string {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return nil
	}
	out := make([]string, len(arr))
	for i, c := range arr {
		switch x := c.(type) {
		case string:
			out[i] = x
		case *object:
			n, ok := x.vals["name"].(string)
			if !ok {
				return nil
			}
			out[i] = n
		default:
			return nil
		}
	}
	return out
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
			var vt quarry.Type
			switch v.(type) {
			case nil:
				continue
			case int64:
				vt = quarry.TypeInt
			case float64:
				vt = quarry.TypeFloat
			case bool:
				vt = quarry.TypeBool
			default:
				vt = quarry.TypeText
			}
			switch {
			case typ == "" || typ == vt:
				typ = vt
			case (typ == quarry.TypeInt || typ == quarry.TypeFloat) && (vt == quarry.TypeInt || vt == quarry.TypeFloat):
				typ = quarry.TypeFloat
			default:
				typ = quarry.TypeText
			}
		}
		if typ == "" {
			typ = quarry.TypeText
		}
		t.Columns[c] = quarry.Column{Name: n, Type: typ}
		if typ == quarry.TypeText || typ == quarry.TypeFloat {
			for i := range t.Rows {
				switch x := t.Rows[i][c].(type) {
				case int64:
					if typ == quarry.TypeFloat {
						t.Rows[i][c] = float64(x)
					} else {
						t.Rows[i][c] = fmt.Sprint(x)
					}
				case float64:
					if typ == quarry.TypeText {
						t.Rows[i][c] = fmt.Sprint(x)
					}
				case bool:
					if typ == quarry.TypeText {
						t.Rows[i][c] = fmt.Sprint(x)
					}
				}
			}
		}
	}
	return t
}

// value converts one decoded JSON value: numbers to int64 or float64,
// nested objects and arrays to their JSON text.
func value(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, err := x.Float64()
		if err != nil {
			return x.String()
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
