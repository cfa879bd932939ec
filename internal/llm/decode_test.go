package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/quarry"
)

type verdict struct {
	Kind   string   `json:"kind"`
	Tables []string `json:"tables"`
}

var verdictSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"kind": {"type": "string", "enum": ["unknown_column", "unknown_table", "syntax"]},
		"tables": {"type": "array", "items": {"type": "string"}}
	},
	"required": ["kind"],
	"additionalProperties": false
}`)

func TestExtractJSON(t *testing.T) {
	for _, c := range []struct{ name, in, want, err string }{
		{"plain", `{"kind":"syntax"}`, `{"kind":"syntax"}`, ""},
		{"fenced", "```json\n{\"kind\": \"syntax\"}\n```", `{"kind": "syntax"}`, ""},
		{"fence without language", "```\n[1, 2]\n```", `[1, 2]`, ""},
		{"prose around", "Sure! Here it is:\n{\"kind\":\"syntax\",\"tables\":[\"a}\"]}\nHope this helps {really}.", `{"kind":"syntax","tables":["a}"]}`, ""},
		{"fence inside a string", "The answer:\n```json\n{\"a\":\"```\"}\n```\nDone.", "{\"a\":\"```\"}", ""},
		{"brackets in prose", "Per [the docs] here: {\"kind\":\"syntax\"}", `{"kind":"syntax"}`, ""},
		{"escaped quote", `{"a":"say \"}\" now"} trailing`, `{"a":"say \"}\" now"}`, ""},
		{"truncated", `{"kind":"unknown_column","tables":["ord`, "", "cut off"},
		{"truncated after fence", "```json\n{\"kind\":\"syntax\",", "", "cut off"},
		{"none", "I cannot answer that.", "", "no JSON"},
		{"broken", `{"kind": syntax}`, "", "invalid JSON"},
		{"scalar", ` "syntax" `, `"syntax"`, ""},
	} {
		got, err := llm.ExtractJSON(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: err %v, want %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && string(got) != c.want:
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func newRun(steps ...llmtest.Step) (*llmtest.Provider, *llm.Run) {
	fake := llmtest.NewProvider(steps...)
	return fake, gateway(fake, &llmtest.Sleeper{}, llm.Models{Strong: "big", Cheap: "small"}).Run(llm.Budget{}, nil)
}

func TestDecodeJSONTolerates(t *testing.T) {
	for _, in := range []string{
		`{"kind":"unknown_table","tables":["orders"]}`,
		"```json\n{\"kind\":\"unknown_table\",\"tables\":[\"orders\"]}\n```",
		"The error means a table is missing.\n{\"kind\": \"unknown_table\", \"tables\": [\"orders\"]}\nLet me know if you need more.",
	} {
		fake, run := newRun()
		v, err := llm.DecodeJSON[verdict](context.Background(), run, in, verdictSchema)
		if err != nil || v.Kind != "unknown_table" || len(v.Tables) != 1 {
			t.Errorf("%q: %+v, %v", in, v, err)
		}
		if n := len(fake.Calls()); n != 0 {
			t.Errorf("%q: %d repair calls", in, n)
		}
	}
}

func TestDecodeJSONRepairsOnce(t *testing.T) {
	for _, c := range []struct{ name, in, problem string }{
		{"truncated", `{"kind":"unknown_table","tables":["ord`, "cut off"},
		{"schema", `{"kind":"missing_table"}`, "$.kind is \"missing_table\""},
		{"extra field", `{"kind":"syntax","why":"x"}`, `"why"`},
		{"wrong type", `{"kind":"syntax","tables":"orders"}`, "$.tables should be array"},
		{"no JSON", `It is an unknown table.`, "no JSON"},
	} {
		fake, run := newRun(llmtest.Reply(llmtest.Text("```json\n{\"kind\":\"unknown_table\",\"tables\":[\"orders\"]}\n```")))
		v, err := llm.DecodeJSON[verdict](context.Background(), run, c.in, verdictSchema)
		if err != nil || v.Kind != "unknown_table" {
			t.Errorf("%s: %+v, %v", c.name, v, err)
			continue
		}
		calls := fake.Calls()
		if len(calls) != 1 || calls[0].Model != "small" || calls[0].Request.Tier != llm.TierCheap {
			t.Fatalf("%s: calls %+v", c.name, calls)
		}
		prompt := calls[0].Request.Messages[0].Parts[0].Text
		for _, want := range []string{c.problem, `"additionalProperties": false`, c.in} {
			if !strings.Contains(prompt, want) {
				t.Errorf("%s: the repair prompt lacks %q:\n%s", c.name, want, prompt)
			}
		}
	}
}

func TestDecodeJSONFailsClearly(t *testing.T) {
	fake, run := newRun(llmtest.Reply(llmtest.Text(`{"kind":"unknown_table","tables":["ord`)), llmtest.Reply(llmtest.Text(`{"kind":"syntax"}`)))
	_, err := llm.DecodeJSON[verdict](context.Background(), run, `{"kind":`, verdictSchema)
	if quarry.KindOf(err) != quarry.KindModel || !strings.Contains(quarry.Message(err), "did not return valid JSON, even after one repair") {
		t.Errorf("err %v", err)
	}
	if n := len(fake.Calls()); n != 1 {
		t.Errorf("%d repair calls, want exactly 1", n)
	}
	// With nothing to repair through, bad JSON fails at once.
	if _, err := llm.DecodeJSON[verdict](context.Background(), nil, `nope`, nil); quarry.KindOf(err) != quarry.KindModel {
		t.Errorf("err %v", err)
	}
	// A failed repair call is returned as it is.
	_, run = newRun(llmtest.Fail(quarry.Errorf(quarry.KindModel, "the model is down")))
	if _, err := llm.DecodeJSON[verdict](context.Background(), run, `{`, verdictSchema); quarry.Message(err) != "the model is down" {
		t.Errorf("err %v", err)
	}
}

func TestSchemaValidate(t *testing.T) {
	s, err := llm.ParseSchema(json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"},"x":{"type":["string","null"]},"l":{"type":"array","minItems":1,"maxItems":2}},"required":["n"]}`))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		`{"n":1}`:                "",
		`{"n":1.5}`:              "$.n should be integer",
		`{"n":1,"x":null}`:       "",
		`{"n":1,"x":3}`:          "$.x should be string or null",
		`{"n":1,"l":[]}`:         "fewer than 1",
		`{"n":1,"l":[1,2,3]}`:    "more than 2",
		`{"x":"a"}`:              `lacks the required field "n"`,
		`[1]`:                    "$ should be object, not an array",
		`{"n":1,"other":"fine"}`: "",
	} {
		var v any
		_ = json.Unmarshal([]byte(in), &v)
		err := s.Validate(v)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
