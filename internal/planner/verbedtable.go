package planner

import "strings"

// verbedTable reports whether a term is a table's name said as the
// verb of what its rows record, right after the rows that did it:
// "customers booked last month", "companies who booked in 2025"
// ("booked" read as "booking"). Those are the rows that have such a row,
// as "customers who had a booking" reads them (found from outside:
// "how many customers booked last month" refused as not related).
func verbedTable(items []item, it *item) bool {
	if it.via == "" || !strings.HasSuffix(it.text, "ed") || strings.HasSuffix(it.via, "ed") || len(only(it.senses, sEntity)) != 1 {
		return false
	}
	before := itemsBefore(items, it)
	for j := len(before) - 1; j >= 0; j-- {
		switch before[j].kind {
		case itStop:
			switch before[j].text {
			case "who", "that", "which", "have", "has", "had", "ever", "all":
				continue
			}
			return false
		case itTerm:
			return len(only(before[j].senses, sEntity)) > 0
		}
		return false
	}
	return false
}

// itemsBefore is the items before it, nil where it is none of them.
func itemsBefore(items []item, it *item) []item {
	for i := range items {
		if &items[i] == it {
			return items[:i]
		}
	}
	return nil
}
