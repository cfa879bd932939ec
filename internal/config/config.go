package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/quarrydata/quarry/internal/quarry"
)

// FileName is the name of quarry's config file.
const FileName = "quarry.yaml"

// DotEnvName is the name of the optional variables file beside quarry.yaml.
const DotEnvName = ".env"

// maxFileBytes bounds quarry.yaml and .env; real ones are a few KB.
const maxFileBytes = 1 << 20

// The drivers a connection may name.
const (
	DriverSQLite   = "sqlite"
	DriverPostgres = "postgres"
	DriverMySQL    = "mysql"
	DriverDuckDB   = "duckdb"
	// DriverHTTP sends each statement as a JSON POST of {"sql": ...} to a
	// service the user runs (connector/httpjson).
	DriverHTTP = "http"
	// DriverMCP runs each statement through a tool of an MCP server: one
	// quarry starts (command) or one it reaches over HTTP (url)
	// (connector/mcpconn).
	DriverMCP = "mcp"
)

// The model providers.
const (
	ProviderBuiltin   = "builtin"
	ProviderAnthropic = "anthropic"
	ProviderOpenAI    = "openai"
	// ProviderAuto is only ever written in quarry.yaml: Load resolves it to
	// anthropic, openai or builtin from the keys in the environment.
	ProviderAuto = "auto"
)

// Defaults applied by Load when a field is absent.
const (
	DefaultKnowledge         = "knowledge"
	DefaultState             = ".quarry/state.db"
	DefaultMaxRows           = 100_000
	DefaultPreviewRows       = 20
	DefaultStatementTimeout  = 30 * time.Second
	DefaultMaxStatementBytes = 1 << 20
	DefaultCacheTTL          = 5 * time.Minute
	DefaultRepairAttempts    = 3
	DefaultMaxValueBytes     = 16 << 20
	DefaultMaxResultBytes    = 256 << 20

	DefaultReadTimeout        = 10 * time.Second
	DefaultIdleTimeout        = 2 * time.Minute
	DefaultMaxHeaderBytes     = 64 << 10
	DefaultMaxSessions        = 64
	DefaultSessionIdleTimeout = 30 * time.Minute
)

// Config is a loaded, expanded and validated quarry.yaml. Paths are
// absolute. Secrets are Secret values and print as "[redacted]".
// Retention says how long finished runs stay in the state store.
type Retention struct {
	// KeepRuns: `quarry runs prune` with no --older-than, and `quarry
	// serve` once a day, delete runs that finished longer ago than this.
	// 0 keeps every run.
	KeepRuns time.Duration
	// Archive is the absolute folder pruned runs are written to first, one
	// gzip'd JSON-lines file per prune; "" deletes without archiving.
	Archive string
}

// StateIsURL reports whether a state setting names a PostgreSQL server
// rather than a file.
func StateIsURL(state string) bool {
	return strings.HasPrefix(state, "postgres://") || strings.HasPrefix(state, "postgresql://")
}

// ParseAge reads an age such as 90d, 2w, 1y, 36h or 90min: hours and
// smaller as Go writes durations, plus d (days), w (weeks), y (365 days)
// and min (minutes). A bare m is refused: for retention it reads as
// months as easily as minutes (found from outside: 6m meant to keep six
// months deleted all but six minutes).
func ParseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	bad := fmt.Errorf("%q is not an age; write it like 90d, 2w, 1y or 36h", s)
	if num, ok := strings.CutSuffix(s, "min"); ok {
		s = num + "m"
	} else if strings.HasSuffix(s, "m") {
		return 0, fmt.Errorf("%q is ambiguous: minutes or months? write 30d or 26w for months, 90min for minutes", s)
	}
	for unit, size := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour, "y": 365 * 24 * time.Hour} {
		if num, ok := strings.CutSuffix(s, unit); ok {
			n, err := strconv.ParseFloat(num, 64)
			if err != nil || n < 0 || n > 1e5 {
				return 0, bad
			}
			return time.Duration(n * float64(size)), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, bad
	}
	return d, nil
}

