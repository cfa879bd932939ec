package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
)

// AskFunc answers a question, recording the run through rec: the builtin
// planner's answer or the agent's, as `quarry ask` gives it.
type AskFunc func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time) (*analyst.AskOutcome, error)

// RunFunc runs the user's own statement through the guard, read-only,
// streaming the rows to sink and recording the run through rec, as
// `quarry run` does.
type RunFunc func(ctx context.Context, rec *event.Recorder, sql string, sink analyst.RowSink) (*analyst.RunOutcome, error)

// Store is what the server needs of quarry's state database: somewhere to
// record runs, and the results they kept.
type Store interface {
	event.Sink
	Result(ctx context.Context, id string) (*quarry.Table, error)
}

// Verified is an approved question and its SQL from the knowledge folder.
type Verified struct {
	Question string `json:"question"`
	SQL      string `json:"sql"`
}

// Project is what the knowledge folder says at one moment.
type Project struct {
	Knowledge *analyst.Knowledge
	Verified  []Verified
	// Policy is the column policy: results are redacted by it, by name,
	// as the last line behind the guard.
	Policy *policy.Policy
	// Withheld lists the catalog's relations the column policy refuses as
	// a whole (views over restricted columns), by lower-case name; describe
	// marks their columns restricted.
	Withheld map[string]bool
}

// ProjectFunc returns what the knowledge folder says now: the runtime
// reads it again when its files change, so every tool call runs under the
// policy of the moment it starts.
type ProjectFunc func(ctx context.Context) (*Project, error)

// Config is what a project server is built from. Ask, Run, Project,
// Store, Clock and NewID are required.
type Config struct {
	Ask     AskFunc
	Run     RunFunc
	Project ProjectFunc
	// Catalog is the connection's live schema, when known; describe falls
	// back to the knowledge folder's entities.
	Catalog    *quarry.Catalog
	Connection string // the connection's name
	Dialect    quarry.Dialect
	Store      Store
	Clock      func() time.Time
	NewID      func(prefix string) string
	Version    string
	RunTimeout time.Duration // how long one tool call may take; 0 = DefaultRunTimeout
}

// Defaults and bounds of the project server's tools.
const (
	DefaultRunTimeout = 5 * time.Minute
	previewRows       = 20   // rows of an answer in ask's result
	defaultPageRows   = 100  // rows run_query and get_result return by default
	maxPageRows       = 1000 // the most rows run_query and get_result return at once
)

// server is the project server's state.
type server struct {
	cfg Config
}

// project returns what the knowledge folder says now, and its policy as
// the tools apply it.
func (s *server) project(ctx context.Context) (*Project, restricted, error) {
	p, err := s.cfg.Project(ctx)
	if err != nil {
		return nil, restricted{}, fail(err)
	}
	return p, restricted{p: p.Policy}, nil
}

// New returns the project server: ask, run_query, describe and get_result
// over the runtime in cfg.
func New(cfg Config) (*mcp.Server, error) {
	if cfg.Ask == nil || cfg.Run == nil || cfg.Project == nil || cfg.Store == nil || cfg.Clock == nil || cfg.NewID == nil {
		return nil, quarry.Errorf(quarry.KindInternal, "mcpserver: Ask, Run, Project, Store, Clock and NewID are required")
	}
	if cfg.RunTimeout <= 0 {
		cfg.RunTimeout = DefaultRunTimeout
	}
	s := &server{cfg: cfg}
	name := cfg.Connection
	if name == "" {
		name = "the project's connection"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "quarry", Title: "quarry", Version: cfg.Version}, &mcp.ServerOptions{
		Instructions: fmt.Sprintf(`quarry answers questions about %s (%s) read-only, with the exact SQL, the checks that ran on the result and a record of every run. `+
			`Call describe first to learn the tables, metrics, dimensions and verified questions. `+
			`Prefer ask for business questions: it maps them onto the project's definitions, and says what it did not understand rather than guess. `+
			`Use run_query for your own SELECT statement: quarry's guard refuses anything that could write, with the rule and what to change. `+
			`Results keep up to 1000 rows; page through them with get_result. Restricted columns are never shown.`, name, cfg.Dialect),
		Capabilities: &mcp.ServerCapabilities{},
	})
	mcp.AddTool(srv, &mcp.Tool{
		Name: "ask",
		Description: "Answer a question about the data in plain language: the answer in Markdown, the SQL quarry ran, the checks on the result and a confidence computed from them, " +
			"and the first rows. A question quarry cannot map with confidence is not guessed: the result says what was understood, what was not, and the closest known terms.",
		Annotations: readOnly("Ask a question"),
	}, s.ask)
	mcp.AddTool(srv, &mcp.Tool{
		Name: "run_query",
		Description: fmt.Sprintf("Run one read-only SELECT statement (%s dialect) through quarry's guard, recorded as a run like `quarry run`, and return its first rows (max_rows, default %d, at most %d). "+
			"The full result (up to 1000 rows) stays in quarry: page through it with get_result.", cfg.Dialect, defaultPageRows, maxPageRows),
		Annotations: readOnly("Run a read-only query"),
	}, s.runQuery)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "describe",
		Description: "Describe the project: the connection, its tables and columns (restricted columns marked), the metrics and dimensions the knowledge folder defines, and its verified questions with their SQL.",
		Annotations: readOnly("Describe the data"),
	}, s.describe)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "get_result",
		Description: fmt.Sprintf("Read the rows of an earlier result by its result_id (or the run_id of the ask or run_query that made it), a page at a time: offset (default 0) and limit (default %d, at most %d).", defaultPageRows, maxPageRows),
		Annotations: readOnly("Read a stored result"),
	}, s.getResult)
	return srv, nil
}

