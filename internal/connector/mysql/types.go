package mysql

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// resultType maps a result column to a quarry type, from the type name the
// driver reports (sql.ColumnType.DatabaseTypeName), the column's display
// width on the wire, and whether the Catalog knows it as a MariaDB JSON
// column:
//
//   - TINYINT(1) (BOOLEAN) and BIT(1) → TypeBool: 0 is false, any other
//     value true, as in MySQL's own conditions. Other TINYINT … BIGINT
//     and their UNSIGNED forms, YEAR and BIT → TypeInt; BIGINT UNSIGNED →
//     TypeBigInt (decimal strings, since its values may not fit in int64).
//     Comparisons such as 1 > 0 are integers in MySQL and stay TypeInt.
//   - DECIMAL → TypeDecimal (exact strings); FLOAT, DOUBLE → TypeFloat.
//   - DATE → TypeDate ("YYYY-MM-DD"); DATETIME, TIMESTAMP → TypeTimestamp
//     as time.Time in UTC holding the server's wall-clock time (DATETIME has
//     no zone; TIMESTAMP is shown in the session's time zone, so set
//     time_zone='+00:00' in the DSN to read it as a UTC instant). Zero
//     dates ('0000-00-00') and dates with a zero month or day become NULL.
//     TIME → TypeTime (text; it may be negative or over 24 hours).
//   - CHAR, VARCHAR, TEXT, ENUM, SET → TypeText; BINARY, VARBINARY, BLOB,
//     GEOMETRY, VECTOR → TypeBytes.
//   - JSON → TypeJSON (json.RawMessage). MariaDB sends JSON columns as
//     LONGTEXT, so there a text result column is TypeJSON when its name is
//     that of a JSON column (a LONGTEXT with a json_valid check) and of no
//     other LONGTEXT column in the database, as read at Open or at the
//     last Catalog; a value that is not valid JSON then arrives as text.
//     Computed JSON (JSON_OBJECT(…)) on MariaDB is TypeText.
//   - NULL (a column that is NULL by construction) → TypeUnknown.
func resultType(dbType string, f wireField, json bool) quarry.Type {
	up := strings.ToUpper(dbType)
	switch {
	case f.ok && f.length == 1 && (up == "TINYINT" || up == "UNSIGNED TINYINT" || up == "BIT"):
		return quarry.TypeBool
	case json && strings.HasSuffix(up, "TEXT"):
		return quarry.TypeJSON
	}
	return baseType(dbType)
}

// baseType maps a type name without width information.
func baseType(dbType string) quarry.Type {
	switch strings.TrimPrefix(strings.ToUpper(dbType), "UNSIGNED ") {
	case "TINYINT", "SMALLINT", "MEDIUMINT", "INT", "YEAR", "BIT":
		return quarry.TypeInt
	case "BIGINT":
		if strings.HasPrefix(strings.ToUpper(dbType), "UNSIGNED ") {
			return quarry.TypeBigInt
		}
		return quarry.TypeInt
	case "DECIMAL":
		return quarry.TypeDecimal
	case "FLOAT", "DOUBLE":
		return quarry.TypeFloat
	case "DATE":
		return quarry.TypeDate
	case "DATETIME", "TIMESTAMP":
		return quarry.TypeTimestamp
	case "TIME":
		return quarry.TypeTime
	case "CHAR", "VARCHAR", "TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT", "ENUM", "SET":
		return quarry.TypeText
	case "BINARY", "VARBINARY", "TINYBLOB", "BLOB", "MEDIUMBLOB", "LONGBLOB", "GEOMETRY", "VECTOR":
		return quarry.TypeBytes
	case "JSON":
		return quarry.TypeJSON
	}
	return quarry.TypeUnknown
}

