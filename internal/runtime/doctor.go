package runtime

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/httpjson"
	"github.com/quarrydata/quarry/internal/connector/mcpconn"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/valueindex"
	"github.com/quarrydata/quarry/internal/watch"
)

// Finding is one line of the doctor's report.
type Finding struct {
	Status string `json:"status"` // ok, warn, fail
	Area   string `json:"area"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	SQL    string `json:"sql,omitempty"` // SQL that fixes it, for a person to run
}

// Diagnose checks everything quarry needs and says what to do about each
// problem: the config, each connection (its role, its read-only probe),
// the state database, the knowledge folder and the model.
func (r *Runtime) Diagnose(ctx context.Context) []Finding {
	var out []Finding
	add := func(f Finding) { out = append(out, f) }
	cfg, err := r.Config()
	if err != nil {
		add(Finding{"fail", "config", oneLine(err.Error()), "fix quarry.yaml as the message says, or create a project with quarry init", ""})
		return out
	}
	add(Finding{Status: "ok", Area: "config", Detail: cfg.Path + " is valid"})
	for _, w := range cfg.Warnings {
		add(Finding{Status: "warn", Area: "config", Detail: w})
	}

	switch {
	case len(cfg.ConnectionNames) == 0:
		add(Finding{"warn", "connection", "no connection configured: quarry can only propose SQL for you to run", addConnectionFix(cfg.Path), ""})
	case cfg.Connection == "":
		add(Finding{"warn", "connection", fmt.Sprintf("no default connection: commands that read a database need --connection (one of %s)", strings.Join(cfg.ConnectionNames, ", ")),
			fmt.Sprintf("add `connection: %s` to %s", cfg.ConnectionNames[0], cfg.Path), ""})
	}
	// A knowledge folder that does not load stops every connection (the
	// column policy is read from it): said once, under knowledge.
	_, folderErr := r.Folder()
	for _, name := range cfg.ConnectionNames {
		conn, _, err := r.Conn(ctx, name)
		if err != nil && r.Opened(name) != nil {
			// Opened, but its role was refused: roleFinding says why.
			conn, err = r.Opened(name), nil
		}
		if err != nil && folderErr != nil && errors.Is(err, folderErr) {
			add(Finding{"fail", "connection", name + ": not opened, because the knowledge folder does not load (see knowledge below)", "fix the knowledge folder first", ""})
			continue
		}
		if err != nil {
			add(Finding{"fail", "connection", name + ": " + oneLine(err.Error()), "check the connection's path or URL in quarry.yaml", ""})
			continue
		}
		if p, ok := conn.(connector.Pinger); ok {
			what, err := p.Ping(ctx)
			if err != nil {
				add(Finding{"fail", "connection", oneLine(err.Error()), "check the server's command, args, env or url in quarry.yaml; the message says what it did", ""})
				continue
			}
			add(Finding{Status: "ok", Area: "connection", Detail: fmt.Sprintf("%s: %s (%s)", name, what, ConnectionLabel(name, conn))})
		} else {
			add(Finding{Status: "ok", Area: "connection", Detail: fmt.Sprintf("%s opens (%s)", name, ConnectionLabel(name, conn))})
		}
		r.roleFinding(ctx, cfg.Connections[name], conn, add)
		r.Probe(ctx, name, conn, add)
	}

	if st, err := r.Store(ctx); err != nil {
		// The message alone: a driver's cause can quote parts of a
		// password that was not percent-encoded (found from outside).
		hint := "check that the folder of state: in quarry.yaml is writable"
		if config.StateIsURL(cfg.State) {
			hint = "check state: in quarry.yaml: the server, the database, the role and its password (percent-encode @ : / ? # % in it)"
		}
		add(Finding{"fail", "state", oneLine(quarry.Message(err)), hint, ""})
	} else {
		add(Finding{Status: "ok", Area: "state", Detail: st.Where() + " opens"})
	}

	noModel := !knowledge.HasModel(cfg.Knowledge)
	if _, err := os.Stat(cfg.Knowledge); err != nil || noModel {
		// Nothing but learn writes model.yaml, and learn needs a
		// connection: without one, the connection's finding says what to
		// do, and this one only what is missing.
		detail := filepath.Join(cfg.Knowledge, knowledge.ModelFile) + ": missing"
		if err != nil {
			detail = "no knowledge folder at " + cfg.Knowledge
		}
		switch {
		case len(cfg.ConnectionNames) == 0:
			add(Finding{Status: "warn", Area: "knowledge", Detail: detail + "; it is learned from a connection (see above)"})
		case err != nil:
			add(Finding{"warn", "knowledge", detail, "run quarry learn to build it from your database", ""})
		default:
			add(Finding{"fail", "knowledge", detail, "run quarry learn to write it from your database", ""})
		}
	} else if k, err := r.Folder(); err != nil {
		add(Finding{"fail", "knowledge", oneLine(quarry.Message(err)), "fix the file as the message says", ""})
	} else {
		add(Finding{Status: "ok", Area: "knowledge", Detail: fmt.Sprintf("%s: %d tables, %d metrics, %d verified queries, %d notes",
			cfg.Knowledge, len(k.Model.Entities), len(k.Model.Metrics), len(k.Verified), len(k.Notes))})
		add(valuesFinding(ctx, cfg.Knowledge))
		watchFindings(cfg, k.Monitors, add)
		groupFindings(cfg, k.Groups, add)
	}

	switch cfg.Model.Provider {
	case config.ProviderBuiltin:
		add(Finding{"ok", "model", "builtin planner (" + cfg.Model.Reason + "): answers questions about the metrics, dimensions and tables in the knowledge folder, offline",
			"for open-ended questions set ANTHROPIC_API_KEY or OPENAI_API_KEY (or model: in quarry.yaml)", ""})
	default:
		model := cfg.Model.Model
		if model == "" {
			model = "(the provider's default model)"
		}
		add(Finding{Status: "ok", Area: "model", Detail: fmt.Sprintf("%s %s (%s): questions go to the model; exact matches to a verified query or metric still get the builtin answer",
			cfg.Model.Provider, model, cfg.Model.Reason)})
		r.preflight(ctx, cfg, add)
	}
	return out
}

// groupFindings checks that every connection a group of policy.yaml is
// limited to is one of quarry.yaml: a misspelt one would keep the group's
// members off every connection (they would get 403 everywhere).
func groupFindings(cfg *config.Config, groups []knowledge.PolicyGroup, add func(Finding)) {
	for _, g := range groups {
		for _, c := range g.Connections {
			if _, ok := cfg.Connections[c]; !ok {
				add(Finding{"fail", "policy", fmt.Sprintf("group %s of policy.yaml may use connection %q, which quarry.yaml does not have", g.Name, c),
					"name a connection of quarry.yaml (" + strings.Join(cfg.ConnectionNames, ", ") + ") under groups." + g.Name + ".connections", ""})
			}
		}
	}
}

// watchFindings checks that every channel a monitor notifies is defined
// in quarry.yaml, and lists the channels (without their secrets).
func watchFindings(cfg *config.Config, ms []watch.Monitor, add func(Finding)) {
	if len(ms) == 0 && len(cfg.ChannelNames) == 0 {
		return
	}
	ps := NotifyProblems(cfg, ms)
	for _, p := range ps {
		add(Finding{"fail", "watch", p, "add the channel under channels: in quarry.yaml, or fix the monitor's notify:", ""})
	}
	if len(ps) > 0 {
		return
	}
	var chans []string
	for _, name := range cfg.ChannelNames {
		chans = append(chans, name+" ("+cfg.Channels[name].ChannelLabel()+")")
	}
	detail := fmt.Sprintf("%d monitors", len(ms))
	if len(ms) == 1 {
		detail = "1 monitor"
	}
	if len(chans) > 0 {
		detail += "; channels: " + strings.Join(chans, ", ")
	} else {
		alerts, _ := WatchFiles(cfg)
		detail += "; no channels: alerts are kept in " + alerts + " only"
	}
	add(Finding{Status: "ok", Area: "watch", Detail: detail})
}

// addConnectionFix says how to add a first connection to the quarry.yaml
// at path: the lines to write under connections:, for a file and for a
// server.
func addConnectionFix(path string) string {
	return "run quarry learn --url URL (a postgres:// or mysql:// URL, kept in .env, or a SQLite file), or add your database under connections: in " + path + ", e.g. `mydb: {driver: sqlite, path: data.db}` or `mydb: {driver: postgres, url: ${DATABASE_URL}}` " +
		"(indented under connections:; its comments show more), then run quarry learn"
}

// probe runs the connection's read-only probe: every write must be refused.
func (r *Runtime) Probe(ctx context.Context, name string, conn connector.Conn, add func(Finding)) {
	p, ok := conn.(connector.Prober)
	if !ok {
		switch conn.(type) {
		case *mcpconn.Conn, *httpjson.Conn:
			// The server holds the database credentials; quarry cannot
			// try writes with them, only guard what it sends.
			add(Finding{"warn", "read-only", name + ": the server holds the database credentials, so quarry cannot probe them; its guard checks every statement before sending it", "give the server a database role that has only SELECT privileges", ""})
		default:
			add(Finding{"warn", "read-only", name + ": this connector has no read-only probe", "connect with a role that has only SELECT privileges", ""})
		}
		return
	}
	results, err := p.ProbeReadOnly(ctx)
	if err != nil {
		add(Finding{Status: "fail", Area: "read-only", Detail: name + ": the probe could not run: " + oneLine(err.Error())})
		return
	}
	var passed []string
	for _, p := range results {
		if !p.Refused {
			passed = append(passed, p.Name+" ("+p.SQL+")")
		}
	}
	if len(passed) > 0 {
		f := Finding{Status: "fail", Area: "read-only", Detail: name + ": these writes were NOT refused: " + strings.Join(passed, "; "),
			Fix: "connect as a read-only role before using quarry on this database (docs/readonly.md); for example:"}
		if rc := r.CheckedRole(name); rc != nil && rc.Err == nil && rc.Report.Privileged() {
			f.Fix = "connect as a read-only role before using quarry on this database (docs/readonly.md; the SQL is above)"
		} else if rs, ok := conn.(interface{ ReadOnlyRoleSQL() string }); ok {
			f.SQL = rs.ReadOnlyRoleSQL()
		}
		add(f)
		return
	}
	names := make([]string, len(results))
	for i, p := range results {
		names[i] = p.Name
	}
	add(Finding{Status: "ok", Area: "read-only", Detail: fmt.Sprintf("%s refuses writes (%d probes: %s)", name, len(results), strings.Join(names, ", "))})
}

// roleFinding is doctor's verdict on a connection's role: ok, fail with
// the SQL that creates a read-only role, or warn when allowed.
func (r *Runtime) roleFinding(ctx context.Context, cc *config.Connection, conn connector.Conn, add func(Finding)) {
	c := r.Role(ctx, cc.Name, conn)
	if !c.Has {
		return
	}
	name := cc.Name
	switch {
	case c.Err != nil && cc.AllowPrivilegedRole:
		add(Finding{Status: "warn", Area: "role", Detail: name + ": " + c.What() + "; allowed by allow_privileged_role: true, and every run records it"})
	case c.Err != nil:
		add(Finding{Status: "fail", Area: "role", Detail: name + ": " + c.What() + "; quarry refuses to run until it can check the role", Fix: "fix the cause, or set allow_privileged_role: true on the connection"})
	case c.Report.Privileged():
		f := Finding{Area: "role", SQL: c.Report.FixSQL}
		if cc.AllowPrivilegedRole {
			f.Status, f.Detail = "warn", name+": "+c.What()+"; allowed by allow_privileged_role: true, and every run records it"
			f.Fix = "connect as a read-only role instead (docs/readonly.md); for example:"
		} else {
			f.Status, f.Detail = "fail", name+": "+c.What()+"; quarry refuses to run on it"
			f.Fix = "connect as a read-only role (docs/readonly.md), or set allow_privileged_role: true on the connection; a read-only role for this database:"
		}
		add(f)
	default:
		d := name + ": role " + c.Report.Role + " can only read"
		if len(c.Report.Notes) > 0 {
			d += " (allowed: " + strings.Join(c.Report.Notes, "; ") + ")"
		}
		add(Finding{Status: "ok", Area: "role", Detail: d})
	}
}

// preflight is doctor's model check: it reports each check of the round
// trip, and remembers a model that passed them all.
func (r *Runtime) preflight(ctx context.Context, cfg *config.Config, add func(Finding)) {
	m, err := r.ModelFor(cfg, "")
	if err != nil {
		return
	}
	if !m.HasEndpoint() {
		add(Finding{Status: "warn", Area: "model", Detail: "no API key is set, so the model was not called", Fix: "set " + KeyVar(m.Provider) + " (or model.api_key in quarry.yaml) and run doctor again"})
		return
	}
	checks, run := r.PreflightRun(ctx, m, r.PromptText(ctx, cfg))
	passed := true
	for _, c := range checks {
		f := Finding{Status: "ok", Area: "model", Detail: c.Name + ": " + c.Detail}
		if !c.OK {
			f.Status, f.Fix, passed = "fail", c.Fix, false
		}
		add(f)
	}
	u := run.Usage()
	status := "ok"
	if !passed {
		status = "warn"
	}
	add(Finding{Status: status, Area: "model", Detail: fmt.Sprintf("the pre-flight check used %d calls, %d input and %d output tokens (thinking included), %s", run.Calls(), u.Input+u.CacheRead+u.CacheWrite, u.Output, llm.USD(run.Cost()))})
	if passed {
		r.RememberChecked(cfg, m)
	}
}

// valuesFinding says whether the knowledge folder has a value index the
// planner can read, and what it holds.
func valuesFinding(ctx context.Context, dir string) Finding {
	path := filepath.Join(dir, filepath.FromSlash(knowledge.ValuesFile))
	ix, err := valueindex.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Finding{"warn", "values", "no value index: questions read only the values model.yaml lists, not a city, a name or a product", "run quarry learn", ""}
	}
	var st valueindex.Stats
	if err == nil {
		st, err = ix.Stats(ctx)
		ix.Close()
	}
	if err != nil {
		return Finding{"warn", "values", path + ": cannot be read; questions read only the values model.yaml lists", "run quarry learn to rebuild it", ""}
	}
	detail := fmt.Sprintf("%s: %d values and %d identifiers of %d columns", path, st.Values, st.IDs, st.Columns)
	if st.BuiltAt != "" {
		detail += ", built " + st.BuiltAt
	}
	if n := len(st.Truncated); n > 0 {
		detail += fmt.Sprintf("; %d columns hold more values than the %d kept of each", n, st.PerColumn)
	}
	if n := len(st.LeftOut); n > 0 {
		detail += fmt.Sprintf("; %d columns left out (the index holds at most %d values)", n, st.Total)
	}
	return Finding{Status: "ok", Area: "values", Detail: detail}
}
