package narrate

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

// DefaultPreviewRows is how many rows the answer's table shows when
// AnswerInput.PreviewRows is not set.
const DefaultPreviewRows = 20

// AnswerInput is everything the answer is made from.
type AnswerInput struct {
	Question  string
	Title     string // what the figures measure, e.g. "Revenue" or "Revenue by country"
	SQL       string
	Table     *quarry.Table // the rows read (maybe a preview)
	TotalRows int64         // rows in the whole result; 0 when only Table's rows are known
	Truncated bool          // more rows existed than were read
	Columns   []ColumnInfo
	Report    verify.Report
	Period    string // human label of the time range, e.g. "2025" or "last 30 days"
	// SoFar is the last day of a period that is not over, where the range
	// ends at the as-of day ("revenue in 2026" on 2026-12-05); "" otherwise.
	SoFar       string
	AsOf        string // the date the answer is relative to, shown as it is
	PreviewRows int    // rows in the Markdown table; DefaultPreviewRows when 0
	Currency    string // the symbol put before currency values, e.g. "$"; none when empty
	// Reading is how the question was read (nil when unknown): a single
	// figure is stated from it ("22,807 orders in 2025") rather than from
	// the question.
	Reading *event.ReadingData
	// Tied names the rows a ranking's limit cut that tie its last row
	// (the ties check's control query found them), for the answer to name.
	Tied []string
}

// Answer is the text a person reads and the chart that goes with it.
type Answer struct {
	Markdown string    `json:"markdown"`
	Headline string    `json:"headline"` // the first sentence, without Markdown
	Chart    ChartSpec `json:"chart"`
	// Cells are the first CellRows rows of the result as the text and the
	// Markdown table write them (month periods as 2025-01, currency
	// units, the same rounding), for a surface's own table.
	Cells [][]string `json:"cells,omitempty"`
}

// CellRows is how many rows Answer.Cells holds.
const CellRows = 100

// Shapes of results, as Shape reports them.
const (
	ShapeEmpty   = "empty"
	ShapeFigure  = "figure"
	ShapeRanking = "ranking"
	ShapeTrend   = "trend"
	ShapeCompare = "compare"
	ShapeShare   = "share"
	ShapeList    = "list"
)

// Compose writes the answer: a headline with figures from result cells, the
// derived change where there is one, a table of at most PreviewRows rows,
// the checks and the confidence.
func Compose(in AnswerInput) Answer {
	cols := resolve(in.Table, in.Columns)
	total := in.TotalRows
	if in.Table != nil && int64(len(in.Table.Rows)) > total {
		total = int64(len(in.Table.Rows))
	}
	if !unnamed(in.Tied) {
		// The names of tied rows are the data's, written as text.
		tied := make([]string, len(in.Tied))
		for i, n := range in.Tied {
			tied[i] = escapeMarkdown(n)
		}
		in.Tied = tied
	}
	w := writer{in: in, cols: cols, total: total}
	headline, derived := w.headline()
	derived = w.notes(derived)
	var b strings.Builder
	b.WriteString(headline)
	if derived != "" {
		b.WriteString(" " + derived)
	}
	b.WriteString("\n")
	if tbl := w.table(); tbl != "" {
		b.WriteString("\n" + tbl)
	}
	b.WriteString("\n" + checksBlock(in.Report, in.AsOf))
	chartTitle := in.Title
	if chartTitle == "" {
		chartTitle = w.title()
	}
	spec := ChooseChart(in.Table, in.Columns, chartTitle)
	if spec.Kind != ChartNone {
		spec.Currency = in.Currency
	}
	return Answer{Markdown: b.String(), Headline: stripBold(headline), Chart: spec, Cells: w.cells()}
}

// cells formats the first CellRows rows as the table does.
func (w writer) cells() [][]string {
	t := w.in.Table
	if t == nil || len(t.Rows) == 0 {
		return nil
	}
	out := make([][]string, 0, min(len(t.Rows), CellRows))
	for _, r := range t.Rows[:min(len(t.Rows), CellRows)] {
		row := make([]string, len(t.Columns))
		for i := range row {
			row[i] = Value(nil, ColumnInfo{}, "")
		}
		for _, c := range w.cols {
			if c.index < len(row) {
				row[c.index] = c.text(r, w.in.Currency)
			}
		}
		out = append(out, row)
	}
	return out
}

// Shape reports which kind of headline Compose writes for a result.
func Shape(t *quarry.Table, infos []ColumnInfo) string {
	w := writer{cols: resolve(t, infos), in: AnswerInput{Table: t}}
	return w.shape()
}

