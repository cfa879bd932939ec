package sqlguard

// kw identifies the keywords the walker looks at. Words that are not in
// the table get kwNone.
type kw uint16

const (
	kwNone kw = iota
	kwSelect
	kwWith
	kwValues
	kwTable
	kwExplain
	kwDescribe
	kwFrom
	kwJoin
	kwRecursive
	kwAs
	kwNot
	kwMaterialized
	kwSearch
	kwCycle
	kwFor
	kwLock
	kwIn
	kwUpdate
	kwShare
	kwNo
	kwKey
	kwLimit
	kwFetch
	kwInto
	kwOutfile
	kwDumpfile
	kwAnalyze
	kwInsert
	kwTruncate
	kwReplace
	kwQuery
	kwPlan
	kwFormat
	kwTablesample
	// kwDeny and the ones after it are write keywords rejected anywhere.
	kwDeny
	// kwOther and the ones after it only matter because a "(" after them
	// is not a function call.
	kwOther
)

// keywordTable maps upper-case words to their ids. It is a read-only
// lookup table.
var keywordTable = map[string]kw{
	"SELECT": kwSelect, "WITH": kwWith, "VALUES": kwValues, "TABLE": kwTable,
	"EXPLAIN": kwExplain, "DESCRIBE": kwDescribe, "FROM": kwFrom, "JOIN": kwJoin,
	"RECURSIVE": kwRecursive, "AS": kwAs, "NOT": kwNot, "MATERIALIZED": kwMaterialized,
	"SEARCH": kwSearch, "CYCLE": kwCycle, "FOR": kwFor, "LOCK": kwLock, "IN": kwIn,
	"UPDATE": kwUpdate, "SHARE": kwShare, "NO": kwNo, "KEY": kwKey,
	"LIMIT": kwLimit, "FETCH": kwFetch, "INTO": kwInto, "OUTFILE": kwOutfile,
	"DUMPFILE": kwDumpfile, "ANALYZE": kwAnalyze, "ANALYSE": kwAnalyze,
	"INSERT": kwInsert, "TRUNCATE": kwTruncate, "REPLACE": kwReplace,
	"QUERY": kwQuery, "PLAN": kwPlan, "FORMAT": kwFormat, "TABLESAMPLE": kwTablesample,

	// Statement words that never belong in a read-only query, wherever
	// they appear (outside literals, quoted identifiers and qualifiers).
	"DELETE": kwDeny, "MERGE": kwDeny, "UPSERT": kwDeny, "DROP": kwDeny,
	"ALTER": kwDeny, "CREATE": kwDeny, "GRANT": kwDeny, "REVOKE": kwDeny,
	"ATTACH": kwDeny, "DETACH": kwDeny, "PRAGMA": kwDeny, "VACUUM": kwDeny,
	"REINDEX": kwDeny, "COMMIT": kwDeny, "ROLLBACK": kwDeny, "SAVEPOINT": kwDeny,

	// Words after which "(" opens a subquery, a list or a clause, not a call.
	"WHERE": kwOther, "AND": kwOther, "OR": kwOther, "EXISTS": kwOther,
	"ANY": kwOther, "ALL": kwOther, "SOME": kwOther, "ON": kwOther, "USING": kwOther,
	"LATERAL": kwOther, "ROW": kwOther, "ARRAY": kwOther, "OVER": kwOther,
	"FILTER": kwOther, "WITHIN": kwOther, "GROUP": kwOther, "BY": kwOther,
	"HAVING": kwOther, "ORDER": kwOther, "OFFSET": kwOther, "FIRST": kwOther,
	"NEXT": kwOther, "UNION": kwOther, "INTERSECT": kwOther, "EXCEPT": kwOther,
	"MINUS": kwOther, "DISTINCT": kwOther, "CASE": kwOther, "WHEN": kwOther,
	"THEN": kwOther, "ELSE": kwOther, "END": kwOther, "IS": kwOther, "LIKE": kwOther,
	"ILIKE": kwOther, "SIMILAR": kwOther, "TO": kwOther, "BETWEEN": kwOther,
	"ESCAPE": kwOther, "ROLLUP": kwOther, "CUBE": kwOther, "SETS": kwOther,
	"ROWS": kwOther, "RANGE": kwOther, "GROUPS": kwOther, "PARTITION": kwOther,
	"WINDOW": kwOther, "CAST": kwOther, "TRY_CAST": kwOther, "SAFE_CAST": kwOther,
	"REPEATABLE": kwOther, "RETURNING": kwOther, "COLUMNS": kwOther,
	"PASSING": kwOther, "VALUE": kwOther, "MATCH": kwOther, "AGAINST": kwOther,
	"DIV": kwOther, "XOR": kwOther, "REGEXP": kwOther, "RLIKE": kwOther,
	"GLOB": kwOther, "ZONE": kwOther, "PLACING": kwOther, "LEADING": kwOther,
	"TRAILING": kwOther, "BOTH": kwOther, "SEPARATOR": kwOther, "OPERATOR": kwOther,
	"ONLY": kwOther, "BINARY": kwOther, "EXCLUDE": kwOther, "PIVOT": kwOther,
	"UNPIVOT": kwOther, "QUALIFY": kwOther, "PRECEDING": kwOther,
	"FOLLOWING": kwOther, "UNBOUNDED": kwOther, "CURRENT": kwOther,
	"COLLATE": kwOther, "APPLY": kwOther, "OF": kwOther, "NULLS": kwOther,
	"DEFAULT": kwOther, "ISNULL": kwOther, "NOTNULL": kwOther, "NATURAL": kwOther,
	"INNER": kwOther, "OUTER": kwOther, "CROSS": kwOther, "FULL": kwOther,
	"ASOF": kwOther, "POSITIONAL": kwOther, "SEMI": kwOther, "ANTI": kwOther,
	"NESTED": kwOther, "PATH": kwOther, "ORDINALITY": kwOther, "ESCAPED": kwOther,
	"VERBOSE": kwOther, "EXTENDED": kwOther, "PARTITIONS": kwOther,
	"STRAIGHT_JOIN": kwOther, "INDEX": kwOther, "DESC": kwOther, "ASC": kwOther,
}

// explainOption reports whether a word may appear between EXPLAIN and its
// target (outside a parenthesised option list).
func explainOption(k kw, upper string) bool {
	switch k {
	case kwQuery, kwPlan, kwFormat:
		return true
	}
	switch upper {
	case "VERBOSE", "EXTENDED", "PARTITIONS", "JSON", "TREE", "TRADITIONAL", "TEXT", "XML", "YAML":
		return true
	}
	return false
}

// lookupKeyword returns the id of word, compared case-insensitively.
func lookupKeyword(word string) kw {
	if len(word) > 16 || len(word) < 2 {
		return kwNone
	}
	var buf [16]byte
	for i := 0; i < len(word); i++ {
		c := word[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	return keywordTable[string(buf[:len(word)])]
}