type Config struct {
	Path    string // absolute path of quarry.yaml
	Dir     string // absolute folder holding quarry.yaml
	Version int
	Project string
	// Connection is the name of the default connection; "" when none is
	// defined (manual mode), or when two or more are and quarry.yaml names
	// none of them (a command must then name one).
	Connection string
	// Connections by name; ConnectionNames lists them in file order.
	Connections     map[string]*Connection
	ConnectionNames []string
	Knowledge       string // absolute folder
	// State is where quarry keeps its own state: the absolute path of an
	// embedded SQLite file, or a postgres:// URL (StateIsURL).
	State     string
	Retention Retention
	Model     Model
	Limits    Limits
	Server    Server
	Guard     Guard
	// Auth is how people sign in to quarry serve besides API tokens.
	Auth Auth
	// Channels are where monitors' alerts are delivered, by name;
	// ChannelNames lists them in file order.
	Channels     map[string]*Channel
	ChannelNames []string
	// Warnings are one-line notes that do not stop quarry, such as a secret
	// written into the file instead of referenced as ${VAR}.
	Warnings []string

	lines map[string]int
	vars  []string
}

// Connection is one database quarry may read.
type Connection struct {
	Name   string
	Driver string // sqlite | postgres | mysql | duckdb | http | mcp
	Path   string // absolute; sqlite and duckdb
	URL    Secret // postgres, mysql, http, and mcp over HTTP
	Line   int    // line of the connection's name in quarry.yaml
	// Headers are sent with every request of an http connection or an mcp
	// connection reached by url; values may hold secrets.
	Headers map[string]Secret
	// SchemaURL is an http connection's optional catalog endpoint.
	SchemaURL Secret
	// HTTPDialect is the dialect of the database behind an http
	// connection's service or an mcp connection's server; DialectGeneric
	// when not given.
	HTTPDialect quarry.Dialect

	// Command is the program an mcp connection starts as its server, as
	// written ("quarry" means quarry itself); cmd resolves it. Args are
	// its arguments, never holding ${VAR} references.
	Command string
	Args    []string
	// Env is what an mcp connection's server gets in its environment
	// beyond a few allow-listed variables; values may hold secrets.
	Env map[string]Secret
	// Tool is the mcp server's tool that runs SQL; "" means discovered.
	Tool string
	// SQLArgument is the tool's argument that takes the SQL; "" means
	// discovered from the tool's input schema.
	SQLArgument string
	// Arguments are fixed extra arguments sent with every tool call.
	Arguments map[string]string
	// MaxBytes caps one answer of an http or mcp connection's service,
	// while it is read; 0 means the connector's default (64 MiB).
	MaxBytes int64
	// StartTimeout bounds starting an mcp connection's server (the
	// initialize handshake and tool discovery); 0 means
	// limits.statement_timeout.
	StartTimeout time.Duration
	// AllowPrivilegedRole lets quarry run on a postgres or mysql
	// connection whose role can do more than read (docs/readonly.md);
	// every run on it then records that the role is privileged.
	AllowPrivilegedRole bool
	// PoolSize is the most connections a postgres connection holds open
	// at once (0: the connector's default, 4); WorkMem is the work_mem each
	// of its queries sets ("": the connector's default, 64MB).
	PoolSize int
	WorkMem  string
	// Privacy is what of this connection's data may reach a language
	// model (quarry.PrivacyFull when not given); MinGroupSize is the
	// smallest group an aggregates-only connection shows the model
	// (quarry.DefaultMinGroupSize when not given).
	Privacy      quarry.Privacy
	MinGroupSize int
	// GroupRoles are the database roles the members of groups read as, by
	// lower-case group name (postgres: the role is set in each query's
	// transaction, so that the database's own grants and row-level
	// security decide what they read; docs/auth.md).
	GroupRoles map[string]string
	// Approval requires a person's approval of every statement a language
	// model proposes on this connection before it runs (`approval:
	// required`; off when not given), waiting at most ApprovalTimeout (0:
	// the default, 30 minutes). docs/approval.md.
	Approval        bool
	ApprovalTimeout time.Duration
}

// Dialect returns the SQL dialect of the connection's driver.
func (c *Connection) Dialect() quarry.Dialect {
	switch c.Driver {
	case DriverSQLite:
		return quarry.DialectSQLite
	case DriverPostgres:
		return quarry.DialectPostgres
	case DriverMySQL:
		return quarry.DialectMySQL
	case DriverDuckDB:
		return quarry.DialectDuckDB
	case DriverHTTP, DriverMCP:
		if c.HTTPDialect != "" {
			return c.HTTPDialect
		}
	}
	return quarry.DialectGeneric
}

