package config

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/suggest"
)

// decoder walks the parsed YAML tree of one file. It decodes by hand rather
// than through reflection so that every error can name the file, the line
// and the dotted field, and so that ${VAR} expansion happens on scalar text
// only, after parsing: an expanded value is never read as YAML.
type decoder struct {
	file     string // the file name as the user gave it, for messages
	lookup   Lookup
	vars     []string
	lines    map[string]int
	warnings []string
}

// errAt builds the one-line KindConfig error "file:line: field: msg".
func (d *decoder) errAt(line int, field, format string, args ...any) *quarry.Error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return quarry.Errorf(quarry.KindConfig, "%s:%d: %s", d.file, line, msg)
}

func lineOf(n ast.Node) int {
	if n == nil || n.GetToken() == nil || n.GetToken().Position == nil {
		return 1
	}
	return n.GetToken().Position.Line
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// field is one known key of a mapping and how to decode its value.
type field struct {
	name   string
	decode func(v ast.Node, path string) error
}

// plain rejects the YAML features quarry.yaml does not use, so that what a
// reader sees in the file is exactly what quarry reads.
func (d *decoder) plain(n ast.Node, path string) (ast.Node, error) {
	switch n.(type) {
	case *ast.AnchorNode, *ast.AliasNode:
		return nil, d.errAt(lineOf(n), path, "YAML anchors and aliases are not supported here; write the value out")
	case *ast.TagNode:
		return nil, d.errAt(lineOf(n), path, "YAML tags (!name) are not supported here; remove the tag")
	case *ast.MergeKeyNode:
		return nil, d.errAt(lineOf(n), path, "YAML merge keys (<<) are not supported here; write the fields out")
	}
	return n, nil
}

func describe(n ast.Node) string {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.BoolNode:
		return "true/false"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "the number " + shorten(n.GetToken().Value)
	case *ast.NullNode:
		return "nothing"
	default:
		return "text"
	}
}

// mapping returns the mapping at n, or nil for an empty (null) value.
func (d *decoder) mapping(n ast.Node, path string) (*ast.MappingNode, error) {
	n, err := d.plain(n, path)
	if err != nil {
		return nil, err
	}
	switch m := n.(type) {
	case *ast.NullNode:
		return nil, nil
	case *ast.MappingNode:
		return m, nil
	case *ast.MappingValueNode:
		return &ast.MappingNode{BaseNode: m.BaseNode, Values: []*ast.MappingValueNode{m}}, nil
	}
	return nil, d.errAt(lineOf(n), path, "expected a mapping of \"name: value\" lines, found %s", describe(n))
}

// keyText returns the text of a mapping key.
func (d *decoder) keyText(k ast.MapKeyNode, path string) (string, error) {
	if k.IsMergeKey() {
		return "", d.errAt(lineOf(k), path, "YAML merge keys (<<) are not supported here; write the fields out")
	}
	switch k := k.(type) {
	case *ast.StringNode:
		return k.Value, nil
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NullNode:
		return k.GetToken().Value, nil
	}
	return "", d.errAt(lineOf(k), path, "a key must be a plain name; write name: value")
}

// fields decodes a mapping against its known keys. Every key present is
// recorded in d.lines under its dotted path.
func (d *decoder) fields(m *ast.MappingNode, path string, fs []field) error {
	if m == nil {
		return nil
	}
	for _, mv := range m.Values {
		key, err := d.keyText(mv.Key, path)
		if err != nil {
			return err
		}
		var f *field
		for i := range fs {
			if fs[i].name == key {
				f = &fs[i]
			}
		}
		full := join(path, key)
		if f == nil {
			names := make([]string, len(fs))
			for i := range fs {
				names[i] = fs[i].name
			}
			return d.errAt(lineOf(mv.Key), shorten(full), "unknown field; %s", hint(key, names))
		}
		d.lines[full] = lineOf(mv.Key)
		if err := f.decode(mv.Value, full); err != nil {
			return err
		}
	}
	return nil
}

// hint says which known name was probably meant, or lists them all.
func hint(got string, known []string) string {
	best, bestD := suggest.Closest(got, known)
	if best != "" && (bestD <= 2 && bestD < max(len(best), len(got)) || strings.EqualFold(got, best)) {
		return fmt.Sprintf("did you mean %q?", best)
	}
	sorted := append([]string(nil), known...)
	sort.Strings(sorted)
	return "expected one of: " + strings.Join(sorted, ", ")
}

