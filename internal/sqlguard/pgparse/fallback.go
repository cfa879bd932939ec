//go:build !cgo

package pgparse

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// Available reports whether this build has PostgreSQL's parser. This build
// has no cgo, so it has not: Check is the lexer-only fallback.
func Available() bool { return false }

// Check is the fallback for builds without cgo, where PostgreSQL's parser
// cannot be linked. It allows only what sqlguard.Check allows for
// PostgreSQL, and rejects more, because nothing backs the lexer:
//
//   - only the core functions of coreFunctions (aggregates, window
//     functions, arithmetic, text, date and JSON basics); every other
//     function, even one on the PostgreSQL allow-list or in
//     Options.ExtraFunctions, is rejected, as is any schema-qualified call;
//   - no EXPLAIN at all (its option list is the parser's to read);
//   - no TABLESAMPLE (a sampling method is a function the lexer does not
//     see as a call);
//   - no OPERATOR(...) (it can name a user-defined operator's function);
//   - no field after a dot that may be attribute notation for a call:
//     (x).f and (x)[1].f unless f is an allowed function, and t.f when f
//     is a PostgreSQL function name that is not allowed (u.name too).
//
// The words are found in the raw text, literals and comments included, so
// the fallback may reject a statement that merely mentions them.
//
// Each such rejection says that a build with cgo would decide with the
// parser.
func Check(sql string, opts sqlguard.Options) sqlguard.Verdict {
	opts.Dialect = quarry.DialectPostgres
	v := sqlguard.Check(sql, opts)
	if !v.Allowed {
		return v
	}
	const why = "; this quarry was built without cgo, so PostgreSQL's parser is not there to prove it safe (build with CGO_ENABLED=1 to lift this)"
	if v.Statement == "explain" {
		v.Violations = append(v.Violations, sqlguard.Violation{Code: sqlguard.CodeStatementNotAllowed, Pos: max(indexWord(sql, "explain"), 0),
			Message: "EXPLAIN is not accepted without the parser; send the SELECT alone" + why})
	}
	core := coreFunctions()
	for _, f := range v.Functions {
		if core[f] {
			continue
		}
		v.Violations = append(v.Violations, sqlguard.Violation{Code: sqlguard.CodeFunctionNotAllowed, Pos: callPos(sql, f),
			Message: f + "() is outside the core function list; use a core function" + why})
	}
	if i := indexWord(sql, "tablesample"); i >= 0 {
		v.Violations = append(v.Violations, sqlguard.Violation{Code: sqlguard.CodeFunctionNotAllowed, Pos: i,
			Message: "TABLESAMPLE names a sampling function; remove it" + why})
	}
	v.Violations = append(v.Violations, fieldCalls(sql, opts, setReturning(v.Functions))...)
	if i := indexWord(sql, "operator"); i >= 0 {
		v.Violations = append(v.Violations, sqlguard.Violation{Code: sqlguard.CodeFunctionNotAllowed, Pos: i,
			Message: "OPERATOR(...) can name a user-defined operator, whose function is unknown; use the plain operator" + why})
	}
	v.Allowed = len(v.Violations) == 0
	return v
}

// coreFunctions returns the functions the fallback accepts: built-ins
// that every PostgreSQL has, all on sqlguard's allow-list, none with side
// effects. It builds a new map on every call; nothing is shared.
func coreFunctions() map[string]bool {
	const list = `
count sum avg min max every bool_and bool_or stddev stddev_pop stddev_samp variance var_pop var_samp
corr covar_pop covar_samp percentile_cont percentile_disc mode grouping array_agg string_agg
json_agg jsonb_agg json_object_agg jsonb_object_agg
row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
abs ceil ceiling floor round trunc sign sqrt power exp ln log mod greatest least width_bucket div
lower upper length char_length octet_length concat concat_ws substring substr left right trim
ltrim rtrim btrim lpad rpad replace reverse repeat position strpos split_part initcap translate
md5 regexp_replace starts_with format
now current_date current_timestamp date_trunc date_part extract to_char to_date to_timestamp
to_number age make_date make_interval date_bin
coalesce nullif generate_series unnest array_length cardinality string_to_array array_to_string
jsonb_array_elements jsonb_array_elements_text json_array_elements json_array_elements_text
jsonb_each jsonb_each_text jsonb_object_keys jsonb_extract_path_text json_extract_path_text
jsonb_build_object json_build_object jsonb_typeof to_jsonb to_json
varchar character varying numeric decimal dec float double timestamp time interval bit date
`
	m := map[string]bool{}
	for _, f := range strings.Fields(list) {
		m[f] = true
	}
	return m
}

