// Package knowledge reads, validates and writes the knowledge folder: the
// semantic model of a database (model.yaml, or one file per entity in
// entities/, or both), its business metrics and
// dimensions (metrics.yaml), the column policy (policy.yaml), verified
// queries (examples/*.yaml), monitors (monitors/*.yaml, decoded into
// watch.Monitor) and free notes (notes/*.md).
//
// Load parses a folder into a Folder with file:line errors for anything
// wrong in it. Learn builds the folder from a database catalog and, run
// again, refreshes it: it keeps every human edit, adds what is new and
// reports drift, that is knowledge that refers to tables or columns the
// database no longer has; LearnOptions.Only limits it to the tables some
// globs match. Learn writes its files all together or not at all, and an
// interrupted run leaves what it read for the next one to resume from.
// Migrate splits model.yaml into entities/.
//
// The package reads and writes files and queries the database only through
// the small Source interface; it never writes to the database.
package knowledge