// scalar is a decoded piece of text: raw is the file's text, value the
// text after expansion. null is true for an empty value.
type scalar struct {
	raw, value string
	null       bool
	line       int
}

// text reads a scalar as text and expands ${VAR} references in it.
// Numbers are taken as written; true/false must be quoted to be text.
func (d *decoder) text(n ast.Node, path string) (scalar, error) {
	n, err := d.plain(n, path)
	if err != nil {
		return scalar{}, err
	}
	s := scalar{line: lineOf(n)}
	switch v := n.(type) {
	case *ast.NullNode:
		s.null = true
		return s, nil
	case *ast.StringNode:
		s.raw = v.Value
	case *ast.LiteralNode:
		s.raw = v.Value.Value
	case *ast.IntegerNode, *ast.FloatNode:
		s.raw = v.GetToken().Value
	default:
		return s, d.errAt(s.line, path, "expected text, found %s; put the value in quotes if it is text", describe(n))
	}
	val, vars, err := Expand(s.raw, d.lookup)
	d.vars = append(d.vars, vars...)
	if err != nil {
		return s, d.errAt(s.line, path, "%s", err.Error())
	}
	s.value = val
	return s, nil
}

// shown is how a value may appear in an error message: the file's own text
// when it holds no reference, and otherwise only the reference, never the
// expanded value.
func (s scalar) shown() string {
	if strings.Contains(s.raw, "${") {
		return fmt.Sprintf("%q (after expansion)", shorten(s.raw))
	}
	return strconv.Quote(shorten(s.raw))
}

// str decodes a text field into *dst; an empty value leaves it unchanged.
func (d *decoder) str(dst *string) func(ast.Node, string) error {
	return func(n ast.Node, path string) error {
		s, err := d.text(n, path)
		if err != nil || s.null {
			return err
		}
		*dst = s.value
		return nil
	}
}

// boolean decodes true or false: a YAML boolean, or text (after
// expansion) that is one; an empty value leaves *dst unchanged.
func (d *decoder) boolean(dst *bool) func(ast.Node, string) error {
	return func(n ast.Node, path string) error {
		pn, err := d.plain(n, path)
		if err != nil {
			return err
		}
		if b, ok := pn.(*ast.BoolNode); ok {
			*dst = b.Value
			return nil
		}
		s, err := d.text(n, path)
		if err != nil || s.null {
			return err
		}
		switch strings.ToLower(strings.TrimSpace(s.value)) {
		case "true", "yes", "on":
			*dst = true
		case "false", "no", "off":
			*dst = false
		default:
			return d.errAt(s.line, path, "expected true or false, found %s", s.shown())
		}
		return nil
	}
}

// secret decodes a secret field. A secret written into the file itself
// rather than referenced as ${VAR} is accepted with a warning.
func (d *decoder) secret(dst *Secret) func(ast.Node, string) error {
	return func(n ast.Node, path string) error {
		_, err := d.secretText(n, path, dst)
		return err
	}
}

// secretText decodes a secret into *dst and returns the file's raw text.
func (d *decoder) secretText(n ast.Node, path string, dst *Secret) (string, error) {
	s, err := d.text(n, path)
	if err != nil || s.null {
		return "", err
	}
	if s.raw != "" && !strings.Contains(s.raw, "${") {
		d.warnings = append(d.warnings, fmt.Sprintf("%s:%d: %s: the value is written into the file; move it to .env or the environment and write ${VAR} here", d.file, s.line, path))
	}
	*dst = NewSecret(s.value)
	return s.raw, nil
}

// integer decodes a whole number: a YAML integer, or text (after expansion)
// that is one. Underscores may group digits.
func (d *decoder) integer(n ast.Node, path string, minimum int64) (int64, bool, error) {
	n, err := d.plain(n, path)
	if err != nil {
		return 0, false, err
	}
	var v int64
	switch x := n.(type) {
	case *ast.NullNode:
		return 0, false, nil
	case *ast.IntegerNode:
		switch i := x.Value.(type) {
		case int64:
			v = i
		case uint64:
			if i > math.MaxInt64 {
				return 0, false, d.errAt(lineOf(n), path, "%s is too large", shorten(x.GetToken().Value))
			}
			v = int64(i)
		default:
			return 0, false, d.errAt(lineOf(n), path, "%s is too large", shorten(x.GetToken().Value))
		}
	case *ast.StringNode:
		s, err := d.text(n, path)
		if err != nil {
			return 0, false, err
		}
		i, perr := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(s.value), "_", ""), 10, 64)
		if perr != nil {
			return 0, false, d.errAt(lineOf(n), path, "expected a whole number, found %s", s.shown())
		}
		v = i
	default:
		return 0, false, d.errAt(lineOf(n), path, "expected a whole number, found %s", describe(n))
	}
	if v < minimum {
		return 0, false, d.errAt(lineOf(n), path, "must be at least %d", minimum)
	}
	return v, true, nil
}

