package mysql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Flavor is the kind of server behind a connection.
type Flavor string

// The server flavours the connector tells apart. Servers that speak the
// MySQL protocol but are neither (TiDB, Aurora, …) report FlavorMySQL.
const (
	FlavorMySQL   Flavor = "mysql"
	FlavorMariaDB Flavor = "mariadb"
)

// DefaultDialTimeout bounds connecting and logging in when Options leaves
// DialTimeout at zero.
const DefaultDialTimeout = 10 * time.Second

// Options configure a MySQL or MariaDB connection.
type Options struct {
	// Name is the connection's name in quarry.yaml, used in Identity.
	Name string
	// DialTimeout bounds connecting and logging in to the server (each new
	// session); 0 means DefaultDialTimeout.
	DialTimeout time.Duration
}

// Conn is a connection pool to one MySQL or MariaDB server and database.
// It implements connector.Conn and connector.Prober, and is safe for
// concurrent use: each Query runs in its own session.
type Conn struct {
	db          *sql.DB
	name        string
	target      string // host:port/database, never credentials
	user        string
	database    string
	dialTimeout time.Duration

	flavor  Flavor
	version string
	sqlMode string

	mu          sync.Mutex
	jsonColumns map[string]bool // lower-case names of MariaDB JSON columns
}

var (
	_ connector.Conn   = (*Conn)(nil)
	_ connector.Prober = (*Conn)(nil)
)

// Open connects to a MySQL or MariaDB server. dsn is either a
// go-sql-driver DSN (user:password@tcp(host:3306)/database?params) or a URL
// (mysql://user:password@host:3306/database?params; mariadb:// is the
// same). The connector forces multiStatements, interpolateParams and
// allowAllFiles off and parseTime off (it reads dates itself); a DSN that
// turns any of the first three on is refused with a KindConfig error.
//
// Open logs in once to read the server's flavour, version and sql_mode. A
// wrong password, an unknown database or an unreachable server is a
// KindConnection error; a server whose sql_mode contains
// NO_BACKSLASH_ESCAPES or ANSI_QUOTES is a KindConfig error. No message
// ever contains the password.
func Open(ctx context.Context, dsn string, opts Options) (*Conn, error) {
	cfg, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	dial := opts.DialTimeout
	if dial <= 0 {
		dial = DefaultDialTimeout
	}
	cfg.Timeout = dial
	cn, err := gomysql.NewConnector(cfg)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "the MySQL connection settings are invalid; check the DSN")
	}
	c := &Conn{
		db:          sql.OpenDB(cn),
		name:        opts.Name,
		target:      target(cfg),
		user:        cfg.User,
		database:    cfg.DBName,
		dialTimeout: dial,
	}
	c.db.SetMaxIdleConns(2)
	c.db.SetConnMaxIdleTime(5 * time.Minute)
	if err := c.inspect(ctx); err != nil {
		c.db.Close()
		return nil, err
	}
	return c, nil
}

// parseDSN reads a DSN or URL into a driver configuration with the safety
// options forced.
func parseDSN(dsn string) (*gomysql.Config, error) {
	dsn = strings.TrimSpace(dsn)
	if dsn == "" {
		return nil, quarry.Errorf(quarry.KindConfig, "no MySQL DSN given; set the connection's url, e.g. mysql://user:password@host:3306/database")
	}
	var cfg *gomysql.Config
	var err error
	if i := strings.Index(dsn, "://"); i > 0 && !strings.Contains(dsn[:i], "@") {
		cfg, err = fromURL(dsn)
	} else {
		cfg, err = gomysql.ParseDSN(dsn)
		if err != nil {
			err = quarry.Errorf(quarry.KindConfig, "cannot read the MySQL DSN (%s); write it as user:password@tcp(host:3306)/database or mysql://user:password@host:3306/database", dsnProblem(err))
		}
	}
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.MultiStatements:
		return nil, quarry.Errorf(quarry.KindConfig, "the MySQL DSN turns on multiStatements, which lets one query run several statements; remove multiStatements=true (quarry runs exactly one statement at a time)")
	case cfg.InterpolateParams:
		return nil, quarry.Errorf(quarry.KindConfig, "the MySQL DSN turns on interpolateParams, which builds SQL text on the client; remove interpolateParams=true")
	case cfg.AllowAllFiles:
		return nil, quarry.Errorf(quarry.KindConfig, "the MySQL DSN turns on allowAllFiles, which lets the server read any local file through LOAD DATA LOCAL INFILE; remove allowAllFiles=true")
	}
	for k := range cfg.Params {
		if strings.EqualFold(k, "autocommit") || strings.EqualFold(k, "transaction_read_only") || strings.EqualFold(k, "tx_read_only") {
			return nil, quarry.Errorf(quarry.KindConfig, "the MySQL DSN sets the session variable %s; remove it (quarry manages transactions itself)", k)
		}
	}
	cfg.MultiStatements = false
	cfg.InterpolateParams = false
	cfg.AllowAllFiles = false
	cfg.ParseTime = false
	cfg.ColumnsWithAlias = false
	cfg.Logger = quietLogger{} // the driver would print to stderr; errors come back as values
	return cfg, nil
}

