package semantic

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Rows that are no real data: those a yes/no column marks as a test, a
// deletion or a demo (is_test, is_deleted), and those a date marks as
// deleted (deleted_at). The planner leaves them out of what it measures
// and lists unless the question names them; the checks say so where a
// query takes them in.

// unrealWords are the adjectives of yes/no columns that mark rows as no
// real data: a test order, a deleted account.
// An archived row is still a real one (an old order), so is not among them.
var unrealWords = []string{"test", "testing", "deleted", "removed", "demo", "sample", "dummy", "fake", "internal", "void", "voided", "spam", "duplicate", "junk", "sandbox"}

// deletionWords name the date a row was deleted on: deleted_at,
// deletion_date. "Removed" is not one: a meter removed_on was installed
// and taken out, and is counted among those installed (found from
// outside: "meters installed this year" left out the 15 removed since);
// it ends the row's holding (HoldingEnd).
var deletionWords = []string{"deleted", "deletion", "purged", "trashed"}

// YesNo reports whether a column holds only a yes and a no: a boolean
// type, or known values that are all 0/1, true/false, t/f, y/n or
// yes/no.
func YesNo(c Column) bool {
	if c.Type == quarry.TypeBool {
		return true
	}
	if len(c.Values) == 0 {
		return false
	}
	for _, v := range c.Values {
		switch strings.ToLower(v) {
		case "0", "1", "true", "false", "t", "f", "y", "n", "yes", "no":
		default:
			return false
		}
	}
	return true
}

// UnrealFlag is the adjective of a yes/no column that marks rows as no
// real data ("test" of is_test, "deleted" of is_deleted), or "".
func UnrealFlag(c Column) string {
	if !YesNo(c) && !(len(c.Values) == 0 && c.Type == quarry.TypeInt && FlagPrefixed(c.Name)) {
		return ""
	}
	ws := NameWords(c.Name)
	if len(ws) == 0 || len(ws) > 3 {
		return ""
	}
	for _, w := range ws {
		if slices.Contains(unrealWords, w) {
			return w
		}
	}
	return ""
}

// unrealStates are the states a status column may give a row that say
// it is no real data.
var unrealStates = []string{"void", "voided", "test", "deleted", "spam", "junk", "duplicate", "dummy", "sandbox"}

// UnrealStates are the known values of a text column named for a status
// (status, state, stage) that mark rows as no real data ('void', 'test'),
// where the column holds other values too; nil otherwise (found from
// outside: void invoices added to the total billed).
func UnrealStates(c Column) []string {
	if c.Type != quarry.TypeText || !slices.ContainsFunc(NameWords(c.Name), func(w string) bool { return w == "status" || w == "state" || w == "stage" }) {
		return nil
	}
	var out []string
	for _, v := range c.Values {
		if slices.Contains(unrealStates, strings.ToLower(strings.TrimSpace(v))) {
			out = append(out, v)
		}
	}
	if len(out) == len(c.Values) {
		return nil
	}
	return out
}

// DeletionDate reports whether a column is the date a row was deleted on
// (deleted_at, deletion_date): a row where it is set is gone.
func DeletionDate(c Column) bool {
	ws := NameWords(c.Name)
	if len(ws) < 2 || len(ws) > 3 || !slices.Contains(deletionWords, ws[0]) {
		return false
	}
	if DateWord(ws[len(ws)-1]) {
		// deleted_at, empty in every row sampled, is typed by
		// neither its values nor its declared TEXT.
		return c.Temporal() || c.Type == quarry.TypeText || c.Type == quarry.TypeUnknown
	}
	return c.Temporal()
}

// DateWord reports whether w, a word of a column's name, only says the
// column is a date or a time: the "at" of deleted_at, the "on" of
// moved_in_on, the "date" of due_date.
func DateWord(w string) bool {
	switch w {
	case "at", "on", "date", "ts", "dt", "time", "timestamp":
		return true
	}
	return false
}

// ISODay reports whether s starts with a day written YYYY-MM-DD, the one
// form whose text sorts and compares as the days do.
func ISODay(s string) bool {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i := 0; i < 10; i++ {
		if i != 4 && i != 7 && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}
