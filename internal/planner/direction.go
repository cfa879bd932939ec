package planner

import (
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner/dates"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Directions. A table with two links to one other table, one to where
// its rows go and one to where they come from (flights' DestAirport and
// SourceAirport, shipments' origin and destination warehouse), reaches
// that table in two ways, and "flights to Aberdeen" or "transfers from
// Chicago" would be asked back. The question's word of direction says
// which: "to", "arriving", "inbound" the link whose name says where the
// rows go (dest, destination, to, arrival, target), "from", "departing",
// "leaving", "outbound" the one whose name says where they come from
// (source, origin, from, departure). The words are closed classes of
// English; the links are the schema's own, read from their names.

const (
	dirNone = iota
	dirTo
	dirFrom
	// dirVia: "via" or "through" before a value, the way between the two
	// ends, never either end (saidDirection).
	dirVia
)

// linkDirection is the direction a link's column names (its words), or
// dirNone when it names none or both.
func linkDirection(column string) int {
	to, from := false, false
	for _, w := range semantic.NameWords(column) {
		switch w {
		case "dest", "destination", "to", "arrival", "arrive", "arriving", "target", "inbound":
			to = true
		case "source", "src", "origin", "from", "departure", "depart", "departing", "outbound":
			from = true
		}
	}
	switch {
	case to && !from:
		return dirTo
	case from && !to:
		return dirFrom
	}
	return dirNone
}

// wordDirection is the direction a word of a question says, or dirNone.
func wordDirection(w string) int {
	switch w {
	case "to", "into", "arriving", "arrive", "arrives", "arrived", "arrival", "arrivals", "inbound", "landing", "lands", "landed", "destined":
		return dirTo
	case "from", "departing", "depart", "departs", "departed", "departure", "departures", "leaving", "leaves", "outbound", "originating", "originate", "originates", "originated":
		return dirFrom
	}
	return dirNone
}

// directed replans a question that was refused or asked back, where it
// says a direction and a table has a pair of links of opposite
// directions to another: the word of direction is read as the link of
// its direction ("flights arriving in Aberdeen" as "flights with dest
// airport in Aberdeen"). It returns the plan of the one reading that is
// answered, or nil: no direction said, both said ("from Chicago to
// Denver"), or no reading or more than one answered.
func (p *Planner) directed(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered && pl.Kind != KindClarify || p.undirected {
		return nil
	}
	toks := tokenize(question)
	rngs := dates.FindAll(question, asOf)
	dir, at, end := dirNone, -1, -1
	for i := 0; i < len(toks); i++ {
		d := wordDirection(toks[i].s)
		if d == dirNone || inDate(rngs, toks[i]) || !directionWord(toks, i) {
			continue
		}
		if dir != dirNone {
			return nil // two words of direction: which link is which?
		}
		dir, at, end = d, i, i
		// "departing from", "arriving at": the verb and its
		// preposition are one direction.
		if i+1 < len(toks) && (wordDirection(toks[i+1].s) == d || toks[i+1].s == "at" || toks[i+1].s == "in") {
			end, i = i+1, i+1
		}
	}
	if dir == dirNone || at == 0 {
		return nil
	}
	// The roles of that direction whose other link to the same table
	// goes the other way.
	var roles []*semantic.Entity
	for i := range p.m.Entities {
		e := &p.m.Entities[i]
		if e.Role == nil || linkDirection(e.Role.FromColumn) != dir {
			continue
		}
		opposite := false
		for j := range p.m.Entities {
			o := p.m.Entities[j].Role
			opposite = opposite || o != nil && strings.EqualFold(o.From, e.Role.From) && strings.EqualFold(o.Of, e.Role.Of) && linkDirection(o.FromColumn) == 3-dir
		}
		if opposite {
			roles = append(roles, e)
		}
	}
	var found *Plan
	once := *p
	once.undirected = true
	for _, e := range roles {
		t := toks[at]
		role := "with " + strings.ToLower(display(e.Name))
		// The verb kept where it is one ("arriving in Denver in June":
		// also the date it names, the arrival's), else the link alone.
		var reads []string
		if t.s != "to" && t.s != "into" && t.s != "from" {
			reads = append(reads, question[:t.end]+" "+role+question[toks[end].end:])
		}
		reads = append(reads, question[:t.start]+role+question[toks[end].end:])
		var got *Plan
		read := ""
		for i, r := range reads {
			g := once.planWhole(r, asOf)
			if g.final {
				return g // "arrived" read from a planned date
			}
			if (g.Kind != KindMetric && g.Kind != KindRows) || g.Query == nil || !readsRole(g, e.Name) {
				continue
			}
			if i > 0 && dir == dirTo && g.Query.TimeRange != nil {
				// "shipments arriving in Denver in May": the period is
				// the arrival's, and no date of theirs was read as one
				// (found from outside: counted by the day shipped).
				return &Plan{Kind: KindUnanswered, Understood: g.Understood, Reason: fmt.Sprintf(
					"“%s” dates the rows by when they arrive, and quarry could not tell which date of %s says that; ask by the date column (such as “… delivered in May”)", t.s, display(e.Role.From))}
			}
			got, read = g, r
			break
		}
		if got == nil {
			continue
		}
		if found != nil {
			return nil // two tables' links of that direction: which?
		}
		got.Understood = append(got.Understood, fmt.Sprintf("%q read as the link %s", t.s, e.Role.Via()))
		if got.Read == "" {
			got.Read = read
		}
		found = got
	}
	return found
}

// directionWord reports whether the word of direction at i says where
// rows go or come from: not "to" of "compared to" or "up to", nor a bound
// of numbers ("from 100 to 200").
func directionWord(toks []token, i int) bool {
	switch w := toks[i].s; {
	case w != "to" && w != "from" && w != "into":
	case i+1 < len(toks) && isNumber(toks[i+1].s):
		return false
	case i > 0 && (toks[i-1].s == "compared" || toks[i-1].s == "relative" || toks[i-1].s == "up" || toks[i-1].s == "due" || toks[i-1].s == "according"):
		return false
	}
	return true
}

// readsRole reports whether the plan's query reads role entity name: a
// field of it, or the way through it.
func readsRole(pl *Plan, name string) bool {
	q := pl.Query
	var fields []string
	for _, f := range q.Filters {
		fields = append(fields, f.Field)
		for _, w := range f.Where {
			fields = append(fields, w.Field)
		}
	}
	for _, d := range q.Dimensions {
		fields = append(fields, d.Name)
	}
	fields = append(fields, q.Via...)
	for _, f := range fields {
		if ent, _, _ := strings.Cut(f, "."); strings.EqualFold(ent, name) {
			return true
		}
	}
	return false
}

// saidDirection is the direction said right before items[i]: "to",
// "into" or "from" among the stopwords before it, or a verb of direction
// before "at" or "in" ("arriving at", "departing from"); dirNone when
// there is none, or the word is "compared to", "up to" or the like.
func saidDirection(items []item, i int) int {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		w := items[j].text
		if items[j].kind == itStop && (w == "at" || w == "in") {
			continue
		}
		if w == "via" || w == "through" {
			return dirVia
		}
		d := wordDirection(lastWord(w))
		if d == dirNone || items[j].kind == itStop && w != "to" && w != "into" && w != "from" {
			return dirNone
		}
		if j > 0 && (w == "to" || w == "from") {
			switch lastWord(items[j-1].text) {
			case "compared", "relative", "up", "due", "according", "close", "next", "similar", "equal":
				return dirNone
			}
		}
		return d
	}
	return dirNone
}

