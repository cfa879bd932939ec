package mysql

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// checkLeadingKeyword is the connector's own, last check before the
// server: the statement must begin (after whitespace, comments and opening
// parentheses) with SELECT, WITH, VALUES, TABLE, EXPLAIN, DESCRIBE, DESC or
// SHOW. It exists because MySQL commits DDL implicitly, so that a READ
// ONLY transaction cannot stop CREATE, DROP, ALTER, RENAME or TRUNCATE
// when the account may run them. Executable comments (/*! … */ and MariaDB's
// /*M! … */) are not skipped: a statement that begins with one is refused.
// It only refuses; what it lets through still meets the read-only
// transaction and the account's privileges.
func checkLeadingKeyword(sqlText string) error {
	word := leadingKeyword(sqlText)
	switch strings.ToUpper(word) {
	case "SELECT", "WITH", "VALUES", "TABLE", "EXPLAIN", "DESCRIBE", "DESC", "SHOW":
		return nil
	case "":
		return quarry.Errorf(quarry.KindInput, "the statement is empty; write one SELECT statement")
	}
	if len(word) > 40 {
		word = word[:40] + "…"
	}
	return quarry.Errorf(quarry.KindRejected, "the statement begins with %q; the MySQL connector runs only SELECT, WITH, VALUES, TABLE, EXPLAIN and SHOW statements (MySQL commits DDL even inside a read-only transaction)", word)
}

// leadingKeyword returns the first word of s after whitespace, comments
// (/* */, "-- " and #) and opening parentheses. An executable comment, or
// an unterminated one, is returned as the word itself.
func leadingKeyword(s string) string {
	i := 0
	for i < len(s) {
		switch ch := s[i]; {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v' || ch == '(':
			i++
		case ch == '#':
			i = skipLine(s, i)
		case ch == '-' && i+2 < len(s) && s[i+1] == '-' && (s[i+2] == ' ' || s[i+2] == '\t' || s[i+2] == '\n' || s[i+2] == '\r'):
			i = skipLine(s, i)
		case ch == '-' && i+2 == len(s) && s[i+1] == '-':
			return ""
		case strings.HasPrefix(s[i:], "/*"):
			if strings.HasPrefix(s[i:], "/*!") || strings.HasPrefix(s[i:], "/*M!") {
				return s[i:min(len(s), i+4)]
			}
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return "/*"
			}
			i += 2 + end + 2
		default:
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if j == i {
				return s[i : i+1]
			}
			return s[i:j]
		}
	}
	return ""
}

// skipLine returns the index after the end of the line that starts at i.
func skipLine(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(s)
}
