package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

func (a *app) learnCmd() *cobra.Command {
	var connName, descriptions string
	var asJSON, quiet bool
	var dbURL string
	var only []string
	cmd := &cobra.Command{
		Use:   "learn",
		Short: "Build or refresh the knowledge folder from the database's catalog",
		Long: `Read the connection's catalog (tables, views, columns, keys, comments, row
counts) and the known values of low-cardinality text columns, and write the
knowledge folder: model.yaml with entities and relationships (from foreign
keys, and from naming where keys are missing), candidate measures in
metrics.yaml, and a policy.yaml to fill in. A folder with an entities/
folder gets one file per entity there, and so does a new folder for a
database of more than 100 tables.

Run again, it refreshes: it keeps every edit you made, adds what is new, and
reports drift: metrics, dimensions, policy rules or verified queries that
refer to tables or columns that no longer exist. Before reading, it runs the
connection's read-only probe and warns, with the SQL for a read-only role,
when a write was not refused.

Descriptions of tables and columns come from the database's comments and
from a descriptions file: --descriptions PATH (YAML, a BIRD-style CSV, or a
folder of CSV files), or, for a SQLite file, database_description/<table>.csv,
<file>.descriptions.yaml or descriptions.yaml next to it.

--only PATTERN learns only the tables whose name matches the pattern: a
glob (* any characters, ? one, [a-z] a class; case ignored) on schema.table or
on the table name alone, so sales.* is every table of the schema sales,
*orders* every table whose name holds "orders", and public.customers one
table. Repeat the flag or separate patterns with commas; a table matching
any of them is learned. The folder's other entities stay exactly as they
are, and so do their relationships; a pattern that matches no table is an
error that names close table names.

Interrupted (Ctrl-C), learn leaves the folder as it was, or, if it was
already replacing files, finishes that first; run it again and it resumes:
the tables it had read are not read again (docs/knowledge.md).

--url first adds a database to quarry.yaml as a new connection and learns
it: a postgres:// or mysql:// URL goes into .env (mode 0600, git-ignored)
and quarry.yaml refers to it as ${DATABASE_URL}; a SQLite or DuckDB file is
written by its path. In a terminal, a project with no connection is asked
for one.`,
		Example: `  quarry learn
  quarry learn --url 'postgres://reader:secret@db.internal:5432/shop'
  quarry learn --url data/shop.db
  quarry learn --only 'sales.*' --only '*orders*'
  quarry learn --only public.customers,public.orders`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&connName, "connection", "", "the connection to learn (default: the project's default)")
	cmd.Flags().StringVar(&descriptions, "descriptions", "", "a descriptions file (YAML or CSV) or a folder of CSV files to read descriptions from")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress on stderr")
	cmd.Flags().StringArrayVar(&only, "only", nil, "learn only the tables this glob `PATTERN` matches, on schema.table or table (repeatable, or comma-separated)")
	cmd.Flags().StringVar(&dbURL, "url", "", "add this database first: a postgres:// or mysql:// URL (kept in .env), or a SQLite or DuckDB file")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		patterns := knowledge.OnlyPatterns(only)
		if len(only) > 0 && len(patterns) == 0 {
			return quarry.Errorf(quarry.KindUsage, "--only needs a pattern, such as sales.* or *orders*")
		}
		added, err := a.learnTarget(dbURL, connName)
		if err != nil {
			return err
		}
		if added != nil {
			connName = added.Name
		}
		cfg, err := a.config()
		if err != nil {
			return err
		}
		conn, cc, err := a.rt.Conn(ctx, connName)
		if err != nil {
			if added != nil && !added.Existing {
				// A database quarry cannot reach is not left in quarry.yaml.
				if uerr := a.rt.Undo(*added); uerr != nil {
					return uerr
				}
				fmt.Fprintf(a.stderr, "quarry: the connection %s was not kept; quarry.yaml is as it was\n", added.Name)
			}
			return err
		}
		var findings []runtime.Finding
		a.rt.Probe(ctx, connName, conn, func(f runtime.Finding) { findings = append(findings, f) })
		// A connection that can write is still read through the guard and
		// read-only transactions; the warning says how to add the missing
		// layer, a read-only role.
		for _, f := range findings {
			if f.Status == "fail" {
				a.rt.Warn(f.Detail)
				fmt.Fprintf(a.stderr, "  → %s\n", f.Fix)
				if f.SQL != "" {
					fmt.Fprintf(a.stderr, "\n%s\n\n", indent(strings.TrimSpace(f.SQL), "    "))
				}
			}
		}
		opts := knowledge.LearnOptions{Now: a.now(), Descriptions: descriptions, Only: patterns, Source: learnSourceName(cc)}
		if cc.Driver == config.DriverSQLite || cc.Driver == config.DriverDuckDB {
			opts.DatabaseFile = cc.Path
		}
		if !quiet {
			opts.Progress = a.stderr
			if !a.stderrTTY() {
				opts.ProgressLines = 10
			}
		}
		rep, err := a.rt.Learn(ctx, conn, opts)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, rep)
		}
		w := a.stdout
		fmt.Fprintf(w, "Knowledge folder %s\n", cfg.Knowledge)
		if rep.EntityFiles {
			fmt.Fprintf(w, "  the database has more than %d tables: each entity has its own file in %s/ (docs/knowledge.md)\n", knowledge.SplitTables, knowledge.EntitiesDir)
		}
		list := func(label string, items []string) {
			if len(items) > 0 {
				fmt.Fprintf(w, "  %s (%d): %s\n", label, len(items), clip(strings.Join(items, ", "), 200))
			}
		}
		if rep.Matched > 0 {
			fmt.Fprintf(w, "  tables learned (--only %s): %d; the other entities were left as they are\n", strings.Join(patterns, ","), rep.Matched)
		}
		if rep.Resumed > 0 {
			fmt.Fprintf(w, "  resumed: %d tables read by an interrupted run were not read again\n", rep.Resumed)
		}
		list("tables added", rep.TablesAdded)
		list("columns added", rep.ColumnsAdded)
		list("relationships added", rep.RelationshipsAdded)
		for _, l := range rep.Labels {
			fmt.Fprintf(w, "  label: %s\n", l)
		}
		if rep.ValuesAdded > 0 {
			fmt.Fprintf(w, "  known values added: %d\n", rep.ValuesAdded)
		}
		list("descriptions read", rep.Descriptions)
		list("files written", rep.Files)
		if v := rep.ValueIndex; v != nil {
			fmt.Fprintf(w, "  value index %s: %d values and %d identifiers of %d columns\n", knowledge.ValuesFile, v.Values, v.IDs, v.Columns)
			list(fmt.Sprintf("columns with more values than the %d kept of each", v.PerColumn), v.Truncated)
			list(fmt.Sprintf("columns left out (the index holds at most %d values)", v.Total), v.LeftOut)
			list("columns of long text, not indexed", v.FreeText)
		}
		for _, wn := range rep.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", wn)
		}
		if len(rep.Drift) == 0 {
			fmt.Fprintln(w, "  no drift: everything the knowledge refers to still exists")
			return nil
		}
		fmt.Fprintf(w, "  drift (%d): these refer to tables or columns that no longer exist:\n", len(rep.Drift))
		for _, d := range rep.Drift {
			fmt.Fprintf(w, "    %s:%d: %s: %s\n", d.File, d.Line, d.What, d.Message)
		}
		return nil
	})
	return cmd
}

