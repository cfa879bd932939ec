package sqlguard

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Case is one row of a guard corpus: a statement, the dialect it is meant
// for ("any" for every dialect) and whether the guard must allow it.
type Case struct {
	Line    int            // 1-based line in the file
	Dialect quarry.Dialect // any, sqlite, postgres, mysql, duckdb
	Allow   bool
	SQL     string // decoded
	Raw     string // the sql field as written in the file
	Why     string
}

// ParseCorpus reads a guard corpus: a header row, then rows of four
// tab-separated fields dialect, expected (allow|reject), sql, why. A field
// that starts with a double quote is quoted CSV-style (a doubled quote
// stands for one). In sql, \\ \n \r \t \uXXXX and \UXXXXXXXX are escapes;
// any other backslash sequence is an error.
func ParseCorpus(data string) ([]Case, error) {
	var out []Case
	lines := strings.Split(data, "\n")
	for n, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if n == 0 || line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: want 4 tab-separated fields, got %d", n+1, len(f))
		}
		raw := f[2]
		field, err := unquoteField(raw)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		sql, err := DecodeSQL(field)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		c := Case{Line: n + 1, Dialect: quarry.Dialect(f[0]), SQL: sql, Raw: raw, Why: f[3]}
		switch f[1] {
		case "allow":
			c.Allow = true
		case "reject":
		default:
			return nil, fmt.Errorf("line %d: expected must be allow or reject, not %q", n+1, f[1])
		}
		switch c.Dialect {
		case quarry.DialectGeneric, quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL, quarry.DialectDuckDB:
		default:
			return nil, fmt.Errorf("line %d: unknown dialect %q", n+1, f[0])
		}
		out = append(out, c)
	}
	return out, nil
}

func unquoteField(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	if len(s) < 2 || !strings.HasSuffix(s, `"`) {
		return "", errors.New("unterminated quoted field")
	}
	inner := s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(inner); i++ {
		if inner[i] == '"' {
			if i+1 >= len(inner) || inner[i+1] != '"' {
				return "", errors.New("lone double quote inside a quoted field")
			}
			i++
		}
		b.WriteByte(inner[i])
	}
	return b.String(), nil
}

// DecodeSQL applies the corpus escapes to s.
func DecodeSQL(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i >= len(s) {
			return "", errors.New("dangling backslash")
		}
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u', 'U':
			n := 4
			if s[i] == 'U' {
				n = 8
			}
			if i+n >= len(s) {
				return "", errors.New("short escape")
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", err
			}
			b.WriteRune(rune(v))
			i += n
		default:
			return "", fmt.Errorf("bad escape \\%c", s[i])
		}
	}
	return b.String(), nil
}
