package narrate

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

// A ranking grouped by an entity's key and label names rows by the label.
func TestRankingNamesRowsByLabelNotKey(t *testing.T) {
	tbl := &quarry.Table{
		Columns: []quarry.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}, {Name: "revenue", Type: quarry.TypeFloat}},
		Rows: [][]any{
			{int64(150), "Peakform Dumbbells", 165618.32},
			{int64(19), "Voltra Earbuds", 132909.54},
		},
	}
	cols := []ColumnInfo{{Name: "id", Role: RoleDimension}, {Name: "name", Role: RoleDimension}, {Name: "revenue", Role: RoleMetric, Format: FormatCurrency}}
	a := Compose(AnswerInput{Table: tbl, Columns: cols, Report: verify.Run(verify.Input{Table: tbl}), Currency: "$"})
	if got := Shape(tbl, cols); got != ShapeRanking {
		t.Fatalf("shape = %s, want %s", got, ShapeRanking)
	}
	if !strings.Contains(a.Headline, "Peakform Dumbbells") || strings.Contains(a.Headline, "150") {
		t.Errorf("headline names rows by key, not label: %q", a.Headline)
	}
}
