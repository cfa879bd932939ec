package eval

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Default tolerances for comparing numbers: two numbers are equal when
// |a-b| <= max(AbsTolerance, RelTolerance*max(|a|, |b|)).
const (
	DefaultRelTolerance = 1e-6
	DefaultAbsTolerance = 1e-9
)

// CompareOptions say how two results are compared.
type CompareOptions struct {
	// Ordered compares rows in order; otherwise as multisets.
	Ordered bool
	// RelTolerance and AbsTolerance bound number differences; zero means
	// the defaults.
	RelTolerance float64
	AbsTolerance float64
	// ExtraColumns accepts a result with more columns than the gold when
	// some of its columns equal the gold exactly (a label next to a key,
	// a period next to its value). Spider's convention is false.
	ExtraColumns bool
}

// Match is the verdict of a comparison.
type Match struct {
	OK     bool   `json:"ok"`
	Reason Reason `json:"reason,omitempty"` // when !OK: wrong_result, wrong_row_count or wrong_columns
	Detail string `json:"detail,omitempty"`
	// Extra is the number of result columns beyond the gold's that were
	// ignored to find the match.
	Extra int `json:"extra,omitempty"`
}

// maxAssignments bounds the column permutations tried.
const maxAssignments = 20000

// Compare compares got (the system's result) with gold. Column names never
// matter; columns are matched by their values, so their order does not
// matter either (Spider's convention). 1 equals 1.0, and a number equals
// text that spells the same number.
func Compare(gold, got *quarry.Table, opts CompareOptions) Match {
	if opts.RelTolerance <= 0 {
		opts.RelTolerance = DefaultRelTolerance
	}
	if opts.AbsTolerance <= 0 {
		opts.AbsTolerance = DefaultAbsTolerance
	}
	t := tol{rel: opts.RelTolerance, abs: opts.AbsTolerance}
	g, s := cells(gold), cells(got)
	gw, sw := width(gold, g), width(got, s)
	switch {
	case sw < gw:
		return Match{Reason: ReasonWrongColumns, Detail: fmt.Sprintf("%d columns, want %d", sw, gw)}
	case sw > gw && !opts.ExtraColumns:
		return Match{Reason: ReasonWrongColumns, Detail: fmt.Sprintf("%d columns, want %d", sw, gw)}
	case len(s) != len(g):
		d := fmt.Sprintf("%d rows, want %d", len(s), len(g))
		if got.Truncated {
			d += " (the result was cut at the row cap)"
		}
		return Match{Reason: ReasonWrongRowCount, Detail: d}
	}
	// Which system columns hold the same multiset of values as each gold
	// column; only those can be its match.
	gcols, scols := columns(g, gw), columns(s, sw)
	for _, c := range gcols {
		slices.SortFunc(c, compareCell)
	}
	for _, c := range scols {
		slices.SortFunc(c, compareCell)
	}
	cands := make([][]int, gw)
	for j := range gw {
		for i := range sw {
			if t.equalSorted(gcols[j], scols[i]) {
				cands[j] = append(cands[j], i)
			}
		}
		if len(cands[j]) == 0 {
			name := ""
			if j < len(gold.Columns) {
				name = " (" + gold.Columns[j].Name + ")"
			}
			return Match{Reason: ReasonWrongResult, Detail: fmt.Sprintf("no result column holds the values of gold column %d%s", j+1, name)}
		}
	}
	// Prefer the identity, then try the other assignments.
	for j := range cands {
		slices.SortStableFunc(cands[j], func(a, b int) int {
			return cmp.Compare(abs(a-j), abs(b-j))
		})
	}
	gsorted := g
	if !opts.Ordered {
		gsorted = slices.Clone(g)
		slices.SortFunc(gsorted, compareRow)
	}
	assign := make([]int, gw)
	used := make([]bool, sw)
	tries := 0
	var found bool
	var try func(j int) bool
	try = func(j int) bool {
		if j == gw {
			tries++
			return t.rowsEqual(gsorted, project(s, assign), opts.Ordered)
		}
		for _, i := range cands[j] {
			if used[i] || tries >= maxAssignments {
				continue
			}
			used[i], assign[j] = true, i
			if try(j + 1) {
				return true
			}
			used[i] = false
		}
		return false
	}
	found = try(0)
	if found {
		return Match{OK: true, Extra: sw - gw}
	}
	d := "the rows differ"
	if opts.Ordered {
		d = "the rows differ or are in another order"
	}
	if tries >= maxAssignments {
		d += fmt.Sprintf(" (after %d column assignments)", tries)
	}
	return Match{Reason: ReasonWrongResult, Detail: d}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// cell is a normalised value. Numbers, booleans and text that spells a
// number are numeric (num set); other text is compared exactly.
type cell struct {
	kind  byte // kNull, kNum, kText
	num   float64
	text  string
	isNum bool // text that spells a number (kind kNum)
}

const (
	kNull byte = iota
	kNum
	kText
)

func norm(v any) cell {
	switch x := v.(type) {
	case nil:
		return cell{kind: kNull}
	case bool:
		if x {
			return cell{kind: kNum, num: 1}
		}
		return cell{kind: kNum, num: 0}
	case int64:
		return cell{kind: kNum, num: float64(x)}
	case int:
		return cell{kind: kNum, num: float64(x)}
	case int32:
		return cell{kind: kNum, num: float64(x)}
	case uint64:
		return cell{kind: kNum, num: float64(x)}
	case float64:
		return cell{kind: kNum, num: x}
	case float32:
		return cell{kind: kNum, num: float64(x)}
	case string:
		return textCell(x)
	case []byte:
		return textCell(string(x))
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return cell{kind: kText, text: x.Format(time.DateOnly)}
		}
		return cell{kind: kText, text: x.Format(time.DateTime)}
	default:
		return textCell(fmt.Sprint(x))
	}
}

