package mysqlparse

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Parsed is a statement text as the guard's parser reads it.
type Parsed struct {
	// Stmts are the statements the parser read.
	Stmts []ast.StmtNode
	// Text is what the parser read: the statement with each JSON_TABLE
	// call rewritten to the derived table (SELECT expr), and the FORMAT=TREE
	// of a leading EXPLAIN blanked, every offset where it was.
	Text string
	// JSONTables are the offsets of the rewritten JSON_TABLE calls: at
	// each, Text holds the derived table's opening parenthesis.
	JSONTables []int
}

// Parse reads sql the way Check does under sqlMode, for callers that need
// the tree itself (the column policy). A mode Check refuses, a syntax
// error and a failure inside the parser are errors.
func Parse(sql, sqlMode string) (parsed *Parsed, err error) {
	mode, err := parseMode(sqlMode)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			parsed, err = nil, fmt.Errorf("the MySQL parser failed on this statement (%v)", r)
		}
	}()
	p := parser.New()
	p.SetSQLMode(mode)
	text, jts := rewriteJSONTables(sql)
	stmts, _, err := p.ParseSQL(text)
	if err != nil {
		if alt, ok := blankTreeFormat(text); ok {
			if stmts2, _, err2 := p.ParseSQL(alt); err2 == nil {
				stmts, text, err = stmts2, alt, nil
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the MySQL grammar cannot parse it (%s)", strings.TrimSpace(err.Error()))
	}
	out := &Parsed{Stmts: stmts, Text: text}
	for _, jt := range jts {
		out.JSONTables = append(out.JSONTables, jt.pos)
	}
	return out, nil
}
