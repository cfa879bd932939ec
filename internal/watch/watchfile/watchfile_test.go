package watchfile

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/deliver"
	"github.com/quarrydata/quarry/internal/watch"
)

func TestNotifierAppendsLines(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state", "alerts.jsonl")
	n := Notifier{Path: path, Now: func() time.Time { return time.Date(2026, 7, 6, 9, 0, 0, 0, time.UTC) }}
	for _, p := range []string{"2026-04-20", "2026-04-27"} {
		if ds, err := n.Notify(ctx, []string{"ops"}, watch.Alert{Monitor: "orders", Kind: watch.KindAlert, PeriodStart: p}); err != nil || ds != nil {
			t.Fatal(ds, err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(lines), b)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &got); err != nil {
		t.Fatal(err)
	}
	if got["at"] != "2026-07-06T09:00:00Z" || got["period_start"] != "2026-04-27" || got["monitor"] != "orders" {
		t.Errorf("line %s", lines[1])
	}
}

func TestDeliveriesAppendLines(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state", "deliveries.jsonl")
	l := Deliveries{Path: path, Now: func() time.Time { return time.Date(2026, 7, 6, 9, 0, 0, 0, time.UTC) }}
	at := time.Date(2026, 7, 6, 8, 59, 0, 0, time.UTC)
	want := []Delivery{
		{Monitor: "orders", Kind: "alert", PeriodStart: "2026-04-20", PeriodEnd: "2026-04-26", Channel: "ops", ChannelKind: "webhook", OK: true,
			Attempts: []deliver.Attempt{{Channel: "ops", Kind: deliver.Webhook, Target: "https://example.com/…", Try: 1, At: at, OK: true, Status: 200}}},
		{Monitor: "orders", Kind: "alert", PeriodStart: "2026-04-20", PeriodEnd: "2026-04-26", Channel: "nowhere", Error: "no channel"},
	}
	for _, d := range want {
		if err := l.Append(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []Delivery
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var d Delivery
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatal(err)
		}
		got = append(got, d)
	}
	want[0].At, want[1].At, want[1].Attempts = "2026-07-06T09:00:00Z", "2026-07-06T09:00:00Z", []deliver.Attempt{}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("deliveries (-want +got):\n%s", d)
	}
}

func TestStateLoad(t *testing.T) {
	ctx := context.Background()
	s := State{Path: filepath.Join(t.TempDir(), "watch.json")}
	empty, err := s.Load(ctx)
	if err != nil || empty.Monitors != nil {
		t.Fatalf("a missing file: %v, %v", empty, err)
	}
	want := watch.State{Monitors: map[string]watch.MonitorState{
		"orders": {LastRun: time.Date(2026, 7, 6, 9, 0, 0, 0, time.UTC), Handled: map[string]string{"": "2026-06-29"}},
	}}
	if err := os.WriteFile(s.Path, []byte(`{"monitors": {"orders": {"last_run": "2026-07-06T09:00:00Z", "handled": {"": "2026-06-29"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("state (-want +got):\n%s", d)
	}
	if err := os.WriteFile(s.Path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ctx); err == nil {
		t.Error("a damaged file loaded")
	}
}

// TestReadAlertsPage pages one monitor's alerts newest first, cut at
// their numbers in the file, among another monitor's (one whose name
// contains the first's).
func TestReadAlertsPage(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "alerts.jsonl")
	n := Notifier{Path: path, Now: func() time.Time { return time.Date(2026, 7, 6, 9, 0, 0, 0, time.UTC) }}
	for i := 1; i <= 10; i++ {
		name := "orders"
		if i%2 == 0 {
			name = "orders_by_country"
		}
		if _, err := n.Notify(ctx, nil, watch.Alert{Monitor: name, Kind: watch.KindAlert, PeriodStart: time.Date(2026, 1, i, 0, 0, 0, 0, time.UTC).Format(time.DateOnly), Message: "orders"}); err != nil {
			t.Fatal(err)
		}
	}
	seqs := func(p []Numbered) []int {
		var out []int
		for _, k := range p {
			if k.Monitor != "orders" {
				t.Errorf("%d is %s's", k.Seq, k.Monitor)
			}
			out = append(out, k.Seq)
		}
		return out
	}
	for _, tt := range []struct {
		before, limit int
		want          []int
		more          bool
	}{
		{0, 2, []int{9, 7}, true},
		{7, 2, []int{5, 3}, true},
		{3, 2, []int{1}, false},
		{0, 5, []int{9, 7, 5, 3, 1}, false},
		{0, 500, []int{9, 7, 5, 3, 1}, false},
		{1, 5, nil, false},
	} {
		p, more, err := ReadAlertsPage(path, "orders", tt.before, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, seqs(p)); diff != "" || more != tt.more {
			t.Errorf("before %d limit %d: more %v, (-want +got):\n%s", tt.before, tt.limit, more, diff)
		}
	}
	if p, more, err := ReadAlertsPage(filepath.Join(t.TempDir(), "none.jsonl"), "orders", 0, 5); err != nil || len(p) != 0 || more {
		t.Errorf("a missing file: %v %v %v", p, more, err)
	}
}