// quietLogger drops the driver's log lines.
type quietLogger struct{}

func (quietLogger) Print(...any) {}

// dsnProblem is the driver's complaint about a DSN, without anything from
// the DSN itself.
func dsnProblem(err error) string {
	if s := err.Error(); strings.HasPrefix(s, "invalid DSN") {
		return s
	}
	return "an invalid parameter or value"
}

// fromURL converts mysql://user:password@host:port/database?params.
func fromURL(raw string) (*gomysql.Config, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url's errors quote the whole URL, password included.
		return nil, quarry.Errorf(quarry.KindConfig, "cannot read the MySQL URL; write it as mysql://user:password@host:3306/database (percent-encode special characters in the password)")
	}
	if u.Scheme != "mysql" && u.Scheme != "mariadb" {
		return nil, quarry.Errorf(quarry.KindConfig, "the MySQL URL has scheme %q; use mysql:// or mariadb://", u.Scheme)
	}
	cfg, err := gomysql.ParseDSN("/?" + u.RawQuery)
	if err != nil {
		return nil, quarry.Errorf(quarry.KindConfig, "cannot read the MySQL URL's parameters (%s); check the part after ?", dsnProblem(err))
	}
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = "3306"
	}
	cfg.Net = "tcp"
	cfg.Addr = net.JoinHostPort(host, port)
	db, err := url.PathUnescape(strings.TrimPrefix(u.EscapedPath(), "/"))
	if err != nil || strings.Contains(db, "/") {
		return nil, quarry.Errorf(quarry.KindConfig, "the MySQL URL's database name %q is not valid; write mysql://user:password@host:3306/database", strings.TrimPrefix(u.Path, "/"))
	}
	cfg.DBName = db
	return cfg, nil
}

// target describes where the connection goes, without credentials.
func target(cfg *gomysql.Config) string {
	addr := cfg.Addr
	if cfg.Net == "unix" {
		addr = "unix(" + cfg.Addr + ")"
	}
	return addr + "/" + cfg.DBName
}

// inspect logs in once and reads the server's flavour, version and
// sql_mode.
func (c *Conn) inspect(ctx context.Context) error {
	ictx, cancel := context.WithTimeout(ctx, c.dialTimeout+5*time.Second)
	defer cancel()
	var version, mode string
	err := c.db.QueryRowContext(ictx, "SELECT VERSION(), @@SESSION.sql_mode").Scan(&version, &mode)
	if err != nil {
		return c.connectError(ctx, err)
	}
	c.flavor, c.version = parseVersion(version)
	c.sqlMode = mode
	if err := c.checkSQLMode(mode); err != nil {
		return err
	}
	c.loadJSONColumns(ictx)
	return nil
}

// parseVersion splits VERSION() into a flavour and a version number.
func parseVersion(v string) (Flavor, string) {
	f := FlavorMySQL
	if strings.Contains(strings.ToLower(v), "mariadb") {
		f = FlavorMariaDB
	}
	// MariaDB behind some proxies reports "5.5.5-10.11.6-MariaDB".
	v = strings.TrimPrefix(v, "5.5.5-")
	if i := strings.IndexFunc(v, func(r rune) bool { return r != '.' && (r < '0' || r > '9') }); i >= 0 {
		v = v[:i]
	}
	return f, v
}

