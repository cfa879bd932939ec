package knowledge

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// LabelChoice is the label learn chose for an entity: the column that
// names its rows, with how well it is filled and how distinct its values
// are in the rows learn sampled.
type LabelChoice struct {
	Entity   string  `json:"entity"`
	Column   string  `json:"column"`
	Filled   float64 `json:"filled"`   // share of sampled rows with a value; -1 when not sampled
	Distinct float64 `json:"distinct"` // distinct values / filled rows; -1 when not sampled
	Sampled  int     `json:"sampled"`  // rows read (at most labelSample)
	Passed   string  `json:"passed,omitempty"`
}

// String renders the choice for learn's report.
func (c LabelChoice) String() string {
	s := c.Entity + "." + c.Column
	if c.Sampled > 0 {
		s += fmt.Sprintf(" (%.0f%% filled, %.0f%% distinct in %d rows)", 100*c.Filled, 100*c.Distinct, c.Sampled)
	}
	if c.Passed != "" {
		s += "; passed over " + c.Passed
	}
	return s
}

// labelSample is how many rows learn reads to measure label candidates.
const labelSample = 1000

// labelCand is a column that could name a table's rows.
type labelCand struct {
	name  string
	index int // position in the table
	score int // 3: name, title, label, <table>_name; 2: another *name / *title; 1: first or last name, code, user name
	pref  int // order among score-3 names
	// placeOnly is a city or a location of a table of places with no
	// name column: a label only where every row sampled has its own.
	placeOnly bool
}

// placeTable reports whether a table's rows are places a business works
// from, each known by where it is.
func placeTable(table string) bool {
	ws := nameWords(table)
	if len(ws) == 0 {
		return false
	}
	switch singularOf(ws[len(ws)-1]) {
	case "store", "branch", "location", "office", "site", "depot", "club", "warehouse", "clinic", "restaurant", "hotel", "shop",
		"outlet", "venue", "campus", "gym", "facility", "studio", "hub", "station", "center", "centre":
		return true
	}
	return false
}

// placeWord reports whether a column's one word says where a place is.
func placeWord(w string) bool {
	switch w {
	case "city", "town", "location", "area", "region", "district", "neighborhood", "neighbourhood", "suburb":
		return true
	}
	return false
}

// Words of column names that are never a label: free text, contact data,
// secrets, and classifications whose values repeat.
var notLabelWords = []string{"description", "desc", "comment", "comments", "note", "notes", "text", "details", "detail",
	"remark", "remarks", "summary", "content", "body", "message", "address", "street", "email", "mail", "phone", "fax",
	"mobile", "url", "uri", "link", "website", "path", "file", "password", "passwd", "secret", "token", "hash", "ssn",
	"salary", "status", "state", "type", "kind", "category", "gender", "sex", "flag", "color", "colour", "currency",
	"country", "city", "language", "unit", "level", "grade", "class", "format", "json", "xml", "html", "image", "photo"}

// labelCandidates lists the text columns of t that could be its label,
// best named first: not keys, not dates, not numbers, not restricted.
func labelCandidates(t *quarry.TableInfo, isKey, isRestricted func(string) bool, synonyms func(string) []string) []labelCand {
	singular := strings.ToLower(singularOf(t.Name))
	table := strings.ToLower(t.Name)
	exact := []string{"name", "title", "full_name", "fullname", "display_name", "displayname", "label",
		singular + "_name", singular + "name", table + "_name", singular + "_title", singular, table}
	var out []labelCand
	for i, c := range t.Columns {
		if !textual(columnType(c)) || dateLike(c) || isKey(c.Name) || isRestricted(c.Name) {
			continue
		}
		n := strings.ToLower(c.Name)
		words := nameWords(c.Name)
		if n == "id" || strings.HasSuffix(n, "_id") || len(words) > 1 && (words[len(words)-1] == "id" || words[len(words)-1] == "key") {
			continue
		}
		cand := labelCand{name: c.Name, index: i}
		// The column's own name, or a readable name a descriptions file
		// gave it (A2 is "district_name").
		names := append([]string{c.Name}, synonyms(c.Name)...)
		if long, ok := semantic.WrittenOut(words); ok {
			names = append(names, strings.Join(long, "_")) // full_nm: full_name
		}
		for _, name := range names {
			score, pref := nameScore(name, exact)
			if score > cand.score || score == cand.score && score == 3 && pref < cand.pref {
				cand.score, cand.pref = score, pref
			}
		}
		if cand.score <= 0 {
			// Only a column named like a name: questions read "the name
			// of the series" as the label, so an episode title or an
			// address line would answer for the series' name.
			continue
		}
		out = append(out, cand)
	}
	if len(out) == 0 && placeTable(t.Name) {
		// A store, a branch, a depot with no name column is known by
		// where it is ("Portland", not store 1: found from outside),
		// where that names one row each (chooseLabel: placeOnly).
		for i, c := range t.Columns {
			if !textual(columnType(c)) || isKey(c.Name) || isRestricted(c.Name) {
				continue
			}
			if ws := nameWords(c.Name); len(ws) == 1 && placeWord(ws[0]) {
				out = append(out, labelCand{name: c.Name, index: i, placeOnly: true})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].pref < out[j].pref
	})
	if len(out) > 8 {
		out = out[:8] // one bounded query measures them all
	}
	return out
}

// nameScore scores a column name as a label (labelCand.score), with its
// place among the exact label names.
func nameScore(name string, exact []string) (score, pref int) {
	n := strings.ToLower(strings.TrimSpace(name))
	words := nameWords(name)
	for k, e := range exact {
		if n == e || strings.Join(words, "_") == e {
			return 3, k
		}
	}
	return wordScore(words), len(exact)
}

// wordScore scores a column name that is not one of the exact label
// names: 2 for another name or title, 1 for a partial name, a code or a
// user name, 0 for other text, -1 for text that never names a row.
func wordScore(words []string) int {
	partial, named := false, false
	for _, w := range words {
		switch w {
		case "first", "last", "middle", "given", "family", "f", "l", "fname", "lname", "user", "username", "login", "nick", "nickname", "code",
			"plate", "registration", "vin", "callsign":
			// A vehicle is known by its plate (found from outside: "which
			// vehicle had the most maintenance jobs" named ids).
			partial = true
		case "name", "title", "label", "surname":
			named = true
		}
		if strings.HasSuffix(w, "name") && w != "name" && !named {
			partial = partial || strings.HasPrefix(w, "first") || strings.HasPrefix(w, "last") || strings.HasPrefix(w, "user") || strings.HasPrefix(w, "nick")
			named = true
		}
	}
	for _, w := range words {
		for _, x := range notLabelWords {
			if w == x && !named {
				return -1 // feature_type_name is a name; feature_type is not
			}
		}
		for _, x := range sensitiveWords {
			if strings.Contains(w, x) {
				return -1
			}
		}
	}
	switch {
	case named && !partial:
		return 2
	case partial:
		return 1
	}
	return 0
}

// labelStats is what a sample says about one candidate.
type labelStats struct {
	filled, distinct float64
	numeric, dates   float64 // shares of the filled values that read as numbers or dates
	times            float64 // share of the filled values that read as dates with a time of day
	iso              float64 // share of the filled values written YYYY-MM-DD
	rows             int
	// sameDay is, by another date's name, the share of the rows holding
	// both where this date comes less than a day after it.
	sameDay map[string]float64
}

// sampleLabels reads up to labelSample rows of the candidates' columns in
// one bounded query and measures each.
func sampleLabels(ctx context.Context, src Source, t *quarry.TableInfo, cands []labelCand, opts LearnOptions) (map[string]labelStats, error) {
	d := src.Dialect()
	cols := make([]string, len(cands))
	for i, c := range cands {
		cols[i] = quoteIdent(d, c.name)
	}
	sql := fmt.Sprintf("SELECT %s FROM %s LIMIT %d", strings.Join(cols, ", "), quoteTable(d, t), labelSample)
	rows, err := src.Query(ctx, sql, connector.QueryOptions{MaxRows: labelSample, Timeout: opts.QueryTimeout})
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	n := 0
	filled := make([]int, len(cands))
	numeric := make([]int, len(cands))
	dates := make([]int, len(cands))
	times := make([]int, len(cands))
	iso := make([]int, len(cands))
	seen := make([]map[string]bool, len(cands))
	for i := range seen {
		seen[i] = map[string]bool{}
	}
	spans := newSpanCounter(len(cands))
	at, isAt := make([]time.Time, len(cands)), make([]bool, len(cands))
	for rows.Next() {
		n++
		clear(isAt)
		for i, v := range rows.Values() {
			if i >= len(cands) || v == nil {
				continue
			}
			at[i], isAt[i] = instant(v)
			s, ok := valueText(v)
			if !ok || strings.TrimSpace(s) == "" {
				continue
			}
			filled[i]++
			seen[i][strings.TrimSpace(s)] = true
			switch v.(type) {
			case int64, float64:
				numeric[i]++
				continue
			}
			if looksLikeNumber(s) {
				numeric[i]++
			} else if looksLikeDate(s) {
				dates[i]++
				if semantic.ISODay(strings.TrimSpace(s)) {
					iso[i]++
				}
				if strings.Contains(s, ":") {
					times[i]++
				}
			}
		}
		spans.row(at, isAt)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil // an empty table or view: the names decide
	}
	out := map[string]labelStats{}
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.name
	}
	for i, c := range cands {
		st := labelStats{rows: n, sameDay: spans.shares(i, names)}
		if n > 0 {
			st.filled = float64(filled[i]) / float64(n)
		}
		if filled[i] > 0 {
			st.distinct = float64(len(seen[i])) / float64(filled[i])
			st.numeric = float64(numeric[i]) / float64(filled[i])
			st.dates = float64(dates[i]) / float64(filled[i])
			st.times = float64(times[i]) / float64(filled[i])
			st.iso = float64(iso[i]) / float64(filled[i])
		}
		out[c.name] = st
	}
	return out, nil
}

