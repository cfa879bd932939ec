package planner

import "github.com/quarrydata/quarry/internal/semantic"

// moneyHead is the words of a numeric column's name before the words
// that say it is an amount of money (quoted_total_cents: "quoted"), where
// its name has such words and others; nil otherwise.
func moneyHead(c semantic.Column) []string {
	if !c.Type.IsNumeric() {
		return nil
	}
	ws := words(c.Name)
	var head []string
	money := false
	for _, w := range ws {
		switch {
		case amountWord(w) || w == "cents" || w == "cent" || w == "usd" || w == "eur" || w == "gbp" || w == "pence":
			money = true
		case money || genericWord(w):
			return nil // a word after the money's, or a vague one
		default:
			head = append(head, w)
		}
	}
	if !money || len(head) == 0 {
		return nil
	}
	return head
}
