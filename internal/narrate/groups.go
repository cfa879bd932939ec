package narrate

import (
	"fmt"
	"github.com/quarrydata/quarry/internal/verify"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// maxKnownGroups bounds the values a reading lists for a grouping: past
// it, the knowledge's list is no list a reader checks by eye.
const maxKnownGroups = 50

// knownGroups are the values the knowledge lists for the one grouping of
// a count or a sum that lists every group (no limit, no filter on the
// grouping itself): the values the answer must account for, since a group
// with nothing to count has no row. Nil when there is no such list.
func knownGroups(m *semantic.Model, q *semantic.Query) []string {
	dims := q.Dimensions
	if len(dims) == 2 {
		// A table's rows, grouped by its key and shown by its name
		// ("doctors per department": found from outside, Neurology with
		// none went unsaid at 1.00).
		dims = nameOfKeyed(m, dims)
	}
	if len(dims) != 1 || q.Limit > 0 || len(q.Compare) > 0 || dims[0].Grain != "" || len(q.Metrics) == 0 {
		return nil
	}
	if tr := q.TimeRange; tr != nil && tr.From == "" {
		// Rows up to a day, as the analyst bounds them where some are
		// dated ahead ("staff by status": those who start next year
		// are left out), not a period the groups are asked in: a group
		// with none up to then may have rows (found from outside:
		// offer_accepted said to have none).
		return nil
	}
	d := dims[0].Name
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil || !mt.Additive() {
			return nil
		}
	}
	f, err := m.ResolveField(d)
	if err != nil {
		return nil
	}
	var vals []string
	col := d
	switch f.Kind {
	case semantic.FieldDimension:
		vals = f.Dimension.Values
		col = f.Dimension.Expr
	case semantic.FieldColumn:
		vals = f.Column.Values
		col = f.Entity.Name + "." + f.Column.Name
	}
	if len(vals) == 0 || len(vals) > maxKnownGroups {
		return nil
	}
	for _, g := range q.Filters {
		// "orders from Germany vs France by country": the filter picks
		// the groups.
		if strings.EqualFold(g.Field, d) || strings.EqualFold(g.Field, col) || strings.EqualFold(columnOf(m, g.Field), col) {
			return nil
		}
		// "countries with more than 500 customers": a condition on a
		// measure (HAVING) drops groups that have rows; only conditions
		// on the rows themselves leave a group with nothing to count.
		if m.Metric(g.Field) != nil || g.Count || g.Against != "" {
			return nil
		}
		if _, err := m.ResolveField(g.Field); err != nil {
			return nil
		}
		gf, ok := m.ColumnField(g.Field)
		// "visits per vet at Spa Town": a condition on another table
		// (the vet's clinic) may pick the groups; only one on the
		// measured rows leaves a group with nothing to count (found
		// from outside: the other clinics' vets said to have none).
		if !ok || !measures(m, q.Metrics, gf.Entity.Name) {
			return nil
		}
	}
	return vals
}

// measures reports whether every metric named is over entity's rows.
func measures(m *semantic.Model, metrics []string, entity string) bool {
	for _, name := range metrics {
		if mt := m.Metric(name); mt == nil || !strings.EqualFold(mt.Entity, entity) {
			return false
		}
	}
	return true
}

// nameOfKeyed is, of two groupings that are one table's key and another
// column of it, the other one; dims itself otherwise.
func nameOfKeyed(m *semantic.Model, dims []semantic.DimRef) []semantic.DimRef {
	for k := range 2 {
		key, err1 := m.ResolveField(dims[k].Name)
		other, err2 := m.ResolveField(dims[1-k].Name)
		if err1 != nil || err2 != nil || key.Kind != semantic.FieldColumn || other.Kind != semantic.FieldColumn || key.Entity != other.Entity || dims[k].Grain != "" {
			continue
		}
		if strings.EqualFold(key.Entity.PrimaryKey, key.Column.Name) {
			return dims[1-k : 2-k]
		}
	}
	return dims
}

// missingGroups says which of the grouping's known values have no row:
// "Toys has none (0): a group with nothing to count has no row …". Empty when every known
// value has a row, or the reading lists none.
func (w writer) missingGroups(dims []column) string {
	rd := w.in.Reading
	if rd == nil || len(rd.KnownGroups) == 0 || len(dims) != 1 || w.in.Truncated || w.in.Table == nil {
		return ""
	}
	d := dims[0]
	have := map[string]bool{}
	for _, r := range w.in.Table.Rows {
		if v := d.cell(r); v != nil {
			// As shown and as stored: a year 2014 may be shown 2,014.
			have[strings.ToLower(strings.TrimSpace(d.text(r, w.in.Currency)))] = true
			have[strings.ToLower(strings.TrimSpace(fmt.Sprint(quarry.JSONValue(v))))] = true
		}
	}
	var missing []string
	for _, v := range rd.KnownGroups {
		if !have[strings.ToLower(strings.TrimSpace(v))] {
			missing = append(missing, escapeMarkdown(v))
		}
	}
	if len(missing) == 0 {
		return ""
	}
	names := joinWords(missing[:min(len(missing), 8)])
	if len(missing) > 8 {
		names = strings.Join(missing[:8], ", ") + " and " + plural(int64(len(missing)-8), "other")
	}
	verb := "has"
	if len(missing) > 1 {
		verb = "have"
	}
	return names + " " + verb + " none (0): a group with nothing to count has no row of " + d.Name + " in the list."
}

