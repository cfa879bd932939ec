package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/narrate"
)

// TestAskPrintsSQLWithoutAFence checks that an answer in a terminal shows
// its SQL as an indented block, not inside a Markdown ```sql fence, while
// an answer written to a pipe stays Markdown.
func TestAskPrintsSQLWithoutAFence(t *testing.T) {
	out := &analyst.AskOutcome{
		RunID: "r_01TEST", AsOf: "2026-06-30", Rows: 1,
		SQL:    "SELECT count(*) AS customers  \r\nFROM customers\r\n\r\nWHERE country = 'Germany'\n",
		Answer: narrate.Answer{Markdown: "There are **20** customers in Germany."},
	}
	var b bytes.Buffer
	a := &app{stdout: &b, tty: true, width: 80}
	a.printAnswer(out, nil)
	got := b.String()
	if strings.Contains(got, "```") {
		t.Errorf("the terminal answer has a Markdown fence:\n%s", got)
	}
	want := "\nSQL\n    SELECT count(*) AS customers\n    FROM customers\n\n    WHERE country = 'Germany'\n"
	if !strings.Contains(got, want) {
		t.Errorf("the terminal answer does not show the SQL as\n%q\ngot\n%q", want, got)
	}

	b.Reset()
	a.tty = false
	a.printAnswer(out, nil)
	if !strings.Contains(b.String(), "```sql\nSELECT count(*)") {
		t.Errorf("the piped answer is not Markdown:\n%s", b.String())
	}
}
