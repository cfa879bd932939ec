package knowledge

import (
	"cmp"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/suggest"
)

// OnlyPatterns splits the values of learn's --only flags into patterns:
// each value may hold several, separated by commas; blanks are dropped.
func OnlyPatterns(values []string) []string {
	var out []string
	for _, v := range values {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// matchesOnly says whether table t matches one of the patterns (lower
// case): a pattern matches when path.Match accepts it for the table's
// lower-cased "schema.table" or its lower-cased name alone. A table
// whose catalog entry has no schema is in defaultSchema (SQLite's main).
func matchesOnly(patterns []string, t *quarry.TableInfo, defaultSchema string, hits []int) bool {
	name := strings.ToLower(t.Name)
	full := ""
	if s := cmp.Or(t.Schema, defaultSchema); s != "" {
		full = strings.ToLower(s + "." + t.Name)
	}
	ok := false
	for k, p := range patterns {
		m, _ := path.Match(p, name)
		if !m && full != "" {
			m, _ = path.Match(p, full)
		}
		if m {
			hits[k]++
			ok = true
		}
	}
	return ok
}

// selectOnly marks the entities of lr whose table matches one of the
// patterns (LearnOptions.Only); the others are left as the folder has
// them. It returns how many tables matched, or an error of kind usage
// for a pattern that is not a valid glob or matches no table.
func selectOnly(lr *learned, patterns []string, d quarry.Dialect) (int, error) {
	defaultSchema := ""
	if d == quarry.DialectSQLite {
		defaultSchema = "main"
	}
	lower := make([]string, len(patterns))
	for k, p := range patterns {
		lower[k] = strings.ToLower(p)
		if _, err := path.Match(lower[k], ""); err != nil {
			return 0, quarry.Errorf(quarry.KindUsage, "--only %q is not a valid pattern (%v); use * and ? as in sales.* or *orders*", p, err)
		}
	}
	hits := make([]int, len(patterns))
	lr.selected = make([]bool, len(lr.entities))
	n := 0
	for i, t := range lr.tables {
		if matchesOnly(lower, t, defaultSchema, hits) {
			lr.selected[i] = true
			n++
		}
	}
	for k, p := range patterns {
		if hits[k] == 0 {
			return 0, quarry.Errorf(quarry.KindUsage, "--only %q matches no table%s", p, closeTables(lr, p))
		}
	}
	return n, nil
}

// closeTables suggests the table names (and "schema.*" patterns) nearest
// to a pattern that matched nothing, for its error message.
func closeTables(lr *learned, pattern string) string {
	lp := strings.ToLower(pattern)
	word := strings.Trim(lp, "*?")
	prefix := strings.HasSuffix(lp, "*") && !strings.HasPrefix(lp, "*")
	suffix := strings.HasPrefix(lp, "*") && !strings.HasSuffix(lp, "*")
	type cand struct {
		name string
		d    int
	}
	var cands []cand
	seen := map[string]bool{}
	consider := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		ln := strings.Trim(strings.ToLower(name), "*")
		// A pattern like sales_* is compared with the names' beginnings,
		// one like *_orders with their ends.
		switch r := []rune(ln); {
		case prefix && len(r) > len([]rune(word)):
			ln = string(r[:len([]rune(word))])
		case suffix && len(r) > len([]rune(word)):
			ln = string(r[len(r)-len([]rune(word)):])
		}
		d := suggest.Typos(word, ln)
		if strings.Contains(strings.ToLower(name), word) {
			d = 0
		}
		if d <= max(2, len([]rune(word))/3) {
			cands = append(cands, cand{name, d})
		}
	}
	for _, t := range lr.tables {
		consider(tableRef(t))
		if t.Schema != "" && !defaultSchemas[strings.ToLower(t.Schema)] {
			consider(t.Schema + ".*")
			consider(t.Name)
		}
	}
	if len(cands) == 0 {
		if len(lr.tables) == 0 {
			return "; the database has no tables"
		}
		return fmt.Sprintf(" of the %d in the database (patterns are globs on schema.table or table, e.g. sales.* or *orders*)", len(lr.tables))
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].d < cands[j].d })
	names := make([]string, 0, 3)
	for _, c := range cands[:min(3, len(cands))] {
		names = append(names, c.name)
	}
	return "; did you mean " + strings.Join(names, ", ") + "?"
}

// in says whether learn refreshes entity i: every entity, unless --only
// selected some.
func (l *learned) in(i int) bool { return l.selected == nil || l.selected[i] }

// keepCandidates returns the candidate measures learn writes: those it
// inferred for the entities it refreshed, then the folder's own candidates
// of the entities --only left out, as they were.
func keepCandidates(lr *learned, cands, old []semantic.Metric) []semantic.Metric {
	if lr.selected == nil {
		return cands
	}
	sel := map[string]bool{}
	for i, e := range lr.entities {
		if lr.selected[i] {
			sel[strings.ToLower(e.Name)] = true
			sel[strings.ToLower(renamed(lr.names, e.Name))] = true
		}
	}
	entityOf := func(m semantic.Metric) string {
		if m.Entity != "" {
			return strings.ToLower(m.Entity)
		}
		if refs := qualifiedRefs(m.Expr); len(refs) > 0 {
			return strings.ToLower(refs[0].entity)
		}
		return ""
	}
	// In the folder's order: an entity's new candidates take the place of
	// its old ones; those of entities that had none come last.
	byEntity := map[string][]semantic.Metric{}
	var order []string
	for _, c := range cands {
		if e := entityOf(c); sel[e] {
			if byEntity[e] == nil {
				order = append(order, e)
			}
			byEntity[e] = append(byEntity[e], c)
		}
	}
	done := map[string]bool{}
	var out []semantic.Metric
	for _, c := range old {
		e := entityOf(c)
		if !sel[e] {
			out = append(out, c)
			continue
		}
		if !done[e] {
			done[e] = true
			out = append(out, byEntity[e]...)
		}
	}
	for _, e := range order {
		if !done[e] {
			out = append(out, byEntity[e]...)
		}
	}
	return out
}
