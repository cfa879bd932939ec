package semantic

import "strings"

// NamePart reports whether a column holds a part of its rows' names:
// first_name, last_name (first_nm, last_nm), given_name, family_name,
// middle_name, surname, fname, lname. The value of one is a name, never a
// state or a verb.
func NamePart(column string) bool {
	var ws []string
	for _, w := range strings.FieldsFunc(strings.ToLower(column), func(r rune) bool { return r == '_' || r == ' ' || r == '-' }) {
		if long := ShortForm(w); long != "" {
			w = long
		}
		ws = append(ws, w)
	}
	switch len(ws) {
	case 1:
		switch ws[0] {
		case "surname", "forename", "firstname", "lastname", "fname", "lname", "givenname", "familyname":
			return true
		}
	case 2:
		switch ws[0] {
		case "first", "last", "given", "family", "middle", "sur":
			return ws[1] == "name"
		}
	}
	return false
}

// ClosingName reports whether a date column's name says its rows were
// closed or ended then: closed_on, end_date, terminated_at, graduated_on;
// not an expiry or a due date, which lie ahead of time.
func ClosingName(column string) bool {
	for _, w := range NameWords(column) {
		switch w {
		case "closed", "close", "closing", "ended", "end", "terminated", "termination", "finished", "graduated", "left", "churned", "cancelled", "canceled", "discharged", "resigned", "separation", "exit", "departure",
			"retired", "decommissioned", "deactivated", "unsubscribed", "lapsed",
			"withdrawn", "withdrew", "withdrawal", "vacated", "exited", "offboarded", "departed", "moved", "quit":
			return true
		}
	}
	return false
}

// StatusName reports whether a column's name says it holds a state:
// status, state or stage among its words (order_status, lifecycle_stage).
func StatusName(column string) bool {
	for _, w := range NameWords(column) {
		if w == "status" || w == "state" || w == "stage" {
			return true
		}
	}
	return false
}

// YearsName reports whether a number column's name says it holds years
// (year, year_founded, birth_year, model_yr): compared with a year, and
// an age is the year of the day less its value.
func YearsName(column string) bool {
	for _, w := range NameWords(column) {
		if w == "year" || w == "yr" {
			return true
		}
	}
	return false
}

// NameParts is the one column of ent that holds its rows' first names and
// the one that holds their last names (first_name and last_name, given
// and family, fname and lname), or "" where it has not each exactly once:
// together they name a person where no one column does.
func NameParts(ent *Entity) (first, last string) {
	var firsts, lasts []string
	for _, c := range ent.Columns {
		if c.Type.IsNumeric() || c.Type.IsTemporal() {
			continue
		}
		switch NamePartKind(c.Name) {
		case "first":
			firsts = append(firsts, c.Name)
		case "last":
			lasts = append(lasts, c.Name)
		}
	}
	if len(firsts) != 1 || len(lasts) != 1 {
		return "", ""
	}
	return firsts[0], lasts[0]
}

// NamePartKind says which part of a person's name a column holds by its
// name: "first" (first_name, given_name, FirstName, fname), "last"
// (last_name, surname, family_name, lname), else "" (a middle name too).
func NamePartKind(column string) string {
	if !NamePart(column) {
		return ""
	}
	ws := NameWords(column)
	if len(ws) == 0 {
		return ""
	}
	switch ws[0] {
	case "first", "given", "firstname", "forename", "fname", "givenname":
		return "first"
	case "last", "family", "sur", "surname", "lastname", "lname", "familyname":
		return "last"
	}
	return ""
}
