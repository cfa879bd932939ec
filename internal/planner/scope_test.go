package planner

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// goldenQuestions are the questions of every golden file of plans.
func goldenQuestions(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*plans.golden"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden plans: %v", err)
	}
	var qs []string
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if q, ok := strings.CutPrefix(sc.Text(), "### "); ok {
				qs = append(qs, q)
			}
		}
		r.Close()
	}
	return qs
}

// scopeModels are the test models: the demo's knowledge and the models
// written for the planner's tests.
func scopeModels(t *testing.T) map[string]*semantic.Model {
	t.Helper()
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*semantic.Model{
		"demo": f.Model, "test": testModel(), "learned": learnedModel(), "links": linksModel(),
		"pets": petsModel(), "world": worldModel(), "forms": formsModel(), "documents": documentsModel(),
		"share": shareModel(),
	}
}

// TestScopedPlansAsWhole plans every golden question (each against every
// model, so that most meet names they do not know: unknown words,
// suggestions and corrected questions included) with the whole lexicon
// and with the lexicon of the question's scope, as a wide model is
// planned: the plans are the same.
func TestScopedPlansAsWhole(t *testing.T) {
	if raceEnabled {
		// Plans in one goroutine, a minute and more under the race
		// detector; TestConcurrentPlans is the planner's race test.
		t.Skip("runs in the plain test pass")
	}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	qs := append(goldenQuestions(t),
		"French singers", "orders in the UK", "avg order value by channel", "how many people are there",
		"units sold by product", "what did customers buy", "high schoolers by grade", "is official languages",
		"revnue by chanel", "customers in zürich", "how many employees work in IT")
	for name, m := range scopeModels(t) {
		whole, scoped := newPlanner(m, nil, len(m.Entities)), newPlanner(m, nil, -1)
		if whole.wide || !scoped.wide {
			t.Fatalf("%s: wide %v and %v", name, whole.wide, scoped.wide)
		}
		for _, q := range qs {
			want, got := whole.Plan(q, asOf), scoped.Plan(q, asOf)
			if d := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmp.AllowUnexported(Plan{})); d != "" {
				t.Errorf("%s: %q planned otherwise in scope (-whole +scoped):\n%s", name, q, d)
			}
			vals := []Value{{Entity: "customers", Column: "city", Value: "Springfield"}}
			want, got = whole.PlanValues(q+" in Springfield", asOf, vals), scoped.PlanValues(q+" in Springfield", asOf, vals)
			if d := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmp.AllowUnexported(Plan{})); d != "" {
				t.Errorf("%s: %q with a found value planned otherwise in scope (-whole +scoped):\n%s", name, q, d)
			}
		}
	}
}

// TestModelTerms: the terms read without a lexicon are the lexicon's.
func TestModelTerms(t *testing.T) {
	for name, m := range scopeModels(t) {
		if d := cmp.Diff(buildLexicon(m, nil).terms, modelTerms(m), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s (-lexicon +modelTerms):\n%s", name, d)
		}
		if got, want := longestPhrase(m, 3), min(buildLexicon(m, nil).maxLen, 3); got != want {
			t.Errorf("%s: longest phrase %d, the lexicon's %d", name, got, want)
		}
	}
}

// TestProbe: what a question's words admit, by every form the planner
// reads a word in.
func TestProbe(t *testing.T) {
	p := newPlanner(testModel(), nil, -1)
	for _, tc := range []struct {
		question, name string
		want           bool
	}{
		{"how many people", "person", true},             // irregular plural
		{"how many persons", "People", true},            // and back
		{"units sold", "sell_count", true},              // irregular past
		{"what sells best", "units_sold", true},         // its base
		{"happiness by city", "happy_score", true},      // a stem the stemmer changed
		{"categories", "category", true},                // a plural
		{"category", "Categories", true},                // a singular
		{"high schoolers", "Highschooler", true},        // words written together
		{"life expectancy", "LifeExpectancy", true},     // in an identifier
		{"customers in zurich", "Zürich", true},         // accents
		{"customers in zürich", "zurich", true},         // either way
		{"staff in it", "IT", true},                     // a short word, whole
		{"staff in it", "bitrate", false},               // not inside another
		{"revenue by channel", "warehouse_bins", false}, // nothing shared
		{"orders of 1,000 units", "1000", true},         // a number's separators
	} {
		if got := p.probeOf(tc.question).admits(tc.name); got != tc.want {
			t.Errorf("probe of %q admits %q: %v, want %v", tc.question, tc.name, got, tc.want)
		}
	}
}

