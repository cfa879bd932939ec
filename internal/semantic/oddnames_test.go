package semantic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

// oddModel has tables and columns named with spaces, dots, quotes,
// accents, CJK characters, keywords, leading digits and a schema.
func oddModel() *Model {
	col := func(names ...string) []Column {
		var out []Column
		for _, n := range names {
			out = append(out, Column{Name: n, Type: quarry.TypeInt})
		}
		return out
	}
	return &Model{Entities: []Entity{
		{Name: "Order Details", Table: "Order Details", PrimaryKey: "Order ID", Columns: col("Order ID", "Unit Price")},
		{Name: "sales_orders", Table: "sales.orders", PrimaryKey: "id", Columns: col("id", "sales.total")},
		{Name: "sales.orders", Table: "sales.orders", PrimaryKey: "id", Columns: col("id", "sales.total")},
		{Name: "orders", Schema: "sales", Table: "orders", PrimaryKey: "id", Columns: col("id", "amount")},
		{Name: "it's", Table: "it's", PrimaryKey: "id", Columns: col("id", `a"b`, "c`d")},
		{Name: "Café", Table: "Café", PrimaryKey: "id", Columns: col("id", "prix€")},
		{Name: "客户", Table: "客户", PrimaryKey: "id", Columns: col("id", "名字")},
		{Name: "order", Table: "order", PrimaryKey: "id", Columns: col("id", "select", "group")},
		{Name: "2019_sales", Table: "2019_sales", PrimaryKey: "id", Columns: col("id", "2019_amount")},
	}}
}

func TestRefRoundTrips(t *testing.T) {
	m := oddModel()
	names := refNamesOf(m, m.Entity)
	for _, e := range m.Entities {
		for _, c := range e.Columns {
			expr := "SUM(" + Ref(e.Name, c.Name) + ") + 1"
			_, refs := rewriteRefs(expr, names, false, nil)
			if diff := cmp.Diff([]colRef{{e.Name, c.Name}}, refs); diff != "" {
				t.Errorf("%s (-want +got):\n%s", expr, diff)
			}
			// a field reference as the planner spells it, unquoted
			if e.Name == "sales.orders" || strings.HasPrefix(e.Name, "2019") {
				continue // a digit or a dotted entity name is only read quoted
			}
			expr = "SUM(" + e.Name + "." + c.Name + ")"
			if _, refs := rewriteRefs(expr, names, false, nil); len(refs) != 1 || refs[0] != (colRef{e.Name, c.Name}) {
				t.Errorf("%s: refs %v", expr, refs)
			}
		}
	}
}

func TestCompileOddNames(t *testing.T) {
	m := oddModel()
	m.Entities = append(m.Entities[:1:1], m.Entities[1:]...)
	for _, d := range []quarry.Dialect{quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL} {
		for _, e := range m.Entities {
			for _, c := range e.Columns {
				mm := *m
				mm.Metrics = []Metric{{Name: "x", Entity: e.Name, Expr: "SUM(" + Ref(e.Name, c.Name) + ")"}}
				sql, err := Compile(&mm, Query{Metrics: []string{"x"}}, d)
				if err != nil {
					t.Errorf("%s %s.%s: %v", d, e.Name, c.Name, err)
					continue
				}
				dd, _ := newDialect(d)
				if !strings.Contains(sql.SQL, "."+dd.ident(c.Name)+")") {
					t.Errorf("%s: column %s not quoted: %s", d, c.Name, sql.SQL)
				}
				from := dd.ident(e.Table)
				if e.Schema != "" {
					from = dd.ident(e.Schema) + "." + from
				}
				if !strings.Contains(sql.SQL, "FROM "+from) {
					t.Errorf("%s: table %q.%q not as %s: %s", d, e.Schema, e.Table, from, sql.SQL)
				}
			}
		}
	}
}

func TestRestrictedReadings(t *testing.T) {
	for entry, want := range map[string][][2]string{
		"orders.email":               {{"orders", "email"}},
		"sales.orders.secret":        {{"sales", "orders.secret"}, {"sales.orders", "secret"}, {"orders", "secret"}},
		`"sales.orders".secret`:      {{"sales.orders", "secret"}},
		`"it's"."a""b"`:              {{"it's", `a"b`}},
		`crm."Order Details"."Note"`: {{"Order Details", "Note"}},
		"Café.Secret Key":            {{"Café", "Secret Key"}},
		".hidden.secret":             {{".hidden", "secret"}, {"hidden", "secret"}},
		"nodot":                      nil,
	} {
		if diff := cmp.Diff(want, RestrictedReadings(entry)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", entry, diff)
		}
	}
}
