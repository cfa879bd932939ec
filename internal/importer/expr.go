package importer

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// addEntity registers an entity; later columns are added to it.
func (b *builder) addEntity(e semantic.Entity) {
	b.byName[strings.ToLower(e.Name)] = len(b.out.Entities)
	b.out.Entities = append(b.out.Entities, e)
}

func (b *builder) ent(name string) *semantic.Entity {
	i, ok := b.byName[strings.ToLower(name)]
	if !ok {
		return nil
	}
	return &b.out.Entities[i]
}

// addColumn adds c to the entity, or fills the empty fields of the column
// of that name.
func (b *builder) addColumn(entity string, c semantic.Column, dbType string) {
	e := b.ent(entity)
	if e == nil {
		return
	}
	if dbType != "" {
		k := e.Name + "." + c.Name
		if _, ok := b.out.DBTypes[k]; !ok {
			b.out.DBTypes[k] = dbType
		}
	}
	for i := range e.Columns {
		o := &e.Columns[i]
		if !strings.EqualFold(o.Name, c.Name) {
			continue
		}
		if o.Type == "" {
			o.Type = c.Type
		}
		if o.Description == "" {
			o.Description = c.Description
		}
		o.Synonyms = dedupe(append(o.Synonyms, c.Synonyms...), o.Name)
		if len(o.Values) == 0 {
			o.Values = c.Values
		}
		return
	}
	c.Synonyms = dedupe(c.Synonyms, c.Name)
	e.Columns = append(e.Columns, c)
}

// rules say how rewrite treats the names in an expression.
type rules struct {
	// column returns what a bare identifier (a column of the expression's
	// own table, or a name the format defines) becomes.
	column func(name string) (string, error)
	// brace returns what {inner} becomes, col is the identifier after
	// "{inner}." when there is one. nil: braces are an error.
	brace func(inner, col string) (string, error)
}

// keywordList holds the SQL words an expression may use that are not
// columns, each between spaces.
const keywordList = ` and or not null is in like ilike between case when then else end true false
 distinct as cast from interval exists all any some current_date current_timestamp current_time
 localtime localtimestamp asc desc nulls over partition by order filter where within group rows
 range preceding following unbounded current row escape collate date timestamp time `

func keyword(w string) bool {
	return strings.Contains(strings.ReplaceAll(keywordList, "\n", " "), " "+strings.ToLower(w)+" ")
}

// rewrite turns an expression of another tool into quarry's form:
// columns qualified with their entity, references resolved. It refuses
// what it cannot read for certain: Jinja, subqueries, quoted identifiers,
// qualified names it was not told about.
func rewrite(expr string, r rules) (string, error) {
	var out strings.Builder
	prevWord := ""
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
					break
				}
				j++
			}
			if j >= len(expr) {
				return "", fmt.Errorf("unterminated string in %q", expr)
			}
			out.WriteString(expr[i : j+1])
			i = j + 1
			prevWord = ""
		case c == '{' && strings.HasPrefix(expr[i:], "{{") || c == '{' && strings.HasPrefix(expr[i:], "{%"):
			return "", fmt.Errorf("uses Jinja (%s)", clip(expr[i:], 40))
		case c == '$' && strings.HasPrefix(expr[i:], "${") || c == '{':
			if r.brace == nil {
				return "", fmt.Errorf("uses a template reference (%s)", clip(expr[i:], 40))
			}
			if c == '$' {
				i++
			}
			end := strings.IndexByte(expr[i:], '}')
			if end < 0 {
				return "", fmt.Errorf("unclosed { in %q", expr)
			}
			inner := strings.TrimSpace(expr[i+1 : i+end])
			i += end + 1
			col := ""
			if i+1 < len(expr) && expr[i] == '.' && isIdentStart(expr[i+1]) {
				j := i + 1
				for j < len(expr) && isIdentByte(expr[j]) {
					j++
				}
				col = expr[i+1 : j]
				i = j
			}
			s, err := r.brace(inner, col)
			if err != nil {
				return "", err
			}
			out.WriteString(s)
			prevWord = ""
		case c == '"' || c == '`' || c == '[':
			return "", fmt.Errorf("uses a quoted identifier (%s)", clip(expr[i:], 40))
		case c >= '0' && c <= '9':
			j := i
			for j < len(expr) && (isIdentByte(expr[j]) || expr[j] == '.') {
				j++
			}
			out.WriteString(expr[i:j])
			i = j
			prevWord = ""
		case isIdentStart(c):
			j := i
			for j < len(expr) && isIdentByte(expr[j]) {
				j++
			}
			word := expr[i:j]
			lw := strings.ToLower(word)
			k := j
			for k < len(expr) && (expr[k] == ' ' || expr[k] == '\t' || expr[k] == '\n' || expr[k] == '\r') {
				k++
			}
			next := byte(0)
			if k < len(expr) {
				next = expr[k]
			}
			before := strings.TrimRight(expr[:i], " \t\r\n")
			switch {
			case lw == "select" || lw == "with":
				return "", fmt.Errorf("holds a subquery")
			case next == '(':
				out.WriteString(word) // a function
			case next == '.':
				return "", fmt.Errorf("refers to %s.… by a table name; only the model's own columns can be read", word)
			case strings.HasSuffix(before, "::") || prevWord == "as":
				out.WriteString(word) // a type
			case keyword(lw):
				out.WriteString(word)
			case strings.HasPrefix(strings.ToLower(strings.TrimLeft(expr[k:], " ")), "from ") && datePart(lw):
				out.WriteString(word) // EXTRACT(YEAR FROM x)
			default:
				s, err := r.column(word)
				if err != nil {
					return "", err
				}
				out.WriteString(s)
			}
			prevWord = lw
			i = j
		default:
			if c == ';' {
				return "", fmt.Errorf("holds a semicolon")
			}
			out.WriteByte(c)
			i++
			if c != ' ' && c != '\t' && c != '\n' {
				prevWord = ""
			}
		}
	}
	return strings.TrimSpace(out.String()), nil
}

