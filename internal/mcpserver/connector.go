package mcpserver

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/rowpipe"
)

// Executor is the read-only database a connector server runs statements
// on; every connector.Conn is one.
type Executor interface {
	Dialect() quarry.Dialect
	Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error)
	Catalog(ctx context.Context) (*quarry.Catalog, error)
}

// ConnectorConfig is what a connector server is built from. Exec and Guard
// are required.
type ConnectorConfig struct {
	Name    string // what the server serves, for its instructions: "SQLite database shop.db"; never secrets
	Exec    Executor
	Guard   analyst.Guard // the composed guard for Exec's dialect
	MaxRows int64         // rows one statement may return; 0 = DefaultMaxRows
	Timeout time.Duration // per statement; 0 = DefaultTimeout
	// MaxValueBytes and MaxResultBytes bound what one statement reads
	// (the server holds the result whole); 0 = the connector package's
	// defaults.
	MaxValueBytes, MaxResultBytes int64
	Version                       string
	// Scrub, when set, removes secrets (a database URL) from a message
	// before it leaves the server.
	Scrub func(string) string
	// Pipe, when set, is the result pipe of the quarry client that
	// started the server over stdio (rowpipe): the server then also
	// offers rowpipe.Tool.
	Pipe *rowpipe.Writer
}

// Defaults of ConnectorConfig.
const (
	DefaultMaxRows = 10000
	DefaultTimeout = 30 * time.Second
)

// SchemaURI is the resource that holds the database's catalog as JSON
// (quarry.Catalog's encoding); SchemaTableURI is the template for one
// table (quarry.TableInfo).
const (
	SchemaURI      = "quarry://schema"
	SchemaTableURI = "quarry://schema/{table}"
)

// QueryInput is the input of a connector server's run_query.
type QueryInput struct {
	SQL string `json:"sql" jsonschema:"one read-only SELECT statement in the database's dialect"`
}

// connServer serves one executor. Statements run one at a time: a SQLite
// connection reads one statement at a time, and an MCP client rarely sends
// more.
type connServer struct {
	cfg ConnectorConfig
	mu  sync.Mutex
}

// NewConnector returns an MCP server with one tool, run_query, that runs a
// statement through cfg.Guard and then, read-only, on cfg.Exec, and the
// database's schema as resources.
func NewConnector(cfg ConnectorConfig) (*mcp.Server, error) {
	if cfg.Exec == nil || cfg.Guard == nil {
		return nil, quarry.Errorf(quarry.KindInternal, "mcpserver: Exec and Guard are required")
	}
	if cfg.MaxRows <= 0 {
		cfg.MaxRows = DefaultMaxRows
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxValueBytes <= 0 {
		cfg.MaxValueBytes = connector.DefaultMaxValueBytes
	}
	if cfg.MaxResultBytes <= 0 {
		cfg.MaxResultBytes = connector.DefaultMaxResultBytes
	}
	if cfg.Name == "" {
		cfg.Name = string(cfg.Exec.Dialect()) + " database"
	}
	c := &connServer{cfg: cfg}
	d := cfg.Exec.Dialect()
	srv := mcp.NewServer(&mcp.Implementation{Name: "quarry-" + string(d), Title: "quarry " + string(d) + " (read-only)", Version: cfg.Version}, &mcp.ServerOptions{
		Instructions: fmt.Sprintf(`quarry's read-only SQL server for the %s (dialect %s). `+
			`Every statement passes quarry's read-only guard before it runs, on a read-only connection; writes, DDL and more than one statement are refused with the rule that refused them. `+
			`Read the resource %s for the tables and columns (or %s for one table), then call run_query with one SELECT statement. `+
			`Results stop at %d rows (truncated is true then) and each statement may run for %s.`,
			cfg.Name, d, SchemaURI, SchemaTableURI, cfg.MaxRows, cfg.Timeout),
		Capabilities: &mcp.ServerCapabilities{},
	})
	in, err := jsonschema.For[QueryInput](nil)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "mcpserver: run_query's input schema")
	}
	out, err := jsonschema.For[Result](nil)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "mcpserver: run_query's output schema")
	}
	// A raw handler: the SDK's typed one would decode and validate every
	// cell of a large result against the output schema again, which
	// costs more than the query (100,000 rows: about a second).
	srv.AddTool(&mcp.Tool{
		Name: "run_query",
		Description: fmt.Sprintf("Run one read-only SELECT statement on the %s (%s dialect) and return its columns and rows (at most %d). "+
			"quarry's guard checks the statement first: anything that could write is refused, with the rule and what to change.", cfg.Name, d, cfg.MaxRows),
		Annotations:  readOnly("Run a read-only query"),
		InputSchema:  in,
		OutputSchema: out,
	}, c.runQueryRaw)
	srv.AddTool(&mcp.Tool{
		Name: connector.BinaryQueryTool,
		Description: "run_query for quarry's own client: the same statement under the same guard, its result in quarry's binary encoding (" +
			connector.ResultMIME + ") as an embedded resource instead of JSON. Other clients use run_query.",
		Annotations: readOnly("Run a read-only query (binary result)"),
		InputSchema: in,
	}, c.runQueryBinary)
	if cfg.Pipe != nil {
		pin, err := jsonschema.For[PipedInput](nil)
		if err != nil {
			return nil, quarry.Wrap(quarry.KindInternal, err, "mcpserver: %s's input schema", rowpipe.Tool)
		}
		srv.AddTool(&mcp.Tool{
			Name: rowpipe.Tool,
			Description: "run_query for the quarry client that started this server: the same statement under the same guard, its rows sent as they are read on the result pipe that client gave. " +
				"No other client holds that pipe; use run_query.",
			Annotations: readOnly("Run a read-only query (rows on the result pipe)"),
			InputSchema: pin,
		}, c.runQueryPiped)
	}
	srv.AddResource(&mcp.Resource{
		URI: SchemaURI, Name: "schema", Title: "Database schema",
		Description: "The tables and views with their columns, types, keys and row counts, as JSON.",
		MIMEType:    "application/json",
	}, c.readSchema)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: SchemaTableURI, Name: "table", Title: "One table's schema",
		Description: "One table or view with its columns, types and keys, as JSON.",
		MIMEType:    "application/json",
	}, c.readSchema)
	return srv, nil
}

