package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// askOut is what `quarry ask --json` writes, as far as the question
// tests read it.
type askOut struct {
	Status     string   `json:"status"`
	Answer     string   `json:"answer"`
	Message    string   `json:"message"`
	Understood []string `json:"understood"`
	SQL        string   `json:"sql"`
	Rows       [][]any  `json:"rows"`
	Columns    []struct {
		Name string `json:"name"`
	} `json:"columns"`
	Checks         []checkOut `json:"checks"`
	Interpretation struct {
		Text string `json:"text"` // the "Read as" line
	} `json:"interpretation"`
	Plan struct {
		Options []string `json:"options"` // a question asked back: the questions to pick
	} `json:"plan"`
}

// rowStrings is each row of the answer as its cells joined by "|".
func (o askOut) rowStrings() []string {
	var got []string
	for _, row := range o.Rows {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = fmt.Sprint(c)
		}
		got = append(got, strings.Join(cells, "|"))
	}
	return got
}

// checkOut is one check of an answer.
type checkOut struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
}

// askAt asks the project in dir question q as of the day asOf, with
// --json, and decodes the answer; output that is not JSON fails the test.
func askAt(t *testing.T, dir, asOf, q string) askOut {
	t.Helper()
	r := quarryCmd(t, "", "-C", dir, "ask", "--as-of", asOf, "--json", q)
	var out askOut
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	return out
}
