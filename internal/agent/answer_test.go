package agent

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestGrounded: every number of a model's text is a cell (as written,
// rounded, scaled or as a percentage) or in the question, the SQL or the
// date; one that is not is marked where it stands and warns.
func TestGrounded(t *testing.T) {
	tbl := &quarry.Table{Columns: []quarry.Column{{Name: "country"}, {Name: "revenue"}, {Name: "share"}},
		Rows: [][]any{{"Germany", 1234567.89, 0.4213}, {"France", 98765.0, 0.0321}}}
	for _, tc := range []struct {
		text, status, marked string
	}{
		{"Germany leads with $1,234,567.89, then France with 98,765.", verify.Pass, ""},
		{"Germany leads with about $1.2M (42.1% of the total).", verify.Pass, ""},
		{"Germany brought in 1.23 million.", verify.Pass, ""},
		{"France made 98.8k in 2025.", verify.Pass, ""}, // 2025 is in the question
		{"Germany leads with $2,500,000.", verify.Warn, "$2,500,000 (not in the result)"},
		{"Spain made 4.5M.", verify.Warn, "4.5M (not in the result)"},
		// Digits in code, an address or a reference claim nothing (found
		// from outside: the mark was written inside a link's address).
		{"See [the report](http://127.0.0.1:18901/link) and `SELECT 42 FROM t` &#x61;.", verify.Pass, ""},
		{"Run this:\n```sql\nSELECT 777 FROM t\n```\nand <https://example.com/7777>, https://example.com/8888.", verify.Pass, ""},
		{"Germany made 3,333 per `code 5555`.", verify.Warn, "3,333 (not in the result) per `code 5555`"},
	} {
		c, text := grounded(tc.text, tbl, "revenue by country in 2025")
		if c.Status != tc.status {
			t.Errorf("%q: %s (%s), want %s", tc.text, c.Status, c.Detail, tc.status)
		}
		if tc.marked != "" && !strings.Contains(text, tc.marked) {
			t.Errorf("%q: marked as %q, want %q in it", tc.text, text, tc.marked)
		}
		if tc.marked == "" && text != tc.text {
			t.Errorf("%q: changed to %q", tc.text, text)
		}
	}
}