// runQueryRaw reads run_query's arguments, runs it, and answers the
// result once encoded: as structured content and, for clients that read
// only text, as the same JSON in text.
func (c *connServer) runQueryRaw(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, err := c.runQuery(ctx, req.Params.Arguments, false)
	if err != nil {
		return errorResult(err), nil
	}
	b, err := encodeResult(res)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	text := string(b)
	if len(b) > maxTextCopy {
		// A client that reads only text could not use megabytes of rows
		// either; say what there is and how to narrow it, and do not send
		// (and make the client decode) the result twice.
		text = fmt.Sprintf("%d rows, %d columns (%.1f MB of JSON): too large to repeat as text; the rows are in the structured content. Aggregate, filter or add a LIMIT for a result that fits here.",
			len(res.Rows), len(res.Columns), float64(len(b))/(1<<20))
	}
	return &mcp.CallToolResult{StructuredContent: json.RawMessage(b), Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
}

// runQueryBinary is run_query with the result in quarry's binary encoding
// (connector.BinaryQueryTool): the values as the connector read them,
// times and all, with no JSON to write or read.
func (c *connServer) runQueryBinary(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, err := c.runQuery(ctx, req.Params.Arguments, true)
	if err != nil {
		return errorResult(err), nil
	}
	cols := make([]quarry.Column, len(res.Columns))
	for i, c := range res.Columns {
		cols[i] = quarry.Column{Name: c.Name, Type: c.Type, DBType: c.DBType}
	}
	enc, err := quarry.EncodeTable(&quarry.Table{Columns: cols, Rows: res.Rows})
	if err != nil {
		return errorResult(fail(err)), nil
	}
	// Compressed: every byte is base64 and then JSON to write and read
	// again, and a result's values repeat.
	z := bytes.NewBuffer(make([]byte, 0, len(enc)/3+64))
	fw, _ := flate.NewWriter(z, flate.BestSpeed) // the level is valid
	fw.Write(enc)
	if err := fw.Close(); err != nil {
		return errorResult(fail(err)), nil
	}
	body := z.Bytes()
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
		URI: "quarry://result", MIMEType: connector.ResultMIME, Blob: body,
		// size lets the client read the inflated result into one buffer.
		Meta: mcp.Meta{"truncated": res.Truncated, "row_count": res.RowCount, "size": len(enc)},
	}}}}, nil
}

