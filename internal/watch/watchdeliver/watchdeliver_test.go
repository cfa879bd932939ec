package watchdeliver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/deliver"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/watchfile"
)

// sender delivers to every channel but "down", which refuses.
type sender struct{ sent []string }

func (s *sender) Send(_ context.Context, ch deliver.Channel, m deliver.Message) ([]deliver.Attempt, error) {
	s.sent = append(s.sent, ch.Name+": "+m.Title)
	if ch.Name == "down" {
		return []deliver.Attempt{{Channel: ch.Name, Try: 1}, {Channel: ch.Name, Try: 2}},
			quarry.Errorf(quarry.KindConnection, "deliver: channel %q: no answer", ch.Name)
	}
	return []deliver.Attempt{{Channel: ch.Name, Try: 1, OK: true}}, nil
}

type kept struct{ alerts []watch.Alert }

func (k *kept) Notify(_ context.Context, _ []string, a watch.Alert) ([]watch.Delivery, error) {
	k.alerts = append(k.alerts, a)
	return nil, nil
}

type log struct{ recs []watchfile.Delivery }

func (l *log) Append(_ context.Context, d watchfile.Delivery) error {
	l.recs = append(l.recs, d)
	return nil
}

func alert() watch.Alert {
	return watch.Alert{Monitor: "weekly_orders", Kind: watch.KindAlert, PeriodStart: "2026-04-20", PeriodEnd: "2026-04-26", Run: "r1",
		Message: "orders fell 61% in the week of 2026-04-20: 183 against a baseline of 463.4",
		Investigation: &watch.Investigation{Runs: []string{"r2"}, Contributors: []watch.Contribution{
			{Dimension: "channel", Value: "web", Current: 93, Baseline: 212, Delta: -119, Share: 0.46}}}}
}

// TestNotifyEveryChannel: the alert is kept first; a channel that fails
// and one that is not configured do not stop the others; every delivery
// is recorded.
func TestNotifyEveryChannel(t *testing.T) {
	s, k, l := &sender{}, &kept{}, &log{}
	n := &Notifier{Keep: k, Sender: s, Log: l,
		Channels: map[string]deliver.Channel{"down": {Name: "down", Kind: deliver.Webhook}, "ops": {Name: "ops", Kind: deliver.Slack}},
		Link:     func(run string) string { return "https://quarry.example.com/api/runs/" + run + "/export" }}
	got, err := n.Notify(context.Background(), []string{"down", "nowhere", "ops"}, alert())
	if err != nil {
		t.Fatal(err)
	}
	if len(k.alerts) != 1 {
		t.Errorf("kept %d alerts", len(k.alerts))
	}
	want := []watch.Delivery{
		{Channel: "down", PeriodStart: "2026-04-20", Kind: "alert", Tries: 2, Error: `deliver: channel "down": no answer`},
		{Channel: "nowhere", PeriodStart: "2026-04-20", Kind: "alert", Error: `no channel "nowhere" is configured; add it under channels: in quarry.yaml, or remove it from the monitor's notify:`},
		{Channel: "ops", PeriodStart: "2026-04-20", Kind: "alert", OK: true, Tries: 1},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("deliveries (-want +got):\n%s", d)
	}
	if len(s.sent) != 2 || len(l.recs) != 3 || l.recs[0].ChannelKind != "webhook" || len(l.recs[0].Attempts) != 2 || l.recs[2].Run != "r1" || !l.recs[2].OK {
		t.Errorf("sent %q, recorded %+v", s.sent, l.recs)
	}
}

func TestMessage(t *testing.T) {
	m := Message(alert(), "https://quarry.example.com/api/runs/r1/export")
	if m.Title != "Alert: weekly_orders — orders fell 61% in the week of 2026-04-20" {
		t.Errorf("title %q", m.Title)
	}
	for _, want := range []string{"183 against a baseline of 463.4", "channel=web: 93 against 212 a period (-119, 46% of the change)", "quarry runs export r1", "runs r2"} {
		if !strings.Contains(m.Text, want) || !strings.Contains(m.Markdown, want) {
			t.Errorf("the message misses %q:\n%s\n---\n%s", want, m.Text, m.Markdown)
		}
	}
	p := m.Payload.(map[string]any)
	if p["link"] != m.Link || p["alert"].(watch.Alert).Run != "r1" || p["source"] != "quarry" {
		t.Errorf("payload %+v", p)
	}
	if r := Message(watch.Alert{Monitor: "m", Kind: watch.KindRecovery, Message: "orders is back: 1"}, ""); r.Link != "" || !strings.HasPrefix(r.Title, "Recovered: m — orders is back") {
		t.Errorf("recovery %+v", r)
	}
}

