package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/rowpipe"
)

// PipedInput is the input of rowpipe.Tool: run_query's, and the number
// the frames of the answer carry.
type PipedInput struct {
	SQL  string `json:"sql" jsonschema:"one read-only SELECT statement in the database's dialect"`
	Call uint64 `json:"call" jsonschema:"the number that the frames of this call's rows carry on the result pipe"`
}

// A part of a piped result is sent once it holds partBytes of encoded
// rows: small enough that the client decodes one while the server reads
// the next, large enough that a frame costs nothing beside its rows.
const partBytes = 256 << 10

// runQueryPiped is run_query for the quarry client that started this
// server with a result pipe: the statement under the same guard and
// limits, its rows written on the pipe in parts as they are read, then
// the call's end, and only then the answer, whose _meta says "piped".
// A statement refused or failed before its first row writes nothing and
// answers as run_query does.
func (c *connServer) runQueryPiped(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in PipedInput
	sql, err := c.statement(ctx, req.Params.Arguments, &in, &in.SQL)
	if err != nil {
		return errorResult(err), nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	rows, err := c.cfg.Exec.Query(ctx, sql, c.queryOptions())
	if err != nil {
		return errorResult(failf(c.scrub(c.queryMessage(ctx, err)))), nil
	}
	defer rows.Close()
	end, err := c.sendRows(ctx, in.Call, rows)
	if err != nil {
		end.Error = c.scrub(c.queryMessage(ctx, err))
	}
	if werr := c.cfg.Pipe.End(in.Call, end); werr != nil && end.Error == "" {
		end.Error = "the result pipe failed: " + oneLine(werr.Error())
	}
	meta := mcp.Meta{"piped": true, "row_count": end.Rows, "truncated": end.Truncated}
	if end.Error != "" {
		res := errorResult(failf(end.Error))
		res.Meta = meta
		return res, nil
	}
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%d rows sent on the result pipe", end.Rows)}},
		Meta:    meta,
	}, nil
}

// sendRows writes rows on the pipe in parts, the first (with the columns)
// even when there are none.
func (c *connServer) sendRows(ctx context.Context, call uint64, rows quarry.Rows) (rowpipe.End, error) {
	var end rowpipe.End
	cols := rows.Columns()
	parts := make([]quarry.Column, len(cols))
	for i, col := range cols {
		parts[i] = quarry.Column{Name: col.Name, Type: col.Type, DBType: col.DBType}
	}
	enc := quarry.NewPartEncoder(parts)
	n, sent := 0, false
	flush := func() error {
		if err := c.cfg.Pipe.Rows(call, enc.Part()); err != nil {
			return quarry.Wrap(quarry.KindQuery, err, "the result pipe failed: %s", oneLine(err.Error()))
		}
		end.Rows += int64(n)
		n, sent = 0, true
		return ctx.Err()
	}
	for rows.Next() {
		if err := enc.Row(rows.Values()); err != nil {
			return end, err
		}
		n++
		if enc.Len() >= partBytes {
			if err := flush(); err != nil {
				return end, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return end, err
	}
	if n > 0 || !sent {
		if err := flush(); err != nil {
			return end, err
		}
	}
	t, ok := rows.(connector.Truncator)
	end.Truncated = ok && t.Truncated()
	return end, nil
}
