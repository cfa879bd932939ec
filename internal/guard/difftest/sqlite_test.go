package difftest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// sqliteTarget is a SQLite file opened writable, used through Exec, which
// runs every statement of a string (tails included).
type sqliteTarget struct {
	dir  string // the directory of the database file; generated files go here too
	path string
	raw  *sqlite3.Conn
}

func TestSQLiteDifferential(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tg := &sqliteTarget{dir: dir, path: filepath.Join(dir, "fixture.db")}
	fixture, err := os.ReadFile("testdata/sqlite.sql")
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.raw.Close() })
	if err := tg.raw.Exec(string(fixture)); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	run(t, quarry.DialectSQLite, tg, generatorConfig{seed: 3, files: dir}, []string{
		"SELECT 1; DELETE FROM refunds",
		"UPDATE users SET role = 'probe' WHERE id = 3",
		"VACUUM INTO '" + filepath.Join(dir, "difftest_probe.db") + "'",
		"ATTACH '" + filepath.Join(dir, "difftest_probe_att.db") + "' AS p",
		"PRAGMA user_version = 9",
		"PRAGMA recursive_triggers = ON",
		"CREATE TEMP TABLE difftest_probe_tmp (x)",
		"BEGIN",
		"INSERT INTO counters (name) VALUES ('probe')",
	})
}

func (s *sqliteTarget) open() error {
	c, err := sqlite3.Open(s.path)
	if err != nil {
		return err
	}
	s.raw = c
	return nil
}

func (s *sqliteTarget) exec(ctx context.Context, sql string) error {
	s.raw.SetInterrupt(ctx)
	defer s.raw.SetInterrupt(context.Background())
	return s.raw.Exec(sql)
}

func (s *sqliteTarget) recover(ctx context.Context) error {
	if s.raw != nil {
		s.raw.Close()
	}
	return s.open()
}

// sqlitePragmas are the connection settings a statement could flip.
var sqlitePragmas = []string{
	"foreign_keys", "query_only", "trusted_schema", "writable_schema", "recursive_triggers",
	"defer_foreign_keys", "journal_mode", "synchronous", "cache_size", "temp_store", "busy_timeout",
	"schema_version", "user_version", "application_id", "automatic_index", "cell_size_check",
	"reverse_unordered_selects", "secure_delete", "ignore_check_constraints", "legacy_alter_table",
	"locking_mode", "mmap_size", "page_size", "auto_vacuum", "encoding", "soft_heap_limit",
	"hard_heap_limit", "threads", "analysis_limit", "count_changes", "data_version",
}

func (s *sqliteTarget) snapshot(ctx context.Context, _ string) (snapshot, error) {
	snap := newSnapshot()
	// The database file and its companions, byte for byte.
	for _, suffix := range []string{"", "-wal", "-journal", "-shm"} {
		data, err := os.ReadFile(s.path + suffix)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			snap.strict["file:fixture.db"+suffix] = ""
		case err != nil:
			return snap, err
		default:
			sum := sha256.Sum256(data)
			snap.strict["file:fixture.db"+suffix] = hex.EncodeToString(sum[:])
		}
	}
	// The directory of the file and the working directory (a relative
	// ATTACH or VACUUM INTO path lands there).
	for key, dir := range map[string]string{"dir:fixture": s.dir, "dir:working": "."} {
		l, err := listDir(dir, key == "dir:fixture")
		if err != nil {
			return snap, err
		}
		snap.strict[key] = l
	}
	if err := tmpListing(snap); err != nil {
		return snap, err
	}
	// The connection's own state.
	snap.strict["session:autocommit"] = fmt.Sprint(s.raw.GetAutocommit())
	for _, q := range []struct{ key, sql string }{
		// temp first: reading it opens the temp schema, which then shows
		// in the database list.
		{"session:temp_schema", "SELECT count(*) || ':' || coalesce(group_concat(type || ' ' || name || ' ' || coalesce(sql, ''), ';'), '') FROM temp.sqlite_master"},
		{"session:database_list", "SELECT group_concat(name || '=' || file, ',') FROM pragma_database_list"},
		{"schema", "SELECT group_concat(type || ' ' || name || ' ' || coalesce(sql, ''), ';') FROM (SELECT * FROM main.sqlite_master ORDER BY name)"},
	} {
		v, err := sqliteValue(s.raw, q.sql)
		if err != nil {
			return snap, err
		}
		snap.strict[q.key] = v
	}
	for _, p := range sqlitePragmas {
		v, err := sqliteValue(s.raw, "PRAGMA "+p)
		if err != nil {
			return snap, fmt.Errorf("PRAGMA %s: %w", p, err)
		}
		snap.strict["pragma:"+p] = v
	}
	return snap, nil
}

// sqliteValue returns the first column of the first row of q.
func sqliteValue(c *sqlite3.Conn, q string) (string, error) {
	stmt, _, err := c.Prepare(q)
	if err != nil {
		return "", err
	}
	defer stmt.Close()
	if !stmt.Step() {
		return "", stmt.Err()
	}
	return stmt.ColumnText(0), nil
}

// listDir lists a directory's names, with sizes when sized is true.
func listDir(dir string, sized bool) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.Name())
		if sized {
			if info, err := e.Info(); err == nil && !e.IsDir() {
				fmt.Fprintf(&b, "(%d %d)", info.Size(), info.ModTime().UnixNano())
			}
		}
		b.WriteByte(',')
	}
	return b.String(), nil
}

// tmpListing records the names in /tmp as loose items: other processes
// come and go there, so only a name the statement itself spells counts.
func tmpListing(snap snapshot) error {
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		return err
	}
	for _, e := range entries {
		v := "dir"
		if info, err := e.Info(); err == nil && !e.IsDir() {
			v = fmt.Sprintf("%d %d", info.Size(), info.ModTime().UnixNano())
		}
		snap.loose["tmp:"+e.Name()] = v
	}
	return nil
}

// slowSnapshot: everything is looked at after every statement.
func (s *sqliteTarget) slowSnapshot(context.Context) (snapshot, error) { return newSnapshot(), nil }
