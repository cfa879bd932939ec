package semantic

import "slices"

// nameShortForms are the short forms people write in the names of tables
// and columns, and the words they stand for: those no one reads as
// another word (not "min", "desc", "no" or "vol"). The planner reads a
// name by its words written out too (hrs_worked as "hours worked"), and
// the checks hold a question that says them to the name.
var nameShortForms = [...][2]string{
	{"amt", "amount"}, {"qty", "quantity"}, {"hrs", "hours"}, {"hr", "hour"}, {"mins", "minutes"}, {"appt", "appointment"},
	{"appts", "appointments"}, {"pmt", "payment"}, {"pymt", "payment"}, {"cust", "customer"}, {"acct", "account"}, {"dept", "department"},
	{"emp", "employee"}, {"mgr", "manager"}, {"addr", "address"}, {"cat", "category"}, {"dt", "date"}, {"nm", "name"}, {"num", "number"},
	{"txn", "transaction"}, {"trx", "transaction"}, {"inv", "invoice"}, {"prod", "product"}, {"qtr", "quarter"}, {"yr", "year"},
	{"avg", "average"}, {"pct", "percent"}, {"cnt", "count"}, {"bal", "balance"}, {"svc", "service"}, {"loc", "location"},
	{"org", "organization"}, {"disc", "discount"}, {"dest", "destination"}, {"descr", "description"},
	{"bkg", "booking"}, {"enr", "enrollment"}, {"reg", "registration"}, {"prio", "priority"},
}

// ShortForm is the word a short form written in a name stands for
// ("amt": "amount"), "" for any other word. It allocates nothing: the
// lexicon asks it of every word of every name.
func ShortForm(w string) string {
	for _, p := range nameShortForms {
		if p[0] == w {
			return p[1]
		}
	}
	return ""
}

// ShortFormsOf calls f with each short form whose word is long, or its
// plural or singular as forms gives them ("hours" meets hrs_worked).
func ShortFormsOf(long string, forms func(string) []string, f func(short string)) {
	for _, p := range nameShortForms {
		if slices.Contains(forms(p[1]), long) {
			f(p[0])
		}
	}
}

// WrittenOut is the lower-case words ws of a name with their short forms
// written out (appt type → appointment type), and whether any was. A last
// "no", "nr" or "nbr" after another word is "number" (invoice_no,
// flight_nr), which it is nowhere else.
func WrittenOut(ws []string) ([]string, bool) {
	var out []string
	for i, w := range ws {
		long := ShortForm(w)
		if long == "" && i > 0 && i == len(ws)-1 && (w == "no" || w == "nr" || w == "nbr") {
			long = "number"
		}
		if long != "" {
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
