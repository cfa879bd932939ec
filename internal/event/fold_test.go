package event

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
)

var t0 = time.Date(2026, 6, 30, 9, 0, 0, 0, time.UTC)

// mustNew builds an event or fails the test.
func mustNew(t testing.TB, seq int64, p Payload) Event {
	t.Helper()
	e, err := New("r_1", seq, t0.Add(time.Duration(seq)*time.Second), p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func ptr[T any](v T) *T { return &v }

func started(t testing.TB) Event {
	return mustNew(t, 1, &RunStartedData{Kind: "ask", Question: "revenue by month", Connection: "demo (sqlite: demo.db)", Dialect: "sqlite", Planner: "builtin", AsOf: "2026-06-30", SessionID: "s_1", Knowledge: "k1"})
}

// base is the state after started().
func base() RunState {
	return RunState{
		RunID: "r_1", Kind: "ask", Status: StatusRunning, Question: "revenue by month",
		Connection: "demo (sqlite: demo.db)", Dialect: "sqlite", Planner: "builtin", AsOf: "2026-06-30",
		SessionID: "s_1", Knowledge: "k1", StartedAt: t0.Add(time.Second), Events: 1, LastSeq: 1,
	}
}

func TestFoldEachEventType(t *testing.T) {
	tests := []struct {
		name   string
		events func(t testing.TB) []Event // after started()
		want   func(s *RunState)
	}{
		{
			name:   "run.started alone is running",
			events: func(testing.TB) []Event { return nil },
			want:   func(*RunState) {},
		},
		{
			name: "question.parsed",
			events: func(t testing.TB) []Event {
				return []Event{mustNew(t, 2, &QuestionParsedData{Understood: []string{"metric revenue"}, Unknown: []string{"blorp"}})}
			},
			want: func(s *RunState) { s.Understood = []string{"metric revenue"}; s.Unknown = []string{"blorp"} },
		},
		{
			name: "plan.made",
			events: func(t testing.TB) []Event {
				return []Event{mustNew(t, 2, &PlanMadeData{Source: "metric", Plan: json.RawMessage(`{"m":"revenue"}`)})}
			},
			want: func(s *RunState) { s.PlanSource = "metric" },
		},
		{
			name: "clarification",
			events: func(t testing.TB) []Event {
				return []Event{mustNew(t, 2, &ClarificationData{Question: "Which revenue: gross or net?", Options: []string{"gross", "net"}})}
			},
			want: func(s *RunState) { s.Clarification = "Which revenue: gross or net?" },
		},
		{
			name: "sql.generated twice keeps the last and all",
			events: func(t testing.TB) []Event {
				return []Event{mustNew(t, 2, &SQLGeneratedData{SQL: "SELECT 1", Source: "builtin"}), mustNew(t, 3, &SQLGeneratedData{SQL: "SELECT 2", Source: "repair"})}
			},
			want: func(s *RunState) { s.SQL = "SELECT 2"; s.SQLs = []string{"SELECT 1", "SELECT 2"} },
		},
		{
			name: "guard.checked rejected",
			events: func(t testing.TB) []Event {
				return []Event{
					mustNew(t, 2, &SQLGeneratedData{SQL: "DELETE FROM t", Source: "user"}),
					mustNew(t, 3, &GuardCheckedData{Allowed: false, Dialect: "sqlite", Violations: []Violation{{Code: "statement", Message: "only SELECT is allowed", Pos: 0}}}),
				}
			},
			want: func(s *RunState) {
				s.SQL, s.SQLs = "DELETE FROM t", []string{"DELETE FROM t"}
				s.Allowed = ptr(false)
				s.Violations = []Violation{{Code: "statement", Message: "only SELECT is allowed", Pos: 0}}
			},
		},
		{
			name: "a new sql.generated clears the previous verdict",
			events: func(t testing.TB) []Event {
				return []Event{
					mustNew(t, 2, &SQLGeneratedData{SQL: "DELETE FROM t", Source: "model"}),
					mustNew(t, 3, &GuardCheckedData{Allowed: false, Dialect: "sqlite", Violations: []Violation{{Code: "statement"}}}),
					mustNew(t, 4, &SQLGeneratedData{SQL: "SELECT * FROM t", Source: "repair"}),
				}
			},
			want: func(s *RunState) { s.SQL, s.SQLs = "SELECT * FROM t", []string{"DELETE FROM t", "SELECT * FROM t"} },
		},
		{
			name: "query.executed sums durations and clears an earlier failure",
			events: func(t testing.TB) []Event {
				return []Event{
					mustNew(t, 2, &QueryFailedData{Kind: "query", Message: "no such column: revnue", DurationMS: 1.5}),
					mustNew(t, 3, &QueryExecutedData{Rows: 12, Truncated: true, DurationMS: 2.25, Columns: []string{"month", "revenue"}, ResultID: "res_r_1", ResultHash: "sha256:ab"}),
				}
			},
			want: func(s *RunState) {
				s.Rows, s.Truncated, s.Columns = 12, true, []string{"month", "revenue"}
				s.ResultID, s.ResultHash = "res_r_1", "sha256:ab"
				s.QueryDuration = 3750 * time.Microsecond
			},
		},
		{
			name: "query.failed",
			events: func(t testing.TB) []Event {
				return []Event{mustNew(t, 2, &QueryFailedData{Kind: "timeout", Message: "statement ran past 30s", DurationMS: 30000})}
			},
			want: func(s *RunState) {
				s.Error, s.ErrorKind, s.QueryDuration = "statement ran past 30s", "timeout", 30*time.Second
			},
		},
		{
			name: "checks.ran",
			events: func(t testing.TB) []Event {
				return []Event{mustNew(t, 2, &ChecksRanData{Checks: []Check{{Name: "fanout", Status: "pass"}}, Confidence: 0.9})}
			},
			want: func(s *RunState) { s.Checks = []Check{{Name: "fanout", Status: "pass"}}; s.Confidence = ptr(0.9) },
		},
		{
			name: "answer.rendered",
			events: func(t testing.TB) []Event {
				return []Event{mustNew(t, 2, &AnswerRenderedData{Markdown: "Revenue grew.", Chart: "line"})}
			},
			want: func(s *RunState) { s.Answer, s.Chart = "Revenue grew.", "line" },
		},
		{
			name: "run.finished",
			events: func(t testing.TB) []Event {
				return []Event{mustNew(t, 5, &RunFinishedData{Status: StatusFailed, Error: "database is locked", Kind: "query", CostUSD: 1234})}
			},
			want: func(s *RunState) {
				s.Status, s.Error, s.ErrorKind, s.CostMicroUSD = StatusFailed, "database is locked", "query", 1234
				s.FinishedAt = t0.Add(5 * time.Second)
				s.Duration = 4 * time.Second
				s.LastSeq = 5
			},
		},
		{
			name: "run.finished without an error keeps a query failure",
			events: func(t testing.TB) []Event {
				return []Event{
					mustNew(t, 2, &QueryFailedData{Kind: "query", Message: "no such table: x"}),
					mustNew(t, 3, &RunFinishedData{Status: StatusFailed}),
				}
			},
			want: func(s *RunState) {
				s.Status, s.Error, s.ErrorKind = StatusFailed, "no such table: x", "query"
				s.FinishedAt, s.Duration = t0.Add(3*time.Second), 2*time.Second
			},
		},
		{
			name: "unknown types and newer versions count but change nothing",
			events: func(t testing.TB) []Event {
				future := mustNew(t, 3, &AnswerRenderedData{Markdown: "from the future"})
				future.Version = Version + 1
				return []Event{{RunID: "r_1", Seq: 2, Type: "model.called", Version: 1, At: t0, Data: json.RawMessage(`{"tokens":5}`)}, future}
			},
			want: func(s *RunState) { s.LastSeq = 3 },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := append([]Event{started(t)}, tt.events(t)...)
			got, err := Fold(events)
			if err != nil {
				t.Fatal(err)
			}
			want := base()
			want.Events = len(events)
			want.LastSeq = events[len(events)-1].Seq
			tt.want(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Fold (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFoldErrors(t *testing.T) {
	other := started(t)
	other.RunID = "r_2"
	other.Seq = 2
	conflict := mustNew(t, 1, &RunStartedData{Kind: "run", SQL: "SELECT 1"})
	zero := mustNew(t, 0, &SQLGeneratedData{SQL: "SELECT 1"})
	bad := Event{RunID: "r_1", Seq: 2, Type: SQLGenerated, Version: 1, At: t0, Data: json.RawMessage(`{"sql": 5}`)}
	tests := []struct {
		name   string
		events []Event
		kind   quarry.Kind
	}{
		{"another run", []Event{started(t), other}, quarry.KindInput},
		{"conflicting duplicate", []Event{started(t), conflict}, quarry.KindConflict},
		{"sequence zero", []Event{started(t), zero}, quarry.KindInput},
		{"malformed payload", []Event{started(t), bad}, quarry.KindInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Fold(tt.events)
			if err == nil {
				t.Fatal("Fold succeeded; want an error")
			}
			if k := quarry.KindOf(err); k != tt.kind {
				t.Errorf("kind = %s, want %s (%v)", k, tt.kind, err)
			}
		})
	}
}

func TestFoldIgnoresExactDuplicatesAndDoesNotMutate(t *testing.T) {
	a := started(t)
	b := mustNew(t, 2, &SQLGeneratedData{SQL: "SELECT 1", Source: "user"})
	spaced := b
	spaced.Data = json.RawMessage(`{ "sql": "SELECT 1", "source": "user" }`)
	spaced.At = b.At.In(time.FixedZone("X", 3600))
	events := []Event{b, a, spaced, a}
	before := append([]Event(nil), events...)
	got, err := Fold(events)
	if err != nil {
		t.Fatal(err)
	}
	if got.Events != 2 || got.SQL != "SELECT 1" || len(got.SQLs) != 1 {
		t.Errorf("duplicates were folded: %+v", got)
	}
	if diff := cmp.Diff(before, events); diff != "" {
		t.Errorf("Fold modified its input (-before +after):\n%s", diff)
	}
}

func TestFoldEmpty(t *testing.T) {
	got, err := Fold(nil)
	if err != nil || !cmp.Equal(got, RunState{}) {
		t.Errorf("Fold(nil) = %+v, %v; want the zero state", got, err)
	}
}

func TestReplayStopsOnVisitError(t *testing.T) {
	events := []Event{started(t), mustNew(t, 2, &SQLGeneratedData{SQL: "SELECT 1"}), mustNew(t, 3, &RunFinishedData{Status: StatusSucceeded})}
	stop := quarry.Errorf(quarry.KindCanceled, "stop")
	var seen []int64
	err := Replay(events, func(s RunState, e Event) error {
		seen = append(seen, e.Seq)
		if s.LastSeq != e.Seq {
			t.Errorf("state after seq %d has LastSeq %d", e.Seq, s.LastSeq)
		}
		if e.Seq == 2 {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Errorf("Replay returned %v, want the visitor's error", err)
	}
	if diff := cmp.Diff([]int64{1, 2}, seen); diff != "" {
		t.Errorf("visited (-want +got):\n%s", diff)
	}
}

// TestFoldGolden folds the recorded logs in testdata/*.jsonl and compares
// the state with testdata/*.state.json.
func TestFoldGolden(t *testing.T) {
	logs, err := filepath.Glob("testdata/*.jsonl")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no logs in testdata: %v", err)
	}
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var events []Event
			for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
				var e Event
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				events = append(events, e)
			}
			st, err := Fold(events)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(st, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(path, ".jsonl") + ".state.json"
			if goldentest.Update() {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("state (-want +got):\n%s", diff)
			}
		})
	}
}
