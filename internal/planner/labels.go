package planner

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// besideValue reports whether a column term names the column of a value
// next to it ("the Electronics category").
func (b *builder) besideValue(t *term) bool {
	for _, u := range b.st.terms {
		if u.cands[0].kind == sValue && u.cands[0].field == t.cands[0].field && (u.pos == t.pos-1 || u.pos == t.pos+1 || u.pos == t.pos-2 || u.pos == t.pos+2) {
			return true
		}
	}
	return false
}

// valueBefore reports whether the word right before t is a value of t's
// own column ("mobile devices", "web channel").
func (b *builder) valueBefore(t *term) bool {
	for _, u := range b.st.terms {
		if u.pos == t.pos-1 && len(u.cands) > 0 && u.cands[0].kind == sValue && u.cands[0].field == t.cands[0].field {
			return true
		}
	}
	return false
}

func (b *builder) hasColumnTerm() bool {
	for _, t := range b.st.terms {
		if t.role == "" && t.cands[0].kind == sColumn && !b.besideValue(t) && !b.roleBeforeValue(t) && !b.byParticiple(t, t.cands[0]) {
			return true
		}
	}
	return false
}

func (b *builder) labelOf(e string) string {
	if ent := b.p.entity(e); ent != nil {
		return b.p.label(ent)
	}
	return ""
}

// label is the column that names ent's rows: its label, or else a text
// column named like the table itself (airlines.Airline).
func (p *Planner) label(ent *semantic.Entity) string {
	if ent.Label != "" {
		return ent.Label
	}
	name := strings.Join(words(ent.Name), " ")
	var hit string
	for _, c := range ent.Columns {
		cn := strings.Join(words(c.Name), " ")
		if c.Type.IsNumeric() || c.Type.IsTemporal() || strings.EqualFold(c.Name, ent.PrimaryKey) {
			continue
		}
		if cn == name || cn == singular(name) || plural(cn) == name {
			if hit != "" {
				return ""
			}
			hit = c.Name
		}
	}
	return hit
}

// valueAfter reports whether a value follows t, with nothing meaningful
// between: "enrolled in Biology".
func (b *builder) valueAfter(t *term) bool {
	for _, u := range b.st.terms {
		if u.pos == t.pos+1 && len(u.cands) > 0 && len(only(u.cands, sValue)) == len(u.cands) {
			return true
		}
	}
	return false
}

// afterBe reports whether the question says the word right after a form
// of "be": "tickets that are closed", "how many orders were shipped".
func (b *builder) afterBe(word string) bool {
	ws := strings.Fields(b.st.text)
	for i := 1; i < len(ws); i++ {
		if ws[i] != word {
			continue
		}
		j := i - 1
		if ws[j] == "already" || ws[j] == "now" {
			j--
		}
		if j >= 0 {
			switch ws[j] {
			case "is", "are", "was", "were", "been", "be":
				return true
			}
		}
	}
	return false
}
