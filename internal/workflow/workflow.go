// Package workflow is quarry's typed analysis graphs (docs/workflows.md):
// workflows/*.yaml in the knowledge folder, decoded with file:line
// problems (Decode), checked as a graph and against the knowledge
// (Validate: one entry, no cycles, every node reachable, every reference to
// an earlier node's output defined on every path to it and well-typed,
// every metric and verified query known), written back in one canonical
// form (Encode), and run node by node (Runner) with every step an event of
// the workflow's run, so that the run is a fold of its log (Fold) and
// resumes where the log ends. Expressions (compute, branch, the
// placeholders of questions and messages) are expr-lang programs over a
// typed environment with only pure builtins: no I/O, no clock, no loops
// over unbounded data.
//
// The package does no I/O of its own: the runtime hands the Runner what
// asks questions, runs queries, delivers notifications and stores events.
package workflow

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/yamlnode"
)

// Dir is the folder of the knowledge folder that holds workflows.
const Dir = "workflows"

// Kind is what a node does.
type Kind string

// The node kinds.
const (
	Ask     Kind = "ask"     // a question to the analyst (the builtin planner or the model)
	Query   Kind = "query"   // a verified query by its question, or SQL, through the guard
	Compute Kind = "compute" // a small expression over earlier outputs
	Branch  Kind = "branch"  // then or else, on a condition over earlier outputs
	Wait    Kind = "wait"    // until a time, for a while, or for a person's approval
	Notify  Kind = "notify"  // a message to the delivery channels (and always the run's record)
	End     Kind = "end"     // the workflow ends here: completed or stopped
)

// Kinds lists every node kind, in the order documentation shows them.
func Kinds() []Kind { return []Kind{Ask, Query, Compute, Branch, Wait, Notify, End} }

// ParamType is the type of a parameter.
type ParamType string

// The parameter types.
const (
	Text   ParamType = "text"
	Number ParamType = "number"
	Bool   ParamType = "bool"
)

// Workflow is one workflows/*.yaml file.
type Workflow struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Schedule    string  `json:"schedule,omitempty"` // when it runs on its own: cron or a phrase (docs/watch.md); "" never
	Params      []Param `json:"params,omitempty"`
	Nodes       []Node  `json:"nodes"` // the first node is where a run starts

	File string `json:"file,omitempty"` // relative to the knowledge folder
	Line int    `json:"line,omitempty"`
	// lines is where each field was, by its path ("nodes[2].expr"), for
	// Validate's messages; nil for a workflow not decoded from a file.
	lines map[string]int
}

// lineOf is the line of the field at path, or of its nearest parent.
func (w *Workflow) lineOf(path string) int {
	if l := yamlnode.LineIn(w.lines, path); l > 0 {
		return l
	}
	return w.Line
}

// Param is one parameter: its name (as used in expressions and
// placeholders), type and default (text; "" with Required for none).
type Param struct {
	Name        string    `json:"name"`
	Type        ParamType `json:"type"`
	Default     string    `json:"default,omitempty"`
	Required    bool      `json:"required,omitempty"`
	Description string    `json:"description,omitempty"`
	Line        int       `json:"line,omitempty"`
}

