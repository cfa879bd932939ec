package format

import (
	"bufio"

	"github.com/quarrydata/quarry/internal/quarry"
)

// delimited writes csv (RFC 4180: fields quoted when they hold the
// separator, a quote, a line break or leading space; lines end with \n)
// and tsv (no quoting: tab, line breaks and backslash are escaped as \t,
// \n, \r and \\). Both start with a header line of column names and write
// NULL as an empty field.
type delimited struct {
	w     *bufio.Writer
	sep   byte
	quote bool // csv; otherwise tsv escaping
	line  []byte
	cell  []byte
}

func (d *delimited) Begin(cols []quarry.Column) error {
	d.line = d.line[:0]
	for i, c := range cols {
		if i > 0 {
			d.line = append(d.line, d.sep)
		}
		d.line = d.field(d.line, []byte(c.Name))
	}
	d.line = append(d.line, '\n')
	_, err := d.w.Write(d.line)
	return writeError(err)
}

func (d *delimited) Row(vals []any) error {
	d.line = d.line[:0]
	for i, v := range vals {
		if i > 0 {
			d.line = append(d.line, d.sep)
		}
		switch x := v.(type) {
		case nil:
		case string:
			d.line = d.fieldString(d.line, x)
		case int64, float64, bool:
			d.line = appendText(d.line, v, "") // never needs quoting
		default:
			d.cell = appendText(d.cell[:0], x, "")
			d.line = d.field(d.line, d.cell)
		}
	}
	d.line = append(d.line, '\n')
	_, err := d.w.Write(d.line)
	return writeError(err)
}

func (d *delimited) field(b, f []byte) []byte {
	return d.fieldString(b, string(f))
}

func (d *delimited) fieldString(b []byte, f string) []byte {
	if d.quote {
		if !csvNeedsQuotes(f) {
			return append(b, f...)
		}
		b = append(b, '"')
		for i := 0; i < len(f); i++ {
			if f[i] == '"' {
				b = append(b, '"')
			}
			b = append(b, f[i])
		}
		return append(b, '"')
	}
	start := 0
	for i := 0; i < len(f); i++ {
		var esc byte
		switch f[i] {
		case '\t':
			esc = 't'
		case '\n':
			esc = 'n'
		case '\r':
			esc = 'r'
		case '\\':
			esc = '\\'
		default:
			continue
		}
		b = append(b, f[start:i]...)
		b = append(b, '\\', esc)
		start = i + 1
	}
	return append(b, f[start:]...)
}

// csvNeedsQuotes follows encoding/csv: quote fields with a comma, quote,
// line break, a leading space or tab, or that are exactly \. .
func csvNeedsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f == `\.` || f[0] == ' ' || f[0] == '\t' {
		return true
	}
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case ',', '"', '\n', '\r':
			return true
		}
	}
	return false
}

func (d *delimited) End(Info) error { return d.Flush() }

func (d *delimited) Flush() error { return writeError(d.w.Flush()) }
