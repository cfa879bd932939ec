package mcpconn

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/rowpipe"
)

// sqlArgNames are the argument names that take SQL, in order of preference.
var sqlArgNames = []string{"sql", "query", "statement", "sql_query"}

// toolNames are the usual names of a SQL tool, in order of preference.
var toolNames = []string{"run_query", "query", "execute_sql", "sql_query", "read_query", "execute_query", "run_sql"}

// maxTools bounds how many tools discovery reads.
const maxTools = 1000

// inputSchema is the part of a tool's input schema discovery reads.
type inputSchema struct {
	Properties map[string]struct {
		Type any `json:"type"`
	} `json:"properties"`
	Required []string `json:"required"`
}

func schemaOf(t *mcp.Tool) inputSchema {
	var s inputSchema
	if b, err := json.Marshal(t.InputSchema); err == nil {
		json.Unmarshal(b, &s)
	}
	return s
}

// sqlArg returns the first of sqlArgNames that is a string property of
// the schema, or "".
func (s inputSchema) sqlArg() string {
	for _, n := range sqlArgNames {
		if p, ok := s.Properties[n]; ok && isString(p.Type) {
			return n
		}
	}
	return ""
}

func isString(t any) bool {
	switch t := t.(type) {
	case nil:
		return true
	case string:
		return t == "string"
	case []any:
		for _, x := range t {
			if x == "string" {
				return true
			}
		}
	}
	return false
}

// discover finds the tool that runs SQL and its SQL argument.
func (c *Conn) discover(ctx context.Context, s *session) error {
	name := c.opts.Name
	var tools []*mcp.Tool
	for t, err := range s.cs.Tools(ctx, nil) {
		if err != nil {
			return c.fail(ctx, s, err, "listing its tools", c.opts.ConnectTimeout)
		}
		tools = append(tools, t)
		if len(tools) >= maxTools {
			break
		}
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	sort.Strings(names)
	offers := "nothing"
	if len(names) > 0 {
		offers = quarry.Clean(strings.Join(names, ", "), 300)
	}
	var chosen *mcp.Tool
	if c.opts.Tool != "" {
		i := slices.IndexFunc(tools, func(t *mcp.Tool) bool { return t.Name == c.opts.Tool })
		if i < 0 {
			return quarry.Errorf(quarry.KindConfig, "connection %q: the server has no tool %q; it offers: %s — set tool: to one of them", name, short(c.opts.Tool), offers)
		}
		chosen = tools[i]
	} else {
		var candidates []*mcp.Tool
		for _, t := range tools {
			// The binary and piped tools answer run_query's statements
			// for quarry alone; they are used beside run_query, never
			// instead.
			if schemaOf(t).sqlArg() != "" && t.Name != connector.BinaryQueryTool && t.Name != rowpipe.Tool {
				candidates = append(candidates, t)
			}
		}
		switch {
		case len(candidates) == 1:
			chosen = candidates[0]
		case len(candidates) == 0:
			return quarry.Errorf(quarry.KindConfig, "connection %q: no tool of the server takes SQL (an argument named sql, query, statement or sql_query); it offers: %s — set tool: and sql_argument: in quarry.yaml", name, offers)
		default:
			for _, want := range toolNames {
				if i := slices.IndexFunc(candidates, func(t *mcp.Tool) bool { return t.Name == want }); i >= 0 {
					chosen = candidates[i]
					break
				}
			}
			if chosen == nil {
				cn := make([]string, len(candidates))
				for i, t := range candidates {
					cn[i] = t.Name
				}
				sort.Strings(cn)
				return quarry.Errorf(quarry.KindConfig, "connection %q: several tools of the server take SQL: %s — set tool: to the one that runs read-only queries", name, quarry.Clean(strings.Join(cn, ", "), 300))
			}
		}
	}
	s.tool, s.tools = chosen.Name, tools
	s.sqlArg = c.opts.SQLArgument
	if s.sqlArg == "" {
		s.sqlArg = schemaOf(chosen).sqlArg()
		if s.sqlArg == "" {
			return quarry.Errorf(quarry.KindConfig, "connection %q: tool %q has no argument named sql, query, statement or sql_query; set sql_argument: to the one that takes the SQL", name, short(chosen.Name))
		}
	}
	// A quarry connector server's run_query has a binary twin.
	if chosen.Name == "run_query" {
		i := slices.IndexFunc(tools, func(t *mcp.Tool) bool { return t.Name == connector.BinaryQueryTool })
		if i >= 0 && schemaOf(tools[i]).sqlArg() == s.sqlArg {
			s.binary = connector.BinaryQueryTool
		}
		// And a server quarry started with a result pipe, a piped one.
		i = slices.IndexFunc(tools, func(t *mcp.Tool) bool { return t.Name == rowpipe.Tool })
		if i >= 0 && s.pipe != nil && schemaOf(tools[i]).sqlArg() == s.sqlArg && s.pipe.ready(ctx) {
			s.piped = rowpipe.Tool
		}
	}
	return nil
}
