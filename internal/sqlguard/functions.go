package sqlguard

import (
	"sort"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/dialect/registry"

	"github.com/quarrydata/quarry/internal/quarry"
)

// The function allow-list. A call is allowed when its normalised name is in
// the common list or the dialect's list (dialect.Dialect.GuardFunctions;
// the generic dialect takes the union of all of them), or in
// Options.ExtraFunctions, and is never in the never-allowed list. Names
// are lower case, without schema.

// commonFunctions are read-only in every dialect that has them.
const commonFunctions = `
count sum avg min max every bool_and bool_or bit_and bit_or bit_xor
stddev stddev_pop stddev_samp variance var_pop var_samp corr covar_pop covar_samp
regr_slope regr_intercept regr_count regr_r2 regr_avgx regr_avgy regr_sxx regr_syy regr_sxy
percentile_cont percentile_disc mode median any_value grouping array_agg string_agg
group_concat listagg json_agg jsonb_agg json_object_agg jsonb_object_agg json_arrayagg json_objectagg
row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
abs ceil ceiling floor round trunc sign sqrt cbrt power pow exp ln log log10 log2 mod pi
degrees radians sin cos tan asin acos atan atan2 cot sinh cosh tanh asinh acosh atanh
greatest least width_bucket div gcd lcm factorial random
lower upper length char_length character_length octet_length bit_length concat concat_ws
substring substr left right trim ltrim rtrim btrim lpad rpad replace reverse repeat position
strpos instr locate split_part initcap translate ascii chr char format md5 encode decode
regexp_replace regexp_substr regexp_like regexp_count regexp_instr starts_with ends_with
hex unhex overlay unicode soundex space
now current_date current_time current_timestamp localtime localtimestamp
date_trunc date_part extract to_char to_date to_timestamp to_number age
date_add date_sub datediff date_diff
coalesce nullif ifnull nvl if iif convert typeof
json_extract json_array_length json_object json_array json_valid json_type json_quote
json_each json_value json_query json_exists json_table
varchar character varying numeric decimal dec float double timestamp time interval bit
nchar nvarchar varbinary datetime date number signed unsigned
`

// neverFunctions can never be allowed, not even through ExtraFunctions:
// they execute SQL text, sleep, touch files, sequences, locks, settings,
// other sessions or the server.
const neverFunctions = `
sleep benchmark nextval setval currval lastval setseed last_insert_id
load_file readfile writefile edit load_extension fts3_tokenizer randomblob zeroblob
set_config txid_current pg_current_xact_id pg_notify pg_terminate_backend pg_cancel_backend
pg_reload_conf pg_rotate_logfile pg_switch_wal pg_promote pg_import_system_collations
pg_export_snapshot pg_wait_for_backend_termination pg_log_backend_memory_contexts
get_lock release_lock release_all_locks is_free_lock is_used_lock
master_pos_wait source_pos_wait wait_for_executed_gtid_set
connectby
`

// neverPrefixes extend neverFunctions to whole families.
var neverPrefixes = []string{
	"lo_", "dblink", "pg_sleep", "pg_advisory", "pg_try_advisory", "pg_read_", "pg_ls_",
	"pg_stat_file", "pg_file_", "pg_logdir", "pg_stat_reset", "pg_stat_statements_reset",
	"pg_replication_", "pg_create_", "pg_drop_", "pg_logical_", "crosstab",
	"query_to_xml", "cursor_to_xml", "table_to_xml", "schema_to_xml", "database_to_xml",
	"ts_stat", "ts_rewrite", "sys_", "lowrite", "loread",
}

// funcSets holds the parsed lists; it is built once per process, by the
// first check that needs it (not at start-up), and only read afterwards.
type funcSets struct {
	common  map[string]bool
	dialect map[quarry.Dialect]map[string]bool
	union   map[string]bool
	never   map[string]bool
}

var functionLists = sync.OnceValue(newFuncSets)

