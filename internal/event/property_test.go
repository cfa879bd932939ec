package event

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// payloadGen draws any payload a run may record between run.started and
// run.finished.
func payloadGen() *rapid.Generator[Payload] {
	word := rapid.SampledFrom([]string{"revenue", "orders", "month", "Germany", "blorp", ""})
	sql := rapid.SampledFrom([]string{"SELECT 1", "SELECT count(*) FROM orders", "DELETE FROM t", "WITH x AS (SELECT 2) SELECT * FROM x"})
	return rapid.OneOf(
		rapid.Custom(func(t *rapid.T) Payload {
			return &QuestionParsedData{Understood: rapid.SliceOfN(word, 0, 3).Draw(t, "understood"), Unknown: rapid.SliceOfN(word, 0, 2).Draw(t, "unknown")}
		}),
		rapid.Custom(func(t *rapid.T) Payload {
			return &PlanMadeData{Source: rapid.SampledFrom([]string{"metric", "verified_query", "rows", "model"}).Draw(t, "source")}
		}),
		rapid.Custom(func(t *rapid.T) Payload {
			return &ClarificationData{Question: word.Draw(t, "q"), Options: rapid.SliceOfN(word, 0, 3).Draw(t, "options")}
		}),
		rapid.Custom(func(t *rapid.T) Payload {
			return &SQLGeneratedData{SQL: sql.Draw(t, "sql"), Source: rapid.SampledFrom([]string{"user", "builtin", "model", "repair"}).Draw(t, "src")}
		}),
		rapid.Custom(func(t *rapid.T) Payload {
			d := &GuardCheckedData{Allowed: rapid.Bool().Draw(t, "allowed"), Dialect: "sqlite"}
			if !d.Allowed {
				d.Violations = []Violation{{Code: "statement", Message: word.Draw(t, "msg"), Pos: rapid.IntRange(0, 40).Draw(t, "pos")}}
			}
			return d
		}),
		rapid.Custom(func(t *rapid.T) Payload {
			return &QueryExecutedData{
				Rows: rapid.Int64Range(0, 1e6).Draw(t, "rows"), Truncated: rapid.Bool().Draw(t, "trunc"),
				DurationMS: rapid.Float64Range(0, 5000).Draw(t, "ms"), Columns: rapid.SliceOfN(word, 0, 3).Draw(t, "cols"),
				ResultID: word.Draw(t, "rid"), ResultHash: word.Draw(t, "hash"),
			}
		}),
		rapid.Custom(func(t *rapid.T) Payload {
			return &QueryFailedData{Kind: rapid.SampledFrom([]string{"query", "timeout"}).Draw(t, "kind"), Message: word.Draw(t, "msg"), DurationMS: rapid.Float64Range(0, 100).Draw(t, "ms")}
		}),
		rapid.Custom(func(t *rapid.T) Payload {
			return &ChecksRanData{Checks: []Check{{Name: word.Draw(t, "name"), Status: "pass"}}, Confidence: rapid.Float64Range(0, 1).Draw(t, "conf")}
		}),
		rapid.Custom(func(t *rapid.T) Payload {
			return &ApprovalRequestedData{Statement: rapid.SampledFrom([]string{"s1", "s2"}).Draw(t, "st"), SQL: sql.Draw(t, "sql"), AskedBy: word.Draw(t, "who")}
		}),
		rapid.Custom(func(t *rapid.T) Payload {
			return &ApprovalDecidedData{Statement: rapid.SampledFrom([]string{"s1", "s2"}).Draw(t, "st"), Approved: rapid.Bool().Draw(t, "ok"), By: word.Draw(t, "by")}
		}),
		rapid.Custom(func(t *rapid.T) Payload {
			return &AnswerRenderedData{Markdown: word.Draw(t, "md"), Chart: rapid.SampledFrom([]string{"", "line", "bar"}).Draw(t, "chart")}
		}),
	)
}

