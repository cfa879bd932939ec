package agent

import (
	"fmt"
	"sort"
	"strings"

	colpolicy "github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// redactedValue replaces every value of a restricted column.
const redactedValue = colpolicy.Redacted

// policy keeps restricted columns away from the model. The column policy
// itself (internal/policy) decides by name here; the guard it shares with
// every surface decides by lineage. policy also remembers every value it
// redacted so that the value can be scrubbed from any text that would
// otherwise carry it to the model.
type policy struct {
	model *semantic.Model
	cols  *colpolicy.Policy
	refs  []string        // "table.column" spellings, entity and table names, lower case
	seen  map[string]bool // values redacted so far
}

func newPolicy(m *semantic.Model) *policy {
	p := &policy{model: m, cols: colpolicy.FromModel(m), seen: map[string]bool{}}
	if m == nil {
		return p
	}
	for _, r := range m.Restricted {
		t, c, ok := strings.Cut(strings.ToLower(r), ".")
		if !ok {
			continue
		}
		p.refs = append(p.refs, t+"."+c)
		if e := m.Entity(t); e != nil {
			p.refs = append(p.refs, strings.ToLower(e.Name)+"."+c, strings.ToLower(e.TableName())+"."+c)
			// Values learn wrote before the column was restricted are
			// scrubbed from every text, as redacted values are.
			if col := e.Column(c); col != nil {
				for _, v := range col.Values {
					if v = strings.TrimSpace(v); len(v) >= 3 {
						p.seen[v] = true
					}
				}
			}
		}
	}
	sort.Slice(p.refs, func(i, j int) bool { return len(p.refs[i]) > len(p.refs[j]) })
	return p
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
				if s := strings.TrimSpace(fmt.Sprint(row[i])); len(s) >= 3 {
					p.seen[s] = true
				}
			}
		}
	}
	return p.cols.Redact(t)
}

var emailRE = lazyRE(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)

// scrub removes from text everything of restricted columns that could
// reach the model through it: values redacted so far, anything shaped like
// an e-mail address, and table.column references to restricted columns.
// It is applied to knowledge text and to every tool result.
func (p *policy) scrub(text string) string {
	if p.cols.Empty() {
		return text
	}
	for v := range p.seen {
		if strings.Contains(text, v) {
			text = strings.ReplaceAll(text, v, redactedValue)
		}
	}
	text = emailRE().ReplaceAllString(text, redactedValue)
	lower := strings.ToLower(text)
	for _, r := range p.refs {
		for {
			i := strings.Index(lower, r)
			if i < 0 {
				break
			}
			text = text[:i] + "[restricted column]" + text[i+len(r):]
			lower = strings.ToLower(text)
		}
	}
	return text
}

// leaks returns a remembered restricted value that body contains, or "".
func (p *policy) leaks(body string) string {
	for v := range p.seen {
		if strings.Contains(body, v) {
			return v
		}
	}
	return ""
}