func newFuncSets() *funcSets {
	fs := &funcSets{
		common:  words(commonFunctions),
		dialect: map[quarry.Dialect]map[string]bool{},
		union:   words(commonFunctions),
		never:   words(neverFunctions),
	}
	for _, d := range registry.Dialects() {
		fs.dialect[d.Name()] = words(d.GuardFunctions())
		for n := range fs.dialect[d.Name()] {
			fs.union[n] = true
		}
	}
	return fs
}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// Never reports whether name (lower case, without schema) is a function
// that is never allowed.
func Never(name string) bool {
	if functionLists().never[name] {
		return true
	}
	for _, p := range neverPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// AllowsFunction reports whether a call of name (any case, without
// schema) is allowed under o. A schema-qualified call is allowed only when
// its qualifier is pg_catalog or when ExtraFunctions lists schema.name. The SQLite engine check uses it for its
// authorizer.
func (o Options) AllowsFunction(name string) bool {
	name = strings.ToLower(name)
	if Never(name) {
		return false
	}
	fs := functionLists()
	if fs.common[name] {
		return true
	}
	d := normDialect(o.Dialect)
	if d == quarry.DialectGeneric {
		if fs.union[name] {
			return true
		}
	} else if fs.dialect[d][name] {
		return true
	}
	return o.listedExtra(name)
}

// listedExtra reports whether name (possibly schema.name) is in
// ExtraFunctions, case-insensitively.
func (o Options) listedExtra(name string) bool {
	for _, x := range o.ExtraFunctions {
		if strings.EqualFold(strings.TrimSpace(x), name) {
			return true
		}
	}
	return false
}

// AllowedFunctions returns the sorted allow-list of dialect d (without
// Options.ExtraFunctions), for documentation and display.
func AllowedFunctions(d quarry.Dialect) []string {
	fs := functionLists()
	d = normDialect(d)
	set := fs.dialect[d]
	if d == quarry.DialectGeneric {
		set = fs.union
	}
	var out []string
	for n := range fs.common {
		out = append(out, n)
	}
	for n := range set {
		if !fs.common[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// call checks the function call whose name token is at i (the next token
// is "(").
func (w *walker) call(i int) {
	t := w.toks[i]
	if t.flags&flagNotCall != 0 || w.isKw(i-1, kwAs) || w.isOp(i-1, ')') {
		return // a CTE or alias column list, or a type after AS
	}
	if w.isKw(i-1, kwTablesample) {
		return // TABLESAMPLE SYSTEM (n), BERNOULLI (n)
	}
	name, exact := w.name(i)
	// Schema qualification: only pg_catalog, which cannot be shadowed.
	if w.isOp(i-1, '.') {
		q := -1
		if w.isName(i - 2) {
			q = i - 2
		}
		qual := ""
		if q >= 0 {
			qual, _ = w.name(q)
		}
		full := qual + "." + name
		if q >= 0 && !w.isOp(q-1, '.') && !Never(name) && w.opts.listedExtra(full) {
			w.record(full)
			return // a schema-qualified function the project allowed by name
		}
		if q < 0 || w.isOp(q-1, '.') || qual != "pg_catalog" || !(w.d == quarry.DialectPostgres || w.d == quarry.DialectGeneric || w.d == quarry.DialectDuckDB) {
			w.add(CodeFunctionNotAllowed, t.start, "the call %s(...) names a schema; call built-in functions without a schema (only pg_catalog is accepted)", w.src[w.toks[max(q, 0)].start:t.end])
			w.record(qual + "." + name)
			return
		}
	}
	w.record(name)
	if Never(name) {
		w.add(CodeFunctionNotAllowed, t.start, "%s() is never allowed: it has side effects (files, sessions, locks, sequences, settings, sleeping) or runs SQL text the guard cannot see; compute the answer with plain SQL", name)
		return
	}
	if !exact || !w.opts.AllowsFunction(name) {
		w.add(CodeFunctionNotAllowed, t.start, "%s() is not on the function allow-list for %s; use a listed function, or add it to guard.extra_functions in quarry.yaml if it is read-only", name, w.d)
	}
}

// name returns the normalised name of the word or quoted identifier at i.
// exact is false for a quoted name whose case PostgreSQL would keep and
// that is therefore not the lower-case built-in.
func (w *walker) name(i int) (string, bool) {
	t := w.toks[i]
	s := w.src[t.start:t.end]
	if t.kind == tWord {
		return strings.ToLower(s), true
	}
	q := s[0]
	inner := strings.ReplaceAll(s[1:len(s)-1], string([]byte{q, q}), string(q))
	lower := strings.ToLower(inner)
	caseSensitive := w.d == quarry.DialectPostgres || w.d == quarry.DialectGeneric || w.d == quarry.DialectDuckDB
	return lower, !caseSensitive || lower == inner
}

func (w *walker) record(name string) {
	for _, f := range w.funcs {
		if f == name {
			return
		}
	}
	w.funcs = append(w.funcs, name)
}
