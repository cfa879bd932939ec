package knowledge

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	"github.com/quarrydata/quarry/internal/yamlnode"

	"github.com/quarrydata/quarry/internal/suggest"
)

// Problem is one thing wrong in a knowledge file: where it is and what to
// change.
type Problem struct {
	File string `json:"file"` // relative to the knowledge folder, e.g. "metrics.yaml"
	Line int    `json:"line"` // 1-based; 0 when the problem concerns the whole file
	Path string `json:"path"` // the field, e.g. "metrics[2].entity"; may be empty
	Msg  string `json:"msg"`
}

// Format renders the problem as "DIR/FILE:LINE: PATH: MSG".
func (p Problem) Format(dir string) string {
	var b strings.Builder
	b.WriteString(joinDisplay(dir, p.File))
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

func joinDisplay(dir, file string) string {
	if dir == "" || dir == "." {
		return file
	}
	return strings.TrimSuffix(dir, "/") + "/" + file
}

// decoder walks the AST of one YAML file, collecting problems and the line
// of every field it visits (keyed by its path) instead of stopping at the
// first error.
type decoder struct {
	file     string
	problems []Problem
	broken   bool // the file could not be parsed at all
	lines    map[string]int
}

func newDecoder(file string) *decoder {
	return &decoder{file: file, lines: map[string]int{}}
}

func (d *decoder) errf(line int, path, format string, args ...any) {
	d.problems = append(d.problems, Problem{File: d.file, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// line returns the line recorded for path, or for its nearest parent.
func (d *decoder) line(path string) int {
	for path != "" {
		if l, ok := d.lines[path]; ok {
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

// parse parses src and returns the body of its single document, or nil
// when the file is empty.
func (d *decoder) parse(src []byte) ast.Node {
	f, err := parser.ParseBytes(src, 0)
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
		d.errf(line, "", "invalid YAML: %s", msg)
		d.broken = true
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
		return yamlnode.Unwrap(bodies[0])
	default:
		d.errf(yamlnode.Line(bodies[1]), "", "the file holds %d YAML documents; keep one (remove the extra ---)", len(bodies))
		return yamlnode.Unwrap(bodies[0])
	}
}

// field is one allowed key of a mapping and what to do with its value.
type field struct {
	key string
	set func(v ast.Node, path string)
}

// mapping decodes the mapping n, rejecting unknown and duplicate keys with
// a suggestion. It reports whether n was a mapping.
func (d *decoder) mapping(n ast.Node, path, what string, fields []field) bool {
	n = yamlnode.Unwrap(n)
	var entries []*ast.MappingValueNode
	switch x := n.(type) {
	case *ast.MappingNode:
		entries = x.Values
	case *ast.MappingValueNode:
		entries = []*ast.MappingValueNode{x}
	default:
		d.errf(yamlnode.Line(n), path, "want %s (a mapping of key: value), found %s", what, describe(n))
		return false
	}
	d.lines[path] = yamlnode.Line(n)
	known := make([]string, len(fields))
	for i, f := range fields {
		known[i] = f.key
	}
	seen := map[string]bool{}
	for _, e := range entries {
		key := scalarText(e.Key)
		kl := yamlnode.Line(e.Key)
		sub := joinPath(path, key)
		if seen[key] {
			d.errf(kl, sub, "duplicate key %q; keep one", key)
			continue
		}
		seen[key] = true
		var set func(ast.Node, string)
		for _, f := range fields {
			if f.key == key {
				set = f.set
				break
			}
		}
		if set == nil {
			d.errf(kl, sub, "unknown field %q%s; known fields: %s", key, didYouMean(key, known), strings.Join(known, ", "))
			continue
		}
		d.lines[sub] = kl
		set(yamlnode.Unwrap(e.Value), sub)
	}
	return true
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// seq calls each for every item of the sequence n; null is an empty list.
func (d *decoder) seq(n ast.Node, path, what string, each func(i int, v ast.Node, path string)) {
	n = yamlnode.Unwrap(n)
	if yamlnode.IsNull(n) {
		return
	}
	s, ok := n.(*ast.SequenceNode)
	if !ok {
		d.errf(yamlnode.Line(n), path, "want a list of %s (lines starting with \"- \"), found %s", what, describe(n))
		return
	}
	for i, v := range s.Values {
		p := fmt.Sprintf("%s[%d]", path, i)
		v = yamlnode.Unwrap(v)
		l := yamlnode.Line(v)
		if l == 0 && i < len(s.Entries) && s.Entries[i] != nil {
			l = yamlnode.Line(s.Entries[i])
		}
		d.lines[p] = l
		each(i, v, p)
	}
}

func (d *decoder) str(n ast.Node, path string) string {
	n = yamlnode.Unwrap(n)
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
	d.errf(yamlnode.Line(n), path, "want a text value, found %s", describe(n))
	return ""
}

func (d *decoder) strs(n ast.Node, path string) []string {
	var out []string
	d.seq(n, path, "text values", func(_ int, v ast.Node, p string) {
		s := d.str(v, p)
		if strings.TrimSpace(s) == "" {
			d.errf(yamlnode.Line(v), p, "empty entry; remove it or write a value")
			return
		}
		out = append(out, s)
	})
	return out
}

func (d *decoder) integer(n ast.Node, path string) int64 {
	n = yamlnode.Unwrap(n)
	if yamlnode.IsNull(n) {
		return 0
	}
	if x, ok := n.(*ast.IntegerNode); ok {
		if v, err := strconv.ParseInt(strings.ReplaceAll(x.GetToken().Value, "_", ""), 0, 64); err == nil {
			return v
		}
	}
	d.errf(yamlnode.Line(n), path, "want a whole number, found %s", describe(n))
	return 0
}

func scalarText(n ast.Node) string {
	if n == nil {
		return ""
	}
	if k, ok := n.(*ast.MappingKeyNode); ok {
		return scalarText(k.Value)
	}
	switch x := yamlnode.Unwrap(n).(type) {
	case *ast.StringNode:
		return x.Value
	case nil:
		return ""
	default:
		return x.GetToken().Value
	}
}

func describe(n ast.Node) string {
	switch x := yamlnode.Unwrap(n).(type) {
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

// didYouMean returns ` (did you mean "x"?)` for the closest known word, or
// "" when none is close.
func didYouMean(word string, known []string) string {
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

// closest returns up to n names of known ordered by closeness to word
// (ties keep known's order).
func closest(word string, known []string, n int) []string {
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

func knownList(word string, known []string) string {
	if len(known) == 0 {
		return "none defined"
	}
	c := closest(word, known, 8)
	s := strings.Join(c, ", ")
	if len(known) > len(c) {
		s += fmt.Sprintf(", … (%d in all)", len(known))
	}
	return s
}
