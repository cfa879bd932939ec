package workflow

import (
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch/schedule"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

// Known is what the knowledge folder tells Validate: whether a verified
// query asks a question (and which do), and whether a question can be
// answered ("" when it can, or the one-line reason it cannot).
type Known interface {
	Verified(question string) (canonical string, known []string)
	CheckQuestion(question string) string
}

// SQLChecker is a Known that can also say whether the guard would refuse
// a statement ("" when it would not), so that validation refuses what a
// run would.
type SQLChecker interface {
	CheckSQL(sql string) string
}

// ChannelChecker is a Known that knows the delivery channels: "" when
// name is one, or what to do.
type ChannelChecker interface {
	CheckChannel(name string) string
}

// PrivacyChecker is a Known that knows the privacy tier of the connection
// a workflow's questions run on (quarry.PrivacyFull, or "" when unknown).
type PrivacyChecker interface {
	Privacy() quarry.Privacy
}

// Graph is what Validate found out about a valid workflow: the nodes in
// an order in which each comes after every node that may precede it, and
// each compute node's value type.
type Graph struct {
	Order []string
	Types map[string]ValueType
}

// Check is what every surface does with a workflow file: Decode, then
// Validate what decoded (also when some fields were malformed, so that one
// pass shows every problem), with the problems in line order. w is nil
// when the file could not be read as a workflow at all.
func Check(file string, src []byte, k Known) (*Workflow, Graph, []Problem) {
	w, probs := Decode(file, src)
	if w == nil {
		return nil, Graph{}, probs
	}
	g, more := Validate(w, k)
	probs = append(probs, more...)
	sort.SliceStable(probs, func(i, j int) bool { return probs[i].Line < probs[j].Line })
	if len(probs) > 0 {
		g = Graph{}
	}
	return w, g, probs
}

// Validate checks what w means: its parameters, every node's fields for
// its kind, the graph (one entry, the first node; every successor named;
// no cycles; every node reachable), every expression and placeholder
// (well-typed, over parameters and the outputs of nodes that run before
// it on every path), the verified queries it names and the questions it
// asks (k may be nil to skip those). Problems are sorted by line.
func Validate(w *Workflow, k Known) (Graph, []Problem) {
	v := &validator{w: w, k: k}
	g := v.run()
	sort.SliceStable(v.problems, func(i, j int) bool { return v.problems[i].Line < v.problems[j].Line })
	return g, v.problems
}

type validator struct {
	w        *Workflow
	k        Known
	problems []Problem
}

func (v *validator) errf(path, format string, args ...any) {
	v.problems = append(v.problems, Problem{File: v.w.File, Line: v.w.lineOf(path), Path: path, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) run() Graph {
	w := v.w
	if msg := ValidName(w.Name); msg != "" {
		v.errf("name", "%s", msg)
	} else if base := strings.TrimSuffix(path.Base(w.File), path.Ext(w.File)); w.File != "" && base != w.Name {
		v.errf("name", "%q, but the file is %s; a workflow is called by its file's name (rename the file, or write name: %s)", w.Name, path.Base(w.File), base)
	}
	if strings.TrimSpace(w.Schedule) != "" {
		if _, err := schedule.Parse(w.Schedule); err != nil {
			v.errf("schedule", "%s", quarry.Message(err))
		}
		for i, p := range w.Params {
			if p.Required || p.Default == "" && p.Type != Text {
				v.errf(fmt.Sprintf("params[%d]", i), "a scheduled workflow runs with its parameters' defaults; give %s a default", p.Name)
			}
		}
	}
	names := map[string]string{} // name → what it is, for duplicates
	for i, p := range w.Params {
		path := fmt.Sprintf("params[%d]", i)
		v.param(path, p, names)
	}
	if len(w.Nodes) == 0 {
		v.errf("nodes", "missing; a workflow has at least one node (docs/workflows.md)")
		return Graph{}
	}
	if len(w.Nodes) > MaxNodes {
		v.errf("nodes", "%d nodes; a workflow has at most %d (split it: one workflow's end can be another's start)", len(w.Nodes), MaxNodes)
		return Graph{}
	}
	ids := make([]string, 0, len(w.Nodes))
	for i := range w.Nodes {
		n := &w.Nodes[i]
		path := nodePath(i, "")
		if msg := validID("node", n.ID); msg != "" {
			v.errf(path+".id", "%s", msg)
		} else if what, dup := names[n.ID]; dup {
			v.errf(path+".id", "%q is already the name of %s; names are unique", n.ID, what)
		} else {
			names[n.ID] = "node " + strconv.Itoa(i+1)
		}
		ids = append(ids, n.ID)
		v.fields(path, n)
	}
	before := len(v.problems)
	for i := range w.Nodes {
		n := &w.Nodes[i]
		for _, f := range []struct{ field, to string }{{"next", n.Next}, {"then", n.Then}, {"else", n.Else}} {
			if f.to == "" {
				continue
			}
			switch {
			case f.to == n.ID:
				v.errf(nodePath(i, f.field), "a node cannot follow itself; a workflow is a graph without cycles")
			case w.Node(f.to) == nil:
				v.errf(nodePath(i, f.field), "no node is called %q; nodes: %s", f.to, yamlnode.KnownList(f.to, ids))
			}
		}
	}
	if len(v.problems) > before {
		return Graph{}
	}
	order, ok := v.graph()
	if !ok {
		return Graph{}
	}
	return Graph{Order: order, Types: v.expressions(order)}
}

func (v *validator) param(path string, p Param, names map[string]string) {
	if msg := validID("parameter", p.Name); msg != "" {
		v.errf(path+".name", "%s", msg)
		return
	}
	if what, dup := names[p.Name]; dup {
		v.errf(path+".name", "%q is already the name of %s; names are unique", p.Name, what)
	}
	names[p.Name] = "parameter " + p.Name
	switch p.Type {
	case Text, Number, Bool:
	default:
		v.errf(path+".type", "want text, number or bool, found %q%s", p.Type, yamlnode.DidYouMean(string(p.Type), []string{"text", "number", "bool"}))
		return
	}
	if p.Required && p.Default != "" {
		v.errf(path+".required", "a required parameter has no default; remove one of them")
	}
	if p.Default != "" {
		if _, err := ParseParam(p, p.Default); err != nil {
			v.errf(path+".default", "%s", err)
		}
	}
}

// ParseParam reads a parameter's value from text.
func ParseParam(p Param, s string) (any, error) {
	if len(s) > MaxParam {
		return nil, fmt.Errorf("%s is %d bytes; a parameter is at most %d", p.Name, len(s), MaxParam)
	}
	switch p.Type {
	case Number:
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s is a number; %q is not one", p.Name, s)
		}
		return f, nil
	case Bool:
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("%s is true or false; %q is neither", p.Name, s)
		}
		return b, nil
	}
	return s, nil
}

// kindFields says which fields each kind takes (beyond id, kind, title).
func kindFields(k Kind) ([]string, bool) {
	switch k {
	case Ask:
		return []string{"question", "min_confidence", "retries", "next"}, true
	case Query:
		return []string{"verified", "sql", "min_confidence", "retries", "next"}, true
	case Compute:
		return []string{"expr", "next"}, true
	case Branch:
		return []string{"if", "then", "else"}, true
	case Wait:
		return []string{"for", "until", "approval", "next"}, true
	case Notify:
		return []string{"channels", "message", "next"}, true
	case End:
		return []string{"status", "message"}, true
	}
	return nil, false
}

// set lists the fields of n that are set, by their YAML names.
func set(n *Node) []string {
	var out []string
	add := func(name string, on bool) {
		if on {
			out = append(out, name)
		}
	}
	add("question", n.Question != "")
	add("verified", n.Verified != "")
	add("sql", n.SQL != "")
	add("min_confidence", n.MinConfidence != 0)
	add("retries", n.Retries != 0)
	add("expr", n.Expr != "" && n.Kind != Branch)
	add("if", n.Expr != "" && n.Kind == Branch)
	add("for", n.For != "")
	add("until", n.Until != "")
	add("approval", n.Approval != "")
	add("channels", len(n.Channels) > 0)
	add("message", n.Message != "")
	add("status", n.Status != "")
	add("next", n.Next != "")
	add("then", n.Then != "")
	add("else", n.Else != "")
	return out
}

// fields checks the fields of one node against its kind.
func (v *validator) fields(path string, n *Node) {
	allowed, ok := kindFields(n.Kind)
	if !ok {
		var kinds []string
		for _, k := range Kinds() {
			kinds = append(kinds, string(k))
		}
		if n.Kind == "" {
			v.errf(path+".kind", "missing; want one of %s", strings.Join(kinds, ", "))
		} else {
			v.errf(path+".kind", "want one of %s, found %q%s", strings.Join(kinds, ", "), n.Kind, yamlnode.DidYouMean(string(n.Kind), kinds))
		}
		return
	}
	for _, f := range set(n) {
		if !slices.Contains(allowed, f) {
			v.errf(path+"."+f, "%s is not a field of a%s %s node; its fields: %s", f, article(n.Kind), n.Kind, strings.Join(allowed, ", "))
		}
	}
	switch n.Kind {
	case Ask:
		if strings.TrimSpace(n.Question) == "" {
			v.errf(path+".question", "missing; write the question to ask (placeholders: {{ period }})")
		}
	case Query:
		switch {
		case n.Verified == "" && n.SQL == "":
			v.errf(path+".verified", "missing; name a verified query by its question, or write sql")
		case n.Verified != "" && n.SQL != "":
			v.errf(path+".sql", "write verified or sql, not both")
		case n.SQL != "" && strings.Contains(n.SQL, "{{"):
			v.errf(path+".sql", "SQL takes no placeholders (a value pasted into SQL is an injection); ask a question with the placeholder instead")
		case n.Verified != "" && v.k != nil:
			if c, known := v.k.Verified(n.Verified); c == "" {
				v.errf(path+".verified", "no verified query asks %q; known: %s", n.Verified, yamlnode.KnownList(n.Verified, known))
			}
		case n.SQL != "":
			if sc, ok := v.k.(SQLChecker); ok {
				if msg := sc.CheckSQL(n.SQL); msg != "" {
					v.errf(path+".sql", "%s", msg)
				}
			}
		}
	case Compute:
		if strings.TrimSpace(n.Expr) == "" {
			v.errf(path+".expr", "missing; write the expression (revenue.value - orders.value)")
		}
	case Branch:
		if strings.TrimSpace(n.Expr) == "" {
			v.errf(path+".if", "missing; write the condition (abs(change.value) > 0.1)")
		}
		if n.Then == "" {
			v.errf(path+".then", "missing; name the node that follows when the condition holds")
		}
		if n.Else == "" {
			v.errf(path+".else", "missing; name the node that follows when it does not")
		}
	case Wait:
		v.wait(path, n)
	case Notify:
		if strings.TrimSpace(n.Message) == "" {
			v.errf(path+".message", "missing; write the message (placeholders: {{ revenue.value }})")
		}
		if cc, ok := v.k.(ChannelChecker); ok {
			for _, c := range n.Channels {
				if msg := cc.CheckChannel(c); msg != "" {
					v.errf(path+".channels", "%s", msg)
				}
			}
		}
	case End:
		if n.Status != "" && n.Status != Completed && n.Status != Stopped {
			v.errf(path+".status", "want completed or stopped, found %q", n.Status)
		}
	}
	if n.Kind != Branch && n.Kind != End && n.Next == "" {
		v.errf(path, "this %s node has no next; name the node that follows it (an end node ends the workflow)", n.Kind)
	}
}

func article(k Kind) string {
	if strings.ContainsAny(string(k)[:1], "aeiou") {
		return "n"
	}
	return ""
}

// MaxParam bounds a parameter's text, MaxNodes a workflow's nodes.
const (
	MaxParam = 4 << 10
	MaxNodes = 500
)

// MaxWait bounds how long a wait node may hold a run.
const MaxWait = 31 * 24 * time.Hour

func (v *validator) wait(path string, n *Node) {
	count := 0
	for _, s := range []string{n.For, n.Until, n.Approval} {
		if strings.TrimSpace(s) != "" {
			count++
		}
	}
	switch {
	case count == 0:
		v.errf(path+".approval", "missing; a wait node waits for (a duration: 2h), until (a time: 2026-12-01T09:00:00Z) or for an approval (the text a person is shown)")
	case count > 1:
		v.errf(path, "write one of for, until and approval")
	case n.For != "":
		d, err := time.ParseDuration(n.For)
		if err != nil || d <= 0 || d > MaxWait {
			v.errf(path+".for", "want a duration above 0 and at most 744h (90m, 2h, 48h), found %q", n.For)
		}
	case n.Until != "":
		if _, err := time.Parse(time.RFC3339, n.Until); err != nil {
			v.errf(path+".until", "want a time in RFC 3339 (2026-12-01T09:00:00Z), found %q", n.Until)
		}
	}
}

// graph checks the graph's shape: no cycles, every node reachable from the
// first. It returns the nodes in topological order.
func (v *validator) graph() ([]string, bool) {
	w := v.w
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var post []string
	var stack []string
	ok := true
	var visit func(id string)
	visit = func(id string) {
		color[id] = grey
		stack = append(stack, id)
		n := w.Node(id)
		for _, s := range n.Successors() {
			switch color[s] {
			case white:
				visit(s)
			case grey:
				i := slices.Index(stack, s)
				cycle := append(slices.Clone(stack[i:]), s)
				v.errf(nodePath(v.index(id), fieldTo(n, s)), "a cycle: %s; a workflow is a graph without cycles (a repeat is a new run)", strings.Join(cycle, " → "))
				ok = false
			}
		}
		stack = stack[:len(stack)-1]
		color[id] = black
		post = append(post, id)
	}
	visit(w.Nodes[0].ID)
	for i, n := range w.Nodes {
		if color[n.ID] == white {
			v.errf(nodePath(i, ""), "no path from the first node (%s) reaches %s; connect it or remove it", w.Nodes[0].ID, n.ID)
			ok = false
		}
	}
	slices.Reverse(post)
	return post, ok
}

// fieldTo names the field of n that leads to s.
func fieldTo(n *Node, s string) string {
	switch s {
	case n.Next:
		return "next"
	case n.Then:
		return "then"
	}
	return "else"
}

func (v *validator) index(id string) int {
	for i := range v.w.Nodes {
		if v.w.Nodes[i].ID == id {
			return i
		}
	}
	return -1
}

// Dominators maps each node to the set of nodes that run before it on
// every path from the first node (itself excluded). order is topological.
func Dominators(w *Workflow, order []string) map[string]map[string]bool {
	preds := map[string][]string{}
	for _, id := range order {
		for _, s := range w.Node(id).Successors() {
			if !slices.Contains(preds[s], id) {
				preds[s] = append(preds[s], id)
			}
		}
	}
	dom := map[string]map[string]bool{}
	for i, id := range order {
		d := map[string]bool{}
		if i > 0 {
			for j, p := range preds[id] {
				if j == 0 {
					for x := range dom[p] {
						d[x] = true
					}
					d[p] = true
					continue
				}
				for x := range d {
					if x != p && !dom[p][x] {
						delete(d, x)
					}
				}
			}
		}
		dom[id] = d
	}
	return dom
}

// expressions checks every expression and placeholder over the names in
// scope at its node, and returns each compute node's value type.
func (v *validator) expressions(order []string) map[string]ValueType {
	w := v.w
	types := map[string]ValueType{}
	dom := Dominators(w, order)
	for _, id := range order {
		i := v.index(id)
		n := &w.Nodes[i]
		check := func(field, src string, want ValueType, placeholder bool) ValueType {
			used, msg := v.scope(src, id, dom[id])
			if msg != "" {
				v.errf(nodePath(i, field), "%s", msg)
				return ""
			}
			c, err := compile(src, v.env(used, types), want, placeholder)
			if err != nil {
				v.errf(nodePath(i, field), "%s", err)
				return ""
			}
			return c.typ
		}
		switch n.Kind {
		case Compute:
			if n.Expr != "" {
				types[id] = check("expr", n.Expr, "", false)
			}
		case Branch:
			if n.Expr != "" {
				check("if", n.Expr, BoolValue, false)
			}
		}
		for _, t := range []struct{ field, text string }{{"question", n.Question}, {"message", n.Message}, {"approval", n.Approval}} {
			if t.text == "" {
				continue
			}
			exprs, msg := placeholders(t.text)
			if msg != "" {
				v.errf(nodePath(i, t.field), "%s; a placeholder is {{ name }} or {{ node.field }}", msg)
				continue
			}
			for _, e := range exprs {
				check(t.field, e, "", true)
			}
		}
		if pc, ok := v.k.(PrivacyChecker); ok && n.Kind == Ask {
			if msg := RowsInQuestion(w, n, pc.Privacy()); msg != "" {
				v.errf(nodePath(i, "question"), "%s", msg)
			}
		}
		if n.Kind == Ask && v.k != nil && n.Question != "" {
			if q, ok := v.withDefaults(n.Question); ok {
				if msg := v.k.CheckQuestion(q); msg != "" {
					v.errf(nodePath(i, "question"), "%q cannot be answered: %s", q, msg)
				}
			}
		}
	}
	return types
}

// env is the typed environment of an expression: the parameters and
// outputs of nodes it names (scope has checked they are in scope).
func (v *validator) env(names []string, types map[string]ValueType) map[string]any {
	env := map[string]any{}
	for _, name := range names {
		if p := v.w.Param(name); p != nil {
			env[name] = zeroOf(p.Type)
		} else if n := v.w.Node(name); n != nil {
			if out := outputFor(n.Kind, types[name]); out != nil {
				env[name] = out
			}
		}
	}
	return env
}

func zeroOf(t ParamType) any {
	switch t {
	case Number:
		return float64(0)
	case Bool:
		return false
	}
	return ""
}

// scope returns the names src uses, and what is wrong with them at node
// id ("" when nothing is).
func (v *validator) scope(src, id string, before map[string]bool) ([]string, string) {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil, exprError(err).Error()
	}
	used := names(tree.Node)
	for _, name := range used {
		switch {
		case v.w.Param(name) != nil, before[name]:
		case name == id:
			return nil, fmt.Sprintf("%s is this node; it has no output yet", name)
		case v.w.Node(name) != nil:
			if n := v.w.Node(name); n.Kind == End {
				return nil, fmt.Sprintf("%s is an end node; it has no output", name)
			}
			return nil, fmt.Sprintf("%s may not have run before %s (it is not on every path from the first node to here)", name, id)
		}
	}
	return used, ""
}