// maxTextCopy is the largest result a connector server also sends as text.
const maxTextCopy = 1 << 20

// errorResult is a tool result that reports err, as the SDK's typed
// handlers report theirs.
func errorResult(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}

// runQuery reads the tool's arguments, checks the statement with the
// guard and runs it, keeping its rows as JSON values or, raw, as the
// connector read them.
func (c *connServer) runQuery(ctx context.Context, args json.RawMessage, raw bool) (*Result, error) {
	var in QueryInput
	sql, err := c.statement(ctx, args, &in, &in.SQL)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	res, err := c.query(ctx, sql, raw)
	if err != nil {
		return nil, failf(c.scrub(c.queryMessage(ctx, err)))
	}
	return res, nil
}

// statement reads a tool's arguments into in, whose SQL is *sql, and
// checks the statement with the guard.
func (c *connServer) statement(ctx context.Context, args json.RawMessage, in any, sql *string) (string, error) {
	if len(args) > 0 {
		if err := json.Unmarshal(args, in); err != nil {
			return "", failf(`the arguments are not {"sql": "…"}: ` + oneLine(err.Error()))
		}
	}
	stmt := strings.TrimSpace(*sql)
	if stmt == "" {
		return "", failf(`sql is empty; send one SELECT statement as "sql"`)
	}
	if v := c.cfg.Guard.Check(ctx, stmt); !v.Allowed {
		return "", fail(v.Err())
	}
	return stmt, nil
}

// queryOptions are the limits of one statement.
func (c *connServer) queryOptions() connector.QueryOptions {
	return connector.QueryOptions{
		MaxRows: c.cfg.MaxRows, Timeout: c.cfg.Timeout,
		MaxValueBytes: c.cfg.MaxValueBytes, MaxResultBytes: c.cfg.MaxResultBytes,
	}
}

// query runs sql and keeps its rows as JSON values, or raw, as the
// connector read them.
func (c *connServer) query(ctx context.Context, sql string, raw bool) (*Result, error) {
	rows, err := c.cfg.Exec.Query(ctx, sql, c.queryOptions())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	col := &collector{keep: int(c.cfg.MaxRows), raw: raw}
	col.Begin(rows.Columns())
	for rows.Next() {
		col.Row(rows.Values())
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	t, ok := rows.(connector.Truncator)
	res := col.result(ok && t.Truncated())
	return &res, nil
}

// queryMessage says on one line why a statement failed: quarry's own
// message with the database's reason, or the database's reason.
func (c *connServer) queryMessage(ctx context.Context, err error) string {
	var qe *quarry.Error
	switch {
	case errors.As(err, &qe) && (qe.Kind == quarry.KindTimeout || qe.Kind == quarry.KindCanceled):
		if errors.Is(ctx.Err(), context.DeadlineExceeded) || qe.Kind == quarry.KindTimeout {
			return fmt.Sprintf("the query ran longer than its %s timeout; narrow it (filters, LIMIT) or ask for a longer --timeout", c.cfg.Timeout)
		}
		return "the query was canceled"
	case errors.As(err, &qe):
		return oneLine(qe.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("the query ran longer than its %s timeout; narrow it (filters, LIMIT) or ask for a longer --timeout", c.cfg.Timeout)
	case errors.Is(err, context.Canceled):
		return "the query was canceled"
	}
	return "the database refused the query: " + oneLine(err.Error())
}

func (c *connServer) scrub(s string) string {
	if c.cfg.Scrub != nil {
		return c.cfg.Scrub(s)
	}
	return s
}

// readSchema answers quarry://schema with the catalog and
// quarry://schema/{table} with one table.
func (c *connServer) readSchema(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	c.mu.Lock()
	cat, err := c.cfg.Exec.Catalog(ctx)
	c.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("%s", c.scrub(oneLine(quarry.Message(err))))
	}
	var v any = cat
	if uri != SchemaURI {
		name, err := url.PathUnescape(strings.TrimPrefix(uri, SchemaURI+"/"))
		t := cat.Table(name)
		if err != nil || t == nil {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		v = t
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}
