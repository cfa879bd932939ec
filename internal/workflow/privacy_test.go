package workflow

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// tiered is a Known that knows the tier of the connection questions run
// on.
type tiered struct {
	known
	tier quarry.Privacy
}

func (k tiered) Privacy() quarry.Privacy { return k.tier }

// rowsIntoQuestion carries rows' values of a query node (its labels and
// values, directly and through a computation) into the questions of
// later ask nodes, which go to the language model; the last asks with a
// parameter only.
const rowsIntoQuestion = `name: leak
params:
- name: region
  default: north
nodes:
- id: who
  kind: query
  sql: SELECT name, salary FROM people
  next: label
- id: label
  kind: ask
  question: 'what does {{ who.labels[0] }} earn, and who else earns {{ who.values[0] }}?'
  next: doubled
- id: doubled
  kind: compute
  expr: who.values[0] * 2
  next: again
- id: again
  kind: ask
  question: 'who earns {{ doubled.value }}?'
  next: typed
- id: typed
  kind: ask
  question: 'revenue in {{ region }}'
  next: done
- id: done
  kind: end
`

// TestRowsIntoQuestionUnderATier: under a restricted tier validation
// names every ask node whose question reads an earlier node's output, and
// a run stops at the first without asking it; parameters are fine, and
// under full nothing changes.
func TestRowsIntoQuestionUnderATier(t *testing.T) {
	for _, tier := range quarry.Privacies() {
		t.Run(string(tier), func(t *testing.T) {
			w, probs := Decode("leak.yaml", []byte(rowsIntoQuestion))
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			_, probs = Validate(w, tiered{tier: tier})
			var lines []string
			for _, p := range probs {
				lines = append(lines, p.Path+": "+p.Msg)
			}
			restricted := tier != quarry.PrivacyFull
			if want := map[bool]int{true: 2, false: 0}[restricted]; len(probs) != want {
				t.Fatalf("problems %q, want %d", lines, want)
			}
			if restricted && (!strings.Contains(lines[0], "who is an earlier step's output") || !strings.Contains(lines[1], "doubled is") || !strings.Contains(lines[0], string(tier))) {
				t.Errorf("problems %q", lines)
			}
			g, _ := Validate(w, known{})
			steps := &fakeSteps{answers: map[string][]float64{"SELECT name, salary FROM people": {731947}}}
			r := &Runner{Workflow: w, Graph: g, Steps: steps, Sink: &memSink{}, Clock: clock(), Privacy: tier}
			st, err := r.Start(context.Background(), "wf1", nil, event.RunStartedData{})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range steps.asked {
				if restricted && strings.Contains(q, "731947") {
					t.Errorf("under %s the question %q carries a row's value", tier, q)
				}
			}
			if restricted && (st.Status != StatusStopped || !strings.Contains(st.Message, "may fill in parameters only")) {
				t.Errorf("status %s (%s), want stopped on the question", st.Status, st.Message)
			}
			if !restricted && len(steps.asked) < 2 {
				t.Errorf("under full the questions were not asked: %v", steps.asked)
			}
		})
	}
	// A question that fills in parameters only passes under any tier.
	w := &Workflow{Params: []Param{{Name: "region"}}, Nodes: []Node{{ID: "q", Kind: Ask, Question: "revenue in {{ region }}"}}}
	if msg := RowsInQuestion(w, &w.Nodes[0], quarry.PrivacySchema); msg != "" {
		t.Errorf("a parameter was refused: %s", msg)
	}
}