type writer struct {
	in    AnswerInput
	cols  []column
	total int64
}

func (w writer) split() (dims, nums []column) {
	for _, c := range w.cols {
		if c.key || c.surname {
			continue
		}
		if c.numeric {
			nums = append(nums, c)
		} else {
			dims = append(dims, c)
		}
	}
	return dims, nums
}

func (w writer) shape() string {
	t := w.in.Table
	if t == nil || len(t.Rows) == 0 {
		return ShapeEmpty
	}
	dims, nums := w.split()
	var measures []column
	for _, n := range nums {
		if n.Role != RoleColumn || len(dims) == 0 || dims[0].Role != RoleColumn {
			measures = append(measures, n)
		}
	}
	switch {
	case len(measures) == 0:
		return ShapeList
	case w.in.Reading != nil && w.in.Reading.List != "" && len(w.in.Reading.Measures) == 0:
		// A list of rows, of one row with one number ("guests with more
		// than 10 bookings": id 183) is no figure (found from outside:
		// "Guests … was 183").
		return ShapeList
	case len(dims) == 0 && len(t.Rows) == 1:
		return ShapeFigure
	case len(dims) != 1:
		return ShapeList
	}
	d := dims[0]
	for _, n := range measures {
		if n.Role == RoleShare && !d.time && !d.label {
			return ShapeShare
		}
	}
	switch {
	case d.label && len(t.Rows) >= 2:
		return ShapeCompare
	case d.time && len(t.Rows) >= 2 && !w.sortedBy(measures):
		return ShapeTrend
	case d.Role == RoleColumn && len(measures) > 0 && measures[0].Role == RoleColumn && len(t.Rows) > 1:
		return ShapeList
	}
	return ShapeRanking
}

// sortedBy reports whether the reading sorts the rows by one of the
// measures ("revenue by month, lowest first"): periods so sorted are a
// ranking, not a series read from first to last.
func (w writer) sortedBy(measures []column) bool {
	rd := w.in.Reading
	if rd == nil || rd.Order == "" {
		return false
	}
	for _, m := range measures {
		for _, f := range strings.Fields(rd.Order) {
			if f == m.Name {
				return true
			}
		}
	}
	return false
}

// title is what the figures measure.
func (w writer) title() string {
	if w.in.Title != "" {
		return w.bareTitle()
	}
	dims, nums := w.split()
	if len(nums) == 0 {
		return ""
	}
	s := capitalize(humanize(nums[0].Name))
	if len(dims) == 1 {
		s += " by " + humanize(dims[0].Name)
	}
	return s
}

// bareTitle is the input's title without the period label it may end
// with ("Revenue by month, 2025" → "Revenue by month"): the sentences add
// the period themselves.
func (w writer) bareTitle() string {
	if p := w.in.Period; p != "" {
		return strings.TrimSuffix(w.in.Title, ", "+p)
	}
	return w.in.Title
}

// metricTitle is the title for a sentence about one measure: the input's
// title, else the column's name.
func (w writer) metricTitle(m column) string {
	if w.in.Title != "" {
		return w.bareTitle()
	}
	return capitalize(humanize(m.Name))
}

// fmtCell is a value as the answer's Markdown writes it: formatted, and
// escaped so that Markdown reads it as text.
func (w writer) fmtCell(c column, r []any) string { return escapeMarkdown(c.text(r, w.in.Currency)) }

// periodPhrase turns a period label into words that follow a noun:
// "2025" → "in 2025", "last 30 days" → "in the last 30 days".
func periodPhrase(p string) string {
	p = strings.TrimSpace(p)
	l := strings.ToLower(p)
	first, rest, _ := strings.Cut(l, " ")
	switch {
	case p == "":
		return ""
	case first == "last" || first == "past" || first == "previous":
		// "last 30 days" and "previous quarter" are spans ("in the last
		// 30 days"); "last month" names one period and reads as it is.
		if first != "last" || rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return "in the " + p
		}
		return p
	case strings.Contains(l, " to date ("):
		return p // "year to date (2026-01-01 – 2026-12-05)"
	case strings.Contains(p, " – "):
		a, b, _ := strings.Cut(p, " – ")
		return "from " + a + " to " + b
	case isoDay(p):
		return "on " + p
	case strings.HasSuffix(l, " ago") || strings.Contains(l, " ago ("):
		return p
	}
	for _, lead := range []string{"this ", "next ", "since ", "between ", "from ", "in ", "during ", "after ", "before ", "until ", "up to ", "by ", "at ", "year to date"} {
		if strings.HasPrefix(l, lead) {
			return p
		}
	}
	if l == "today" || l == "yesterday" {
		return p
	}
	return "in " + p
}

