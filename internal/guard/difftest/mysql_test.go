package difftest

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/quarrydata/quarry/internal/quarry"
)

// mysqlTarget is a throwaway schema on the MariaDB server. raw is the
// connection under test: all privileges, multiStatements on, autocommit.
// obs takes the fingerprints; canary is a session that must survive.
type mysqlTarget struct {
	db      string
	rawDB   *sql.DB
	raw     *sql.Conn
	rawID   int64
	obs     *sql.DB
	canary  *sql.Conn
	canaryI int64
	files   string   // the server's secure_file_priv directory, or ""
	tables  []string // the test schema's tables (refreshed by slowSnapshot)
	seqs    []string // and its sequences
}

// lockNames are the GET_LOCK names the generated statements use.
var lockNames = []string{"difftest_lock", "difftest_lock2", "difftest_lock3", "difftest_probe_lock"}

func TestMySQLDifferential(t *testing.T) {
	t.Parallel()
	dsn := serverEnv(t, "QUARRY_TEST_MYSQL_DSN")
	ctx := context.Background()
	if err := mysql.SetLogger(log.New(io.Discard, "", 0)); err != nil {
		t.Fatal(err)
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	tg := &mysqlTarget{db: fmt.Sprintf("quarry_difftest_%d", os.Getpid())}
	if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+tg.db); err != nil {
		t.Fatalf("connect to the MySQL server: %v", err)
	}
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+tg.db); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, c := range []*sql.Conn{tg.raw, tg.canary} {
			if c != nil {
				c.Close()
			}
		}
		for _, d := range []*sql.DB{tg.rawDB, tg.obs} {
			if d != nil {
				d.Close()
			}
		}
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+tg.db); err != nil {
			t.Errorf("drop the test schema: %v", err)
		}
		admin.Close()
	})
	cfg.DBName = tg.db
	obsCfg := cfg.Clone()
	tg.obs = sql.OpenDB(mustConnector(t, obsCfg))
	tg.obs.SetMaxOpenConns(2)
	rawCfg := cfg.Clone()
	rawCfg.MultiStatements = true
	if rawCfg.Params == nil {
		rawCfg.Params = map[string]string{}
	}
	rawCfg.Params["max_statement_time"] = fmt.Sprint(serverTimeout.Seconds())
	tg.rawDB = sql.OpenDB(mustConnector(t, rawCfg))
	tg.rawDB.SetMaxOpenConns(1)
	if err := tg.connect(ctx); err != nil {
		t.Fatal(err)
	}
	fixture, err := os.ReadFile("testdata/mysql.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tg.raw.ExecContext(ctx, string(fixture)); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	tg.files = os.Getenv("QUARRY_TEST_MYSQL_FILES")
	if tg.files == "" {
		var priv sql.NullString
		if err := tg.obs.QueryRowContext(ctx, "SELECT @@secure_file_priv").Scan(&priv); err != nil {
			t.Fatal(err)
		}
		tg.files = strings.TrimSuffix(priv.String, "/")
	}
	if _, err := os.ReadDir(tg.files); err != nil {
		t.Logf("the server's files directory %q cannot be listed here; not watched: %v", tg.files, err)
		tg.files = ""
	}
	var probes []string
	if tg.files != "" {
		out := filepath.Join(tg.files, fmt.Sprintf("difftest_probe_%d.txt", os.Getpid()))
		t.Cleanup(func() { os.Remove(out) })
		probes = append(probes, "SELECT 1 INTO OUTFILE '"+filepath.ToSlash(out)+"'")
	}
	probes = append(probes,
		"SELECT 1; DELETE FROM refunds",
		"UPDATE users SET role = 'probe' WHERE id = 3",
		"SELECT NEXTVAL(difftest_seq)",
		"SELECT GET_LOCK('difftest_probe_lock', 0)",
		"SET SESSION sql_mode = ''",
		"START TRANSACTION",
		"LOCK TABLES orders READ",
		"CREATE TABLE difftest_probe_new (x int)",
		"ALTER TABLE t ADD COLUMN difftest_probe int",
	)
	run(t, quarry.DialectMySQL, tg, generatorConfig{seed: 2, files: tg.files}, probes)
}

