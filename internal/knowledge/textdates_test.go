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

// TestRoleNamedTextDate: a text column named by what a date marks but
// with no date's ending (appointments.scheduled_for) is sampled, typed a
// date where its values all are, given its role, and dates a table that
// had no date by name (found from outside: never read as a date, so every
// question of appointments in a period was refused). Sampled values that
// are no dates leave it text: scheduled_by holds people.
func TestRoleNamedTextDate(t *testing.T) {
	tab := &quarry.TableInfo{Name: "appointments", Columns: []quarry.ColumnInfo{{Name: "id", DeclType: "INTEGER"}, {Name: "scheduled_for", DeclType: "TEXT"}, {Name: "scheduled_by", DeclType: "TEXT"}, {Name: "notes", DeclType: "TEXT"}}}
	if got := dateColumns(tab, func(string) bool { return true }); len(got) != 2 || got[0] != "scheduled_for" || got[1] != "scheduled_by" {
		t.Errorf("dateColumns: %v", got)
	}
	e := &semantic.Entity{Name: "appointments", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "scheduled_for", Type: quarry.TypeText}, {Name: "scheduled_by", Type: quarry.TypeText}}}
	textDates(e, map[string]labelStats{
		"scheduled_for": {filled: 1, dates: 1, rows: 100},
		"scheduled_by":  {filled: 1, dates: 0, rows: 100},
	})
	if c := e.Column("scheduled_for"); c.Type != quarry.TypeDate || c.TimeRole != semantic.TimeRoleEvent || e.TimeColumn != "scheduled_for" {
		t.Errorf("scheduled_for: %+v, time column %q", c, e.TimeColumn)
	}
	if c := e.Column("scheduled_by"); c.Type != quarry.TypeText || c.TimeRole != "" {
		t.Errorf("scheduled_by: %+v", c)
	}
}