// isoDay reports whether s is one day written YYYY-MM-DD.
func isoDay(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, r := range s {
		if i != 4 && i != 7 && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// periodWords are the words of the answer's period after a noun: "in
// 2025", or "in 2026 so far (to 2026-12-05)" where it is not over and the
// question named it (found from outside: "revenue in December", asked on
// the 5th, answered for five days as if for the month). "This month" says
// so itself.
func (w writer) periodWords() string {
	pp := periodPhrase(w.in.Period)
	if pp != "" && w.in.SoFar != "" && !strings.HasPrefix(strings.ToLower(w.in.Period), "this ") {
		pp += " so far (to " + w.in.SoFar + ")"
	}
	return pp
}

// subject joins a title and the period phrase: "Revenue in 2025".
func (w writer) subject(title string) string {
	if pp := w.periodWords(); pp != "" {
		return title + " " + pp
	}
	return title
}

func (w writer) headline() (headline, derived string) {
	t := w.in.Table
	dims, nums := w.split()
	switch w.shape() {
	case ShapeEmpty:
		if pp := w.periodWords(); pp != "" {
			return "The query returned no rows " + pp + ".", ""
		}
		return "The query returned no rows.", ""
	case ShapeFigure:
		r := t.Rows[0]
		if len(nums) == 1 {
			if nums[0].index < len(r) && r[nums[0].index] == nil {
				// "Revenue was NULL in Q3 2026" said nothing of why: no
				// rows fall in the period, which may not have begun
				// (found from outside).
				label := w.bareTitle()
				if label == "" {
					label = humanize(nums[0].Name)
				}
				if pp := w.periodWords(); pp != "" {
					label += " " + pp
				}
				return capitalize(label) + " has no value: no rows were found to compute it from" + w.notBegun() + ".", ""
			}
			if s, ok := w.figure(nums[0], r); ok {
				return s, ""
			}
			// A verified query's title is often the question itself: answer
			// it ("How many customers do we have? **5,000**."), not "… was".
			if title := w.metricTitle(nums[0]); strings.HasSuffix(title, "?") {
				return title + " **" + w.fmtCell(nums[0], r) + "**.", ""
			}
			return w.subject(w.metricTitle(nums[0])) + " was **" + w.fmtCell(nums[0], r) + "**.", ""
		}
		parts := make([]string, len(nums))
		for i, n := range nums {
			parts[i] = humanize(n.Name) + " **" + w.fmtCell(n, r) + "**"
		}
		lead := capitalize(w.periodWords())
		if lead == "" {
			return capitalize(joinWords(parts)) + ".", ""
		}
		return lead + ": " + joinWords(parts) + ".", ""
	case ShapeRanking:
		return w.ranking(dims[0], firstMeasure(nums)), ""
	case ShapeShare:
		return w.share(dims[0], nums), ""
	case ShapeTrend:
		return w.trend(dims[0], firstMeasure(nums))
	case ShapeCompare:
		return w.compare(dims[0], firstMeasure(nums))
	}
	return w.list(dims), ""
}

// notBegun is ", and the period starts after <as of>" when the reading's
// period begins after the day the answer is as of; "" otherwise.
func (w writer) notBegun() string {
	rd := w.in.Reading
	if rd == nil || rd.Period == nil || rd.Period.From == "" || len(w.in.AsOf) < 10 || rd.Period.From <= w.in.AsOf[:10] {
		return ""
	}
	return "; the period starts after " + w.in.AsOf[:10]
}

func firstMeasure(nums []column) column {
	for _, n := range nums {
		if n.Role == RoleMetric {
			return n
		}
	}
	return nums[0]
}

// points are the rows with a number in column m, in result order.
type point struct {
	label string
	value float64
	text  string
	cell  any // the grouping's value
}

func (w writer) points(d, m column) []point {
	var ps []point
	for _, r := range w.in.Table.Rows {
		f, ok := quarry.Float(m.cell(r))
		if !ok {
			continue
		}
		// The rows with no value are a group, never "NULL" leading a
		// breakdown: "(no discount code) leads with 51,882"; by the
		// table a name column is of ("(no accompanist)", not "(no
		// name)").
		label := w.groupLabel(d, r)
		ps = append(ps, point{label: label, value: f, text: w.fmtCell(m, r), cell: d.cell(r)})
	}
	return ps
}

func (w writer) share(d column, nums []column) string {
	var sh, m column
	found := false
	for _, n := range nums {
		if n.Role == RoleShare && sh.Name == "" {
			sh = n
		} else if n.Role == RoleMetric && !found {
			m, found = n, true
		}
	}
	type row struct {
		label, share, value string
		f                   float64
	}
	var rows []row
	for _, r := range w.in.Table.Rows {
		f, ok := quarry.Float(sh.cell(r))
		if !ok {
			continue
		}
		x := row{label: w.groupLabel(d, r), share: w.fmtCell(sh, r), f: f}
		if found {
			x.value = w.fmtCell(m, r)
		}
		rows = append(rows, x)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].f > rows[j].f })
	what := strings.TrimSuffix(humanize(sh.Name), " share")
	if found {
		what = humanize(m.Name)
	}
	s := "Largest shares of " + what
	if pp := w.periodWords(); pp != "" {
		s += " " + pp
	}
	if len(rows) == 0 {
		return s + ": none, the share is NULL in every row."
	}
	n := min(3, len(rows))
	parts := make([]string, n)
	for i := range n {
		parts[i] = rows[i].label + " **" + rows[i].share + "**"
		if rows[i].value != "" {
			parts[i] += " (" + rows[i].value + ")"
		}
	}
	s += " by " + humanize(d.Name) + ": " + joinWords(parts)
	if len(rows) > n {
		s += "; " + plural(int64(len(rows)), "row") + " in all"
	}
	return s + "."
}

