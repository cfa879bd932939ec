package analyst

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

func TestOutcomeOf(t *testing.T) {
	answered := &AskOutcome{RunID: "r_1", Status: "succeeded", SQL: "SELECT 1", Rows: 1,
		Answer: narrate.Answer{Markdown: "It is **1**.", Headline: "It is 1."},
		Report: verify.Report{Checks: []verify.Check{{Name: "empty_result", Status: "pass"}}, Confidence: 1}}
	o := OutcomeOf(answered, nil)
	if o.Status != Answered || o.Message != "" || o.Headline != "It is 1." || o.Confidence != 1 || len(o.Checks) != 1 || o.RowCount != 1 {
		t.Errorf("answered: %+v", o)
	}
	if o.NotAnswered() {
		t.Error("an answer reads as not answered")
	}

	unanswered := &AskOutcome{RunID: "r_2", Status: "unanswered", Message: "some words are not terms quarry knows;\nnot understood: flux",
		Plan: &planner.Plan{Kind: planner.KindUnanswered, Reason: "some words are not terms quarry knows", Unknown: []string{"flux"}, Suggestions: []string{"revenue"}}}
	o = OutcomeOf(unanswered, quarry.Errorf(quarry.KindUnanswered, "ignored: the outcome's own message wins"))
	if o.Status != Unanswered || o.Message != "some words are not terms quarry knows; not understood: flux" || o.ErrorKind != quarry.KindUnanswered || !o.NotAnswered() {
		t.Errorf("unanswered: %+v", o)
	}
	text := o.Explain()
	for _, want := range []string{"did not guess", "some words are not terms quarry knows\n", "Not understood: flux", "Closest known terms: revenue"} {
		if !strings.Contains(text, want) {
			t.Errorf("Explain lacks %q:\n%s", want, text)
		}
	}

	clarify := &AskOutcome{RunID: "r_3", Status: "clarify", Plan: &planner.Plan{Kind: planner.KindClarify, Question: "revenue of orders or of subscriptions?", Options: []string{"orders", "subscriptions"}}}
	o = OutcomeOf(clarify, quarry.Errorf(quarry.KindUnanswered, "two meanings fit the question"))
	if o.Status != Clarify || o.Clarify == "" || len(o.Options) != 2 || !strings.Contains(o.Explain(), "- subscriptions") {
		t.Errorf("clarify: %+v\n%s", o, o.Explain())
	}

	// No outcome at all: the error decides the status.
	for err, want := range map[error]Status{
		quarry.Errorf(quarry.KindForbidden, "restricted"): Refused,
		quarry.Errorf(quarry.KindCanceled, "stopped"):     Canceled,
		context.Canceled:   Canceled,
		errors.New("boom"): Failed,
	} {
		if o := OutcomeOf(nil, err); o.Status != want || o.Message == "" {
			t.Errorf("OutcomeOf(nil, %v) = %s %q; want %s", err, o.Status, o.Message, want)
		}
	}
	if o := OutcomeOf(nil, nil); o.Status != Failed {
		t.Errorf("no outcome, no error: %s", o.Status)
	}
}

// TestExplainWaiting: a proposed query waiting for its result says so and
// shows the query (found from outside: MCP's ask in a project without a
// connection said "I could not answer that with confidence").
func TestExplainWaiting(t *testing.T) {
	o := OutcomeOf(&AskOutcome{RunID: "r_1", Status: string(Waiting), SQL: "SELECT 1"}, nil)
	got := o.Explain()
	if !strings.Contains(got, "did not run this query") || !strings.Contains(got, "SELECT 1") || strings.Contains(got, "could not answer") {
		t.Errorf("Explain() = %q", got)
	}
}
