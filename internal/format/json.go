package format

import (
	"bufio"
	"encoding/json"
	"strconv"

	"github.com/quarrydata/quarry/internal/quarry"
)

// jsonWriter writes one object, incrementally:
//
//	{"columns":[{"name":…,"type":…},…],"rows":[
//	[…],
//	…
//	],"row_count":N,"truncated":false}
//
// with "notice" added when Info.Notice is set.
type jsonWriter struct {
	w    *bufio.Writer
	line []byte
	n    int64
}

func (j *jsonWriter) Begin(cols []quarry.Column) error {
	if cols == nil {
		cols = []quarry.Column{}
	}
	enc, err := json.Marshal(cols)
	if err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot encode the result's columns")
	}
	j.line = append(j.line[:0], `{"columns":`...)
	j.line = append(j.line, enc...)
	j.line = append(j.line, `,"rows":[`...)
	_, err = j.w.Write(j.line)
	return writeError(err)
}

func (j *jsonWriter) Row(vals []any) error {
	j.line = j.line[:0]
	if j.n > 0 {
		j.line = append(j.line, ',')
	}
	j.line = append(j.line, '\n', '[')
	for i, v := range vals {
		if i > 0 {
			j.line = append(j.line, ',')
		}
		j.line = appendJSON(j.line, v)
	}
	j.line = append(j.line, ']')
	j.n++
	_, err := j.w.Write(j.line)
	return writeError(err)
}

func (j *jsonWriter) End(info Info) error {
	j.line = j.line[:0]
	if j.n > 0 {
		j.line = append(j.line, '\n')
	}
	j.line = append(j.line, `],"row_count":`...)
	j.line = strconv.AppendInt(j.line, max(j.n, info.Rows), 10)
	j.line = append(j.line, `,"truncated":`...)
	j.line = strconv.AppendBool(j.line, info.Truncated)
	if info.Notice != "" {
		j.line = append(j.line, `,"notice":`...)
		j.line = appendJSONString(j.line, info.Notice)
	}
	j.line = append(j.line, "}\n"...)
	if _, err := j.w.Write(j.line); err != nil {
		return writeError(err)
	}
	return j.Flush()
}

func (j *jsonWriter) Flush() error { return writeError(j.w.Flush()) }

// jsonlWriter writes one JSON object per row, keyed by column name; a
// repeated name gets a suffix (_2, _3, …) so that no key is lost.
type jsonlWriter struct {
	w    *bufio.Writer
	keys [][]byte // `"name":` per column
	line []byte
}

func (j *jsonlWriter) Begin(cols []quarry.Column) error {
	seen := map[string]bool{}
	j.keys = make([][]byte, len(cols))
	for i, c := range cols {
		name := c.Name
		for k := 2; seen[name]; k++ {
			name = c.Name + "_" + strconv.Itoa(k)
		}
		seen[name] = true
		j.keys[i] = append(appendJSONString(nil, name), ':')
	}
	return nil
}

func (j *jsonlWriter) Row(vals []any) error {
	j.line = append(j.line[:0], '{')
	for i, v := range vals {
		if i > 0 {
			j.line = append(j.line, ',')
		}
		if i < len(j.keys) {
			j.line = append(j.line, j.keys[i]...)
		} else {
			j.line = append(appendJSONString(j.line, "column_"+strconv.Itoa(i+1)), ':')
		}
		j.line = appendJSON(j.line, v)
	}
	j.line = append(j.line, '}', '\n')
	_, err := j.w.Write(j.line)
	return writeError(err)
}

func (j *jsonlWriter) End(Info) error { return j.Flush() }

func (j *jsonlWriter) Flush() error { return writeError(j.w.Flush()) }
