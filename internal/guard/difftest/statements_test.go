package difftest

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// guardRoot is where the guard's corpora live, relative to this package.
var guardRoot = filepath.Join("..", "..", "sqlguard")

const corpusHeader = "dialect\texpected\tsql\twhy"

// row is one corpus row and the file it came from.
type row struct {
	file string
	c    sqlguard.Case
}

// corpus is every guard corpus row and fuzz seed under guardRoot.
type corpus struct {
	rows []row
	fuzz []row // Case.SQL holds the seed; Case.Line its place in the file
}

// loadRows reads every corpus (*.tsv with the corpus header) and every
// fuzz seed corpus under a testdata directory of internal/sqlguard, so the
// cases other packages add are picked up without changes here.
func loadRows(t *testing.T) corpus {
	t.Helper()
	var out corpus
	err := filepath.WalkDir(guardRoot, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(guardRoot, path)
		rel = filepath.ToSlash(rel)
		if !strings.Contains("/"+rel, "/testdata/") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		switch {
		case strings.HasSuffix(path, ".tsv"):
			first, _, _ := strings.Cut(text, "\n")
			if strings.TrimSuffix(first, "\r") != corpusHeader {
				return nil // not a corpus (an expected-failures list, say)
			}
			cases, err := sqlguard.ParseCorpus(text)
			if err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
			for _, c := range cases {
				out.rows = append(out.rows, row{rel, c})
			}
		case strings.Contains("/"+rel, "/testdata/fuzz/") && strings.HasPrefix(text, "go test fuzz v1\n"):
			for i, line := range strings.Split(text, "\n")[1:] {
				var inner string
				switch {
				case strings.HasPrefix(line, "string(") && strings.HasSuffix(line, ")"):
					inner = line[len("string(") : len(line)-1]
				case strings.HasPrefix(line, "[]byte(") && strings.HasSuffix(line, ")"):
					inner = line[len("[]byte(") : len(line)-1]
				default:
					continue
				}
				s, err := strconv.Unquote(inner)
				if err != nil {
					continue
				}
				out.fuzz = append(out.fuzz, row{rel, sqlguard.Case{Line: i + 2, SQL: s, Raw: inner}})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.rows) == 0 {
		t.Fatalf("no corpus rows under %s", guardRoot)
	}
	return out
}

// Kinds of statement, for the counts.
const (
	kindAllow = iota
	kindReject
	kindOther
	kindFuzz
	kindGenerated
)

type stmt struct {
	sql    string
	source string
	kind   int
}

// generatorConfig parameterises the generated statements of one dialect.
type generatorConfig struct {
	seed uint64
	// files is a directory the server may write files into; generated
	// INTO OUTFILE, COPY and VACUUM INTO targets are put there.
	files string
}

// collect checks every corpus row, fuzz seed and generated statement with
// check and returns the statements to execute, each once. A reject row of
// the dialect that check allows fails the test (and is executed too).
func collect(t *testing.T, d quarry.Dialect, cp corpus, check func(string) bool, gen generatorConfig) ([]stmt, *counts) {
	t.Helper()
	n := &counts{}
	seen := map[string]bool{}
	var out []stmt
	add := func(sql, src string, kind int) {
		if !seen[sql] {
			seen[sql] = true
			out = append(out, stmt{sql, src, kind})
		}
	}
	for _, r := range cp.rows {
		exp := "reject"
		if r.c.Allow {
			exp = "allow"
		}
		src := fmt.Sprintf("%s:%d (%s %s)", r.file, r.c.Line, r.c.Dialect, exp)
		applies := r.c.Dialect == quarry.DialectGeneric || r.c.Dialect == d
		ok := check(r.c.SQL)
		switch {
		case applies && r.c.Allow:
			n.allowRows++
			if ok {
				n.allowAccepted++
				add(r.c.SQL, src, kindAllow)
			}
		case applies:
			n.rejectRows++
			if ok {
				n.rejectAccepted++
				t.Errorf("%s: the guard allows reject row %s\n\tsql: %q\n\twhy: %s", d, src, r.c.SQL, r.c.Why)
				add(r.c.SQL, src, kindReject)
			}
		case ok:
			n.otherAccepted++
			add(r.c.SQL, src, kindOther)
		}
	}
	for i, f := range cp.fuzz {
		if i == maxFuzzSeeds {
			break
		}
		n.fuzzChecked++
		if check(f.c.SQL) {
			n.fuzzAccepted++
			add(f.c.SQL, fmt.Sprintf("%s:%d (fuzz seed)", f.file, f.c.Line), kindFuzz)
		}
	}
	seeds := make([]row, 0, len(cp.rows)+len(cp.fuzz))
	seeds = append(seeds, cp.rows...)
	seeds = append(seeds, cp.fuzz...)
	m := newMutator(d, gen)
	for i := 0; i < maxCandidates && n.generatedAccepted < maxGenerated; i++ {
		base := seeds[m.r.IntN(len(seeds))]
		sql, ops := m.mutate(base.c.SQL)
		n.generated++
		if seen[sql] {
			continue
		}
		if check(sql) {
			n.generatedAccepted++
			add(sql, fmt.Sprintf("generated from %s:%d by %s", base.file, base.c.Line, ops), kindGenerated)
		}
	}
	return out, n
}

// mutator derives statements from corpus rows: stacked statements, comments,
// INTO clauses, locking clauses, data-modifying CTEs, calls of functions the
// guard never allows, executing prefixes, and case, quote and whitespace
// changes. It is deterministic for a seed.
type mutator struct {
	r      *rand.Rand
	d      quarry.Dialect
	writes []string // statements that change something
	calls  []string // calls of functions that change something or read files
	into   []string // INTO clauses
	files  string
}

func newMutator(d quarry.Dialect, gen generatorConfig) *mutator {
	m := &mutator{r: rand.New(rand.NewPCG(gen.seed, 0x9e3779b97f4a7c15)), d: d, files: gen.files}
	f := func(name string) string { return filepath.ToSlash(filepath.Join(gen.files, name)) }
	m.writes = []string{
		"DELETE FROM orders",
		"UPDATE users SET role = 'owner' WHERE id = 1",
		"INSERT INTO tags (id, name) VALUES (900, 'difftest')",
		"DROP TABLE big_b",
		"CREATE TABLE difftest_new (x int)",
		"ALTER TABLE t ADD COLUMN difftest_c int",
		"DROP VIEW order_totals",
	}
	m.into = []string{" INTO difftest_into"}
	switch d {
	case quarry.DialectPostgres:
		m.writes = append(m.writes,
			"COMMIT; DELETE FROM refunds",
			"TRUNCATE refunds",
			"SELECT nextval('difftest_seq')",
			"SELECT setval('difftest_seq', 99)",
			"SELECT pg_advisory_lock(4242)",
			"SELECT lo_unlink(oid) FROM pg_largeobject_metadata",
			"SELECT lo_from_bytea(0, 'x')",
			"COPY (SELECT 1) TO 'difftest_copy.txt'",
			"COPY (SELECT 1) TO '"+f("difftest_copy.txt")+"'",
			"SELECT set_config('work_mem', '8MB', false)",
			"SET work_mem = '9MB'",
			"NOTIFY difftest_chan",
			"LISTEN difftest_chan",
			"SELECT pg_stat_reset()",
			"ANALYZE orders",
			"CREATE TEMP TABLE difftest_tmp (x int)",
			"PREPARE difftest_p AS SELECT 1",
			"BEGIN",
			"ALTER SYSTEM SET work_mem = '7MB'",
			"CREATE ROLE difftest_role",
			"COMMENT ON TABLE orders IS 'difftest'",
			"CREATE INDEX difftest_idx ON orders (status)",
		)
		m.calls = []string{
			"nextval('difftest_seq')", "pg_catalog.nextval('difftest_seq')", `"nextval"('difftest_seq')`, "NEXTVAL('difftest_seq')",
			"setval('difftest_seq', 50)", "pg_advisory_lock(77)", "pg_try_advisory_lock(78)", "pg_sleep(0.01)",
			"set_config('work_mem', '5MB', false)", "pg_notify('difftest_chan', 'y')", "lo_from_bytea(0, 'z')",
			"lo_unlink(0)", "pg_stat_reset()", "txid_current()", "pg_current_xact_id()",
			"query_to_xml('SELECT nextval(''difftest_seq'')', true, true, '')", "pg_read_file('postgresql.conf')",
			"pg_ls_dir('.')", "pg_terminate_backend(0)", "pg_reload_conf()", "pg_import_system_collations('pg_catalog')",
			"lo_export((SELECT min(oid) FROM pg_largeobject_metadata), 'difftest_lo.bin')", "dblink_exec('DELETE FROM orders')",
		}
		m.into = append(m.into, " INTO TEMP difftest_into", " INTO UNLOGGED difftest_into")
	case quarry.DialectMySQL:
		m.writes = append(m.writes,
			"TRUNCATE refunds",
			"SELECT NEXTVAL(difftest_seq)",
			"SELECT GET_LOCK('difftest_lock', 0)",
			"DO GET_LOCK('difftest_lock', 0)",
			"SET GLOBAL net_read_timeout = 31",
			"SET SESSION sql_mode = ''",
			"SELECT 1 INTO OUTFILE '"+f("difftest_out.txt")+"'",
			"START TRANSACTION",
			"LOCK TABLES orders WRITE",
			"CREATE USER difftest_user",
			"REPLACE INTO tags VALUES (1, 'x')",
			"ANALYZE TABLE orders",
			"CREATE INDEX difftest_idx ON orders (status)",
		)
		m.calls = []string{
			"GET_LOCK('difftest_lock2', 0)", "NEXTVAL(difftest_seq)", "SETVAL(difftest_seq, 90)", "SLEEP(0.01)",
			"BENCHMARK(10, MD5('x'))", "LOAD_FILE('/etc/hostname')", "RELEASE_ALL_LOCKS()", "@difftest_v := 1",
			"LAST_INSERT_ID(5)", "get_lock('difftest_lock3', 0)",
		}
		m.into = append(m.into, " INTO OUTFILE '"+f("difftest_into.txt")+"'", " INTO DUMPFILE '"+f("difftest_into.bin")+"'", " INTO @difftest_v")
	case quarry.DialectSQLite:
		m.writes = append(m.writes,
			"ATTACH DATABASE '"+f("difftest_att.db")+"' AS difftest_att",
			"ATTACH 'difftest_rel.db' AS difftest_rel",
			"VACUUM INTO '"+f("difftest_vac.db")+"'",
			"VACUUM",
			"PRAGMA user_version = 7",
			"PRAGMA foreign_keys = ON",
			"CREATE TEMP TABLE difftest_tmp (x)",
			"BEGIN IMMEDIATE",
			"SAVEPOINT difftest_sp",
			"REPLACE INTO tags VALUES (1, 'x')",
			"CREATE INDEX difftest_idx ON orders (status)",
		)
		m.calls = []string{
			"randomblob(16)", "load_extension('difftest')", "writefile('" + f("difftest_w.txt") + "', 'x')",
			"readfile('/etc/hostname')", "fts3_tokenizer('simple')", "edit('x')", "RANDOMBLOB(8)", `"randomblob"(8)`,
		}
	}
	return m
}

var (
	reFrom   = regexp.MustCompile(`(?i)\sFROM\s`)
	reSelect = regexp.MustCompile(`(?i)\bSELECT\s`)
	reTable  = regexp.MustCompile(`\b(users|orders|customers|products|tags|events|t)\b`)
)

// mutate applies one or two operations to s and names them.
func (m *mutator) mutate(s string) (string, string) {
	k := 1 + m.r.IntN(2)
	var names []string
	for range k {
		var name string
		s, name = m.op(s)
		names = append(names, name)
	}
	return s, strings.Join(names, "+")
}

func (m *mutator) pick(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[m.r.IntN(len(list))]
}

func (m *mutator) op(s string) (string, string) {
	base := strings.TrimRight(s, " \t\r\n;")
	switch m.r.IntN(12) {
	case 0, 1:
		seps := []string{"; ", ";\n", " ; ", ";/* c */", "\n;\n", ";;"}
		return base + m.pick(seps) + m.pick(m.writes), "stack"
	case 2, 3:
		comments := []string{"/* c */", "/**/", "-- c\n", "/* ; DELETE FROM orders */", "-- ; DELETE FROM orders\n", "#c\n", "/*! DELETE FROM orders */", "/*M!100100 DELETE FROM orders */", "/*+ hint */", "--\n"}
		return insertAtSpace(m.r, s, " "+m.pick(comments)+" "), "comment"
	case 4:
		into := m.pick(m.into)
		if loc := reFrom.FindStringIndex(base); loc != nil && m.r.IntN(2) == 0 {
			return base[:loc[0]] + into + base[loc[0]:], "into"
		}
		return base + into, "into"
	case 5:
		locks := []string{" FOR UPDATE", " FOR SHARE", " FOR NO KEY UPDATE", " FOR KEY SHARE", " LOCK IN SHARE MODE", " FOR UPDATE NOWAIT", " FOR UPDATE SKIP LOCKED"}
		l := m.pick(locks)
		if m.r.IntN(2) == 0 {
			return "SELECT * FROM (" + base + l + ") AS difftest_q", "nested-lock"
		}
		return base + l, "lock"
	case 6:
		w := m.pick([]string{"DELETE FROM orders WHERE id = 4 RETURNING id", "UPDATE users SET role = 'x' RETURNING id", "INSERT INTO tags (id, name) VALUES (99, 'w') RETURNING id"})
		if len(base) > 5 && strings.EqualFold(base[:5], "WITH ") {
			return "WITH difftest_w AS (" + w + "), " + base[5:], "write-cte"
		}
		return "WITH difftest_w AS (" + w + ") " + base, "write-cte"
	case 7:
		fn := m.pick(m.calls)
		if fn == "" {
			return base, "none"
		}
		switch m.r.IntN(3) {
		case 0:
			if loc := reSelect.FindStringIndex(base); loc != nil {
				return base[:loc[1]] + fn + ", " + base[loc[1]:], "call"
			}
			return "SELECT " + fn + ", " + base, "call"
		case 1:
			return "SELECT * FROM (SELECT " + fn + " AS v) AS difftest_f", "call-derived"
		default:
			return "SELECT 1 FROM orders WHERE id = (SELECT 1 WHERE " + fn + " IS NOT NULL)", "call-where"
		}
	case 8:
		prefixes := []string{"EXPLAIN ANALYZE ", "EXPLAIN ANALYSE ", "EXPLAIN (ANALYZE) ", "EXPLAIN (ANALYZE true, COSTS off) ", "ANALYZE ", "EXPLAIN ", "EXPLAIN QUERY PLAN ", "DESCRIBE "}
		return m.pick(prefixes) + base, "prefix"
	case 9:
		return flipCase(m.r, s), "case"
	case 10:
		q := `"`
		if m.d == quarry.DialectMySQL {
			q = "`"
		}
		done := false
		out := reTable.ReplaceAllStringFunc(s, func(w string) string {
			if done {
				return w
			}
			done = true
			return q + w + q
		})
		return out, "quote"
	default:
		ws := []string{"\t", "\n", "\r\n", "  ", " /**/ ", "\f"}
		return strings.Replace(s, " ", m.pick(ws), 1+m.r.IntN(3)), "whitespace"
	}
}

// insertAtSpace puts ins at a random space of s (or at the end).
func insertAtSpace(r *rand.Rand, s, ins string) string {
	var at []int
	for i := range len(s) {
		if s[i] == ' ' {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return s + ins
	}
	i := at[r.IntN(len(at))]
	return s[:i] + ins + s[i+1:]
}

// flipCase changes the case of letters outside single-quoted literals.
func flipCase(r *rand.Rand, s string) string {
	b := []byte(s)
	quoted := false
	for i, c := range b {
		if c == '\'' {
			quoted = !quoted
		}
		if quoted || r.IntN(2) == 0 {
			continue
		}
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = c - 32
		case c >= 'A' && c <= 'Z':
			b[i] = c + 32
		}
	}
	return string(b)
}

var reLiteral = regexp.MustCompile(`'([^'\\]{1,64})'`)

// literals returns the contents of the short string literals of s (lock
// and channel names, file names).
func literals(s string) []string {
	var out []string
	for _, m := range reLiteral.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}
