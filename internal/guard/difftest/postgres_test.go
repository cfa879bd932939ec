package difftest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarrydata/quarry/internal/quarry"
)

// pgTarget is a throwaway database on the PostgreSQL server. raw is the
// connection under test: superuser, simple protocol, autocommit, so a
// stacked statement runs. obs takes the fingerprints; canary is a third
// session that listens for notifications and must survive every statement.
type pgTarget struct {
	cfg      *pgx.ConnConfig
	raw      *pgx.Conn
	obs      *pgx.Conn
	canary   *pgx.Conn
	catalogs []string // the database's own catalogs (not the shared ones)
	files    string   // a directory the server can write to, or ""
	channels []string

	mu    sync.Mutex
	notes int // notifications the canary received
}

func TestPostgresDifferential(t *testing.T) {
	t.Parallel()
	url := serverEnv(t, "QUARRY_TEST_POSTGRES_URL")
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to %s: %v", url, err)
	}
	db := fmt.Sprintf("quarry_difftest_%d", os.Getpid())
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)"); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		t.Fatal(err)
	}
	tg := &pgTarget{channels: []string{"difftest_chan"}}
	t.Cleanup(func() {
		for _, c := range []*pgx.Conn{tg.raw, tg.obs, tg.canary} {
			if c != nil {
				c.Close(ctx)
			}
		}
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)"); err != nil {
			t.Errorf("drop the test database: %v", err)
		}
		admin.Close(ctx)
	})
	tg.cfg, err = pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	tg.cfg.Database = db
	if tg.obs, err = pgx.ConnectConfig(ctx, tg.cfg); err != nil {
		t.Fatal(err)
	}
	fixture, err := os.ReadFile("testdata/postgres.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tg.obs.PgConn().Exec(ctx, string(fixture)).ReadAll(); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	// Leave autovacuum nothing to do in this database while the test runs.
	if _, err := tg.obs.Exec(ctx, "VACUUM ANALYZE"); err != nil {
		t.Fatal(err)
	}
	rows, err := tg.obs.Query(ctx, "SELECT relname FROM pg_class WHERE relnamespace = 'pg_catalog'::regnamespace AND relkind = 'r' AND NOT relisshared ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	if tg.catalogs, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		t.Fatal(err)
	}
	tg.files = pgFilesDir(ctx, t, tg.obs)
	tg.channels = append(tg.channels, notifyChannels(loadRows(t))...)
	if err := tg.connect(ctx); err != nil {
		t.Fatal(err)
	}
	files := tg.files
	if files == "" {
		files = os.TempDir()
	}
	tmpFile := filepath.Join(os.TempDir(), fmt.Sprintf("quarry_difftest_probe_%d.txt", os.Getpid()))
	t.Cleanup(func() { os.Remove(tmpFile) })
	run(t, quarry.DialectPostgres, tg, generatorConfig{seed: 1, files: files}, []string{
		"SELECT 1; DELETE FROM refunds",
		"UPDATE users SET role = 'probe' WHERE id = 3",
		"SELECT nextval('difftest_seq')",
		"SELECT lo_from_bytea(0, 'probe')",
		"SELECT pg_advisory_lock(4242)",
		"SELECT (4243::bigint).pg_advisory_lock",
		"SELECT g.pg_advisory_lock FROM unnest(ARRAY[4244::bigint]) g",
		"SELECT ('difftest_seq'::regclass).nextval",
		"COPY (SELECT 1) TO " + lit(filepath.Join(files, "difftest_probe.txt")),
		"COPY (SELECT 1) TO " + lit(tmpFile),
		"SELECT set_config('work_mem', '3MB', false)",
		"CREATE TEMP TABLE difftest_probe_tmp (x int)",
		"BEGIN",
		"NOTIFY difftest_chan",
		"SELECT pg_stat_reset()",
		"CREATE TABLE difftest_probe_new (x int)",
		"COMMENT ON TABLE orders IS 'probe'",
		"ANALYZE orders",
		"PREPARE difftest_probe_p AS SELECT 1",
	})
}

