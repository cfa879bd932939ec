package runtime

import (
	"bytes"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/quarry"
)

// DatabaseFileExts are the file name endings `quarry init` offers to use
// as the project's database.
var DatabaseFileExts = []string{".db", ".sqlite", ".sqlite3", ".duckdb"}

// Target is a database named the way a person types it: a URL
// (postgres://…, mysql://…) or the path of a SQLite or DuckDB file.
type Target struct {
	Driver string
	Path   string // absolute; sqlite and duckdb
	URL    string // postgres and mysql; a secret
	Name   string // the connection's name, from the file or database name
}

// ParseTarget reads what a person gave as their database, a URL or a file
// path relative to wd. Its error is a usage error that says what to write.
func ParseTarget(raw, wd string) (Target, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return Target{}, quarry.Errorf(quarry.KindUsage, "no database given; pass a URL like postgres://user:password@host:5432/db or a SQLite file path")
	}
	scheme, rest, hasScheme := strings.Cut(raw, ":")
	switch strings.ToLower(scheme) {
	case "postgres", "postgresql", "mysql", "mariadb":
		u, err := url.Parse(raw)
		if err != nil || !strings.HasPrefix(rest, "//") || u.Host == "" {
			return Target{}, quarry.Errorf(quarry.KindUsage, "cannot read the %s URL; write it as %s://user:password@host:port/database (percent-encode special characters in the password)", scheme, strings.ToLower(scheme))
		}
		driver := config.DriverPostgres
		if s := strings.ToLower(scheme); s == "mysql" || s == "mariadb" {
			driver = config.DriverMySQL
		}
		return Target{Driver: driver, URL: raw, Name: connName(strings.Trim(u.Path, "/"), driver)}, nil
	case "sqlite", "sqlite3", "duckdb", "file":
		p := strings.TrimPrefix(rest, "//")
		driver := config.DriverSQLite
		if strings.EqualFold(scheme, "duckdb") || strings.EqualFold(filepath.Ext(p), ".duckdb") {
			driver = config.DriverDuckDB
		}
		return fileTarget(p, wd, driver)
	}
	if hasScheme && strings.HasPrefix(rest, "//") {
		return Target{}, quarry.Errorf(quarry.KindUsage, "cannot connect to %q URLs; give a postgres:// or mysql:// URL, or a SQLite or DuckDB file path", scheme+"://")
	}
	driver := config.DriverSQLite
	if strings.EqualFold(filepath.Ext(raw), ".duckdb") {
		driver = config.DriverDuckDB
	}
	return fileTarget(raw, wd, driver)
}

func fileTarget(p, wd, driver string) (Target, error) {
	if p == "" {
		return Target{}, quarry.Errorf(quarry.KindUsage, "no file path given; pass the database file, like data/shop.db")
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(wd, p)
	}
	p = filepath.Clean(p) // sqlite:////data/shop.db: /data/shop.db, not //data/shop.db
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Target{}, quarry.Errorf(quarry.KindUsage, "%s: no such file; give the path of a SQLite or DuckDB file, or a postgres:// or mysql:// URL", p)
	case err != nil:
		return Target{}, quarry.Errorf(quarry.KindUsage, "%s: cannot read it; check the path and its permissions", p)
	case st.IsDir():
		return Target{}, quarry.Errorf(quarry.KindUsage, "%s is a folder; give the database file inside it", p)
	}
	base := filepath.Base(p)
	return Target{Driver: driver, Path: p, Name: connName(strings.TrimSuffix(base, filepath.Ext(base)), driver)}, nil
}

// connName turns a file or database name into a connection name: lower
// case letters, digits and _, or the driver's name when nothing is left.
func connName(s, driver string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && b.Len() > 0, r == '_':
			b.WriteRune(r)
		case r == '-' || r == ' ' || r == '.':
			b.WriteByte('_')
		}
	}
	if n := strings.Trim(b.String(), "_"); n != "" {
		return n
	}
	return driver
}

// Connected says what Connect added.
type Connected struct {
	Name   string // the connection's name in quarry.yaml
	Driver string
	Path   string // sqlite, duckdb: as written in quarry.yaml
	Var    string // postgres, mysql: the variable in .env that holds the URL
	Config string // quarry.yaml's path
	DotEnv string // .env's path, when the URL went there
	// Existing says quarry.yaml already had this database, as Name:
	// nothing was written.
	Existing bool

	undo []savedFile // the files as they were, for Undo
}

// savedFile is a file's content before Connect wrote it; nil: there was
// none.
type savedFile struct {
	path string
	data []byte
	perm os.FileMode
}

// save records path's content before it is written.
func save(path string, perm os.FileMode) (savedFile, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return savedFile{path: path}, nil
	}
	if err != nil {
		return savedFile{}, quarry.Wrap(quarry.KindConfig, err, "cannot read %s", path)
	}
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	return savedFile{path: path, data: data, perm: perm}, nil
}