// checkSQLMode refuses the sql_mode flags that change how SQL text is
// read: NO_BACKSLASH_ESCAPES and ANSI_QUOTES (which ANSI mode includes).
func (c *Conn) checkSQLMode(mode string) error {
	for _, m := range strings.Split(strings.ToUpper(mode), ",") {
		for _, bad := range []string{"NO_BACKSLASH_ESCAPES", "ANSI_QUOTES"} {
			if strings.TrimSpace(m) == bad {
				return quarry.Errorf(quarry.KindConfig, "the server's sql_mode on %s contains %s, which changes how SQL text is read and so defeats quarry's guard; remove it from the server's sql_mode for quarry's account, or set a session sql_mode without it in the DSN (e.g. ?sql_mode=%%27STRICT_TRANS_TABLES%%27)", c.target, bad)
			}
		}
	}
	return nil
}

// Dialect returns quarry.DialectMySQL, for MySQL and MariaDB alike.
func (c *Conn) Dialect() quarry.Dialect { return quarry.DialectMySQL }

// Flavor returns whether the server is MySQL or MariaDB, as read at Open.
func (c *Conn) Flavor() Flavor { return c.flavor }

// Version returns the server's version number, e.g. "10.11.19".
func (c *Conn) Version() string { return c.version }

// SQLMode returns the session's sql_mode as read at Open, for the guard's
// parser.
func (c *Conn) SQLMode() string { return c.sqlMode }

// Identity describes the connection for provenance: its name and
// host:port/database.
func (c *Conn) Identity() connector.Identity {
	return connector.Identity{Name: c.name, Dialect: quarry.DialectMySQL, Target: c.target}
}

// Close closes the pool. Queries still reading finish first.
func (c *Conn) Close() error {
	if err := c.db.Close(); err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot close the MySQL connection to %s", c.target)
	}
	return nil
}

// serverName is how messages name the server.
func (c *Conn) serverName() string {
	if c.flavor == FlavorMariaDB {
		return "MariaDB"
	}
	return "MySQL"
}

// connectError maps a failure to log in or reach the server.
func (c *Conn) connectError(ctx context.Context, err error) error {
	var me *gomysql.MySQLError
	var ne net.Error
	switch {
	case errors.As(err, &me):
		switch me.Number {
		case 1045:
			return quarry.Errorf(quarry.KindConnection, "the server at %s refused user %q: wrong user name or password; check the credentials in the connection's DSN", c.target, c.user)
		case 1044:
			return quarry.Errorf(quarry.KindConnection, "user %q may not use database %q on %s; grant it SELECT on that database or choose another", c.user, c.database, c.target)
		case 1049:
			return quarry.Errorf(quarry.KindConnection, "database %q does not exist on %s; check the database name in the DSN", c.database, c.target)
		case 1130:
			return quarry.Errorf(quarry.KindConnection, "the server at %s does not accept user %q from this host; create the account for this host", c.target, c.user)
		case 1040, 1203:
			return quarry.Errorf(quarry.KindConnection, "the server at %s has too many connections; retry later or raise its connection limits", c.target)
		}
		return quarry.Errorf(quarry.KindConnection, "the server at %s refused the connection (error %d: %s); check the DSN", c.target, me.Number, oneLine(me.Message))
	case ctx.Err() != nil:
		return quarry.Wrap(quarry.KindConnection, ctx.Err(), "gave up connecting to %s; check that the server is reachable", c.target)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return quarry.Errorf(quarry.KindConnection, "timed out connecting to %s after %s; check the host, the port and any firewall", c.target, c.dialTimeout)
	case errors.As(err, &ne):
		return quarry.Errorf(quarry.KindConnection, "cannot reach the MySQL server at %s (%s); check the host and port and that the server is running", c.target, netProblem(err))
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, gomysql.ErrInvalidConn), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return quarry.Errorf(quarry.KindConnection, "the server at %s closed the connection while logging in; check that it is a MySQL or MariaDB server and that TLS settings match", c.target)
	}
	return quarry.Wrap(quarry.KindConnection, err, "cannot connect to %s; check the DSN", c.target)
}

// netProblem is the last part of a network error ("connection refused").
func netProblem(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return s
}

// oneLine keeps a server message on one line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}

// itoa formats a connection id.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }
