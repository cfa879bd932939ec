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

// groupLabel is row r's value of the grouping d as written, and, where it
// has none, the group of the rows with none ("(no reviewer)"), never
// "NULL" as if it were a name (found from outside: "starting with NULL,
// … the highest is 476", the 476 claims with no reviewer).
func (w writer) groupLabel(d column, r []any) string {
	if d.cell(r) == nil {
		return "(no " + humanize(w.nullWord(d)) + ")"
	}
	return escapeMarkdown(d.name(w.cols, r, w.in.Currency)) // "Dee Jones"
}
