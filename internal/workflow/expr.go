package workflow

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"github.com/quarrydata/quarry/internal/narrate"
)

// AnswerOutput is the output of an ask or query node: the figure of a
// one-row answer (Value, from the measure's column, or the last numeric
// one: named in Column), that column row by row (Values) with the first
// text column beside it (Labels), the number of rows, the answer's
// confidence, its headline, its run and its stored result.
type AnswerOutput struct {
	Value      float64   `expr:"value" json:"value"`
	HasValue   bool      `expr:"has_value" json:"has_value"`
	Values     []float64 `expr:"values" json:"values,omitempty"`
	Labels     []string  `expr:"labels" json:"labels,omitempty"` // the first text column, row by row`
	Rows       float64   `expr:"rows" json:"rows"`
	Confidence float64   `expr:"confidence" json:"confidence"`
	Headline   string    `expr:"headline" json:"headline,omitempty"`
	Measures   float64   `expr:"measures" json:"measures,omitempty"`
	RunID      string    `expr:"run" json:"run,omitempty"`
	ResultID   string    `expr:"result" json:"result,omitempty"`
	// Cell names the result cell Value was read from ("revenue", row 1).
	Column string `expr:"-" json:"column,omitempty"`
}

// NumberOutput, BoolOutput and TextOutput are a compute node's output,
// by the type of its expression.
type NumberOutput struct {
	Value float64 `expr:"value" json:"value"`
}

// BoolOutput is a compute node's true-or-false output.
type BoolOutput struct {
	Value bool `expr:"value" json:"value"`
}

// TextOutput is a compute node's text output.
type TextOutput struct {
	Value string `expr:"value" json:"value"`
}

// BranchOutput says which way a branch went: "then" or "else".
type BranchOutput struct {
	Taken string `expr:"taken" json:"taken"`
}

// WaitOutput is how a wait ended: approved (or the time came), by whom,
// with what note.
type WaitOutput struct {
	Approved bool   `expr:"approved" json:"approved"`
	By       string `expr:"by" json:"by,omitempty"`
	Note     string `expr:"note" json:"note,omitempty"`
}

// NotifyOutput counts the channels a message reached and did not.
type NotifyOutput struct {
	Delivered float64 `expr:"delivered" json:"delivered"`
	Failed    float64 `expr:"failed" json:"failed"`
	Message   string  `expr:"message" json:"message"`
	// Errors say, channel by channel, why a delivery failed.
	Errors []string `expr:"-" json:"errors,omitempty"`
}

// ValueType is the type of a compute node's value.
type ValueType string

// The value types of a compute node.
const (
	NumberValue ValueType = "number"
	BoolValue   ValueType = "bool"
	TextValue   ValueType = "text"
)

// outputFor is the zero output of a node, the type its references are
// checked against. vt is a compute node's value type.
func outputFor(k Kind, vt ValueType) any {
	switch k {
	case Ask, Query:
		return AnswerOutput{}
	case Compute:
		switch vt {
		case BoolValue:
			return BoolOutput{}
		case TextValue:
			return TextOutput{}
		}
		return NumberOutput{}
	case Branch:
		return BranchOutput{}
	case Wait:
		return WaitOutput{}
	case Notify:
		return NotifyOutput{}
	}
	return nil
}

// builtins are the expression language's functions a workflow may call:
// arithmetic, rounding, text and length. Everything else (the clock, JSON,
// unbounded list functions) is disabled.
func builtins() []string {
	return []string{"abs", "ceil", "floor", "round", "int", "float", "string", "upper", "lower", "trim", "len"}
}

// functions are quarry's own: typed, so that an expression's type is
// known before it runs.
func functions() []string { return []string{"max", "min", "sum", "mean", "pct_change", "percent"} }

// options are the expr options of every workflow expression over env.
func options(env map[string]any) []expr.Option {
	opts := []expr.Option{expr.Env(env), expr.DisableAllBuiltins(), expr.MaxNodes(maxNodes)}
	for _, b := range builtins() {
		opts = append(opts, expr.EnableBuiltin(b))
	}
	return append(opts,
		expr.Function("max", func(p ...any) (any, error) { return fold(p, "max", math.Max) }, new(func(...float64) float64), new(func([]float64) float64)),
		expr.Function("min", func(p ...any) (any, error) { return fold(p, "min", math.Min) }, new(func(...float64) float64), new(func([]float64) float64)),
		expr.Function("sum", func(p ...any) (any, error) {
			total := 0.0
			for _, f := range floats(p) {
				total += f
			}
			return total, nil
		}, new(func([]float64) float64)),
		expr.Function("mean", func(p ...any) (any, error) {
			fs := floats(p)
			if len(fs) == 0 {
				return nil, fmt.Errorf("mean of no values")
			}
			total := 0.0
			for _, f := range fs {
				total += f
			}
			return total / float64(len(fs)), nil
		}, new(func([]float64) float64)),
		expr.Function("pct_change", func(p ...any) (any, error) {
			now, before := p[0].(float64), p[1].(float64)
			if before == 0 {
				return nil, fmt.Errorf("pct_change: the earlier value is 0, so there is no percentage change")
			}
			return (now - before) / math.Abs(before), nil
		}, new(func(float64, float64) float64)),
		expr.Function("percent", func(p ...any) (any, error) {
			return narrate.Number(p[0].(float64), narrate.FormatPercent, ""), nil
		}, new(func(float64) string)),
	)
}

