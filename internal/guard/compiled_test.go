package guard

import (
	"context"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// TestCompiledDurationsPass: the SQL the compiler writes for
// days_between, on each engine, passes that engine's guard (lexical and
// the engine's own parser), so a duration planned offline is never
// refused by quarry's own gate.
func TestCompiledDurationsPass(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "tickets", PrimaryKey: "id", TimeColumn: "opened_at", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "opened_at", Type: quarry.TypeTimestamp}, {Name: "closed_at", Type: quarry.TypeTimestamp}}}},
		Metrics: []semantic.Metric{{Name: "hours", Entity: "tickets", Expr: "AVG(days_between(tickets.opened_at, tickets.closed_at) * 24)"}},
	}
	for _, d := range []quarry.Dialect{quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL, quarry.DialectDuckDB} {
		c, err := semantic.Compile(m, semantic.Query{Metrics: []string{"hours"}, Dimensions: []semantic.DimRef{{Name: "month"}}}, d)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		g, err := New(sqlguard.Options{Dialect: d})
		if err != nil {
			t.Fatal(err)
		}
		if v := g.Check(context.Background(), c.SQL); !v.Allowed {
			t.Errorf("%s: refused %+v\n%s", d, v.Violations, c.SQL)
		}
		g.Close()
	}
}
