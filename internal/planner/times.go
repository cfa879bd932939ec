package planner

import (
	"slices"
	"strings"
)

// How often: "customers who ordered more than once", "who bought at
// least 3 times", "ordered twice in 2025". A verb that names one table's
// date ("ordered": orders.ordered_at) followed by a count of times is a
// count of that table's rows, as "customers who placed more than 1
// order" reads it (counts.go). "once", "twice" and "thrice" are counts
// of 1, 2 and 3 times; "N times" takes the number before it.

// timesWord is the number of times a word says, 0 for none.
func timesWord(w string) int {
	switch w {
	case "once":
		return 1
	case "twice":
		return 2
	case "thrice":
		return 3
	}
	return 0
}

// readTimes rewrites, after a verb of one table's date, "N times" and
// "once"/"twice"/"thrice" (after an optional comparison) into a number
// and the table's name, so that the count reads as a count of its rows.
// Elsewhere ("three times the revenue", "at once") nothing changes, and
// the words stay unknown as before.
func (p *Planner) readTimes(items []item) []item {
	var out []item
	verb := "" // the table of the last verb of a date, up to a comparison and a number
	verbAt := -1
	compared := false
	// count is the number and the table's name; "ordered twice", with no
	// comparison before it, is exactly twice.
	count := func(n item, via string) {
		// The verb is the counted rows' date, not a value it also
		// spells ("applied", a stage of applications).
		out[verbAt].countVerb = true
		out[verbAt].senses = only(out[verbAt].senses, sColumn)
		if !compared {
			out = append(out, item{kind: itKw, kw: "eq", text: "exactly"})
		}
		out = append(out, n, item{kind: itTerm, text: verb, senses: p.entitySenses(verb), via: via})
		verb, compared = "", false
	}
	for i := 0; i < len(items); i++ {
		it := items[i]
		switch {
		case it.kind == itTerm:
			verb, compared, verbAt = dateVerbEntity(it), false, len(out)
			if verb != "" && len(p.entitySenses(verb)) == 0 {
				verb = ""
			}
			out = append(out, it)
			continue
		case verb != "" && it.kind == itKw && (it.kw == "gt" || it.kw == "lt" || it.kw == "eq"):
			compared = true // "ordered more than once": the verb holds
			out = append(out, it)
			continue
		case verb != "" && it.kind == itStop && (it.text == "only" || it.text == "just"):
			out = append(out, it)
			continue
		}
		if verb != "" {
			if n := timesWord(it.text); it.kind == itUnknown && n > 0 {
				if i+1 < len(items) && items[i+1].kind == itKw && (items[i+1].text == "or more" || items[i+1].text == "or less") {
					// "bought twice or more": the comparison after it.
					compared = true
					out = append(out, item{kind: itKw, kw: items[i+1].kw, text: map[string]string{"or more": "at least", "or less": "at most"}[items[i+1].text]})
					count(item{kind: itNum, num: float64(n), text: it.text}, it.text+" "+items[i+1].text)
					i++
					continue
				}
				count(item{kind: itNum, num: float64(n), text: it.text}, it.text)
				continue
			}
			if it.kind == itNum && i+1 < len(items) && items[i+1].kind == itUnknown && (items[i+1].text == "times" || items[i+1].text == "time") {
				count(it, it.text+" "+items[i+1].text)
				i++
				continue
			}
			// "ordered 2 or more times": the comparison after the number.
			if it.kind == itNum && i+2 < len(items) && items[i+1].kind == itKw && (items[i+1].text == "or more" || items[i+1].text == "or less") &&
				items[i+2].kind == itUnknown && items[i+2].text == "times" {
				compared = true
				out = append(out, item{kind: itKw, kw: items[i+1].kw, text: map[string]string{"or more": "at least", "or less": "at most"}[items[i+1].text]})
				count(it, it.text+" "+items[i+1].text+" "+items[i+2].text)
				i += 2
				continue
			}
		}
		verb, compared = "", false
		out = append(out, it)
	}
	return out
}

// dateVerbEntity is the table whose date a verb names ("ordered": orders),
// "" where the item is not a verb of one table's dates.
func dateVerbEntity(it item) string {
	e, dated := "", false
	for _, s := range it.senses {
		switch {
		case e != "" && s.entity != e:
			return ""
		case s.kind == sColumn && s.temporal:
			dated = true
		case s.kind == sValue:
			// "applied": applications.applied_date, and the stage
			// 'applied' of the same table.
		default:
			return ""
		}
		e = s.entity
	}
	if !dated {
		return ""
	}
	return e
}

// entitySenses is the lexicon's reading of a table's name as the table.
func (p *Planner) entitySenses(entity string) []sense {
	e := p.entity(entity)
	if e == nil {
		return nil
	}
	for _, s := range p.lex.senses(strings.Join(words(e.Name), " ")) {
		if s.kind == sEntity && s.name == e.Name {
			return []sense{s}
		}
	}
	return []sense{{kind: sEntity, name: e.Name, entity: e.Name, strength: strName}}
}

