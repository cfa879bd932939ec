package sqlguard

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/quarry"
)

// The lexer reads the text the way that exposes the most SQL across the
// engines of the dialect, and rejects wherever engines could disagree about
// where a literal, identifier, comment or statement ends. It never decides
// that anything is safe; the walker does that on its tokens.

type tokKind uint8

const (
	tWord   tokKind = iota // unquoted identifier or keyword
	tQuoted                // "..." or `...`: an identifier (a string in MySQL's default mode)
	tString                // '...', dollar-quoted
	tNumber
	tOp // one punctuation byte
)

type token struct {
	kind  tokKind
	kw    kw // keyword id for words; kwNone otherwise
	op    byte
	flags uint8
	start int
	end   int
	match int // for parentheses: the index of the partner
}

const (
	flagNotCall uint8 = 1 << iota // a CTE name followed by its column list
	flagParsed                    // a WITH whose clause the walker has read
)

type lexer struct {
	src  string
	d    quarry.Dialect
	toks []token
	semi int // position of the terminating ';', or -1
}

func (lx *lexer) is(ds ...quarry.Dialect) bool {
	for _, d := range ds {
		if lx.d == d {
			return true
		}
	}
	return false
}

// precheck rejects invalid UTF-8, NUL bytes and bidirectional controls
// anywhere in the text. It returns the failing code and position.
func precheck(s string) (string, int) {
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0 {
			return CodeNUL, i
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return CodeEncoding, i
		}
		if isBidi(r) {
			return CodeBidi, i
		}
		i += n
	}
	return "", 0
}

func precheckViolation(code string, pos int, s string) Violation {
	switch code {
	case CodeNUL:
		return Violation{Code: code, Pos: pos, Message: "the text contains a NUL byte, which engines and drivers truncate differently; remove it"}
	case CodeEncoding:
		return Violation{Code: code, Pos: pos, Message: "the text is not valid UTF-8; save it as UTF-8"}
	default:
		r, _ := utf8.DecodeRuneInString(s[pos:])
		return Violation{Code: code, Pos: pos, Message: fmt.Sprintf("the text contains the invisible bidirectional control U+%04X, which can make SQL read differently than it runs; remove it", r)}
	}
}

