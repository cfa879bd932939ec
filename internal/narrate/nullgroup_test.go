package narrate

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestComposeNullGroupNamed: the rows with no value of a grouping are
// "(no reviewer)" wherever a sentence names a group, never "NULL" as if
// it were a name, and never unnamed beside "the highest" (found from
// outside: "starting with NULL, Joseph Johnson and Maria Moore; the
// highest is 476", the claims with no reviewer; "NULL 51.5%" leading
// the shares).
func TestComposeNullGroupNamed(t *testing.T) {
	reviewer := ColumnInfo{Name: "reviewer", Role: RoleDimension}
	branch := ColumnInfo{Name: "branch", Role: RoleDimension}
	claims := ColumnInfo{Name: "claims", Role: RoleMetric, Format: FormatInteger}
	share := ColumnInfo{Name: "claims_share", Role: RoleShare, Format: FormatPercent}
	for _, tt := range []struct {
		name string
		in   AnswerInput
	}{
		{"two groupings", AnswerInput{Title: "Number of claims by reviewer and branch",
			Table: &quarry.Table{Columns: []quarry.Column{col("reviewer", quarry.TypeText), col("branch", quarry.TypeText), col("claims", quarry.TypeInt)},
				Rows: [][]any{{nil, "Denver", int64(476)}, {"Joseph Johnson", "Denver", int64(15)}, {"Maria Moore", "Austin", int64(19)}}},
			Columns: []ColumnInfo{reviewer, branch, claims}}},
		{"shares", AnswerInput{Title: "Share of claims by reviewer", Question: "share of claims by reviewer",
			Table: &quarry.Table{Columns: []quarry.Column{col("reviewer", quarry.TypeText), col("claims", quarry.TypeInt), col("claims_share", quarry.TypeFloat)},
				Rows: [][]any{{nil, int64(1366), 0.515}, {"James Novak", int64(132), 0.05}, {"Amanda Rivera", int64(116), 0.044}}},
			Columns: []ColumnInfo{reviewer, claims, share}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := Compose(tt.in)
			head, _, _ := strings.Cut(a.Markdown, "\n")
			if strings.Contains(head, "NULL") || !strings.Contains(head, "(no reviewer)") {
				t.Errorf("the group with no reviewer is not named so:\n%s", head)
			}
		})
	}
}
