package workflow

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// texts are values a generated workflow's text fields take: plain,
// needing quotes, spanning lines, with placeholders and odd characters.
var texts = []string{
	"revenue last week", "orders: the count", "it's done", "#1 product", "yes", "- dash", "a\nb", "line\nwith trailing newline\n",
	"  leading space", "tab\there", "quote \" and \\ backslash", "ünïcødé ✓", "{{ p0 }} revenue", "null", "123", "[x]", "a: b # c",
}

// randomWorkflow builds a valid workflow: a chain of steps with branches
// that skip ahead (so the graph is a DAG, every node reachable), each
// expression reading only nodes on every path before it.
func randomWorkflow(r *rand.Rand) *Workflow {
	w := &Workflow{Name: fmt.Sprintf("wf-%d", r.IntN(1000))}
	if r.IntN(2) == 0 {
		w.Description = texts[r.IntN(len(texts))]
	}
	w.Params = append(w.Params, Param{Name: "p0", Type: Text, Default: "last week"})
	if r.IntN(2) == 0 {
		w.Params = append(w.Params, Param{Name: "p1", Type: Number, Default: fmt.Sprint(r.IntN(100)), Description: texts[r.IntN(len(texts))]})
	}
	n := 2 + r.IntN(12)
	id := func(i int) string { return fmt.Sprintf("n%d", i) }
	// Nodes on every path: the chain's non-branch-skipped nodes. Keep it
	// simple: expressions read only the first node, an ask that every
	// path passes.
	w.Nodes = append(w.Nodes, Node{ID: id(0), Kind: Ask, Question: texts[r.IntN(len(texts))], Next: id(1), Retries: r.IntN(3)})
	for i := 1; i < n; i++ {
		nd := Node{ID: id(i), Next: id(i + 1)}
		if r.IntN(3) == 0 {
			nd.Title = texts[r.IntN(len(texts))]
		}
		switch r.IntN(6) {
		case 0:
			nd.Kind, nd.Question = Ask, texts[r.IntN(len(texts))]
			if r.IntN(2) == 0 {
				nd.MinConfidence = float64(r.IntN(10)) / 10
			}
		case 1:
			nd.Kind, nd.Expr = Compute, "n0.value * 2 + 1"
		case 2:
			nd.Kind, nd.Expr, nd.Next = Branch, "n0.value > 3", ""
			nd.Then, nd.Else = id(i+1), id(min(n, i+1+r.IntN(3)))
		case 3:
			nd.Kind, nd.Approval = Wait, texts[r.IntN(len(texts))]
		case 4:
			nd.Kind, nd.Message = Notify, texts[r.IntN(len(texts))]+" {{ n0.value }}"
			if r.IntN(2) == 0 {
				nd.Channels = []string{"team", "ops-mail"}
			}
		default:
			nd.Kind, nd.SQL = Query, "SELECT 1 AS n\nFROM t"
		}
		w.Nodes = append(w.Nodes, nd)
	}
	w.Nodes = append(w.Nodes, Node{ID: id(n), Kind: End, Message: texts[r.IntN(len(texts))], Status: []string{"", Completed, Stopped}[r.IntN(3)]})
	return w
}

// TestRoundTripGenerated holds generated valid workflows to the canonical
// form: Encode, then Decode gives the workflow back, and encodes to the
// same bytes; and the editor's model (the workflow as JSON) encodes to the
// same bytes too.
func TestRoundTripGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ignore := cmpopts.IgnoreFields(Workflow{}, "File", "Line", "lines")
	ignoreLines := cmp.Options{ignore, cmpopts.IgnoreFields(Node{}, "Line"), cmpopts.IgnoreFields(Param{}, "Line"), cmpopts.IgnoreUnexported(Workflow{})}
	for i := range 500 {
		w := randomWorkflow(r)
		if _, probs := Validate(w, nil); len(probs) > 0 {
			t.Fatalf("generated workflow %d is invalid: %v\n%s", i, probs, Encode(w))
		}
		first := Encode(w)
		back, _, probs := Check("gen.yaml", first, nil)
		if len(probs) > 0 {
			t.Fatalf("workflow %d: its encoding does not check: %v\n%s", i, probs, first)
		}
		if d := cmp.Diff(w, back, ignoreLines); d != "" {
			t.Fatalf("workflow %d: decode(encode(w)) differs (-want +got):\n%s\n%s", i, d, first)
		}
		if again := Encode(back); string(again) != string(first) {
			t.Fatalf("workflow %d: encoding is not stable:\n%s\n---\n%s", i, first, again)
		}
		js, err := json.Marshal(back)
		if err != nil {
			t.Fatal(err)
		}
		var fromJSON Workflow
		if err := json.Unmarshal(js, &fromJSON); err != nil {
			t.Fatal(err)
		}
		if again := Encode(&fromJSON); string(again) != string(first) {
			t.Fatalf("workflow %d: YAML → JSON → YAML differs:\n%s\n---\n%s", i, first, again)
		}
	}
}

// FuzzCheck feeds arbitrary text to the decoder and validator: no input
// may panic, and whatever checks clean encodes to a form that checks
// clean and encodes to itself.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	more, _ := filepath.Glob("../demo/knowledge/workflows/*.yaml")
	for _, p := range append(files, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		w, _, probs := Check("f.yaml", src, nil)
		if w == nil || len(probs) > 0 {
			return
		}
		enc := Encode(w)
		back, _, probs := Check("f.yaml", enc, nil)
		if len(probs) > 0 {
			t.Fatalf("a valid workflow encodes to one with problems: %v\n%s", probs, enc)
		}
		if again := Encode(back); string(again) != string(enc) {
			t.Fatalf("encoding is not stable:\n%s\n---\n%s", enc, again)
		}
		if strings.Contains(string(enc), "\x00") {
			t.Fatalf("NUL in the encoding")
		}
	})
}