// names lists the identifiers an expression reads.
func names(root ast.Node) []string {
	var out []string
	ast.Find(root, func(n ast.Node) bool {
		if x, ok := n.(*ast.IdentifierNode); ok && !slices.Contains(out, x.Value) {
			out = append(out, x.Value)
		}
		return false
	})
	return out
}

// withDefaults is question with every placeholder that is only a
// parameter's name replaced by its default; false when another
// placeholder remains.
func (v *validator) withDefaults(q string) (string, bool) {
	exprs, _ := placeholders(q)
	for _, e := range exprs {
		p := v.w.Param(e)
		if p == nil || p.Default == "" {
			return "", false
		}
	}
	return renderWith(q, func(e string) (string, error) { return v.w.Param(e).Default, nil })
}

// renderWith replaces each {{ e }} of s by value(e).
func renderWith(s string, value func(e string) (string, error)) (string, bool) {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			b.WriteString(s)
			return b.String(), true
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return "", false
		}
		b.WriteString(s[:i])
		r, err := value(strings.TrimSpace(s[i+2 : i+j]))
		if err != nil {
			return "", false
		}
		b.WriteString(r)
		s = s[i+j+2:]
	}
}

// RowsInQuestion says why an ask node may not run under the privacy tier
// ("" when it may): under a restricted tier a question may read the
// workflow's parameters (what the user typed) only. Any other name is an
// earlier node's output, and those rest on rows (an answer's labels and
// values, a computation or a condition over them, a message that quotes
// them): filled into the question, they would reach the language model
// that the tier keeps them from.
func RowsInQuestion(w *Workflow, n *Node, tier quarry.Privacy) string {
	if n.Kind != Ask || tier == "" || tier == quarry.PrivacyFull {
		return ""
	}
	var nodes []string
	exprs, _ := placeholders(n.Question)
	for _, e := range exprs {
		tree, err := parser.Parse(e)
		if err != nil {
			continue // the expression's own problem, reported where it is checked
		}
		for _, name := range names(tree.Node) {
			if w.Param(name) == nil && w.Node(name) != nil && !slices.Contains(nodes, name) {
				nodes = append(nodes, name)
			}
		}
	}
	if len(nodes) == 0 {
		return ""
	}
	return fmt.Sprintf("under the connection's privacy tier %s, a question may fill in parameters only: %s %s an earlier step's output, values of rows that would reach the language model in the question; ask for what you need in one question, or use a parameter",
		tier, strings.Join(nodes, ", "), map[bool]string{true: "is", false: "are"}[len(nodes) == 1])
}

// Reads lists the names a node's expression, question, message and
// approval read: parameters and nodes, once each.
func Reads(n *Node) []string {
	var out []string
	add := func(src string) {
		tree, err := parser.Parse(src)
		if err != nil {
			return
		}
		for _, name := range names(tree.Node) {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	if n.Expr != "" {
		add(n.Expr)
	}
	for _, text := range []string{n.Question, n.Message, n.Approval} {
		exprs, _ := placeholders(text)
		for _, e := range exprs {
			add(e)
		}
	}
	return out
}
