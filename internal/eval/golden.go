package eval

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/yamlnode"

	"github.com/quarrydata/quarry/internal/quarry"
)

// The outcomes a case may expect instead of an answer.
const (
	ExpectRefuse     = "refuse"
	ExpectClarify    = "clarify"
	ExpectUnanswered = "unanswered"
)

// Case is one golden question. Exactly one of SQL, Rows (HasRows) or
// Expect says what the correct outcome is.
type Case struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	// SQL is the gold query, run on the same connection as the system's.
	SQL string `json:"sql,omitempty"`
	// Rows are the expected rows, when there is no gold SQL.
	Rows    [][]any `json:"rows,omitempty"`
	HasRows bool    `json:"-"`
	// AsOf is the day the question is asked on; zero means the set's
	// default (or the runner's).
	AsOf time.Time `json:"as_of,omitzero"`
	// Ordered says whether row order matters; nil means "when the gold SQL
	// has a top-level ORDER BY" (and never for Rows).
	Ordered *bool `json:"ordered,omitempty"`
	// Expect is refuse, clarify or unanswered for a question whose correct
	// outcome is not an answer.
	Expect string `json:"expect,omitempty"`
	// Tolerance is the relative tolerance for numbers; 0 means the default.
	Tolerance float64 `json:"tolerance,omitempty"`
	// File and Line locate the case in its golden file.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// IsOrdered reports whether the case compares rows in order.
func (c *Case) IsOrdered() bool {
	if c.Ordered != nil {
		return *c.Ordered
	}
	return c.SQL != "" && HasTopLevelOrderBy(c.SQL)
}

// Set is a loaded golden file.
type Set struct {
	File        string    `json:"file"`
	Description string    `json:"description,omitempty"`
	AsOf        time.Time `json:"as_of,omitzero"` // default for cases without their own
	Tolerance   float64   `json:"tolerance,omitempty"`
	Cases       []Case    `json:"cases"`
}

// LoadFile reads and validates the golden file at path. Every problem is a
// KindConfig *quarry.Error whose message starts with "FILE:LINE:".
func LoadFile(path string) (*Set, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "cannot read golden file %s; check the path", path)
	}
	return Parse(path, src)
}

// Parse reads a golden set from src; name is used in messages.
func Parse(name string, src []byte) (*Set, error) {
	d := &gdec{file: name}
	set := d.decode(src)
	if len(d.errs) > 0 {
		msg := d.errs[0]
		if len(d.errs) > 1 {
			msg += fmt.Sprintf(" (and %d more problems)", len(d.errs)-1)
		}
		return nil, &quarry.Error{Kind: quarry.KindConfig, Msg: msg}
	}
	set.File = name
	return set, nil
}

// gdec decodes a golden file's YAML tree, collecting problems with lines.
type gdec struct {
	file string
	errs []string
}

func (d *gdec) errf(line int, format string, args ...any) {
	loc := d.file
	if line > 0 {
		loc += ":" + strconv.Itoa(line)
	}
	d.errs = append(d.errs, loc+": "+fmt.Sprintf(format, args...))
}

func (d *gdec) decode(src []byte) *Set {
	set := &Set{}
	yd := yamlnode.NewDecoder(d.file)
	body := yd.Parse(src)
	for _, p := range yd.Problems {
		d.errf(p.Line, "%s", p.Msg)
	}
	if yd.Broken {
		return set
	}
	if body == nil || yamlnode.IsNull(body) {
		d.errf(0, "the file is empty; write a cases: list")
		return set
	}
	casesSeen := false
	d.mapping(body, "the golden file", map[string]func(ast.Node){
		"description": func(v ast.Node) { set.Description = d.str(v, "description") },
		"as_of":       func(v ast.Node) { set.AsOf = d.date(v, "as_of") },
		"tolerance":   func(v ast.Node) { set.Tolerance = d.tolerance(v) },
		"cases": func(v ast.Node) {
			casesSeen = true
			s, ok := v.(*ast.SequenceNode)
			if !ok {
				d.errf(yamlnode.Line(v), "cases: want a list of cases (lines starting with \"- \")")
				return
			}
			for i, cv := range s.Values {
				set.Cases = append(set.Cases, d.caseOf(i, yamlnode.Unwrap(cv)))
			}
		},
	})
	if !casesSeen && len(d.errs) == 0 {
		d.errf(yamlnode.Line(body), "no cases: list; add one")
	}
	ids := map[string]int{}
	for i := range set.Cases {
		c := &set.Cases[i]
		c.File = d.file
		if c.ID == "" {
			c.ID = fmt.Sprintf("case-%d", i+1)
		}
		if prev, dup := ids[c.ID]; dup {
			d.errf(c.Line, "id %q is already used at line %d; give each case its own id", c.ID, prev)
		}
		ids[c.ID] = c.Line
	}
	return set
}

