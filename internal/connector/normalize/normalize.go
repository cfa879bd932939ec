// Package normalize reads a query result that a person copied from another
// tool: CSV, TSV, psql and mysql ASCII tables, Markdown tables, and JSON (an
// array of objects, {columns, rows}, or either inside an envelope such as
// {"data": …}). It guesses the format, returns a typed quarry.Table, and
// never panics on any input (it is fuzzed). It is pure: no I/O.
package normalize

import (
	"encoding/csv"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/quarry"
)

// The formats Parse recognises.
const (
	FormatCSV      = "csv"
	FormatTSV      = "tsv"
	FormatPSQL     = "psql"
	FormatMySQL    = "mysql"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

// Limits of what Parse accepts.
const (
	MaxBytes = 32 << 20
	MaxRows  = 1_000_000
)

// Parse reads data in whichever format it is in and returns the table and
// the format's name. Cells are typed by column: a column whose every
// non-empty cell is an integer becomes TypeInt (int64 values), one of
// numbers TypeFloat (float64), true/false TypeBool, anything else TypeText.
// Empty cells and NULL are nil. Errors are KindInput and say what is wrong.
func Parse(data []byte) (*quarry.Table, string, error) {
	if len(data) > MaxBytes {
		return nil, "", quarry.Errorf(quarry.KindInput, "the pasted result is larger than %d MiB; export it to a file with fewer rows", MaxBytes>>20)
	}
	if !utf8.Valid(data) {
		return nil, "", quarry.Errorf(quarry.KindInput, "the pasted result is not UTF-8 text")
	}
	text := strings.TrimPrefix(string(data), "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return nil, "", quarry.Errorf(quarry.KindInput, "the pasted result is empty")
	}
	var (
		header []string
		rows   [][]string
		nulls  bool // the format writes NULL for a null
		format string
		err    error
	)
	switch {
	case trimmed[0] == '[' || trimmed[0] == '{':
		t, err := parseJSON([]byte(trimmed))
		if err != nil {
			return nil, "", err
		}
		return t, FormatJSON, nil
	case strings.HasPrefix(trimmed, "+-"):
		format, nulls = FormatMySQL, true
		header, rows, err = parseBoxed(lines(trimmed), true)
	case isMarkdown(trimmed):
		format = FormatMarkdown
		header, rows, err = parseBoxed(lines(trimmed), false)
	case isPSQL(trimmed):
		format = FormatPSQL
		header, rows, err = parsePSQL(lines(trimmed))
	case strings.Contains(strings.SplitN(trimmed, "\n", 2)[0], "\t"):
		format = FormatTSV
		header, rows, err = parseDelimited(strings.Trim(text, "\n"), '\t')
	default:
		format = FormatCSV
		header, rows, err = parseDelimited(trimmed, ',')
	}
	if err != nil {
		return nil, "", err
	}
	t, err := build(header, rows, nulls)
	if err != nil {
		return nil, "", err
	}
	return t, format, nil
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimRight(l, " \t"))
		}
	}
	return out
}

// isMarkdown reports a pipe table whose second line is a |---|---| rule.
func isMarkdown(s string) bool {
	ls := lines(s)
	if len(ls) < 2 || !strings.HasPrefix(strings.TrimSpace(ls[0]), "|") {
		return false
	}
	return isRule(strings.TrimSpace(ls[1]), "|-: ")
}

// isPSQL reports psql's aligned format: a header, then a rule of dashes
// and plus signs.
func isPSQL(s string) bool {
	ls := lines(s)
	return len(ls) >= 2 && strings.Contains(ls[1], "-") && isRule(strings.TrimSpace(ls[1]), "-+") && !strings.HasPrefix(strings.TrimSpace(ls[0]), "|")
}

func isRule(s, chars string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune(chars, r) {
			return false
		}
	}
	return strings.Contains(s, "-")
}

// parseBoxed reads a mysql table (+---+ rules, | cells |) or a Markdown
// table (| cells | with a |---| rule under the header).
func parseBoxed(ls []string, mysql bool) ([]string, [][]string, error) {
	var header []string
	var rows [][]string
	for i, l := range ls {
		t := strings.TrimSpace(l)
		switch {
		case mysql && strings.HasPrefix(t, "+"):
			continue
		case !mysql && i == 1:
			continue
		case !strings.HasPrefix(t, "|"):
			if mysql && (strings.Contains(t, "in set") || strings.Contains(t, "row")) {
				continue // "3 rows in set (0.00 sec)"
			}
			return nil, nil, quarry.Errorf(quarry.KindInput, "line %d of the pasted table does not start with |: %q", i+1, short(t))
		}
		cells := splitPipes(t)
		if header == nil {
			header = cells
			continue
		}
		rows = append(rows, cells)
	}
	return header, rows, nil
}

