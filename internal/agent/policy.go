package agent

import (
	"fmt"

	colpolicy "github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// policy keeps restricted columns away from the model. The column policy
// itself (internal/policy) decides by name here; the guard it shares with
// every surface decides by lineage. policy also remembers every value it
// redacted so that the value can be scrubbed from any text that would
// otherwise carry it to the model.
type policy struct {
	model *semantic.Model
	cols  *colpolicy.Policy
	sc    *colpolicy.Scrubber // the one scrubber, shared with quarry mcp's describe
}

func newPolicy(m *semantic.Model) *policy {
	return &policy{model: m, cols: colpolicy.FromModel(m), sc: colpolicy.NewScrubber(m)}
}

// column reports whether table.column is restricted.
func (p *policy) column(table, column string) bool {
	if p.model != nil && p.model.IsRestricted(table, column) {
		return true
	}
	return false
}

// name reports whether a result column's name is that of a restricted
// column (whatever its table: a result does not say where a column came
// from, so the bare name decides, conservatively).
func (p *policy) name(col string) bool { return p.cols.Name(col) }

var identRE = lazyRE("[A-Za-z_][A-Za-z0-9_$]*")

// mentions returns the first restricted column name SQL mentions as a word
// (in an identifier, a quoted name or a literal alike), or "". A statement
// that names a restricted column is refused before the guard: an alias
// could otherwise carry the column's values past redaction by name.
func (p *policy) mentions(sql string) string {
	if p.cols.Empty() {
		return ""
	}
	for _, w := range identRE().FindAllString(sql, -1) {
		if p.cols.Name(w) {
			return w
		}
	}
	return ""
}

// redact replaces the values of restricted columns in t, in place, and
// remembers them. It returns the names of the redacted columns.
func (p *policy) redact(t *quarry.Table) []string {
	if t == nil {
		return nil
	}
	for i, c := range t.Columns {
		if !p.name(c.Name) {
			continue
		}
		for _, row := range t.Rows {
			if i < len(row) && row[i] != nil {
				p.sc.Remember(fmt.Sprint(row[i]))
			}
		}
	}
	return p.cols.Redact(t)
}

// scrub removes from text everything of restricted columns that could
// reach the model through it (colpolicy.Scrubber: values redacted so far,
// anything shaped like an e-mail address, and table.column references to
// restricted columns). It is applied to knowledge text and to every tool
// result.
func (p *policy) scrub(text string) string { return p.sc.Scrub(text) }

// leaks returns a remembered restricted value that body contains, or "".
func (p *policy) leaks(body string) string { return p.sc.Leak(body) }
