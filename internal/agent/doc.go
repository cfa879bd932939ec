// Package agent answers questions with a language model working in a
// bounded tool loop, through the same guard, execution, checks and events as
// the builtin planner (see docs/agent.md).
//
// The model sees the schema and the knowledge folder as fenced data, calls
// tools (search_schema, describe_table, sample_values, read_knowledge,
// query_metric, run_query or propose_query, submit_answer), and every SQL it
// writes passes the guard before it reaches the database. Failed queries are
// classified and fed back within a repair budget. The model sees preview
// rows only, and restricted columns never reach it: they are left out of
// the schema, samples and knowledge text, and redacted from every result.
// Confidence comes from the verify checks, never from the model.
//
// The package also holds manual mode (a proposed query, then the result a
// person pasted), the fixer of `quarry run`, and follow-up questions of a
// session. It depends on small interfaces it declares; cmd wires the
// concrete connection, guard, store and model gateway.
package agent
