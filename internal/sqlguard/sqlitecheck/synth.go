package sqlitecheck

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// synth builds, in the checker's in-memory database, the tables and
// columns one statement needs, as SQLite reports them missing.
type synth struct {
	c      *Checker
	sql    string
	toks   []sqlguard.Token
	lexed  bool
	tables []*synthTable // created, in order
}

type synthTable struct {
	name string
	cols map[string]bool // lower-case column names
}

const placeholderColumn = "quarry_synthesised"

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func (s *synth) exec(sql string) error {
	s.c.ddl = true
	defer func() { s.c.ddl = false }()
	return s.c.conn.Exec(sql)
}

func (s *synth) table(name string) *synthTable {
	for _, t := range s.tables {
		if strings.EqualFold(t.name, name) {
			return t
		}
	}
	return nil
}

func (s *synth) tokens() []sqlguard.Token {
	if !s.lexed {
		s.toks, _ = sqlguard.Tokenize(s.sql, quarry.DialectSQLite)
		s.lexed = true
	}
	return s.toks
}

func isName(t sqlguard.Token) bool {
	return t.Kind == sqlguard.TokenWord || t.Kind == sqlguard.TokenQuoted
}

// candidates returns the created tables in the order the statement first
// names them.
func (s *synth) candidates() []*synthTable {
	var out []*synthTable
	for _, tok := range s.tokens() {
		if !isName(tok) {
			continue
		}
		t := s.table(tok.Text)
		if t == nil {
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || o == t
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

// aliasTarget returns the created table that alias stands for in
// "table [AS] alias", or nil.
func (s *synth) aliasTarget(alias string) *synthTable {
	if t := s.table(alias); t != nil {
		return t
	}
	toks := s.tokens()
	for i, tok := range toks {
		if !isName(tok) || !strings.EqualFold(tok.Text, alias) || i == 0 {
			continue
		}
		j := i - 1
		if toks[j].Kind == sqlguard.TokenWord && strings.EqualFold(toks[j].Text, "AS") && j > 0 {
			j--
		}
		if isName(toks[j]) {
			if t := s.table(toks[j].Text); t != nil {
				return t
			}
		}
	}
	return nil
}

func (s *synth) addColumn(t *synthTable, col string) bool {
	if err := s.exec("ALTER TABLE " + quoteIdent(t.name) + " ADD COLUMN " + quoteIdent(col)); err != nil {
		return false
	}
	t.cols[strings.ToLower(col)] = true
	return true
}

// addToFirstLacking adds col to the first candidate table without it.
func (s *synth) addToFirstLacking(col string, first *synthTable) bool {
	if first != nil && !first.cols[strings.ToLower(col)] {
		return s.addColumn(first, col)
	}
	for _, t := range s.candidates() {
		if !t.cols[strings.ToLower(col)] {
			return s.addColumn(t, col)
		}
	}
	return false
}

// repair reacts to one prepare error. handled is true when it changed the
// schema; viols is set when the error decides the verdict.
func (s *synth) repair(msg string) (handled bool, viols []sqlguard.Violation) {
	switch {
	case strings.HasPrefix(msg, "no such table: "):
		name := strings.TrimPrefix(msg, "no such table: ")
		if i := strings.IndexByte(name, '.'); i >= 0 {
			if !strings.EqualFold(name[:i], "main") {
				return false, []sqlguard.Violation{{Code: CodeEngineSchema, Message: "the statement names " + name + " in another schema or database; query only the main database"}}
			}
			name = name[i+1:]
		}
		if s.table(name) != nil {
			return false, nil
		}
		if err := s.exec("CREATE TABLE " + quoteIdent(name) + "(" + quoteIdent(placeholderColumn) + ")"); err != nil {
			return false, nil
		}
		s.tables = append(s.tables, &synthTable{name: name, cols: map[string]bool{placeholderColumn: true}})
		return true, nil
	case strings.HasPrefix(msg, "no such column: "):
		ref := strings.TrimPrefix(msg, "no such column: ")
		ref, _, _ = strings.Cut(ref, " - ") // `"x" - should this be a string literal ...`
		parts := splitRef(ref)
		col := parts[len(parts)-1]
		var target *synthTable
		if len(parts) >= 2 {
			target = s.aliasTarget(parts[len(parts)-2])
		}
		if len(s.tables) == 0 {
			return false, []sqlguard.Violation{{Code: CodeEngineError, Message: "SQLite cannot prepare the statement (" + msg + ", and the statement reads no table); fix the SQL"}}
		}
		if s.addToFirstLacking(col, target) {
			return true, nil
		}
		return false, []sqlguard.Violation{{Code: CodeEngineUnchecked, Message: "the engine check could not place the column " + ref + " in a synthesised table; treat the statement as rejected, or check it against the real database"}}
	case strings.HasPrefix(msg, "cannot join using column "):
		rest := strings.TrimPrefix(msg, "cannot join using column ")
		col, _, _ := strings.Cut(rest, " - ")
		added := false
		for _, t := range s.candidates() {
			if !t.cols[strings.ToLower(col)] && s.addColumn(t, col) {
				added = true
			}
		}
		return added, nil
	}
	return false, nil
}

// dropAll removes every synthesised table.
func (s *synth) dropAll() {
	for _, t := range s.tables {
		_ = s.exec("DROP TABLE IF EXISTS " + quoteIdent(t.name))
	}
	s.tables = nil
}

// splitRef splits a possibly quoted, dot-separated reference such as
// main."Order Details".qty into its unquoted parts.
func splitRef(ref string) []string {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch {
		case c == '"':
			for i++; i < len(ref); i++ {
				if ref[i] == '"' {
					if i+1 < len(ref) && ref[i+1] == '"' {
						cur.WriteByte('"')
						i++
						continue
					}
					break
				}
				cur.WriteByte(ref[i])
			}
		case c == '.':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, cur.String())
}