// change states the difference between two cells, marked as computed.
func (w writer) change(from, to float64, m column, between string) string {
	if strings.HasPrefix(between, "first") {
		between = "the " + between
	}
	if m.Format == FormatPercent {
		// "between last year (2025) and this year (2026)", never "the
		// last year" nor "the the same period".
		// One decimal, as the percents beside it are written (4.7%,
		// 4.1%: -0.6 points, not -0.5857).
		d := math.Round((to-from)*1000) / 10
		if d == 0 {
			d = 0
		}
		pts := strconv.FormatFloat(d, 'f', 1, 64)
		if d > 0 {
			pts = "+" + pts
		}
		return "Change between " + between + ", computed from those cells: " + pts + " percentage points."
	}
	s := "Change between " + between + ", computed from those cells: " + signed(to-from, m.Format, w.in.Currency)
	if from != 0 {
		s += " (" + signed((to-from)/math.Abs(from), FormatPercent, "") + ")"
	}
	return s + "."
}

func signed(f float64, format, currency string) string {
	s := Number(f, format, currency)
	if f > 0 && s != Number(0, format, currency) {
		return "+" + s
	}
	return s
}

func (w writer) list(dims []column) string {
	t := w.in.Table
	rows := plural(w.total, "row")
	if w.in.Truncated && w.in.TotalRows <= int64(len(t.Rows)) {
		rows = "more than " + plural(int64(len(t.Rows)), "row")
	}
	lead := "The query returned " + rows
	if pp := w.periodWords(); pp != "" {
		lead += " " + pp
	}
	// A result with a measure is stated as what it measures, as a first
	// answer is ("Orders by month and channel in 2025: 36 rows, …"),
	// with its highest figure.
	top := ""
	if _, nums := w.split(); len(dims) > 0 && len(nums) > 0 && w.title() != "" {
		if m := firstMeasure(nums); m.Role == RoleMetric {
			lead = w.subject(w.title()) + ": " + rows
			top = w.highest(dims, m)
		}
	}
	// A list of rows with a column that names them is named by it below,
	// not summed up by the span of its first date (the tickets' opening
	// dates, for "the last 2 tickets closed yesterday").
	named := false
	for _, x := range w.cols {
		named = named || x.Names && top == ""
	}
	for _, d := range dims {
		if d.time && !named {
			lo, hi := "", ""
			for _, r := range t.Rows {
				if d.cell(r) == nil {
					continue
				}
				v := w.fmtCell(d, r)
				if lo == "" || v < lo {
					lo = v
				}
				if v > hi {
					hi = v
				}
			}
			if lo != "" && lo != hi {
				return lead + ", from " + lo + " to " + hi + top + "."
			}
		}
	}
	c := w.cols[0]
	for _, d := range dims {
		if !d.time && !d.label {
			c = d
			break
		}
	}
	// A list of rows is named by the column that names them (the
	// entity's label, or its key), not by the first text column: a
	// ticket is "id 7839", not its priority.
	name := func(r []any) string { return w.fmtCell(c, r) }
	if c.Role == RoleDimension && !c.time {
		name = func(r []any) string { return w.groupLabel(c, r) }
	}
	for _, x := range w.cols {
		if x.Names && top == "" {
			c = x
			if first := w.firstNames(); x.numeric && first >= 0 {
				// A person listed by key, with a first and a last name
				// beside it: named by them ("Zara Murphy", not "id 5").
				name = func(r []any) string { return escapeMarkdown(w.cols[first].name(w.cols, r, w.in.Currency)) }
			} else if x.numeric {
				// A key is no quantity: "id 7839", as written.
				name = func(r []any) string {
					if v := x.cell(r); v != nil {
						return x.Name + " " + fmt.Sprint(v)
					}
					return w.fmtCell(x, r)
				}
			}
			break
		}
	}
	if top == "" {
		if s, ok := w.tiedList(c); ok {
			return s
		}
	}
	var vals []string
	seen := map[string]bool{}
	for _, r := range t.Rows {
		v := name(r)
		if !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
		if len(vals) == 3 {
			break
		}
	}
	if len(t.Rows) == 1 {
		return lead + ": " + vals[0] + top + "."
	}
	if len(vals) == 1 {
		return lead + ", all with " + c.Name + " " + vals[0] + top + "."
	}
	return lead + ", starting with " + joinWords(vals) + top + "."
}