// maxNodes bounds an expression's size.
const maxNodes = 200

// floats is the numbers of a call: its arguments, or the list it was
// given.
func floats(p []any) []float64 {
	if len(p) == 1 {
		if fs, ok := p[0].([]float64); ok {
			return fs
		}
	}
	out := make([]float64, 0, len(p))
	for _, v := range p {
		switch x := v.(type) {
		case float64:
			out = append(out, x)
		case int:
			out = append(out, float64(x))
		}
	}
	return out
}

// fold is max or min over a call's numbers.
func fold(p []any, name string, f func(a, b float64) float64) (any, error) {
	fs := floats(p)
	if len(fs) == 0 {
		return nil, fmt.Errorf("%s of no values", name)
	}
	out := fs[0]
	for _, x := range fs[1:] {
		out = f(out, x)
	}
	return out, nil
}

// MaxText bounds the text an expression, a message or an approval may
// make, and what of an answer's text cells an output keeps.
const MaxText = 64 << 10

// restrict refuses what the workflow language leaves out of expr: named
// variables (let), predicates and closures (filter, map, all, count…),
// pointers, ranges, maps, sequences, regular expressions, and integers too
// large to be exact.
func restrict(root ast.Node) error {
	var bad error
	ast.Find(root, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.VariableDeclaratorNode:
			bad = fmt.Errorf("let is not part of a workflow's expressions; compute the value in a node of its own")
		case *ast.BuiltinNode:
			if !slices.Contains(builtins(), x.Name) && !slices.Contains(functions(), x.Name) {
				bad = fmt.Errorf("%s is not a function of a workflow's expressions; the functions are %s", x.Name, strings.Join(append(builtins(), functions()...), ", "))
			}
		case *ast.PredicateNode, *ast.PointerNode:
			bad = fmt.Errorf("list functions with predicates (filter, map, all, count…) are not part of a workflow's expressions; the functions are %s", strings.Join(append(builtins(), functions()...), ", "))
		case *ast.MapNode, *ast.PairNode:
			bad = fmt.Errorf("mappings are not part of a workflow's expressions")
		case *ast.SequenceNode:
			bad = fmt.Errorf("one expression per field; ';' is not part of a workflow's expressions")
		case *ast.BinaryNode:
			switch x.Operator {
			case "..":
				bad = fmt.Errorf("ranges (..) are not part of a workflow's expressions")
			case "matches":
				bad = fmt.Errorf("regular expressions (matches) are not part of a workflow's expressions; use contains, startsWith or endsWith")
			}
		case *ast.IntegerNode:
			if x.Value > 1<<53 || x.Value < -(1<<53) {
				bad = fmt.Errorf("%d is too large to be exact; write it as a decimal (%d.0)", x.Value, x.Value)
			}
		}
		return bad != nil
	})
	return bad
}

// compiled is an expression checked against its environment.
type compiled struct {
	prog *vm.Program
	typ  ValueType // "" for a placeholder (any printable value)
}

// compile checks src over env. want says what it must be: BoolValue for a
// branch's condition, "" for a compute node (number, true/false or text)
// or a placeholder (also a list of numbers).
func compile(src string, env map[string]any, want ValueType, placeholder bool) (compiled, error) {
	opts := options(env)
	if want == BoolValue {
		opts = append(opts, expr.AsBool())
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return compiled{}, exprError(err)
	}
	if err := restrict(tree.Node); err != nil {
		return compiled{}, err
	}
	prog, err := expr.Compile(src, opts...)
	if err != nil {
		return compiled{}, exprError(err)
	}
	t := prog.Node().Type()
	vt := typeOf(t)
	if vt == "" {
		vt = inferType(prog.Node())
	}
	switch {
	case vt != "":
	case placeholder && t != nil && t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Float64:
		vt = NumberValue
	case t == nil || t.Kind() == reflect.Interface:
		return compiled{}, fmt.Errorf("cannot tell what %q is; write an expression of numbers, true/false or text", src)
	default:
		return compiled{}, fmt.Errorf("%q is %s; want a number, true/false or text", src, describeType(t))
	}
	return compiled{prog: prog, typ: vt}, nil
}

