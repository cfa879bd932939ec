package knowledge

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

func TestRenderMetricsRewritesOnlyCandidates(t *testing.T) {
	cands := []semantic.Metric{
		{Name: "total_amount", Description: "Sum of orders.amount.", Entity: "orders", Expr: "SUM(orders.amount)"},
		{Name: "total_qty", Description: "Sum of lines.qty.", Entity: "lines", Expr: "SUM(lines.qty)"},
	}
	section := string(renderCandidates(cands[1:]))
	human := "# mine\nmetrics:\n  - name: amount\n    entity: orders\n    expr: sum( orders.amount )\n"
	tests := []struct {
		name, src, want, warn string
	}{
		{"no section yet", human, human + "\n" + section, ""},
		{"no newline at end", strings.TrimSuffix(human, "\n"), human + "\n" + section, ""},
		{"old section replaced", human + "\n" + candidatesMarker + "\n# old text\ncandidates:\n  - name: old\n    entity: orders\n    expr: COUNT(orders.id)\n", human + "\n" + section, ""},
		{"section without marker", human + "candidates:\n  - name: old\n", human + section, ""},
		{"section not last", human + "candidates: []\ndimensions: []\n", human + "candidates: []\ndimensions: []\n", "metrics.yaml: candidates: is not the last section"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := decodeMetrics([]byte(tt.src))
			got, warn := renderMetrics([]byte(tt.src), doc, cands)
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if !strings.HasPrefix(warn, tt.warn) || (tt.warn == "") != (warn == "") {
				t.Errorf("warning %q, want %q", warn, tt.warn)
			}
			if m := decodeMetrics(got); len(m.d.Problems) > 0 {
				t.Errorf("result does not decode: %v", m.d.Problems)
			}
		})
	}
}