// Model says which language model quarry uses.
type Model struct {
	// Provider is builtin, anthropic or openai (never auto after Load).
	Provider string
	Model    string // the provider's model name; "" for its default
	APIKey   Secret
	BaseURL  string // "" for the provider's default endpoint
	// MaxSteps bounds the model's tool loop in one run (model calls);
	// 0 means the agent's default.
	MaxSteps int
	// SchemaBudget bounds the tokens of schema one run shows the model
	// (estimated as characters / 4); 0 means the agent's default.
	SchemaBudget int
	// BudgetUSD bounds what one run may spend on the model, in US dollars;
	// 0 means no ceiling.
	BudgetUSD float64
	// Effort and CheapEffort are how hard the strong (planning) and cheap
	// (classification, repair) tiers think: off, low, medium, high, xhigh
	// or max; "" for quarry's defaults (medium and low).
	Effort, CheapEffort string
	// MaxTokens bounds each reply, thinking included (0 for the default).
	MaxTokens int
	// Reason says in a few words why this provider was chosen, for doctor.
	Reason string
}

// Limits bound what a query may cost.
type Limits struct {
	MaxRows           int64         // rows read from the database per query
	PreviewRows       int           // rows shown in a terminal or sent to a model
	StatementTimeout  time.Duration // per statement
	MaxStatementBytes int           // longest SQL text accepted
	MaxCost           float64       // EXPLAIN cost ceiling; 0 means none
	MaxEstimatedRows  int64         // EXPLAIN row-estimate ceiling; 0 means none
	CacheTTL          time.Duration // result cache lifetime; 0 turns the cache off
	RepairAttempts    int           // regenerations after a failed query
	// MaxValueBytes bounds one value read from the database (a text,
	// bytes or JSON cell); a larger one fails the query.
	MaxValueBytes int64
	// MaxResultBytes bounds the values of one result that quarry holds in
	// memory or sends to a client; streamed exports (quarry run) are not
	// bounded by it.
	MaxResultBytes int64
}

// Server bounds the HTTP servers quarry runs: quarry serve, and quarry mcp
// and quarry connector with --http.
type Server struct {
	ReadTimeout    time.Duration // the longest a client may take to send one request, headers and body
	IdleTimeout    time.Duration // how long an idle keep-alive connection is kept
	MaxHeaderBytes int           // the largest request header block
	// MaxSessions bounds the MCP sessions open at once (streamable HTTP).
	MaxSessions int
	// SessionIdleTimeout closes an MCP session that has had no request
	// for this long.
	SessionIdleTimeout time.Duration
	// PublicURL is where people reach quarry serve (https://quarry.example),
	// for links in alerts; "" means alerts carry no link.
	PublicURL string
}

// DefaultServer returns the server bounds quarry uses when quarry.yaml
// says nothing, and for commands that read no quarry.yaml.
func DefaultServer() Server {
	return Server{
		ReadTimeout:        DefaultReadTimeout,
		IdleTimeout:        DefaultIdleTimeout,
		MaxHeaderBytes:     DefaultMaxHeaderBytes,
		MaxSessions:        DefaultMaxSessions,
		SessionIdleTimeout: DefaultSessionIdleTimeout,
	}
}

// Guard adjusts the SQL guard.
type Guard struct {
	ExtraFunctions []string // added to the guard's function allow-list
}

// Line returns the line in quarry.yaml where a dotted field such as
// "connections.demo.path" or "limits" is written, or 0 when it is absent.
func (c *Config) Line(field string) int { return c.lines[field] }

// Vars returns the names of the environment variables the file referenced
// or that chose the model, sorted and without repeats. Their values are
// secrets to keep out of any child process quarry starts.
func (c *Config) Vars() []string { return slices.Clone(c.vars) }

// Manual reports whether a command that asks for the connection name (""
// for the default) works without a database: no connection is defined, so
// quarry proposes SQL for a person to run.
func (c *Config) Manual(name string) bool { return name == "" && len(c.ConnectionNames) == 0 }

