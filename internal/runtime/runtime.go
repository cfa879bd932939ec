package runtime

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/httpjson"
	"github.com/quarrydata/quarry/internal/connector/mcpconn"
	"github.com/quarrydata/quarry/internal/connector/mysql"
	"github.com/quarrydata/quarry/internal/connector/postgres"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/ids"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	pgstate "github.com/quarrydata/quarry/internal/store/postgres"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
	"github.com/quarrydata/quarry/internal/watch/watchqueue"
)

// Options are what the runtime takes from the process: read once by the
// caller (cmd/quarry), never from the environment here.
type Options struct {
	// Load reads quarry.yaml; the runtime calls it once, on first use, so
	// that commands that need no project never look for one.
	Load func() (*config.Config, error)
	// Env looks up an environment variable (a model provider's key when
	// --model names another provider; an MCP server's allowed variables).
	Env    func(string) (string, bool)
	Now    func() time.Time
	Random io.Reader
	// Version is quarry's version, for the MCP client's handshake.
	Version string
	// Notes receives one-line notes and warnings for the person at the
	// terminal; nil discards them. Interactive says a person reads them
	// (stderr is a terminal): notes only they need are written then.
	Notes       io.Writer
	Interactive bool
	// Groups returns the groups of the person a server's request is made
	// for (the sign-in's); a server serves members of policy.yaml's
	// groups under their groups' policy. Nil: nobody is in a group.
	Groups func(ctx context.Context) []string
	// Exiting says the process ends with the command (a question asked
	// from the shell): Close then leaves the SQLite files it read to
	// the operating system, which closes them at exit, rather than have
	// SQLite free its whole parsed schema first (a hundredth of a
	// second on ten thousand tables). They are opened read-only, so
	// nothing is left unwritten; servers' connections are closed.
	Exiting bool
}

// Runtime is quarry built from one project's configuration. It opens each
// resource on first use and keeps it until Close: the config, the state
// store, each connection (checked once for its role), each connection's
// catalog, the column policy and the knowledge folder. It is used by one
// command at a time; what a server shares between concurrent requests is
// built by Server.
type Runtime struct {
	o Options

	cfg    *config.Config
	cfgErr error
	loaded bool

	st    store.State
	wq    *watchqueue.Store
	conns map[string]connector.Conn
	cats  map[connector.Conn]catalogRead
	// versions are the connections' catalog versions (versionOf).
	versions map[connector.Conn][3]string
	pol      policyState
	kf       *folderRead
	ahead    *ahead // the folder and a plan on their way (planAhead)
	// catAhead is the folder's cached catalog on its way
	// (knowledge.CatalogAhead), for the next connection's readCatalog.
	catAhead func(reader, version string) *quarry.Catalog
	roles    map[string]*RoleCheck
	// replica is the replica whose runs Recorder records (RecordAs).
	replica string

	idMu sync.Mutex // NewID may be called from concurrent requests
}

// catalogRead is a connection's schema as it was read, or why it was not.
type catalogRead struct {
	cat *quarry.Catalog
	err error
}

// New returns a runtime over o; nothing is opened yet.
func New(o Options) *Runtime {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Env == nil {
		o.Env = func(string) (string, bool) { return "", false }
	}
	if o.Notes == nil {
		o.Notes = io.Discard
	}
	return &Runtime{o: o}
}

// Config loads quarry.yaml once.
func (r *Runtime) Config() (*config.Config, error) {
	if !r.loaded {
		r.loaded = true
		if r.o.Load == nil {
			r.cfgErr = quarry.Errorf(quarry.KindConfig, "no project: run quarry init, or name one with --config")
		} else {
			r.cfg, r.cfgErr = r.o.Load()
		}
	}
	return r.cfg, r.cfgErr
}

// Store opens quarry's own state database once: SQLite at a path, or
// PostgreSQL for a postgres:// URL.
func (r *Runtime) Store(ctx context.Context) (store.State, error) {
	if r.st != nil {
		return r.st, nil
	}
	cfg, err := r.Config()
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
	r.st = st
	return st, nil
}

// Conn opens the named connection ("" for the default) once, and refuses
// it when its role can do more than read (RoleGate).
func (r *Runtime) Conn(ctx context.Context, name string) (connector.Conn, *config.Connection, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, nil, err
	}
	cc, err := cfg.Conn(name)
	if err != nil {
		return nil, nil, err
	}
	if c, ok := r.conns[cc.Name]; ok {
		return c, cc, r.roleGate(ctx, cc, c)
	}
	var c connector.Conn
	switch cc.Driver {
	case config.DriverSQLite:
		c, err = r.openSQLite(ctx, cfg, cc)
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
		c, err = r.openMCP(ctx, cfg, cc)
	case config.DriverDuckDB:
		c, err = openDuckDB(ctx, cc)
	default:
		err = quarry.Errorf(quarry.KindUnsupported, "connection %q: the %s driver is not available in this build; use sqlite, postgres or mysql", cc.Name, cc.Driver)
	}
	if err != nil {
		return nil, nil, err
	}
	if r.conns == nil {
		r.conns = map[string]connector.Conn{}
	}
	r.conns[cc.Name] = c
	// The second control against writes, independent of the guard: a
	// role that can do more than read is refused. The connection stays
	// open for doctor, which reports why.
	if err := r.roleGate(ctx, cc, c); err != nil {
		return nil, nil, err
	}
	return c, cc, nil
}

