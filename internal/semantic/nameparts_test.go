package semantic

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestNameParts: the one first-name column and the one last-name column
// of a table of persons, in the ways schemas write them; none where either
// is missing or written twice.
func TestNameParts(t *testing.T) {
	text := func(names ...string) *Entity {
		e := &Entity{Name: "people"}
		for _, n := range names {
			e.Columns = append(e.Columns, Column{Name: n, Type: quarry.TypeText})
		}
		return e
	}
	for _, tc := range []struct {
		e           *Entity
		first, last string
	}{
		{text("id", "first_name", "last_name", "email"), "first_name", "last_name"},
		{text("FirstName", "LastName"), "FirstName", "LastName"},
		{text("given_name", "family_name", "middle_name"), "given_name", "family_name"},
		{text("fname", "surname"), "fname", "surname"},
		{text("first_name", "email"), "", ""},
		{text("first_name", "last_name", "emergency_contact_first_name"), "first_name", "last_name"},
		{text("first_name", "fname", "last_name"), "", ""},
		{text("name", "last_login"), "", ""},
	} {
		if f, l := NameParts(tc.e); f != tc.first || l != tc.last {
			var cols []string
			for _, c := range tc.e.Columns {
				cols = append(cols, c.Name)
			}
			t.Errorf("NameParts(%v) = %q, %q; want %q, %q", cols, f, l, tc.first, tc.last)
		}
	}
}
