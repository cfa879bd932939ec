package semantic

import "slices"

// TermDate reports whether a date column's name is a termination as HR
// systems shorten it: "term" and words of a date alone (term_dt,
// term_date, TermDate), not a school term's start (term_start) nor a
// loan's term (term_months).
func TermDate(column string) bool {
	ws := NameWords(column)
	if len(ws) < 2 || ws[0] != "term" && ws[0] != "termn" && ws[0] != "trm" {
		return false
	}
	return !slices.ContainsFunc(ws[1:], func(w string) bool {
		switch w {
		case "on", "at", "date", "dt", "ts", "time", "timestamp", "day":
			return false
		}
		return true
	})
}
