package planner

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

func TestPlanModelAddsAdHocWithoutMutatingBase(t *testing.T) {
	m := testModel()
	before := len(m.Metrics)
	pl := New(m, nil).Plan("how many employees are there", asOf)
	if pl.Kind != KindMetric || len(pl.AdHoc) != 1 {
		t.Fatalf("plan = %+v", pl)
	}
	got := pl.Model(m)
	if len(got.Metrics) != before+1 || got.Metric(pl.AdHoc[0].Name) == nil {
		t.Errorf("Model has %d metrics, want %d with %s", len(got.Metrics), before+1, pl.AdHoc[0].Name)
	}
	if len(m.Metrics) != before || m.Metric(pl.AdHoc[0].Name) != nil {
		t.Error("Model changed the base model")
	}
	if _, err := semantic.Compile(got, *pl.Query, quarry.DialectSQLite); err != nil {
		t.Errorf("compile: %v", err)
	}
}

func TestVerifiedMatchIsNormalised(t *testing.T) {
	p := New(testModel(), []Verified{{Question: "What is our revenue by plan?", SQL: "SELECT 1"}})
	for _, q := range []string{"what is our revenue by plan", "  WHAT IS OUR REVENUE BY PLAN ?? ", "What is our revenue, by plan"} {
		if pl := p.Plan(q, asOf); pl.Kind != KindVerified || pl.SQL != "SELECT 1" {
			t.Errorf("Plan(%q) = %s, want the verified query", q, pl.Kind)
		}
	}
	if pl := p.Plan("what is our revenue by plan last year", asOf); pl.Kind == KindVerified {
		t.Error("a longer question matched a verified one")
	}
}

func TestUnansweredSaysWhatItUnderstood(t *testing.T) {
	pl := New(testModel(), nil).Plan("revenue by countyr in 2025", asOf)
	if pl.Kind != KindUnanswered {
		t.Fatalf("kind = %s", pl.Kind)
	}
	if diff := cmp.Diff([]string{"countyr"}, pl.Unknown); diff != "" {
		t.Errorf("Unknown (-want +got):\n%s", diff)
	}
	if !slices.Contains(pl.Suggestions, "country") {
		t.Errorf("Suggestions = %v, want country among them", pl.Suggestions)
	}
	if pl.Reason == "" {
		t.Error("no reason")
	}
}

