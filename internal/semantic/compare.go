package semantic

import "strings"

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

// MoneyBefore reports whether text right before a number (the question up
// to it) ends with a currency sign: "$70", "€ 50". Such a number is an
// amount, never a year ("between $1000 and $2000").
func MoneyBefore(before string) bool {
	before = strings.TrimRight(before, " ")
	for _, sign := range []string{"$", "€", "£", "¥"} {
		if strings.HasSuffix(before, sign) {
			return true
		}
	}
	return false
}

// CurrencyWord reports whether w, after a number, names a currency: "70
// dollars".
func CurrencyWord(w string) bool { return CurrencyCode(w) != "" }

// CurrencyCode is the code of the currency w names after a number ("1000
// euros": EUR), or "".
func CurrencyCode(w string) string {
	switch w {
	case "dollars", "dollar", "usd", "bucks":
		return "USD"
	case "euros", "euro", "eur":
		return "EUR"
	case "pounds", "gbp":
		return "GBP"
	}
	return ""
}
