package valueindex

import (
	"context"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestLookupSpellings: a value stored in several spellings that differ
// only in case or surrounding spaces is found in every one of them, so
// that the planner filters on them all; a value that differs in more
// than case is another value; an identifier written exactly as one of its
// spellings is that one, since each names its own row.
func TestLookupSpellings(t *testing.T) {
	path := makeDB(t,
		`CREATE TABLE accounts (code TEXT PRIMARY KEY, region TEXT)`,
		`INSERT INTO accounts VALUES ('aB3', 'North'), ('Ab3', 'north'), ('zz9', 'South')`,
		`CREATE TABLE packages (id INTEGER PRIMARY KEY, account_code TEXT, category TEXT)`,
		`INSERT INTO packages(account_code, category) VALUES
			('aB3', 'Electronics'), ('aB3', 'electronics'), ('Ab3', 'ELECTRONICS'), ('Ab3', 'Electronics'),
			('zz9', 'Food'), ('zz9', 'food '), ('aB3', 'Books'), ('Ab3', 'Book')`,
	)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "accounts", PrimaryKey: "code", Columns: []semantic.Column{textCol("code"), textCol("region")}},
			{Name: "packages", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, textCol("account_code"), textCol("category")}},
		},
		Relationships: []semantic.Relationship{{From: "packages", FromColumn: "account_code", To: "accounts", ToColumn: "code", Cardinality: semantic.ManyToOne}},
	}
	ixPath := filepath.Join(t.TempDir(), ".cache", "values.db")
	if _, err := Build(context.Background(), source(t, path, m), m, ixPath, Limits{}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ixPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	for _, tc := range []struct {
		q    string
		want []string // entity.column = value, sorted
	}{
		{"how many electronics packages", []string{"packages.category = ELECTRONICS", "packages.category = Electronics", "packages.category = electronics"}},
		{"how many Electronics packages", []string{"packages.category = ELECTRONICS", "packages.category = Electronics", "packages.category = electronics"}},
		{"how many food packages", []string{"packages.category = Food", "packages.category = food "}},
		{"how many book packages", []string{"packages.category = Book"}},
		{"accounts in the north region", []string{"accounts.region = North", "accounts.region = north"}},
		// Identifiers: the spelling written, else every spelling (the
		// planner asks which row is meant).
		{"packages of account aB3", []string{"accounts.code = aB3", "packages.account_code = aB3"}},
		{"packages of account Ab3", []string{"accounts.code = Ab3", "packages.account_code = Ab3"}},
		{"packages of account AB3", []string{"accounts.code = Ab3", "accounts.code = aB3", "packages.account_code = Ab3", "packages.account_code = aB3"}},
	} {
		got, err := ix.Lookup(context.Background(), tc.q)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		var vals []string
		for _, v := range got.Values {
			vals = append(vals, v.Entity+"."+v.Column+" = "+v.Value)
		}
		sort.Strings(vals)
		if diff := cmp.Diff(tc.want, vals); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.q, diff)
		}
	}
	// The planner filters on every spelling found.
	p := planner.New(m, nil)
	got, err := ix.Lookup(context.Background(), "how many packages are electronics")
	if err != nil {
		t.Fatal(err)
	}
	pl := p.PlanValues(got.Question, time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC), got.Values)
	if pl.Kind != planner.KindMetric && pl.Kind != planner.KindRows {
		t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
	}
	if len(pl.Query.Filters) != 1 || len(pl.Query.Filters[0].Values) != 3 {
		t.Errorf("filters %+v, want one on the three spellings", pl.Query.Filters)
	}
}
