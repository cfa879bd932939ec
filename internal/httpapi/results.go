package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/format"
	"github.com/quarrydata/quarry/internal/quarry"
)

// resultID matches the IDs the store gives results: "res_" + run ID, and
// "_2", "_3"… for a run's later results.
var resultID = regexp.MustCompile(`^res_(.+?)(_[0-9]+)?$`)

// getResult streams a whole result as JSON or CSV. A stored result that
// holds every row is served from the state database; one whose stored copy
// was cut short is read again: its run's SQL goes through the guard and
// runs read-only (a run of its own, recorded), and the rows stream
// straight to the client however many there are. A result whose run is
// gone is expired (410).
func (s *Server) getResult(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	format := r.URL.Query().Get("format")
	switch format {
	case "", "json":
		format = "json"
	case "csv":
	default:
		writeError(w, errf("format %q is not known; use json or csv", format))
		return
	}
	ctx := r.Context()
	t, err := s.cfg.Store.Result(ctx, id)
	if err != nil && quarry.KindOf(err) != quarry.KindNotFound {
		writeError(w, err)
		return
	}
	if err == nil && !t.Truncated {
		out := newResultWriter(w, format, id)
		out.Begin(t.Columns)
		for _, row := range t.Rows {
			out.Row(row)
		}
		out.End(int64(len(t.Rows)), false)
		return
	}
	st, rerr := s.runOfResult(ctx, id)
	switch {
	case rerr != nil && err != nil:
		writeError(w, err) // neither the result nor its run: unknown
		return
	case rerr != nil:
		writeError(w, quarry.Errorf(quarry.KindExpired, "result %s was cut short when it was stored and its run is gone, so it cannot be read again; ask again", id))
		return
	case st.SQL == "" || (err != nil && st.ResultID != id):
		writeError(w, quarry.Errorf(quarry.KindNotFound, "no result %q", id))
		return
	case err != nil:
		// The run recorded this result and the store no longer holds it:
		// it is gone, not to be replaced by today's rows under its ID
		// (found from outside). Only a result stored cut short is read
		// again.
		writeError(w, quarry.Errorf(quarry.KindExpired, "result %s is no longer stored; ask again", id))
		return
	}
	s.rerun(w, r, id, format, st)
}

// runOfResult returns the run a result ID belongs to.
func (s *Server) runOfResult(ctx context.Context, id string) (event.RunState, error) {
	m := resultID.FindStringSubmatch(id)
	if m == nil {
		return event.RunState{}, quarry.Errorf(quarry.KindNotFound, "no result %q", id)
	}
	st, err := s.cfg.Store.Run(ctx, m[1]+m[2])
	if err == nil {
		return st, nil
	}
	return s.cfg.Store.Run(ctx, m[1])
}

// rerun reads a result again from its run's SQL and streams it.
func (s *Server) rerun(w http.ResponseWriter, r *http.Request, id, format string, st event.RunState) {
	if s.cfg.MayStart != nil {
		// Reading it again is a run: only someone who may start one on
		// the connection (found from outside: a viewer, and an analyst
		// given another connection, read a shared result's 5,000 rows).
		if err := s.cfg.MayStart(r.Context()); err != nil {
			status := http.StatusForbidden
			if quarry.KindOf(err) != quarry.KindForbidden {
				status = Status(quarry.KindOf(err))
			}
			writeErrorStatus(w, status, err)
			return
		}
	}
	if !s.admit(w) {
		return
	}
	defer s.release()
	runner, closeRun, err := s.start(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	defer closeRun()
	out := newResultWriter(w, format, id)
	rec := event.NewRecorder(s.cfg.NewID("r"), s.cfg.Clock, s.cfg.Store)
	res, err := runner.Run(r.Context(), rec, st.SQL, out)
	if err != nil {
		if !out.begun {
			writeError(w, err)
			return
		}
		out.Fail(err)
		return
	}
	out.End(res.Rows, res.Truncated)
}

// resultWriter streams a result as JSON ({columns, rows, row_count,
// truncated}) or CSV (a header row, then the rows).
type resultWriter struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	buf    *bufio.Writer
	csv    format.Writer // the CLI's CSV writer, so both give the same bytes
	format string
	id     string
	begun  bool
	n      int64
}

func newResultWriter(w http.ResponseWriter, format, id string) *resultWriter {
	return &resultWriter{w: w, rc: http.NewResponseController(w), format: format, id: id}
}

// Begin writes the headers and the columns.
func (o *resultWriter) Begin(cols []quarry.Column) error {
	o.begun = true
	h := o.w.Header()
	name := strings.NewReplacer("/", "_", `"`, "_", "\\", "_").Replace(o.id)
	if o.format == "csv" {
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.csv"`, name))
	} else {
		h.Set("Content-Type", "application/json; charset=utf-8")
	}
	o.w.WriteHeader(http.StatusOK)
	o.buf = bufio.NewWriterSize(o.w, 64<<10)
	if o.format == "csv" {
		w, err := format.New("csv", o.buf, format.Options{})
		if err != nil {
			return err
		}
		o.csv = w
		return o.csv.Begin(cols)
	}
	c, err := json.Marshal(columnsJSON(cols))
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(o.buf, `{"columns":%s,"rows":[`, c)
	return err
}

func columnsJSON(cols []quarry.Column) []columnJSON {
	out := make([]columnJSON, len(cols))
	for i, c := range cols {
		out[i] = columnJSON{Name: c.Name, Type: c.Type}
	}
	return out
}

// Row writes one row.
func (o *resultWriter) Row(vals []any) error {
	o.n++
	if o.csv != nil {
		return o.csv.Row(vals)
	}
	b, err := json.Marshal(jsonRow(vals))
	if err != nil {
		return err
	}
	if o.n > 1 {
		o.buf.WriteByte(',')
	}
	_, err = o.buf.Write(b)
	return err
}

// End closes the result.
func (o *resultWriter) End(rows int64, truncated bool) {
	if o.csv != nil {
		o.csv.End(format.Info{Rows: rows, Truncated: truncated})
	} else {
		fmt.Fprintf(o.buf, `],"row_count":%d,"truncated":%t}`+"\n", rows, truncated)
	}
	o.buf.Flush()
	o.rc.Flush()
}

// Fail ends a stream that broke after its first bytes: JSON gets an error
// member (so the document is complete and says what happened); CSV stops.
func (o *resultWriter) Fail(err error) {
	if o.csv != nil {
		o.csv.Flush()
	} else {
		e, _ := json.Marshal(errorBody(err))
		fmt.Fprintf(o.buf, `],"row_count":%d,"error":%s}`+"\n", o.n, e)
	}
	o.buf.Flush()
}