// directedColumns keeps, of the columns a value term may be of, those of
// the direction said before it ("shipments to JFK": destination_depot,
// not origin_depot, both holding JFK), where some but not all of them
// name that direction; else it returns keep as it is.
func directedColumns(t *term, keep []sense) []sense {
	if t.dir == dirNone {
		return keep
	}
	var out []sense
	other := false
	for _, s := range keep {
		d := linkDirection(s.column)
		switch {
		case t.dir == dirVia && d == dirNone, t.dir != dirVia && d == t.dir:
			out = append(out, s)
		case t.dir == dirVia || d == 3-t.dir:
			// "to JFK via LHR": the hub, not an end (found from outside:
			// read as the origin, at full confidence).
			other = true
		}
	}
	if len(out) == 0 || !other {
		return keep
	}
	return out
}

// saidPlace is the kind of place the verb right before items[i] says
// ("lives in", "based at"): "home" or "work", or "".
func saidPlace(items []item, i int) string {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		w := lastWord(items[j].text)
		if items[j].kind == itStop && (w == "in" || w == "at") {
			continue
		}
		place := placeVerb(w)
		// "live and work in Denver": both, which one column does not
		// say (found from outside: read as the work city alone).
		if place != "" && j >= 2 && (items[j-1].text == "and" || items[j-1].kw == "and") && placeVerb(lastWord(items[j-2].text)) != "" {
			return ""
		}
		return place
	}
	return ""
}

// placeVerb is the kind of place a verb says: "home" of live, reside;
// "work" of work, based; else "".
func placeVerb(w string) string {
	switch w {
	case "live", "lives", "living", "lived", "reside", "resides", "residing", "resided", "resident", "residents":
		return "home"
	case "work", "works", "working", "worked", "employed", "based", "stationed":
		return "work"
	}
	return ""
}

// placeOf is the kind of place a column's name says ("home_city": home),
// or "".
func placeOf(column string) string {
	for _, w := range semantic.NameWords(column) {
		switch w {
		case "home", "residence", "residential", "resident", "living":
			return "home"
		case "work", "office", "job", "workplace", "employer", "business":
			return "work"
		}
	}
	return ""
}

// placedColumns keeps, of the columns a value term may be of, those of
// the kind of place its verb says ("employees who live in Denver":
// home_city, not work_city, both holding Denver; found from outside:
// read as the work city, "live" dropped), where some but not all of them
// say it; else it returns keep as it is.
func placedColumns(t *term, keep []sense) []sense {
	if t.place == "" {
		return keep
	}
	var out []sense
	for _, s := range keep {
		if placeOf(s.column) == t.place {
			out = append(out, s)
		}
	}
	if len(out) == 0 || len(out) == len(keep) {
		return keep
	}
	return out
}
