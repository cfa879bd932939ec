package analyst

import (
	"strings"
	"testing"
)

func TestRecordedCellsAreBounded(t *testing.T) {
	small := [][]string{{"$1.00", "web"}, {"$2.50", "store"}}
	if got := recordedCells(small); len(got) != 2 {
		t.Fatalf("small cells dropped: %v", got)
	}
	big := [][]string{{strings.Repeat("x", maxRecordedCells)}}
	if got := recordedCells(big); got != nil {
		t.Fatal("cells over the bound were recorded")
	}
}