// textCell reads text that spells a finite number as that number, and a
// month written YYYY-MM as its first day, YYYY-MM-01 (the same period).
func textCell(s string) cell {
	t := strings.TrimSpace(s)
	if isYearMonth(t) {
		return cell{kind: kText, text: t + "-01"}
	}
	if t != "" && len(t) < 40 && (t[0] == '-' || t[0] == '+' || t[0] == '.' || t[0] >= '0' && t[0] <= '9') {
		if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsInf(f, 0) {
			return cell{kind: kNum, num: f, text: s, isNum: true}
		}
	}
	return cell{kind: kText, text: s}
}

func isYearMonth(s string) bool {
	if len(s) != 7 || s[4] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && (c < '0' || c > '9') {
			return false
		}
	}
	return s[5] == '0' && s[6] >= '1' || s[5] == '1' && s[6] <= '2'
}

func cells(t *quarry.Table) [][]cell {
	if t == nil {
		return nil
	}
	out := make([][]cell, len(t.Rows))
	for i, r := range t.Rows {
		row := make([]cell, len(r))
		for j, v := range r {
			row[j] = norm(v)
		}
		out[i] = row
	}
	return out
}

func width(t *quarry.Table, rows [][]cell) int {
	if t != nil && len(t.Columns) > 0 {
		return len(t.Columns)
	}
	if len(rows) > 0 {
		return len(rows[0])
	}
	return 0
}

func columns(rows [][]cell, w int) [][]cell {
	out := make([][]cell, w)
	for j := range w {
		c := make([]cell, len(rows))
		for i, r := range rows {
			if j < len(r) {
				c[i] = r[j]
			}
		}
		out[j] = c
	}
	return out
}

func project(rows [][]cell, assign []int) [][]cell {
	out := make([][]cell, len(rows))
	for i, r := range rows {
		p := make([]cell, len(assign))
		for j, k := range assign {
			if k < len(r) {
				p[j] = r[k]
			}
		}
		out[i] = p
	}
	return out
}

// compareCell is a total order: null, numbers, text.
func compareCell(a, b cell) int {
	if c := cmp.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	switch a.kind {
	case kNum:
		return cmp.Compare(a.num, b.num)
	case kText:
		return strings.Compare(a.text, b.text)
	}
	return 0
}

func compareRow(a, b []cell) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareCell(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

type tol struct{ rel, abs float64 }

func (t tol) numEqual(a, b float64) bool {
	if a == b {
		return true
	}
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	d := math.Abs(a - b)
	return d <= t.abs || d <= t.rel*math.Max(math.Abs(a), math.Abs(b))
}

func (t tol) cellEqual(a, b cell) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kNum:
		if a.isNum && b.isNum && a.text == b.text {
			return true
		}
		return t.numEqual(a.num, b.num)
	case kText:
		return a.text == b.text
	}
	return true
}

func (t tol) rowEqual(a, b []cell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !t.cellEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// equalSorted compares two sorted columns cell by cell.
func (t tol) equalSorted(a, b []cell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !t.cellEqual(a[i], b[i]) {
			return t.equalGreedy(wrap(a), wrap(b))
		}
	}
	return true
}

func wrap(c []cell) [][]cell {
	out := make([][]cell, len(c))
	for i := range c {
		out[i] = c[i : i+1]
	}
	return out
}

// rowsEqual compares gold rows (already sorted unless ordered) with got.
func (t tol) rowsEqual(gold, got [][]cell, ordered bool) bool {
	if len(gold) != len(got) {
		return false
	}
	if !ordered {
		got = slices.Clone(got)
		slices.SortFunc(got, compareRow)
	}
	for i := range gold {
		if !t.rowEqual(gold[i], got[i]) {
			if ordered {
				return false
			}
			// Numbers within tolerance may sort apart; match greedily.
			return t.equalGreedy(gold, got)
		}
	}
	return true
}

// greedyLimit bounds the quadratic fallback match.
const greedyLimit = 5000

// equalGreedy matches each gold row with an unused equal row of got.
func (t tol) equalGreedy(gold, got [][]cell) bool {
	if len(gold) != len(got) || len(gold) > greedyLimit {
		return false
	}
	used := make([]bool, len(got))
	for _, g := range gold {
		ok := false
		for i, s := range got {
			if !used[i] && t.rowEqual(g, s) {
				used[i], ok = true, true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