func mustConnector(t *testing.T, cfg *mysql.Config) driver.Connector {
	t.Helper()
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// connect opens the raw session and, if it is not alive, the canary.
func (m *mysqlTarget) connect(ctx context.Context) error {
	var err error
	if m.raw, err = m.rawDB.Conn(ctx); err != nil {
		return err
	}
	if err := m.raw.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&m.rawID); err != nil {
		return err
	}
	if m.canary != nil {
		if err := m.canary.PingContext(ctx); err == nil {
			return nil
		}
		m.canary.Close()
	}
	if m.canary, err = m.obs.Conn(ctx); err != nil {
		return err
	}
	return m.canary.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&m.canaryI)
}

func (m *mysqlTarget) exec(ctx context.Context, q string) error {
	_, err := m.raw.ExecContext(ctx, q)
	if err == nil {
		return nil
	}
	pctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
	defer cancel()
	if perr := m.raw.PingContext(pctx); perr != nil {
		return fmt.Errorf("%w: %v", errConnLost, err)
	}
	return err
}

// recover replaces the raw session (its locks, transaction, table locks and
// variables go with it).
func (m *mysqlTarget) recover(ctx context.Context) error {
	// Returning ErrBadConn makes database/sql discard the connection, so
	// the next one is a new server session.
	m.raw.Raw(func(any) error { return driver.ErrBadConn }) //nolint:errcheck // the error is the point
	m.raw.Close()
	return m.connect(ctx)
}

// rowsInto adds every (key, value) row of q to snap; a key starting with "~"
// is a loose item.
func rowsInto(ctx context.Context, snap snapshot, db interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, q string, args ...any) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("%w\n%s", err, q)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var v sql.NullString
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		if name, ok := strings.CutPrefix(k, "~"); ok {
			snap.loose[name] = v.String
		} else {
			snap.strict[k] = v.String
		}
	}
	return rows.Err()
}

func (m *mysqlTarget) snapshot(ctx context.Context, stmt string) (snapshot, error) {
	snap := newSnapshot()
	if m.tables == nil {
		if err := m.listTables(ctx); err != nil {
			return snap, err
		}
	}
	// Table and sequence contents, and the system tables that hold
	// plugins, functions and servers.
	tables := append(append([]string(nil), m.tables...), "mysql.plugin", "mysql.func", "mysql.servers")
	if err := rowsInto(ctx, snap, m.obs, "CHECKSUM TABLE "+strings.Join(tables, ", ")+" EXTENDED"); err != nil {
		return snap, err
	}
	for _, s := range m.seqs {
		var v string
		q := fmt.Sprintf("SELECT CONCAT_WS(',', next_not_cached_value, minimum_value, maximum_value, start_value, increment, cache_size, cycle_option, cycle_count) FROM `%s`", s)
		if err := m.obs.QueryRowContext(ctx, q).Scan(&v); err != nil {
			return snap, err
		}
		snap.strict["sequence:"+s] = v
	}
	// Tables locked or in use, user locks the raw session holds, and the
	// canary.
	rows, err := m.obs.QueryContext(ctx, "SHOW OPEN TABLES FROM `"+m.db+"` WHERE In_use > 0")
	if err != nil {
		return snap, err
	}
	for rows.Next() {
		var db, table string
		var inUse, locked int
		if err := rows.Scan(&db, &table, &inUse, &locked); err != nil {
			rows.Close()
			return snap, err
		}
		snap.strict["session:table_in_use:"+table] = fmt.Sprint(inUse)
	}
	rows.Close()
	names := append(literals(stmt), lockNames...)
	q := "SELECT CONCAT_WS(','"
	args := []any{}
	for _, n := range names {
		q += ", IF(IS_USED_LOCK(?) = ?, ?, NULL)"
		args = append(args, n, m.rawID, n)
	}
	q += "), (SELECT COUNT(*) FROM information_schema.processlist WHERE id = ?)"
	args = append(args, m.canaryI)
	var held string
	var alive int
	if err := m.obs.QueryRowContext(ctx, q, args...).Scan(&held, &alive); err != nil {
		return snap, err
	}
	snap.strict["session:user_locks"] = held
	snap.strict["session:canary_alive"] = fmt.Sprint(alive)
	// Files.
	if m.files != "" {
		l, err := listDir(m.files, true)
		if err != nil {
			return snap, err
		}
		snap.strict["files:"+m.files] = l
	}
	if err := tmpListing(snap); err != nil {
		return snap, err
	}
	// The raw session's transaction.
	if err := rowsInto(ctx, snap, m.raw, "SELECT 'session:in_transaction', @@in_transaction"); err != nil {
		return snap, err
	}
	return snap, nil
}

