package retrieval

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Options bound one search. Zero fields take the defaults.
type Options struct {
	// Budget is the most tokens (estimated as characters / 4) of schema
	// shown; default DefaultBudget.
	Budget int
	// MaxTables bounds the tables shown, whatever the budget; 0 for none.
	MaxTables int
	// Values are stored values the question names (the value index's
	// finds): evidence for the tables and columns that hold them.
	Values []Value
}

// DefaultBudget is the tokens of schema a search shows by default.
const DefaultBudget = 1500

// Value is a stored value a question names and where it is stored.
type Value struct {
	Table, Column, Value string
}

// Result is what a search shows, in order, and why.
type Result struct {
	Shown []Shown `json:"shown"`
	// Ranked is every table the search found, in order, before the
	// budget (at most maxRanked).
	Ranked []string `json:"-"`
	// Tokens is the estimated size of Text; FullTokens that of the whole
	// schema written the same way.
	Tokens     int    `json:"tokens"`
	FullTokens int    `json:"full_tokens"`
	Omitted    int    `json:"omitted,omitempty"` // tables found but left out by the budget
	Text       string `json:"-"`
}

// Shown is one table shown and why.
type Shown struct {
	Table   string   `json:"table"`
	Columns []string `json:"columns"`           // the columns shown
	Matched []string `json:"matched,omitempty"` // columns the question names
	Score   float64  `json:"score"`
	// Why is how the table was found: "words" (Words are the question's
	// words it matched), "join" (it joins two tables found by their words,
	// named in Via) or "neighbour" (a foreign key joins it to Via).
	Why   string   `json:"why"`
	Words []string `json:"words,omitempty"`
	Via   []string `json:"via,omitempty"`
	// Tokens is the estimated size of the table's lines in Text.
	Tokens int `json:"tokens"`
}

const (
	maxRanked   = 100
	maxHits     = 4 // best hits joined to one another
	maxPathEdge = 3 // join paths of at most this many joins
	maxBridges  = 4
	maxNeigh    = 4
)

type hit struct {
	i     int
	score float64
	words []string
	why   string
	via   []string
}

// Search ranks the tables for question and shows the best within the
// budget.
func (ix *Index) Search(question string, opts Options) Result {
	budget := opts.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	hits := ix.rank(question, opts.Values)
	order := ix.expand(hits)
	res := Result{FullTokens: ix.full}
	for k, h := range order {
		if k < maxRanked {
			res.Ranked = append(res.Ranked, ix.tables[h.i].Name)
		}
	}
	qset := map[string]bool{}
	for _, t := range queryTerms(question) {
		qset[t.term] = true
	}
	valueCols := map[int][]string{}
	for _, v := range opts.Values {
		if i := ix.lookup(v.Table); i >= 0 {
			valueCols[i] = append(valueCols[i], v.Column)
		}
	}
	var b strings.Builder
	shown := map[int]bool{}
	for _, h := range order {
		if opts.MaxTables > 0 && len(res.Shown) == opts.MaxTables {
			res.Omitted++
			continue
		}
		matched := ix.matchedColumns(h.i, qset, valueCols[h.i])
		text := ix.render(h.i, matched)
		for _, e := range ix.adj[h.i] {
			if shown[e.to] {
				text += ix.joinLine(e)
			}
		}
		if n := tokens(text); res.Tokens+n > budget {
			res.Omitted++
			continue
		}
		shown[h.i] = true
		b.WriteString(text)
		res.Tokens = tokens(b.String())
		res.Shown = append(res.Shown, Shown{Table: ix.tables[h.i].Name, Columns: ix.shownColumns(h.i, matched), Matched: matched,
			Score: round(h.score), Why: h.why, Words: h.words, Via: h.via, Tokens: tokens(text)})
	}
	res.Text = b.String()
	return res
}

// qterm is one term of a question and how much it counts.
type qterm struct {
	term, word string
	weight     float64
}

// queryTerms is the question's terms: its words' stems and, at less
// weight, each two words written together ("order items" → orderitem).
func queryTerms(question string) []qterm {
	ws := splitWords(question)
	var out []qterm
	seen := map[string]bool{}
	addT := func(t, w string, wt float64) {
		if !seen[t] {
			seen[t] = true
			out = append(out, qterm{term: t, word: w, weight: wt})
		}
	}
	for k, w := range ws {
		if stopWords[w] {
			continue
		}
		addT(stem(w), w, 1)
		if k+1 < len(ws) && !stopWords[ws[k+1]] {
			addT(stem(w+ws[k+1]), w+" "+ws[k+1], 0.7)
		}
	}
	return out
}

// rank scores every table with a term of question by BM25F, weighs the
// share of its name the question says, demotes copies (archives,
// backups, a year's table) the question does not ask for, and returns the
// best maxCandidates, best first.
func (ix *Index) rank(question string, values []Value) []hit {
	qs := queryTerms(question)
	if len(qs) > 64 {
		qs = qs[:64] // the words matched are a bit set
	}
	qset := map[string]bool{}
	for _, q := range qs {
		qset[q.term] = true
	}
	n := len(ix.tables)
	acc := make([]float64, n)
	matched := make([]uint64, n)
	var touched []int
	for k, q := range qs {
		ps := ix.postings[q.term]
		if len(ps) == 0 {
			continue
		}
		w := idf(n, len(ps)) * q.weight
		for _, p := range ps {
			e := &ix.tables[p.table]
			tf := 0.0
			for f := range nFields {
				if p.tf[f] == 0 {
					continue
				}
				tf += fieldWeight[f] * float64(p.tf[f]) / (1 - bm + bm*float64(e.lens[f])/ix.avgLen[f])
			}
			if matched[p.table] == 0 {
				touched = append(touched, p.table)
			}
			acc[p.table] += w * tf * (k1 + 1) / (k1 + tf)
			matched[p.table] |= 1 << k
		}
	}
	valueWords := map[int][]string{}
	for _, v := range values {
		i := ix.lookup(v.Table)
		if i < 0 {
			continue
		}
		if matched[i] == 0 && acc[i] == 0 {
			touched = append(touched, i)
		}
		acc[i] += 2
		valueWords[i] = append(valueWords[i], v.Value)
	}
	for _, i := range touched {
		e := &ix.tables[i]
		if len(e.nameTerms) > 0 {
			c := 0
			for _, t := range e.nameTerms {
				if qset[t] {
					c++
				}
			}
			acc[i] *= 1 + 0.6*float64(c)/float64(len(e.nameTerms))
		}
		for _, w := range e.noise {
			if qset[w] {
				acc[i] *= 1.3 // the copy the question asks for
			} else {
				acc[i] *= 0.7
			}
		}
	}
	byScore := func(a, b int) int {
		if c := cmp.Compare(acc[b], acc[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	slices.SortFunc(touched, byScore)
	// A table a foreign key joins to one of the best hits, and that the
	// question's words also name, is likely the other side of the join
	// the question asks for.
	if len(touched) > 0 {
		top := acc[touched[0]]
		lim := min(len(touched), maxCandidates)
		bonus := map[int]float64{}
		for _, h := range touched[:min(3, lim)] {
			for _, e := range ix.adj[h] {
				if acc[e.to] > 0 && e.to != h {
					bonus[e.to] = max(bonus[e.to], 0.5*acc[h]*min(1, acc[h]/top))
				}
			}
		}
		if len(bonus) > 0 {
			for i, b := range bonus {
				acc[i] += b
			}
			slices.SortFunc(touched, byScore)
		}
	}
	touched = touched[:min(len(touched), maxCandidates)]
	// The same table in another schema (a business unit's copy, another
	// database's) below a better one adds little: show other tables first.
	seen := map[string]bool{}
	demoted := false
	for _, i := range touched {
		e := &ix.tables[i]
		if e.Scope == "" {
			continue
		}
		if seen[e.base] {
			acc[i] *= 0.6
			demoted = true
		}
		seen[e.base] = true
	}
	if demoted {
		slices.SortFunc(touched, byScore)
	}
	out := make([]hit, len(touched))
	for k, i := range touched {
		h := hit{i: i, score: acc[i], why: "words"}
		for j, q := range qs {
			if matched[i]&(1<<j) != 0 {
				h.words = append(h.words, q.word)
			}
		}
		h.words = append(h.words, valueWords[i]...)
		out[k] = h
	}
	return out
}

// maxCandidates bounds the tables a search ranks in full.
const maxCandidates = 200

// expand orders the hits for showing: the strong hits, each followed by
// the tables that join it to an earlier strong hit (bounded join paths);
// then the tables a foreign key joins to the two best; then the rest.
func (ix *Index) expand(hits []hit) []hit {
	if len(hits) == 0 {
		return nil
	}
	top := hits[0].score
	strong := 0
	for strong < len(hits) && strong < 2*maxHits && hits[strong].score >= 0.25*top {
		strong++
	}
	strong = max(strong, min(len(hits), 3)) // the best three are joined whatever their scores
	in := map[int]bool{}
	score := map[int]float64{}
	for _, h := range hits {
		score[h.i] = h.score
	}
	var out []hit
	push := func(h hit) {
		if !in[h.i] {
			in[h.i] = true
			out = append(out, h)
		}
	}
	bridges := 0
	for k := 0; k < strong; k++ {
		push(hits[k])
		if k >= maxHits {
			continue
		}
		for j := 0; j < k && bridges < maxBridges; j++ {
			path := ix.path(hits[j].i, hits[k].i)
			for _, m := range path {
				if !in[m] && bridges < maxBridges {
					bridges++
					push(hit{i: m, score: score[m], why: "join", via: []string{ix.tables[hits[j].i].Name, ix.tables[hits[k].i].Name}})
				}
			}
		}
	}
	var neigh []hit
	for k := 0; k < min(2, strong); k++ {
		for _, e := range ix.adj[hits[k].i] {
			if !in[e.to] {
				neigh = append(neigh, hit{i: e.to, score: score[e.to], why: "neighbour", via: []string{ix.tables[hits[k].i].Name}})
			}
		}
	}
	slices.SortStableFunc(neigh, func(a, b hit) int { return cmp.Compare(b.score, a.score) })
	for k := 0; k < len(neigh) && k < maxNeigh; k++ {
		push(neigh[k])
	}
	for _, h := range hits[strong:] {
		push(h)
	}
	return out
}

// path is the tables strictly between a and b on a shortest join path of
// at most maxPathEdge joins, or nil (also when they join directly).
func (ix *Index) path(a, b int) []int {
	prev := map[int]int{a: -1}
	frontier := []int{a}
	for depth := 0; depth < maxPathEdge && len(frontier) > 0; depth++ {
		var next []int
		for _, x := range frontier {
			for _, e := range ix.adj[x] {
				if _, seen := prev[e.to]; seen {
					continue
				}
				prev[e.to] = x
				if e.to == b {
					var mid []int
					for y := prev[b]; y != a; y = prev[y] {
						mid = append(mid, y)
					}
					slices.Reverse(mid)
					return mid
				}
				next = append(next, e.to)
			}
		}
		frontier = next
	}
	return nil
}

// matchedColumns is the columns of table i the question names (or holds
// one of its values), in the table's order.
func (ix *Index) matchedColumns(i int, qset map[string]bool, valueCols []string) []string {
	e := &ix.tables[i]
	var out []string
	for k, c := range e.Columns {
		hitCol := slices.ContainsFunc(valueCols, func(v string) bool { return strings.EqualFold(v, c.Name) })
		for _, t := range e.colTerms[k] {
			if qset[t] {
				hitCol = true
				break
			}
		}
		if hitCol {
			out = append(out, c.Name)
		}
	}
	return out
}

// maxColumns bounds the columns shown of one table: the columns the
// question names and the join keys first, then the table's order.
const maxColumns = 30

func (ix *Index) shownColumns(i int, matched []string) []string {
	e := &ix.tables[i]
	if len(e.Columns) <= maxColumns {
		out := make([]string, len(e.Columns))
		for k, c := range e.Columns {
			out[k] = c.Name
		}
		return out
	}
	keep := map[string]bool{}
	for _, m := range matched {
		keep[strings.ToLower(m)] = true
	}
	for _, k := range e.Keys {
		for _, c := range k.Columns {
			keep[strings.ToLower(c)] = true
		}
	}
	room := maxColumns
	for _, c := range e.Columns {
		if keep[strings.ToLower(c.Name)] {
			room--
		}
	}
	var out []string
	for _, c := range e.Columns {
		switch {
		case keep[strings.ToLower(c.Name)]:
			out = append(out, c.Name)
		case room > 0:
			out = append(out, c.Name)
			room--
		}
	}
	return out
}

// render writes one table as shown: its name, columns and description.
func (ix *Index) render(i int, matched []string) string {
	e := &ix.tables[i]
	cols := ix.shownColumns(i, matched)
	var b strings.Builder
	fmt.Fprintf(&b, "- %s: %s", e.Name, strings.Join(cols, ", "))
	if n := len(e.Columns) - len(cols); n > 0 {
		fmt.Fprintf(&b, " (and %d more; describe it)", n)
	}
	if d := oneLine(e.Desc, 120); d != "" {
		b.WriteString(" — " + d)
	}
	b.WriteString("\n")
	return b.String()
}

func (ix *Index) joinLine(e edge) string {
	return fmt.Sprintf("  join: %s.%s = %s.%s\n", ix.tables[e.fromT].Name, e.from, ix.tables[e.toT].Name, e.toCol)
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// tokens estimates the tokens of s: a character count over four.
func tokens(s string) int { return (len(s) + 3) / 4 }

// Tokens estimates the tokens of s the way a budget counts them.
func Tokens(s string) int { return tokens(s) }

func round(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

// Listing shows the tables in the order they were given, within the
// budget, as Search shows them: for a schema small enough to show whole,
// or when there is no question to rank by.
func (ix *Index) Listing(budget int) Result {
	if budget <= 0 {
		budget = DefaultBudget
	}
	res := Result{FullTokens: ix.full}
	var b strings.Builder
	shown := map[int]bool{}
	for i := range ix.tables {
		text := ix.render(i, nil)
		for _, e := range ix.adj[i] {
			if shown[e.to] {
				text += ix.joinLine(e)
			}
		}
		if n := tokens(text); res.Tokens+n > budget {
			res.Omitted = len(ix.tables) - len(res.Shown)
			break
		}
		shown[i] = true
		b.WriteString(text)
		res.Tokens = tokens(b.String())
		res.Shown = append(res.Shown, Shown{Table: ix.tables[i].Name, Columns: ix.shownColumns(i, nil), Why: "listed", Tokens: tokens(text)})
	}
	res.Text = b.String()
	return res
}

// Table is the index's spelling of a table's name (case-insensitive), or
// "" when it has none of that name.
func (ix *Index) Table(name string) string {
	if i := ix.lookup(name); i >= 0 {
		return ix.tables[i].Name
	}
	return ""
}
