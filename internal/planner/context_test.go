package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

func documentsModel() *semantic.Model {
	col := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "Templates", PrimaryKey: "Template_ID", Columns: []semantic.Column{
				col("Template_ID", quarry.TypeInt), col("Template_Type_Code", quarry.TypeText, "PP", "BK")}},
			{Name: "Documents", PrimaryKey: "Document_ID", Label: "Document_Name", Columns: []semantic.Column{
				col("Document_ID", quarry.TypeInt), col("Template_ID", quarry.TypeInt), col("Document_Name", quarry.TypeText)}},
			{Name: "Paragraphs", PrimaryKey: "Paragraph_ID", Columns: []semantic.Column{
				col("Paragraph_ID", quarry.TypeInt), col("Document_ID", quarry.TypeInt), col("Paragraph_Text", quarry.TypeText, "Brazil", "Korea")}},
		},
		Relationships: []semantic.Relationship{
			{From: "Documents", FromColumn: "Template_ID", To: "Templates", ToColumn: "Template_ID", Cardinality: semantic.ManyToOne},
			{From: "Paragraphs", FromColumn: "Document_ID", To: "Documents", ToColumn: "Document_ID", Cardinality: semantic.ManyToOne},
		},
	}
}

// TestContextKeys: where a key's name fits several columns but the
// question leaves one sensible reading, quarry takes it rather than ask —
// the listed rows' own key for "ids", the end of a relationship on the
// rows listed — and still asks where the readings differ.
func TestContextKeys(t *testing.T) {
	p := New(documentsModel(), nil)
	for _, tc := range []struct {
		q       string
		columns []string // the rows query's columns; nil: a clarifying question
	}{
		{"what are the ids and names of all documents", []string{"Documents.Document_ID", "Documents.Document_Name"}},
		{"show the ids of paragraphs", []string{"Paragraphs.Paragraph_ID"}},
		{"show the document id of paragraphs with paragraph text Brazil", []string{"Paragraphs.Document_ID"}},
		// Which template: the documents' reference or the templates' own
		// key give different rows; quarry asks.
		{"what are the template ids", nil},
		// Beside a column of one end's table alone, that end (found on
		// Spider: "the contestant numbers and names" asked which).
		{"list the template ids and template type codes", []string{"Templates.Template_ID", "Templates.Template_Type_Code"}},
		{"list the template ids and document names", []string{"Documents.Template_ID", "Documents.Document_Name"}},
		// Values joined by "and" may ask for the documents with both.
		{"show the document id with paragraph text Brazil and Korea", nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.columns == nil {
				if pl.Kind != KindClarify {
					t.Fatalf("%s %+v, want a clarifying question", pl.Kind, pl.Query)
				}
				return
			}
			if pl.Kind != KindRows {
				t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Options)
			}
			for _, c := range tc.columns {
				e, col, _ := strings.Cut(c, ".")
				if pl.Query.Rows.Entity != e || !slices.Contains(pl.Query.Rows.Columns, col) {
					t.Errorf("rows of %s, columns %v; want %v among them", pl.Query.Rows.Entity, pl.Query.Rows.Columns, tc.columns)
				}
			}
		})
	}
}

// TestChildColumnsOfANamedRow: a list of columns named with their own
// table's word, for a row of a table they belong to, lists those rows
// (found on Spider: "the paragraph texts for the document 'Customer
// reviews'" was refused, the document taken for the rows listed).
func TestChildColumnsOfANamedRow(t *testing.T) {
	m := documentsModel()
	m.Entities[1].Columns[2].Values = []string{"Customer reviews", "Welcome to NY"}
	p := New(m, nil)
	for q, want := range map[string][]string{
		"show all paragraph texts for the document 'Customer reviews'":      {"Paragraphs.Paragraph_Text"},
		"show the paragraph ids and texts for the document 'Welcome to NY'": {"Paragraphs.Paragraph_ID", "Paragraphs.Paragraph_Text"},
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindRows || pl.Query.Rows.Entity != "Paragraphs" {
			t.Errorf("%q: %s %q %+v; want the paragraphs listed", q, pl.Kind, pl.Reason, pl.Query)
			continue
		}
		for _, c := range want {
			if !slices.Contains(pl.Query.Rows.Columns, strings.TrimPrefix(c, "Paragraphs.")) && !slices.Contains(pl.Query.Rows.Columns, c) {
				t.Errorf("%q: columns %v, want %s", q, pl.Query.Rows.Columns, c)
			}
		}
		if len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "Documents.Document_Name" {
			t.Errorf("%q: filters %+v, want the document's name", q, pl.Query.Filters)
		}
	}
}
