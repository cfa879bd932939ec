package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/watch"
)

type groupsKey struct{}

// asMember is ctx for a person in groups.
func asMember(ctx context.Context, groups ...string) context.Context {
	return context.WithValue(ctx, groupsKey{}, groups)
}

// groupsServer serves the demo with policy.yaml's groups: support may not
// read customers' cities, eu-only may use no connection but "warehouse".
func groupsServer(t *testing.T) *Server {
	t.Helper()
	r := demoRuntime(t)
	r.o.Groups = func(ctx context.Context) []string {
		g, _ := ctx.Value(groupsKey{}).([]string)
		return g
	}
	cfg, err := r.Config()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(cfg.Knowledge, "policy.yaml")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	groups := `
groups:
  support:
    restricted:
      - column: customers.city
        reason: support reads no addresses
  eu-only:
    connections: [warehouse]
`
	if err := os.WriteFile(file, append(orig, groups...), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, release, err := r.Server(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return srv
}

func runSQL(ctx context.Context, srv *Server, sql string) error {
	an, done, err := srv.Start(ctx)
	if err != nil {
		return err
	}
	defer done()
	rec := event.NewRecorder(srv.NewID("r"), srv.Clock, srv.Store)
	_, err = an.Run(ctx, rec, sql, nopSink{})
	return err
}

// TestGroupRestrictedColumns: a column restricted for a group is refused
// to its members by the engine's own check, however the statement reaches
// it, while everyone else reads it; a result kept from someone else's run
// is redacted when a member reads it back; a group that may not use the
// connection starts nothing on it.
func TestGroupRestrictedColumns(t *testing.T) {
	srv := groupsServer(t)
	ctx := context.Background()
	support := asMember(ctx, "Support") // groups match without regard to case

	if err := runSQL(ctx, srv, "SELECT city FROM customers LIMIT 1"); err != nil {
		t.Fatalf("someone in no group: %v", err)
	}
	if err := runSQL(asMember(ctx, "sales"), srv, "SELECT city FROM customers LIMIT 1"); err != nil {
		t.Fatalf("a group the policy does not name: %v", err)
	}
	for _, sql := range []string{
		"SELECT city FROM customers",
		"SELECT * FROM customers",
		"SELECT upper(CITY) FROM main.customers",
		"SELECT count(*) FROM customers WHERE city = 'Berlin'",
		"SELECT name FROM customers ORDER BY city LIMIT 3",
		"WITH c AS (SELECT * FROM customers) SELECT c.name, c.city FROM c",
		"SELECT x FROM (SELECT city AS x FROM customers)",
		"SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM customers d WHERE d.city = c.city AND d.id <> c.id)",
		"SELECT group_concat(city) FROM customers",
	} {
		err := runSQL(support, srv, sql)
		if k := quarry.KindOf(err); k != quarry.KindRejected {
			t.Errorf("support ran %q: %v (%s), want it rejected", sql, err, k)
		}
	}
	if err := runSQL(support, srv, "SELECT name, country FROM customers LIMIT 1"); err != nil {
		t.Errorf("support reading what it may: %v", err)
	}
	// The project's own restrictions hold for the group too.
	if err := runSQL(support, srv, "SELECT email FROM customers"); quarry.KindOf(err) != quarry.KindRejected {
		t.Errorf("support read the project's restricted email: %v", err)
	}

	// A result someone else kept, read back by a member: redacted.
	an, done, err := srv.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rec := event.NewRecorder(srv.NewID("r"), srv.Clock, srv.Store)
	res, err := an.Run(ctx, rec, "SELECT name, city FROM customers ORDER BY id LIMIT 3", nopSink{})
	done()
	if err != nil || res.ResultID == "" {
		t.Fatalf("the unrestricted run: %+v, %v", res, err)
	}
	full, err := srv.Store.Result(ctx, res.ResultID)
	if err != nil {
		t.Fatal(err)
	}
	seen, err := srv.Store.Result(support, res.ResultID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range seen.Rows {
		if seen.Rows[i][1] != "[restricted]" || full.Rows[i][1] == "[restricted]" {
			t.Errorf("row %d: support sees %v, others %v", i, seen.Rows[i], full.Rows[i])
		}
	}
	// The hash of the rows in clear would confirm a guess at them: a
	// member reads the run without it, in its state and in its log.
	if st, err := srv.Store.Run(ctx, res.RunID); err != nil || st.ResultHash == "" {
		t.Errorf("the run's hash for everyone else: %q, %v", st.ResultHash, err)
	}
	if st, err := srv.Store.Run(support, res.RunID); err != nil || st.ResultHash != "" {
		t.Errorf("support reads the run's hash %q, %v", st.ResultHash, err)
	}
	if runs, err := srv.Store.Runs(support, store.RunFilter{Limit: 5}); err != nil || slices.ContainsFunc(runs, func(r event.RunState) bool { return r.RunID == res.RunID && r.ResultHash != "" }) {
		t.Errorf("support lists the run's hash: %v", err)
	}
	evs, err := srv.Store.Events(support, res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	// A question by a city someone else asked: what its checks say of the
	// data is withheld from support.
	rec = event.NewRecorder(srv.NewID("r"), srv.Clock, srv.Store)
	asked, err := srv.Ask(ctx, rec, "how many customers in Berlin", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC), agent.AskOptions{})
	if err != nil || asked.Status != event.StatusSucceeded {
		t.Fatalf("asking by a city: %v %+v", err, asked)
	}
	if st, err := srv.Store.Run(support, asked.RunID); err != nil || len(st.Checks) == 0 || slices.ContainsFunc(st.Checks, func(c event.Check) bool { return strings.Contains(c.Detail, "Berlin") }) {
		t.Errorf("support reads the checks %+v, %v", st.Checks, err)
	}
	if st, err := srv.Store.Run(ctx, asked.RunID); err != nil || !slices.ContainsFunc(st.Checks, func(c event.Check) bool { return strings.Contains(c.Detail, "Berlin") }) {
		t.Errorf("the checks as everyone reads them name no city: %+v, %v", st.Checks, err)
	}
	// Its answer is withheld whole: a figure too short to be told from
	// other text ("93 customers") is in none of it.
	if st, err := srv.Store.Run(support, asked.RunID); err != nil || st.Answer != withheldAnswer {
		t.Errorf("support reads the answer %q, %v", st.Answer, err)
	}
	if evs, err := srv.Store.Events(support, asked.RunID); err != nil {
		t.Fatal(err)
	} else {
		for _, e := range evs {
			if e.Type == event.ChecksRan && strings.Contains(string(e.Data), "Berlin") {
				t.Errorf("support reads the checks in the log: %s", e.Data)
			}
			var d event.AnswerRenderedData
			if e.Type == event.AnswerRendered && (json.Unmarshal(e.Data, &d) != nil || d.Markdown != withheldAnswer) {
				t.Errorf("support reads the answer in the log: %s", e.Data)
			}
		}
	}
	for _, e := range evs {
		if strings.Contains(string(e.Data), "sha256:") {
			t.Errorf("support reads a hash in the log: %s %s", e.Type, e.Data)
		}
	}

	// A question whose answer is a breakdown by city: refused, never
	// answered with the cities.
	day := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"how many customers per city", "how many customers in Berlin", "which city has the most customers"} {
		rec = event.NewRecorder(srv.NewID("r"), srv.Clock, srv.Store)
		out, err := srv.Ask(support, rec, q, day, agent.AskOptions{})
		if err == nil && out.Status == event.StatusSucceeded {
			t.Errorf("support asked %q and got an answer: %s", q, out.SQL)
		}
	}
	if out, err := srv.Ask(ctx, event.NewRecorder(srv.NewID("r"), srv.Clock, srv.Store), "how many customers per city", day, agent.AskOptions{}); err != nil || out.Status != event.StatusSucceeded {
		t.Errorf("the same question for everyone else: %v, %+v", err, out)
	}

	// A group limited to other connections starts nothing here, and still
	// reads its results back.
	if err := runSQL(asMember(ctx, "eu-only"), srv, "SELECT 1"); quarry.KindOf(err) != quarry.KindForbidden || !strings.Contains(quarry.Message(err), "warehouse") {
		t.Errorf("eu-only on the demo connection: %v", err)
	}
	if _, _, err := srv.Agent(asMember(ctx, "eu-only", "support")); quarry.KindOf(err) != quarry.KindForbidden {
		t.Errorf("eu-only's fixer: %v", err)
	}
	if _, err := srv.Store.Result(asMember(ctx, "eu-only"), res.ResultID); err != nil {
		t.Errorf("eu-only reading a result: %v", err)
	}
	p, err := srv.Project(support)
	if err != nil || !p.Policy.Restricted("customers", "city") || !p.Policy.Restricted("customers", "email") {
		t.Errorf("support's project policy: %v", err)
	}
	if p, _ := srv.Project(ctx); p.Policy.Restricted("customers", "city") {
		t.Errorf("everyone's policy restricts city")
	}
	// A member's question is not scrubbed of the group's column values:
	// which of its words turned [restricted] would say which are values.
	everyone, _ := srv.Project(ctx)
	known := everyone.Knowledge.Model.Entity("customers").Column("city").Values
	if len(known) == 0 {
		t.Fatal("the demo knows no city values")
	}
	q := "tell me about " + known[0] + " and Atlantis"
	if got := policy.NewScrubber(p.Knowledge.Model).Scrub(q); got != q {
		t.Errorf("support's question %q is sent as %q", q, got)
	}
	if vs := p.Knowledge.Model.Entity("customers").Column("city").Values; len(vs) != 0 {
		t.Errorf("support's knowledge keeps the city values %v", vs)
	}
}

// TestMonitorRefusedForAGroup: a monitor by a column a group restricts is
// refused to its members as its run would be, not a broken monitor file.
func TestMonitorRefusedForAGroup(t *testing.T) {
	r := demoRuntime(t)
	k, err := r.Knowledge()
	if err != nil {
		t.Fatal(err)
	}
	m := watch.Monitor{Name: "orders_by_city", Metric: "orders", Dimensions: []string{"city"}, Grain: semantic.GrainWeek}
	now := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	allow := analyst.GuardFunc(func(context.Context, string) sqlguard.Verdict { return sqlguard.Verdict{Allowed: true} })
	if refused, err := monitorRefused(context.Background(), allow, k.Model, nil, quarry.DialectSQLite, m, now); err != nil || refused {
		t.Fatalf("for everyone: refused %v, %v", refused, err)
	}
	restricted := restrictKnowledge(k, nil, []string{"customers.city"})
	if refused, err := monitorRefused(context.Background(), allow, restricted.Model, nil, quarry.DialectSQLite, m, now); err != nil || !refused {
		t.Errorf("for a group that may not read cities: refused %v, %v", refused, err)
	}
}
