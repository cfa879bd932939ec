// Package mcpconn is a connector that reaches a user's database through an
// MCP server: quarry is the MCP client, and each statement is one call of
// the server's SQL tool. The server is either a program quarry starts and
// talks to over stdin and stdout (with exactly the environment it is
// given, and stopped with it), or one reached over streamable HTTP.
//
// The tool and its SQL argument are configured or discovered from the
// server's tools; the answer (structured content, or text: JSON, CSV, an
// ASCII table) is read by connector/normalize. The catalog comes from a
// quarry://schema resource, per-table schema resources, or the dialect's
// catalog query.
//
// quarry's guard has already allowed every statement that reaches Query;
// the connector cannot see the server's credentials, so it offers no
// read-only probe. Environment values, header values and the URL may hold
// secrets: they are never put into an error, a log line or an Identity.
package mcpconn