// callPos returns the offset of the first call of name in sql, or 0.
func callPos(sql, name string) int {
	lower := strings.ToLower(sql)
	if i := strings.Index(lower, name+"("); i >= 0 {
		return i
	}
	if i := indexWord(sql, name); i >= 0 {
		return i
	}
	return 0
}

// indexWord returns the offset of the first occurrence of word (lower
// case) in sql as a whole word, ignoring case, or -1. It may find the word
// inside a literal or comment: the fallback then rejects more, never less.
func indexWord(sql, word string) int {
	lower := strings.ToLower(sql)
	for from := 0; ; {
		i := strings.Index(lower[from:], word)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(word)
		if (i == 0 || !wordByte(lower[i-1])) && (end >= len(lower) || !wordByte(lower[end])) {
			return i
		}
		from = i + 1
	}
}

func wordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}

// fieldCalls rejects what may be PostgreSQL's attribute notation, which
// calls f for (x).f and t.f: every field after a dot whose name is not an
// allowed function and is a PostgreSQL function name, or that follows a
// closing parenthesis or bracket ((x).f, (x)[1].f), and every such field
// when the statement calls a set-returning function (its whole row in
// FROM is a scalar, so g.f calls f(g)). Dots in literals and
// comments count too: the fallback rejects more, never less.
func fieldCalls(sql string, opts sqlguard.Options, srf bool) []sqlguard.Violation {
	var out []sqlguard.Violation
	for i := 0; i < len(sql); i++ {
		if strings.HasPrefix(sql[i:], "::") {
			// ::schema.type: a type outside pg_catalog runs its own code.
			j := skipBlank(sql, i+2)
			k := j
			for k < len(sql) && (sql[k] == '"' || wordByte(strings.ToLower(sql[k : k+1])[0])) {
				k++
			}
			if k > j && skipBlank(sql, k) < len(sql) && sql[skipBlank(sql, k)] == '.' && !strings.EqualFold(sql[j:k], "pg_catalog") {
				out = append(out, sqlguard.Violation{Code: sqlguard.CodeFunctionNotAllowed, Pos: i,
					Message: "a cast to a type with a schema runs that type's own code; cast to a built-in type"})
			}
			continue
		}
		if sql[i] != '.' {
			continue
		}
		j := skipBlank(sql, i+1)
		name, quoted := "", false
		switch {
		case j < len(sql) && sql[j] == '"':
			end := strings.IndexByte(sql[j+1:], '"')
			if end < 0 {
				continue
			}
			name, quoted = sql[j+1:j+1+end], true
		case j < len(sql) && (sql[j] == '_' || sql[j] >= 'a' && sql[j] <= 'z' || sql[j] >= 'A' && sql[j] <= 'Z'):
			k := j
			for k < len(sql) && wordByte(strings.ToLower(sql[k : k+1])[0]) {
				k++
			}
			name = strings.ToLower(sql[j:k])
		default:
			continue
		}
		if (!quoted || name == strings.ToLower(name)) && opts.AllowsFunction(name) {
			continue
		}
		prev := lastBlank(sql, i)
		_, known := pgFuncs()[name]
		if known || srf || (prev > 0 && (sql[prev-1] == ')' || sql[prev-1] == ']')) {
			out = append(out, sqlguard.Violation{Code: sqlguard.CodeFunctionNotAllowed, Pos: i,
				Message: "." + name + " may be PostgreSQL's attribute notation for the call " + name + "(...); call allowed functions directly and select columns by plain names"})
		}
	}
	return out
}

// skipBlank returns the offset of the first byte at or after i that is
// not white space or inside a comment.
func skipBlank(s string, i int) int {
	for i < len(s) {
		switch {
		case strings.IndexByte(" \t\n\r\f\v", s[i]) >= 0:
			i++
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return len(s)
			}
			i += end + 4
		case strings.HasPrefix(s[i:], "--"):
			end := strings.IndexAny(s[i:], "\n\r")
			if end < 0 {
				return len(s)
			}
			i += end
		default:
			return i
		}
	}
	return i
}

// lastBlank returns the offset just after the last byte before i that is
// not white space or a block comment.
func lastBlank(s string, i int) int {
	for i > 0 {
		switch {
		case strings.IndexByte(" \t\n\r\f\v", s[i-1]) >= 0:
			i--
		case strings.HasSuffix(s[:i], "*/"):
			start := strings.LastIndex(s[:i-2], "/*")
			if start < 0 {
				return i
			}
			i = start
		default:
			return i
		}
	}
	return i
}

// setReturning reports whether funcs has a function that can stand in
// FROM with a scalar result.
func setReturning(funcs []string) bool {
	for _, f := range funcs {
		switch f {
		case "generate_series", "unnest", "jsonb_array_elements", "jsonb_array_elements_text",
			"json_array_elements", "json_array_elements_text", "jsonb_object_keys":
			return true
		}
	}
	return false
}
