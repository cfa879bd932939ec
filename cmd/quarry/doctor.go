package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/httpjson"
	"github.com/quarrydata/quarry/internal/connector/mcpconn"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// finding is one line of the doctor's report.
type finding struct {
	Status string `json:"status"` // ok, warn, fail
	Area   string `json:"area"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	SQL    string `json:"sql,omitempty"` // SQL that fixes it, for a person to run
}

func (a *app) doctorCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the project: config, connections, read-only safety, knowledge, model",
		Long: `Check everything quarry needs and say what to do about each problem:
the config, each connection, the privileges of the role it connects as
(a role that can do more than read fails, with the SQL for one that
cannot), the read-only probe (a few writes that the connection must
refuse), quarry's state database, the knowledge folder, and
which language model is configured (and what works without one).

Exit status: 0 when nothing failed (warnings allowed), 1 when a check failed.`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		fs := a.diagnose(ctx)
		failed := false
		for _, f := range fs {
			failed = failed || f.Status == "fail"
		}
		if asJSON {
			if err := writeJSON(a.stdout, fs); err != nil {
				return err
			}
		} else {
			for _, f := range fs {
				fmt.Fprintf(a.stdout, "%-4s  %-10s %s\n", f.Status, f.Area, f.Detail)
				if f.Fix != "" {
					fmt.Fprintf(a.stdout, "      %-10s → %s\n", "", f.Fix)
				}
				if f.SQL != "" {
					fmt.Fprintf(a.stdout, "\n%s\n\n", indent(strings.TrimSpace(f.SQL), "      "))
				}
			}
		}
		if failed {
			return errSilent
		}
		return nil
	})
	return cmd
}

func (a *app) diagnose(ctx context.Context) []finding {
	var out []finding
	add := func(f finding) { out = append(out, f) }
	cfg, err := a.config()
	if err != nil {
		add(finding{"fail", "config", oneLine(err.Error()), "fix quarry.yaml as the message says, or create a project with quarry init", ""})
		return out
	}
	add(finding{Status: "ok", Area: "config", Detail: cfg.Path + " is valid"})
	for _, w := range cfg.Warnings {
		add(finding{Status: "warn", Area: "config", Detail: w})
	}

	if len(cfg.ConnectionNames) == 0 {
		add(finding{"warn", "connection", "no connection configured: quarry can only propose SQL for you to run", "add one under connections in quarry.yaml", ""})
	}
	for _, name := range cfg.ConnectionNames {
		conn, _, err := a.conn(ctx, name)
		if err != nil && a.conns[name] != nil {
			// Opened, but its role was refused: roleFinding says why.
			conn, err = a.conns[name], nil
		}
		if err != nil {
			add(finding{"fail", "connection", name + ": " + oneLine(err.Error()), "check the connection's path or URL in quarry.yaml", ""})
			continue
		}
		if p, ok := conn.(connector.Pinger); ok {
			what, err := p.Ping(ctx)
			if err != nil {
				add(finding{"fail", "connection", oneLine(err.Error()), "check the server's command, args, env or url in quarry.yaml; the message says what it did", ""})
				continue
			}
			add(finding{Status: "ok", Area: "connection", Detail: fmt.Sprintf("%s: %s (%s)", name, what, connectionLabel(name, conn))})
		} else {
			add(finding{Status: "ok", Area: "connection", Detail: fmt.Sprintf("%s opens (%s)", name, connectionLabel(name, conn))})
		}
		a.roleFinding(ctx, cfg.Connections[name], conn, add)
		a.probe(ctx, name, conn, add)
	}

	if st, err := a.store(ctx); err != nil {
		// The message alone: a driver's cause can quote parts of a
		// password that was not percent-encoded (found from outside).
		hint := "check that the folder of state: in quarry.yaml is writable"
		if config.StateIsURL(cfg.State) {
			hint = "check state: in quarry.yaml: the server, the database, the role and its password (percent-encode @ : / ? # % in it)"
		}
		add(finding{"fail", "state", oneLine(quarry.Message(err)), hint, ""})
	} else {
		add(finding{Status: "ok", Area: "state", Detail: st.Where() + " opens"})
	}

	if _, err := os.Stat(cfg.Knowledge); err != nil {
		add(finding{"warn", "knowledge", "no knowledge folder at " + cfg.Knowledge, "run quarry learn to build it from your database", ""})
	} else if k, err := knowledge.Load(cfg.Knowledge); err != nil {
		add(finding{"fail", "knowledge", oneLine(err.Error()), "fix the file as the message says", ""})
	} else {
		add(finding{Status: "ok", Area: "knowledge", Detail: fmt.Sprintf("%s: %d tables, %d metrics, %d verified queries, %d notes",
			cfg.Knowledge, len(k.Model.Entities), len(k.Model.Metrics), len(k.Verified), len(k.Notes))})
	}

	switch cfg.Model.Provider {
	case config.ProviderBuiltin:
		add(finding{"ok", "model", "builtin planner (" + cfg.Model.Reason + "): answers questions about the metrics, dimensions and tables in the knowledge folder, offline",
			"for open-ended questions set ANTHROPIC_API_KEY or OPENAI_API_KEY (or model: in quarry.yaml)", ""})
	default:
		model := cfg.Model.Model
		if model == "" {
			model = "(the provider's default model)"
		}
		add(finding{Status: "ok", Area: "model", Detail: fmt.Sprintf("%s %s (%s): questions go to the model; exact matches to a verified query or metric still get the builtin answer",
			cfg.Model.Provider, model, cfg.Model.Reason)})
		a.preflight(ctx, cfg, add)
	}
	return out
}

// probe runs the connection's read-only probe: every write must be refused.
func (a *app) probe(ctx context.Context, name string, conn connector.Conn, add func(finding)) {
	p, ok := conn.(connector.Prober)
	if !ok {
		switch conn.(type) {
		case *mcpconn.Conn, *httpjson.Conn:
			// The server holds the database credentials; quarry cannot
			// try writes with them, only guard what it sends.
			add(finding{"warn", "read-only", name + ": the server holds the database credentials, so quarry cannot probe them; its guard checks every statement before sending it", "give the server a database role that has only SELECT privileges", ""})
		default:
			add(finding{"warn", "read-only", name + ": this connector has no read-only probe", "connect with a role that has only SELECT privileges", ""})
		}
		return
	}
	results, err := p.ProbeReadOnly(ctx)
	if err != nil {
		add(finding{Status: "fail", Area: "read-only", Detail: name + ": the probe could not run: " + oneLine(err.Error())})
		return
	}
	var passed []string
	for _, r := range results {
		if !r.Refused {
			passed = append(passed, r.Name+" ("+r.SQL+")")
		}
	}
	if len(passed) > 0 {
		f := finding{Status: "fail", Area: "read-only", Detail: name + ": these writes were NOT refused: " + strings.Join(passed, "; "),
			Fix: "connect as a read-only role before using quarry on this database (docs/readonly.md); for example:"}
		if rc := a.roles[name]; rc != nil && rc.err == nil && rc.report.Privileged() {
			f.Fix = "connect as a read-only role before using quarry on this database (docs/readonly.md; the SQL is above)"
		} else if r, ok := conn.(interface{ ReadOnlyRoleSQL() string }); ok {
			f.SQL = r.ReadOnlyRoleSQL()
		}
		add(f)
		return
	}
	names := make([]string, len(results))
	for i, r := range results {
		names[i] = r.Name
	}
	add(finding{Status: "ok", Area: "read-only", Detail: fmt.Sprintf("%s refuses writes (%d probes: %s)", name, len(results), strings.Join(names, ", "))})
}

// warn prints a warning on stderr.
func (a *app) warn(msg string) {
	fmt.Fprintln(a.stderr, "quarry: warning: "+msg)
}