func (d *gdec) caseOf(i int, n ast.Node) Case {
	c := Case{Line: yamlnode.Line(n)}
	where := fmt.Sprintf("cases[%d]", i)
	ok := d.mapping(n, where, map[string]func(ast.Node){
		"id":       func(v ast.Node) { c.ID = strings.TrimSpace(d.str(v, "id")) },
		"question": func(v ast.Node) { c.Question = strings.TrimSpace(d.str(v, "question")) },
		"sql":      func(v ast.Node) { c.SQL = strings.TrimSpace(d.str(v, "sql")) },
		"rows":     func(v ast.Node) { c.Rows, c.HasRows = d.rows(v), true },
		"as_of":    func(v ast.Node) { c.AsOf = d.date(v, "as_of") },
		"ordered": func(v ast.Node) {
			b, isBool := v.(*ast.BoolNode)
			if !isBool {
				d.errf(yamlnode.Line(v), "ordered: want true or false")
				return
			}
			c.Ordered = &b.Value
		},
		"expect": func(v ast.Node) {
			c.Expect = strings.TrimSpace(d.str(v, "expect"))
			switch c.Expect {
			case ExpectRefuse, ExpectClarify, ExpectUnanswered:
			default:
				d.errf(yamlnode.Line(v), "expect: %q is not an outcome; use refuse, clarify or unanswered", c.Expect)
			}
		},
		"tolerance": func(v ast.Node) { c.Tolerance = d.tolerance(v) },
	})
	if !ok {
		return c
	}
	label := where
	if c.ID != "" {
		label = fmt.Sprintf("case %q", c.ID)
	}
	n2 := 0
	for _, set := range []bool{c.SQL != "", c.HasRows, c.Expect != ""} {
		if set {
			n2++
		}
	}
	switch {
	case c.Question == "":
		d.errf(c.Line, "%s has no question; add question:", label)
	case n2 == 0:
		d.errf(c.Line, "%s says nothing about the correct outcome; add sql:, rows: or expect:", label)
	case n2 > 1:
		d.errf(c.Line, "%s has more than one of sql:, rows: and expect:; keep one", label)
	}
	return c
}

// mapping calls fields[key] for each entry of the mapping n, rejecting
// unknown and duplicate keys. It reports whether n was a mapping.
func (d *gdec) mapping(n ast.Node, what string, fields map[string]func(ast.Node)) bool {
	var entries []*ast.MappingValueNode
	switch x := n.(type) {
	case *ast.MappingNode:
		entries = x.Values
	case *ast.MappingValueNode:
		entries = []*ast.MappingValueNode{x}
	default:
		d.errf(yamlnode.Line(n), "%s: want a mapping of key: value", what)
		return false
	}
	seen := map[string]bool{}
	for _, e := range entries {
		key := e.Key.GetToken().Value
		if seen[key] {
			d.errf(yamlnode.Line(e.Key), "duplicate key %q; keep one", key)
			continue
		}
		seen[key] = true
		set, ok := fields[key]
		if !ok {
			known := make([]string, 0, len(fields))
			for k := range fields {
				known = append(known, k)
			}
			slices.Sort(known)
			d.errf(yamlnode.Line(e.Key), "unknown field %q in %s; known fields: %s", key, what, strings.Join(known, ", "))
			continue
		}
		set(yamlnode.Unwrap(e.Value))
	}
	return true
}

