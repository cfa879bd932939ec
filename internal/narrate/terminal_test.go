package narrate

import (
	"strings"
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

// TestSafe: escape sequences, bells, carriage returns, bidirectional
// overrides and invalid UTF-8 from the data never reach a terminal; line
// breaks, tabs, accents and a real U+FFFD stay.
func TestSafe(t *testing.T) {
	for in, want := range map[string]string{
		"web":                                "web",
		"\x1b]52;c;cHduZWQ=\x07\x1b[2Jweb\r": "\ufffd]52;c;cHduZWQ=\ufffd\ufffd[2Jweb\ufffd",
		"a\tb\nc":                            "a\tb\nc",
		"Zoë \u202eevil\u202c":               "Zoë \ufffdevil\ufffd",
		"bad \xff byte, real \ufffd":         "bad \ufffd byte, real \ufffd",
		"nul\x00 c1\u009b":                   "nul\ufffd c1\ufffd",
	} {
		if got := Safe(in); got != want {
			t.Errorf("Safe(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Terminal("| channel | n |\n| --- | ---: |\n| \x1b[2Jweb | 1 |\n", true); strings.Contains(got, "\x1b[2J") {
		t.Errorf("Terminal kept the data's escape: %q", got)
	}
}
