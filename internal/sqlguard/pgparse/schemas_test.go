//go:build cgo

package pgparse

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// TestAttributeNotationFollowsTheSearchPath: an unqualified name reaches
// the relation on the search path, not a table of the same name in
// another schema, in both directions (a column the other table has is
// not a column here; a column only this one has is).
func TestAttributeNotationFollowsTheSearchPath(t *testing.T) {
	cols := func(names ...string) []quarry.ColumnInfo {
		var out []quarry.ColumnInfo
		for _, n := range names {
			out = append(out, quarry.ColumnInfo{Name: n})
		}
		return out
	}
	cat := &quarry.Catalog{Dialect: quarry.DialectPostgres, Tables: []quarry.TableInfo{
		{Schema: "public", Name: "employees", Columns: cols("id", "name", "salary")},
		{Schema: "other", Name: "employees", Hidden: true, Columns: cols("id", "hash_record")},
		{Schema: "public", Name: "customers", Columns: cols("id", "country")},
		{Schema: "other", Name: "customers", Hidden: true, Columns: cols("id")},
	}}
	for _, tc := range []struct {
		sql   string
		allow bool
	}{
		{`SELECT e.hash_record FROM employees e`, false},
		{`SELECT e.hash_record FROM other.employees e`, true},
		{`SELECT c.country FROM customers c`, true},
		{`SELECT c.country FROM public.customers c`, true},
		{`SELECT c.country FROM other.customers c`, false},
	} {
		v := Check(tc.sql, sqlguard.Options{Catalog: cat})
		if v.Allowed != tc.allow {
			t.Errorf("%s: allowed %v, want %v (%v)", tc.sql, v.Allowed, tc.allow, v.Violations)
		}
	}
}