// logGen draws a valid log in sequence order: run.started, a body, and
// usually run.finished, with random gaps in the sequence and an occasional
// event of a type this version does not know.
func logGen() *rapid.Generator[[]Event] {
	return rapid.Custom(func(t *rapid.T) []Event {
		runID := "r_" + rapid.StringMatching(`[0-9A-Z]{4}`).Draw(t, "id")
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		seq := int64(0)
		var out []Event
		add := func(p Payload) {
			seq += rapid.Int64Range(1, 2).Draw(t, "step")
			at = at.Add(time.Duration(rapid.IntRange(0, 5000).Draw(t, "gap")) * time.Millisecond)
			e, err := New(runID, seq, at, p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, e)
		}
		add(&RunStartedData{Kind: rapid.SampledFrom([]string{"run", "ask"}).Draw(t, "kind"), Question: "q", Dialect: "sqlite"})
		for range rapid.IntRange(0, 12).Draw(t, "body") {
			if rapid.IntRange(0, 9).Draw(t, "unknown") == 0 {
				seq++
				out = append(out, Event{RunID: runID, Seq: seq, Type: "future.event", Version: 1, At: at, Data: json.RawMessage(`{"x":1}`)})
				continue
			}
			add(payloadGen().Draw(t, "payload"))
		}
		if rapid.IntRange(0, 4).Draw(t, "finished") > 0 {
			add(&RunFinishedData{Status: rapid.SampledFrom([]string{StatusSucceeded, StatusFailed, StatusRejected, StatusUnanswered, StatusCanceled}).Draw(t, "status"), CostUSD: rapid.Int64Range(0, 1e6).Draw(t, "cost")})
		}
		return out
	})
}

func TestPropertyFoldIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log := logGen().Draw(t, "log")
		a, errA := Fold(log)
		b, errB := Fold(log)
		if errA != nil || errB != nil {
			t.Fatalf("fold errors: %v, %v", errA, errB)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Fatalf("two folds differ:\n%s", diff)
		}
		if a.Events != len(log) || a.LastSeq != log[len(log)-1].Seq {
			t.Fatalf("Events=%d LastSeq=%d for %d events ending at %d", a.Events, a.LastSeq, len(log), log[len(log)-1].Seq)
		}
	})
}

func TestPropertyFoldIgnoresArrivalOrderAndDuplicates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log := logGen().Draw(t, "log")
		want, err := Fold(log)
		if err != nil {
			t.Fatal(err)
		}
		// Redeliver some events (an exact duplicate from a retried append)
		// and shuffle everything.
		arrived := append([]Event(nil), log...)
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(log)-1), 0, 4).Draw(t, "dups") {
			arrived = append(arrived, log[i])
		}
		arrived = rapid.Permutation(arrived).Draw(t, "arrival")
		got, err := Fold(arrived)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("shuffled fold differs (-ordered +shuffled):\n%s", diff)
		}
	})
}

func TestPropertyReplayEndsAtFold(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log := rapid.Permutation(logGen().Draw(t, "log")).Draw(t, "arrival")
		want, err := Fold(log)
		if err != nil {
			t.Fatal(err)
		}
		var last RunState
		var visits int
		prevSeq := int64(0)
		err = Replay(log, func(s RunState, e Event) error {
			visits++
			if e.Seq <= prevSeq {
				return fmt.Errorf("visited seq %d after %d", e.Seq, prevSeq)
			}
			prevSeq = e.Seq
			last = s
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if visits != len(log) {
			t.Fatalf("%d visits for %d events", visits, len(log))
		}
		if diff := cmp.Diff(want, last); diff != "" {
			t.Fatalf("Replay's final state differs from Fold (-fold +replay):\n%s", diff)
		}
	})
}

func TestPropertyConflictingDuplicateIsAnError(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log := logGen().Draw(t, "log")
		i := rapid.IntRange(0, len(log)-1).Draw(t, "victim")
		forged := log[i]
		forged.At = forged.At.Add(time.Nanosecond)
		arrived := rapid.Permutation(append(append([]Event(nil), log...), forged)).Draw(t, "arrival")
		if _, err := Fold(arrived); err == nil {
			t.Fatalf("a second, different event with seq %d was accepted", forged.Seq)
		}
	})
}

func TestPropertyReplayStatesAreTheVisitorsToKeep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log := logGen().Draw(t, "log")
		var clean, scribbled []string
		if err := Replay(log, func(s RunState, _ Event) error {
			b, _ := json.Marshal(s)
			clean = append(clean, string(b))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// A visitor that writes into every slice and pointer it was handed
		// must not change the states that follow.
		if err := Replay(log, func(s RunState, _ Event) error {
			b, _ := json.Marshal(s)
			scribbled = append(scribbled, string(b))
			for _, xs := range [][]string{s.SQLs, s.Columns, s.Understood, s.Unknown} {
				for i := range xs {
					xs[i] = "scribble"
				}
			}
			for i := range s.Violations {
				s.Violations[i].Code = "scribble"
			}
			for i := range s.Checks {
				s.Checks[i].Name = "scribble"
			}
			if s.Allowed != nil {
				*s.Allowed = !*s.Allowed
			}
			if s.Confidence != nil {
				*s.Confidence = -1
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(clean, scribbled); diff != "" {
			t.Fatalf("a visitor's writes leaked into later states:\n%s", diff)
		}
	})
}
