package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestPaidBy: "by" after a verb of money (found from outside, on a vet
// chain):
//   - "total paid by owners in Leeds" is the payments of the owners in
//     Leeds, one figure; it was the number of owners with a paid invoice,
//     138 at 1.00;
//   - "total amount received by payment method last year" groups by the
//     method; it was refused as one figure asked for.
func TestPaidBy(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "owners", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText},
				{Name: "city", Type: quarry.TypeText, Values: []string{"Leeds", "York"}}}},
			{Name: "invoices", PrimaryKey: "id", TimeColumn: "issued_at", Columns: []semantic.Column{id("id"), id("owner_id"),
				{Name: "issued_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "total_cents", Type: quarry.TypeInt, Unit: "cents"},
				{Name: "status", Type: quarry.TypeText, Values: []string{"open", "paid", "void"}}}},
			{Name: "payments", PrimaryKey: "id", TimeColumn: "paid_at", Columns: []semantic.Column{id("id"), id("invoice_id"),
				{Name: "paid_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "amount_cents", Type: quarry.TypeInt, Unit: "cents", Synonyms: []string{"amount"}}, // as learn writes it
				{Name: "method", Type: quarry.TypeText, Values: []string{"card", "cash"}},
				{Name: "status", Type: quarry.TypeText, Values: []string{"succeeded", "failed"}}}},
		},
		Relationships: []semantic.Relationship{
			{From: "invoices", FromColumn: "owner_id", To: "owners", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "payments", FromColumn: "invoice_id", To: "invoices", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, group := range map[string]string{
		"total paid by owners in Leeds":                     "",
		"total amount received by payment method last year": "payments.method",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Errorf("%q: %s %q %v; want an answer", q, pl.Kind, pl.Reason, pl.Unknown)
			continue
		}
		if mt := pl.Model(m).Metric(pl.Query.Metrics[0]); mt == nil || !strings.EqualFold(mt.Expr, "SUM(payments.amount_cents)") {
			t.Errorf("%q: measures %+v; want the payments' amount", q, mt)
		}
		var dims []string
		for _, d := range pl.Query.Dimensions {
			dims = append(dims, d.Name)
		}
		if group == "" && len(dims) > 0 || group != "" && !slices.Contains(dims, group) {
			t.Errorf("%q: grouped by %v, want %q", q, dims, group)
		}
		read := q
		if pl.Read != "" {
			read = pl.Read // as the analyst checks it
		}
		for _, c := range verify.Coverage(read, "2026-06-30", pl.Model(m), pl.Query) {
			if c.Status == verify.Fail {
				t.Errorf("%q: %s failed: %s", q, c.Name, c.Detail)
			}
		}
	}
}