// declaredType maps a column's declared type from information_schema
// (COLUMNS.DATA_TYPE and COLUMN_TYPE) to a quarry type, as resultType
// does for result columns.
func declaredType(dataType, columnType string) quarry.Type {
	d := strings.ToLower(strings.TrimSpace(dataType))
	ct := strings.ToLower(strings.TrimSpace(columnType))
	switch {
	case d == "tinyint" && strings.HasPrefix(ct, "tinyint(1)"), d == "bit" && ct == "bit(1)", d == "bool", d == "boolean":
		return quarry.TypeBool
	case d == "bigint" && strings.Contains(ct, "unsigned"):
		return quarry.TypeBigInt
	case d == "integer":
		return quarry.TypeInt
	case d == "numeric", d == "dec", d == "fixed":
		return quarry.TypeDecimal
	case d == "real", d == "double precision":
		return quarry.TypeFloat
	case d == "point", d == "linestring", d == "polygon", d == "multipoint", d == "multilinestring", d == "multipolygon", d == "geometrycollection", d == "geomcollection":
		return quarry.TypeBytes
	}
	return baseType(d)
}

// converter turns a driver value of one column into a quarry value.
type converter func(v any) any

// converterFor returns the conversion for a column of quarry type t.
func converterFor(t quarry.Type) converter {
	switch t {
	case quarry.TypeBool:
		return toBool
	case quarry.TypeInt:
		return toInt
	case quarry.TypeBigInt:
		return toBigInt
	case quarry.TypeFloat:
		return toFloat
	case quarry.TypeDate:
		return toDate
	case quarry.TypeTimestamp:
		return toTimestamp
	case quarry.TypeJSON:
		return toJSON
	case quarry.TypeBytes:
		return toBytes
	}
	return toText
}

// toBool is MySQL's truth: 0 is false, anything else true.
func toBool(v any) any {
	switch x := v.(type) {
	case int64:
		return x != 0
	case uint64:
		return x != 0
	case []byte:
		for _, b := range x {
			if b != 0 {
				return true
			}
		}
		return false
	}
	return toText(v)
}

// toInt handles the driver's int64, the rare uint64 and BIT's big-endian
// bytes. A BIT(64) value above the int64 range becomes a decimal string.
func toInt(v any) any {
	switch x := v.(type) {
	case int64:
		return x
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return strconv.FormatUint(x, 10)
	case []byte:
		if len(x) > 8 {
			return string(x)
		}
		var n uint64
		for _, b := range x {
			n = n<<8 | uint64(b)
		}
		if n <= math.MaxInt64 {
			return int64(n)
		}
		return strconv.FormatUint(n, 10)
	}
	return toText(v)
}

func toBigInt(v any) any {
	switch x := v.(type) {
	case uint64:
		return strconv.FormatUint(x, 10)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return toText(v)
}

// toFloat widens FLOAT's float32 through its shortest decimal form, so that
// 0.1 stays 0.1 rather than 0.10000000149011612.
func toFloat(v any) any {
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		f, err := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		if err != nil {
			return float64(x)
		}
		return f
	case int64:
		return float64(x)
	}
	return toText(v)
}

// toDate keeps the server's text of a DATE (or DATETIME), and
// turns a zero date (or one with a zero month or day) into NULL.
func toDate(v any) any {
	b, ok := v.([]byte)
	if !ok {
		return toText(v)
	}
	if len(b) >= 10 && (string(b[5:7]) == "00" || string(b[8:10]) == "00") {
		return nil
	}
	return string(b)
}

// toTimestamp reads DATETIME and TIMESTAMP text as a time.Time in UTC;
// zero dates become NULL.
func toTimestamp(v any) any {
	d := toDate(v)
	s, ok := d.(string)
	if !ok {
		return d
	}
	t, err := time.ParseInLocation("2006-01-02 15:04:05.999999999", s, time.UTC)
	if err != nil {
		return s
	}
	return t
}

// toJSON passes valid JSON through as json.RawMessage, and anything else as
// text.
func toJSON(v any) any {
	b, ok := v.([]byte)
	if !ok {
		return toText(v)
	}
	if !json.Valid(b) {
		return string(b)
	}
	return json.RawMessage(b)
}

func toBytes(v any) any {
	if s, ok := v.(string); ok {
		return []byte(s)
	}
	return v
}

// toText renders any value as text; []byte is decoded as the connection's
// UTF-8.
func toText(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case []byte:
		return string(x)
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	}
	return v
}
