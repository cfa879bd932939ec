package connectortest

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Case is one typed value the suite stores and reads back: a column of the
// ct_values table declared as DDL, holding Literal in its first row and
// NULL in its second.
type Case struct {
	Column  string
	DDL     string      // the column's declared type in this dialect
	Literal string      // the SQL literal inserted into the first row
	Type    quarry.Type // the quarry type the result column must have
	// JSON is json.Marshal(quarry.JSONValue(value)) of the value read back,
	// compared after decoding both sides (numbers kept exact).
	JSON string
}

// unicodeText exercises multi-byte UTF-8: accents, CJK, an emoji and a
// quote.
const unicodeText = `héllo 世界 🙂 "q"`

// Cases returns the value cases for a dialect.
func Cases(d quarry.Dialect) []Case {
	switch d {
	case quarry.DialectPostgres:
		return postgresCases
	case quarry.DialectMySQL:
		return mysqlCases
	case quarry.DialectSQLite:
		return sqliteCases
	case quarry.DialectDuckDB:
		return duckdbCases
	}
	return nil
}

var postgresCases = []Case{
	{"i_small", "smallint", "-7", quarry.TypeInt, `-7`},
	{"i_int", "integer", "42", quarry.TypeInt, `42`},
	{"i_big", "bigint", "9223372036854775807", quarry.TypeInt, `9223372036854775807`},
	{"n_huge", "numeric", "123456789012345678901234567890", quarry.TypeDecimal, `"123456789012345678901234567890"`},
	{"n_dec", "numeric(12,4)", "-1234.5600", quarry.TypeDecimal, `"-1234.5600"`},
	{"f_double", "double precision", "1.5", quarry.TypeFloat, `1.5`},
	{"f_real", "real", "0.25", quarry.TypeFloat, `0.25`},
	{"f_nan", "double precision", "'NaN'", quarry.TypeFloat, `"NaN"`},
	{"f_inf", "double precision", "'-Infinity'", quarry.TypeFloat, `"-Infinity"`},
	{"b_bool", "boolean", "true", quarry.TypeBool, `true`},
	{"d_date", "date", "'2024-02-29'", quarry.TypeDate, `"2024-02-29"`},
	{"d_inf", "date", "'infinity'", quarry.TypeDate, `"infinity"`},
	{"ts_plain", "timestamp", "'2024-02-29 13:45:56.789'", quarry.TypeTimestamp, `"2024-02-29T13:45:56.789Z"`},
	{"ts_zone", "timestamptz", "'2024-02-29 13:45:56+02'", quarry.TypeTimestamp, `"2024-02-29T11:45:56Z"`},
	{"t_time", "time", "'13:45:56.5'", quarry.TypeTime, `"13:45:56.5"`},
	{"iv", "interval", "'1 year 2 months 3 days 04:05:06.5'", quarry.TypeInterval, `"P1Y2M3DT4H5M6.5S"`},
	{"s_text", "text", quoteLiteral(unicodeText), quarry.TypeText, jsonString(unicodeText)},
	{"s_char", "char(4)", "'ab'", quarry.TypeText, `"ab  "`},
	{"s_uuid", "uuid", "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'", quarry.TypeText, `"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"`},
	{"bin_bytes", "bytea", `'\x00ff10'`, quarry.TypeBytes, `"AP8Q"`},
	{"j_json", "json", `'{"a": [1, 2.5, "x"], "b": null}'`, quarry.TypeJSON, `{"a":[1,2.5,"x"],"b":null}`},
	{"j_jsonb", "jsonb", `'{"big": 12345678901234567890}'`, quarry.TypeJSON, `{"big":12345678901234567890}`},
	{"a_int", "integer[]", "'{1,2,NULL}'", quarry.TypeArray, `[1,2,null]`},
	{"a_text", "text[]", `'{"a","b c"}'`, quarry.TypeArray, `["a","b c"]`},
}

// The MySQL cases assume a session time zone of UTC.
var mysqlCases = []Case{
	{"i_small", "smallint", "-7", quarry.TypeInt, `-7`},
	{"i_int", "int", "42", quarry.TypeInt, `42`},
	{"i_big", "bigint", "9223372036854775807", quarry.TypeInt, `9223372036854775807`},
	{"u_big", "bigint unsigned", "18446744073709551615", quarry.TypeBigInt, `"18446744073709551615"`},
	{"n_huge", "decimal(30,0)", "123456789012345678901234567890", quarry.TypeDecimal, `"123456789012345678901234567890"`},
	{"n_dec", "decimal(12,4)", "-1234.5600", quarry.TypeDecimal, `"-1234.5600"`},
	{"f_double", "double", "1.5", quarry.TypeFloat, `1.5`},
	{"b_bool", "boolean", "true", quarry.TypeBool, `true`},
	{"d_date", "date", "'2024-02-29'", quarry.TypeDate, `"2024-02-29"`},
	{"ts_plain", "datetime(3)", "'2024-02-29 13:45:56.789'", quarry.TypeTimestamp, `"2024-02-29T13:45:56.789Z"`},
	{"ts_zone", "timestamp", "'2024-02-29 13:45:56'", quarry.TypeTimestamp, `"2024-02-29T13:45:56Z"`},
	{"t_time", "time", "'13:45:56'", quarry.TypeTime, `"13:45:56"`},
	{"s_text", "text", quoteLiteral(unicodeText), quarry.TypeText, jsonString(unicodeText)},
	{"bin_bytes", "varbinary(8)", "x'00ff10'", quarry.TypeBytes, `"AP8Q"`},
	{"j_json", "json", `'{"a": [1, 2.5, "x"], "b": null}'`, quarry.TypeJSON, `{"a":[1,2.5,"x"],"b":null}`},
}