// Conn returns the named connection; "" means the default.
func (c *Config) Conn(name string) (*Connection, error) {
	if name == "" {
		name = c.Connection
		switch {
		case name != "":
		case len(c.ConnectionNames) == 0:
			return nil, quarry.Errorf(quarry.KindConfig, "%s defines no connection; run quarry learn --url URL (a postgres:// or mysql:// URL, or a SQLite file), or add your database under connections: in it", c.Path)
		default:
			return nil, quarry.Errorf(quarry.KindUsage, "%s defines %d connections (%s) and no default; name one with --connection %s, or add `connection: %s` to it",
				c.Path, len(c.ConnectionNames), shorten(strings.Join(c.ConnectionNames, ", ")), c.ConnectionNames[0], c.ConnectionNames[0])
		}
	}
	if conn, ok := c.Connections[name]; ok {
		return conn, nil
	}
	if len(c.ConnectionNames) == 0 {
		return nil, quarry.Errorf(quarry.KindConfig, "no connection named %q: %s defines none; add it under connections:", shorten(name), c.Path)
	}
	return nil, quarry.Errorf(quarry.KindConfig, "no connection named %q in %s; %s", shorten(name), c.Path, hint(name, c.ConnectionNames))
}

// Load reads the quarry.yaml at path, and the .env file beside it when there
// is one, expands ${VAR} references, applies defaults and validates.
//
// env looks up a variable of the process environment. It takes precedence
// over .env: a variable set in both comes from env. Every error is a
// *quarry.Error of KindConfig with a one-line message naming the file, the
// line and the field; no message ever contains an expanded value.
func Load(path string, env func(string) (string, bool)) (*Config, error) {
	if path == "" {
		return nil, quarry.Errorf(quarry.KindConfig, "no config file given; pass the path of quarry.yaml or run `quarry init`")
	}
	if env == nil {
		env = func(string) (string, bool) { return "", false }
	}
	display := filepath.Clean(path)
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "%s: cannot resolve the path", display)
	}
	data, err := readSmallFile(abs, display, true)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(abs)
	dotenv, err := loadDotEnv(dir, filepath.Join(filepath.Dir(display), DotEnvName))
	if err != nil {
		return nil, err
	}
	lookup := func(name string) (string, bool) {
		if v, ok := env(name); ok {
			return v, true
		}
		v, ok := dotenv[name]
		return v, ok
	}
	return parse(data, display, abs, lookup)
}

// readSmallFile reads a config-sized text file with messages for the usual
// mistakes. With required false a missing file returns nil, nil.
func readSmallFile(abs, display string, required bool) ([]byte, error) {
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !required:
		return nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, quarry.Errorf(quarry.KindConfig, "%s: no such file; run `quarry init` to create one, or pass the path of an existing quarry.yaml", display)
	case err != nil:
		return nil, quarry.Wrap(quarry.KindConfig, err, "%s: cannot read it; check that it exists and that you may read it", display)
	case st.IsDir():
		return nil, quarry.Errorf(quarry.KindConfig, "%s: is a folder, not a file; pass the %s inside it", display, filepath.Base(display))
	case !st.Mode().IsRegular():
		return nil, quarry.Errorf(quarry.KindConfig, "%s: is not a regular file; pass a YAML text file", display)
	case st.Size() > maxFileBytes:
		return nil, quarry.Errorf(quarry.KindConfig, "%s: is %d bytes, more than the %d a config file may have; check that this is the right file", display, st.Size(), maxFileBytes)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "%s: cannot read it; check that you may read it", display)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil, quarry.Errorf(quarry.KindConfig, "%s: is not a text file (it holds binary data); check that this is the right file", display)
	}
	return data, nil
}

func loadDotEnv(dir, display string) (map[string]string, error) {
	data, err := readSmallFile(filepath.Join(dir, DotEnvName), display, false)
	if err != nil || data == nil {
		return nil, err
	}
	vars, err := ParseDotEnv(data)
	if err != nil {
		var de *DotEnvError
		if errors.As(err, &de) {
			return nil, quarry.Errorf(quarry.KindConfig, "%s:%d: %s", display, de.Line, de.Msg)
		}
		return nil, quarry.Errorf(quarry.KindConfig, "%s: %s", display, err.Error())
	}
	return vars, nil
}

// Parse decodes quarry.yaml text as if it were the file at path, looking
// variables up with lookup alone (no .env is read). It is Load without the
// file system, for tests and for checking text before it is written.
func Parse(data []byte, path string, lookup Lookup) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "%s: cannot resolve the path", path)
	}
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	return parse(data, filepath.Clean(path), abs, lookup)
}

