//go:build duckdb

package duckdb

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/quarrydata/quarry/internal/quarry"
)

// converter turns one value from the driver into a value quarry.Table
// allows for the column's type. It is never called with nil.
type converter func(v any) (any, error)

// columnType maps a DuckDB type name, as the driver or duckdb_columns
// spells it, to quarry's type and a converter:
//
//	TINYINT … BIGINT, UTINYINT … UINTEGER  → int (int64)
//	UBIGINT, HUGEINT, UHUGEINT, BIGNUM      → bigint (decimal string)
//	DECIMAL(w,s)                            → decimal (string with s digits after the point)
//	FLOAT, DOUBLE                           → float
//	BOOLEAN                                 → bool
//	DATE                                    → date ("YYYY-MM-DD")
//	TIMESTAMP*, TIMESTAMPTZ                 → timestamp (time.Time in UTC)
//	TIME, TIMETZ                            → time ("15:04:05.5", "15:04:05+02:00")
//	INTERVAL                                → interval (ISO 8601: P1Y2M3DT4H5M6.5S)
//	VARCHAR, ENUM, UUID, BIT                → text
//	BLOB                                    → bytes
//	JSON, STRUCT, MAP, UNION                → json (json.RawMessage)
//	LIST (T[]), ARRAY (T[n])                → array ([]any of JSON-safe values)
func columnType(name string) (quarry.Type, converter) {
	n := strings.ToUpper(strings.TrimSpace(name))
	switch {
	case strings.HasSuffix(n, "]"):
		return quarry.TypeArray, convArray
	case strings.HasPrefix(n, "STRUCT"), strings.HasPrefix(n, "MAP"), strings.HasPrefix(n, "UNION"), n == "JSON":
		return quarry.TypeJSON, convJSON
	case strings.HasPrefix(n, "DECIMAL"), strings.HasPrefix(n, "NUMERIC"):
		return quarry.TypeDecimal, convDecimal
	case strings.HasPrefix(n, "ENUM"):
		return quarry.TypeText, convText
	case strings.HasPrefix(n, "TIMESTAMP"), n == "DATETIME":
		return quarry.TypeTimestamp, convTimestamp
	}
	switch n {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "INT1", "INT2", "INT4", "INT8", "INT":
		return quarry.TypeInt, convInt
	case "UBIGINT", "HUGEINT", "UHUGEINT", "BIGNUM", "VARINT", "INT128", "UINT128":
		return quarry.TypeBigInt, convBigInt
	case "FLOAT", "REAL", "FLOAT4", "DOUBLE", "FLOAT8":
		return quarry.TypeFloat, convFloat
	case "BOOLEAN", "BOOL":
		return quarry.TypeBool, convBool
	case "DATE":
		return quarry.TypeDate, convDate
	case "TIME", "TIMETZ", "TIME WITH TIME ZONE", "TIME_NS":
		return quarry.TypeTime, convTime(n != "TIME" && n != "TIME_NS")
	case "INTERVAL":
		return quarry.TypeInterval, convInterval
	case "VARCHAR", "TEXT", "STRING", "CHAR", "BPCHAR", "UUID", "BIT", "BITSTRING":
		return quarry.TypeText, convText
	case "BLOB", "BYTEA", "VARBINARY", "GEOMETRY":
		return quarry.TypeBytes, convBytes
	}
	return quarry.TypeUnknown, convAny
}

func convInt(v any) (any, error) {
	switch x := v.(type) {
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case int64:
		return x, nil
	case uint8:
		return int64(x), nil
	case uint16:
		return int64(x), nil
	case uint32:
		return int64(x), nil
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x), nil
		}
	}
	return nil, fmt.Errorf("unexpected %T for an integer", v)
}

func convBigInt(v any) (any, error) {
	switch x := v.(type) {
	case *big.Int:
		return x.String(), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case string:
		return x, nil
	}
	return nil, fmt.Errorf("unexpected %T for a big integer", v)
}

func convDecimal(v any) (any, error) {
	switch x := v.(type) {
	case duckdb.Decimal:
		return formatDecimal(x), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	}
	return nil, fmt.Errorf("unexpected %T for a decimal", v)
}

// formatDecimal writes a decimal with exactly Scale digits after the
// point, as the column declares: DECIMAL(12,4) -1234.56 is "-1234.5600".
func formatDecimal(d duckdb.Decimal) string {
	if d.Value == nil {
		return "0"
	}
	s := new(big.Int).Abs(d.Value).String()
	sign := ""
	if d.Value.Sign() < 0 {
		sign = "-"
	}
	scale := int(d.Scale)
	if scale == 0 {
		return sign + s
	}
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	return sign + s[:len(s)-scale] + "." + s[len(s)-scale:]
}

func convFloat(v any) (any, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case float32:
		// The shortest decimal that reads back as the float32, so that
		// REAL 0.1 is 0.1, not 0.10000000149011612.
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return f, nil
	}
	return nil, fmt.Errorf("unexpected %T for a float", v)
}

