// Package privacy decides what of a result may reach a language model
// under a connection's privacy tier (quarry.Privacy).
//
// Under aggregates-only, a result reaches the model only when quarry can
// prove it aggregated, twice over and by mechanism rather than by names:
//
//  1. The statement's shape, read by the engine's own parser (PostgreSQL's
//     for PostgreSQL, SQLite and DuckDB; the TiDB grammar for MySQL and
//     MariaDB): one SELECT over base tables, no set operation, CTE,
//     window or subquery in what it returns; every output is a GROUP BY
//     key or an expression over keys and aggregates of the group (count,
//     sum, avg and the spread functions, each over one column or *);
//     aggregates that return rows' values as they are (min, max,
//     group_concat, string_agg, array_agg, json_agg, …) and expressions
//     inside an aggregate (the CASE that picks out one row) are refused.
//  2. The data: Aggregated writes the companion statement, the statement
//     itself with counts appended to its output (the rows behind each
//     group, and the distinct rows of every table occurrence it reads, by
//     primary key or the engine's row identity), so that aliases,
//     ordinals, HAVING, ORDER BY and LIMIT read exactly as in the
//     statement. Judge releases the result only when the companion
//     returned exactly the result's rows, and each group stands on at
//     least k rows of every table it reads (so a join that repeats one
//     row k times does not make a group of k).
//
// Anything else is withheld from the model, with the reason; the user
// still sees the whole result.
package privacy
