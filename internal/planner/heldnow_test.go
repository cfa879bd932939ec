package planner

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestHeldNow: "how many subscriptions do we have" of a table whose
// status holds "active" asks whether every row on record or the active
// ones are meant (found from outside: 2,500, cancelled and paused ones
// included, where a manager meant the active ones); a count with a
// period, a status said, or "in all" is answered as before.
func TestHeldNow(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "subscriptions", Table: "subscriptions", PrimaryKey: "sub_id", TimeColumn: "start_dt", Columns: []semantic.Column{
				col("sub_id", quarry.TypeInt), col("start_dt", quarry.TypeDate),
				{Name: "status", Type: quarry.TypeText, Values: []string{"Active", "active", "cancelled", "paused"}},
				{Name: "tier", Type: quarry.TypeText, Values: []string{"Gold", "Silver"}}}},
			{Name: "invoices", Table: "invoices", PrimaryKey: "invoice_id", TimeColumn: "issued_dt", Columns: []semantic.Column{
				col("invoice_id", quarry.TypeInt), col("issued_dt", quarry.TypeDate),
				col("sub_id", quarry.TypeInt),
				{Name: "inv_status", Type: quarry.TypeText, Values: []string{"paid", "void"}}}},
		},
		Relationships: []semantic.Relationship{{From: "invoices", FromColumn: "sub_id", To: "subscriptions", ToColumn: "sub_id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q    string
		want Kind
	}{
		{"how many subscriptions do we have", KindClarify},
		{"how many subscriptions do we currently have?", KindClarify},
		{"how many subscriptions are there right now", KindClarify},
		{"how many active subscriptions do we have", KindMetric},
		{"how many subscriptions in all", KindMetric},
		{"how many subscriptions did we have in 2024", KindMetric},
		{"how many subscriptions started in 2025", KindMetric},
		{"how many invoices do we have", KindMetric},
		// A count of a value, replanned as a count of its rows, is asked
		// of too, with the value kept in the options.
		{"how many Paused subscriptions do we have", KindMetric},
		{"how many Gold subscriptions do we have?", KindClarify},
		// The state asked of now is another's (found from outside: "how
		// many patients are currently admitted" asked all or active
		// patients).
		{"how many subscriptions currently have a void invoice", KindMetric},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if pl.Kind != tt.want {
				t.Fatalf("kind %s (%s %q); want %s", pl.Kind, pl.Reason, pl.Question, tt.want)
			}
			if pl.Kind == KindClarify {
				for _, o := range pl.Options {
					again := p.Plan(o, asOf)
					if again.Kind != KindMetric {
						t.Errorf("the option %q is %s (%s), not an answer", o, again.Kind, again.Reason)
						continue
					}
					if strings.Contains(tt.q, "Gold") && !slices.ContainsFunc(again.Query.Filters, func(f semantic.Filter) bool { return strings.HasSuffix(f.Field, "tier") }) {
						t.Errorf("the option %q drops the tier: %+v", o, again.Query.Filters)
					}
				}
			}
		})
	}
}
