package narrate

import (
	"testing"
)

func TestTerminal(t *testing.T) {
	md := "Revenue was **$1.00** in **2025**.\n\n| k | v |\n| --- | ---: |\n| a \\| b | 1 |\n| long name | 1,234 |\n\n```sql\nSELECT 1\n```\nnot **closed"
	tests := []struct {
		color bool
		want  string
	}{
		{false, "Revenue was $1.00 in 2025.\n\nk              v\n─────────  ─────\na | b          1\nlong name  1,234\n\n    SELECT 1\nnot **closed\n"},
		{true, "Revenue was \x1b[1m$1.00\x1b[0m in \x1b[1m2025\x1b[0m.\n\n\x1b[1mk\x1b[0m              \x1b[1mv\x1b[0m\n─────────  ─────\na | b          1\nlong name  1,234\n\n    SELECT 1\nnot **closed\n"},
	}
	for _, tt := range tests {
		if got := Terminal(md, tt.color); got != tt.want {
			t.Errorf("Terminal(color=%v) =\n%q\nwant\n%q", tt.color, got, tt.want)
		}
	}
	if Plain(md) != Terminal(md, false) {
		t.Error("Plain differs from Terminal without color")
	}
}

func TestSQLBlock(t *testing.T) {
	tests := []struct{ sql, want string }{
		{"SELECT 1", "```sql\nSELECT 1\n```\n"},
		{"\n  SELECT a   \r\nFROM t  \n\n", "```sql\n  SELECT a\nFROM t\n```\n"},
		{"SELECT '```' AS x", "````sql\nSELECT '```' AS x\n````\n"},
	}
	for _, tt := range tests {
		if got := SQLBlock(tt.sql); got != tt.want {
			t.Errorf("SQLBlock(%q) = %q, want %q", tt.sql, got, tt.want)
		}
	}
}
