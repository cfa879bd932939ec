package semantic

import (
	"slices"
	"strings"
)

// CopiesOf is, in model order, the entities that are copies of the one
// named: their table's name holds its table's name whole with words of
// its own (invoices_archive, invoices_2019, emea_invoices of invoices),
// and their columns are its own but for one at most either way (an
// archive kept without deleted_at). The same table in another schema is
// no copy.
func (m *Model) CopiesOf(name string) []string {
	e := m.Entity(name)
	if e == nil {
		return nil
	}
	table := func(x *Entity) []string {
		if x.Table != "" {
			return NameWords(x.Table)
		}
		return NameWords(x.Name)
	}
	run := table(e)
	if len(run) == 0 {
		return nil
	}
	var out []string
	for i := range m.Entities {
		o := &m.Entities[i]
		if o == e {
			continue
		}
		if HoldsRun(table(o), run) && !strings.EqualFold(o.Name, e.Name) && missing(e, o) <= 1 && missing(o, e) <= 1 {
			out = append(out, o.Name)
		}
	}
	return out
}

// missing is how many of a's columns b has none of by name.
func missing(a, b *Entity) int {
	n := 0
	for _, c := range a.Columns {
		if b.Column(c.Name) == nil {
			n++
		}
	}
	return n
}

// HoldsRun reports whether words hold run, in order and together, with
// at least one word more: emea_support_tickets holds support_tickets.
func HoldsRun(words, run []string) bool {
	for i := 0; i+len(run) <= len(words) && len(words) > len(run); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// CopyWord reports whether a word of a table's name says the table keeps
// a copy of another's rows (archive, backup, staging, history, a year):
// a question that does not say the word means the original.
func CopyWord(w string) bool {
	switch w {
	case "archive", "archived", "backup", "bak", "tmp", "temp", "old", "staging", "stg", "test", "copy", "deprecated",
		"legacy", "snapshot", "history", "hist", "log", "audit", "v1", "v2", "v3", "raw", "scratch":
		return true
	}
	if len(w) != 4 || w[:2] != "19" && w[:2] != "20" {
		return false
	}
	return strings.Trim(w, "0123456789") == ""
}
