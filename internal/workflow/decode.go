package workflow

import (
	"path"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/yamlnode"
)

// Problem is one thing wrong in a workflow file.
type Problem = yamlnode.Problem

// Decode reads one workflows/*.yaml file. It returns the workflow (nil when
// the file could not be read as one at all) and every problem of its form;
// Validate checks what it means.
func Decode(file string, src []byte) (*Workflow, []Problem) {
	d := yamlnode.NewDecoder(file)
	root := d.Parse(src)
	if root == nil {
		if !d.Broken {
			d.Errf(0, "", "the file is empty; write a workflow (docs/workflows.md) or remove the file")
		}
		return nil, d.Problems
	}
	w := &Workflow{File: file, Line: yamlnode.Line(root)}
	ok := d.Mapping(root, "", "a workflow (name, params, nodes)", []yamlnode.Field{
		{Key: "name", Set: func(v ast.Node, p string) { w.Name = d.Str(v, p) }},
		{Key: "description", Set: func(v ast.Node, p string) { w.Description = d.Str(v, p) }},
		{Key: "schedule", Set: func(v ast.Node, p string) { w.Schedule = d.Str(v, p) }},
		{Key: "params", Set: func(v ast.Node, p string) { w.Params = decodeParams(d, v, p) }},
		{Key: "nodes", Set: func(v ast.Node, p string) { w.Nodes = decodeNodes(d, v, p) }},
	})
	if !ok {
		return nil, d.Problems
	}
	w.lines = d.Lines
	if w.Name == "" {
		w.Name = strings.TrimSuffix(path.Base(file), path.Ext(file))
	}
	return w, d.Problems
}

func decodeParams(d *yamlnode.Decoder, n ast.Node, p string) []Param {
	var out []Param
	d.Seq(n, p, "parameters", func(_ int, v ast.Node, p string) {
		x := Param{Line: yamlnode.Line(v)}
		var required string
		d.Mapping(v, p, "a parameter (name, type, default)", []yamlnode.Field{
			{Key: "name", Set: func(v ast.Node, p string) { x.Name = d.Str(v, p) }},
			{Key: "type", Set: func(v ast.Node, p string) { x.Type = ParamType(d.Str(v, p)) }},
			{Key: "default", Set: func(v ast.Node, p string) { x.Default = d.Str(v, p) }},
			{Key: "required", Set: func(v ast.Node, p string) { required = d.Str(v, p) }},
			{Key: "description", Set: func(v ast.Node, p string) { x.Description = d.Str(v, p) }},
		})
		if required != "" {
			b, err := strconv.ParseBool(required)
			if err != nil {
				d.Errf(d.LineOf(p+".required"), p+".required", "want true or false, found %q", required)
			}
			x.Required = b
		}
		if x.Type == "" {
			x.Type = Text
		}
		out = append(out, x)
	})
	return out
}

func decodeNodes(d *yamlnode.Decoder, n ast.Node, p string) []Node {
	var out []Node
	d.Seq(n, p, "nodes", func(_ int, v ast.Node, p string) {
		x := Node{Line: yamlnode.Line(v)}
		var minConf, retries, cond string
		d.Mapping(v, p, "a node (id, kind, …)", []yamlnode.Field{
			{Key: "id", Set: func(v ast.Node, p string) { x.ID = d.Str(v, p) }},
			{Key: "kind", Set: func(v ast.Node, p string) { x.Kind = Kind(d.Str(v, p)) }},
			{Key: "title", Set: func(v ast.Node, p string) { x.Title = d.Str(v, p) }},
			{Key: "question", Set: func(v ast.Node, p string) { x.Question = d.Str(v, p) }},
			{Key: "verified", Set: func(v ast.Node, p string) { x.Verified = d.Str(v, p) }},
			{Key: "sql", Set: func(v ast.Node, p string) { x.SQL = d.Str(v, p) }},
			{Key: "min_confidence", Set: func(v ast.Node, p string) { minConf = d.Str(v, p) }},
			{Key: "retries", Set: func(v ast.Node, p string) { retries = d.Str(v, p) }},
			{Key: "expr", Set: func(v ast.Node, p string) { x.Expr = d.Str(v, p) }},
			{Key: "if", Set: func(v ast.Node, p string) { cond = d.Str(v, p) }},
			{Key: "for", Set: func(v ast.Node, p string) { x.For = d.Str(v, p) }},
			{Key: "until", Set: func(v ast.Node, p string) { x.Until = d.Str(v, p) }},
			{Key: "approval", Set: func(v ast.Node, p string) { x.Approval = d.Str(v, p) }},
			{Key: "channels", Set: func(v ast.Node, p string) { x.Channels = d.Strs(v, p) }},
			{Key: "message", Set: func(v ast.Node, p string) { x.Message = d.Str(v, p) }},
			{Key: "status", Set: func(v ast.Node, p string) { x.Status = d.Str(v, p) }},
			{Key: "next", Set: func(v ast.Node, p string) { x.Next = d.Str(v, p) }},
			{Key: "then", Set: func(v ast.Node, p string) { x.Then = d.Str(v, p) }},
			{Key: "else", Set: func(v ast.Node, p string) { x.Else = d.Str(v, p) }},
		})
		if minConf != "" {
			f, err := strconv.ParseFloat(minConf, 64)
			if err != nil || f < 0 || f > 1 {
				d.Errf(d.LineOf(p+".min_confidence"), p+".min_confidence", "want a number from 0 to 1, found %q", minConf)
			}
			x.MinConfidence = f
		}
		if retries != "" {
			r, err := strconv.Atoi(retries)
			if err != nil || r < 0 || r > MaxRetries {
				d.Errf(d.LineOf(p+".retries"), p+".retries", "want a whole number from 0 to %d, found %q", MaxRetries, retries)
			}
			x.Retries = r
		}
		// "if" is the branch's name for its expression.
		if cond != "" {
			if x.Expr != "" {
				d.Errf(d.LineOf(p+".if"), p+".if", "write if (a branch's condition) or expr (a computation), not both")
			}
			x.Expr = cond
		}
		out = append(out, x)
	})
	return out
}

// MaxRetries bounds a node's retries.
const MaxRetries = 5
