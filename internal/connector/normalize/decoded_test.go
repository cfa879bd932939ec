package normalize

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFromDecodedIsParse checks that reading an already decoded value
// gives what Parse gives for its encoding, and the encoding's length.
func TestFromDecodedIsParse(t *testing.T) {
	docs := []string{
		`{"columns":[{"name":"id","type":"int","db_type":"INTEGER"},{"name":"who","type":"text"}],"rows":[[1,"a <b>"],[2,null]],"row_count":2,"truncated":false}`,
		`{"columns":["n","f","s","b"],"rows":[[9007199254740993,0.30000000000000004,"2024-01-02",true],[1e21,1e-7,"007",false]],"truncated":true}`,
		`{"columns":[{"name":"x","type":"date"}],"rows":[[null],[null]]}`,
		`{"columns":["t"],"rows":[["2024-01-02 03:04:05"],["2024-01-03T00:00:00Z"]],"isError":false,"error":null}`,
		`{"columns":["only"],"rows":[]}`,
		`{"columns":["a","b"],"rows":[["12","-3.5"],["0012","x"]],"extra":{"k":[1,2]}}`,
	}
	for _, doc := range docs {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		enc, _ := json.Marshal(v)
		want, _, err := Parse(enc)
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		got, size, ok := FromDecoded(v)
		if !ok {
			t.Errorf("%s: not read", doc)
			continue
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(exactNum{})); diff != "" {
			t.Errorf("%s (-Parse +FromDecoded):\n%s", doc, diff)
		}
		if size != len(enc) {
			t.Errorf("%s: size %d, the encoding has %d bytes", doc, size, len(enc))
		}
	}
	// Other shapes are left to Parse.
	for _, doc := range []string{
		`[{"a":1}]`, `{"columns":["a"],"rows":[[{"nested":1}]]}`, `{"columns":["a"],"rows":[[1,2]]}`,
		`{"Columns":["a"],"rows":[[1]]}`, `{"columns":["a"],"rows":[[1]],"isError":true}`, `{"columns":["a"],"rows":[[1]],"truncated":"yes"}`,
		`{"columns":["a"],"rows":[[1]],"error":"boom"}`, `{"columns":[],"rows":[]}`, `{"columns":["a"]}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		if _, _, ok := FromDecoded(v); ok {
			t.Errorf("%s: read, want it left to Parse", doc)
		}
	}
}
