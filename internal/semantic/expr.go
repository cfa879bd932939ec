package semantic

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/quarry"
)

// colRef is an "entity.column" reference inside a SQL expression.
type colRef struct {
	Entity, Column string
}

func (r colRef) String() string { return Ref(r.Entity, r.Column) }

// isIdentStart reports whether c starts a bare name in an expression: a
// letter, _, or any byte of a non-ASCII character (names such as Café or
// 客户 are read whole; Ref quotes them anyway).
func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool {
	return isIdentStart(c) || '0' <= c && c <= '9'
}

// scanIdent returns the end of the identifier starting at i.
func scanIdent(s string, i int) int {
	for i < len(s) && isIdentPart(s[i]) {
		i++
	}
	return i
}

// UnquoteName reads a double-quoted name at the start of s, with
// embedded quotes doubled, and returns it and what follows; ok is false
// when s does not start with one.
func UnquoteName(s string) (name, rest string, ok bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", s, false
	}
	name, end, ok := scanName(s, 0)
	if !ok {
		return "", s, false
	}
	return name, s[end:], true
}

// scanName reads one name of a reference starting at i: a bare
// identifier, or a double-quoted one with embedded quotes doubled. It
// returns the name (unquoted) and its end, or ok false when none starts
// at i.
func scanName(s string, i int) (name string, end int, ok bool) {
	if i >= len(s) {
		return "", i, false
	}
	if s[i] == '"' {
		var b strings.Builder
		for j := i + 1; j < len(s); j++ {
			if s[j] != '"' {
				b.WriteByte(s[j])
				continue
			}
			if j+1 < len(s) && s[j+1] == '"' {
				b.WriteByte('"')
				j++
				continue
			}
			return b.String(), j + 1, b.Len() > 0
		}
		return "", i, false
	}
	if !isIdentPart(s[i]) {
		return "", i, false
	}
	j := scanIdent(s, i)
	return s[i:j], j, true
}

