package mysqlparse

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// The parser has no JSON_TABLE. MySQL 8 and MariaDB 10.6 read
//
//	JSON_TABLE(expr, 'path' COLUMNS (name type PATH 'path' [DEFAULT 'json' ON EMPTY] ..., NESTED PATH 'path' COLUMNS (...)))
//
// where only expr is an expression: the path, the column list and its
// defaults are literals, names and type words. rewriteJSONTables replaces
// each call by the derived table (SELECT expr), padded with spaces so that
// every offset stays where it was, after checking that the rest of the
// call holds nothing but strings, numbers, words, parentheses and commas.
// The parser then walks expr like any other expression; a call whose rest
// holds anything else is left alone, and the parser rejects it.

// maxJSONTables bounds the calls rewritten in one statement.
const maxJSONTables = 32

// jsonTable is one rewritten call: the offset of its name.
type jsonTable struct{ pos int }

// rewriteJSONTables returns sql with its JSON_TABLE calls rewritten, and
// where they were. It returns sql unchanged when there is nothing to do.
func rewriteJSONTables(sql string) (string, []jsonTable) {
	if !containsFold(sql, "json_table") {
		return sql, nil
	}
	var found []jsonTable
	for range maxJSONTables {
		toks, ok := sqlguard.Tokenize(sql, quarry.DialectMySQL)
		if !ok {
			return sql, found
		}
		// The rightmost call first: calls nested in its first argument
		// lie to its right, so none is left inside it.
		done := false
		for i := len(toks) - 2; i >= 0 && !done; i-- {
			if toks[i].Kind != sqlguard.TokenWord || !strings.EqualFold(toks[i].Text, "JSON_TABLE") || !isOp(toks[i+1], "(") {
				continue
			}
			if i > 0 && isOp(toks[i-1], ".") {
				continue // db.json_table(...) is a stored function
			}
			out, ok := rewriteOne(sql, toks, i)
			if !ok {
				continue
			}
			sql, done = out, true
			found = append(found, jsonTable{pos: toks[i].Pos})
		}
		if !done {
			break
		}
	}
	return sql, found
}

// rewriteOne rewrites the call whose name is toks[i].
func rewriteOne(sql string, toks []sqlguard.Token, i int) (string, bool) {
	depth, comma, end := 0, -1, -1
	for j := i + 1; j < len(toks) && end < 0; j++ {
		switch {
		case isOp(toks[j], "("):
			depth++
		case isOp(toks[j], ")"):
			depth--
			if depth == 0 {
				end = j
			}
		case isOp(toks[j], ",") && depth == 1 && comma < 0:
			comma = j
		}
	}
	if comma < 0 || end < 0 || comma == i+2 {
		return "", false
	}
	// The path must come first, and the rest may hold only literals,
	// names and the punctuation of the column list.
	if toks[comma+1].Kind != sqlguard.TokenString {
		return "", false
	}
	if !plainColumns(toks[comma+1 : end]) {
		return "", false
	}
	name, arg := toks[i].Pos, toks[i+2].Pos
	if arg-name < len("(SELECT ") {
		return "", false
	}
	comm, close := toks[comma].Pos, toks[end].Pos
	var b strings.Builder
	b.Grow(len(sql))
	b.WriteString(sql[:name])
	b.WriteString("(SELECT ")
	b.WriteString(strings.Repeat(" ", arg-name-len("(SELECT ")))
	b.WriteString(sql[arg:comm])
	b.WriteString(")")
	b.WriteString(strings.Repeat(" ", close-comm))
	b.WriteString(sql[close+1:])
	return b.String(), true
}

// typeWords are the type names that take a parenthesised length, scale or
// value list in a JSON_TABLE column definition.
var typeWords = map[string]bool{
	"CHAR": true, "CHARACTER": true, "VARCHAR": true, "VARYING": true, "NCHAR": true, "NVARCHAR": true,
	"BINARY": true, "VARBINARY": true, "DECIMAL": true, "DEC": true, "NUMERIC": true, "FIXED": true,
	"FLOAT": true, "DOUBLE": true, "REAL": true, "PRECISION": true, "INT": true, "INTEGER": true,
	"TINYINT": true, "SMALLINT": true, "MEDIUMINT": true, "BIGINT": true, "BIT": true, "DATETIME": true,
	"TIME": true, "TIMESTAMP": true, "YEAR": true, "ENUM": true, "SET": true, "TEXT": true, "BLOB": true,
}

// plainColumns reports whether toks (the path and COLUMNS clause of a
// JSON_TABLE call) hold no expression: only strings, numbers, names,
// commas, parentheses right after COLUMNS, parenthesised lists of literals
// right after a type name, and DEFAULT followed by a literal.
func plainColumns(toks []sqlguard.Token) bool {
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch t.Kind {
		case sqlguard.TokenString, sqlguard.TokenNumber, sqlguard.TokenQuoted:
			continue
		case sqlguard.TokenOp:
			if t.Text == ")" || t.Text == "," {
				continue
			}
			return false // a ( is consumed with the word before it
		case sqlguard.TokenWord:
		default:
			return false
		}
		word := strings.ToUpper(t.Text)
		next := k + 1
		switch {
		case word == "SELECT" || word == "WITH" || word == "VALUES" || word == "TABLE" || word == "INTO" || word == "JSON_TABLE":
			return false
		case word == "DEFAULT":
			if next >= len(toks) || (toks[next].Kind != sqlguard.TokenString && toks[next].Kind != sqlguard.TokenNumber) {
				return false
			}
			k = next
		case next < len(toks) && isOp(toks[next], "("):
			if word == "COLUMNS" {
				k = next
				continue
			}
			if !typeWords[word] {
				return false
			}
			// A length, scale or value list: literals and commas to the ).
			k = next + 1
			for k < len(toks) && !isOp(toks[k], ")") {
				if toks[k].Kind != sqlguard.TokenNumber && toks[k].Kind != sqlguard.TokenString && !isOp(toks[k], ",") {
					return false
				}
				k++
			}
			if k >= len(toks) {
				return false
			}
		}
	}
	return true
}

func isOp(t sqlguard.Token, s string) bool { return t.Kind == sqlguard.TokenOp && t.Text == s }

// containsFold reports whether s contains the lower-case ASCII word w in
// any case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}