func parse(data []byte, display, abs string, lookup Lookup) (cfg *Config, err error) {
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil, quarry.Errorf(quarry.KindConfig, "%s: is not a text file (it holds binary data); check that this is the right file", display)
	}
	file, err := parseYAML(data, display)
	if err != nil {
		return nil, err
	}
	var docs []*ast.DocumentNode
	for _, doc := range file.Docs {
		if doc != nil && doc.Body != nil {
			if _, isComment := doc.Body.(*ast.CommentGroupNode); !isComment {
				docs = append(docs, doc)
			}
		}
	}
	switch {
	case len(docs) == 0:
		return nil, quarry.Errorf(quarry.KindConfig, "%s: is empty; run `quarry init` to write a commented one, or start it with `version: 1`", display)
	case len(docs) > 1:
		return nil, quarry.Errorf(quarry.KindConfig, "%s:%d: a second YAML document (---) starts here; keep the whole config in one", display, lineOf(docs[1].Body))
	}
	d := &decoder{file: display, lookup: lookup, lines: map[string]int{}}
	top, err := d.mapping(docs[0].Body, "")
	if err != nil {
		return nil, d.errAt(lineOf(docs[0].Body), "", "expected fields like `version: 1` at the top level; run `quarry init` to see a complete file")
	}
	cfg = &Config{Path: abs, Dir: filepath.Dir(abs)}
	if err := d.decodeTop(cfg, top); err != nil {
		return nil, err
	}
	if err := d.finish(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// parseYAML parses text into a tree, turning the parser's errors (and, as a
// last resort, its panics) into one-line messages with the line.
func parseYAML(data []byte, display string) (file *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			file, err = nil, quarry.Errorf(quarry.KindConfig, "%s: is not valid YAML; check its indentation and quoting", display)
		}
	}()
	file, err = parser.ParseBytes(data, 0)
	if err == nil {
		return file, nil
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		line := 1
		tk := ye.GetToken()
		if tk != nil && tk.Position != nil {
			line = tk.Position.Line
		}
		if msg := ye.GetMessage(); tk != nil && strings.HasPrefix(msg, "mapping key ") && strings.Contains(msg, " already defined") {
			return nil, quarry.Errorf(quarry.KindConfig, "%s:%d: %s: written twice in the same mapping; keep one", display, line, shorten(tk.Value))
		}
		return nil, quarry.Errorf(quarry.KindConfig, "%s:%d: invalid YAML: %s; check the indentation and quoting on this line", display, line, oneLine(ye.GetMessage()))
	}
	return nil, quarry.Errorf(quarry.KindConfig, "%s: invalid YAML: %s; check its indentation and quoting", display, oneLine(err.Error()))
}