func (d *decoder) int64Field(dst *int64, minimum int64) func(ast.Node, string) error {
	return func(n ast.Node, path string) error {
		v, ok, err := d.integer(n, path, minimum)
		if ok {
			*dst = v
		}
		return err
	}
}

func (d *decoder) intField(dst *int, minimum int64) func(ast.Node, string) error {
	return func(n ast.Node, path string) error {
		v, ok, err := d.integer(n, path, minimum)
		if err == nil && v > int64(^uint32(0)>>1) {
			return d.errAt(lineOf(n), path, "%d is too large", v)
		}
		if ok {
			*dst = int(v)
		}
		return err
	}
}

// number decodes a non-negative decimal number.
func (d *decoder) number(dst *float64) func(ast.Node, string) error {
	return func(n ast.Node, path string) error {
		n, err := d.plain(n, path)
		if err != nil {
			return err
		}
		var v float64
		switch x := n.(type) {
		case *ast.NullNode:
			return nil
		case *ast.IntegerNode, *ast.FloatNode, *ast.StringNode:
			s, err := d.text(x, path)
			if err != nil {
				return err
			}
			f, perr := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s.value), "_", ""), 64)
			if perr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return d.errAt(lineOf(n), path, "expected a number, found %s", s.shown())
			}
			v = f
		default:
			return d.errAt(lineOf(n), path, "expected a number, found %s", describe(n))
		}
		if v < 0 {
			return d.errAt(lineOf(n), path, "must be 0 or more (0 turns it off)")
		}
		*dst = v
		return nil
	}
}

// duration decodes a Go duration such as 30s, 2m or 1h30m.
// age decodes an age for retention: a duration, or days and weeks (90d,
// 2w); 0 or an empty value means "keep".
func (d *decoder) age(dst *time.Duration) func(ast.Node, string) error {
	return func(n ast.Node, path string) error {
		s, err := d.text(n, path)
		if err != nil || s.null || strings.TrimSpace(s.value) == "" {
			return err
		}
		v, perr := ParseAge(s.value)
		if perr != nil {
			return d.errAt(lineOf(n), path, "%s is not an age; write it like 90d, 2w or 36h", s.shown())
		}
		*dst = v
		return nil
	}
}

func (d *decoder) duration(dst *time.Duration, allowZero bool) func(ast.Node, string) error {
	return func(n ast.Node, path string) error {
		n, err := d.plain(n, path)
		if err != nil {
			return err
		}
		switch x := n.(type) {
		case *ast.NullNode:
			return nil
		case *ast.IntegerNode, *ast.FloatNode:
			return d.errAt(lineOf(n), path, "%s needs a unit; write it like 30s, 2m or 1h", x.GetToken().Value)
		case *ast.StringNode:
		default:
			return d.errAt(lineOf(n), path, "expected a duration like 30s, found %s", describe(n))
		}
		s, err := d.text(n, path)
		if err != nil {
			return err
		}
		v, perr := time.ParseDuration(strings.TrimSpace(s.value))
		if perr != nil {
			return d.errAt(lineOf(n), path, "%s is not a duration; write it like 30s, 2m or 1h30m", s.shown())
		}
		if v < 0 || v == 0 && !allowZero {
			return d.errAt(lineOf(n), path, "must be more than 0s")
		}
		*dst = v
		return nil
	}
}

// list decodes a list of text values.
func (d *decoder) list(dst *[]string) func(ast.Node, string) error {
	return func(n ast.Node, path string) error {
		n, err := d.plain(n, path)
		if err != nil {
			return err
		}
		switch x := n.(type) {
		case *ast.NullNode:
			return nil
		case *ast.SequenceNode:
			out := make([]string, 0, len(x.Values))
			for i, item := range x.Values {
				s, err := d.text(item, fmt.Sprintf("%s[%d]", path, i))
				if err != nil {
					return err
				}
				if !s.null {
					out = append(out, s.value)
				}
			}
			*dst = out
			return nil
		}
		return d.errAt(lineOf(n), path, "expected a list like [a, b], found %s", describe(n))
	}
}
