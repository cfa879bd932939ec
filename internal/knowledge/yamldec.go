package knowledge

import (
	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/yamlnode"
)

// Problem is one thing wrong in a knowledge file: where it is and what to
// change.
type Problem = yamlnode.Problem

// decoder walks the AST of one knowledge file (yamlnode.Decoder), with the
// knowledge folder's own readers added.
type decoder struct{ *yamlnode.Decoder }

func newDecoder(file string) *decoder { return &decoder{yamlnode.NewDecoder(file)} }

// field is one allowed key of a mapping and what to do with its value.
type field struct {
	key string
	set func(v ast.Node, path string)
}

// Mapping decodes the mapping n with the knowledge folder's fields
// (yamlnode.Decoder.Mapping).
func (d *decoder) Mapping(n ast.Node, path, what string, fields []field) bool {
	fs := make([]yamlnode.Field, len(fields))
	for i, f := range fields {
		fs[i] = yamlnode.Field{Key: f.key, Set: f.set}
	}
	return d.Decoder.Mapping(n, path, what, fs)
}

func didYouMean(word string, known []string) string { return yamlnode.DidYouMean(word, known) }

func knownList(word string, known []string) string { return yamlnode.KnownList(word, known) }
