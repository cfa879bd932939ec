package eval

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestGoldOfReadsTablesAliasesAndColumns(t *testing.T) {
	cat := &quarry.Catalog{Tables: []quarry.TableInfo{
		{Name: "singer", Columns: []quarry.ColumnInfo{{Name: "Singer_ID"}, {Name: "Name"}, {Name: "Age"}}},
		{Name: "concert", Columns: []quarry.ColumnInfo{{Name: "concert_ID"}, {Name: "Year"}}},
		{Name: "singer_in_concert", Columns: []quarry.ColumnInfo{{Name: "concert_ID"}, {Name: "Singer_ID"}}},
		{Name: "stadium", Columns: []quarry.ColumnInfo{{Name: "Name"}}},
	}}
	for _, c := range []struct {
		sql          string
		tables, cols []string
	}{
		{`SELECT count(*) FROM singer`, []string{"singer"}, nil},
		{`SELECT T2.name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id WHERE T2.age > 30 AND T2.name = "Joe"`,
			[]string{"singer_in_concert", "singer"}, []string{"singer.Name", "singer_in_concert.Singer_ID", "singer.Singer_ID", "singer.Age"}},
		{`SELECT name FROM singer, concert WHERE year = 2014`, []string{"singer", "concert"}, []string{"singer.Name", "concert.Year"}},
		{`SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert)`, []string{"singer", "singer_in_concert"},
			[]string{"singer.Name", "singer.Singer_ID", "singer_in_concert.Singer_ID"}},
	} {
		tables, cols := goldOf(c.sql, cat)
		if diff := cmp.Diff(c.tables, tables); diff != "" {
			t.Errorf("%s: tables (-want +got):\n%s", c.sql, diff)
		}
		if diff := cmp.Diff(c.cols, cols); diff != "" {
			t.Errorf("%s: columns (-want +got):\n%s", c.sql, diff)
		}
	}
}

func TestSyntheticCatalogIsDeterministic(t *testing.T) {
	a, qa := SyntheticCatalog(2000, 50, 7)
	b, qb := SyntheticCatalog(2000, 50, 7)
	if !cmp.Equal(a, b) || !cmp.Equal(qa, qb) {
		t.Fatal("the same size and seed gave different catalogs or questions")
	}
	if len(a.Tables) != 2000 || len(qa) != 50 {
		t.Fatalf("%d tables, %d questions", len(a.Tables), len(qa))
	}
	names := map[string]bool{}
	for _, tb := range a.Tables {
		names[tb.Schema+"."+tb.Name] = true
	}
	for _, q := range qa {
		for _, tb := range q.Tables {
			if !names[tb] {
				t.Errorf("%s: gold table %s is not in the catalog", q.ID, tb)
			}
		}
	}
	for _, dup := range []string{"emea_sales.orders", "emea_sales.order_items"} {
		if !names[dup] {
			t.Errorf("%s missing", dup)
		}
	}
}

func TestRunRetrievalOnASyntheticCatalog(t *testing.T) {
	cat, cases := SyntheticCatalog(3000, 200, 1)
	tick := time.Unix(0, 0)
	clock := func() time.Time { tick = tick.Add(time.Millisecond); return tick }
	rep := RunRetrieval(&RetrievalSet{Name: "synthetic", Catalog: cat, Cases: cases}, RetrievalOptions{Clock: clock})
	if rep.Recall5 < 0.95 || rep.ColRecall5 < 0.95 {
		t.Errorf("recall@5 %.3f, columns %.3f", rep.Recall5, rep.ColRecall5)
	}
	if rep.Shown > 0.03 {
		t.Errorf("shown %.3f of the schema", rep.Shown)
	}
	if rep.P50MS != 1 || rep.BuildMS != 1 {
		t.Errorf("latency %v, build %v: the clock is not the one given", rep.P50MS, rep.BuildMS)
	}
}
