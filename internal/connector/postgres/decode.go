package postgres

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/quarrydata/quarry/internal/quarry"
)

// decoder turns one non-NULL raw value into a JSON-safe quarry value.
type decoder func(raw []byte) (any, error)

// OIDs the connector reads in the binary format; every other type comes in
// PostgreSQL's own text format.
const (
	oidBool        = 16
	oidBytea       = 17
	oidInt8        = 20
	oidInt2        = 21
	oidInt4        = 23
	oidOID         = 26
	oidFloat4      = 700
	oidFloat8      = 701
	oidDate        = 1082
	oidTime        = 1083
	oidTimestamp   = 1114
	oidTimestamptz = 1184
	oidInterval    = 1186
	oidNumeric     = 1700
	oidJSON        = 114
	oidJSONB       = 3802
)

// resultFormats chooses binary for the types decoded from it (and for
// arrays of them) and text (0, absent) for the rest, numeric included,
// whose text form is exact.
func resultFormats() pgx.QueryResultFormatsByOID {
	m := pgx.QueryResultFormatsByOID{}
	for _, oid := range []uint32{oidBool, oidBytea, oidInt8, oidInt2, oidInt4, oidOID, oidFloat4, oidFloat8, oidDate, oidTime, oidTimestamp, oidTimestamptz, oidInterval,
		1000, 1001, 1005, 1007, 1016, 1021, 1022, 1182, 1183, 1115, 1185, 1187, 2951} {
		m[oid] = pgx.BinaryFormatCode
	}
	return m
}

// pgEpoch is 2000-01-01, PostgreSQL's zero for dates and timestamps.
func pgEpoch() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }

// columnType returns the quarry type, the database type's name and the
// decoder for a result column.
func columnType(tm *pgtype.Map, oid uint32, format int16) (quarry.Type, string, decoder) {
	name := fmt.Sprintf("oid %d", oid)
	pt, known := tm.TypeForOID(oid)
	if known {
		name = pt.Name
	}
	bin := format == pgx.BinaryFormatCode
	switch {
	case bin && (oid == oidInt2 || oid == oidInt4 || oid == oidInt8 || oid == oidOID):
		return quarry.TypeInt, name, decodeInt(oid)
	case bin && (oid == oidFloat4 || oid == oidFloat8):
		return quarry.TypeFloat, name, decodeFloat
	case bin && oid == oidBool:
		return quarry.TypeBool, name, func(b []byte) (any, error) { return len(b) == 1 && b[0] == 1, nil }
	case bin && oid == oidBytea:
		return quarry.TypeBytes, name, func(b []byte) (any, error) { return append([]byte{}, b...), nil }
	case bin && oid == oidDate:
		return quarry.TypeDate, name, decodeDate
	case bin && (oid == oidTimestamp || oid == oidTimestamptz):
		return quarry.TypeTimestamp, name, decodeTimestamp
	case bin && oid == oidTime:
		return quarry.TypeTime, name, decodeTime
	case bin && oid == oidInterval:
		return quarry.TypeInterval, name, decodeInterval
	case oid == oidNumeric:
		return quarry.TypeDecimal, name, decodeText
	case oid == oidJSON || oid == oidJSONB:
		return quarry.TypeJSON, name, func(b []byte) (any, error) { return json.RawMessage(append([]byte{}, b...)), nil }
	case oid == 1266: // timetz, text: 13:45:56+02
		return quarry.TypeTime, name, decodeText
	}
	if known {
		if ac, ok := pt.Codec.(*pgtype.ArrayCodec); ok && ac.ElementType != nil {
			elem := ac.ElementType.OID
			return quarry.TypeArray, name, func(b []byte) (any, error) {
				var a []any
				if err := tm.PlanScan(oid, format, &a).Scan(b, &a); err != nil {
					return nil, err
				}
				return normaliseArray(a, elem), nil
			}
		}
	}
	return quarry.TypeText, name, decodeText
}

func decodeText(b []byte) (any, error) { return string(b), nil }

func decodeInt(oid uint32) decoder {
	return func(b []byte) (any, error) {
		switch {
		case len(b) == 2:
			return int64(int16(binary.BigEndian.Uint16(b))), nil
		case len(b) == 4 && oid == oidOID:
			return int64(binary.BigEndian.Uint32(b)), nil
		case len(b) == 4:
			return int64(int32(binary.BigEndian.Uint32(b))), nil
		case len(b) == 8:
			return int64(binary.BigEndian.Uint64(b)), nil
		}
		return nil, errors.New("bad integer length")
	}
}

