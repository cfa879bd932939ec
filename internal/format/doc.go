// Package format writes query results as text: an aligned table that fits a
// terminal, CSV, TSV, JSON, JSON Lines and Markdown.
//
// Every format is a Writer fed one row at a time. csv, tsv, json and jsonl
// stream through a bufio.Writer in constant memory, whatever the number of
// rows; table and markdown keep only the preview rows (Options.PreviewRows)
// and end with a notice saying how many more rows there were.
//
// Values are rendered the same way everywhere: NULL is empty in csv and tsv,
// null in JSON and NULL in table and markdown; integers in full; floats in
// plain decimal notation (an exponent only below 1e-6 or from 1e21 on);
// bytes as base64 in JSON and as \x followed by lower-case hex in the text
// formats; times in RFC 3339.
package format
