package narrate

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Column roles, as the semantic compiler names them.
const (
	RoleDimension = semantic.RoleDimension
	RoleMetric    = semantic.RoleMetric
	RoleShare     = semantic.RoleShare
	RolePeriod    = semantic.RolePeriod
	RoleChange    = semantic.RoleChange
	RoleColumn    = semantic.RoleColumn
)

// ColumnInfo says what a result column means: its role (dimension, metric,
// share, period, change or column), its number format (number, integer,
// currency, percent, or date for time dimensions) and its time grain.
type ColumnInfo struct {
	Name   string `json:"name"`
	Role   string `json:"role,omitempty"`
	Format string `json:"format,omitempty"`
	Grain  string `json:"grain,omitempty"`
	// Names marks the column that names each row of a list (an entity's
	// label, or its key): the answer names the rows by it.
	Names bool `json:"names,omitempty"`
}

// ColumnsFrom converts the compiler's column descriptions.
func ColumnsFrom(out []semantic.OutColumn) []ColumnInfo {
	cols := make([]ColumnInfo, len(out))
	for i, o := range out {
		cols[i] = ColumnInfo{Name: o.Name, Role: o.Role, Format: o.Format, Grain: string(o.Grain), Names: o.Names}
	}
	return cols
}

// column is a result column with its meaning resolved.
type column struct {
	ColumnInfo
	index   int
	numeric bool // a measure: metric, share, change, or a number without a role
	key     bool // a numeric key grouped beside a label (products.id next to products.name): shown, not narrated
	time    bool // a date or time-grain dimension
	label   bool // a period label of a comparison
	// lastName is, on a column of first names grouped beside a column
	// of last names, 1 + the index of that column: a row is named by
	// both ("Dee Jones"), and the last names are not a grouping of
	// their own (surname).
	lastName int
	surname  bool
}

// resolve pairs every column of t with its ColumnInfo (matched by name) and
// infers what is missing from the column's type and values.
func resolve(t *quarry.Table, infos []ColumnInfo) []column {
	if t == nil {
		return nil
	}
	cols := make([]column, len(t.Columns))
	for i, tc := range t.Columns {
		c := column{index: i}
		c.Name = tc.Name
		for _, in := range infos {
			if in.Name == tc.Name {
				c.ColumnInfo = in
				break
			}
		}
		if c.Role == "" {
			c.Role = RoleColumn
		}
		switch c.Role {
		case RoleMetric, RoleShare, RoleChange:
			c.numeric = true
		case RolePeriod:
			c.label = true
		case RoleDimension:
			// The day of the week is a cycle, not a time line: its groups
			// are compared, not read as a trend from Monday to Sunday.
			c.time = c.Grain != "" && !semantic.Grain(c.Grain).Cyclic() || c.Format == FormatDate || tc.Type.IsTemporal() || allDates(t, i)
		default:
			c.numeric = tc.Type.IsNumeric() || (tc.Type == "" || tc.Type == quarry.TypeUnknown) && allNumbers(t, i)
			c.time = !c.numeric && (tc.Type.IsTemporal() || allDates(t, i))
		}
		if c.Format == "" {
			switch {
			case c.Role == RoleShare:
				c.Format = FormatPercent
			case c.time:
				c.Format = FormatDate
			case c.numeric && tc.Type == quarry.TypeInt:
				c.Format = FormatInteger
			case c.numeric:
				c.Format = FormatNumber
			}
		}
		cols[i] = c
	}
	markKeys(t, cols)
	markNameParts(cols)
	return cols
}

// markNameParts pairs the one grouping of first names with the one of
// last names, where a result has exactly one of each: together they name
// each row (semantic.NameParts).
func markNameParts(cols []column) {
	first, last := -1, -1
	for i, c := range cols {
		if c.Role != RoleDimension && c.Role != RoleColumn || c.numeric || c.time {
			continue
		}
		switch semantic.NamePartKind(c.Name) {
		case "first":
			if first >= 0 {
				return
			}
			first = i
		case "last":
			if last >= 0 {
				return
			}
			last = i
		}
	}
	if first < 0 || last < 0 {
		return
	}
	cols[first].lastName = last + 1
	cols[last].surname = cols[last].Role == RoleDimension // a listed column stays a column
}

// firstNames is the index of the column of first names paired with one
// of last names (markNameParts), or -1.
func (w writer) firstNames() int {
	for i, c := range w.cols {
		if c.lastName > 0 {
			return i
		}
	}
	return -1
}

// markKeys marks numeric dimension columns that stand beside a text
// dimension of the same grouping (an entity's key next to its label), so
// that the headline names rows by their label.
func markKeys(t *quarry.Table, cols []column) {
	text := false
	for _, c := range cols {
		if c.Role == RoleDimension && !c.time && !t.Columns[c.index].Type.IsNumeric() {
			text = true
		}
	}
	if !text {
		return
	}
	for i, c := range cols {
		if c.Role == RoleDimension && !c.time && t.Columns[c.index].Type.IsNumeric() {
			cols[i].key = true
		}
	}
}

func allNumbers(t *quarry.Table, i int) bool {
	n := 0
	for _, r := range t.Rows {
		if i >= len(r) || r[i] == nil {
			continue
		}
		switch r[i].(type) {
		case int64, int, int32, uint64, float64, float32:
			n++
		default:
			return false
		}
	}
	return n > 0
}

func allDates(t *quarry.Table, i int) bool {
	n := 0
	for _, r := range t.Rows {
		if i >= len(r) || r[i] == nil {
			continue
		}
		s, ok := r[i].(string)
		if !ok || !looksLikeDate(s) {
			return false
		}
		n++
	}
	return n > 0
}

func (c column) cell(r []any) any {
	if c.index < len(r) {
		return r[c.index]
	}
	return nil
}

func (c column) text(r []any, currency string) string {
	return Value(c.cell(r), c.ColumnInfo, currency)
}

// name is the text that names row r by column c among cols: its value,
// and the last name beside a first name ("Dee Jones").
func (c column) name(cols []column, r []any, currency string) string {
	s := c.text(r, currency)
	if c.lastName > 0 {
		if l := cols[c.lastName-1]; l.cell(r) != nil {
			s += " " + l.text(r, currency)
		}
	}
	return s
}

// humanize turns a column name into words: "avg_order_value" → "avg order value".
func humanize(name string) string {
	words := strings.Fields(strings.ReplaceAll(name, "_", " "))
	for i, w := range words {
		if semantic.IsAcronym(w) {
			words[i] = strings.ToUpper(w)
		}
	}
	return strings.Join(words, " ")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
