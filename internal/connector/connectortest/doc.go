// Package connectortest is the conformance suite every connector runs: the
// same fixture tables, created with each database's own DDL, must arrive in
// quarry's Table types with faithful types and JSON-safe values; row caps,
// timeouts, catalog introspection and the refusal of writes behave the
// same everywhere. It also holds the helper that tests use to find a test
// server's URL in the environment.
package connectortest