func convBool(v any) (any, error) {
	if b, ok := v.(bool); ok {
		return b, nil
	}
	return nil, fmt.Errorf("unexpected %T for a boolean", v)
}

func convDate(v any) (any, error) {
	if t, ok := v.(time.Time); ok {
		return t.Format(time.DateOnly), nil
	}
	return nil, fmt.Errorf("unexpected %T for a date", v)
}

func convTimestamp(v any) (any, error) {
	if t, ok := v.(time.Time); ok {
		return t.UTC(), nil
	}
	return nil, fmt.Errorf("unexpected %T for a timestamp", v)
}

func convTime(zoned bool) converter {
	return func(v any) (any, error) {
		t, ok := v.(time.Time)
		if !ok {
			return nil, fmt.Errorf("unexpected %T for a time", v)
		}
		if zoned {
			return t.Format("15:04:05.999999999Z07:00"), nil
		}
		return t.Format("15:04:05.999999999"), nil
	}
}

func convInterval(v any) (any, error) {
	if iv, ok := v.(duckdb.Interval); ok {
		return quarry.FormatInterval(iv.Months, iv.Days, iv.Micros), nil
	}
	return nil, fmt.Errorf("unexpected %T for an interval", v)
}

func convText(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case []byte:
		if len(x) == 16 {
			return formatUUID(x), nil
		}
		return string(x), nil
	case duckdb.UUID:
		return formatUUID(x[:]), nil
	case *duckdb.UUID:
		return formatUUID(x[:]), nil
	case fmt.Stringer:
		return x.String(), nil
	}
	return nil, fmt.Errorf("unexpected %T for text", v)
}

func formatUUID(b []byte) string {
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[c>>4], hex[c&0xf])
	}
	return string(out)
}

func convBytes(v any) (any, error) {
	switch x := v.(type) {
	case []byte:
		return x, nil
	case string:
		return []byte(x), nil
	}
	return nil, fmt.Errorf("unexpected %T for bytes", v)
}

// convJSON renders JSON, STRUCT, MAP and UNION values as JSON text.
// DuckDB's JSON arrives decoded by the driver, so a number in it beyond
// float64's precision loses digits; cast the column to VARCHAR to keep
// them.
func convJSON(v any) (any, error) {
	b, err := json.Marshal(jsonSafe(v))
	if err != nil {
		return nil, err
	}
	return json.RawMessage(b), nil
}

func convArray(v any) (any, error) {
	switch x := jsonSafe(v).(type) {
	case []any:
		return x, nil
	}
	return nil, fmt.Errorf("unexpected %T for a list", v)
}

func convAny(v any) (any, error) {
	switch x := jsonSafe(v).(type) {
	case nil, bool, int64, float64, string, []byte, time.Time, json.RawMessage:
		return x, nil
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		return string(b), nil
	}
}

// jsonSafe converts a value from the driver, at any depth, to one that
// encoding/json renders faithfully and quarry.Table allows: integers to
// int64 (or decimal strings when they do not fit), decimals and big
// integers to strings, non-finite floats to strings, dates to
// RFC 3339 (a DATE inside a list cannot be told from a midnight
// TIMESTAMP there), times of day to "15:04:05", intervals to ISO 8601, UUIDs to text,
// maps and structs to objects (map keys as text, in DuckDB's order).
func jsonSafe(v any) any {
	switch x := v.(type) {
	case nil, bool, int64, string, []byte, json.RawMessage:
		return x
	case int8, int16, int32, uint8, uint16, uint32:
		n, _ := convInt(x)
		return n
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return strconv.FormatUint(x, 10)
	case *big.Int:
		return x.String()
	case float32:
		f, _ := convFloat(x)
		return jsonSafe(f)
	case float64:
		return quarry.JSONValue(x)
	case duckdb.Decimal:
		return formatDecimal(x)
	case duckdb.Interval:
		return quarry.FormatInterval(x.Months, x.Days, x.Micros)
	case duckdb.UUID:
		return formatUUID(x[:])
	case time.Time:
		if x.Year() == 1 && x.Month() == time.January && x.Day() == 1 {
			return x.Format("15:04:05.999999999")
		}
		return x.UTC().Format(time.RFC3339Nano)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonSafe(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonSafe(e)
		}
		return out
	case duckdb.OrderedMap:
		return orderedObject(x)
	case duckdb.Union:
		return map[string]any{x.Tag: jsonSafe(x.Value)}
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// orderedObject renders a DuckDB MAP as a JSON object in key order; keys
// that are not strings are written as their JSON text.
func orderedObject(m duckdb.OrderedMap) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	keys, vals := m.Keys(), m.Values()
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		ks, ok := jsonSafe(k).(string)
		if !ok {
			kb, _ := json.Marshal(jsonSafe(k))
			ks = string(kb)
		}
		kb, _ := json.Marshal(ks)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(jsonSafe(vals[i]))
		if err != nil {
			vb = []byte("null")
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}
