package eval

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/retrieval"
)

// RetrievalCase is a question and what answering it needs: tables by the
// name the index gives them (schema.table) and columns as table.column.
type RetrievalCase struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Tables   []string `json:"tables"`
	Columns  []string `json:"columns,omitempty"`
}

// RetrievalSet is a catalog and questions of it.
type RetrievalSet struct {
	Name    string
	Catalog *quarry.Catalog
	Cases   []RetrievalCase
}

// RetrievalOptions tune RunRetrieval.
type RetrievalOptions struct {
	// Budget is the tokens a search may show; 0 for retrieval's default.
	Budget int
	// Clock times the searches; nil for time.Now.
	Clock func() time.Time
}

// RetrievalReport is how well the index finds a set's tables.
type RetrievalReport struct {
	Name      string  `json:"name"`
	Tables    int     `json:"tables"`
	Columns   int     `json:"columns"`
	Questions int     `json:"questions"`
	Budget    int     `json:"budget_tokens"`
	Full      int     `json:"full_schema_tokens"`
	BuildMS   float64 `json:"build_ms"`
	// Recall of the gold tables and columns among the first k tables
	// shown (columns: shown of those tables), averaged over questions;
	// All5 is the share of questions with every gold table in the first 5.
	Recall5    float64 `json:"table_recall_at_5"`
	Recall10   float64 `json:"table_recall_at_10"`
	All5       float64 `json:"all_tables_at_5"`
	ColRecall5 float64 `json:"column_recall_at_5"`
	ColRecal10 float64 `json:"column_recall_at_10"`
	// Shown is the mean share of the full schema's tokens shown within
	// the budget, Shown5 that of the first 5 tables shown; ShownTables
	// is the mean number of tables shown.
	Shown       float64 `json:"shown_share"`
	Shown5      float64 `json:"shown_share_at_5"`
	ShownTables float64 `json:"shown_tables"`
	P50MS       float64 `json:"p50_ms"`
	P99MS       float64 `json:"p99_ms"`
	// Misses are the questions with a gold table not in the first 5.
	Misses []RetrievalMiss `json:"misses,omitempty"`
}

// RetrievalMiss is a question whose gold tables were not all in the
// first five shown.
type RetrievalMiss struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Missing  []string `json:"missing"`
	Shown    []string `json:"shown"`
}

