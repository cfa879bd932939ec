package semantic

// ComparesNumber reports whether a word before a number says the number
// is compared with an amount ("over 2000", "more than 2000", "at least
// 1999"), so that a four-digit number after it is no year: the planner's
// date parser and the coverage check read it so alike. "after",
// "before" and "since" keep a year a year.
func ComparesNumber(prev string) bool {
	switch prev {
	case "over", "above", "under", "below", "exceeding", "exceed", "exceeds", "than", "least", "most":
		return true
	}
	return false
}
