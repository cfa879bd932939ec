package retrieval

import (
	"math"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Table is one table or view as the index sees it. Whoever builds the
// index leaves out what the model must not see (restricted columns,
// withheld relations) before it gets here.
type Table struct {
	// Name is how SQL names the table (schema.table where a schema is
	// needed); Scope is a grouping the name belongs to (a schema, a
	// database), read as weak evidence.
	Name     string
	Scope    string
	Desc     string
	Synonyms []string // other names: the entity's name and synonyms
	Rows     int64
	Columns  []Column
	// Keys are the table's own foreign keys.
	Keys []Key
}

// Column is one column of a Table.
type Column struct {
	Name, Type, Desc string
	Synonyms         []string
}

// Key is a foreign key: Columns of the owning table refer to RefColumns
// of RefTable (a Table's Name).
type Key struct {
	Columns    []string
	RefTable   string
	RefColumns []string
}

// Input is everything the index is built from.
type Input struct {
	Tables []Table
	// Model is the knowledge's semantic model, when there is one: its
	// relationships join tables, its metrics, dimensions and their
	// synonyms and descriptions are evidence for their entity's table.
	Model *semantic.Model
	// Verified are approved questions; their words are evidence for the
	// tables their SQL reads.
	Verified []Verified
	// Notes are free notes; a note's words are evidence for the tables it
	// names.
	Notes []string
}

// Verified is an approved question and its SQL.
type Verified struct {
	Question, SQL string
}

// fields of a table's document, with their weights.
const (
	fName  = iota // the table's name, its entity's name and synonyms
	fCols         // column names and synonyms
	fDesc         // descriptions of the table and its columns
	fKnow         // metrics, dimensions, verified questions, notes
	fScope        // the schema or database the table is in
	nFields
)

var fieldWeight = [nFields]float64{fName: 4, fCols: 1.5, fDesc: 0.6, fKnow: 1.2, fScope: 0.8}

const (
	k1 = 1.2
	bm = 0.75
)

// Index ranks tables for a question. Build one with Build; it is
// read-only afterwards and safe for concurrent use.
type Index struct {
	tables   []entry
	byName   map[string]int // lower-case name → table
	postings map[string][]posting
	avgLen   [nFields]float64
	adj      [][]edge
	full     int // tokens of the whole schema, rendered as shown
}

type entry struct {
	Table
	base      string     // the name without its scope, lower case
	nameTerms []string   // the stems of the name's words, in order
	colTerms  [][]string // per column, the stems of its name and synonyms
	lens      [nFields]int
	noise     []string // stems of the name's words that mark a copy: archive, backup, 2019
	know      []string // knowledge items that point here, for why
}

type posting struct {
	table int
	tf    [nFields]float32
}

type edge struct {
	to           int
	from, toCol  string // the joining columns
	fromT, toT   int
	viaKnowledge bool
}

// FromCatalog is the tables of a catalog, with the descriptions and
// synonyms of the model's entities and columns (model may be nil).
func FromCatalog(cat *quarry.Catalog, model *semantic.Model) []Table {
	var out []Table
	ents := map[string]*semantic.Entity{}
	if model != nil {
		for i := range model.Entities {
			e := &model.Entities[i]
			ents[strings.ToLower(e.TableName())] = e
		}
	}
	if cat == nil {
		return nil
	}
	for _, ti := range cat.Tables {
		t := Table{Name: ti.Name, Scope: ti.Schema, Desc: ti.Comment, Rows: ti.RowCount}
		if ti.Schema != "" {
			t.Name = ti.Schema + "." + ti.Name
		}
		e := ents[strings.ToLower(ti.Name)]
		if e == nil {
			e = ents[strings.ToLower(t.Name)]
		}
		if e != nil {
			if t.Desc == "" {
				t.Desc = e.Description
			}
			if !strings.EqualFold(e.Name, ti.Name) {
				t.Synonyms = append(t.Synonyms, e.Name)
			}
			t.Synonyms = append(t.Synonyms, e.Synonyms...)
		}
		for _, c := range ti.Columns {
			col := Column{Name: c.Name, Type: string(c.Type), Desc: c.Comment}
			if e != nil {
				if sc := e.Column(c.Name); sc != nil {
					if col.Desc == "" {
						col.Desc = sc.Description
					}
					col.Synonyms = sc.Synonyms
				}
			}
			t.Columns = append(t.Columns, col)
		}
		for _, fk := range ti.ForeignKeys {
			ref := fk.RefTable
			if ti.Schema != "" && !strings.Contains(ref, ".") {
				s := fk.RefSchema
				if s == "" {
					s = ti.Schema
				}
				ref = s + "." + ref
			}
			t.Keys = append(t.Keys, Key{Columns: fk.Columns, RefTable: ref, RefColumns: fk.RefColumns})
		}
		out = append(out, t)
	}
	return out
}

// Build indexes in.
func Build(in Input) *Index {
	ix := &Index{byName: map[string]int{}, postings: map[string][]posting{}}
	for _, t := range in.Tables {
		key := strings.ToLower(t.Name)
		if _, dup := ix.byName[key]; dup {
			continue
		}
		ix.byName[key] = len(ix.tables)
		ix.tables = append(ix.tables, entry{Table: t})
	}
	tfs := make([][nFields]map[string]int, len(ix.tables))
	st := stemmer{}
	add := func(i, f int, text string) {
		if tfs[i][f] == nil {
			tfs[i][f] = map[string]int{}
		}
		for _, w := range st.terms(text) {
			tfs[i][f][w]++
			ix.tables[i].lens[f]++
		}
	}
	for i := range ix.tables {
		e := &ix.tables[i]
		base := e.Name
		if e.Scope != "" && strings.HasPrefix(strings.ToLower(base), strings.ToLower(e.Scope)+".") {
			base = base[len(e.Scope)+1:]
		}
		e.base = strings.ToLower(base)
		e.nameTerms = st.terms(base)
		for _, w := range splitWords(base) {
			if semantic.CopyWord(w) {
				e.noise = append(e.noise, st.stem(w))
			}
		}
		add(i, fName, base)
		// Two words of the name written together: "order items" finds
		// orderitems, and "orderitems" finds order_items.
		if ws := splitWords(base); len(ws) > 1 {
			for k := 0; k+1 < len(ws); k++ {
				add(i, fName, ws[k]+ws[k+1])
			}
		}
		for _, s := range e.Synonyms {
			add(i, fName, s)
		}
		add(i, fScope, e.Scope)
		add(i, fDesc, e.Desc)
		e.colTerms = make([][]string, len(e.Columns))
		for k, c := range e.Columns {
			ct := st.terms(c.Name)
			for _, s := range c.Synonyms {
				ct = append(ct, st.terms(s)...)
			}
			e.colTerms[k] = ct
			add(i, fCols, c.Name)
			for _, s := range c.Synonyms {
				add(i, fCols, s)
			}
			add(i, fDesc, c.Desc)
		}
	}
	ix.knowledge(in, add)
	ix.joins(in)
	var total [nFields]float64
	for i := range ix.tables {
		for f := range nFields {
			total[f] += float64(ix.tables[i].lens[f])
			for w, n := range tfs[i][f] {
				ps := ix.postings[w]
				if len(ps) == 0 || ps[len(ps)-1].table != i {
					ps = append(ps, posting{table: i})
				}
				ps[len(ps)-1].tf[f] = float32(n)
				ix.postings[w] = ps
			}
		}
	}
	if n := float64(len(ix.tables)); n > 0 {
		for f := range nFields {
			ix.avgLen[f] = max(total[f]/n, 1)
		}
	}
	for i := range ix.tables {
		ix.full += tokens(ix.render(i, nil))
		for _, e := range ix.adj[i] {
			if e.fromT < e.toT {
				ix.full += tokens(ix.joinLine(e))
			}
		}
	}
	return ix
}

// knowledge adds the model's metrics and dimensions, verified questions
// and notes to the tables they are about.
func (ix *Index) knowledge(in Input, add func(i, f int, text string)) {
	m := in.Model
	entity := func(name string) int {
		if m != nil {
			if e := m.Entity(name); e != nil {
				name = e.TableName()
			}
		}
		return ix.lookup(name)
	}
	if m != nil {
		for _, mt := range m.Metrics {
			if i := entity(mt.Entity); i >= 0 {
				add(i, fKnow, mt.Name+" "+strings.Join(mt.Synonyms, " ")+" "+mt.Description)
				ix.tables[i].know = append(ix.tables[i].know, "metric "+mt.Name)
			}
		}
		for _, d := range m.Dimensions {
			if i := entity(d.Entity); i >= 0 {
				add(i, fKnow, d.Name+" "+strings.Join(d.Synonyms, " ")+" "+d.Description)
				ix.tables[i].know = append(ix.tables[i].know, "dimension "+d.Name)
			}
		}
	}
	for _, v := range in.Verified {
		for _, i := range ix.mentioned(v.SQL) {
			add(i, fKnow, v.Question)
			ix.tables[i].know = append(ix.tables[i].know, "verified question")
		}
	}
	for _, n := range in.Notes {
		for _, i := range ix.mentioned(n) {
			add(i, fKnow, n)
			ix.tables[i].know = append(ix.tables[i].know, "note")
		}
	}
}

// mentioned is the tables whose names text contains as identifiers.
func (ix *Index) mentioned(text string) []int {
	var out []int
	for _, w := range identifiers(text) {
		w = strings.Trim(w, ".")
		i := ix.lookup(w)
		for i < 0 && strings.Contains(w, ".") {
			w = w[:strings.LastIndexByte(w, '.')] // table.column, schema.table.column
			i = ix.lookup(w)
		}
		if i >= 0 && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// identifiers are the runs of letters, digits, '_' and '.' in text.
func identifiers(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80)
	})
}

