package workflow

import "testing"

// TestExprEdges holds the expression language to what docs/workflows.md says:
// typed list functions, typed choices, and no let, predicates, ranges,
// regular expressions, mappings or inexact integers.
func TestExprEdges(t *testing.T) {
	env := map[string]any{"ch": AnswerOutput{Values: []float64{1, 2, 6}}, "tot": AnswerOutput{Value: 3, HasValue: true}}
	for _, c := range []struct{ src, want string }{
		{"mean(ch.values)", "number"}, {"max(ch.values)", "number"}, {"max(1, 2, 3)", "number"}, {"tot.has_value ? tot.value : 0", "number"},
		{"mean(ch.values) + 0", "number"}, {"sum(ch.values) / 2", "number"},
	} {
		cp, err := compile(c.src, env, "", false)
		if err != nil || string(cp.typ) != c.want {
			t.Errorf("%s: %v %v", c.src, cp.typ, err)
			continue
		}
		v, err := cp.eval(env)
		t.Logf("%s = %v %v", c.src, v, err)
	}
	for _, src := range []string{"let a = 1; a", "filter(ch.values, # > 1)", "count(ch.values, # > 1)", "1..10", "'a' matches 'b'", "{'a': 1}", "9223372036854775807 + 1"} {
		if _, err := compile(src, env, "", false); err == nil {
			t.Errorf("%s accepted", src)
		} else {
			t.Logf("%s: %v", src, err)
		}
	}
}
