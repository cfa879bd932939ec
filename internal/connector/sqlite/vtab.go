package sqlite

import (
	"strings"
	"unicode"
)

// VirtualShadows returns the tables SQLite keeps for the virtual table
// name that sql creates (its row of sqlite_schema): an FTS index's copy of
// the text it indexes and its terms (notes_fts_content, notes_fts_data),
// an R-tree's nodes. They hold the values of the columns indexed, which a
// policy may restrict, under names no rule of it names. For a module
// quarry does not know, prefix is true: every table whose name starts
// with name and "_" may be one. sql that creates no virtual table gives
// neither.
func VirtualShadows(name, sql string) (tables []string, prefix bool) {
	s := strings.TrimSpace(sql)
	if !strings.HasPrefix(strings.ToUpper(s), "CREATE VIRTUAL TABLE") {
		return nil, false
	}
	i := strings.Index(strings.ToUpper(s), " USING ")
	if i < 0 {
		return nil, true
	}
	module := strings.ToLower(strings.TrimLeftFunc(s[i+len(" USING "):], unicode.IsSpace))
	if j := strings.IndexFunc(module, func(r rune) bool { return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) }); j >= 0 {
		module = module[:j]
	}
	var suffixes []string
	switch module {
	case "fts5":
		suffixes = []string{"data", "idx", "content", "docsize", "config"}
	case "fts3", "fts4":
		suffixes = []string{"content", "segments", "segdir", "docsize", "stat"}
	case "rtree", "rtree_i32", "geopoly":
		suffixes = []string{"node", "rowid", "parent"}
	default:
		return nil, true
	}
	for _, x := range suffixes {
		tables = append(tables, name+"_"+x)
	}
	return tables, false
}