// plainName reports whether s can be written bare in an expression: an
// ASCII letter or _ then letters, digits and _.
func plainName(s string) bool {
	if s == "" || !(s[0] == '_' || 'a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// QuoteName writes one name for an expression of the knowledge folder
// (a metric's expr or filters, a dimension's expr, a time column): bare
// when it is a plain ASCII identifier, otherwise double-quoted with
// embedded double quotes doubled, whatever the engine; the compiler
// writes it again in the engine's own quoting.
func QuoteName(s string) string {
	if plainName(s) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// Ref writes the reference to column of entity in an expression of the
// knowledge folder: entity.column, each part through QuoteName
// ("Order Details"."Unit Price", "sales.orders".id). Every piece of code
// that builds an expression from names builds it with Ref, so that no
// name is ever read back split at a dot, a space or a quote of its own.
func Ref(entity, column string) string { return QuoteName(entity) + "." + QuoteName(column) }

// refNames finds the entities of references in expressions: by name as
// Model.Entity does, and, for names that are not plain identifiers
// written without quotes ("Order Details.Unit Price", as a field
// reference is spelt), by the longest entity name the text starts with.
type refNames struct {
	get   func(string) *Entity
	multi map[string][]string // lower-cased first bare word → names that go on past it, longest first
}

// refNamesOf indexes m's entities for rewriteRefs through get (an
// EntityIndex's Get, or Model.Entity).
func refNamesOf(m *Model, get func(string) *Entity) refNames {
	r := refNames{get: get}
	for i := range m.Entities {
		n := m.Entities[i].Name
		end := scanIdent(n, 0)
		if end == 0 || end == len(n) {
			continue
		}
		if r.multi == nil {
			r.multi = map[string][]string{}
		}
		k := strings.ToLower(n[:end])
		r.multi[k] = append(r.multi[k], n)
	}
	for _, l := range r.multi {
		sort.Slice(l, func(i, j int) bool { return len(l[i]) > len(l[j]) })
	}
	return r
}

// digitEntityAt reports whether the word starting with a digit at i is
// an entity's name followed by a dot ("2019_sales.amount"), not a number.
func (r refNames) digitEntityAt(s string, i int) bool {
	j := scanIdent(s, i)
	return r.get != nil && j < len(s) && s[j] == '.' && r.get(s[i:j]) != nil
}

// entityAt reads the entity name of a reference starting at i, followed
// by a dot: quoted, bare, or an entity's whole name as written. It
// returns the entity and the position of the dot.
func (r refNames) entityAt(s string, i int) (*Entity, int, bool) {
	name, j, ok := scanName(s, i)
	if !ok {
		return nil, i, false
	}
	if s[i] != '"' {
		for _, n := range r.multi[strings.ToLower(name)] {
			if k := i + len(n); k < len(s) && s[k] == '.' && strings.EqualFold(s[i:k], n) {
				if e := r.get(n); e != nil {
					return e, k, true
				}
			}
		}
	}
	if j < len(s) && s[j] == '.' {
		if e := r.get(name); e != nil {
			return e, j, true
		}
	}
	return nil, j, false
}

// columnAt reads the column name of a reference to e starting at i:
// quoted, or the longest of e's column names the text starts with (a
// name with spaces or dots, written bare), or a bare identifier.
func columnAt(e *Entity, s string, i int) (string, int, bool) {
	name, j, ok := scanName(s, i)
	if !ok {
		return "", i, false
	}
	if s[i] == '"' {
		return name, j, true
	}
	best := ""
	for _, c := range e.Columns {
		k := i + len(c.Name)
		if len(c.Name) > len(best) && k <= len(s) && strings.EqualFold(s[i:k], c.Name) && (k == len(s) || !isIdentPart(s[k])) {
			best = s[i:k]
		}
	}
	if len(best) > j-i {
		return best, i + len(best), true
	}
	return name, j, true
}

// rewriteRefs walks a SQL expression written over entity.column references
// and calls fn for each one, replacing it with fn's result. String literals
// ('…' with doubled quotes) and numbers are copied untouched; a
// name.name pair, each name bare or double-quoted (Ref), is a reference
// when its first part names an entity. fn may be nil to only collect
// references. With anyEntity, every name.name pair is a reference (to
// report the unknown ones).
func rewriteRefs(expr string, names refNames, anyEntity bool, fn func(colRef) string) (string, []colRef) {
	var b strings.Builder
	var refs []colRef
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '\'':
			j := i + 1
			for j < len(expr) {
				if expr[j] == '\'' {
					if j+1 < len(expr) && expr[j+1] == '\'' {
						j += 2
						continue
					}
					j++
					break
				}
				j++
			}
			b.WriteString(expr[i:j])
			i = j
		case '0' <= c && c <= '9' && !names.digitEntityAt(expr, i):
			j := i
			for j < len(expr) && (isIdentPart(expr[j]) || expr[j] == '.') {
				j++
			}
			b.WriteString(expr[i:j])
			i = j
		case isIdentPart(c) || c == '"':
			e, dot, ok := names.entityAt(expr, i)
			var r colRef
			k := dot
			switch {
			case ok:
				var col string
				col, k, ok = columnAt(e, expr, dot+1)
				r = colRef{Entity: expr[i:dot], Column: col}
				if expr[i] == '"' {
					r.Entity, _, _ = scanName(expr, i)
				}
			case anyEntity && dot < len(expr) && expr[dot] == '.':
				var ent, col string
				ent, _, _ = scanName(expr, i)
				col, k, ok = scanName(expr, dot+1)
				r = colRef{Entity: ent, Column: col}
			}
			if !ok {
				_, j, ok := scanName(expr, i)
				if !ok {
					j = i + 1
				}
				b.WriteString(expr[i:j])
				i = j
				continue
			}
			refs = append(refs, r)
			if fn != nil {
				b.WriteString(fn(r))
			} else {
				b.WriteString(expr[i:k])
			}
			i = k
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), refs
}

// ColumnRefs are the entity.column references a condition written in SQL
// holds ("subscriptions.status = 'active'"), outside its quoted text;
// read alike by the planner and the analyst.
func ColumnRefs(sql string) []string {
	return columnRefRE().FindAllString(quotedRE().ReplaceAllString(sql, "''"), -1)
}

var (
	columnRefRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*\b`) })
	quotedRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`'(?:[^']|'')*'`) })
)