// Node is one step. Which fields apply depends on Kind (docs/workflows.md).
type Node struct {
	ID    string `json:"id"`
	Kind  Kind   `json:"kind"`
	Title string `json:"title,omitempty"` // a label for the report and the editor

	// ask: the question (placeholders {{ expr }} allowed).
	Question string `json:"question,omitempty"`
	// query: a verified query by its question, or SQL (no placeholders).
	Verified string `json:"verified,omitempty"`
	SQL      string `json:"sql,omitempty"`
	// ask and query: the least confidence an answer must have to go on
	// (0: any answer goes on; a failed check always stops the workflow),
	// and how many times a failed step is tried again.
	MinConfidence float64 `json:"min_confidence,omitempty"`
	Retries       int     `json:"retries,omitempty"`

	// compute: the expression; branch: the condition.
	Expr string `json:"expr,omitempty"`

	// wait: for a duration (Go's "90m", "2h"), until a time (RFC 3339),
	// or for a person's approval (the text they are shown).
	For      string `json:"for,omitempty"`
	Until    string `json:"until,omitempty"`
	Approval string `json:"approval,omitempty"`

	// notify: the channels of quarry.yaml (none: the run's record only)
	// and the message (placeholders allowed).
	Channels []string `json:"channels,omitempty"`
	Message  string   `json:"message,omitempty"`

	// end: completed (the default) or stopped, and a closing message.
	Status string `json:"status,omitempty"`

	// What follows: Next for every kind but branch and end; Then and Else
	// for branch.
	Next string `json:"next,omitempty"`
	Then string `json:"then,omitempty"`
	Else string `json:"else,omitempty"`

	Line int `json:"line,omitempty"`
}

// End statuses.
const (
	Completed = "completed"
	Stopped   = "stopped"
)

// Successors lists the nodes that may follow n, in the order its fields
// name them.
func (n *Node) Successors() []string {
	var out []string
	for _, s := range []string{n.Next, n.Then, n.Else} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Node returns the node called id, or nil.
func (w *Workflow) Node(id string) *Node {
	for i := range w.Nodes {
		if w.Nodes[i].ID == id {
			return &w.Nodes[i]
		}
	}
	return nil
}

// Param returns the parameter called name, or nil.
func (w *Workflow) Param(name string) *Param {
	for i := range w.Params {
		if w.Params[i].Name == name {
			return &w.Params[i]
		}
	}
	return nil
}

// nameRE is what a workflow, a node and a parameter may be called: they
// name files, appear in expressions and are typed on the command line.
var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_]*$`) })

// workflowNameRE is a workflow's name: also - (it names its file).
var workflowNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`) })

// ValidName says what is wrong with a workflow's name, or "" when nothing
// is.
func ValidName(name string) string {
	if !workflowNameRE().MatchString(name) {
		return fmt.Sprintf("a workflow's name is lower-case letters, digits, - and _ (it names its file), not %q", name)
	}
	return ""
}

// reserved are names a node or parameter may not take: the expression
// language's own words and builtins.
func reserved(name string) bool {
	switch name {
	case "true", "false", "nil", "and", "or", "not", "in", "matches", "contains", "startsWith", "endsWith", "let", "if", "else",
		"pct_change", "percent", "params":
		return true
	}
	return slices.Contains(builtins(), name)
}

// validID says what is wrong with a node's or parameter's name.
func validID(what, id string) string {
	switch {
	case id == "":
		return fmt.Sprintf("missing; name the %s (lower-case letters, digits and _)", what)
	case !nameRE().MatchString(id):
		return fmt.Sprintf("a %s's name is lower-case letters, digits and _, starting with a letter (it is used in expressions), not %q", what, id)
	case reserved(id):
		return fmt.Sprintf("%q is a word of the expression language; choose another name", id)
	}
	return ""
}

// placeholders returns the expressions of the {{ … }} placeholders in s,
// and what is wrong with how they are written ("" when nothing is).
func placeholders(s string) ([]string, string) {
	var out []string
	for {
		i := strings.Index(s, "{{")
		j := strings.Index(s, "}}")
		switch {
		case i < 0 && j < 0:
			return out, ""
		case i < 0 || (j >= 0 && j < i):
			return out, "a }} without its {{"
		case j < 0:
			return out, "a {{ without its }}"
		}
		e := strings.TrimSpace(s[i+2 : j])
		if e == "" {
			return out, "an empty {{ }}"
		}
		out = append(out, e)
		s = s[j+2:]
	}
}

// nodePath is the path of the i-th node's field in messages
// ("nodes[2].expr"), or of the node itself when field is "".
func nodePath(i int, field string) string {
	if field == "" {
		return fmt.Sprintf("nodes[%d]", i)
	}
	return fmt.Sprintf("nodes[%d].%s", i, field)
}