// Undo puts back the files Connect changed, as they were: a connection
// that does not work is not left behind.
func (r *Runtime) Undo(c Connected) error {
	var errs []error
	for _, f := range slices.Backward(c.undo) {
		if f.data == nil {
			if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		errs = append(errs, WriteFileAtomic(f.path, f.data, f.perm))
	}
	r.loaded, r.cfg, r.cfgErr = false, nil, nil
	if err := errors.Join(errs...); err != nil {
		return quarry.Wrap(quarry.KindConfig, err, "cannot put %s back as it was; remove the connection %s by hand", c.Config, c.Name)
	}
	return nil
}

// Connect adds t to the project's quarry.yaml as a new connection. A file
// is written by its path; a URL, which may hold a password, goes into the
// .env beside quarry.yaml (mode 0600, listed in the folder's .gitignore)
// and quarry.yaml refers to it as ${VAR}. The new text is checked before
// anything is written; quarry.yaml is read again on next use.
func (r *Runtime) Connect(t Target) (Connected, error) {
	cfg, err := r.Config()
	if err != nil {
		return Connected{}, err
	}
	for _, n := range cfg.ConnectionNames {
		cc := cfg.Connections[n]
		if cc.Driver == t.Driver && (t.Path != "" && cc.Path == t.Path || t.URL != "" && cc.URL.Value() == t.URL) {
			return Connected{Name: n, Driver: t.Driver, Config: cfg.Path, Existing: true}, nil
		}
	}
	name := t.Name
	for i := 2; slices.Contains(cfg.ConnectionNames, name); i++ {
		name = t.Name + "_" + strconv.Itoa(i)
	}
	c := Connected{Name: name, Driver: t.Driver, Config: cfg.Path}
	nc := config.NewConnection{Name: name, Driver: t.Driver}
	if len(cfg.ConnectionNames) > 0 {
		nc.Default = cfg.Connection
	}
	envPath := filepath.Join(cfg.Dir, config.DotEnvName)
	var envData []byte
	var envVars map[string]string
	have := false // .env already holds the URL under c.Var
	if t.URL != "" {
		envData, err = os.ReadFile(envPath)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Connected{}, quarry.Wrap(quarry.KindConfig, err, "cannot read %s; check its permissions", envPath)
		}
		envVars, err = config.ParseDotEnv(envData)
		if err != nil {
			return Connected{}, quarry.Errorf(quarry.KindConfig, "%s: %s; fix it, then try again", envPath, err.Error())
		}
		c.Var = "DATABASE_URL"
		for i := 1; ; i++ {
			_, inEnv := r.o.Env(c.Var)
			v, inFile := envVars[c.Var]
			if inFile && v == t.URL && !inEnv {
				have = true
				break
			}
			if !inEnv && !inFile && !slices.Contains(cfg.Vars(), c.Var) {
				break
			}
			c.Var = strings.ToUpper(name) + "_URL"
			if i > 1 {
				c.Var = strings.ToUpper(name) + "_URL_" + strconv.Itoa(i)
			}
		}
		nc.URLVar = c.Var
		c.DotEnv = envPath
	} else {
		rel, err := filepath.Rel(cfg.Dir, t.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = t.Path
		}
		nc.Path, c.Path = filepath.ToSlash(rel), filepath.ToSlash(rel)
	}
	old, err := os.ReadFile(cfg.Path)
	if err != nil {
		return Connected{}, quarry.Wrap(quarry.KindConfig, err, "cannot read %s", cfg.Path)
	}
	text, err := config.AddConnection(old, nc)
	if err != nil {
		return Connected{}, err
	}
	lookup := func(v string) (string, bool) {
		if v == c.Var {
			return t.URL, true
		}
		if val, ok := r.o.Env(v); ok {
			return val, true
		}
		val, ok := envVars[v]
		return val, ok
	}
	if _, err := config.Parse(text, cfg.Path, lookup); err != nil {
		return Connected{}, quarry.Errorf(quarry.KindConfig, "adding the connection would break %s (%s); add it by hand", cfg.Path, quarry.Message(err))
	}
	for _, p := range []string{envPath, filepath.Join(cfg.Dir, ".gitignore"), cfg.Path} {
		f, err := save(p, 0o644)
		if err != nil {
			return Connected{}, err
		}
		c.undo = append(c.undo, f)
	}
	fail := func(err error) (Connected, error) {
		r.Undo(c)
		return Connected{}, err
	}
	if c.Var != "" && !have {
		if err := writeDotEnv(envPath, envData, config.DotEnvLine(c.Var, t.URL)); err != nil {
			return fail(err)
		}
		if err := ignoreInGit(cfg.Dir, config.DotEnvName); err != nil {
			return fail(err)
		}
	}
	if err := WriteFileAtomic(cfg.Path, text, 0o644); err != nil {
		return fail(quarry.Wrap(quarry.KindConfig, err, "cannot write %s", cfg.Path))
	}
	r.loaded, r.cfg, r.cfgErr = false, nil, nil
	return c, nil
}

// writeDotEnv appends line to the .env text old and writes it back with
// mode 0600: it holds passwords.
func writeDotEnv(path string, old []byte, line string) error {
	var b bytes.Buffer
	b.Write(old)
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		b.WriteByte('\n')
	}
	if len(old) == 0 {
		b.WriteString("# Secrets quarry.yaml refers to as ${VAR}. Keep this file out of version control.\n")
	}
	b.WriteString(line)
	if err := WriteFileAtomic(path, b.Bytes(), 0o600); err != nil {
		return quarry.Wrap(quarry.KindConfig, err, "cannot write %s", path)
	}
	return nil
}

// ignoreInGit adds name to the .gitignore in dir unless a line there
// already names it.
func ignoreInGit(dir, name string) error {
	path := filepath.Join(dir, ".gitignore")
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return quarry.Wrap(quarry.KindConfig, err, "cannot read %s", path)
	}
	for _, l := range strings.Split(string(old), "\n") {
		if l = strings.TrimSpace(l); l == name || l == "/"+name {
			return nil
		}
	}
	text := string(old)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if err := WriteFileAtomic(path, []byte(text+name+"\n"), 0o644); err != nil {
		return quarry.Wrap(quarry.KindConfig, err, "cannot write %s", path)
	}
	return nil
}