// DerivedRefs returns the metric names written {name} in a derived
// expression, in order.
func DerivedRefs(expr string) []string {
	var names []string
	for i := 0; i < len(expr); i++ {
		if expr[i] != '{' {
			continue
		}
		j := strings.IndexByte(expr[i:], '}')
		if j < 0 {
			break
		}
		names = append(names, strings.TrimSpace(expr[i+1:i+j]))
		i += j
	}
	return names
}

// renderDerived renders a derived expression: each {name} becomes ref(name),
// and every divisor (the operand right after '/': a {name}, a number or a
// parenthesised group) is wrapped by guard so that a zero denominator
// gives NULL instead of an error.
func renderDerived(expr string, ref func(string) string, guard func(string) string) string {
	var b strings.Builder
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '{':
			j := strings.IndexByte(expr[i:], '}')
			if j < 0 {
				b.WriteString(expr[i:])
				return b.String()
			}
			b.WriteString(ref(strings.TrimSpace(expr[i+1 : i+j])))
			i += j + 1
		case c == '/':
			b.WriteByte('/')
			i++
			for i < len(expr) && expr[i] == ' ' {
				b.WriteByte(' ')
				i++
			}
			end := operandEnd(expr, i)
			if end > i {
				b.WriteString(guard(renderDerived(expr[i:end], ref, guard)))
				i = end
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// operandEnd returns the end of the operand starting at i: a {name}, a
// parenthesised group, or a run of identifier characters and dots.
func operandEnd(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '{':
		if j := strings.IndexByte(s[i:], '}'); j >= 0 {
			return i + j + 1
		}
		return len(s)
	case '(':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	}
	j := i
	for j < len(s) && (isIdentPart(s[j]) || s[j] == '.') {
		j++
	}
	return j
}

// expandFunctions renders the functions quarry's expressions may use on
// every engine in d's SQL: days_between(from, to), the days from one
// date or timestamp to another with fractions of a day. where names the
// expression in an error. String literals and quoted names are copied
// untouched; a call inside an argument is expanded too.
func expandFunctions(expr string, d dialect, where string) (string, error) {
	if !strings.Contains(strings.ToLower(expr), "days_between") {
		return expr, nil
	}
	var b strings.Builder
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '\'' || c == '"':
			j := quotedEnd(expr, i)
			b.WriteString(expr[i:j])
			i = j
		case isIdentStart(c):
			j := scanIdent(expr, i)
			k := j
			for k < len(expr) && expr[k] == ' ' {
				k++
			}
			if !strings.EqualFold(expr[i:j], "days_between") || k >= len(expr) || expr[k] != '(' {
				b.WriteString(expr[i:j])
				i = j
				continue
			}
			args, end, ok := callArgs(expr, k)
			if !ok || len(args) != 2 {
				return "", quarry.Errorf(quarry.KindConfig, "%s: days_between takes two dates, days_between(start, end); fix it in the knowledge folder", where)
			}
			for n := range args {
				x, err := expandFunctions(args[n], d, where)
				if err != nil {
					return "", err
				}
				args[n] = strings.TrimSpace(x)
			}
			b.WriteString(d.d.DaysBetween(args[0], args[1]))
			i = end
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// quotedEnd is the index after the literal or quoted name that starts at
// i (its quote doubled inside), or len(s) when it is not closed.
func quotedEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if s[j] != q {
			continue
		}
		if j+1 < len(s) && s[j+1] == q {
			j++
			continue
		}
		return j + 1
	}
	return len(s)
}

// callArgs reads the arguments of a call whose "(" is at open: split at
// the commas outside parentheses and quotes. end is the index after ")".
func callArgs(s string, open int) (args []string, end int, ok bool) {
	depth, start := 0, open+1
	for i := open; i < len(s); {
		switch s[i] {
		case '\'', '"':
			i = quotedEnd(s, i)
			continue
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return append(args, s[start:i]), i + 1, true
			}
		case ',':
			if depth == 1 {
				args = append(args, s[start:i])
				start = i + 1
			}
		}
		i++
	}
	return nil, 0, false
}
