package mcpserver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// TestDescribeScrubsVerifiedQueries: describe lists verified queries
// through the agent's scrubber (policy.Scrubber), so an e-mail address or
// a reference to a restricted column in one reaches an MCP client as
// [restricted], as it reaches a model.
func TestDescribeScrubsVerifiedQueries(t *testing.T) {
	ctx := context.Background()
	f, err := knowledge.Load("testdata/knowledge")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlitestate.Open(ctx, filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	k := &analyst.Knowledge{Model: f.Model, Hash: f.Hash}
	const mail = "priya.dawson@mail.example.com"
	verified := []Verified{
		{Question: "How many orders did " + mail + " refund?", SQL: "SELECT count(*) FROM orders WHERE status = 'refunded' AND country = 'Finland' -- asked by " + mail},
		{Question: "Orders by contact", SQL: "SELECT count(*) FROM orders GROUP BY orders.email"},
	}
	srv, err := New(Config{
		Ask: func(context.Context, *event.Recorder, string, time.Time) (*analyst.AskOutcome, error) {
			return nil, quarry.Errorf(quarry.KindConfig, "not in this test")
		},
		Run: func(context.Context, *event.Recorder, string, analyst.RowSink) (*analyst.RunOutcome, error) {
			return nil, quarry.Errorf(quarry.KindConfig, "not in this test")
		},
		Project: func(context.Context) (*Project, error) {
			return &Project{Knowledge: k, Verified: verified, Policy: policy.FromModel(f.Model)}, nil
		},
		Store: st, Clock: time.Now, NewID: func(p string) string { return p + "1" }, Dialect: quarry.DialectSQLite,
	})
	if err != nil {
		t.Fatal(err)
	}
	d := decode[Description](t, call(t, connect(t, srv), "describe", map[string]any{}))
	if len(d.Verified) != 2 {
		t.Fatalf("verified = %+v", d.Verified)
	}
	for _, v := range d.Verified {
		if text := v.Question + " " + v.SQL; strings.Contains(text, mail) || strings.Contains(strings.ToLower(text), "orders.email") {
			t.Errorf("describe sends a verified query unscrubbed: %+v", v)
		}
	}
	if !strings.Contains(d.Verified[0].SQL, policy.Redacted) || !strings.Contains(d.Verified[0].SQL, "status = 'refunded'") {
		t.Errorf("the scrubbed query = %q", d.Verified[0].SQL)
	}
}