// lookup is the table named name (case-insensitive; a name without its
// schema when only one table has it), or -1.
func (ix *Index) lookup(name string) int {
	if i, ok := ix.byName[strings.ToLower(name)]; ok {
		return i
	}
	return -1
}

// joins builds the join graph from the tables' keys and the model's
// relationships.
func (ix *Index) joins(in Input) {
	ix.adj = make([][]edge, len(ix.tables))
	link := func(a, b int, ac, bc string, know bool) {
		if a < 0 || b < 0 || a == b {
			return
		}
		for _, e := range ix.adj[a] {
			if e.to == b {
				return
			}
		}
		ix.adj[a] = append(ix.adj[a], edge{to: b, from: ac, toCol: bc, fromT: a, toT: b, viaKnowledge: know})
		ix.adj[b] = append(ix.adj[b], edge{to: a, from: bc, toCol: ac, fromT: b, toT: a, viaKnowledge: know})
	}
	for i := range ix.tables {
		for _, k := range ix.tables[i].Keys {
			j := ix.lookup(k.RefTable)
			if j < 0 && ix.tables[i].Scope != "" {
				j = ix.lookup(ix.tables[i].Scope + "." + k.RefTable)
			}
			link(i, j, strings.Join(k.Columns, ","), strings.Join(k.RefColumns, ","), false)
		}
	}
	if m := in.Model; m != nil {
		tbl := func(name string) int {
			if e := m.Entity(name); e != nil {
				name = e.TableName()
			}
			return ix.lookup(name)
		}
		for _, r := range m.Relationships {
			link(tbl(r.From), tbl(r.To), r.FromColumn, r.ToColumn, true)
		}
	}
}

func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// Len is the number of tables indexed.
func (ix *Index) Len() int { return len(ix.tables) }

// FullTokens estimates the tokens of the whole schema written the way
// Search shows tables: what sending everything would cost.
func (ix *Index) FullTokens() int { return ix.full }