// listTables reads the test schema's tables and sequences.
func (m *mysqlTarget) listTables(ctx context.Context) error {
	rows, err := m.obs.QueryContext(ctx, "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name", m.db)
	if err != nil {
		return err
	}
	defer rows.Close()
	m.tables, m.seqs = []string{}, nil
	for rows.Next() {
		var name, kind string
		if err := rows.Scan(&name, &kind); err != nil {
			return err
		}
		switch kind {
		case "BASE TABLE":
			m.tables = append(m.tables, "`"+m.db+"`.`"+name+"`")
		case "SEQUENCE":
			m.seqs = append(m.seqs, name)
		}
	}
	return rows.Err()
}

// slowSnapshot fingerprints the schema's structure, server-wide objects,
// global variables and the raw session's variables.
func (m *mysqlTarget) slowSnapshot(ctx context.Context) (snapshot, error) {
	snap := newSnapshot()
	if err := m.listTables(ctx); err != nil {
		return snap, err
	}
	// Structure of the test schema.
	if err := rowsInto(ctx, snap, m.obs, `SELECT 'schema:tables', MD5(GROUP_CONCAT(CONCAT_WS('|', table_name, table_type, engine, auto_increment, table_comment, create_options) ORDER BY table_name SEPARATOR '\n')) FROM information_schema.tables WHERE table_schema = ?
UNION ALL SELECT 'schema:columns', MD5(GROUP_CONCAT(CONCAT_WS('|', table_name, column_name, column_type, is_nullable, column_default, extra) ORDER BY table_name, ordinal_position SEPARATOR '\n')) FROM information_schema.columns WHERE table_schema = ?
UNION ALL SELECT 'schema:indexes', MD5(GROUP_CONCAT(CONCAT_WS('|', table_name, index_name, seq_in_index, column_name) ORDER BY table_name, index_name, seq_in_index SEPARATOR '\n')) FROM information_schema.statistics WHERE table_schema = ?
UNION ALL SELECT 'schema:views', MD5(GROUP_CONCAT(CONCAT_WS('|', table_name, view_definition) ORDER BY table_name SEPARATOR '\n')) FROM information_schema.views WHERE table_schema = ?
UNION ALL SELECT 'schema:triggers', MD5(GROUP_CONCAT(CONCAT_WS('|', trigger_name, action_statement) ORDER BY trigger_name SEPARATOR '\n')) FROM information_schema.triggers WHERE trigger_schema = ?`,
		m.db, m.db, m.db, m.db, m.db); err != nil {
		return snap, err
	}
	// Server-wide objects; other tests share the server, so objects that
	// are not this test's are loose items.
	if err := rowsInto(ctx, snap, m.obs, `SELECT CONCAT(IF(schema_name IN (?, 'mysql', 'information_schema', 'performance_schema', 'sys'), '', '~'), 'schema:', schema_name), CONCAT_WS(' ', default_character_set_name, default_collation_name) FROM information_schema.schemata
UNION ALL SELECT CONCAT(IF(User IN ('quarry', 'root', 'mariadb.sys'), '', '~'), 'user:', User), GROUP_CONCAT(CONCAT(Host, '=', MD5(Priv)) ORDER BY Host) FROM mysql.global_priv GROUP BY User
UNION ALL SELECT CONCAT(IF(routine_schema = ?, '', '~'), 'routine:', routine_name), GROUP_CONCAT(CONCAT(routine_schema, ' ', routine_type, ' ', MD5(routine_definition))) FROM information_schema.routines GROUP BY routine_schema = ?, routine_name
UNION ALL SELECT CONCAT(IF(event_schema = ?, '', '~'), 'event:', event_name), GROUP_CONCAT(CONCAT(event_schema, ' ', status)) FROM information_schema.events GROUP BY event_schema = ?, event_name
UNION ALL SELECT CONCAT('plugin:', plugin_name), plugin_status FROM information_schema.plugins`,
		m.db, m.db, m.db, m.db, m.db); err != nil {
		return snap, err
	}
	if err := rowsInto(ctx, snap, m.obs, "SELECT CONCAT('global:', variable_name), variable_value FROM information_schema.global_variables"); err != nil {
		return snap, err
	}
	// The raw session's variables (user variables are session-scoped and
	// not looked at).
	if err := rowsInto(ctx, snap, m.raw, "SELECT CONCAT('session:', variable_name), variable_value FROM information_schema.session_variables"); err != nil {
		return snap, err
	}
	return snap, nil
}