// Catalog reads conn's schema once: the agent, the guard's policy and the
// MCP server's describe share it (a catalog read can be slow, and over
// MCP it starts the server).
func (r *Runtime) Catalog(ctx context.Context, conn connector.Conn) (*quarry.Catalog, error) {
	if c, ok := r.cats[conn]; ok {
		return c.cat, c.err
	}
	cat, err := r.readCatalog(ctx, conn)
	if r.cats == nil {
		r.cats = map[connector.Conn]catalogRead{}
	}
	r.cats[conn] = catalogRead{cat, err}
	return cat, err
}

// catalogVersioner is a connection that says cheaply whether its
// catalog changed (PostgreSQL).
type catalogVersioner interface {
	CatalogVersion(ctx context.Context) (reader, version string, err error)
}

// readCatalog reads conn's catalog, or, for a connection with a catalog
// version, the one the knowledge folder's cache holds at that version
// (knowledge.CatalogCacheDir): on a schema of ten thousand tables the
// version is read in tens of milliseconds, the catalog in seconds.
func (r *Runtime) readCatalog(ctx context.Context, conn connector.Conn) (*quarry.Catalog, error) {
	dir, reader, version := r.versionOf(ctx, conn)
	if dir == "" {
		return conn.Catalog(ctx)
	}
	if r.catAhead != nil {
		cat := r.catAhead(reader, version)
		r.catAhead = nil
		if cat != nil {
			return cat, nil
		}
	}
	if cat := knowledge.ReadCatalog(dir, reader, version); cat != nil {
		return cat, nil
	}
	cat, err := conn.Catalog(ctx)
	if err == nil {
		knowledge.WriteCatalog(dir, reader, version, cat)
	}
	return cat, err
}

// versionOf is conn's catalog version and the knowledge folder to keep
// what it versions in, read once per connection; dir is "" when there is
// none (a connector without versions, no folder yet, a failed read).
func (r *Runtime) versionOf(ctx context.Context, conn connector.Conn) (dir, reader, version string) {
	if v, ok := r.versions[conn]; ok {
		return v[0], v[1], v[2]
	}
	defer func() {
		if r.versions == nil {
			r.versions = map[connector.Conn][3]string{}
		}
		r.versions[conn] = [3]string{dir, reader, version}
	}()
	v, ok := conn.(catalogVersioner)
	cfg, err := r.Config()
	if !ok || err != nil || cfg.Knowledge == "" {
		return "", "", ""
	}
	if st, err := os.Stat(cfg.Knowledge); err != nil || !st.IsDir() {
		return "", "", "" // no folder to keep it in: learn makes one
	}
	reader, version, err = v.CatalogVersion(ctx)
	if err != nil {
		return "", "", ""
	}
	return cfg.Knowledge, reader, version
}

// NewID returns a fresh sortable ID with the given prefix; safe for
// concurrent use.
func (r *Runtime) NewID(prefix string) string {
	r.idMu.Lock()
	defer r.idMu.Unlock()
	return ids.New(prefix, r.o.Now(), r.o.Random)
}

// Close closes what the runtime opened.
func (r *Runtime) Close() {
	r.settleAhead()
	if r.kf != nil && r.kf.values != nil {
		r.kf.values.Close()
	}
	for _, c := range r.conns {
		if _, file := c.(*sqlite.Conn); file && r.o.Exiting {
			continue
		}
		c.Close()
	}
	if r.st != nil {
		r.st.Close()
	}
	if r.wq != nil {
		r.wq.Close()
	}
}

// Warn writes a one-line warning for the person at the terminal.
func (r *Runtime) Warn(msg string) {
	fmt.Fprintln(r.o.Notes, "quarry: warning: "+msg)
}

// note writes a one-line note for the person at the terminal.
func (r *Runtime) note(msg string) {
	fmt.Fprintln(r.o.Notes, "quarry: note: "+msg)
}

// ConnectionLabel names a connection for provenance: its name and, when
// the connector can say, its dialect and target. Never credentials.
func ConnectionLabel(name string, conn any) string {
	if id, ok := conn.(interface{ Identity() connector.Identity }); ok {
		ident := id.Identity()
		return fmt.Sprintf("%s (%s: %s)", name, ident.Dialect, ident.Target)
	}
	return name
}

// mcpEnvAllowed are the variables of quarry's own environment an MCP
// server quarry starts also gets; everything else it gets is configured.
var mcpEnvAllowed = []string{"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "USER", "TZ", "SYSTEMROOT"}

// openMCP opens an mcp connection: the server's command resolved, its
// environment built from the allow-list and the configured env.
func (r *Runtime) openMCP(ctx context.Context, cfg *config.Config, cc *config.Connection) (connector.Conn, error) {
	opts := mcpconn.Options{
		Name:           cc.Name,
		Tool:           cc.Tool,
		SQLArgument:    cc.SQLArgument,
		Arguments:      cc.Arguments,
		Dialect:        cc.Dialect(),
		ConnectTimeout: cfg.Limits.StatementTimeout,
		Version:        r.o.Version,
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
	command, err := r.mcpCommand(cfg, cc)
	if err != nil {
		return nil, err
	}
	opts.Command, opts.Args, opts.Dir = command, cc.Args, cfg.Dir
	env := map[string]string{}
	for _, k := range mcpEnvAllowed {
		if v, ok := r.o.Env(k); ok {
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
func (r *Runtime) mcpCommand(cfg *config.Config, cc *config.Connection) (string, error) {
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
	path, _ := r.o.Env("PATH")
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

// Opened returns the named connection when it was opened, even when its
// role was refused (doctor reports why); nil otherwise.
func (r *Runtime) Opened(name string) connector.Conn { return r.conns[name] }
