package connectortest

import "github.com/quarrydata/quarry/internal/quarry"

// DuckDB's cases: big integers and decimals arrive as strings, intervals
// in ISO 8601, UUIDs as text, STRUCT and MAP as JSON objects, lists and
// fixed arrays as arrays.
var duckdbCases = []Case{
	{"i_small", "SMALLINT", "-7", quarry.TypeInt, `-7`},
	{"i_int", "INTEGER", "42", quarry.TypeInt, `42`},
	{"i_big", "BIGINT", "9223372036854775807", quarry.TypeInt, `9223372036854775807`},
	{"u_big", "UBIGINT", "18446744073709551615", quarry.TypeBigInt, `"18446744073709551615"`},
	{"i_huge", "HUGEINT", "-170141183460469231731687303715884105728", quarry.TypeBigInt, `"-170141183460469231731687303715884105728"`},
	{"n_huge", "DECIMAL(38,0)", "123456789012345678901234567890", quarry.TypeDecimal, `"123456789012345678901234567890"`},
	{"n_dec", "DECIMAL(12,4)", "-1234.5600", quarry.TypeDecimal, `"-1234.5600"`},
	{"n_small", "DECIMAL(4,3)", "0.005", quarry.TypeDecimal, `"0.005"`},
	{"f_double", "DOUBLE", "1.5", quarry.TypeFloat, `1.5`},
	{"f_real", "REAL", "0.1", quarry.TypeFloat, `0.1`},
	{"f_nan", "DOUBLE", "'NaN'", quarry.TypeFloat, `"NaN"`},
	{"f_inf", "DOUBLE", "'-Infinity'", quarry.TypeFloat, `"-Infinity"`},
	{"b_bool", "BOOLEAN", "true", quarry.TypeBool, `true`},
	{"d_date", "DATE", "'2024-02-29'", quarry.TypeDate, `"2024-02-29"`},
	{"ts_plain", "TIMESTAMP", "'2024-02-29 13:45:56.789'", quarry.TypeTimestamp, `"2024-02-29T13:45:56.789Z"`},
	{"ts_zone", "TIMESTAMPTZ", "'2024-02-29 13:45:56+02'", quarry.TypeTimestamp, `"2024-02-29T11:45:56Z"`},
	{"t_time", "TIME", "'13:45:56.5'", quarry.TypeTime, `"13:45:56.5"`},
	{"iv", "INTERVAL", "INTERVAL '1 year 2 months 3 days 04:05:06.5'", quarry.TypeInterval, `"P1Y2M3DT4H5M6.5S"`},
	{"s_text", "VARCHAR", quoteLiteral(unicodeText), quarry.TypeText, jsonString(unicodeText)},
	{"s_uuid", "UUID", "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'", quarry.TypeText, `"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"`},
	{"by_blob", "BLOB", `'\x00\xFF\x10'::BLOB`, quarry.TypeBytes, `"AP8Q"`},
	{"j_json", "JSON", `'{"a": [1, 2.5, "x"], "b": null}'`, quarry.TypeJSON, `{"a":[1,2.5,"x"],"b":null}`},
	{"a_int", "INTEGER[]", "[1, 2, NULL]", quarry.TypeArray, `[1,2,null]`},
	{"a_text", "VARCHAR[]", "['a', 'b c']", quarry.TypeArray, `["a","b c"]`},
	{"a_fixed", "DOUBLE[2]", "[0.5::DOUBLE, 'NaN'::DOUBLE]", quarry.TypeArray, `[0.5,"NaN"]`},
	{"st", "STRUCT(a INTEGER, b VARCHAR)", "{'a': 1, 'b': 'x'}", quarry.TypeJSON, `{"a":1,"b":"x"}`},
	{"mp", "MAP(VARCHAR, HUGEINT)", "MAP {'k': 170141183460469231731687303715884105727}", quarry.TypeJSON, `{"k":"170141183460469231731687303715884105727"}`},
}