// TestScopedCoverageAsWhole plans every golden question against every
// model and checks its coverage against the whole model and against the
// model ScopeModel cuts for a wide planner: the checks are the same.
func TestScopedCoverageAsWhole(t *testing.T) {
	if raceEnabled {
		t.Skip("runs in the plain test pass")
	}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	qs := append(goldenQuestions(t),
		"French singers", "orders in the UK", "revenue by customer signup year", "who handled the most tickets",
		"customers with fewer than 2 orders in 2025", "orders by channel placed in 2025", "how many people are there")
	cut, kept, cases, mismatched := 0, 0, 0, 0
	for name, m := range scopeModels(t) {
		var prev *Plan
		whole, scoped, fresh := newPlanner(m, nil, len(m.Entities)), newPlanner(m, nil, -1), newPlanner(m, nil, -1)
		for _, q := range qs {
			pl := whole.Plan(q, asOf)
			if pl.Query == nil {
				continue
			}
			checked := q
			if pl.Read != "" {
				checked = pl.Read
			}
			if wm := pl.Model(m); whole.ScopeModel(checked, wm, pl.Query) != wm {
				t.Fatalf("%s: a planner that is not wide cut the model", name)
			}
			// The scope the plan was made in, kept (scopeMemo), and one
			// read afresh: the same entities.
			scoped.Plan(checked, asOf)
			model := scoped.PlanModel(pl)
			if _, ok := scoped.scopes.of(scoped.scopeText(checked), model.Entities); ok {
				kept++
			}
			sub := scoped.ScopeModel(checked, model, pl.Query)
			again := fresh.ScopeModel(checked, fresh.PlanModel(pl), pl.Query)
			if d := cmp.Diff(entityNames(again), entityNames(sub)); d != "" {
				t.Errorf("%s: %q scoped otherwise from the kept scope (-afresh +kept):\n%s", name, q, d)
			}
			cases++
			if len(sub.Entities) < len(model.Entities) {
				cut++
			}
			want := verify.Coverage(checked, asOf.Format("2006-01-02"), model, pl.Query)
			got := verify.Coverage(checked, asOf.Format("2006-01-02"), sub, pl.Query)
			if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s: %q checked otherwise in scope (-whole +scoped):\n%s", name, q, d)
			}
			// The question held to the query of the question before it:
			// what it says that the query leaves out is found in the
			// scope too (a value, a column, a table of its own).
			if prev != nil {
				pm := scoped.PlanModel(prev)
				want := verify.Coverage(checked, asOf.Format("2006-01-02"), pm, prev.Query)
				got := verify.Coverage(checked, asOf.Format("2006-01-02"), scoped.ScopeModel(checked, pm, prev.Query), prev.Query)
				if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("%s: %q against another question's query checked otherwise in scope (-whole +scoped):\n%s", name, q, d)
				}
				if failed(want) {
					mismatched++
				}
			}
			prev = pl
		}
	}
	// Held to other questions' queries, most questions fail coverage,
	// by what the scope must keep.
	if mismatched*2 < cases {
		t.Errorf("%d questions of %d failed against another question's query", mismatched, cases)
	}
	// The scope must leave entities out, or the test shows nothing.
	if cut*2 < cases {
		t.Errorf("the scope left entities out of %d questions' models of %d", cut, cases)
	}
	if kept*2 < cases {
		t.Errorf("the kept scope served %d questions of %d", kept, cases)
	}
	t.Logf("the scope left entities out of %d questions' models of %d; the kept scope served %d", cut, cases, kept)
}

// entityNames are the names of m's entities.
func entityNames(m *semantic.Model) []string {
	var names []string
	for _, e := range m.Entities {
		names = append(names, e.Name)
	}
	return names
}

// failed reports whether a coverage check failed.
func failed(checks []verify.Check) bool {
	for _, c := range checks {
		if c.Status == verify.Fail {
			return true
		}
	}
	return false
}

// TestFewOptions: a question back offers at most maxOptions readings;
// one with more (a word that names a column or table of thousands on a
// wide schema) is refused, naming a few and how many there are.
func TestFewOptions(t *testing.T) {
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	regional := func(n int) *semantic.Model {
		m := &semantic.Model{}
		for i := range n {
			m.Entities = append(m.Entities, semantic.Entity{Name: fmt.Sprintf("region%d_orders", i), PrimaryKey: "id",
				Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "status", Type: quarry.TypeText}}})
		}
		return m
	}
	for _, tc := range []struct {
		tables int
		want   Kind
	}{{3, KindClarify}, {maxOptions, KindClarify}, {maxOptions + 1, KindUnanswered}, {500, KindUnanswered}} {
		pl := New(regional(tc.tables), nil).Plan("how many orders", asOf)
		if pl.Kind != tc.want {
			t.Errorf("%d tables: %s (%s%s), want %s", tc.tables, pl.Kind, pl.Question, pl.Reason, tc.want)
			continue
		}
		if tc.want == KindUnanswered && !strings.Contains(pl.Reason, fmt.Sprintf("any of %d things", tc.tables)) {
			t.Errorf("%d tables: %q does not say how many readings there are", tc.tables, pl.Reason)
		}
	}
}