// inferType is the type of what the checker leaves open: a choice
// between two values of one type (a ? 1 : 0.5), arithmetic over such.
func inferType(n ast.Node) ValueType {
	switch x := n.(type) {
	case *ast.ConditionalNode:
		a, b := typeOrInfer(x.Exp1), typeOrInfer(x.Exp2)
		if a == b {
			return a
		}
	case *ast.BinaryNode:
		switch x.Operator {
		case "+", "-", "*", "/", "%", "**", "^":
			if typeOrInfer(x.Left) == NumberValue && typeOrInfer(x.Right) == NumberValue {
				return NumberValue
			}
		}
	}
	return ""
}

func typeOrInfer(n ast.Node) ValueType {
	if vt := typeOf(n.Type()); vt != "" {
		return vt
	}
	return inferType(n)
}

func typeOf(t reflect.Type) ValueType {
	if t == nil {
		return ""
	}
	switch t.Kind() {
	case reflect.Bool:
		return BoolValue
	case reflect.String:
		return TextValue
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64, reflect.Float32, reflect.Uint, reflect.Uint64:
		return NumberValue
	}
	return ""
}

func describeType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		return "a list"
	case reflect.Struct:
		return "a node's whole output (name one of its fields, e.g. .value)"
	case reflect.Map:
		return "a mapping"
	}
	return t.String()
}

// exprError is expr's message on one line: its first line, with the
// position it gives.
func exprError(err error) error {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	// The checker names Go types; say it in the workflow's terms.
	if m := noField().FindStringSubmatch(msg); m != nil {
		msg = fmt.Sprintf("no output %q; the outputs of this kind of node: %s", m[2], strings.Join(outputNames(m[1]), ", ")) + m[3]
	}
	return fmt.Errorf("%s", goTypes().ReplaceAllStringFunc(msg, goType))
}

// goTypes finds the checker's Go type names, to say them as a workflow
// names them (goType).
var goTypes = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\[\]float64|\[\]string|\bfloat64\b|\bint\b|\bstring\b|\bbool\b|interface \{\}`)
})

func goType(t string) string {
	switch t {
	case "[]float64":
		return "a list of numbers"
	case "[]string":
		return "a list of text"
	case "float64", "int":
		return "number"
	case "string":
		return "text"
	case "bool":
		return "true/false"
	}
	return "a value of unknown type"
}

var noField = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^type workflow\.(\w+) has no field (\w+)(.*)$`)
})

// outputNames lists the fields of an output type by their names in
// expressions.
func outputNames(typ string) []string {
	var v any
	switch typ {
	case "AnswerOutput":
		v = AnswerOutput{}
	case "NumberOutput":
		v = NumberOutput{}
	case "BoolOutput":
		v = BoolOutput{}
	case "TextOutput":
		v = TextOutput{}
	case "BranchOutput":
		v = BranchOutput{}
	case "WaitOutput":
		v = WaitOutput{}
	case "NotifyOutput":
		v = NotifyOutput{}
	default:
		return nil
	}
	t := reflect.TypeOf(v)
	var out []string
	for i := range t.NumField() {
		if name := t.Field(i).Tag.Get("expr"); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// eval runs c over env and returns its value, refusing what is not a
// finite number, true/false or text.
func (c compiled) eval(env map[string]any) (any, error) {
	v, err := expr.Run(c.prog, env)
	if err != nil {
		return nil, exprError(err)
	}
	switch x := v.(type) {
	case int:
		return float64(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s is not a finite number (a division by zero, or a number too large)", c.prog.Source().String())
		}
		return x, nil
	}
	if t, ok := v.(string); ok && len(t) > MaxText {
		return nil, fmt.Errorf("the text it makes is %d bytes; at most %d", len(t), MaxText)
	}
	return v, nil
}

// show writes a placeholder's value as a person reads it.
func show(v any) string {
	switch x := v.(type) {
	case float64:
		return narrate.Number(x, narrate.FormatNumber, "")
	case []float64:
		parts := make([]string, len(x))
		for i, f := range x {
			parts[i] = narrate.Number(f, narrate.FormatNumber, "")
		}
		return strings.Join(parts, ", ")
	case bool:
		if x {
			return "yes"
		}
		return "no"
	}
	return fmt.Sprint(v)
}
