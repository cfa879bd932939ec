package normalize

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestTypeInference(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		types    []quarry.Type
		row      []any
	}{
		{"null spellings", "a,b,c,d\n1,\\N,<null>,(null)\n", []quarry.Type{quarry.TypeInt, quarry.TypeText, quarry.TypeText, quarry.TypeText}, []any{int64(1), nil, nil, nil}},
		{"bigint then float is decimal", "a\n99999999999999999999\n1.5\n", []quarry.Type{quarry.TypeDecimal}, []any{"99999999999999999999"}},
		{"long decimal stays exact", "a\n0.1234567890123456789\n", []quarry.Type{quarry.TypeDecimal}, []any{"0.1234567890123456789"}},
		{"date and timestamp", "a\n2025-01-01\n2025-01-02 03:04:05+00\n", []quarry.Type{quarry.TypeTimestamp}, []any{"2025-01-01"}},
		{"not a date", "a\n2025-13-45\n", []quarry.Type{quarry.TypeText}, []any{"2025-13-45"}},
		{"json numeric strings", `[{"n":"42","d":"1.50","zip":"01234","big":"18446744073709551616"}]`, []quarry.Type{quarry.TypeInt, quarry.TypeDecimal, quarry.TypeText, quarry.TypeBigInt}, []any{int64(42), "1.50", "01234", "18446744073709551616"}},
		{"json big number", `[{"n":123456789012345678901234}]`, []quarry.Type{quarry.TypeBigInt}, []any{"123456789012345678901234"}},
		{"json mixed is text", `[{"a":1},{"a":"x"}]`, []quarry.Type{quarry.TypeText}, []any{"1"}},
		{"python repr", `[{'a': True, 'b': Decimal('1.50'), 'c': 'it\'s'}]`, []quarry.Type{quarry.TypeBool, quarry.TypeDecimal, quarry.TypeText}, []any{true, "1.50", "it's"}},
	} {
		tbl, _, err := Parse([]byte(tc.in))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var types []quarry.Type
		for _, c := range tbl.Columns {
			types = append(types, c.Type)
		}
		if d := cmp.Diff(tc.types, types); d != "" {
			t.Errorf("%s: types (-want +got):\n%s", tc.name, d)
		}
		if d := cmp.Diff(tc.row, tbl.Rows[0]); d != "" {
			t.Errorf("%s: first row (-want +got):\n%s", tc.name, d)
		}
	}
}

func TestErrorsInsteadOfTables(t *testing.T) {
	for _, in := range []string{
		"ERROR 1146 (42S02): Table 'shop.orderz' doesn't exist",
		"Binder Error: Referenced column \"amont\" not found",
		"Error: no such table: x",
		`{"content":[{"type":"text","text":"boom"}],"isError":true}`,
		`{"error":{"message":"denied"}}`,
	} {
		if _, _, err := Parse([]byte(in)); quarry.KindOf(err) != quarry.KindInput {
			t.Errorf("Parse(%q) = %v, want a KindInput error", in, err)
		}
	}
	// A column named error is still a table.
	if tbl, _, err := Parse([]byte("error,n\ntimeout,3\n")); err != nil || len(tbl.Rows) != 1 {
		t.Errorf("a table with an error column: %v", err)
	}
}
