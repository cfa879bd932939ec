package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/quarry"
)

// driverAliases maps other common spellings to quarry's driver names.
var driverAliases = map[string]string{
	"sqlite3":    DriverSQLite,
	"postgresql": DriverPostgres,
	"pg":         DriverPostgres,
	"mariadb":    DriverMySQL,
}

var drivers = []string{DriverSQLite, DriverPostgres, DriverMySQL, DriverDuckDB, DriverHTTP, DriverMCP}

// mcpFields are the fields only an mcp connection takes.
var mcpFields = []string{"command", "args", "env", "tool", "sql_argument", "arguments", "start_timeout"}

// dsnKey finds a key=value connection string's keys.
var dsnKey = lazyRE(`(?i)(^|\s)(host|hostaddr|port|dbname|user|password|sslmode)\s*=`)

// workMemRE is a PostgreSQL memory size: digits and a unit. A bare number
// (PostgreSQL reads it as kB) is refused: sizes elsewhere in quarry.yaml
// are bytes.
var workMemRE = lazyRE(`^([1-9][0-9]{0,9})(kB|MB|GB|TB)$`)

// validWorkMem reports whether s is a work_mem PostgreSQL accepts: 64kB
// to 2147483647kB.
func validWorkMem(s string) bool {
	m := workMemRE().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return false
	}
	kb := n << map[string]uint{"kB": 0, "MB": 10, "GB": 20, "TB": 30}[m[2]]
	return kb >= 64 && kb <= 2147483647 && kb>>map[string]uint{"kB": 0, "MB": 10, "GB": 20, "TB": 30}[m[2]] == n
}

// httpDialects are the dialects an http connection may name.
var httpDialects = []string{string(quarry.DialectGeneric), DriverSQLite, DriverPostgres, DriverMySQL, DriverDuckDB}

var providers = []string{ProviderAuto, ProviderBuiltin, ProviderAnthropic, ProviderOpenAI}