// recorder starts the record of a new run.
func (s *server) recorder() *event.Recorder {
	rec := event.NewRecorder(s.cfg.NewID("r"), s.cfg.Clock, s.cfg.Store)
	rec.Hold() // a few durable writes per run, not one per event
	return rec
}

// RunInput is the input of the project server's run_query.
type RunInput struct {
	SQL     string `json:"sql" jsonschema:"one read-only SELECT statement in the connection's dialect"`
	MaxRows int    `json:"max_rows,omitempty" jsonschema:"the most rows to return (default 100, at most 1000); the rest are counted and kept for get_result"`
}

// RunResult is what run_query returns. RowCount counts every row the
// statement returned; Truncated is true when Rows are not all of them
// (max_rows or the row cap stopped them).
type RunResult struct {
	Result
	RunID    string `json:"run_id"`
	ResultID string `json:"result_id,omitempty"`
}

func (s *server) runQuery(ctx context.Context, _ *mcp.CallToolRequest, in RunInput) (*mcp.CallToolResult, *RunResult, error) {
	sql := strings.TrimSpace(in.SQL)
	if sql == "" {
		return nil, nil, failf(`sql is empty; send one SELECT statement as "sql"`)
	}
	keep, err := pageSize("max_rows", in.MaxRows)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RunTimeout)
	defer cancel()
	_, pol, err := s.project(ctx)
	if err != nil {
		return nil, nil, err
	}
	rec := s.recorder()
	sink := &collector{keep: keep, policy: pol}
	out, err := s.cfg.Run(ctx, rec, sql, sink)
	if err != nil {
		return nil, nil, failf(quarry.Message(err) + " (run " + rec.RunID() + ")")
	}
	// truncated: the rows here are not the whole result, whether max_rows
	// or the row cap stopped them.
	r := sink.result(out.Truncated || out.Rows > int64(len(sink.rows)))
	return nil, &RunResult{Result: r, RunID: out.RunID, ResultID: out.ResultID}, nil
}

// pageSize reads a row count argument: 0 is the default, above the
// bound is an error that says the bound.
func pageSize(name string, n int) (int, error) {
	switch {
	case n == 0:
		return defaultPageRows, nil
	case n < 0 || n > maxPageRows:
		return 0, failf(fmt.Sprintf("%s must be between 1 and %d", name, maxPageRows))
	}
	return n, nil
}

// ResultInput is the input of get_result.
type ResultInput struct {
	ResultID string `json:"result_id" jsonschema:"the result_id an ask or run_query returned (its run_id reads the same result)"`
	Offset   int    `json:"offset,omitempty" jsonschema:"the first row to return, counting from 0"`
	Limit    int    `json:"limit,omitempty" jsonschema:"the most rows to return (default 100, at most 1000)"`
}

// Page is what get_result returns: rows offset… of a stored result, how
// many rows it holds, and where the next page starts (absent on the last).
type Page struct {
	ResultID   string   `json:"result_id"`
	Columns    []Column `json:"columns"`
	Rows       [][]any  `json:"rows"`
	Offset     int      `json:"offset"`
	Total      int      `json:"total"`
	NextOffset *int     `json:"next_offset,omitempty"`
	// Truncated is true when the statement returned more rows than quarry
	// keeps (Total); run the SQL again with run_query for a narrower view.
	Truncated bool `json:"truncated"`
}

func (s *server) getResult(ctx context.Context, _ *mcp.CallToolRequest, in ResultInput) (*mcp.CallToolResult, *Page, error) {
	id := strings.TrimSpace(in.ResultID)
	if id == "" {
		return nil, nil, failf("result_id is empty; ids come from ask or run_query")
	}
	limit, err := pageSize("limit", in.Limit)
	if err != nil {
		return nil, nil, err
	}
	if in.Offset < 0 {
		return nil, nil, failf("offset must be 0 or more")
	}
	// A run's first result is "res_" + its run ID: a run ID reads it.
	if strings.HasPrefix(id, "r_") {
		id = "res_" + id
	}
	_, pol, err := s.project(ctx)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.cfg.Store.Result(ctx, id)
	if quarry.KindOf(err) == quarry.KindNotFound {
		return nil, nil, failf(fmt.Sprintf("no result %q; ids come from ask or run_query", id))
	}
	if err != nil {
		return nil, nil, fail(err)
	}
	p := &Page{ResultID: id, Columns: columns(t.Columns), Rows: [][]any{}, Offset: in.Offset, Total: len(t.Rows), Truncated: t.Truncated}
	hide := pol.columns(t.Columns)
	end := min(len(t.Rows), in.Offset+limit)
	for i := in.Offset; i < end; i++ {
		p.Rows = append(p.Rows, pol.redact(jsonRow(t.Rows[i]), hide))
	}
	if end < len(t.Rows) {
		p.NextOffset = &end
	}
	return nil, p, nil
}
