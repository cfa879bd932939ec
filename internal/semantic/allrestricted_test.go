package semantic

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestListOfNothingIsRefused: a list of an entity whose every column the
// policy restricts is refused as forbidden, not compiled into a SELECT
// with no columns (found from outside: a syntax error from the engine).
func TestListOfNothingIsRefused(t *testing.T) {
	m := &Model{
		Entities:   []Entity{{Name: "dept_pay", Columns: []Column{{Name: "dept_id", Type: quarry.TypeInt}, {Name: "avg_pay", Type: quarry.TypeFloat}}}},
		Restricted: []string{"dept_pay.dept_id", "dept_pay.avg_pay"},
	}
	_, err := Compile(m, Query{Rows: &RowsQuery{Entity: "dept_pay"}}, quarry.DialectSQLite)
	if quarry.KindOf(err) != quarry.KindForbidden {
		t.Fatalf("err %v (kind %s), want forbidden", err, quarry.KindOf(err))
	}
}
