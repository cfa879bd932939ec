package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/workflow"
)

// BenchmarkRunOneRow is a whole `quarry run` of a one-row statement in
// process: config, state store, connection, guard, execution, events.
// bench/run.sh times the same thing as a whole process against the
// sqlite3 shell.
func BenchmarkRunOneRow(b *testing.B) {
	dir := project(&testing.T{})
	env := func(string) (string, bool) { return "", false }
	for b.Loop() {
		if code := run(context.Background(), []string{"-C", dir, "run", "--format", "csv", "SELECT * FROM orders WHERE id = 42"}, strings.NewReader(""), io.Discard, io.Discard, env); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// workflow50 is a 50-node workflow on the demo: ten questions, and forty
// computations, branches and notifications over their answers.
func workflow50() string {
	qs := []string{"revenue last week", "orders last week", "revenue last month", "orders last month", "completed orders last month",
		"revenue 2 weeks ago", "revenue by channel last month", "top 5 products by revenue last week", "refund rate last month", "average order value last month"}
	var b strings.Builder
	b.WriteString("name: fifty\nnodes:\n")
	n := 0
	node := func(body string) {
		fmt.Fprintf(&b, "- id: n%d\n%s  next: n%d\n", n, body, n+1)
		n++
	}
	for i, q := range qs {
		node(fmt.Sprintf("  kind: ask\n  question: %s\n", q))
		ask := n - 1
		node(fmt.Sprintf("  kind: compute\n  expr: sum(n%d.values) * 2\n", ask))
		node(fmt.Sprintf("  kind: compute\n  expr: n%d.value / 2 + n%d.rows\n", n-1, ask))
		if i < 9 {
			fmt.Fprintf(&b, "- id: n%d\n  kind: branch\n  if: n%d.value > 0\n  then: n%d\n  else: n%d\n", n, n-1, n+1, n+1)
			n++
			node(fmt.Sprintf("  kind: notify\n  message: \"step %d: {{ n%d.value }}\"\n", i, n-2))
		}
	}
	fmt.Fprintf(&b, "- id: n%d\n  kind: end\n", n)
	return b.String()
}

// BenchmarkWorkflow50 runs the 50-node workflow through the CLI in
// process and reports the workflow's own overhead per node: the run's
// time less the time of the runs its questions made, over 50 (target <
// 10 ms). The baseline, BenchmarkWorkflow50/asks, asks the same ten
// questions with quarry ask, one command each.
func BenchmarkWorkflow50(b *testing.B) {
	dir := workflowProject(&testing.T{}, demoProject(&testing.T{}), map[string]string{"workflows/fifty.yaml": workflow50()})
	env := func(string) (string, bool) { return "", false }
	b.Run("workflow", func(b *testing.B) {
		var overhead, nodes float64
		for b.Loop() {
			var out bytes.Buffer
			if code := run(context.Background(), []string{"-C", dir, "workflow", "run", "fifty", "--as-of", "2026-06-30", "--json"}, strings.NewReader(""), &out, io.Discard, env); code != 0 {
				b.Fatalf("exit %d: %s", code, out.String())
			}
			var st workflow.State
			if err := json.Unmarshal(out.Bytes(), &st); err != nil {
				b.Fatal(err)
			}
			child := 0.0
			for _, n := range st.Nodes {
				if n.RunID == "" {
					continue
				}
				var rs struct {
					Duration time.Duration `json:"duration_ns"`
				}
				var o bytes.Buffer
				run(context.Background(), []string{"-C", dir, "runs", "show", n.RunID, "--json"}, strings.NewReader(""), &o, io.Discard, env)
				if err := json.Unmarshal(o.Bytes(), &rs); err != nil {
					b.Fatalf("runs show %s: %v", n.RunID, err)
				}
				child += float64(rs.Duration.Microseconds()) / 1000
			}
			overhead += float64(st.Duration.Microseconds())/1000 - child
			nodes += float64(len(st.Nodes))
		}
		b.ReportMetric(overhead/nodes, "overhead-ms/node")
	})
	b.Run("asks", func(b *testing.B) {
		for b.Loop() {
			for _, q := range []string{"revenue last week", "orders last week", "revenue last month", "orders last month", "completed orders last month",
				"revenue 2 weeks ago", "revenue by channel last month", "top 5 products by revenue last week", "refund rate last month", "average order value last month"} {
				if code := run(context.Background(), []string{"-C", dir, "ask", "--as-of", "2026-06-30", q}, strings.NewReader(""), io.Discard, io.Discard, env); code != 0 {
					b.Fatalf("ask %q: exit %d", q, code)
				}
			}
		}
	})
}