// pgFilesDir makes a directory next to the server's data directory that
// the server owns and can write files into, so that a COPY or lo_export
// that got through has somewhere to land that is watched exactly. It
// returns "" when the data directory is not on this machine.
func pgFilesDir(ctx context.Context, t *testing.T, obs *pgx.Conn) string {
	var data string
	if err := obs.QueryRow(ctx, "SHOW data_directory").Scan(&data); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(data)
	if err != nil {
		t.Logf("the data directory %s is not on this machine; no files directory is watched", data)
		return ""
	}
	dir := filepath.Join(filepath.Dir(data), fmt.Sprintf("difftest-files-%d", os.Getpid()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("no files directory: %v", err)
		return ""
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		if err := os.Chown(dir, int(st.Uid), int(st.Gid)); err != nil {
			t.Logf("files directory %s is not the server's: %v", dir, err)
		}
	}
	return dir
}

var reNotify = regexp.MustCompile(`(?i)(?:\bnotify\s+"?|pg_notify\s*\(\s*')([a-z_][a-z0-9_]*)`)

// notifyChannels lists the channels the corpus notifies, for the canary.
func notifyChannels(cp corpus) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range append(cp.rows, cp.fuzz...) {
		for _, m := range reNotify.FindAllStringSubmatch(r.c.SQL, -1) {
			if c := strings.ToLower(m[1]); !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	sort.Strings(out)
	return out
}

// connect opens the raw session and, if it is not open, the canary.
func (p *pgTarget) connect(ctx context.Context) error {
	rc := p.cfg.Copy()
	rc.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	rc.RuntimeParams["statement_timeout"] = fmt.Sprint(serverTimeout.Milliseconds())
	rc.RuntimeParams["lock_timeout"] = "1000"
	raw, err := pgx.ConnectConfig(ctx, rc)
	if err != nil {
		return err
	}
	p.raw = raw
	if p.canary != nil && !p.canary.IsClosed() {
		if _, err := p.canary.Exec(ctx, "SELECT 1"); err == nil {
			return nil
		}
		p.canary.Close(ctx)
	}
	cc := p.cfg.Copy()
	cc.OnNotification = func(*pgconn.PgConn, *pgconn.Notification) {
		p.mu.Lock()
		p.notes++
		p.mu.Unlock()
	}
	if p.canary, err = pgx.ConnectConfig(ctx, cc); err != nil {
		return err
	}
	for _, ch := range p.channels {
		if _, err := p.canary.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			return err
		}
	}
	return nil
}

func (p *pgTarget) exec(ctx context.Context, sql string) error {
	_, err := p.raw.Exec(ctx, sql)
	if err != nil && p.raw.IsClosed() {
		return fmt.Errorf("%w: %v", errConnLost, err)
	}
	return err
}

// recover replaces the raw session (its advisory locks, temporary tables,
// prepared statements and settings go with it) and a lost canary.
func (p *pgTarget) recover(ctx context.Context) error {
	if p.raw != nil {
		p.raw.Close(ctx)
	}
	return p.connect(ctx)
}

func lit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func (p *pgTarget) snapshot(ctx context.Context, _ string) (snapshot, error) {
	snap := newSnapshot()
	add := func(q string, args ...any) error {
		rows, err := p.obs.Query(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("%w\n%s", err, q)
		}
		var k string
		var v *string
		_, err = pgx.ForEachRow(rows, []any{&k, &v}, func() error {
			val := ""
			if v != nil {
				val = *v
			}
			if name, ok := strings.CutPrefix(k, "~"); ok {
				snap.loose[name] = val
			} else {
				snap.strict[k] = val
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("%w\n%s", err, q)
		}
		return nil
	}

	// Every table, materialised view and sequence outside the system
	// schemas, by content.
	rows, err := p.obs.Query(ctx, `SELECT format('%I.%I', n.nspname, c.relname), c.relkind::text
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'm', 'S') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
		AND n.nspname !~ '^pg_(toast|temp_|toast_temp_)' ORDER BY 1`)
	if err != nil {
		return snap, err
	}
	var parts []string
	var name, kind string
	if _, err := pgx.ForEachRow(rows, []any{&name, &kind}, func() error {
		if kind == "S" {
			parts = append(parts, fmt.Sprintf("SELECT %s, last_value::text || ' ' || is_called::text FROM %s", lit("sequence:"+name), name))
		} else {
			parts = append(parts, fmt.Sprintf("SELECT %s, count(*)::text || ' ' || coalesce(md5(string_agg(x::text, E'\\n' ORDER BY x::text)), '') FROM %s x", lit("table:"+name), name))
		}
		return nil
	}); err != nil {
		return snap, err
	}
	// The database's catalogs: any inserted, deleted or updated row
	// changes the count or the sum of the row versions' xmin.
	for _, c := range p.catalogs {
		where := ""
		if c == "pg_statistic" {
			// Autovacuum analyses the catalogs themselves now and then;
			// statistics of user relations change only by ANALYZE.
			where = " WHERE starelid >= 16384"
		}
		parts = append(parts, fmt.Sprintf("SELECT %s, count(*)::text || ' ' || coalesce(sum(xmin::text::bigint), 0)::text FROM pg_catalog.%s%s", lit("catalog:"+c), c, where))
	}
	parts = append(parts, `SELECT 'largeobjects', coalesce(md5(string_agg(loid::text || ':' || pageno::text || ':' || md5(data), ',' ORDER BY loid, pageno)), '') FROM pg_largeobject`)
	if err := add(strings.Join(parts, "\nUNION ALL ")); err != nil {
		return snap, err
	}

	// Cluster-wide state. Other tests share the server, so objects that
	// are not this test's are loose items (a change counts when the
	// statement names the object).
	rawPID, canaryPID := int64(p.raw.PgConn().PID()), int64(p.canary.PgConn().PID())
	if err := add(`SELECT CASE WHEN rolname = 'postgres' THEN 'role:' ELSE '~role:' END || rolname, xmin::text || ' ' || md5(a::text) FROM pg_authid a
UNION ALL SELECT CASE WHEN datname IN (current_database(), 'postgres', 'template0', 'template1') THEN 'database:' ELSE '~database:' END || datname,
	xmin::text || ' ' || datallowconn::text || ' ' || datconnlimit::text || ' ' || coalesce(datacl::text, '') FROM pg_database
UNION ALL SELECT CASE WHEN s.setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database())) AND (s.setrole = 0 OR r.rolname = 'postgres')
	THEN 'dbrolesetting:' || coalesce(d.datname, '*') || '/' || coalesce(r.rolname, '*') ELSE '~dbrolesetting:' || coalesce(d.datname, r.rolname) END, s.setconfig::text
	FROM pg_db_role_setting s LEFT JOIN pg_database d ON d.oid = s.setdatabase LEFT JOIN pg_roles r ON r.oid = s.setrole
UNION ALL SELECT CASE WHEN spcname IN ('pg_default', 'pg_global') THEN 'tablespace:' ELSE '~tablespace:' END || spcname, xmin::text FROM pg_tablespace
UNION ALL SELECT '~membership:' || roleid::regrole::text, string_agg(member::regrole::text, ',' ORDER BY member::regrole::text) FROM pg_auth_members GROUP BY roleid
UNION ALL SELECT '~origin:' || roname, roident::text FROM pg_replication_origin
UNION ALL SELECT '~subscription:' || subname, xmin::text FROM pg_subscription
UNION ALL SELECT '~parameteracl:' || parname, xmin::text FROM pg_parameter_acl
UNION ALL SELECT '~slot:' || slot_name, coalesce(restart_lsn::text, '') FROM pg_replication_slots
UNION ALL SELECT '~preparedxact:' || gid, prepared::text FROM pg_prepared_xacts
UNION ALL SELECT 'shdescription', coalesce(string_agg(objoid::text || '=' || description, ',' ORDER BY objoid), '') FROM pg_shdescription
	WHERE objoid IN ((SELECT oid FROM pg_database WHERE datname = current_database()), (SELECT oid FROM pg_authid WHERE rolname = 'postgres'))
UNION ALL SELECT 'statsreset:database', stats_reset::text FROM pg_stat_database WHERE datname = current_database()
UNION ALL SELECT 'statsreset:bgwriter', stats_reset::text FROM pg_stat_bgwriter
UNION ALL SELECT 'statsreset:archiver', stats_reset::text FROM pg_stat_archiver
UNION ALL SELECT 'statsreset:wal', stats_reset::text FROM pg_stat_wal
UNION ALL SELECT 'statsreset:slru', string_agg(name || '=' || coalesce(stats_reset::text, ''), ',' ORDER BY name) FROM pg_stat_slru
UNION ALL SELECT 'config:load_time', pg_conf_load_time()::text
UNION ALL SELECT 'config:postmaster_start', pg_postmaster_start_time()::text
UNION ALL SELECT 'config:' || f, md5(pg_read_file(f)) FROM unnest(ARRAY['postgresql.auto.conf', 'postgresql.conf', 'pg_hba.conf', 'pg_ident.conf']) f
UNION ALL SELECT 'files:datadir', string_agg(f, ',' ORDER BY f) FROM pg_ls_dir('.') f
UNION ALL SELECT 'session:raw_locks', count(*)::text || ' ' || coalesce(string_agg(locktype || ' ' || mode, ',' ORDER BY locktype, mode), '') FROM pg_locks WHERE pid = $1
UNION ALL SELECT 'session:canary_alive', count(*)::text FROM pg_stat_activity WHERE pid = $2`, rawPID, canaryPID); err != nil {
		return snap, err
	}
	if p.files != "" {
		if err := add(`SELECT 'files:' || $1::text, coalesce(string_agg(f || ' ' || (pg_stat_file($1 || '/' || f)).size::text || ' ' || (pg_stat_file($1 || '/' || f)).modification::text, ',' ORDER BY f), '') FROM pg_ls_dir($1) f`, p.files); err != nil {
			return snap, err
		}
	}
	if err := tmpListing(snap); err != nil {
		return snap, err
	}

	// The raw session's own state.
	tx := p.raw.PgConn().TxStatus()
	snap.strict["session:transaction"] = string(tx)
	if tx == 'I' {
		rows, err := p.raw.Query(ctx, `SELECT 'setting:' || name, coalesce(setting, '') FROM pg_settings
			UNION ALL SELECT 'session:prepared', count(*)::text FROM pg_prepared_statements
			UNION ALL SELECT 'session:cursors', count(*)::text FROM pg_cursors
			UNION ALL SELECT 'session:listening', count(*)::text FROM pg_listening_channels()
			UNION ALL SELECT 'session:temp_relations', count(*)::text FROM pg_class WHERE relpersistence = 't'`)
		if err != nil {
			return snap, err
		}
		var k, v string
		if _, err := pgx.ForEachRow(rows, []any{&k, &v}, func() error {
			snap.strict[k] = v
			return nil
		}); err != nil {
			return snap, err
		}
	}
	// A round trip on the canary delivers pending notifications.
	if _, err := p.canary.Exec(ctx, "SELECT 1"); err != nil {
		snap.strict["session:canary"] = err.Error()
	}
	p.mu.Lock()
	snap.strict["session:notifications"] = fmt.Sprint(p.notes)
	p.mu.Unlock()
	return snap, nil
}

// slowSnapshot: everything is looked at after every statement.
func (p *pgTarget) slowSnapshot(context.Context) (snapshot, error) { return newSnapshot(), nil }
