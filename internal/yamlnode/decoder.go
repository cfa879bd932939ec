package yamlnode

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/quarrydata/quarry/internal/suggest"
)

// Problem is one thing wrong in a YAML file: where it is and what to
// change.
type Problem struct {
	File string `json:"file"` // relative to the folder it is in, e.g. "metrics.yaml"
	Line int    `json:"line"` // 1-based; 0 when the problem concerns the whole file
	Path string `json:"path"` // the field, e.g. "metrics[2].entity"; may be empty
	Msg  string `json:"msg"`
}

// Format renders the problem as "DIR/FILE:LINE: PATH: MSG".
func (p Problem) Format(dir string) string {
	var b strings.Builder
	b.WriteString(JoinDisplay(dir, p.File))
	if p.Line > 0 {
		b.WriteString(":" + strconv.Itoa(p.Line))
	}
	b.WriteString(": ")
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// JoinDisplay is file as shown from where the user stands: dir/file, or file
// alone when dir is the current folder.
func JoinDisplay(dir, file string) string {
	if dir == "" || dir == "." {
		return file
	}
	return strings.TrimSuffix(dir, "/") + "/" + file
}

// Decoder walks the AST of one YAML file, collecting problems and the line
// of every field it visits (keyed by its path) instead of stopping at the
// first error.
type Decoder struct {
	File     string
	Problems []Problem
	Broken   bool // the file could not be parsed at all
	Lines    map[string]int
}

// NewDecoder starts decoding file (its name in messages).
func NewDecoder(file string) *Decoder {
	return &Decoder{File: file, Lines: map[string]int{}}
}

// Errf records a problem at line (0: the whole file) under path.
func (d *Decoder) Errf(line int, path, format string, args ...any) {
	d.Problems = append(d.Problems, Problem{File: d.File, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// LineOf returns the line recorded for path, or for its nearest parent.
func (d *Decoder) LineOf(path string) int { return LineIn(d.Lines, path) }

// LineIn returns the line lines records for path, or for its nearest
// parent; 0 when none.
func LineIn(lines map[string]int, path string) int {
	for path != "" {
		if l, ok := lines[path]; ok {
			return l
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0
}

// Parse parses src and returns the body of its single document, or nil
// when the file is empty. A leading UTF-8 byte order mark is dropped and
// CRLF line breaks are read as LF (Normalize), as YAML says, so that a
// file saved on Windows decodes to the same values and line numbers.
func (d *Decoder) Parse(src []byte) ast.Node {
	f, err := parser.ParseBytes(Normalize(src), 0)
	if err != nil {
		line, msg := 0, err.Error()
		var ye interface {
			GetToken() *token.Token
			GetMessage() string
		}
		if errors.As(err, &ye) {
			msg = ye.GetMessage()
			if tk := ye.GetToken(); tk != nil && tk.Position != nil {
				line = tk.Position.Line
			}
		}
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		d.Errf(line, "", "invalid YAML: %s", msg)
		d.Broken = true
		return nil
	}
	var bodies []ast.Node
	for _, doc := range f.Docs {
		if doc != nil && doc.Body != nil {
			bodies = append(bodies, doc.Body)
		}
	}
	switch len(bodies) {
	case 0:
		return nil
	case 1:
		return Unwrap(bodies[0])
	default:
		d.Errf(Line(bodies[1]), "", "the file holds %d YAML documents; keep one (remove the extra ---)", len(bodies))
		return Unwrap(bodies[0])
	}
}

// bom is the UTF-8 byte order mark.
var bom = []byte{0xEF, 0xBB, 0xBF}

// Normalize returns src without a leading UTF-8 byte order mark and with
// every CRLF line break written as LF: YAML reads both as a line break,
// and the parser counts lines and keeps block scalars right only for LF.
// The number of lines is unchanged. src itself is not modified.
func Normalize(src []byte) []byte {
	src = bytes.TrimPrefix(src, bom)
	if bytes.Contains(src, []byte("\r\n")) {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	return src
}

// Field is one allowed key of a mapping and what to do with its value.
type Field struct {
	Key string
	Set func(v ast.Node, path string)
}

// Mapping decodes the mapping n, rejecting unknown and duplicate keys with
// a suggestion. It reports whether n was a mapping.
func (d *Decoder) Mapping(n ast.Node, path, what string, fields []Field) bool {
	n = Unwrap(n)
	var entries []*ast.MappingValueNode
	switch x := n.(type) {
	case *ast.MappingNode:
		entries = x.Values
	case *ast.MappingValueNode:
		entries = []*ast.MappingValueNode{x}
	default:
		d.Errf(Line(n), path, "want %s (a mapping of key: value), found %s", what, Describe(n))
		return false
	}
	d.Lines[path] = Line(n)
	known := make([]string, len(fields))
	for i, f := range fields {
		known[i] = f.Key
	}
	seen := map[string]bool{}
	for _, e := range entries {
		key := Scalar(e.Key)
		kl := Line(e.Key)
		sub := JoinPath(path, key)
		if seen[key] {
			d.Errf(kl, sub, "duplicate key %q; keep one", key)
			continue
		}
		seen[key] = true
		var set func(ast.Node, string)
		for _, f := range fields {
			if f.Key == key {
				set = f.Set
				break
			}
		}
		if set == nil {
			d.Errf(kl, sub, "unknown field %q%s; known fields: %s", key, DidYouMean(key, known), strings.Join(known, ", "))
			continue
		}
		d.Lines[sub] = kl
		set(Unwrap(e.Value), sub)
	}
	return true
}

// JoinPath is the path of key under path ("a.b").
func JoinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Seq calls each for every item of the sequence n; null is an empty list.
func (d *Decoder) Seq(n ast.Node, path, what string, each func(i int, v ast.Node, path string)) {
	n = Unwrap(n)
	if IsNull(n) {
		return
	}
	s, ok := n.(*ast.SequenceNode)
	if !ok {
		d.Errf(Line(n), path, "want a list of %s (lines starting with \"- \"), found %s", what, Describe(n))
		return
	}
	for i, v := range s.Values {
		p := fmt.Sprintf("%s[%d]", path, i)
		v = Unwrap(v)
		l := Line(v)
		if l == 0 && i < len(s.Entries) && s.Entries[i] != nil {
			l = Line(s.Entries[i])
		}
		d.Lines[p] = l
		each(i, v, p)
	}
}

// Str reads a scalar as text (numbers and booleans as written); null is "".
func (d *Decoder) Str(n ast.Node, path string) string {
	n = Unwrap(n)
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
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return x.GetToken().Value
	}
	d.Errf(Line(n), path, "want a text value, found %s", Describe(n))
	return ""
}

// Strs reads a list of non-empty text values.
func (d *Decoder) Strs(n ast.Node, path string) []string {
	var out []string
	d.Seq(n, path, "text values", func(_ int, v ast.Node, p string) {
		s := d.Str(v, p)
		if strings.TrimSpace(s) == "" {
			d.Errf(Line(v), p, "empty entry; remove it or write a value")
			return
		}
		out = append(out, s)
	})
	return out
}

// Integer reads a whole number; null is 0.
func (d *Decoder) Integer(n ast.Node, path string) int64 {
	n = Unwrap(n)
	if IsNull(n) {
		return 0
	}
	if x, ok := n.(*ast.IntegerNode); ok {
		if v, err := strconv.ParseInt(strings.ReplaceAll(x.GetToken().Value, "_", ""), 0, 64); err == nil {
			return v
		}
	}
	d.Errf(Line(n), path, "want a whole number, found %s", Describe(n))
	return 0
}

// Scalar is the text of a scalar node or mapping key ("" for none).
func Scalar(n ast.Node) string {
	if n == nil {
		return ""
	}
	if k, ok := n.(*ast.MappingKeyNode); ok {
		return Scalar(k.Value)
	}
	switch x := Unwrap(n).(type) {
	case *ast.StringNode:
		return x.Value
	case nil:
		return ""
	default:
		return x.GetToken().Value
	}
}

// Describe names what a node is, for "want X, found Y" messages.
func Describe(n ast.Node) string {
	switch x := Unwrap(n).(type) {
	case nil, *ast.NullNode:
		return "nothing"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.AliasNode:
		return "an alias (aliases are not supported here)"
	case *ast.StringNode:
		return fmt.Sprintf("%q", x.Value)
	default:
		return fmt.Sprintf("%q", x.GetToken().Value)
	}
}

// DidYouMean returns ` (did you mean "x"?)` for the closest known word, or
// "" when none is close.
func DidYouMean(word string, known []string) string {
	best, bestD := suggest.Closest(word, known)
	limit := len(word) / 3
	if limit < 2 {
		limit = 2
	}
	if best == "" || bestD > limit || (bestD == 0 && best == word) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// Closest returns up to n names of known ordered by closeness to word
// (ties keep known's order).
func Closest(word string, known []string, n int) []string {
	type scored struct {
		s string
		d int
		i int
	}
	all := make([]scored, len(known))
	for i, k := range known {
		d := suggest.Distance(word, k)
		if strings.HasPrefix(strings.ToLower(k), strings.ToLower(word)) || strings.HasPrefix(strings.ToLower(word), strings.ToLower(k)) {
			d = 0
		}
		all[i] = scored{k, d, i}
	}
	sort.SliceStable(all, func(a, b int) bool {
		if all[a].d != all[b].d {
			return all[a].d < all[b].d
		}
		return all[a].i < all[b].i
	})
	var out []string
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].s)
	}
	return out
}

// KnownList lists the known names closest to word, for "known: …" messages.
func KnownList(word string, known []string) string {
	if len(known) == 0 {
		return "none defined"
	}
	c := Closest(word, known, 8)
	s := strings.Join(c, ", ")
	if len(known) > len(c) {
		s += fmt.Sprintf(", … (%d in all)", len(known))
	}
	return s
}
