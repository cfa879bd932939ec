package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/retrieval"
)

// DefaultSchemaBudget is the tokens of schema (estimated as characters /
// 4) one run shows the model by default: the system prompt's tables and
// every search_schema and describe_table result together. The prompt
// takes at most half of it.
const DefaultSchemaBudget = 6000

func (l Limits) schemaBudget() int {
	if l.SchemaBudget > 0 {
		return l.SchemaBudget
	}
	return DefaultSchemaBudget
}

// SchemaIndex keeps the retrieval index of an agent's schema between
// runs: the agents a server copies from one template share one, built on
// first use, as long as their catalog, knowledge and withheld relations
// are the template's. The zero value is ready to use.
type SchemaIndex struct {
	once sync.Once
	ix   *retrieval.Index
}

// schemaIndex is the index of what the model may see: a.Schema's when
// set, otherwise one built for this run.
func (a *Agent) schemaIndex(p *policy) *retrieval.Index {
	if a.Schema == nil {
		return a.index(p)
	}
	a.Schema.once.Do(func() { a.Schema.ix = a.index(p) })
	return a.Schema.ix
}

// index is the retrieval index over what the model may see: the tables
// of a.tables (restricted columns and withheld relations left out), their
// foreign keys, the model's relationships, metrics and dimensions, and the
// verified questions.
func (a *Agent) index(p *policy) *retrieval.Index {
	in := retrieval.Input{Model: a.model()}
	for _, t := range a.tables(p) {
		rt := retrieval.Table{Name: t.name, Desc: t.desc, Rows: t.rows, Synonyms: t.synonyms}
		for _, c := range t.cols {
			rt.Columns = append(rt.Columns, retrieval.Column{Name: c.name, Type: c.typ, Desc: c.desc, Synonyms: c.synonyms})
		}
		if ti := a.catalogTable(t.name); ti != nil {
			rt.Scope = ti.Schema
			if !strings.Contains(t.name, ".") {
				rt.Scope = ""
			}
			for _, fk := range ti.ForeignKeys {
				ref := fk.RefTable
				if rt.Scope != "" {
					ref = qualified(a.Catalog, fk.RefSchema, ti.Schema, fk.RefTable)
				}
				rt.Keys = append(rt.Keys, retrieval.Key{Columns: fk.Columns, RefTable: ref, RefColumns: fk.RefColumns})
			}
		}
		in.Tables = append(in.Tables, rt)
	}
	for _, v := range a.Verified {
		in.Verified = append(in.Verified, retrieval.Verified{Question: v.Question, SQL: v.SQL})
	}
	in.Notes = a.notes()
	return retrieval.Build(in)
}

// maxNotes bounds the notes the index reads.
const maxNotes = 200

// notes are the knowledge folder's notes (notes/*.md), read the way
// read_knowledge reads them. Their words point the index at the tables
// they name; their text is never shown by it.
func (a *Agent) notes() []string {
	if a.KnowledgeDir == "" {
		return nil
	}
	ents, err := os.ReadDir(filepath.Join(a.KnowledgeDir, "notes"))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if len(out) == maxNotes {
			break
		}
		if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".md") {
			continue
		}
		if text, err := readKnowledge(a.KnowledgeDir, "notes/"+e.Name()); err == nil {
			out = append(out, text)
		}
	}
	return out
}

// values are the stored values the question names (the knowledge's value
// index), where they are stored; values of restricted columns are left
// out. A value index that cannot be read gives none.
func (a *Agent) values(ctx context.Context, p *policy, question string) []retrieval.Value {
	if a.Knowledge == nil || a.Knowledge.Values == nil {
		return nil
	}
	_, vals, err := a.Knowledge.Values.Read(ctx, question, a.Knowledge.Model.SkipRestricted())
	if err != nil {
		return nil
	}
	m := a.model()
	var out []retrieval.Value
	for _, v := range vals {
		if p.column(v.Entity, v.Column) {
			continue
		}
		t := v.Entity
		if e := m.Entity(v.Entity); e != nil {
			t = e.TableName()
		}
		out = append(out, retrieval.Value{Table: t, Column: v.Column, Value: v.Value})
	}
	return out
}

// qualified is how a.tables names a foreign key's table: with its schema
// when its name is in more than one.
func qualified(cat *quarry.Catalog, refSchema, schema, name string) string {
	if refSchema == "" {
		refSchema = schema
	}
	if len(cat.Lookup("", name)) > 1 {
		return refSchema + "." + name
	}
	return name
}

// catalogTable is the catalog's table of a name as a.tables writes it
// (schema.table when the name is in more than one schema), or nil.
func (a *Agent) catalogTable(name string) *quarry.TableInfo {
	if a.Catalog == nil {
		return nil
	}
	if schema, base, ok := strings.Cut(name, "."); ok {
		if ts := a.Catalog.Lookup(schema, base); len(ts) > 0 {
			return ts[0]
		}
	}
	return a.Catalog.Table(name)
}

// spend records what of the schema the model is shown (text, as sent)
// and counts it against the run's budget.
func (r *run) spend(ctx context.Context, source, query, text string, res retrieval.Result) {
	n := retrieval.Tokens(text)
	r.shown += n
	d := &event.SchemaShownData{Step: r.step, Source: source, Query: r.policy.scrub(short(query, 500)), Tokens: n, Total: r.shown,
		Budget: r.schemaBudget, Full: res.FullTokens, Omitted: res.Omitted}
	for _, s := range res.Shown {
		d.Tables = append(d.Tables, event.ShownTable{Table: s.Table, Columns: s.Columns, Why: s.Why, Words: s.Words, Via: s.Via, Score: s.Score})
	}
	r.emit(ctx, d)
}

// searchSchema is the search_schema tool: a ranked search within what is
// left of the run's schema budget (a quarter of the budget at most).
func (r *run) searchSchema(ctx context.Context, query string) (string, bool) {
	left := r.schemaBudget - r.shown
	for b := min(left, r.schemaBudget/4); b >= 40; b /= 2 {
		text, res := r.a.searchSchema(r.policy, r.index, query, b-20)
		out := r.policy.scrub(fence("tool_result", `tool="search_schema"`, text))
		if retrieval.Tokens(out) <= left {
			r.spend(ctx, ToolSearchSchema, query, out, res)
			return out, false
		}
	}
	return r.budgetSpent(), true
}

// describeTable is the describe_table tool, when what it shows fits in
// what is left of the run's schema budget.
func (r *run) describeTable(ctx context.Context, name string) (string, bool) {
	s, err := r.a.describe(r.policy, name)
	if err != nil {
		return quarry.Message(err), true
	}
	out := r.policy.scrub(fence("schema", `table="`+attr(name)+`"`, s))
	if retrieval.Tokens(out) > r.schemaBudget-r.shown {
		return r.budgetSpent(), true
	}
	res := retrieval.Result{Shown: []retrieval.Shown{{Table: name, Why: "described"}}}
	if t := r.index.Table(name); t != "" {
		res.Shown[0].Table = t
	}
	r.spend(ctx, ToolDescribeTable, name, out, res)
	return out, false
}

func (r *run) budgetSpent() string {
	return fmt.Sprintf("this run has been shown %d tokens of schema, near its schema budget of %d; work with the tables already shown: describe fewer tables or write the query", r.shown, r.schemaBudget)
}
