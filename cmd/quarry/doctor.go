package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/knowledge"
)

// finding is one line of the doctor's report.
type finding struct {
	Status string `json:"status"` // ok, warn, fail
	Area   string `json:"area"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

func (a *app) doctorCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the project: config, connections, read-only safety, knowledge, model",
		Long: `Check everything quarry needs and say what to do about each problem:
the config, each connection, the read-only probe (a few writes that the
connection must refuse), quarry's state database, the knowledge folder, and
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
	add := func(status, area, detail, fix string) {
		out = append(out, finding{Status: status, Area: area, Detail: detail, Fix: fix})
	}
	cfg, err := a.config()
	if err != nil {
		add("fail", "config", oneLine(err.Error()), "fix quarry.yaml as the message says, or create a project with quarry init")
		return out
	}
	add("ok", "config", cfg.Path+" is valid", "")
	for _, w := range cfg.Warnings {
		add("warn", "config", w, "")
	}

	if len(cfg.ConnectionNames) == 0 {
		add("warn", "connection", "no connection configured: quarry can only propose SQL for you to run", "add one under connections in quarry.yaml")
	}
	for _, name := range cfg.ConnectionNames {
		conn, _, err := a.conn(ctx, name)
		if err != nil {
			add("fail", "connection", name+": "+oneLine(err.Error()), "check the connection's path or URL in quarry.yaml")
			continue
		}
		add("ok", "connection", fmt.Sprintf("%s opens (%s)", name, connectionLabel(name, conn)), "")
		a.probe(ctx, name, conn, add)
	}

	if st, err := a.store(ctx); err != nil {
		add("fail", "state", oneLine(err.Error()), "check that the folder of state: in quarry.yaml is writable")
	} else {
		add("ok", "state", st.Path()+" opens", "")
	}

	if _, err := os.Stat(cfg.Knowledge); err != nil {
		add("warn", "knowledge", "no knowledge folder at "+cfg.Knowledge, "run quarry learn to build it from your database")
	} else if k, err := knowledge.Load(cfg.Knowledge); err != nil {
		add("fail", "knowledge", oneLine(err.Error()), "fix the file as the message says")
	} else {
		add("ok", "knowledge", fmt.Sprintf("%s: %d tables, %d metrics, %d verified queries, %d notes",
			cfg.Knowledge, len(k.Model.Entities), len(k.Model.Metrics), len(k.Verified), len(k.Notes)), "")
	}

	switch cfg.Model.Provider {
	case config.ProviderBuiltin:
		add("ok", "model", "builtin planner ("+cfg.Model.Reason+"): answers questions about the metrics, dimensions and tables in the knowledge folder, offline",
			"for open-ended questions set ANTHROPIC_API_KEY or OPENAI_API_KEY (or model: in quarry.yaml)")
	default:
		add("warn", "model", fmt.Sprintf("%s %s (%s): language-model answers arrive with a later release of this build; the builtin planner answers meanwhile",
			cfg.Model.Provider, cfg.Model.Model, cfg.Model.Reason), "")
	}
	return out
}

// probe runs the connection's read-only probe: every write must be refused.
func (a *app) probe(ctx context.Context, name string, conn connector.Conn, add func(status, area, detail, fix string)) {
	p, ok := conn.(connector.Prober)
	if !ok {
		add("warn", "read-only", name+": this connector has no read-only probe", "connect with a role that has only SELECT privileges")
		return
	}
	results, err := p.ProbeReadOnly(ctx)
	if err != nil {
		add("fail", "read-only", name+": the probe could not run: "+oneLine(err.Error()), "")
		return
	}
	var passed []string
	for _, r := range results {
		if !r.Refused {
			passed = append(passed, r.Name+" ("+r.SQL+")")
		}
	}
	if len(passed) > 0 {
		add("fail", "read-only", name+": these writes were NOT refused: "+strings.Join(passed, "; "),
			"connect with a read-only role (docs/connectors.md has the recipe) before using quarry on this database")
		return
	}
	names := make([]string, len(results))
	for i, r := range results {
		names[i] = r.Name
	}
	add("ok", "read-only", fmt.Sprintf("%s refuses writes (%d probes: %s)", name, len(results), strings.Join(names, ", ")), "")
}

// warn prints a warning on stderr.
func (a *app) warn(msg string) {
	fmt.Fprintln(a.stderr, "quarry: warning: "+msg)
}
