package narrate

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestNoGroupLeadsARanking: the rows with no value of the grouping (the
// orders with no courier) never lead or trail a ranking; they are said
// after the named groups (found from outside: "(no id) leads with
// 2,796").
func TestNoGroupLeadsARanking(t *testing.T) {
	tbl := &quarry.Table{Columns: []quarry.Column{col("courier", quarry.TypeText), col("orders", quarry.TypeInt)},
		Rows: [][]any{{nil, int64(2796)}, {"Barbara Hernandez", int64(531)}, {"David Lewis", int64(525)}, {"Sofia Kim", int64(522)}}}
	infos := []ColumnInfo{{Name: "courier", Role: RoleDimension}, {Name: "orders", Role: RoleMetric, Format: FormatInteger}}
	a := Compose(AnswerInput{Title: "Orders by courier", Table: tbl, Columns: infos})
	if want := "Orders by courier: Barbara Hernandez leads with 531, then David Lewis 525 and Sofia Kim 522; 4 rows in all; (no courier): 2,796."; a.Headline != want {
		t.Errorf("headline %q\nwant     %q", a.Headline, want)
	}
}
