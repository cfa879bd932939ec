package sqlguard

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// maxViolations bounds the violations one check reports.
const maxViolations = 16

// walker applies the token-level rules to the single statement.
type walker struct {
	src      string
	d        quarry.Dialect
	toks     []token
	opts     *Options
	kind     string
	funcs    []string
	hasLimit bool
	viols    []Violation
}

func (w *walker) add(code string, pos int, format string, args ...any) {
	if len(w.viols) >= maxViolations {
		return
	}
	w.viols = append(w.viols, Violation{Code: code, Pos: pos, Message: fmt.Sprintf(format, args...)})
}

func (w *walker) text(i int) string { return w.src[w.toks[i].start:w.toks[i].end] }

func (w *walker) isOp(i int, c byte) bool {
	return i >= 0 && i < len(w.toks) && w.toks[i].kind == tOp && w.toks[i].op == c
}

func (w *walker) isKw(i int, k kw) bool {
	return i >= 0 && i < len(w.toks) && w.toks[i].kind == tWord && w.toks[i].kw == k
}

func (w *walker) isName(i int) bool {
	return i >= 0 && i < len(w.toks) && (w.toks[i].kind == tWord || w.toks[i].kind == tQuoted)
}

func (w *walker) pos(i int) int {
	if i < len(w.toks) {
		return w.toks[i].start
	}
	return len(w.src)
}

// skipGroup returns the index after the parenthesised group opening at i.
func (w *walker) skipGroup(i int) int {
	if w.isOp(i, '(') {
		return w.toks[i].match + 1
	}
	return i + 1
}

func (w *walker) run() {
	if !w.balanced() {
		return
	}
	w.kind = w.head(0, true, "")
	w.scan()
}

// maxDepth bounds parenthesis nesting; engines refuse far less.
const maxDepth = 200

// balanced reports whether parentheses balance and nest at most maxDepth
// deep, adding a violation if not. It records each parenthesis's partner.
func (w *walker) balanced() bool {
	var open []int
	for i := range w.toks {
		t := &w.toks[i]
		if t.kind != tOp {
			continue
		}
		switch t.op {
		case '(':
			if len(open) >= maxDepth {
				w.add(CodeSyntax, t.start, "parentheses nest more than %d deep; simplify the query", maxDepth)
				return false
			}
			open = append(open, i)
		case ')':
			if len(open) == 0 {
				w.add(CodeSyntax, t.start, "this ) closes nothing; balance the parentheses")
				return false
			}
			o := open[len(open)-1]
			open = open[:len(open)-1]
			w.toks[o].match = i
			t.match = o
		}
	}
	if len(open) > 0 {
		w.add(CodeSyntax, len(w.src), "%d parenthesis(es) are never closed; balance the parentheses", len(open))
		return false
	}
	return true
}

// head checks the statement head at i and returns the statement kind.
// top allows EXPLAIN; cte names the CTE whose body this is, if any.
func (w *walker) head(i int, top bool, cte string) string {
	for w.isOp(i, '(') {
		i++
	}
	if i >= len(w.toks) {
		w.add(CodeSyntax, w.pos(i), "the statement ends where a query should start; write a SELECT")
		return ""
	}
	t := w.toks[i]
	if t.kind == tWord {
		switch t.kw {
		case kwSelect:
			return "select"
		case kwValues:
			return "values"
		case kwTable:
			if w.d == quarry.DialectSQLite {
				w.add(CodeStatementNotAllowed, t.start, "SQLite has no TABLE statement; write SELECT * FROM the table")
				return ""
			}
			return "table"
		case kwFrom:
			if w.d == quarry.DialectDuckDB {
				return "select"
			}
		case kwWith:
			j := w.with(i)
			if j < 0 {
				return ""
			}
			w.head(j, false, "")
			return "with"
		case kwExplain, kwDescribe:
			if top && (t.kw == kwExplain || w.d == quarry.DialectMySQL) {
				w.explain(i + 1)
				return "explain"
			}
		}
	}
	word := w.text(i)
	if cte != "" {
		w.add(CodeDataModifyingCTE, t.start, "the body of CTE %s starts with %s; a CTE body must be a SELECT (or VALUES), never a statement that writes", cte, word)
		return ""
	}
	w.add(CodeStatementNotAllowed, t.start, "%s is not a query; quarry runs only SELECT, WITH ... SELECT, VALUES, TABLE and EXPLAIN without ANALYZE", strings.ToUpper(word))
	return ""
}