// connections decodes the connections mapping, keeping file order.
func (d *decoder) connections(n ast.Node, path string) ([]*connDraft, error) {
	m, err := d.mapping(n, path)
	if err != nil || m == nil {
		return nil, err
	}
	var out []*connDraft
	for _, mv := range m.Values {
		name, err := d.keyText(mv.Key, path)
		if err != nil {
			return nil, err
		}
		p := join(path, name)
		if !validName(name) {
			return nil, d.errAt(lineOf(mv.Key), shorten(p), "a connection name uses letters, digits, _ and - only; rename it")
		}
		c := &connDraft{name: name, line: lineOf(mv.Key), path0: p}
		d.lines[p] = c.line
		cm, err := d.mapping(mv.Value, p)
		if err != nil {
			return nil, err
		}
		if cm == nil {
			return nil, d.errAt(c.line, p, "empty; give it a driver and a path or url, e.g. `driver: sqlite` and `path: demo.db`")
		}
		err = d.fields(cm, p, []field{
			{"driver", d.str(&c.driver)},
			{"path", d.str(&c.path)},
			{"url", func(n ast.Node, fp string) error {
				s, err := d.text(n, fp)
				if err != nil || s.null {
					return err
				}
				c.url, c.urlRaw, c.urlLine = NewSecret(s.value), s.raw, s.line
				return nil
			}},
			{"headers", func(n ast.Node, fp string) error { return d.headers(n, fp, c) }},
			{"schema_url", func(n ast.Node, fp string) error {
				s, err := d.text(n, fp)
				if err != nil || s.null {
					return err
				}
				c.schemaURL = NewSecret(s.value)
				if literalCredential(s.raw) {
					d.warnLiteral(s.line, fp)
				}
				return nil
			}},
			{"dialect", d.str(&c.dialect)},
			{"command", d.str(&c.command)},
			{"args", func(n ast.Node, fp string) error { return d.args(n, fp, c) }},
			{"env", func(n ast.Node, fp string) error { return d.env(n, fp, c) }},
			{"tool", d.str(&c.tool)},
			{"sql_argument", d.str(&c.sqlArgument)},
			{"arguments", func(n ast.Node, fp string) error { return d.arguments(n, fp, c) }},
			{"max_bytes", d.int64Field(&c.maxBytes, 1024)},
			{"start_timeout", d.duration(&c.startTimeout, false)},
			{"allow_privileged_role", d.boolean(&c.allowPrivilegedRole)},
			{"pool_size", d.intField(&c.poolSize, 1)},
			{"work_mem", d.str(&c.workMem)},
			{"privacy", d.str(&c.privacy)},
			{"min_group_size", d.intField(&c.minGroupSize, 2)},
			{"group_roles", func(n ast.Node, fp string) error { return d.groupRoles(n, fp, c) }},
			{"approval", d.str(&c.approval)},
			{"approval_timeout", d.duration(&c.approvalTimeout, false)},
		})
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// validName reports whether s is a usable connection name.
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		switch {
		case r == '_', r == '-', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

func (d *decoder) validateConnections(cfg *Config, drafts []*connDraft) error {
	cfg.Connections = make(map[string]*Connection, len(drafts))
	for _, c := range drafts {
		p := c.path0
		driver := strings.ToLower(strings.TrimSpace(c.driver))
		if alias, ok := driverAliases[driver]; ok {
			driver = alias
		}
		switch {
		case c.driver == "":
			return d.errAt(c.line, p, "missing driver; add `driver: sqlite` (or %s)", strings.Join(drivers[1:], ", "))
		case !slices.Contains(drivers, driver):
			return d.errAt(d.lines[p+".driver"], p+".driver", "unknown driver %q; %s", shorten(c.driver), hint(driver, drivers))
		}
		conn := &Connection{Name: c.name, Driver: driver, URL: c.url, Line: c.line}
		// A URL written into the file is a secret left in it, except an
		// http service's plain address (no user, password or query).
		if c.urlRaw != "" && !strings.Contains(c.urlRaw, "${") && (driver != DriverHTTP && driver != DriverMCP || literalCredential(c.urlRaw)) {
			d.warnLiteral(c.urlLine, p+".url")
		}
		for _, f := range []string{"headers", "schema_url", "dialect"} {
			// mcp connections take headers and dialect too.
			if line := d.lines[p+"."+f]; line != 0 && driver != DriverHTTP && (driver != DriverMCP || f == "schema_url") {
				return d.errAt(line, p+"."+f, "is only for `driver: http` connections; remove it")
			}
		}
		if line := d.lines[p+".max_bytes"]; line != 0 && driver != DriverHTTP && driver != DriverMCP {
			return d.errAt(line, p+".max_bytes", "is only for `driver: http` and `driver: mcp` connections (the size of one answer); remove it")
		}
		conn.MaxBytes, conn.StartTimeout = c.maxBytes, c.startTimeout
		if line := d.lines[p+".allow_privileged_role"]; line != 0 && driver != DriverPostgres && driver != DriverMySQL {
			return d.errAt(line, p+".allow_privileged_role", "is only for `driver: postgres` and `driver: mysql` connections (the only ones whose role quarry checks); remove it")
		}
		conn.AllowPrivilegedRole = c.allowPrivilegedRole
		for _, f := range []string{"pool_size", "work_mem"} {
			if line := d.lines[p+"."+f]; line != 0 && driver != DriverPostgres {
				return d.errAt(line, p+"."+f, "is only for `driver: postgres` connections; remove it")
			}
		}
		conn.PoolSize, conn.WorkMem = c.poolSize, strings.TrimSpace(c.workMem)
		if line := d.lines[p+".group_roles"]; line != 0 && driver != DriverPostgres {
			return d.errAt(line, p+".group_roles", "is only for `driver: postgres` connections (quarry sets the role in each query's transaction); for another database, give a group a connection of its own")
		}
		conn.GroupRoles = c.groupRoles
		if conn.WorkMem != "" && !validWorkMem(conn.WorkMem) {
			return d.errAt(d.lines[p+".work_mem"], p+".work_mem", "%q is not a work_mem PostgreSQL takes; write a size from 64kB to 2TB with its unit, like 64MB, 512kB or 1GB", shorten(conn.WorkMem))
		}
		if err := d.privacy(c, conn); err != nil {
			return err
		}
		if err := d.approval(c, conn); err != nil {
			return err
		}
		if driver != DriverMCP {
			for _, f := range mcpFields {
				if line := d.lines[p+"."+f]; line != 0 {
					return d.errAt(line, p+"."+f, "is only for `driver: mcp` connections; remove it")
				}
			}
		}
		switch driver {
		case DriverHTTP:
			if d.lines[p+".path"] != 0 {
				return d.errAt(d.lines[p+".path"], p+".path", "http connections use url, not path; write `url: ${QUERY_SERVICE_URL}`")
			}
			if !c.url.IsSet() {
				if line := d.lines[p+".url"]; line != 0 {
					return d.errAt(line, p+".url", "is empty after expansion of %q; set the variable in the environment or in .env beside quarry.yaml", shorten(c.urlRaw))
				}
				return d.errAt(c.line, p, "missing url; add `url: ${QUERY_SERVICE_URL}` (the address that answers a POST of {\"sql\": ...})")
			}
			if u, err := url.Parse(c.url.Value()); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return d.errAt(d.lines[p+".url"], p+".url", "is not an http:// or https:// address (after expansion)")
			}
			if c.schemaURL.IsSet() {
				if u, err := url.Parse(c.schemaURL.Value()); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return d.errAt(d.lines[p+".schema_url"], p+".schema_url", "is not an http:// or https:// address (after expansion)")
				}
			}
			dialect, err := d.dialect(c)
			if err != nil {
				return err
			}
			conn.HTTPDialect = dialect
			conn.Headers = c.headers
			conn.SchemaURL = c.schemaURL
		case DriverMCP:
			if err := d.validateMCP(c, conn); err != nil {
				return err
			}
		case DriverSQLite, DriverDuckDB:
			if c.url.IsSet() || d.lines[p+".url"] != 0 {
				return d.errAt(d.lines[p+".url"], p+".url", "%s connections read a file; use path instead of url", driver)
			}
			if strings.TrimSpace(c.path) == "" {
				if line := d.lines[p+".path"]; line != 0 {
					return d.errAt(line, p+".path", "is empty; write the database file's path, relative to this file's folder")
				}
				return d.errAt(c.line, p, "missing path; add `path: demo.db` (relative to this file's folder)")
			}
			conn.Path = d.resolve(cfg.Dir, c.path)
		default:
			if d.lines[p+".path"] != 0 {
				return d.errAt(d.lines[p+".path"], p+".path", "%s connections use url, not path; write `url: ${DATABASE_URL}`", driver)
			}
			if !c.url.IsSet() {
				if line := d.lines[p+".url"]; line != 0 {
					return d.errAt(line, p+".url", "is empty after expansion of %q; set the variable in the environment or in .env beside quarry.yaml", shorten(c.urlRaw))
				}
				return d.errAt(c.line, p, "missing url; add `url: ${DATABASE_URL}` and set DATABASE_URL in the environment or in .env beside quarry.yaml")
			}
		}
		cfg.Connections[c.name] = conn
		cfg.ConnectionNames = append(cfg.ConnectionNames, c.name)
	}
	switch {
	case cfg.Connection != "":
		if _, ok := cfg.Connections[cfg.Connection]; !ok {
			if len(cfg.ConnectionNames) == 0 {
				return d.errAt(d.lines["connection"], "connection", "names %q, but no connections are defined; add it under connections:", shorten(cfg.Connection))
			}
			return d.errAt(d.lines["connection"], "connection", "no connection named %q is defined; %s", shorten(cfg.Connection), hint(cfg.Connection, cfg.ConnectionNames))
		}
	case len(cfg.ConnectionNames) == 1:
		cfg.Connection = cfg.ConnectionNames[0]
	}
	// Two or more connections and no default: a command that names one
	// with --connection works; one that names none is told to (Conn).
	return nil
}

// resolve makes a path absolute against dir; "~/" means the home folder
// when HOME is known.
func (d *decoder) resolve(dir, p string) string {
	p = strings.TrimSpace(p)
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, ok := d.lookup("HOME"); ok && home != "" {
			return filepath.Join(home, rest)
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// providerKeys are the variables each provider's tools conventionally read.
var providerKeys = map[string]struct{ key, baseURL string }{
	ProviderAnthropic: {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"},
	ProviderOpenAI:    {"OPENAI_API_KEY", "OPENAI_BASE_URL"},
}

func (d *decoder) lookupSet(name string) (string, bool) {
	v, ok := d.lookup(name)
	return v, ok && v != ""
}

// efforts are the thinking efforts model.effort may name (llm.Efforts).
var efforts = []string{"off", "low", "medium", "high", "xhigh", "max"}

// isSet reports whether the environment variable name has a value.
func (d *decoder) isSet(name string) bool {
	_, ok := d.lookupSet(name)
	return ok
}

// resolveModel turns model.provider (auto when absent) into a concrete
// provider, taking a key and base URL from the provider's usual variables
// when the file leaves them empty.
func (d *decoder) resolveModel(cfg *Config, provider string) error {
	m := &cfg.Model
	p := strings.ToLower(strings.TrimSpace(provider))
	switch p {
	case "", ProviderAuto:
		_, anth := d.lookupSet(providerKeys[ProviderAnthropic].key)
		_, oai := d.lookupSet(providerKeys[ProviderOpenAI].key)
		switch {
		case anth:
			p, m.Reason = ProviderAnthropic, "ANTHROPIC_API_KEY is set"
		case oai:
			p, m.Reason = ProviderOpenAI, "OPENAI_API_KEY is set"
		case m.APIKey.IsSet():
			p, m.Reason = ProviderAnthropic, "model.api_key is set"
		case d.isSet(providerKeys[ProviderOpenAI].baseURL) || (m.BaseURL != "" && !d.isSet(providerKeys[ProviderAnthropic].baseURL)):
			// A local OpenAI-compatible server (Ollama, vLLM, llama.cpp)
			// needs a base URL and no key.
			p, m.Reason = ProviderOpenAI, "a base URL for an OpenAI-compatible server is set"
		default:
			p, m.Reason = ProviderBuiltin, "no API key is set"
		}
	case ProviderBuiltin, ProviderAnthropic, ProviderOpenAI:
		m.Reason = "model.provider in " + filepath.Base(d.file)
	default:
		return d.errAt(d.lines["model.provider"], "model.provider", "unknown provider %q; %s", shorten(provider), hint(p, providers))
	}
	m.Provider = p
	for _, f := range []struct {
		name string
		v    *string
	}{{"model.effort", &m.Effort}, {"model.cheap_effort", &m.CheapEffort}} {
		*f.v = strings.ToLower(strings.TrimSpace(*f.v))
		if *f.v != "" && !slices.Contains(efforts, *f.v) {
			return d.errAt(d.lines[f.name], f.name, "unknown effort %q; %s", shorten(*f.v), hint(*f.v, efforts))
		}
	}
	if keys, ok := providerKeys[p]; ok {
		d.vars = append(d.vars, keys.key)
		if !m.APIKey.IsSet() {
			if v, ok := d.lookupSet(keys.key); ok {
				m.APIKey = NewSecret(v)
			}
		}
		if m.BaseURL == "" {
			if v, ok := d.lookupSet(keys.baseURL); ok {
				m.BaseURL = v
			}
		}
	}
	if m.BaseURL != "" {
		u, err := url.Parse(m.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			line := d.lines["model.base_url"]
			if line == 0 {
				return d.errAt(1, "model.base_url", "the base URL from %s is not an http:// or https:// URL; fix the variable", providerKeys[p].baseURL)
			}
			return d.errAt(line, "model.base_url", "expected an http:// or https:// URL such as http://localhost:11434/v1")
		}
	}
	return nil
}

func (d *decoder) validateGuard(cfg *Config) error {
	for i, fn := range cfg.Guard.ExtraFunctions {
		if !validFuncName(fn) {
			return d.errAt(d.lines["guard.extra_functions"], "guard.extra_functions", "item %d, %q, is not a function name; write names like my_func or schema.my_func", i+1, shorten(fn))
		}
		cfg.Guard.ExtraFunctions[i] = strings.ToLower(fn)
	}
	return nil
}

func validFuncName(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) > 2 {
		return false
	}
	for _, part := range parts {
		if !validVarName(part) {
			return false
		}
	}
	return true
}

// finish applies the defaults that depend on the file's place and records
// what the decoder learned.
func (d *decoder) finish(cfg *Config) error {
	if strings.TrimSpace(cfg.Project) == "" {
		cfg.Project = filepath.Base(cfg.Dir)
	}
	if cfg.Knowledge == "" {
		cfg.Knowledge = DefaultKnowledge
	}
	if cfg.State == "" {
		cfg.State = DefaultState
	}
	cfg.Knowledge = d.resolve(cfg.Dir, cfg.Knowledge)
	if st := strings.TrimSpace(cfg.State); StateIsURL(st) {
		cfg.State = st
	} else if strings.Contains(st, "://") || strings.HasPrefix(st, "postgres:") || strings.HasPrefix(st, "postgresql:") || dsnKey().MatchString(st) {
		// Not a path: another scheme, or a key=value connection string,
		// which would otherwise become folders named after it, password
		// and all (found from outside).
		return d.errAt(d.lines["state"], "state", "is neither a file path nor a postgres:// URL; write a PostgreSQL server as postgres://user:password@host:5432/database")
	} else {
		cfg.State = d.resolve(cfg.Dir, cfg.State)
	}
	if cfg.Retention.Archive != "" {
		cfg.Retention.Archive = d.resolve(cfg.Dir, cfg.Retention.Archive)
	}
	slices.Sort(d.vars)
	cfg.vars = slices.Compact(d.vars)
	cfg.lines = d.lines
	cfg.Warnings = d.warnings
	return nil
}

// sensitiveHeader reports whether a header usually carries a credential.
func sensitiveHeader(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"auth", "token", "key", "secret", "cookie", "password"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// headers decodes an http connection's headers: a mapping of header name
// to text, each value ${VAR}-expanded and kept as a Secret.
func (d *decoder) headers(n ast.Node, path string, c *connDraft) error {
	m, err := d.mapping(n, path)
	if err != nil || m == nil {
		return err
	}
	c.headers = map[string]Secret{}
	for _, mv := range m.Values {
		name, err := d.keyText(mv.Key, path)
		if err != nil {
			return err
		}
		hp := path + "." + name
		if name == "" || strings.ContainsAny(name, " \t\r\n:()<>@,;\\\"/[]?={}") {
			return d.errAt(lineOf(mv.Key), shorten(hp), "is not a valid HTTP header name")
		}
		for k := range c.headers {
			if strings.EqualFold(k, name) {
				return d.errAt(lineOf(mv.Key), shorten(hp), "repeats the header %q", shorten(k))
			}
		}
		s, err := d.text(mv.Value, hp)
		if err != nil {
			return err
		}
		if strings.ContainsAny(s.value, "\r\n") {
			return d.errAt(s.line, shorten(hp), "holds a line break (after expansion); a header value is one line")
		}
		if sensitiveHeader(name) && s.raw != "" && !strings.Contains(s.raw, "${") {
			d.warnLiteral(s.line, shorten(hp))
		}
		c.headers[name] = NewSecret(s.value)
	}
	return nil
}

// literalCredential reports whether a URL written into the file (no ${VAR})
// carries a user, password or query string, which usually hold secrets.
func literalCredential(raw string) bool {
	if raw == "" || strings.Contains(raw, "${") {
		return false
	}
	u, err := url.Parse(raw)
	return err != nil || u.User != nil || u.RawQuery != ""
}

// warnLiteral notes a secret written into the file instead of referenced.
func (d *decoder) warnLiteral(line int, path string) {
	d.warnings = append(d.warnings, fmt.Sprintf("%s:%d: %s: the value is written into the file; move it to .env or the environment and write ${VAR} here", d.file, line, path))
}

// dialect reads an http or mcp connection's dialect: the database behind
// the service or server, generic when not given.
func (d *decoder) dialect(c *connDraft) (quarry.Dialect, error) {
	p := c.path0
	dialect := strings.ToLower(strings.TrimSpace(c.dialect))
	if alias, ok := driverAliases[dialect]; ok {
		dialect = alias
	}
	switch {
	case dialect == "" || dialect == "generic":
		dialect = string(quarry.DialectGeneric)
	case !slices.Contains(httpDialects, dialect):
		return "", d.errAt(d.lines[p+".dialect"], p+".dialect", "unknown dialect %q; %s", shorten(c.dialect), hint(dialect, httpDialects))
	}
	return quarry.Dialect(dialect), nil
}