// tie states a ranking whose first place is shared: "Customer Support
// and Engineering tie with **15** each." Either the query kept every tied
// row (the reading says so, and every row has the same figure), or it
// kept one and the ties check found the others (AnswerInput.Tied): then
// the sentence names them too, and says the table shows the first.
func (w writer) tie(subj string, ps []point) (string, bool) {
	if len(ps) == 1 && unnamed(w.in.Tied) {
		return subj + ": " + ps[0].label + ", **" + ps[0].text + "**, a tie — " + w.in.Tied[0] + " have **" + ps[0].text + "** too; the limit of 1 shows one.", true
	}
	if len(ps) == 1 && len(w.in.Tied) > 0 {
		names := append([]string{ps[0].label}, w.in.Tied...)
		return subj + ": a tie — " + joinWords(names) + " have **" + ps[0].text + "** each; the limit of 1 shows " + ps[0].label + " alone.", true
	}
	rd := w.in.Reading
	if rd == nil || !rd.Ties || len(ps) < 2 {
		return "", false
	}
	labels := make([]string, len(ps))
	for i, p := range ps {
		if p.value != ps[0].value {
			return "", false
		}
		labels[i] = p.label
	}
	return subj + ": a tie — " + joinWords(labels) + " have **" + ps[0].text + "** each.", true
}

// tiedList states a one-row answer whose first place is shared, where the
// measure is not shown: "A tie: Customer Support and Engineering share the
// first place."
func (w writer) tiedList(c column) (string, bool) {
	t := w.in.Table
	if t == nil || w.in.Truncated || len(t.Rows) == 0 {
		return "", false
	}
	if len(t.Rows) == 1 && unnamed(w.in.Tied) {
		verb := " share"
		if w.in.Tied[0] == "another row" {
			verb = " shares"
		}
		return "A tie: " + w.in.Tied[0] + verb + " the first place with the one shown" + periodSuffix(w.in.Period) + "; the limit of 1 shows one.", true
	}
	if len(t.Rows) == 1 && len(w.in.Tied) > 0 {
		first := w.fmtCell(c, t.Rows[0])
		return "A tie: " + joinWords(append([]string{first}, w.in.Tied...)) + " share the first place" + periodSuffix(w.in.Period) + "; the limit of 1 shows " + first + " alone.", true
	}
	rd := w.in.Reading
	if rd == nil || !rd.Ties || len(t.Rows) < 2 || len(t.Rows) > 10 {
		return "", false
	}
	vals := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		vals[i] = w.fmtCell(c, r)
	}
	return "A tie: " + joinWords(vals) + " share the first place" + periodSuffix(w.in.Period) + ".", true
}

// tiedNote says, for a ranking of several rows, which rows past its limit
// tie the last one shown: "Sales ties the last row shown, beyond the limit
// of 3." Empty when none do or one row is shown (tie says it then).
func (w writer) tiedNote() string {
	t := w.in.Table
	if len(w.in.Tied) == 0 || t == nil || len(t.Rows) < 2 {
		return ""
	}
	verb := "ties"
	if len(w.in.Tied) > 1 {
		verb = "tie"
	}
	return joinWords(w.in.Tied) + " " + verb + " the last row shown, beyond the limit of " + plural(int64(len(t.Rows)), "row") + "."
}

func periodSuffix(p string) string {
	if pp := periodPhrase(p); pp != "" {
		return " " + pp
	}
	return ""
}

// notes adds to the sentence after the headline what the rows alone do
// not say: the known groups with no row, the rows past a limit that tie
// its last.
func (w writer) notes(derived string) string {
	if w.shape() == ShapeEmpty {
		return derived
	}
	dims, _ := w.split()
	for _, s := range []string{w.missingGroups(dims), w.unlisted(), w.tiedNote(), w.sameNameNote()} {
		if s != "" {
			derived = strings.TrimSpace(derived + " " + s)
		}
	}
	return derived
}

// checkSameName is the analyst's check that a row picked by its name is
// one row (analyst.CheckSameName).
const checkSameName = "same_name"

// sameNameNote says, where that check warns, that several rows share the
// name the answer picked (found from outside: "how many enrollments does
// Maria Lopez have" headlined 10, two students' together, and only the
// checks' list said so).
func (w writer) sameNameNote() string {
	for _, c := range w.in.Report.Checks {
		if c.Name != checkSameName || c.Status != verify.Warn {
			continue
		}
		head, _, ok := strings.Cut(c.Detail, " (")
		if !ok || !strings.Contains(head, " are named ") {
			return ""
		}
		return capitalize(head) + ": the answer takes them together."
	}
	return ""
}

// unnamed reports whether the tied rows are only counted ("37 other
// rows"): the rows have nothing the check could name them by.
func unnamed(tied []string) bool {
	return len(tied) == 1 && (tied[0] == "another row" || strings.HasSuffix(tied[0], " other rows"))
}

// unlisted says, for a breakdown over a period or a filter whose groups
// the knowledge does not list (customers, cities), that the groups with
// nothing to count are not in it: "Only groups with at least one orders
// row are listed." — so that "1,736 rows" never reads as every customer.
func (w writer) unlisted() string {
	rd := w.in.Reading
	if rd == nil || rd.Population == "" || len(rd.KnownGroups) > 0 || rd.Order != "" || rd.Period == nil && len(rd.Filters) == 0 {
		return ""
	}
	return capitalize(rd.Population) + "."
}