// explain checks the options and target of an EXPLAIN whose options start
// at i. ANALYZE in any spelling or position is rejected by scan.
func (w *walker) explain(i int) {
	for i < len(w.toks) {
		t := w.toks[i]
		if w.isOp(i, '(') {
			n := i + 1
			if w.isOp(n, '(') || w.isKw(n, kwSelect) || w.isKw(n, kwWith) || w.isKw(n, kwValues) || w.isKw(n, kwTable) {
				break // a parenthesised target
			}
			i = w.skipGroup(i)
			continue
		}
		if t.kind == tWord && t.kw == kwAnalyze {
			w.add(CodeExplainAnalyze, t.start, "EXPLAIN ANALYZE runs the statement it explains; use plain EXPLAIN")
			w.toks[i].kw = kwOther // reported once
			i++
			continue
		}
		if t.kind == tWord && explainOption(t.kw, strings.ToUpper(w.text(i))) {
			i++
			if w.isOp(i, '=') {
				i += 2
			}
			continue
		}
		break
	}
	if w.isKw(i, kwExplain) {
		w.add(CodeStatementNotAllowed, w.pos(i), "EXPLAIN of an EXPLAIN is not allowed; explain the query itself")
		return
	}
	w.head(i, false, "")
}

// with reads a WITH clause at i, marks CTE names with column lists as
// non-calls, checks every CTE body head and returns the index of the main
// statement, or -1 after adding a violation.
func (w *walker) with(i int) int {
	w.toks[i].flags |= flagParsed
	j := i + 1
	if w.isKw(j, kwRecursive) {
		j++
	}
	for {
		if !w.isName(j) || w.isKw(j, kwAs) {
			w.add(CodeSyntax, w.pos(j), "expected a CTE name after WITH; write WITH name AS (SELECT ...)")
			return -1
		}
		name := w.text(j)
		if w.isOp(j+1, '(') {
			w.toks[j].flags |= flagNotCall
			j = w.skipGroup(j + 1)
		} else {
			j++
		}
		if !w.isKw(j, kwAs) {
			w.add(CodeSyntax, w.pos(j), "expected AS after the CTE name %s; write WITH %s AS (SELECT ...)", name, name)
			return -1
		}
		j++
		if w.isKw(j, kwNot) {
			j++
		}
		if w.isKw(j, kwMaterialized) {
			j++
		}
		if !w.isOp(j, '(') {
			w.add(CodeSyntax, w.pos(j), "expected ( after %s AS; a CTE body is a parenthesised SELECT", name)
			return -1
		}
		w.head(j+1, false, name)
		j = w.skipGroup(j)
		if w.isKw(j, kwSearch) || w.isKw(j, kwCycle) {
			for j < len(w.toks) && !w.isOp(j, ',') && !w.isOp(j, '(') && !w.isKw(j, kwSelect) &&
				!w.isKw(j, kwValues) && !w.isKw(j, kwTable) {
				j++
			}
		}
		if w.isOp(j, ',') {
			j++
			continue
		}
		return j
	}
}

