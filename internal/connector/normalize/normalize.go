// Package normalize reads a query result as a person copied it from another
// tool or as a SQL service or MCP server returned it: CSV, TSV, psql and
// mysql ASCII tables, DuckDB box tables, Markdown tables, JSON (an array of
// objects, an array of arrays headed by the names, {columns, rows}, either
// inside envelopes such as {"result": {"data": …}} or [{"results": …}], and
// MCP tool results: structuredContent, or text content holding any of these
// formats), and the str() of a Python list of dicts. It guesses the format,
// infers column types (ints, big ints and decimals kept as strings when a
// float64 would lose digits, floats, booleans, dates, timestamps, NULL
// spellings), returns a typed quarry.Table, and never panics on any input
// (it is fuzzed, seeded from testdata/corpus). An error printed instead of
// a table, or an MCP result with isError, is a KindInput error carrying the
// message's first line. It is pure: no I/O.
package normalize

import (
	"encoding/csv"
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
	FormatBox      = "box"    // DuckDB's and sqlite3 -box's ┌─┬─┐ tables
	FormatPython   = "python" // str() of a list of dicts, as Python servers send it
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
	return parse(data, 0)
}

// ErrorTextPrefix begins the message of the error Parse returns for a
// database's error message printed where a table was expected; the
// message's first line follows it.
const ErrorTextPrefix = "the result is an error message, not a table: "

// errorLineRE matches the first line of an error message as SQL clients and
// servers print one instead of a table: "ERROR:  relation …", "ERROR 1146
// (42S02): …", "Error: no such table", DuckDB's "Binder Error: …".
var errorLineRE = lazyRE(`^(?i:error)(:| \d| \()|^[A-Za-z]+( [A-Za-z]+)? [Ee]rror: `)

func parse(data []byte, depth int) (*quarry.Table, string, error) {
	if len(data) > MaxBytes {
		return nil, "", quarry.Errorf(quarry.KindInput, "the pasted result is larger than %d MiB; export it to a file with fewer rows", MaxBytes>>20)
	}
	if !utf8.Valid(data) {
		return nil, "", quarry.Errorf(quarry.KindInput, "the pasted result is not UTF-8 text")
	}
	text := strings.TrimPrefix(string(data), "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	trimmed := dropPrompt(strings.TrimSpace(text))
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
		t, err := parseJSON([]byte(trimmed), depth)
		if err != nil && quarry.KindOf(err) == quarry.KindInput && strings.Contains(trimmed, "'") {
			if js, ok := pyToJSON(trimmed); ok {
				if pt, perr := parseJSON([]byte(js), depth); perr == nil {
					return pt, FormatPython, nil
				}
			}
		}
		if err != nil {
			return nil, "", err
		}
		return t, FormatJSON, nil
	case errorLineRE().MatchString(trimmed):
		first, _, _ := strings.Cut(trimmed, "\n")
		return nil, "", quarry.Errorf(quarry.KindInput, "%s%s", ErrorTextPrefix, short(first))
	case strings.HasPrefix(trimmed, "┌"):
		format = FormatBox
		header, rows, err = parseBox(lines(trimmed))
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

// prompts start a pasted line that echoes the statement typed into a CLI.
var prompts = []string{"mysql> ", "MariaDB [", "sqlite> ", "D ", "duckdb> "}

// dropPrompt removes a first line that is a CLI prompt and its statement
// (mysql>, psql's name=#, sqlite>, DuckDB's D) when a table follows.
func dropPrompt(s string) string {
	first, rest, ok := strings.Cut(s, "\n")
	if !ok {
		return s
	}
	isPrompt := false
	for _, p := range prompts {
		if strings.HasPrefix(first, p) {
			isPrompt = true
		}
	}
	if i := strings.Index(first, "=# "); i > 0 && !strings.ContainsAny(first[:i], " |,\t") {
		isPrompt = true
	}
	if i := strings.Index(first, "=> "); i > 0 && !strings.ContainsAny(first[:i], " |,\t") {
		isPrompt = true
	}
	if !isPrompt {
		return s
	}
	return strings.TrimSpace(rest)
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

// parseBox reads a table drawn with box characters (DuckDB's default
// output, sqlite3 -box): ┌─┬─┐ top, │ cells │, ├─┼─┤ under the header,
// └─┴─┘ bottom. DuckDB prints the column types in a second header line;
// only the first names the columns. Footers such as "3 rows" are skipped.
func parseBox(ls []string) ([]string, [][]string, error) {
	var header []string
	var rows [][]string
	inHeader := true
	for i, l := range ls {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "┌") || strings.HasPrefix(t, "└"):
			continue
		case strings.HasPrefix(t, "├"):
			if strings.Contains(t, "·") { // DuckDB's "│ · │" elision rows
				continue
			}
			inHeader = false
			continue
		case !strings.HasPrefix(t, "│"):
			if strings.Contains(t, "row") || strings.Contains(t, "column") {
				continue
			}
			return nil, nil, quarry.Errorf(quarry.KindInput, "line %d of the pasted table does not start with │: %q", i+1, short(t))
		}
		t = strings.TrimSuffix(strings.TrimPrefix(t, "│"), "│")
		cells := strings.Split(t, "│")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		switch {
		case header == nil:
			header = cells
		case inHeader:
			// the types line under the names
		default:
			if allDots(cells) {
				continue
			}
			rows = append(rows, cells)
		}
	}
	return header, rows, nil
}

func allDots(cells []string) bool {
	for _, c := range cells {
		if c != "·" && c != "" {
			return false
		}
	}
	return true
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
	return nullSpellings[s]
}

// columnType infers a column's type from its cells: ints, big ints,
// floats, decimals (when a float64 would lose digits), booleans, dates,
// timestamps, or text.
func columnType(rows [][]string, c int, nulls bool) quarry.Type {
	typ := quarry.Type("")
	for _, r := range rows {
		s := strings.TrimSpace(r[c])
		if isNull(s, nulls) {
			continue
		}
		if typ = merge(typ, kindOf(s)); typ == quarry.TypeText {
			return typ
		}
	}
	if typ == "" {
		return quarry.TypeText
	}
	return typ
}

func convert(s string, typ quarry.Type, nulls bool) any {
	st := strings.TrimSpace(s)
	if isNull(st, nulls) {
		return nil
	}
	if typ == quarry.TypeText {
		return s
	}
	return cellValue(st, typ)
}

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