// byWhom reads "by" between a past participle and a table with a clause
// after it as whose rows, not a grouping: "orders placed by customers
// who signed up in 2025" counts those customers' orders, as "orders from
// customers who …" does; so does a "how many" question ("how many orders
// by customers who signed up in 2025"). "orders by customer" still
// groups.
func byWhom(items []item) []item {
	count := false // "how many orders by customers who …": one number, whose
	for i := 1; i+2 < len(items); i++ {
		prev, by, who, clause := items[i-1], items[i], items[i+1], items[i+2]
		count = count || prev.kind == itKw && prev.kw == "count"
		if by.kind != itKw || by.kw != "by" || by.text != "by" || !strings.HasSuffix(prev.text, "ed") && !count {
			continue
		}
		if who.kind != itTerm || len(only(who.senses, sEntity)) == 0 {
			continue
		}
		if clause.kind == itKw && clause.kw == "with" && (clause.text == "who" || clause.text == "that" || clause.text == "which") || !count && valueOfAfter(items[i+2:], who) {
			items[i] = item{kind: itStop, text: by.text}
		}
	}
	return items
}

// valueOfAfter reports whether rest starts, past "in", "from" or "at",
// with a value of the table who names: "payments received by owners in
// Leeds" are the payments of the owners in Leeds, one figure, as the
// coverage check reads it (found from outside: grouped by owner, and
// refused).
func valueOfAfter(rest []item, who item) bool {
	j := 0
	for j < len(rest) && rest[j].kind == itStop && (rest[j].text == "in" || rest[j].text == "from" || rest[j].text == "at" || rest[j].text == "based") {
		j++
	}
	if j == 0 || j >= len(rest) || rest[j].kind != itTerm {
		return false
	}
	es := only(who.senses, sEntity)
	return slices.ContainsFunc(only(rest[j].senses, sValue), func(v sense) bool {
		return slices.ContainsFunc(es, func(e sense) bool { return strings.EqualFold(e.name, v.entity) })
	})
}

// valueRate reads "<value> rate" as the share of rows with the value:
// "the no-show rate for bookings in 2025" is the share of bookings whose
// status is no-show, as "the no-show share of bookings" reads it, where
// "rate" names no measure (found from outside: "rate" was read as
// trainers.hourly_rate, and the answer listed 411 hourly rates).
func valueRate(items []item) []item {
	isRate := func(r item) bool {
		return (r.kind == itTerm || r.kind == itUnknown) && (r.text == "rate" || r.text == "ratio") && len(only(r.senses, sMetric)) == 0
	}
	isValue := func(v item) bool { return v.kind == itTerm && len(only(v.senses, sValue)) > 0 }
	isTable := func(e item) bool {
		return e.kind == itTerm && len(e.senses) > 0 && len(only(e.senses, sEntity)) == len(e.senses)
	}
	for i := 0; i+2 < len(items); i++ {
		switch {
		case isValue(items[i]) && isTable(items[i+1]) && isRate(items[i+2]):
			// "cancelled bookings rate": the share of the value's rows.
			v, e := items[i], items[i+1]
			v.senses = only(v.senses, sValue)
			items[i], items[i+1], items[i+2] = item{kind: itKw, kw: "share", text: "share"}, v, e
		case isRate(items[i]) && items[i+1].text == "of" && isValue(items[i+2]):
			// "rate of cancelled bookings": as "share of" reads it.
			items[i] = item{kind: itKw, kw: "share", text: "share"}
			items[i+2].senses = only(items[i+2].senses, sValue)
		}
	}
	for i := 0; i+1 < len(items); i++ {
		v, r := items[i], items[i+1]
		if v.kind != itTerm || len(v.senses) == 0 || len(only(v.senses, sValue)) == 0 {
			continue
		}
		// "rate" may be no word of the knowledge at all (found from
		// outside: "no-show rate" refused as "rate" unknown).
		if r.kind != itTerm && r.kind != itUnknown || r.text != "rate" && r.text != "ratio" || len(only(r.senses, sMetric)) > 0 {
			continue
		}
		items[i+1] = item{kind: itKw, kw: "share", text: "share"}
		// "cancelled rate": the status value, not the date cancelled_on
		// the word also names.
		items[i].senses = only(v.senses, sValue)
		if e, ok := rateOf(items, i); ok {
			// "no-show rate by clinic": the share of the value's own rows
			// in each clinic, as "no-show appointments rate" reads (found
			// from outside: the share of clinics with a no-show
			// appointment, refused).
			v := items[i]
			items = slices.Insert(items, i+2, e)
			items[i], items[i+1] = item{kind: itKw, kw: "share", text: "share"}, v
			i += 2
		}
	}
	return items
}

// rateOf is the table whose rows a rate of the value at items[i] is of
// ("cancelled rate by clinic": the appointments, whose status it is),
// where the question names no table after the rate and the value is of
// one table; false otherwise.
func rateOf(items []item, i int) (item, bool) {
	vals := only(items[i].senses, sValue)
	if len(vals) == 0 {
		return item{}, false
	}
	entity := vals[0].entity
	for _, v := range vals {
		if !strings.EqualFold(v.entity, entity) {
			return item{}, false
		}
	}
	if i+2 < len(items) {
		next := items[i+2]
		if next.text == "of" || next.kind == itTerm && len(next.senses) > 0 && len(only(next.senses, sEntity)) == len(next.senses) {
			return item{}, false // "cancelled rate of appointments"
		}
	}
	return item{kind: itTerm, text: items[i].text, senses: []sense{{kind: sEntity, name: entity, entity: entity, strength: vals[0].strength}}}, true
}
