package narrate

import "strings"

// nullWord is what rows with no value of grouping column d lack: the
// grouping's table where d is its name or label column (accompanist of
// accompanist.full_name), else the column.
func (w writer) nullWord(d column) string {
	if rd := w.in.Reading; rd != nil && nameColumn(d.Name) {
		for _, g := range rd.GroupBy {
			if ent, col, ok := strings.Cut(g.Name, "."); ok && strings.EqualFold(col, d.Name) {
				return ent
			}
		}
	}
	return d.Name
}

// nameColumn reports whether col names its rows: name, full_name, title.
func nameColumn(col string) bool {
	c := strings.ToLower(col)
	return c == "name" || c == "title" || c == "label" || strings.HasSuffix(c, "_name")
}
