package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// said is what a surface said about an answered (or unanswered) question,
// in common terms: the comparison TestSurfacesSayTheSame makes.
type said struct {
	Status     string
	SQL        string
	RowCount   float64
	Confidence float64
	Checks     string // name:status, comma-separated
	Message    string // why there is no answer
	Headline   string
	Reading    string // how the question was read (interpretation.text)
	DidYouMean string // the question corrected
}

func reading(v any) string {
	m, _ := v.(map[string]any)
	return str(m["text"])
}

func checksText(v any) string {
	list, _ := v.([]any)
	var out []string
	for _, c := range list {
		m := c.(map[string]any)
		out = append(out, m["name"].(string)+":"+m["status"].(string))
	}
	return strings.Join(out, ",")
}

func str(v any) string  { s, _ := v.(string); return s }
func num(v any) float64 { f, _ := v.(float64); return f }

// TestSurfacesSayTheSame asks the same questions of the demo through
// `quarry ask --json`, POST /ask, the chat's done event and MCP's ask, and
// requires the same status, SQL, row count, checks, confidence, headline,
// reading of the question and reason for no answer from each.
func TestSurfacesSayTheSame(t *testing.T) {
	demo := demoProject(t)
	base := serveForTest(t, demo, nil)
	p := mcpInProcess(t, nil, "-C", demo, "mcp")
	const asOf = "2026-06-30"
	for _, q := range []string{
		"revenue by month in 2025",
		"What was revenue in Q1 2026?",
		"how many flux capacitors did the moon base order",
		"delete all customers",
		"show me the email addresses of our customers",
		"revenue",
		"top customers",                        // unanswered: nothing to rank by
		"customers by status",                  // unanswered: the planner's reason
		"completed orders that were cancelled", // unanswered: conditions that cannot all hold
		"customers with fewer than 2 orders",   // a count per customer, none counting as 0
		"products with fewer than 10 units sold in May 2026", // unanswered: the products with none would be missing
		"revnue by chanel", // unanswered: did you mean revenue by channel?
	} {
		t.Run(q, func(t *testing.T) {
			surfaces := map[string]said{}

			r := quarryCmd(t, "", "-C", demo, "ask", "--as-of", asOf, "--json", q)
			var cli map[string]any
			if err := json.Unmarshal([]byte(r.stdout), &cli); err != nil {
				t.Fatalf("ask --json: exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
			}
			surfaces["cli"] = said{Status: str(cli["status"]), SQL: str(cli["sql"]), RowCount: num(cli["row_count"]), Confidence: num(cli["confidence"]),
				Checks: checksText(cli["checks"]), Message: str(cli["message"]), Headline: str(cli["headline"]), Reading: reading(cli["interpretation"]), DidYouMean: str(cli["did_you_mean"])}

			body, _ := json.Marshal(map[string]string{"question": q, "as_of": asOf})
			res, err := http.Post(base+"/ask", "application/json", strings.NewReader(string(body)))
			if err != nil {
				t.Fatal(err)
			}
			var ask map[string]any
			json.NewDecoder(res.Body).Decode(&ask)
			res.Body.Close()
			data, _ := ask["data"].(map[string]any)
			surfaces["POST /ask"] = said{Status: str(ask["status"]), SQL: str(ask["query"]), RowCount: num(data["rowCount"]), Confidence: num(ask["confidence"]),
				Checks: checksText(ask["checks"]), Message: str(ask["message"]), Headline: str(ask["headline"]), Reading: reading(ask["interpretation"]), DidYouMean: str(ask["did_you_mean"])}

			body, _ = json.Marshal(map[string]string{"message": q, "as_of": asOf})
			res, err = http.Post(base+"/api/chat", "application/json", strings.NewReader(string(body)))
			if err != nil {
				t.Fatal(err)
			}
			done := sseEvent(t, res.Body, "done")
			res.Body.Close()
			answer, _ := done["answer"].(map[string]any)
			surfaces["chat"] = said{Status: str(done["status"]), SQL: str(answer["sql"]), RowCount: num(answer["row_count"]), Confidence: num(answer["confidence"]),
				Checks: checksText(answer["checks"]), Message: str(done["message"]), Headline: str(answer["headline"]), Reading: reading(done["interpretation"]), DidYouMean: str(done["did_you_mean"])}

			_, m := callJSON(t, p.cs, "ask", map[string]any{"question": q, "as_of": asOf})
			surfaces["mcp"] = said{Status: str(m["status"]), SQL: str(m["sql"]), RowCount: num(m["row_count"]), Confidence: num(m["confidence"]),
				Checks: checksText(m["checks"]), Message: str(m["message"]), Headline: str(m["headline"]), Reading: reading(m["interpretation"]), DidYouMean: str(m["did_you_mean"])}

			want := surfaces["cli"]
			if want.Status == "" {
				t.Fatalf("the CLI said nothing: %s", r.stdout)
			}
			if want.Status == "succeeded" && want.Reading == "" {
				t.Errorf("an answer without the reading of its question: %+v", want)
			}
			if strings.Contains(q, "that were cancelled") && (want.Status != "unanswered" || !strings.Contains(want.Message, "cannot all hold")) {
				t.Errorf("contradictory conditions were answered: %+v", want)
			}
			if strings.Contains(q, "fewer than 2 orders") && (want.Status != "succeeded" || !strings.Contains(want.SQL, "customers.id NOT IN (SELECT orders.customer_id FROM orders") || !strings.Contains(want.SQL, "HAVING NOT (COUNT(*) < 2)")) {
				t.Errorf("customers with fewer than 2 orders were not counted per customer, none as 0: %+v", want)
			}
			if strings.Contains(q, "fewer than 10 units") && (want.Status != "unanswered" || !strings.Contains(want.Message, "would be missing")) {
				t.Errorf("a sum that drops the products with none was answered: %+v", want)
			}
			if q == "revnue by chanel" && want.DidYouMean != "revenue by channel" {
				t.Errorf("a misspelt question was not offered corrected: %+v", want)
			}
			for name, got := range surfaces {
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s says otherwise than quarry ask --json (-cli +%s):\n%s", name, name, diff)
				}
			}
		})
	}
}

// sseEvent reads a server-sent event stream up to the first event of the
// given name and returns its JSON data.
func sseEvent(t *testing.T, r io.Reader, name string) map[string]any {
	t.Helper()
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	current := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			current = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && current == name:
			var m map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m); err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	t.Fatalf("no %s event in the stream", name)
	return nil
}