func isBidi(r rune) bool {
	switch {
	case r == 0x061C, r == 0x200E, r == 0x200F:
		return true
	case r >= 0x202A && r <= 0x202E:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

func isIdentStart(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isIdentCont(c byte) bool {
	return isIdentStart(c) || ('0' <= c && c <= '9')
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func (lx *lexer) fail(code string, pos int, format string, args ...any) (Violation, bool) {
	return Violation{Code: code, Pos: pos, Message: fmt.Sprintf(format, args...)}, false
}

// run tokenises the whole text. ok is false with the first violation.
func (lx *lexer) run() (Violation, bool) {
	s := lx.src
	lx.semi = -1
	first := true // no token or comment-skipped token seen yet
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c >= utf8.RuneSelf:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return lx.fail(CodeNonASCII, i, "the character %q (U+%04X) is outside a string literal or quoted identifier; use plain ASCII there, or quote it", r, r)
		case c < 0x20 || c == 0x7f:
			return lx.fail(CodeControlChar, i, "the control character 0x%02X is outside a string literal; replace it with a space", c)
		}
		// Comments.
		if c == '-' && i+1 < len(s) && s[i+1] == '-' {
			if lx.is(quarry.DialectMySQL, quarry.DialectGeneric) && i+2 < len(s) {
				if n := s[i+2]; n != ' ' && n != '\t' && n != '\n' && n != '\r' {
					return lx.fail(CodeDashComment, i, "MySQL reads -- not followed by a space as two minus signs, other engines as a comment; put a space after -- or write the expression without it")
				}
			}
			end, v, ok := lx.lineComment(i + 2)
			if !ok {
				return v, false
			}
			i = end
			continue
		}
		if c == '/' && i+1 < len(s) && s[i+1] == '*' {
			end, v, ok := lx.blockComment(i)
			if !ok {
				return v, false
			}
			i = end
			continue
		}
		if c == '#' && !lx.is(quarry.DialectPostgres) {
			return lx.fail(CodeHashComment, i, "# starts a comment in MySQL and means something else elsewhere; use -- comments, and write XOR as the dialect's operator")
		}
		if lx.semi >= 0 {
			return lx.fail(CodeMultipleStatements, i, "only one statement may run; remove everything after the ; at byte %d", lx.semi)
		}
		if first && (c == '\\' || c == '.') {
			return lx.fail(CodeMetaCommand, i, "a line starting with %q is a client meta-command, not SQL; send only a SQL query", c)
		}
		first = false
		switch {
		case c == ';':
			lx.semi = i
			i++
		case c == '\'':
			end, v, ok := lx.quoted(i, '\'', "string literal")
			if !ok {
				return v, false
			}
			lx.toks = append(lx.toks, token{kind: tString, start: i, end: end})
			i = end
		case c == '"':
			end, v, ok := lx.quoted(i, '"', "quoted identifier")
			if !ok {
				return v, false
			}
			lx.toks = append(lx.toks, token{kind: tQuoted, start: i, end: end})
			i = end
		case c == '`':
			if lx.is(quarry.DialectPostgres, quarry.DialectDuckDB) {
				return lx.fail(CodeBacktick, i, "backticks are not identifier quotes in %s; use double quotes", lx.d)
			}
			end, v, ok := lx.quoted(i, '`', "backtick identifier")
			if !ok {
				return v, false
			}
			lx.toks = append(lx.toks, token{kind: tQuoted, start: i, end: end})
			i = end
		case c == '[' && !lx.is(quarry.DialectPostgres, quarry.DialectDuckDB):
			return lx.fail(CodeBracketIdentifier, i, "[ ] identifiers hide quotes from other lexers; quote identifiers with double quotes instead")
		case c == '\\':
			return lx.fail(CodeBackslash, i, "a backslash outside a literal is not SQL (client commands use it); remove it")
		case c == '$':
			end, v, ok := lx.dollar(i)
			if !ok {
				return v, false
			}
			i = end
		case c == ':' && i+1 < len(s) && s[i+1] == '=' && lx.is(quarry.DialectMySQL, quarry.DialectGeneric):
			return lx.fail(CodeVariableAssignment, i, ":= assigns a session variable in MySQL; remove the assignment and select the expression instead")
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && isIdentCont(s[j]) {
				j++
			}
			if j < len(s) && s[j] == '$' {
				if !lx.is(quarry.DialectPostgres, quarry.DialectDuckDB) {
					return lx.fail(CodeDollar, j, "$ in an identifier is read as quoting or a parameter by other lexers; rename or double-quote the identifier")
				}
				for j < len(s) && (isIdentCont(s[j]) || s[j] == '$') {
					j++
				}
			}
			lx.toks = append(lx.toks, token{kind: tWord, kw: lookupKeyword(s[i:j]), start: i, end: j})
			i = j
		case isDigit(c):
			j := lx.number(i)
			lx.toks = append(lx.toks, token{kind: tNumber, start: i, end: j})
			i = j
		default:
			lx.toks = append(lx.toks, token{kind: tOp, op: c, start: i, end: i + 1})
			i++
		}
	}
	return Violation{}, true
}

// number returns the end of the number at i: digits (with _ separators),
// a fraction, an exponent, or 0x hex digits. Letters after it start a new
// token, which exposes keywords glued to numbers ("1FOR").
func (lx *lexer) number(i int) int {
	s := lx.src
	isHex := func(c byte) bool { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') }
	if s[i] == '0' && i+2 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') && isHex(s[i+2]) {
		j := i + 2
		for j < len(s) && isHex(s[j]) {
			j++
		}
		return j
	}
	j := i
	digits := func() {
		for j < len(s) && (isDigit(s[j]) || (s[j] == '_' && j+1 < len(s) && isDigit(s[j+1]))) {
			j++
		}
	}
	digits()
	if j < len(s) && s[j] == '.' && (j+1 >= len(s) || s[j+1] != '.') {
		j++
		digits()
	}
	if j+1 < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if s[k] == '+' || s[k] == '-' {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			j = k
			digits()
		}
	}
	return j
}

// lineComment scans a -- comment body from i. The comment ends at LF or
// CR, whichever comes first (PostgreSQL ends it at CR, so ending there
// exposes the most SQL).
func (lx *lexer) lineComment(i int) (int, Violation, bool) {
	s := lx.src
	for i < len(s) {
		c := s[i]
		if c == '\n' || c == '\r' {
			return i, Violation{}, true
		}
		if c >= utf8.RuneSelf {
			r, _ := utf8.DecodeRuneInString(s[i:])
			v, _ := lx.fail(CodeNonASCII, i, "the character %q (U+%04X) is in a comment; keep comments plain ASCII", r, r)
			return 0, v, false
		}
		i++
	}
	return i, Violation{}, true
}

// blockComment scans a /* */ comment starting at i (the slash).
func (lx *lexer) blockComment(i int) (int, Violation, bool) {
	s := lx.src
	start := i
	if lx.is(quarry.DialectMySQL, quarry.DialectGeneric) && i+2 < len(s) {
		switch n := s[i+2]; {
		case n == '!', n == '+', (n == 'M' || n == 'm') && i+3 < len(s) && s[i+3] == '!':
			v, _ := lx.fail(CodeExecutableComment, i, "MySQL and MariaDB execute or interpret /*!, /*M! and /*+ comments; remove the comment or write its SQL out plainly")
			return 0, v, false
		}
	}
	for i += 2; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '*' && i+1 < len(s) && s[i+1] == '/':
			return i + 2, Violation{}, true
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			v, _ := lx.fail(CodeNestedComment, i, "a /* inside a block comment nests in PostgreSQL but not elsewhere; remove the inner /*")
			return 0, v, false
		case c >= utf8.RuneSelf:
			r, _ := utf8.DecodeRuneInString(s[i:])
			v, _ := lx.fail(CodeNonASCII, i, "the character %q (U+%04X) is in a comment; keep comments plain ASCII", r, r)
			return 0, v, false
		}
	}
	v, _ := lx.fail(CodeUnterminated, start, "the block comment opened here is never closed; add */")
	return 0, v, false
}

