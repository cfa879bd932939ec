// Package yamlnode holds the few helpers over goccy/go-yaml's syntax tree
// that quarry's strict YAML decoders share (the knowledge folder, golden
// sets): looking through anchors and tags, telling a null, and finding the
// line a node starts on for file:line messages. It is pure.
package yamlnode

import "github.com/goccy/go-yaml/ast"

// Unwrap looks through anchors and tags to the value; a node that is only
// comments is nil.
func Unwrap(n ast.Node) ast.Node {
	for {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		case *ast.CommentGroupNode:
			return nil
		default:
			return n
		}
	}
}

// Line returns the line a node starts on (a mapping entry's key, a
// mapping's first entry), or 0 when it has none.
func Line(n ast.Node) int {
	if n == nil {
		return 0
	}
	if mv, ok := n.(*ast.MappingValueNode); ok && mv.Key != nil {
		n = mv.Key
	}
	if m, ok := n.(*ast.MappingNode); ok && len(m.Values) > 0 {
		return Line(m.Values[0])
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return tk.Position.Line
	}
	return 0
}

// IsNull reports whether n is absent or an explicit null.
func IsNull(n ast.Node) bool {
	if n == nil {
		return true
	}
	_, ok := n.(*ast.NullNode)
	return ok
}
