package semantic

import "slices"

// NameShortForms are the short forms people write in the names of tables
// and columns, and the words they stand for: those no one reads as
// another word (not "min", "desc", "no" or "vol"). The planner reads a
// name by its words written out too (hrs_worked as "hours worked"), and
// the checks hold a question that says them to the name.
func NameShortForms() map[string]string {
	return map[string]string{
		"amt": "amount", "qty": "quantity", "hrs": "hours", "hr": "hour", "mins": "minutes", "appt": "appointment",
		"appts": "appointments", "pmt": "payment", "pymt": "payment", "cust": "customer", "acct": "account", "dept": "department",
		"emp": "employee", "mgr": "manager", "addr": "address", "cat": "category", "dt": "date", "nm": "name", "num": "number",
		"txn": "transaction", "trx": "transaction", "inv": "invoice", "prod": "product", "qtr": "quarter", "yr": "year",
		"avg": "average", "pct": "percent", "cnt": "count", "bal": "balance", "svc": "service", "loc": "location",
		"org": "organization", "disc": "discount",
	}
}

// WrittenOut is the lower-case words ws of a name with their short forms
// written out (appt type → appointment type), and whether any was.
func WrittenOut(ws []string) ([]string, bool) {
	short := NameShortForms()
	var out []string
	for i, w := range ws {
		if long, ok := short[w]; ok {
			if out == nil {
				out = slices.Clone(ws[:i])
			}
			out = append(out, long)
		} else if out != nil {
			out = append(out, w)
		}
	}
	return out, out != nil
}