// oneLine keeps the first line of a parser message, with control
// characters written as escapes.
func oneLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		if r < 0x20 || r == 0x7f {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// connDraft collects a connection as written, before validation.
type connDraft struct {
	name, driver, path string
	url                Secret
	urlRaw             string
	urlLine            int
	headers            map[string]Secret
	schemaURL          Secret
	dialect            string
	line               int
	path0              string // the dotted field path, for messages

	// mcp
	command, tool, sqlArgument string
	args                       []string
	env                        map[string]Secret
	arguments                  map[string]string

	maxBytes     int64         // http and mcp
	startTimeout time.Duration // mcp

	allowPrivilegedRole bool   // postgres and mysql
	poolSize            int    // postgres
	workMem             string // postgres

	privacy      string
	minGroupSize int
	groupRoles   map[string]string // postgres

	approval        string
	approvalTimeout time.Duration
}

func (d *decoder) decodeTop(cfg *Config, top *ast.MappingNode) error {
	var (
		version  int64
		hasVer   bool
		provider string
		conns    []*connDraft
		oidc     *oidcDraft
	)
	cfg.Limits = Limits{
		MaxRows:           DefaultMaxRows,
		PreviewRows:       DefaultPreviewRows,
		StatementTimeout:  DefaultStatementTimeout,
		MaxStatementBytes: DefaultMaxStatementBytes,
		CacheTTL:          DefaultCacheTTL,
		RepairAttempts:    DefaultRepairAttempts,
		MaxValueBytes:     DefaultMaxValueBytes,
		MaxResultBytes:    DefaultMaxResultBytes,
	}
	cfg.Server = DefaultServer()
	err := d.fields(top, "", []field{
		{"version", func(n ast.Node, p string) error {
			v, ok, err := d.integer(n, p, 0)
			version, hasVer = v, ok
			return err
		}},
		{"project", d.str(&cfg.Project)},
		{"connection", d.str(&cfg.Connection)},
		{"connections", func(n ast.Node, p string) error {
			var err error
			conns, err = d.connections(n, p)
			return err
		}},
		{"knowledge", d.str(&cfg.Knowledge)},
		{"state", d.str(&cfg.State)},
		{"retention", func(n ast.Node, p string) error {
			m, err := d.mapping(n, p)
			if err != nil {
				return err
			}
			return d.fields(m, p, []field{
				{"keep_runs", d.age(&cfg.Retention.KeepRuns)},
				{"archive", d.str(&cfg.Retention.Archive)},
			})
		}},
		{"model", func(n ast.Node, p string) error {
			m, err := d.mapping(n, p)
			if err != nil {
				return err
			}
			return d.fields(m, p, []field{
				{"provider", d.str(&provider)},
				{"model", d.str(&cfg.Model.Model)},
				{"api_key", d.secret(&cfg.Model.APIKey)},
				{"base_url", d.str(&cfg.Model.BaseURL)},
				{"max_steps", d.intField(&cfg.Model.MaxSteps, 0)},
				{"schema_budget", d.intField(&cfg.Model.SchemaBudget, 0)},
				{"budget_usd", d.number(&cfg.Model.BudgetUSD)},
				{"effort", d.str(&cfg.Model.Effort)},
				{"cheap_effort", d.str(&cfg.Model.CheapEffort)},
				{"max_tokens", d.intField(&cfg.Model.MaxTokens, 0)},
			})
		}},
		{"limits", func(n ast.Node, p string) error {
			m, err := d.mapping(n, p)
			if err != nil {
				return err
			}
			l := &cfg.Limits
			return d.fields(m, p, []field{
				{"max_rows", d.int64Field(&l.MaxRows, 1)},
				{"preview_rows", d.intField(&l.PreviewRows, 1)},
				{"statement_timeout", d.duration(&l.StatementTimeout, false)},
				{"max_statement_bytes", d.intField(&l.MaxStatementBytes, 1)},
				{"max_cost", d.number(&l.MaxCost)},
				{"max_estimated_rows", d.int64Field(&l.MaxEstimatedRows, 0)},
				{"cache_ttl", d.duration(&l.CacheTTL, true)},
				{"repair_attempts", d.intField(&l.RepairAttempts, 0)},
				{"max_value_bytes", d.int64Field(&l.MaxValueBytes, 1)},
				{"max_result_bytes", d.int64Field(&l.MaxResultBytes, 1)},
			})
		}},
		{"server", func(n ast.Node, p string) error {
			m, err := d.mapping(n, p)
			if err != nil {
				return err
			}
			sv := &cfg.Server
			return d.fields(m, p, []field{
				{"read_timeout", d.duration(&sv.ReadTimeout, false)},
				{"idle_timeout", d.duration(&sv.IdleTimeout, false)},
				{"max_header_bytes", d.intField(&sv.MaxHeaderBytes, 1024)},
				{"max_sessions", d.intField(&sv.MaxSessions, 1)},
				{"session_idle_timeout", d.duration(&sv.SessionIdleTimeout, false)},
				{"public_url", d.str(&sv.PublicURL)},
			})
		}},
		{"channels", func(n ast.Node, p string) error { return d.channels(cfg, n, p) }},
		{"auth", func(n ast.Node, p string) error { return d.auth(n, p, &oidc) }},
		{"guard", func(n ast.Node, p string) error {
			m, err := d.mapping(n, p)
			if err != nil {
				return err
			}
			return d.fields(m, p, []field{
				{"extra_functions", d.list(&cfg.Guard.ExtraFunctions)},
			})
		}},
	})
	if err != nil {
		return err
	}
	if !hasVer {
		return d.errAt(1, "version", "missing; add `version: 1` at the top of the file")
	}
	if version != 1 {
		return d.errAt(d.lines["version"], "version", "%d is not a version this quarry reads; write `version: 1`", version)
	}
	cfg.Version = 1
	if err := d.validatePublicURL(cfg); err != nil {
		return err
	}
	if err := d.validateOIDC(cfg, oidc); err != nil {
		return err
	}
	if err := d.validateConnections(cfg, conns); err != nil {
		return err
	}
	if err := d.resolveModel(cfg, provider); err != nil {
		return err
	}
	return d.validateGuard(cfg)
}