// learnSourceName names the database learn reads, for its progress file
// (knowledge.LearnOptions.Source): the connection's name and driver, and
// its file or its URL without password or query. It holds no secret.
func learnSourceName(cc *config.Connection) string {
	where := cc.Path
	if u, err := url.Parse(cc.URL.Value()); err == nil && cc.URL.IsSet() {
		user := ""
		if u.User != nil {
			user = u.User.Username() + "@"
		}
		where = u.Scheme + "://" + user + u.Host + u.Path
	}
	return cc.Name + "\x00" + cc.Driver + "\x00" + where
}

// learnTarget adds the database that learn should read when it is named
// with --url, or, at a terminal, asked for because the project has none.
// It returns what was added, or nil.
func (a *app) learnTarget(dbURL, connName string) (*runtime.Connected, error) {
	if dbURL != "" && connName != "" {
		return nil, quarry.Errorf(quarry.KindUsage, "give --url or --connection, not both")
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "cannot read the current folder")
	}
	var t *runtime.Target
	switch {
	case dbURL != "":
		pt, err := runtime.ParseTarget(dbURL, wd)
		if err != nil {
			return nil, err
		}
		t = &pt
	case connName == "" && a.prompts:
		cfg, err := a.config()
		if err != nil || !cfg.Manual("") {
			return nil, nil // learn itself says what is wrong
		}
		if t, err = a.promptTarget(wd); err != nil || t == nil {
			return nil, err
		}
	default:
		return nil, nil
	}
	c, err := a.connect(a.stderr, *t)
	if err != nil {
		return nil, err
	}
	return &c, nil
}