// SQLite has no separate decimal, interval or array storage: NUMERIC
// columns hold floats, and dates and times are ISO-8601 text.
var sqliteCases = []Case{
	{"i_int", "INTEGER", "42", quarry.TypeInt, `42`},
	{"i_big", "INTEGER", "9223372036854775807", quarry.TypeInt, `9223372036854775807`},
	{"n_dec", "NUMERIC(12,4)", "-1234.56", quarry.TypeFloat, `-1234.56`},
	{"f_double", "REAL", "1.5", quarry.TypeFloat, `1.5`},
	{"b_bool", "BOOLEAN", "1", quarry.TypeBool, `true`},
	{"d_date", "DATE", "'2024-02-29'", quarry.TypeDate, `"2024-02-29"`},
	{"ts_plain", "TIMESTAMP", "'2024-02-29 13:45:56'", quarry.TypeTimestamp, `"2024-02-29 13:45:56"`},
	{"ts_zone", "TIMESTAMP", "'2024-02-29T13:45:56+02:00'", quarry.TypeTimestamp, `"2024-02-29T13:45:56+02:00"`},
	{"s_text", "TEXT", quoteLiteral(unicodeText), quarry.TypeText, jsonString(unicodeText)},
	{"bin_bytes", "BLOB", "x'00ff10'", quarry.TypeBytes, `"AP8Q"`},
}

// Setup returns the statements that create the suite's tables in schema
// ("" for the default schema), in order: ct_values (id, then one column
// per case; row 1 holds the literals, row 2 NULLs), ct_numbers (n = 1..10),
// ct_parent and ct_child (a foreign key, comments where the dialect has
// them) and the view ct_parent_view. The caller runs them with a writable
// session and drops the schema (or file) afterwards.
func Setup(d quarry.Dialect, schema string) []string {
	q := func(name string) string { return Qualify(schema, name) }
	cases := Cases(d)
	var cols, lits, nulls []string
	for _, c := range cases {
		cols = append(cols, c.Column+" "+c.DDL)
		lits = append(lits, c.Literal)
		nulls = append(nulls, "NULL")
	}
	idType := "integer"
	if d == quarry.DialectSQLite {
		idType = "INTEGER"
	}
	stmts := []string{
		fmt.Sprintf("CREATE TABLE %s (id %s PRIMARY KEY, %s)", q("ct_values"), idType, strings.Join(cols, ", ")),
		fmt.Sprintf("INSERT INTO %s VALUES (1, %s)", q("ct_values"), strings.Join(lits, ", ")),
		fmt.Sprintf("INSERT INTO %s VALUES (2, %s)", q("ct_values"), strings.Join(nulls, ", ")),
		fmt.Sprintf("CREATE TABLE %s (n integer PRIMARY KEY)", q("ct_numbers")),
		fmt.Sprintf("INSERT INTO %s VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10)", q("ct_numbers")),
	}
	switch d {
	case quarry.DialectMySQL:
		stmts = append(stmts,
			fmt.Sprintf("CREATE TABLE %s (id integer PRIMARY KEY, name varchar(40) NOT NULL COMMENT 'what the parent is called') COMMENT 'parents of children'", q("ct_parent")),
			fmt.Sprintf("CREATE TABLE %s (id integer PRIMARY KEY, parent_id integer NOT NULL, note text, FOREIGN KEY (parent_id) REFERENCES %s (id))", q("ct_child"), q("ct_parent")),
		)
	default:
		stmts = append(stmts,
			fmt.Sprintf("CREATE TABLE %s (id integer PRIMARY KEY, name varchar(40) NOT NULL)", q("ct_parent")),
			fmt.Sprintf("CREATE TABLE %s (id integer PRIMARY KEY, parent_id integer NOT NULL REFERENCES %s (id), note text)", q("ct_child"), q("ct_parent")),
		)
	}
	if d == quarry.DialectPostgres || d == quarry.DialectDuckDB {
		stmts = append(stmts,
			fmt.Sprintf("COMMENT ON TABLE %s IS 'parents of children'", q("ct_parent")),
			fmt.Sprintf("COMMENT ON COLUMN %s.name IS 'what the parent is called'", q("ct_parent")),
		)
	}
	stmts = append(stmts,
		fmt.Sprintf("INSERT INTO %s VALUES (1, 'one'), (2, 'two')", q("ct_parent")),
		fmt.Sprintf("INSERT INTO %s VALUES (1, 1, 'a'), (2, 1, NULL), (3, 2, 'c')", q("ct_child")),
		fmt.Sprintf("CREATE VIEW %s AS SELECT id, name FROM %s", q("ct_parent_view"), q("ct_parent")),
	)
	return stmts
}

// HasComments reports whether the dialect stores table and column comments.
func HasComments(d quarry.Dialect) bool {
	return d == quarry.DialectPostgres || d == quarry.DialectMySQL || d == quarry.DialectDuckDB
}

// Qualify returns schema.name, or name when schema is empty.
func Qualify(schema, name string) string {
	if schema == "" {
		return name
	}
	return schema + "." + name
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func jsonString(s string) string {
	b := new(strings.Builder)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