func datePart(w string) bool {
	switch w {
	case "year", "quarter", "month", "week", "day", "hour", "minute", "second", "epoch", "dow", "doy":
		return true
	}
	return false
}

func isIdentStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isIdentByte(c byte) bool { return isIdentStart(c) || '0' <= c && c <= '9' || c == '$' }

// plainColumn reports whether expr is a single column name.
func plainColumn(expr string) bool {
	if expr == "" || !isIdentStart(expr[0]) {
		return false
	}
	for i := 0; i < len(expr); i++ {
		if !isIdentByte(expr[i]) {
			return false
		}
	}
	return !keyword(expr)
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// paren wraps an expression that is not a plain entity.column.
func paren(s string) string {
	if plainQualified(s) {
		return s
	}
	return "(" + s + ")"
}

func plainQualified(s string) bool {
	a, b, ok := strings.Cut(s, ".")
	return ok && plainColumn(a) && plainColumn(b)
}

// typeOf maps a declared type (Cortex's data_type, Cube's type) to a quarry
// type; "" when it says nothing certain.
func typeOf(decl string) quarry.Type {
	t := strings.ToLower(strings.TrimSpace(decl))
	args := ""
	if i := strings.IndexByte(t, '('); i >= 0 {
		t, args = strings.TrimSpace(t[:i]), t[i:]
	}
	switch {
	case t == "":
		return ""
	case t == "bool" || t == "boolean":
		return quarry.TypeBool
	case t == "number" || t == "numeric" || t == "decimal":
		if strings.HasSuffix(strings.ReplaceAll(args, " ", ""), ",0)") {
			return quarry.TypeInt
		}
		return quarry.TypeDecimal
	case strings.Contains(t, "int"):
		return quarry.TypeInt
	case t == "float" || t == "double" || t == "real" || strings.HasPrefix(t, "float") || strings.HasPrefix(t, "double"):
		return quarry.TypeFloat
	case t == "date":
		return quarry.TypeDate
	case strings.HasPrefix(t, "timestamp") || t == "datetime":
		return quarry.TypeTimestamp
	case t == "time":
		return quarry.TypeTime
	case strings.Contains(t, "char") || t == "text" || t == "string":
		return quarry.TypeText
	}
	return ""
}

// grainsFrom lists the grains from g up to a year.
func grainsFrom(g string) []semantic.Grain {
	all := []semantic.Grain{semantic.GrainDay, semantic.GrainWeek, semantic.GrainMonth, semantic.GrainQuarter, semantic.GrainYear}
	for i, x := range all {
		if strings.EqualFold(string(x), g) {
			return all[i:]
		}
	}
	return all
}