func decodeFloat(b []byte) (any, error) {
	switch len(b) {
	case 4:
		return float32To64(math.Float32frombits(binary.BigEndian.Uint32(b))), nil
	case 8:
		return math.Float64frombits(binary.BigEndian.Uint64(b)), nil
	}
	return nil, errors.New("bad float length")
}

// float32To64 widens f to the float64 with the same shortest decimal
// form, so that real 0.1 reads as 0.1, not 0.10000000149011612.
func float32To64(f float32) float64 {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return float64(f)
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return v
}

// decodeDate formats a date as YYYY-MM-DD ("YYYY-MM-DD BC" before year 1,
// "infinity" and "-infinity" as PostgreSQL spells them).
func decodeDate(b []byte) (any, error) {
	if len(b) != 4 {
		return nil, errors.New("bad date length")
	}
	days := int32(binary.BigEndian.Uint32(b))
	switch days {
	case math.MaxInt32:
		return "infinity", nil
	case math.MinInt32:
		return "-infinity", nil
	}
	return formatDate(pgEpoch().AddDate(0, 0, int(days))), nil
}

func formatDate(t time.Time) string {
	y, m, d := t.Date()
	if y <= 0 {
		return fmt.Sprintf("%04d-%02d-%02d BC", 1-y, m, d)
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

// decodeTimestamp reads timestamp and timestamptz as a time.Time in UTC
// (a timestamp without time zone is taken as UTC); infinities are the
// strings "infinity" and "-infinity".
func decodeTimestamp(b []byte) (any, error) {
	if len(b) != 8 {
		return nil, errors.New("bad timestamp length")
	}
	us := int64(binary.BigEndian.Uint64(b))
	switch us {
	case math.MaxInt64:
		return "infinity", nil
	case math.MinInt64:
		return "-infinity", nil
	}
	// Seconds and nanoseconds, not a Duration: a Duration spans only 292
	// years, timestamps reach 294276 AD.
	return time.Unix(pgEpoch().Unix()+us/1e6, us%1e6*1e3).UTC(), nil
}

// decodeTime formats a time of day as HH:MM:SS[.ffffff].
func decodeTime(b []byte) (any, error) {
	if len(b) != 8 {
		return nil, errors.New("bad time length")
	}
	return formatClock(int64(binary.BigEndian.Uint64(b))), nil
}

func formatClock(us int64) string {
	s := fmt.Sprintf("%02d:%02d:%02d", us/3_600_000_000, us/60_000_000%60, us/1_000_000%60)
	if f := us % 1_000_000; f != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%06d", f), "0")
	}
	return s
}

func decodeInterval(b []byte) (any, error) {
	if len(b) != 16 {
		return nil, errors.New("bad interval length")
	}
	us := int64(binary.BigEndian.Uint64(b[0:8]))
	days := int32(binary.BigEndian.Uint32(b[8:12]))
	months := int32(binary.BigEndian.Uint32(b[12:16]))
	return quarry.FormatInterval(months, days, us), nil
}

// normaliseArray makes the elements pgx decoded JSON-safe, knowing the
// element type: integers become int64, dates YYYY-MM-DD, timestamps
// RFC 3339 in UTC, numerics exact strings, non-finite floats strings.
func normaliseArray(a []any, elem uint32) []any {
	for i, v := range a {
		a[i] = normaliseElem(v, elem)
	}
	return a
}

func normaliseElem(v any, elem uint32) any {
	switch x := v.(type) {
	case nil, bool, string, int64:
		return v
	case []any:
		return normaliseArray(x, elem)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint32:
		return int64(x)
	case float32:
		return quarry.JSONValue(float32To64(x))
	case float64:
		return quarry.JSONValue(x)
	case []byte:
		return append([]byte{}, x...)
	case time.Time:
		if elem == oidDate {
			return formatDate(x)
		}
		return x.UTC().Format(time.RFC3339Nano)
	case [16]byte:
		h := hex.EncodeToString(x[:])
		return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
	case pgtype.Numeric:
		if s, err := x.Value(); err == nil {
			return s
		}
		return nil
	case pgtype.Interval:
		return quarry.FormatInterval(x.Months, x.Days, x.Microseconds)
	case pgtype.Time:
		return formatClock(x.Microseconds)
	case pgtype.InfinityModifier:
		if x > 0 {
			return "infinity"
		}
		return "-infinity"
	case map[string]any:
		return x
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}