func (d *gdec) str(n ast.Node, field string) string {
	switch x := n.(type) {
	case nil, *ast.NullNode:
		return ""
	case *ast.StringNode:
		return x.Value
	case *ast.LiteralNode:
		if x.Value != nil {
			return x.Value.Value
		}
		return ""
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return x.GetToken().Value
	}
	d.errf(yamlnode.Line(n), "%s: want text", field)
	return ""
}

func (d *gdec) date(n ast.Node, field string) time.Time {
	s := strings.TrimSpace(d.str(n, field))
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		d.errf(yamlnode.Line(n), "%s: %q is not a date; write YYYY-MM-DD", field, s)
	}
	return t
}

func (d *gdec) tolerance(n ast.Node) float64 {
	v, ok := scalar(n)
	if str, isStr := v.(string); isStr {
		if x, err := strconv.ParseFloat(strings.TrimSpace(str), 64); err == nil {
			v = x
		}
	}
	f, isNum := toFloat(v)
	if !ok || !isNum || f < 0 || f >= 1 || math.IsNaN(f) {
		d.errf(yamlnode.Line(n), "tolerance: want a relative tolerance between 0 and 1, such as 1e-6")
		return 0
	}
	return f
}

func (d *gdec) rows(n ast.Node) [][]any {
	s, ok := n.(*ast.SequenceNode)
	if !ok {
		if yamlnode.IsNull(n) {
			return [][]any{}
		}
		d.errf(yamlnode.Line(n), "rows: want a list of rows, each a list of values: [[1, \"a\"], [2, \"b\"]]")
		return nil
	}
	out := make([][]any, 0, len(s.Values))
	for _, rv := range s.Values {
		rv = yamlnode.Unwrap(rv)
		rs, ok := rv.(*ast.SequenceNode)
		if !ok {
			d.errf(yamlnode.Line(rv), "rows: each row is a list of values, such as [1, \"a\"]")
			continue
		}
		row := make([]any, 0, len(rs.Values))
		for _, cv := range rs.Values {
			v, ok := scalar(yamlnode.Unwrap(cv))
			if !ok {
				d.errf(yamlnode.Line(cv), "rows: a value must be a number, text, true/false or null")
			}
			row = append(row, v)
		}
		out = append(out, row)
	}
	return out
}

// scalar converts a YAML scalar node to a cell value.
func scalar(n ast.Node) (any, bool) {
	switch x := n.(type) {
	case nil, *ast.NullNode:
		return nil, true
	case *ast.StringNode:
		return x.Value, true
	case *ast.LiteralNode:
		if x.Value != nil {
			return x.Value.Value, true
		}
		return "", true
	case *ast.IntegerNode:
		switch v := x.Value.(type) {
		case int64:
			return v, true
		case uint64:
			if v <= math.MaxInt64 {
				return int64(v), true
			}
			return float64(v), true
		}
		return x.GetToken().Value, true
	case *ast.FloatNode:
		return x.Value, true
	case *ast.BoolNode:
		return x.Value, true
	case *ast.InfinityNode:
		return x.Value, true
	case *ast.NanNode:
		return math.NaN(), true
	}
	return nil, false
}

// HasTopLevelOrderBy reports whether sql has an ORDER BY outside every
// parenthesis (so not one inside a subquery or a window), skipping
// literals, quoted names and comments.
func HasTopLevelOrderBy(sql string) bool {
	depth := 0
	prevOrder := false
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := c
			if c == '[' {
				end = ']'
			}
			j := i + 1
			for j < len(sql) {
				if sql[j] == end {
					if end != ']' && j+1 < len(sql) && sql[j+1] == end {
						j += 2
						continue
					}
					break
				}
				j++
			}
			i = j + 1
			prevOrder = false
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				return false
			}
			i += j + 4
		case c == '(':
			depth++
			i++
			prevOrder = false
		case c == ')':
			depth--
			i++
			prevOrder = false
		case isWordByte(c):
			j := i
			for j < len(sql) && isWordByte(sql[j]) {
				j++
			}
			w := strings.ToUpper(sql[i:j])
			if depth == 0 && prevOrder && w == "BY" {
				return true
			}
			prevOrder = w == "ORDER"
			i = j
		default:
			i++
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
