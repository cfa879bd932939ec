package sqlguard

import (
	"sort"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// The function allow-list. A call is allowed when its normalised name is in
// the common list or the dialect's list (the generic dialect takes the union
// of all of them), or in Options.ExtraFunctions, and is never in the
// never-allowed list. Names are lower case, without schema.

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

// dialectFunctions are read-only in the named dialect.
var dialectFunctions = map[quarry.Dialect]string{
	quarry.DialectPostgres: `
make_date make_time make_timestamp make_timestamptz make_interval justify_days justify_hours
justify_interval date_bin clock_timestamp statement_timestamp transaction_timestamp timeofday
isfinite timezone to_hex sha224 sha256 sha384 sha512 quote_ident quote_literal quote_nullable
regexp_matches regexp_match regexp_split_to_array regexp_split_to_table string_to_array
array_to_string array_length array_position array_positions array_remove array_replace
array_append array_prepend array_cat array_dims array_lower array_upper array_ndims
cardinality unnest generate_series generate_subscripts
json_extract_path json_extract_path_text jsonb_extract_path jsonb_extract_path_text
jsonb_array_length json_each_text jsonb_each jsonb_each_text json_array_elements
json_array_elements_text jsonb_array_elements jsonb_array_elements_text json_object_keys
jsonb_object_keys json_typeof jsonb_typeof json_build_object jsonb_build_object
json_build_array jsonb_build_array to_json to_jsonb row_to_json array_to_json
json_strip_nulls jsonb_strip_nulls jsonb_pretty jsonb_set jsonb_insert jsonb_concat
jsonb_path_query jsonb_path_query_array jsonb_path_query_first jsonb_path_exists jsonb_path_match
json_populate_record jsonb_populate_record json_to_record jsonb_to_record json_to_recordset
jsonb_to_recordset
to_tsvector to_tsquery plainto_tsquery phraseto_tsquery websearch_to_tsquery ts_rank
ts_rank_cd ts_headline setweight numnode querytree
pg_size_pretty pg_total_relation_size pg_relation_size pg_table_size pg_indexes_size
pg_database_size pg_column_size pg_get_viewdef pg_get_indexdef pg_get_constraintdef
pg_get_expr pg_get_userbyid pg_get_serial_sequence format_type obj_description col_description
shobj_description has_table_privilege has_column_privilege has_schema_privilege
has_database_privilege current_database current_schema current_schemas current_user
session_user user version pg_backend_pid pg_postmaster_start_time pg_is_in_recovery
to_regclass to_regtype pg_typeof gen_random_uuid current_setting
bool_and bool_or num_nulls num_nonnulls`,
	quarry.DialectMySQL: `
date_format str_to_date curdate curtime sysdate year month day dayofweek dayofmonth dayofyear
week weekday weekofyear quarter hour minute second microsecond last_day unix_timestamp
from_unixtime makedate maketime period_add period_diff dayname monthname yearweek to_days
from_days time_format time_to_sec sec_to_time utc_date utc_time utc_timestamp convert_tz
addtime subtime timediff adddate subdate timestampdiff timestampadd get_format extract
database schema version current_user user session_user system_user connection_id found_rows
truncate insert lcase ucase mid field find_in_set elt strcmp bin oct rand crc32 sha1 sha2
to_base64 from_base64 inet_aton inet_ntoa is_ipv4 is_ipv6 uuid bin_to_uuid uuid_to_bin
charset collation coercibility isnull substring_index conv bit_count
json_unquote json_keys json_contains json_contains_path json_search json_length json_depth
json_set json_insert json_replace json_remove json_merge_patch json_merge_preserve
json_pretty json_overlaps json_arrayagg json_objectagg member`,
	quarry.DialectSQLite: `
strftime julianday date datetime time unixepoch timediff printf format typeof sqlite_version
sqlite_source_id quote regexp likelihood likely unlikely glob like match -> ->> total
json jsonb json_array_length json_error_position json_insert json_patch json_pretty
json_remove json_replace json_set json_group_array json_group_object json_tree
jsonb_array jsonb_extract jsonb_group_array jsonb_group_object jsonb_insert jsonb_object
jsonb_patch jsonb_remove jsonb_replace jsonb_set
pragma_table_info pragma_table_xinfo pragma_table_list pragma_index_list pragma_index_info
pragma_index_xinfo pragma_foreign_key_list generate_series`,
	quarry.DialectDuckDB: `
make_date make_time make_timestamp epoch epoch_ms strftime strptime date_part year month day
hour minute second dayofweek dayofyear week quarter last_day
list_value list_extract list_contains list_sort list_distinct list_aggregate array_length len
string_split str_split regexp_extract regexp_matches contains prefix suffix
arg_max arg_min argmax argmin approx_quantile quantile quantile_cont quantile_disc
histogram count_if countif list flatten unnest generate_series struct_pack struct_extract
json_extract_string json_structure json_keys typeof current_database current_schema version`,
}

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

// funcSets holds the parsed lists; it is built once per process by
// newFuncSets and only read afterwards.
type funcSets struct {
	common  map[string]bool
	dialect map[quarry.Dialect]map[string]bool
	union   map[string]bool
	never   map[string]bool
}

var functionLists = newFuncSets()

func newFuncSets() *funcSets {
	fs := &funcSets{
		common:  words(commonFunctions),
		dialect: map[quarry.Dialect]map[string]bool{},
		union:   words(commonFunctions),
		never:   words(neverFunctions),
	}
	for d, list := range dialectFunctions {
		fs.dialect[d] = words(list)
		for n := range fs.dialect[d] {
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
	if functionLists.never[name] {
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
	fs := functionLists
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
	fs := functionLists
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
