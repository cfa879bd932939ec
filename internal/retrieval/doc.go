// Package retrieval is the one retrieval index over what quarry knows of
// a connection: its tables and columns (names, comments), and the
// knowledge's descriptions, synonyms, metrics, dimensions, verified
// questions, notes and the values a question names. A question is read
// into words (identifiers split at case changes, underscores and digits;
// English stems with the irregular forms the planner also reads; common
// question words dropped), tables are ranked by BM25F over their fields
// with the evidence of their columns, the best hits are joined along the
// foreign-key graph (bounded join paths between them), and a token budget
// decides how much of that ranking is shown. Every table shown carries
// why: the words it matched, or the two hits it joins.
//
// The index is pure: built in memory from its inputs, no I/O, no clock.
// It is safe for concurrent searches once built. Embeddings are not used;
// ranking is lexical only.
package retrieval
