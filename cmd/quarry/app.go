package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/httpjson"
	"github.com/quarrydata/quarry/internal/connector/mcpconn"
	"github.com/quarrydata/quarry/internal/connector/mysql"
	"github.com/quarrydata/quarry/internal/connector/postgres"
	"github.com/quarrydata/quarry/internal/ids"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	pgstate "github.com/quarrydata/quarry/internal/store/postgres"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// app holds what every command shares: the process's streams and
// environment, read once here, and the project's config, store and
// connection, opened on first use and closed when the command ends.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	env    func(string) (string, bool)
	now    func() time.Time
	random io.Reader
	tty    bool // stdout is a terminal
	width  int  // terminal width, or a default

	configFlag string

	cfg   *config.Config
	st    store.State
	conns map[string]connector.Conn
	cats  map[connector.Conn]catalogRead // each connection's schema, read once
	pol   policyState                    // the project's column policy, loaded once
	kf    *folderRead                    // the knowledge folder, loaded once

	roles map[string]*roleCheck // each connection's role, checked once (role.go)
}

// catalogRead is a connection's schema as it was read, or why it was not.
type catalogRead struct {
	cat *quarry.Catalog
	err error
}

func (a *app) commands() []*cobra.Command {
	return []*cobra.Command{
		a.initCmd(),
		a.configCmd(),
		a.runCmd(),
		a.guardCmd(),
		a.runsCmd(),
		a.doctorCmd(),
		a.askCmd(),
		a.learnCmd(),
		a.evalCmd(),
		a.serveCmd(),
		a.mcpCmd(),
		a.connectorCmd(),
	}
}

// action adapts a command body so that every error it returns is a
// *quarry.Error: anything else is a bug, reported as internal.
func (a *app) action(fn func(ctx context.Context, cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := fn(cmd.Context(), cmd, args)
		var se silentError
		if err == nil || errors.As(err, &se) {
			return err
		}
		var qe *quarry.Error
		if errors.As(err, &qe) {
			return err
		}
		if errors.Is(err, context.Canceled) {
			return quarry.Wrap(quarry.KindCanceled, err, "interrupted")
		}
		return quarry.Wrap(quarry.KindInternal, err, "unexpected error (please report it)")
	}
}

// configPath resolves --config: a file, a folder holding quarry.yaml, or a
// search upward from the working directory.
func (a *app) configPath() (string, error) {
	if a.configFlag != "" {
		p := a.configFlag
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			p = filepath.Join(p, "quarry.yaml")
		}
		return p, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", quarry.Wrap(quarry.KindConfig, err, "cannot read the current folder")
	}
	return config.Find(wd)
}

// config loads quarry.yaml once.
func (a *app) config() (*config.Config, error) {
	if a.cfg != nil {
		return a.cfg, nil
	}
	path, err := a.configPath()
	if err != nil {
		return nil, err
	}
	cfg, err := config.Load(path, a.env)
	if err != nil {
		return nil, err
	}
	a.cfg = cfg
	return cfg, nil
}

// store opens quarry's own state database once.
func (a *app) store(ctx context.Context) (store.State, error) {
	if a.st != nil {
		return a.st, nil
	}
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	var st store.State
	if config.StateIsURL(cfg.State) {
		st, err = pgstate.Open(ctx, cfg.State, pgstate.Options{})
	} else {
		st, err = sqlitestate.Open(ctx, cfg.State)
	}
	if err != nil {
		return nil, err
	}
	a.st = st
	return st, nil
}

// conn opens the named connection ("" for the default) once.
func (a *app) conn(ctx context.Context, name string) (connector.Conn, *config.Connection, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, nil, err
	}
	cc, err := cfg.Conn(name)
	if err != nil {
		return nil, nil, err
	}
	if c, ok := a.conns[cc.Name]; ok {
		return c, cc, a.roleGate(ctx, cc, c)
	}
	var c connector.Conn
	switch cc.Driver {
	case config.DriverSQLite:
		c, err = a.openSQLite(ctx, cfg, cc)
	case config.DriverPostgres:
		c, err = postgres.Open(ctx, cc.URL.Value(), postgres.Options{Name: cc.Name, PoolSize: cc.PoolSize, WorkMem: cc.WorkMem})
	case config.DriverMySQL:
		c, err = mysql.Open(ctx, cc.URL.Value(), mysql.Options{Name: cc.Name})
	case config.DriverHTTP:
		headers := make(map[string]string, len(cc.Headers))
		for k, v := range cc.Headers {
			headers[k] = v.Value()
		}
		c, err = httpjson.Open(ctx, httpjson.Options{Name: cc.Name, URL: cc.URL.Value(), Headers: headers, Dialect: cc.Dialect(), SchemaURL: cc.SchemaURL.Value(), MaxBytes: cc.MaxBytes})
	case config.DriverMCP:
		c, err = a.openMCP(ctx, cfg, cc)
	default:
		c, err = openOther(ctx, cc)
	}
	if err != nil {
		return nil, nil, err
	}
	if a.conns == nil {
		a.conns = map[string]connector.Conn{}
	}
	a.conns[cc.Name] = c
	// The second control against writes, independent of the guard: a
	// role that can do more than read is refused (role.go). The
	// connection stays open for doctor, which reports why.
	if err := a.roleGate(ctx, cc, c); err != nil {
		return nil, nil, err
	}
	return c, cc, nil
}

