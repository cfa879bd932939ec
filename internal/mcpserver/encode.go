package mcpserver

import (
	"encoding/json"
	"strconv"

	"github.com/quarrydata/quarry/internal/quarry"
)

// encodeResult is json.Marshal(res), byte for byte, writing the rows cell
// by cell (quarry.AppendJSON) instead of through reflection: a connector
// server's answer of 100,000 rows spent more time in json.Marshal than in
// the query.
func encodeResult(res *Result) ([]byte, error) {
	head, err := json.Marshal(struct {
		Columns []Column `json:"columns"`
	}{res.Columns})
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(head)+64+len(res.Rows)*16*max(len(res.Columns), 1))
	b = append(b, head[:len(head)-1]...) // without its closing brace
	b = append(b, `,"rows":`...)
	if res.Rows == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, row := range res.Rows {
			if i > 0 {
				b = append(b, ',')
			}
			if row == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, '[')
			for j, v := range row {
				if j > 0 {
					b = append(b, ',')
				}
				if b, err = quarry.AppendJSON(b, v); err != nil {
					return nil, err
				}
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	b = append(b, `,"row_count":`...)
	b = strconv.AppendInt(b, res.RowCount, 10)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, res.Truncated)
	return append(b, '}'), nil
}