// splitPipes splits "| a | b |" into its trimmed cells; "\|" is a pipe
// inside a Markdown cell.
func splitPipes(t string) []string {
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	var cells []string
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		switch {
		case t[i] == '\\' && i+1 < len(t) && t[i+1] == '|':
			b.WriteByte('|')
			i++
		case t[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(t[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// parsePSQL reads psql's aligned output: header, rule, rows, "(N rows)".
func parsePSQL(ls []string) ([]string, [][]string, error) {
	header := splitPSQL(ls[0])
	var rows [][]string
	for _, l := range ls[2:] {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") && strings.Contains(t, "row") {
			continue
		}
		rows = append(rows, splitPSQL(l))
	}
	return header, rows, nil
}

func splitPSQL(l string) []string {
	parts := strings.Split(l, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// parseDelimited reads CSV or TSV with a header line.
func parseDelimited(s string, comma rune) ([]string, [][]string, error) {
	r := csv.NewReader(strings.NewReader(s))
	r.Comma = comma
	r.FieldsPerRecord = -1
	r.LazyQuotes = comma == '\t'
	r.ReuseRecord = false
	all, err := r.ReadAll()
	if err != nil {
		return nil, nil, quarry.Wrap(quarry.KindInput, err, "the pasted result is not valid %s: %s", map[rune]string{',': "CSV", '\t': "TSV"}[comma], err.Error())
	}
	if len(all) == 0 {
		return nil, nil, quarry.Errorf(quarry.KindInput, "the pasted result is empty")
	}
	for i := range all[0] {
		all[0][i] = strings.TrimSpace(all[0][i])
	}
	return all[0], all[1:], nil
}

// build checks the shape and types the cells.
func build(header []string, rows [][]string, nulls bool) (*quarry.Table, error) {
	if len(header) == 0 || len(header) == 1 && header[0] == "" {
		return nil, quarry.Errorf(quarry.KindInput, "the pasted result has no header line naming its columns")
	}
	if len(rows) > MaxRows {
		return nil, quarry.Errorf(quarry.KindInput, "the pasted result has more than %d rows", MaxRows)
	}
	for i, r := range rows {
		if len(r) != len(header) {
			return nil, quarry.Errorf(quarry.KindInput, "row %d of the pasted result has %d cells; the header names %d columns", i+1, len(r), len(header))
		}
	}
	t := &quarry.Table{Columns: make([]quarry.Column, len(header)), Rows: make([][]any, len(rows))}
	for i := range rows {
		t.Rows[i] = make([]any, len(header))
	}
	for c, name := range header {
		typ := columnType(rows, c, nulls)
		t.Columns[c] = quarry.Column{Name: name, Type: typ}
		for i, r := range rows {
			t.Rows[i][c] = convert(r[c], typ, nulls)
		}
	}
	return t, nil
}

// isNull reports an empty cell or a NULL as database clients print it.
func isNull(s string, _ bool) bool {
	return s == "" || s == "NULL" || s == "null"
}

func columnType(rows [][]string, c int, nulls bool) quarry.Type {
	typ := quarry.Type("")
	for _, r := range rows {
		s := strings.TrimSpace(r[c])
		if isNull(s, nulls) {
			continue
		}
		var t quarry.Type
		switch {
		case isInt(s):
			t = quarry.TypeInt
		case isFloat(s):
			t = quarry.TypeFloat
		case s == "true" || s == "false" || s == "t" || s == "f":
			t = quarry.TypeBool
		default:
			return quarry.TypeText
		}
		switch {
		case typ == "":
			typ = t
		case typ == t:
		case (typ == quarry.TypeInt || typ == quarry.TypeFloat) && (t == quarry.TypeInt || t == quarry.TypeFloat):
			typ = quarry.TypeFloat
		default:
			return quarry.TypeText
		}
	}
	if typ == "" {
		return quarry.TypeText
	}
	return typ
}

func isInt(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

func isFloat(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && !strings.ContainsAny(s, "xXpP_") && f == f && !strings.EqualFold(strings.TrimLeft(s, "+-"), "inf") && !strings.EqualFold(strings.TrimLeft(s, "+-"), "infinity")
}

func convert(s string, typ quarry.Type, nulls bool) any {
	st := strings.TrimSpace(s)
	if isNull(st, nulls) {
		return nil
	}
	switch typ {
	case quarry.TypeInt:
		n, _ := strconv.ParseInt(st, 10, 64)
		return n
	case quarry.TypeFloat:
		f, _ := strconv.ParseFloat(st, 64)
		return f
	case quarry.TypeBool:
		return st == "true" || st == "t"
	}
	return s
}

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
