package knowledge

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// nameUnits are the units a column's name may end with, by the word
// ("AmountUSD", "discount_pct", "duration_mins"), as learn writes them.
var nameUnits = map[string]string{
	"usd": "USD", "eur": "EUR", "gbp": "GBP", "jpy": "JPY", "cad": "CAD", "aud": "AUD", "chf": "CHF", "inr": "INR", "cny": "CNY",
	"pct": "percent", "percent": "percent", "perc": "percent",
	"cents": "cents", "kg": "kg", "kgs": "kg", "lbs": "lb", "km": "km", "miles": "miles",
	"hrs": "hours", "hours": "hours", "mins": "minutes", "minutes": "minutes", "secs": "seconds", "seconds": "seconds", "days": "days",
}

// unitOfName reads a numeric column's unit from the last word of its
// name, and the rest of the name as another name of it: "AmountUSD" is
// an amount in USD, "discount_pct" a discount in percent (whose total
// the planner refuses). others are the names of the table's other
// columns; a rest that one of them already is, or that is only a word
// of aggregation ("total_usd"), gives no other name.
func unitOfName(c quarry.ColumnInfo, others []string) (unit, synonym string) {
	if !columnType(c).IsNumeric() {
		return "", ""
	}
	words := nameWords(c.Name)
	if len(words) < 2 {
		return "", ""
	}
	unit = nameUnits[words[len(words)-1]]
	if unit == "" {
		return "", ""
	}
	rest := strings.Join(words[:len(words)-1], " ")
	switch rest {
	case "total", "sum", "count", "avg", "average", "min", "max", "num", "number", "amount total":
		return unit, ""
	}
	for _, o := range others {
		if strings.Join(nameWords(o), " ") == rest {
			return unit, ""
		}
	}
	return unit, rest
}

// withNameUnit sets col's unit and another name from its name, where
// unitOfName reads them.
func withNameUnit(col *semantic.Column, c quarry.ColumnInfo, t *quarry.TableInfo) {
	var others []string
	for _, o := range t.Columns {
		if o.Name != c.Name {
			others = append(others, o.Name)
		}
	}
	unit, syn := unitOfName(c, others)
	col.Unit = unit
	if syn != "" {
		col.Synonyms = append(col.Synonyms, syn)
	}
}