// looksLikeNumber reports whether s reads as a number, also with a
// currency sign, a percent sign or thousands separators: 22.7%, $1,200.
func looksLikeNumber(s string) bool {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "$€£¥+-")
	s = strings.TrimRight(s, "%")
	s = strings.ReplaceAll(s, ",", "")
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}

// looksLikeDate reports whether s starts like an ISO date (2024-05-01) or
// a day-first or month-first one (01/05/2024).
func looksLikeDate(s string) bool {
	s = strings.TrimSpace(s)
	digit := func(i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }
	if len(s) >= 10 && digit(0) && digit(1) && digit(2) && digit(3) && (s[4] == '-' || s[4] == '/') && digit(5) && digit(6) && s[7] == s[4] && digit(8) && digit(9) {
		return true
	}
	return len(s) >= 8 && digit(0) && digit(1) && (s[2] == '/' || s[2] == '.' || s[2] == '-') && digit(3) && digit(4) && s[5] == s[2] && digit(6) && digit(7)
}

// chooseLabel picks the label among the candidates from their samples
// (nil when the table is empty or could not be read): the best named
// column that is mostly filled (half the rows or more), mostly distinct
// (half its values or more; a quarter for a whole name, such as
// full_name) and holds neither numbers nor dates. Without
// a sample (an empty table, a query that failed), the name decides.
func chooseLabel(e *semantic.Entity, cands []labelCand, stats map[string]labelStats) (LabelChoice, bool) {
	type pass struct {
		index int // in cands: the ones before the choice were better named
		why   string
	}
	var passed []pass
	best, bestQ := -1, 0.0
	for i, c := range cands {
		st, ok := stats[c.name]
		if c.placeOnly && (!ok || st.filled < 0.95 || st.distinct < 1 || st.rows < 2) {
			continue // by name alone, or a city two rows share: no name of a row
		}
		if !ok {
			if best < 0 {
				best = i
			}
			continue
		}
		why := ""
		const minFilled = 0.5
		minDistinct := 0.5
		if slices.Contains(semantic.NameWords(c.name), "name") && !semantic.NamePart(c.name) {
			// A whole name (full_name, name): people share names, and
			// a customer named twice is still named (found from
			// outside: full_name 49.9% distinct, and customers listed
			// by their ids). The same_name check says when two rows of
			// an answer share one.
			minDistinct = 0.25
		}
		switch {
		case st.filled < minFilled:
			why = fmt.Sprintf("%s (%.0f%% empty)", c.name, 100*(1-st.filled))
		case st.distinct < minDistinct:
			why = fmt.Sprintf("%s (%.0f%% distinct)", c.name, 100*st.distinct)
		case semantic.NamePart(c.name) && st.distinct < 1:
			// A first or a last name alone names a row only where no two
			// share it: four agents shown as "Sarah" are no answer (found
			// from outside, on two databases).
			why = fmt.Sprintf("%s (a part of a name, %.0f%% distinct)", c.name, 100*st.distinct)
		case st.numeric >= 0.8:
			why = fmt.Sprintf("%s (numbers)", c.name)
		case st.dates >= 0.8:
			why = fmt.Sprintf("%s (dates)", c.name)
		}
		if why != "" {
			passed = append(passed, pass{i, why})
			continue
		}
		q := st.filled * st.distinct
		if best < 0 || c.score > cands[best].score || c.score == cands[best].score && q > bestQ+0.1 {
			best, bestQ = i, q
		}
	}
	if best < 0 {
		return LabelChoice{}, false
	}
	c := cands[best]
	var over []string
	for _, p := range passed {
		if p.index < best {
			over = append(over, p.why)
		}
	}
	ch := LabelChoice{Entity: e.Name, Column: c.name, Filled: -1, Distinct: -1, Passed: strings.Join(over, ", ")}
	if st, ok := stats[c.name]; ok {
		ch.Filled, ch.Distinct, ch.Sampled = st.filled, st.distinct, st.rows
	}
	return ch, true
}
