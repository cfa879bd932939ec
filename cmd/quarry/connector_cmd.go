package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/mcpserver"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/rowpipe"
	"github.com/quarrydata/quarry/internal/runtime"
)

// connectorFlags are the flags every connector server takes.
type connectorFlags struct {
	maxRows int64
	timeout time.Duration
	http    mcpHTTPFlags
}

func (f *connectorFlags) add(cmd *cobra.Command) {
	cmd.Flags().Int64Var(&f.maxRows, "max-rows", mcpserver.DefaultMaxRows, "the most rows one statement returns")
	cmd.Flags().DurationVar(&f.timeout, "timeout", mcpserver.DefaultTimeout, "how long one statement may run")
	f.http.add(cmd, "quarry connector")
}

func (a *app) connectorCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "connector",
		Short: "Serve a database read-only to MCP clients, through quarry's guard",
		Long: `Serve one database as a Model Context Protocol server on standard input and
output (or streamable HTTP with --http): one tool, run_query, that runs a
SELECT statement through quarry's read-only guard and then on a read-only
connection, and the schema as the resources quarry://schema and
quarry://schema/{table}. No quarry.yaml is needed; when one is found, its
guard.extra_functions apply.

Use it from any MCP client, or from quarry itself as a connection with
driver: mcp and command: quarry (docs/mcp.md, docs/connectors.md).`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(a.connectorSQLiteCmd(), a.connectorURLCmd(quarry.DialectPostgres), a.connectorURLCmd(quarry.DialectMySQL))
	return cmd
}

func (a *app) connectorSQLiteCmd() *cobra.Command {
	var f connectorFlags
	cmd := &cobra.Command{
		Use:   "sqlite PATH",
		Short: "Serve a SQLite database file read-only over MCP",
		Long: `Serve a SQLite database file read-only over MCP: the file is opened
read-only, with SQLite's own read-only checks, and every statement passes
quarry's guard first.`,
		Example: `  quarry connector sqlite shop.db
  quarry connector sqlite shop.db --http 127.0.0.1:8766`,
		Args: cobra.ExactArgs(1),
	}
	f.add(cmd)
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		if err := f.check(a); err != nil {
			return err
		}
		db, err := a.rt.OpenSQLiteFile(ctx, args[0], a.configFlag != "")
		if err != nil {
			return err
		}
		defer db.Close()
		return a.serveConnector(ctx, db, f)
	})
	return cmd
}

// connectorURLCmd is `quarry connector postgres` and `quarry connector
// mysql`: the database's URL comes from DATABASE_URL, so that it never
// appears in a process list or a client's arguments.
func (a *app) connectorURLCmd(d quarry.Dialect) *cobra.Command {
	var f connectorFlags
	var allowPrivileged bool
	title, example := "PostgreSQL", "postgres://reader@db.example.com:5432/shop"
	if d == quarry.DialectMySQL {
		title, example = "MySQL or MariaDB", "reader:secret@tcp(db.example.com:3306)/shop"
	}
	cmd := &cobra.Command{
		Use:   string(d),
		Short: "Serve a " + title + " database read-only over MCP (URL from DATABASE_URL)",
		Long: fmt.Sprintf(`Serve a %s database read-only over MCP. The connection URL comes from
DATABASE_URL in the server's environment (set it in the MCP client's config,
for example "env": {"DATABASE_URL": "%s"}); it never appears in a message.
Statements run in read-only transactions with the statement timeout set by
quarry, after quarry's guard has allowed them. Connect as a read-only role
as well (docs/connectors.md): quarry checks the role's privileges first
and refuses one that can do more than read, unless --allow-privileged-role
is given (docs/readonly.md).`, title, example),
		Example: fmt.Sprintf("  DATABASE_URL=%q quarry connector %s", example, d),
		Args:    cobra.NoArgs,
	}
	f.add(cmd)
	cmd.Flags().BoolVar(&allowPrivileged, "allow-privileged-role", false, "serve even when the role in DATABASE_URL can do more than read (refused by default; docs/readonly.md)")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		if err := f.check(a); err != nil {
			return err
		}
		raw, ok := a.env("DATABASE_URL")
		if !ok || strings.TrimSpace(raw) == "" {
			return quarry.Errorf(quarry.KindConfig, "set DATABASE_URL in the server's environment (for example in the MCP client's config: \"env\": {\"DATABASE_URL\": \"%s\"})", example)
		}
		db, err := a.rt.OpenURL(ctx, d, raw, runtime.URLOptions{Title: title, AllowPrivileged: allowPrivileged, WithProject: a.configFlag != ""})
		if err != nil {
			return err
		}
		defer db.Close()
		return a.serveConnector(ctx, db, f)
	})
	return cmd
}

func (f *connectorFlags) check(a *app) error {
	if f.maxRows < 1 {
		return quarry.Errorf(quarry.KindUsage, "--max-rows must be at least 1")
	}
	if f.timeout <= 0 {
		return quarry.Errorf(quarry.KindUsage, "--timeout must be more than 0 (for example 30s)")
	}
	return f.http.check(a)
}

// serveConnector serves db over MCP.
func (a *app) serveConnector(ctx context.Context, db *runtime.Database, f connectorFlags) error {
	var pipe *rowpipe.Writer
	if f.http.addr == "" {
		pipe = a.resultPipe()
	}
	srv, err := mcpserver.NewConnector(mcpserver.ConnectorConfig{
		Name: db.What, Exec: db.Conn, Guard: db.Guard, MaxRows: f.maxRows, Timeout: f.timeout, Version: version, Scrub: db.Scrub,
		Pipe: pipe,
	})
	if err != nil {
		return err
	}
	return a.serveMCP(ctx, srv, f.http, db.What, config.DefaultServer(), "--max-sessions")
}

// resultPipe is the result pipe that the quarry client which started this
// server gave it (rowpipe.EnvVar), or nil when there is none: the server
// was started by another client, or by a wrapper that did not pass the
// pipe on.
func (a *app) resultPipe() *rowpipe.Writer {
	v, ok := a.env(rowpipe.EnvVar)
	if !ok {
		return nil
	}
	f, token, ok := rowpipe.Inherited(v)
	if !ok {
		return nil
	}
	w, err := rowpipe.NewWriter(f, token)
	if err != nil {
		f.Close()
		return nil
	}
	return w
}