// quoted scans a literal or identifier delimited by q, where a doubled q
// stands for itself. Backslashes are rejected: engines and modes disagree
// about whether they escape the next character.
func (lx *lexer) quoted(i int, q byte, what string) (int, Violation, bool) {
	s := lx.src
	start := i
	for i++; i < len(s); i++ {
		c := s[i]
		if c == '\\' {
			v, _ := lx.fail(CodeBackslash, i, "a backslash inside a %s escapes the next character in some engines and modes and not in others; remove it (for LIKE, use ESCAPE with another character)", what)
			return 0, v, false
		}
		if c == q {
			if i+1 < len(s) && s[i+1] == q {
				i++
				continue
			}
			return i + 1, Violation{}, true
		}
	}
	v, _ := lx.fail(CodeUnterminated, start, "the %s opened here is never closed; add the closing %c", what, q)
	return 0, v, false
}

// dollar handles a $ outside any literal. Only PostgreSQL and DuckDB read
// $tag$ quoting and $1 parameters; elsewhere $ is rejected.
func (lx *lexer) dollar(i int) (int, Violation, bool) {
	s := lx.src
	if !lx.is(quarry.DialectPostgres, quarry.DialectDuckDB) {
		v, _ := lx.fail(CodeDollar, i, "$ starts a parameter in SQLite and quoting in PostgreSQL; remove it, or use single-quoted strings")
		return 0, v, false
	}
	j := i + 1
	if j < len(s) && isDigit(s[j]) {
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		lx.toks = append(lx.toks, token{kind: tOp, op: '?', start: i, end: j})
		return j, Violation{}, true
	}
	// $tag$ where tag is empty or an identifier without $.
	if j < len(s) && isIdentStart(s[j]) {
		for j < len(s) && isIdentCont(s[j]) {
			j++
		}
	}
	if j >= len(s) || s[j] != '$' {
		v, _ := lx.fail(CodeDollar, i, "a stray $ is neither a parameter nor a dollar quote; remove it")
		return 0, v, false
	}
	tag := s[i : j+1]
	body := j + 1
	for k := body; k+len(tag) <= len(s); k++ {
		if s[k] == '$' && s[k:k+len(tag)] == tag {
			end := k + len(tag)
			lx.toks = append(lx.toks, token{kind: tString, start: i, end: end})
			return end, Violation{}, true
		}
	}
	v, _ := lx.fail(CodeUnterminated, i, "the dollar quote %s opened here is never closed; add the closing %s", tag, tag)
	return 0, v, false
}

// TokenKind classifies a Token.
type TokenKind uint8

// The token kinds of Tokenize.
const (
	TokenWord   TokenKind = iota // an unquoted identifier or keyword
	TokenQuoted                  // a quoted identifier; Text is the name without quotes
	TokenString                  // a string literal, as written
	TokenNumber                  // a number, as written
	TokenOp                      // one punctuation character (or a $n parameter)
)

// Token is one token of a statement as the guard's lexer reads it.
type Token struct {
	Kind TokenKind
	Text string
	Pos  int // byte offset
}

// Tokenize returns the tokens of sql (comments and whitespace dropped, a
// terminating ; included as an op) as the guard reads them for dialect d.
// ok is false when the lexer rejects the text; the tokens read so far are
// returned.
func Tokenize(sql string, d quarry.Dialect) (toks []Token, ok bool) {
	lx := lexer{src: sql, d: normDialect(d)}
	if bad, _ := precheck(sql); bad != "" {
		return nil, false
	}
	_, ok = lx.run()
	for _, t := range lx.toks {
		text := sql[t.start:t.end]
		k := TokenKind(t.kind)
		if t.kind == tQuoted {
			q := text[0]
			text = strings.ReplaceAll(text[1:len(text)-1], string([]byte{q, q}), string(q))
		}
		toks = append(toks, Token{Kind: k, Text: text, Pos: t.start})
	}
	if ok && lx.semi >= 0 {
		toks = append(toks, Token{Kind: TokenOp, Text: ";", Pos: lx.semi})
	}
	return toks, ok
}