func TestWriteRequests(t *testing.T) {
	p := New(testModel(), nil)
	for _, q := range []string{
		"delete orders from 2024", "Please remove the customer Bob", "can you update the plans", "truncate orders",
		"INSERT INTO orders VALUES (1)", "drop table orders", "change the price of product 3", "add a new product",
		"set unit price to 5 for Books", "mark order 5 as refunded", "refund order 17", "cancel all pending orders",
	} {
		if pl := p.Plan(q, asOf); pl.Kind != KindRefuse {
			t.Errorf("Plan(%q) = %s, want refuse", q, pl.Kind)
		}
	}
	for _, q := range []string{"change in revenue this month vs last month", "cancelled orders by month", "refunded orders in 2025"} {
		if pl := p.Plan(q, asOf); pl.Kind == KindRefuse {
			t.Errorf("Plan(%q) refused: %s", q, pl.Reason)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct{ in, plural, singular string }{
		{"country", "countries", "country"},
		{"countries", "countries", "country"},
		{"category", "categories", "category"},
		{"order", "orders", "order"},
		{"status", "status", "status"},
		{"box", "boxes", "box"},
		{"boxes", "boxes", "box"},
		{"day", "days", "day"},
	}
	for _, tt := range tests {
		if got := plural(tt.in); got != tt.plural {
			t.Errorf("plural(%q) = %q, want %q", tt.in, got, tt.plural)
		}
		if got := singular(tt.in); got != tt.singular {
			t.Errorf("singular(%q) = %q, want %q", tt.in, got, tt.singular)
		}
	}
	if d := distance("countyr", "country"); d != 2 {
		t.Errorf("distance = %d", d)
	}
	if got := normalise("  What's  the REVENUE?! "); got != "what s the revenue" {
		t.Errorf("normalise = %q", got)
	}
}

func FuzzPlan(f *testing.F) {
	for _, tt := range modelQuestions {
		f.Add(tt.q)
	}
	f.Add("top 0 products by revenue")
	f.Add("between 2025 and")
	f.Add("more than more than 5 5 orders")
	f.Add("ünïcödé revenue ½")
	m := testModel()
	p := New(m, nil)
	f.Fuzz(func(t *testing.T, q string) {
		pl := p.Plan(q, asOf)
		switch pl.Kind {
		case KindMetric, KindRows:
			if pl.Query == nil {
				t.Fatalf("%s plan without a query for %q", pl.Kind, q)
			}
			// A plan must compile or fail cleanly; never panic.
			_, _ = semantic.Compile(pl.Model(m), *pl.Query, quarry.DialectSQLite)
		case KindClarify:
			if pl.Question == "" || len(pl.Options) < 2 {
				t.Fatalf("clarify without a question and options for %q: %+v", q, pl)
			}
		case KindRefuse, KindUnanswered:
			if pl.Reason == "" {
				t.Fatalf("%s without a reason for %q", pl.Kind, q)
			}
		case KindVerified:
		default:
			t.Fatalf("unknown kind %q", pl.Kind)
		}
	})
}

// BenchmarkPlan plans and compiles a mix of questions, one per iteration.
func BenchmarkPlan(b *testing.B) {
	m := testModel()
	p := New(m, nil)
	qs := make([]string, 0, len(modelQuestions))
	for _, tt := range modelQuestions {
		qs = append(qs, tt.q)
	}
	b.ReportAllocs()
	planLoop(b, p, m, qs)
}

// planLoop plans and compiles the questions in turn, one per iteration,
// and reports the 95th percentile of a question's time.
func planLoop(b *testing.B, p *Planner, m *semantic.Model, qs []string) {
	var times []time.Duration
	i := 0
	for b.Loop() {
		q := qs[i%len(qs)]
		i++
		t0 := time.Now()
		pl := p.Plan(q, asOf)
		if pl.Query != nil {
			if _, err := semantic.Compile(pl.Model(m), *pl.Query, quarry.DialectSQLite); err != nil {
				b.Fatalf("%q: %v", q, err)
			}
		}
		times = append(times, time.Since(t0))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "ms-p95")
}

// BenchmarkPlanWide plans and compiles questions over a 1,000-table
// schema (eight columns each, a foreign key to a parent table: ten
// children each, three levels deep) and
// reports the 95th percentile per question beside the mean; the target
// is under 5 ms.
func BenchmarkPlanWide(b *testing.B) {
	m := wideModel(1000)
	p := New(m, nil)
	qs := []string{
		"how many widget 500 rows", "average amount of widget 17 by category", "top 5 widget 300 by amount",
		"widget 42 created in 2025", "list widget 999 with an amount above 100", "total amount of widget 7 in Gold",
		"widget 25 with fewer than 2 widget 251", "how many widgets 10", "amount of widget 600 last month by week",
	}
	planLoop(b, p, m, qs)
}

// BenchmarkPlanTenThousand plans the same questions over a 10,000-table
// schema, where the lexicon is built per question (scope.go), and
// reports what New takes beside the 95th percentile per question. Every
// table's name shares the word "widget" with every question, the worst
// case of a scope: each question admits every table.
func BenchmarkPlanTenThousand(b *testing.B) {
	m := wideModel(10000)
	t0 := time.Now()
	p := New(m, nil)
	b.ReportMetric(float64(time.Since(t0).Microseconds())/1000, "ms-new")
	qs := []string{"how many widget 500 rows", "average amount of widget 17 by category", "top 5 widget 300 by amount"}
	planLoop(b, p, m, qs)
}

// wideModel is a schema of n tables named "widget_<i>".
func wideModel(n int) *semantic.Model {
	m := &semantic.Model{}
	for i := range n {
		name := fmt.Sprintf("widget_%d", i)
		m.Entities = append(m.Entities, semantic.Entity{Name: name, PrimaryKey: "id", TimeColumn: "created_at", Label: "name",
			Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "category", Type: quarry.TypeText, Values: []string{"Gold", "Silver", "Bronze"}},
				{Name: "amount", Type: quarry.TypeFloat}, {Name: "created_at", Type: quarry.TypeDate},
				{Name: "parent_id", Type: quarry.TypeInt}, {Name: "note", Type: quarry.TypeText}, {Name: "score", Type: quarry.TypeInt},
			}})
		if i > 0 {
			m.Relationships = append(m.Relationships, semantic.Relationship{From: name, FromColumn: "parent_id", To: fmt.Sprintf("widget_%d", (i-1)/10), ToColumn: "id", Cardinality: semantic.ManyToOne})
		}
	}
	return m
}