// scan applies the rules that hold anywhere in the statement.
func (w *walker) scan() {
	depth := 0
	for i := 0; i < len(w.toks); i++ {
		t := &w.toks[i]
		if t.kind == tOp {
			switch t.op {
			case '(':
				depth++
				if w.isKw(i+1, kwWith) && w.toks[i+1].flags&flagParsed == 0 {
					// A WITH clause inside a subquery.
					if j := w.with(i + 1); j >= 0 {
						w.head(j, false, "")
					}
				}
			case ')':
				depth--
			}
			continue
		}
		if t.kind == tWord {
			if w.word(i, depth) {
				continue
			}
		}
		if (t.kind == tWord || t.kind == tQuoted) && w.isOp(i+1, '(') {
			w.call(i)
		}
		if t.kind == tWord && t.kw == kwNone && strings.EqualFold(w.text(i), "UESCAPE") {
			w.add(CodeBackslash, t.start, "UESCAPE changes the escape character of a Unicode literal or identifier, which can spell any name; write the text plainly")
		}
		if w.d == quarry.DialectDuckDB && (w.isKw(i-1, kwFrom) || w.isKw(i-1, kwJoin)) {
			if t.kind == tString || (t.kind == tQuoted && strings.ContainsAny(w.text(i), "./:")) {
				w.add(CodeFileAccess, t.start, "DuckDB reads a file named in a table position; name a table or view instead")
			}
		}
	}
}

// word applies the keyword rules to the word at i. It returns true when
// the word is fully handled (no call check needed).
func (w *walker) word(i, depth int) bool {
	t := w.toks[i]
	qualified := w.isOp(i-1, '.')
	switch t.kw {
	case kwNone:
		return false
	case kwLimit, kwFetch:
		if depth == 0 {
			w.hasLimit = true
		}
		return true
	case kwFor:
		n := i + 1
		if w.isKw(n, kwUpdate) || w.isKw(n, kwShare) || w.isKw(n, kwNo) || w.isKw(n, kwKey) {
			w.add(CodeLocking, t.start, "FOR %s takes row locks and needs write privileges; remove the locking clause", strings.ToUpper(w.text(n)))
			w.toks[n].kw = kwOther
		}
		return true
	case kwLock:
		if w.isKw(i+1, kwIn) {
			w.add(CodeLocking, t.start, "LOCK IN SHARE MODE takes row locks; remove the locking clause")
		}
		return false
	case kwInto, kwOutfile, kwDumpfile:
		if qualified {
			return false
		}
		w.add(CodeInto, t.start, "%s writes the result somewhere (a table, a file or a variable); remove the INTO clause and let quarry store the result", strings.ToUpper(w.text(i)))
		return true
	case kwAnalyze:
		if qualified {
			return false
		}
		if w.kind == "explain" {
			w.add(CodeExplainAnalyze, t.start, "EXPLAIN ANALYZE runs the statement it explains; use plain EXPLAIN")
		} else {
			w.add(CodeWriteKeyword, t.start, "ANALYZE writes statistics or runs a statement; remove it")
		}
		return true
	case kwInsert, kwTruncate, kwReplace:
		if w.isOp(i+1, '(') && !qualified {
			return false // the string and number functions of the same names
		}
		if t.kw == kwReplace {
			return false
		}
		fallthrough
	case kwUpdate, kwDeny:
		if qualified || w.isKw(i-1, kwAs) {
			return false // a column after a qualifier, or an alias after AS
		}
		w.add(CodeWriteKeyword, t.start, "%s changes data or state and may not appear in a query; quote it (\"%s\") if it is a column name", strings.ToUpper(w.text(i)), w.text(i))
		return true
	}
	return t.kw >= kwOther || t.kw == kwSelect || t.kw == kwValues || t.kw == kwTable ||
		t.kw == kwWith || t.kw == kwFrom || t.kw == kwJoin || t.kw == kwAs || t.kw == kwNot ||
		t.kw == kwIn || t.kw == kwExplain || t.kw == kwRecursive || t.kw == kwMaterialized ||
		t.kw == kwShare || t.kw == kwNo || t.kw == kwKey || t.kw == kwTablesample
}