// RunRetrieval builds the retrieval index of set's catalog and searches
// it for each question, one at a time.
func RunRetrieval(set *RetrievalSet, opts RetrievalOptions) RetrievalReport {
	now := opts.Clock
	if now == nil {
		now = time.Now
	}
	rep := RetrievalReport{Name: set.Name, Tables: len(set.Catalog.Tables), Questions: len(set.Cases), Budget: opts.Budget}
	if rep.Budget == 0 {
		rep.Budget = retrieval.DefaultBudget
	}
	for _, t := range set.Catalog.Tables {
		rep.Columns += len(t.Columns)
	}
	t0 := now()
	ix := retrieval.Build(retrieval.Input{Tables: retrieval.FromCatalog(set.Catalog, nil)})
	rep.BuildMS = ms(now().Sub(t0))
	rep.Full = ix.FullTokens()
	var lat []float64
	cols := 0
	for _, c := range set.Cases {
		t0 := now()
		r := ix.Search(c.Question, retrieval.Options{Budget: rep.Budget})
		lat = append(lat, ms(now().Sub(t0)))
		at := func(k int) (tables, columns map[string]bool, tok int) {
			tables, columns = map[string]bool{}, map[string]bool{}
			for _, s := range r.Shown[:min(k, len(r.Shown))] {
				tables[strings.ToLower(s.Table)] = true
				for _, col := range s.Columns {
					columns[strings.ToLower(s.Table+"."+col)] = true
				}
				tok += s.Tokens
			}
			return tables, columns, tok
		}
		t5, c5, tok5 := at(5)
		t10, c10, _ := at(10)
		rep.Recall5 += share(c.Tables, t5)
		rep.Recall10 += share(c.Tables, t10)
		if share(c.Tables, t5) == 1 {
			rep.All5++
		} else {
			m := RetrievalMiss{ID: c.ID, Question: c.Question}
			for _, g := range c.Tables {
				if !t5[strings.ToLower(g)] {
					m.Missing = append(m.Missing, g)
				}
			}
			for _, s := range r.Shown[:min(5, len(r.Shown))] {
				m.Shown = append(m.Shown, s.Table)
			}
			rep.Misses = append(rep.Misses, m)
		}
		if len(c.Columns) > 0 {
			cols++
			rep.ColRecall5 += share(c.Columns, c5)
			rep.ColRecal10 += share(c.Columns, c10)
		}
		if rep.Full > 0 {
			rep.Shown += float64(r.Tokens) / float64(rep.Full)
			rep.Shown5 += float64(tok5) / float64(rep.Full)
		}
		rep.ShownTables += float64(len(r.Shown))
	}
	if n := float64(len(set.Cases)); n > 0 {
		rep.Recall5 /= n
		rep.Recall10 /= n
		rep.All5 /= n
		rep.Shown /= n
		rep.Shown5 /= n
		rep.ShownTables /= n
	}
	if cols > 0 {
		rep.ColRecall5 /= float64(cols)
		rep.ColRecal10 /= float64(cols)
	}
	slices.Sort(lat)
	rep.P50MS, rep.P99MS = quantile(lat, 0.5), quantile(lat, 0.99)
	return rep
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// share is the fraction of want found in got (lower-case keys).
func share(want []string, got map[string]bool) float64 {
	if len(want) == 0 {
		return 1
	}
	n := 0
	for _, w := range want {
		if got[strings.ToLower(w)] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// quantile of sorted xs, by the nearest rank.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	i := int(q*float64(len(xs))+0.5) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

// WriteText writes the report as a few lines; verbose lists the misses.
func (r *RetrievalReport) WriteText(w io.Writer, verbose bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d tables, %d columns, %d questions; full schema %d tokens; index built in %.0f ms\n", r.Name, r.Tables, r.Columns, r.Questions, r.Full, r.BuildMS)
	fmt.Fprintf(&b, "  tables:  recall@5 %.3f  recall@10 %.3f  all gold in first 5: %.3f\n", r.Recall5, r.Recall10, r.All5)
	fmt.Fprintf(&b, "  columns: recall@5 %.3f  recall@10 %.3f\n", r.ColRecall5, r.ColRecal10)
	fmt.Fprintf(&b, "  shown:   %.2f%% of the full schema within a %d-token budget (%.1f tables); first 5 tables %.2f%%\n", 100*r.Shown, r.Budget, r.ShownTables, 100*r.Shown5)
	fmt.Fprintf(&b, "  latency: p50 %.2f ms  p99 %.2f ms (one search at a time)\n", r.P50MS, r.P99MS)
	if verbose {
		for _, m := range r.Misses {
			fmt.Fprintf(&b, "  miss %s %q: missing %s; shown %s\n", m.ID, m.Question, strings.Join(m.Missing, ", "), strings.Join(m.Shown, ", "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// PooledSpider is every Spider database's tables in one catalog, each in
// a schema named after its database, and the dev questions with the
// tables and columns of their gold SQL as the target. catalogs holds each
// database's catalog by name; databases without one are left out.
func PooledSpider(sp *Spider, catalogs map[string]*quarry.Catalog) *RetrievalSet {
	set := &RetrievalSet{Name: "pooled Spider dev", Catalog: &quarry.Catalog{Dialect: quarry.DialectSQLite}}
	for _, db := range sp.DBs {
		cat := catalogs[db.Name]
		if cat == nil {
			continue
		}
		for _, t := range cat.Tables {
			t.Schema = db.Name
			for k := range t.ForeignKeys {
				t.ForeignKeys[k].RefSchema = db.Name
			}
			set.Catalog.Tables = append(set.Catalog.Tables, t)
		}
		for _, c := range db.Set.Cases {
			tables, cols := goldOf(c.SQL, cat)
			rc := RetrievalCase{ID: c.ID, Question: c.Question}
			for _, t := range tables {
				rc.Tables = append(rc.Tables, db.Name+"."+t)
			}
			for _, col := range cols {
				rc.Columns = append(rc.Columns, db.Name+"."+col)
			}
			if len(rc.Tables) > 0 {
				set.Cases = append(set.Cases, rc)
			}
		}
	}
	return set
}

// goldOf reads the tables a query reads (the names after FROM and JOIN,
// and after commas in a FROM list) and the columns of those tables it
// names ("table.column"), spelt as in cat.
func goldOf(sql string, cat *quarry.Catalog) (tables, columns []string) {
	toks := sqlTokens(sql)
	alias := map[string]string{}
	for k := 0; k < len(toks); k++ {
		kw := strings.ToUpper(toks[k])
		if kw != "FROM" && kw != "JOIN" {
			continue
		}
		for k+1 < len(toks) {
			t := cat.Table(toks[k+1])
			if t == nil {
				break
			}
			if !slices.Contains(tables, t.Name) {
				tables = append(tables, t.Name)
			}
			alias[strings.ToLower(t.Name)] = t.Name
			k++
			if k+1 < len(toks) && strings.EqualFold(toks[k+1], "AS") {
				k++
			}
			if k+1 < len(toks) && isIdent(toks[k+1]) && !sqlKeyword(strings.ToUpper(toks[k+1])) {
				alias[strings.ToLower(toks[k+1])] = t.Name
				k++
			}
			if k+1 < len(toks) && toks[k+1] == "," {
				k++
				continue
			}
			break
		}
	}
	add := func(t, c string) {
		if tc := t + "." + c; !slices.Contains(columns, tc) {
			columns = append(columns, tc)
		}
	}
	for _, tok := range toks {
		if !isIdent(tok) {
			continue
		}
		if q, col, ok := strings.Cut(tok, "."); ok {
			if tn, ok := alias[strings.ToLower(q)]; ok {
				if c := cat.Table(tn).Column(col); c != nil {
					add(tn, c.Name)
				}
			}
			continue
		}
		for _, tn := range tables {
			if c := cat.Table(tn).Column(tok); c != nil {
				add(tn, c.Name)
			}
		}
	}
	return tables, columns
}

// sqlTokens splits SQL into identifiers (with their qualifier: t1.name),
// punctuation and numbers, leaving out quoted strings.
func sqlTokens(sql string) []string {
	var out []string
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(sql) && sql[j] != c {
				j++
			}
			if c == '`' {
				out = append(out, sql[i+1:min(j, len(sql))])
			}
			i = j + 1
		case isIdentByte(c):
			j := i
			for j < len(sql) && (isIdentByte(sql[j]) || sql[j] == '.') {
				j++
			}
			out = append(out, sql[i:j])
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			out = append(out, string(c))
			i++
		}
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdent(s string) bool { return s != "" && isIdentByte(s[0]) && !(s[0] >= '0' && s[0] <= '9') }

// sqlKeyword reports whether w is a word that may follow a table name and
// is no alias.
func sqlKeyword(w string) bool {
	switch w {
	case "WHERE", "JOIN", "ON", "GROUP", "ORDER", "LIMIT", "UNION", "INTERSECT", "EXCEPT", "INNER", "LEFT",
		"RIGHT", "OUTER", "CROSS", "NATURAL", "HAVING", "AS", "USING", "FULL":
		return true
	}
	return false
}
