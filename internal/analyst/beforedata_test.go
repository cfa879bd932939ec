package analyst

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestBeforeData: a period that ends before the first day its date
// holds is refused, naming that day and the tables that are copies of
// the measured one, not answered 0 (found from outside: "how many
// invoices in 2020" answered 0 at 0.85, where invoices_archive, of the
// same columns, held 218). A period the data reaches is answered, 0 or
// not; a table of other columns is no copy.
func TestBeforeData(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE invoices (id INTEGER PRIMARY KEY, issued_at DATE, amount REAL);
CREATE TABLE invoices_archive (id INTEGER PRIMARY KEY, issued_at DATE, amount REAL);
CREATE TABLE invoice_lines (id INTEGER PRIMARY KEY, issued_at DATE, amount REAL, sku TEXT);
INSERT INTO invoices (issued_at, amount) VALUES ('2024-01-05', 10), ('2024-03-01', 20), ('2025-02-01', 30);
INSERT INTO invoices_archive (issued_at, amount) VALUES ('2020-05-01', 5);`)
	cols := func(extra ...semantic.Column) []semantic.Column {
		return append([]semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "issued_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "amount", Type: quarry.TypeFloat}}, extra...)
	}
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "invoices", Table: "invoices", PrimaryKey: "id", TimeColumn: "issued_at", Columns: cols()},
		{Name: "invoices_archive", Table: "invoices_archive", PrimaryKey: "id", TimeColumn: "issued_at", Columns: cols()},
		{Name: "invoice_lines", Table: "invoice_lines", PrimaryKey: "id", TimeColumn: "issued_at", Columns: cols(semantic.Column{Name: "sku", Type: quarry.TypeText})},
		// Kept without one column (an archive without its amount): a
		// copy; one without two of them, and one of another's: none.
		{Name: "invoices_2019", Table: "invoices_2019", PrimaryKey: "id", Columns: cols()[:2]},
		{Name: "emea_invoices", Table: "emea_invoices", PrimaryKey: "id", Columns: append(cols()[:1], semantic.Column{Name: "region", Type: quarry.TypeText})},
	}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(m.CopiesOf("invoices")); got != "[invoices_archive invoices_2019]" {
		t.Errorf("copies of invoices: %s, want [invoices_archive invoices_2019]", got)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "how many invoices in 2020", asOf)
	if err == nil || !strings.Contains(quarry.Message(err), "no date before 2024-01-05") || !strings.Contains(quarry.Message(err), "invoices_archive") {
		t.Errorf("invoices in 2020: %v %+v; want refused, naming the first day and invoices_archive", err, out.Table)
	}
	for q, want := range map[string]string{"how many invoices in 2025": "1", "how many invoices in 2023": ""} {
		out, err := a.Ask(context.Background(), event.NewRecorder("r2", a.Clock, &memSink{}), k, q, asOf)
		switch {
		case want == "" && err == nil:
			t.Errorf("%q: answered %v; want refused", q, out.Table.Rows)
		case want != "" && (err != nil || out.Table == nil || fmt.Sprint(out.Table.Rows[0][0]) != want):
			t.Errorf("%q: %v %+v; want %s", q, err, out.Table, want)
		}
	}
}
