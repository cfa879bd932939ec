// Package mcpserver serves quarry over the Model Context Protocol: the
// connector servers of `quarry connector` (a guarded run_query tool, its
// binary twin for quarry's own client, and the schema as resources over a
// read-only executor) and the project server of `quarry mcp` (ask,
// run_query, describe and get_result on the same runtime as `quarry
// serve`). It is a transport: it decodes a tool
// call, calls the runtime it is given, and encodes the result. It holds no
// SQL and no prompts of its own, and every statement it is handed goes
// through the guard it is given before anything runs.
package mcpserver
