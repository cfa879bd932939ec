package planner

import (
	"slices"

	"github.com/quarrydata/quarry/internal/semantic"
)

// namesHead reports whether words said of a column name what it holds:
// where its name has more than one word besides a unit and a word that
// says only that it is money (amount, total), a word past the
// first ("delivery fee" or "fees" of delivery_fee_cents), else its one
// word ("tips" of tip_cents). The first word of several only says what
// the amount is of: "deliveries by courier" asks how many deliveries,
// not the total delivery fee (found from outside: the fees added up, at
// 1.00).
func namesHead(said, column string) bool {
	ws := slices.DeleteFunc(nameWords(column), func(w string) bool {
		if long := semantic.ShortForm(w); long != "" {
			w = long // amt: amount
		}
		switch w {
		case "usd", "eur", "gbp", "amount", "total", "value", "sum":
			return true // a unit, or a word that says only that it is money
		}
		return semantic.MinorUnit(w, "")
	})
	if len(ws) < 2 {
		return true
	}
	stems := map[string]bool{}
	for _, t := range tokenize(said) {
		stems[stemWord(t.s)] = true
	}
	for _, w := range ws[1:] {
		if stems[stemWord(w)] {
			return true
		}
	}
	return false
}
