package knowledge

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestTextDates: date columns declared TEXT whose sample holds dates are
// typed as dates or timestamps (found from outside: listings.sold_at and
// lab_orders.resulted_at stayed text, so no reading of an event's date
// saw them, and "listings sold by month" went by the listing date); a
// column with one value that is no date, or too small a sample, stays text.
func TestTextDates(t *testing.T) {
	e := &semantic.Entity{Name: "listings", Columns: []semantic.Column{
		{Name: "sold_at", Type: quarry.TypeText}, {Name: "listed_on", Type: quarry.TypeText},
		{Name: "note_date", Type: quarry.TypeText}, {Name: "rare_at", Type: quarry.TypeText}, {Name: "made_at", Type: quarry.TypeTimestamp},
	}}
	textDates(e, map[string]labelStats{
		"sold_at":   {filled: 0.4, dates: 1, times: 1, rows: 100},
		"listed_on": {filled: 1, dates: 1, rows: 100},
		"note_date": {filled: 1, dates: 0.98, rows: 100},
		"rare_at":   {filled: 0.02, dates: 1, times: 1, rows: 100},
	})
	want := map[string]quarry.Type{"sold_at": quarry.TypeTimestamp, "listed_on": quarry.TypeDate, "note_date": quarry.TypeText, "rare_at": quarry.TypeText, "made_at": quarry.TypeTimestamp}
	for _, c := range e.Columns {
		if c.Type != want[c.Name] {
			t.Errorf("%s: %s, want %s", c.Name, c.Type, want[c.Name])
		}
	}
	// One text date column is sampled too.
	tab := &quarry.TableInfo{Name: "lab_orders", Columns: []quarry.ColumnInfo{{Name: "id", DeclType: "INTEGER"}, {Name: "resulted_at", DeclType: "TEXT"}}}
	if got := dateColumns(tab, func(string) bool { return true }); len(got) != 1 || got[0] != "resulted_at" {
		t.Errorf("dateColumns: %v", got)
	}
}