// highest names the row with the largest value of m, by its groups:
// "; the highest is **1,234** (web, 2025-12)". Empty for one row.
func (w writer) highest(dims []column, m column) string {
	rows := w.in.Table.Rows
	if len(rows) < 2 {
		return ""
	}
	best, found := 0, false
	var bestV float64
	for i, r := range rows {
		if f, ok := quarry.Float(m.cell(r)); ok && (!found || f > bestV) {
			best, bestV, found = i, f, true
		}
	}
	if !found {
		return ""
	}
	var where []string
	for _, d := range dims {
		if l := w.groupLabel(d, rows[best]); (d.cell(rows[best]) != nil || !d.time) && !slices.Contains(where, l) {
			where = append(where, l)
		}
	}
	s := "; the highest is **" + w.fmtCell(m, rows[best]) + "**"
	if len(where) > 0 {
		s += " (" + strings.Join(where, ", ") + ")"
	}
	return s
}

// table renders at most PreviewRows rows as a Markdown table.
func (w writer) table() string {
	t := w.in.Table
	if t == nil || len(t.Columns) == 0 || len(t.Rows) == 0 {
		return ""
	}
	limit := w.in.PreviewRows
	if limit <= 0 {
		limit = DefaultPreviewRows
	}
	var b strings.Builder
	b.WriteString("|")
	for _, c := range w.cols {
		b.WriteString(" " + escapeCell(escapeMarkdown(c.Name)) + " |")
	}
	b.WriteString("\n|")
	for _, c := range w.cols {
		if c.numeric {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	shown := min(limit, len(t.Rows))
	for _, r := range t.Rows[:shown] {
		b.WriteString("|")
		for _, c := range w.cols {
			b.WriteString(" " + escapeCell(w.fmtCell(c, r)) + " |")
		}
		b.WriteString("\n")
	}
	switch more := w.total - int64(shown); {
	case w.in.Truncated && w.in.TotalRows <= int64(len(t.Rows)):
		cut := "the result was cut at " + plural(int64(len(t.Rows)), "row")
		if rest := int64(len(t.Rows) - shown); rest > 0 {
			b.WriteString("\n… " + plural(rest, "more row") + " read; " + cut + "\n")
		} else {
			b.WriteString("\n… " + cut + "\n")
		}
	case more > 0:
		b.WriteString("\n… " + strconv.FormatInt(more, 10) + " more " + pluralNoun(more, "row") + "\n")
	}
	return b.String()
}

// escapeCell keeps an escaped value on its table row.
func escapeCell(s string) string {
	s = strings.ReplaceAll(s, "\r\n", " ")
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "\r", " ")
}

func joinWords(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Rows says how many rows there are: "1 row", "96 rows".
func Rows(n int64) string { return plural(n, "row") }

func plural(n int64, noun string) string {
	return strconv.FormatInt(n, 10) + " " + pluralNoun(n, noun)
}

func pluralNoun(n int64, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

func stripBold(s string) string { return Unescape(strings.ReplaceAll(s, "**", "")) }