// catalog reads conn's schema once per command: the agent and the MCP
// server's describe share it (a catalog read can be slow, and over MCP
// it starts the server).
func (a *app) catalog(ctx context.Context, conn connector.Conn) (*quarry.Catalog, error) {
	if r, ok := a.cats[conn]; ok {
		return r.cat, r.err
	}
	cat, err := conn.Catalog(ctx)
	if a.cats == nil {
		a.cats = map[connector.Conn]catalogRead{}
	}
	a.cats[conn] = catalogRead{cat, err}
	return cat, err
}

// newID returns a fresh sortable ID with the given prefix.
func (a *app) newID(prefix string) string {
	return ids.New(prefix, a.now(), a.random)
}

func (a *app) close() {
	for _, c := range a.conns {
		c.Close()
	}
	if a.st != nil {
		a.st.Close()
	}
}

// openOther opens the connections whose drivers are wired in their own
// files (or not in this build).
func openOther(ctx context.Context, cc *config.Connection) (connector.Conn, error) {
	switch cc.Driver {
	case config.DriverDuckDB:
		return openDuckDB(ctx, cc)
	}
	return nil, quarry.Errorf(quarry.KindUnsupported, "connection %q: the %s driver is not available in this build; use sqlite, postgres or mysql", cc.Name, cc.Driver)
}

// mcpEnvAllowed are the variables of quarry's own environment an MCP
// server quarry starts also gets; everything else it gets is configured.
var mcpEnvAllowed = []string{"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "USER", "TZ", "SYSTEMROOT"}

// openMCP opens an mcp connection: the server's command resolved, its
// environment built from the allow-list and the configured env.
func (a *app) openMCP(ctx context.Context, cfg *config.Config, cc *config.Connection) (connector.Conn, error) {
	opts := mcpconn.Options{
		Name:           cc.Name,
		Tool:           cc.Tool,
		SQLArgument:    cc.SQLArgument,
		Arguments:      cc.Arguments,
		Dialect:        cc.Dialect(),
		ConnectTimeout: cfg.Limits.StatementTimeout,
		Version:        version,
		MaxBytes:       cc.MaxBytes,
	}
	if cc.StartTimeout > 0 {
		opts.ConnectTimeout = cc.StartTimeout
	}
	if cc.Command == "" {
		opts.URL = cc.URL.Value()
		opts.Headers = make(map[string]string, len(cc.Headers))
		for k, v := range cc.Headers {
			opts.Headers[k] = v.Value()
		}
		return mcpconn.Open(ctx, opts)
	}
	command, err := a.mcpCommand(cfg, cc)
	if err != nil {
		return nil, err
	}
	opts.Command, opts.Args, opts.Dir = command, cc.Args, cfg.Dir
	env := map[string]string{}
	for _, k := range mcpEnvAllowed {
		if v, ok := a.env(k); ok {
			env[k] = v
		}
	}
	for k, v := range cc.Env {
		env[k] = v.Value()
	}
	for k, v := range env {
		opts.Env = append(opts.Env, k+"="+v)
	}
	return mcpconn.Open(ctx, opts)
}

// mcpCommand resolves an mcp server's command: "quarry" is this
// executable, a path with a slash is relative to quarry.yaml's folder, and
// a bare name is looked up in quarry's PATH.
func (a *app) mcpCommand(cfg *config.Config, cc *config.Connection) (string, error) {
	notFound := func() error {
		return quarry.Errorf(quarry.KindConfig, "connection %q: the server's command %q cannot be found; write its full path, or a path relative to %s, in command:", cc.Name, cc.Command, filepath.Base(cfg.Path))
	}
	switch {
	case cc.Command == "quarry":
		exe, err := os.Executable()
		if err != nil {
			return "", quarry.Wrap(quarry.KindInternal, err, "connection %q: cannot find quarry's own executable", cc.Name)
		}
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		return exe, nil
	case strings.ContainsRune(cc.Command, '/') || strings.ContainsRune(cc.Command, filepath.Separator):
		p := cc.Command
		if !filepath.IsAbs(p) {
			p = filepath.Join(cfg.Dir, p)
		}
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return "", notFound()
		}
		return p, nil
	}
	path, _ := a.env("PATH")
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, cc.Command)
		if _, err := exec.LookPath(p); err == nil {
			return p, nil
		}
	}
	return "", notFound()
}
