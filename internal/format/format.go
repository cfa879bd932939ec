package format

import (
	"bufio"
	"io"
	"sort"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Writer writes one result: Begin once with the columns, Row for each row,
// End once with what the caller knows about the whole result. Flush pushes
// what has been written so far to the underlying writer; an interrupted
// csv, tsv or jsonl export that is flushed ends at the last whole row.
//
// Row does not keep vals after it returns.
type Writer interface {
	Begin(cols []quarry.Column) error
	Row(vals []any) error
	End(info Info) error
	Flush() error
}

// Info describes the whole result at End.
type Info struct {
	// Rows is the number of rows in the result. Writers use the larger of
	// Rows and the number of rows they were given, so a caller that passes
	// only a preview can still say how many rows there are.
	Rows int64
	// Truncated is true when a row cap stopped the result early.
	Truncated bool
	// Notice is a line for the reader (table and markdown print it; json
	// carries it as "notice").
	Notice string
}

// Options shape the output.
type Options struct {
	// Width is the terminal width the table format fits into; 0 means no
	// limit.
	Width int
	// PreviewRows is the most rows table and markdown show; 0 means
	// DefaultPreviewRows.
	PreviewRows int
}

// DefaultPreviewRows is the preview size when Options.PreviewRows is 0.
const DefaultPreviewRows = 50

// bufferSize is the size of the output buffer of every writer.
const bufferSize = 64 << 10

// Names returns the format names New accepts, sorted.
func Names() []string {
	names := []string{"csv", "json", "jsonl", "markdown", "table", "tsv"}
	sort.Strings(names)
	return names
}

// New returns the writer for the named format (case-insensitive), writing
// to w. An unknown name is a KindUsage error that lists the formats.
func New(name string, w io.Writer, opts Options) (Writer, error) {
	if opts.PreviewRows <= 0 {
		opts.PreviewRows = DefaultPreviewRows
	}
	bw := bufio.NewWriterSize(w, bufferSize)
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "csv":
		return &delimited{w: bw, sep: ',', quote: true}, nil
	case "tsv":
		return &delimited{w: bw, sep: '\t'}, nil
	case "json":
		return &jsonWriter{w: bw}, nil
	case "jsonl", "ndjson":
		return &jsonlWriter{w: bw}, nil
	case "table":
		return &tableWriter{w: bw, opts: opts}, nil
	case "markdown", "md":
		return &markdownWriter{w: bw, opts: opts}, nil
	}
	return nil, quarry.Errorf(quarry.KindUsage, "unknown format %q; use one of: %s", name, strings.Join(Names(), ", "))
}

// writeError wraps a failure to write the output.
func writeError(err error) error {
	if err == nil {
		return nil
	}
	return quarry.Wrap(quarry.KindInternal, err, "cannot write the result; check the output file or pipe")
}

// moreRows is the notice for rows a preview left out.
func moreRows(n int64) string {
	word := "rows"
	if n == 1 {
		word = "row"
	}
	return "… " + groupDigits(n) + " more " + word + "; use --format csv to export them all"
}

// groupDigits writes n with comma thousands separators.
func groupDigits(n int64) string {
	s := []byte(strconvItoa(n))
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	var out []byte
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