func TestUndelivered(t *testing.T) {
	a1 := watch.Alert{Monitor: "m", Kind: watch.KindAlert, PeriodStart: "2026-01-05"}
	a2 := watch.Alert{Monitor: "m", Kind: watch.KindRecovery, PeriodStart: "2026-01-12"}
	kept := []watchfile.Kept{{To: []string{"hook", "mail"}, Alert: a1}, {To: []string{"hook"}, Alert: a2}, {To: []string{"hook", "mail"}, Alert: a1}}
	ds := []watchfile.Delivery{
		{Monitor: "m", Kind: watch.KindAlert, PeriodStart: "2026-01-05", Channel: "hook", OK: true},
		{Monitor: "m", Kind: watch.KindAlert, PeriodStart: "2026-01-05", Channel: "mail"},
		{Monitor: "m", Kind: watch.KindAlert, PeriodStart: "2026-01-05", Channel: "mail"},
	}
	got := Undelivered(kept, ds)
	want := []Pending{{Alert: a1, Channel: "mail", Tries: 2}, {Alert: a2, Channel: "hook", Tries: 0}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Undelivered (-want +got):\n%s", d)
	}
	// Once the mail got through, only the recovery that was never sent
	// is pending.
	ds = append(ds, watchfile.Delivery{Monitor: "m", Kind: watch.KindAlert, PeriodStart: "2026-01-05", Channel: "mail", OK: true})
	if got := Undelivered(kept, ds); len(got) != 1 || got[0].Alert.Kind != watch.KindRecovery {
		t.Errorf("after the mail got through: %+v", got)
	}
}

// TestRecoveryOfAnUntoldAlert: a recovery whose incident's alert was
// never told (it came while the monitor was muted) is neither kept nor
// told; one whose alert was told is both.
func TestRecoveryOfAnUntoldAlert(t *testing.T) {
	ctx := context.Background()
	s, k := &sender{}, &kept{}
	path := t.TempDir() + "/alerts.jsonl"
	told := watch.Alert{Monitor: "orders", Kind: watch.KindAlert, Segment: "x", PeriodStart: "2026-04-20", IncidentStart: "2026-04-20"}
	if _, err := (watchfile.Notifier{Path: path, Now: func() time.Time { return time.Unix(0, 0) }}).Notify(ctx, []string{"ops"}, told); err != nil {
		t.Fatal(err)
	}
	n := &Notifier{Keep: k, Sender: s, Channels: map[string]deliver.Channel{"ops": {Name: "ops"}},
		Told: func(_ context.Context, a watch.Alert) (bool, error) { return watchfile.ToldAlert(path, a) }}
	untold := watch.Alert{Monitor: "orders", Kind: watch.KindRecovery, Segment: "x", PeriodStart: "2026-05-04", IncidentStart: "2026-03-02"}
	if ds, err := n.Notify(ctx, []string{"ops"}, untold); err != nil || len(ds) != 0 || len(k.alerts) != 0 || len(s.sent) != 0 {
		t.Errorf("the recovery of an untold alert: %v %v, kept %d, sent %q", ds, err, len(k.alerts), s.sent)
	}
	other := untold
	other.IncidentStart, other.Segment = "2026-04-20", "y"
	if ds, _ := n.Notify(ctx, []string{"ops"}, other); len(ds) != 0 {
		t.Errorf("the recovery of another segment's incident was told: %v", ds)
	}
	recovered := untold
	recovered.IncidentStart = "2026-04-20"
	if ds, err := n.Notify(ctx, []string{"ops"}, recovered); err != nil || len(ds) != 1 || !ds[0].OK || len(k.alerts) != 1 {
		t.Errorf("the recovery of a told alert: %v %v, kept %d", ds, err, len(k.alerts))
	}
}
