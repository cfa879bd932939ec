package runtime

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/analyst"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// readRedacted is the state store whose results are read back redacted
// by the column policy in force at the time of the read: a result kept
// before a column was restricted is not shown in clear after, whatever the
// surface (the HTTP API's results, runs, history and exports, MCP's
// get_result, quarry runs export).
//
// It decides by lineage first: the run's recorded SQL is checked with the
// policy of the moment, by the same check the guard makes for the run's
// connection (on SQLite the connection's own engine check). When a
// statement of the run reads a restricted column, or the check cannot
// tell, every cell of the result is redacted: the columns may carry the
// values under other names (email AS contact, upper(email)). Otherwise
// columns called like a restricted column are redacted (policy.Redact), as
// results are before they are kept. An answer recorded with the result's
// first rows (answer.rendered's cells and text) is redacted the same way:
// the cells become [restricted], and their values are scrubbed from the
// answer's text (policy.Scrubber).
type readRedacted struct {
	store.State
	// policy returns the policy of the moment, the lineage check under it,
	// and the release of both.
	policy func(ctx context.Context) (*policy.Policy, lineage, func(), error)
}

// lineage reports whether a stored run's SQL reads a column the policy
// restricts, or may: true when the check cannot show it does not.
type lineage func(ctx context.Context, run event.RunState) bool

// ReadRedacted returns st with every result and answer it reads back
// redacted by the project's column policy (quarry runs export): the
// surfaces agree on what a stored result shows. The lineage check opens
// the run's connection, by its name, when the policy restricts columns.
func (r *Runtime) ReadRedacted(st store.State) store.State {
	gs := &runGuards{r: r, guards: map[string]analyst.Guard{}}
	return readRedacted{State: st, policy: func(ctx context.Context) (*policy.Policy, lineage, func(), error) {
		p, err := r.Policy()
		if err != nil {
			return nil, nil, nil, err
		}
		return p, runLineage(p, gs.guard), func() {}, nil
	}}
}

// runGuards opens, once per connection name, the guard of the
// connections runs were made on (quarry runs export). They stay open for
// the command.
type runGuards struct {
	r      *Runtime
	mu     sync.Mutex
	guards map[string]analyst.Guard // nil: the connection could not be opened
}

func (gs *runGuards) guard(ctx context.Context, connection string) analyst.Guard {
	name, _, _ := strings.Cut(connection, " (")
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if g, ok := gs.guards[name]; ok {
		return g
	}
	gs.guards[name] = nil
	cfg, err := gs.r.Config()
	if err != nil || name == "" || cfg.Manual(name) {
		return nil
	}
	conn, _, err := gs.r.Conn(ctx, name)
	if err != nil {
		return nil
	}
	g, _, err := gs.r.ConnGuard(ctx, conn)
	if err != nil {
		return nil
	}
	gs.guards[name] = g
	return g
}

// runLineage is the lineage check under p: each SQL the run recorded goes
// through the guard of its connection (guardFor, by the run's connection
// label; nil when there is none); without one, through the policy's own
// check for the run's dialect without a catalog, which refuses every
// statement that reads a relation it cannot see into. A run without SQL
// (a pasted result) is decided by name alone, as it was when it was kept.
func runLineage(p *policy.Policy, guardFor func(ctx context.Context, connection string) analyst.Guard) lineage {
	return func(ctx context.Context, run event.RunState) bool {
		if p.Empty() {
			return false
		}
		sqls := runSQLs(run)
		if len(sqls) == 0 {
			return false
		}
		var g analyst.Guard
		if guardFor != nil && run.Connection != "" {
			g = guardFor(ctx, run.Connection)
		}
		d := quarry.Dialect(run.Dialect)
		for _, sql := range sqls {
			if g != nil {
				if v := g.Check(ctx, sql); !v.Allowed {
					return true // refused now, by the policy or otherwise: nothing shows it clean
				}
				continue
			}
			if p.For(d, nil).Check(d, sql) != nil {
				return true
			}
		}
		return false
	}
}

// runSQLs returns every statement a run recorded, once each.
func runSQLs(run event.RunState) []string {
	var out []string
	for _, s := range append(slices.Clone(run.SQLs), run.SQL) {
		if strings.TrimSpace(s) != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// resultReads reports whether the run of result id reads a restricted
// column under the lineage check; a result whose run cannot be found
// counts as reading one.
func (s readRedacted) resultReads(ctx context.Context, id string, reads lineage) bool {
	found := false
	for _, runID := range store.ResultRunIDs(id) {
		run, err := s.State.Run(ctx, runID)
		if err != nil || run.RunID != runID {
			continue
		}
		found = true
		if reads(ctx, run) {
			return true
		}
	}
	return !found
}

// redactAll replaces every cell of t by policy.Redacted.
func redactAll(t *quarry.Table) {
	for i := range t.Columns {
		t.Columns[i].Type = quarry.TypeText
	}
	for _, row := range t.Rows {
		for i := range row {
			row[i] = policy.Redacted
		}
	}
}

func (s readRedacted) Result(ctx context.Context, id string) (*quarry.Table, error) {
	t, err := s.State.Result(ctx, id)
	if err != nil {
		return nil, err
	}
	p, reads, done, err := s.policy(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if p.Empty() {
		return t, nil
	}
	if s.resultReads(ctx, id, reads) {
		withholdRows(t)
		return t, nil
	}
	p.Redact(t)
	return t, nil
}

func (s readRedacted) Run(ctx context.Context, runID string) (event.RunState, error) {
	st, err := s.State.Run(ctx, runID)
	if err != nil {
		return st, err
	}
	p, reads, done, err := s.policy(ctx)
	if err != nil {
		return event.RunState{}, err
	}
	defer done()
	redactRunState(ctx, p, s.withNodes(reads), &st)
	return st, nil
}

// redactRunState redacts a folded run's answer under p, and withholds its
// result's hash when the reader sees any of the result redacted: the hash
// of the rows in clear would let them confirm a guess at what was
// withheld (hash their own SELECT of the guessed value and compare).
func redactRunState(ctx context.Context, p *policy.Policy, reads lineage, st *event.RunState) {
	if p.Empty() {
		return
	}
	all := reads(ctx, *st)
	redactAnswer(p, st.Columns, &st.Answer, &st.Cells, &st.Chart, all)
	st.Error = withoutSuggestions(st.Error)
	if all {
		// What the question was read as, and the SQL's quoted values:
		// the stored spelling of a value of the column ('SUMMER10' for
		// "summer-10"; found from outside).
		st.Understood, st.Unknown = nil, nil
		st.SQL = literalsWithheld(st.SQL)
		sqls := make([]string, len(st.SQLs))
		for i, q := range st.SQLs {
			sqls[i] = literalsWithheld(q)
		}
		st.SQLs = sqls
	}
	if withholdsHash(p, st.Columns, all) {
		st.ResultHash = ""
	}
	if all {
		withholdChecks(st.Checks)
		redactReading(st.Reading)
		// How many rows the query found is as much the restricted
		// column's as its cells: "SELECT id … WHERE amount > 100" shared
		// with a reader who may not filter on amount would count them
		// (found from outside).
		st.Rows, st.Truncated, st.Confidence = 0, false, nil
		if st.Kind == workflowKind && st.Error != "" {
			st.Error = policy.Redacted // an end node's message
		}
	}
}

// withholdRows empties a result whose query reads a column the reader's
// policy restricts: its columns stay, named, and it holds no row, since
// even their number says something of the column.
func withholdRows(t *quarry.Table) {
	redactAll(t)
	t.Rows = nil
	t.Truncated = false
}

// withholdChecks withholds what the checks of a run that reads a
// restricted column say, their verdicts too ("empty_result" failing says
// no row matched): only their names stay.
func withholdChecks(cs []event.Check) {
	redactChecks(cs)
	for i := range cs {
		cs[i].Status = withheldCheck
	}
}

// withheldCheck is the verdict shown for a check of a run whose result
// the reader's column policy withholds.
const withheldCheck = "withheld"

// redactReading withholds what the reading of a run that reads a
// restricted column says of its data: the values of its filters, in its
// text and each filter's, and the known values of its grouping. What
// kind of reading it was, its measures and groupings stay.
func redactReading(r *event.ReadingData) {
	if r == nil {
		return
	}
	if len(r.Filters) > 0 {
		r.Text = policy.Redacted
	}
	for i := range r.Filters {
		r.Filters[i].Text = policy.Redacted
	}
	r.KnownGroups = nil
}

// withholdsHash reports whether a reader sees a result's hash withheld:
// when its SQL reads a restricted column (all), or a column of it is
// called like one, since its cells are then redacted.
func withholdsHash(p *policy.Policy, cols []string, all bool) bool {
	return all || slices.ContainsFunc(cols, p.Name)
}

// redactChecks withholds what the checks of a run that reads a restricted
// column say of its data ("Hamburg is a known value of city"): their names
// and verdicts stay.
func redactChecks(cs []event.Check) {
	for i := range cs {
		if cs[i].Detail != "" {
			cs[i].Detail = policy.Redacted
		}
	}
}

func (s readRedacted) Runs(ctx context.Context, f store.RunFilter) ([]event.RunState, error) {
	runs, err := s.State.Runs(ctx, f)
	if err != nil {
		return nil, err
	}
	p, reads, done, err := s.policy(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	reads = s.withNodes(reads)
	for i := range runs {
		redactRunState(ctx, p, reads, &runs[i])
	}
	return runs, nil
}

func (s readRedacted) Events(ctx context.Context, runID string) ([]event.Event, error) {
	evs, err := s.State.Events(ctx, runID)
	if err != nil {
		return nil, err
	}
	p, reads, done, err := s.policy(ctx)
	if err != nil || p.Empty() {
		if done != nil {
			done()
		}
		return evs, err
	}
	defer done()
	// The run, folded from this log, decides what the reader sees of it
	// (redactRunState): whether its SQL reads a restricted column, checked
	// once and only when an event needs it.
	run, ferr := event.Fold(evs)
	readsAll := sync.OnceValue(func() bool { return ferr != nil || reads(ctx, run) || s.nodesRead(ctx, evs, reads) })
	hashless := func() bool { return withholdsHash(p, run.Columns, readsAll()) }
	var cols []string
	for i, e := range evs {
		switch e.Type {
		case event.QueryExecuted:
			var d event.QueryExecutedData
			if json.Unmarshal(e.Data, &d) == nil {
				cols = d.Columns
				if d.ResultHash != "" && hashless() || d.Rows != 0 && readsAll() {
					d.ResultHash = ""
					if readsAll() {
						d.Rows, d.Truncated = 0, false
					}
					b, err := json.Marshal(&d)
					if err != nil {
						return nil, quarry.Wrap(quarry.KindInternal, err, "cannot redact run %s's log", runID)
					}
					evs[i].Data = b
				}
			}
		case event.ChecksRan:
			var d event.ChecksRanData
			if json.Unmarshal(e.Data, &d) != nil || !readsAll() {
				continue
			}
			withholdChecks(d.Checks)
			d.Confidence = 0
			b, err := json.Marshal(&d)
			if err != nil {
				return nil, quarry.Wrap(quarry.KindInternal, err, "cannot redact run %s's log", runID)
			}
			evs[i].Data = b
		case event.ResultsPasted:
			var d event.ResultsPastedData
			if json.Unmarshal(e.Data, &d) == nil && (d.ResultHash != "" && hashless() || d.Rows != 0 && readsAll()) {
				d.ResultHash = ""
				if readsAll() {
					d.Rows = 0
				}
				b, err := json.Marshal(&d)
				if err != nil {
					return nil, quarry.Wrap(quarry.KindInternal, err, "cannot redact run %s's log", runID)
				}
				evs[i].Data = b
			}
		case event.QuestionRead:
			var d event.ReadingData
			if json.Unmarshal(e.Data, &d) != nil || !readsAll() {
				continue
			}
			redactReading(&d)
			b, err := json.Marshal(&d)
			if err != nil {
				return nil, quarry.Wrap(quarry.KindInternal, err, "cannot redact run %s's reading", runID)
			}
			evs[i].Data = b
		case event.RunFinished:
			var d event.RunFinishedData
			if json.Unmarshal(e.Data, &d) != nil || d.Error == "" {
				continue
			}
			msg := withoutSuggestions(d.Error)
			if run.Kind == workflowKind && readsAll() {
				msg = policy.Redacted // an end node's message
			}
			if msg == d.Error {
				continue
			}
			d.Error = msg
			b, err := json.Marshal(&d)
			if err != nil {
				return nil, quarry.Wrap(quarry.KindInternal, err, "cannot redact run %s's log", runID)
			}
			evs[i].Data = b
		case event.RunStarted, event.QuestionParsed, event.SQLGenerated, event.PlanMade:
			b, changed, err := withholdReading(e, readsAll)
			if err != nil {
				return nil, quarry.Wrap(quarry.KindInternal, err, "cannot redact run %s's log", runID)
			}
			if changed {
				evs[i].Data = b
			}
		case event.WorkflowNodeFinished, event.WorkflowWaiting, event.WorkflowResumed:
			if !readsAll() {
				continue
			}
			b, err := withholdNode(e)
			if err != nil {
				return nil, quarry.Wrap(quarry.KindInternal, err, "cannot redact run %s's log", runID)
			}
			evs[i].Data = b
		case event.AnswerRendered:
			var d event.AnswerRenderedData
			if json.Unmarshal(e.Data, &d) != nil {
				continue
			}
			if !redactAnswer(p, cols, &d.Markdown, &d.Cells, &d.Chart, readsAll()) {
				continue
			}
			b, err := json.Marshal(&d)
			if err != nil {
				return nil, quarry.Wrap(quarry.KindInternal, err, "cannot redact run %s's answer", runID)
			}
			evs[i].Data = b
		}
	}
	return evs, nil
}

// redactAnswer replaces, in place, the cells of an answer's restricted
// columns (by the result's column names, as policy.Redact decides) and
// scrubs their values from its text; when all (the lineage check's
// verdict: its query reads a restricted column) it withholds the whole
// text, every cell and the chart's kind: how many rows the answer had
// is as much the restricted column's as their values ("customers by
// city" shared with a reader who may not read city counted the cities
// by its cells, found from outside), and so is whether it was one
// figure, a bar or a line. It reports whether it changed anything.
func redactAnswer(p *policy.Policy, cols []string, markdown *string, cellsp *[][]string, chart *string, all bool) bool {
	if p.Empty() {
		return false
	}
	cells := *cellsp
	if all {
		changed := len(cells) > 0 || *chart != "" || *markdown != ""
		*cellsp, *chart = nil, ""
		if *markdown != "" {
			*markdown = withheldAnswer
		}
		return changed
	}
	if len(cells) == 0 {
		return false
	}
	var idx []int
	for i, c := range cols {
		if p.Name(c) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return false
	}
	sc := p.Scrubber()
	for _, row := range cells {
		for _, i := range idx {
			if i < len(row) && row[i] != policy.Redacted {
				sc.Remember(row[i])
				row[i] = policy.Redacted
			}
		}
	}
	*markdown = sc.Scrub(*markdown)
	return true
}

// withheldAnswer is the text of an answer whose query reads a column the
// reader's column policy restricts.
const withheldAnswer = policy.Redacted + " This answer reads a column the column policy withholds from you; its text and figures are not shown."

// withNodes is reads that also holds a workflow run to read what its
// nodes' runs read (nodesRead).
func (s readRedacted) withNodes(reads lineage) lineage {
	return func(ctx context.Context, run event.RunState) bool {
		if reads(ctx, run) {
			return true
		}
		if run.Kind != workflowKind {
			return false
		}
		evs, err := s.State.Events(ctx, run.RunID)
		return err != nil || s.nodesRead(ctx, evs, reads)
	}
}

// workflowKind is the kind of a workflow's run.
const workflowKind = "workflow"

// nodesRead reports whether a workflow run's log names a run of one of
// its nodes that reads a restricted column under reads, or one that
// cannot be found: what that node gave flows into the outputs, messages
// and approval texts of the nodes after it, so the reader sees none of
// them (found from outside: a shared workflow's events, stream and
// export showed the cities a query node had counted, though its folded
// state withheld them). A log with no node runs reads nothing.
func (s readRedacted) nodesRead(ctx context.Context, evs []event.Event, reads lineage) bool {
	for _, e := range evs {
		if e.Type != event.WorkflowNodeFinished {
			continue
		}
		var d event.WorkflowNodeFinishedData
		if json.Unmarshal(e.Data, &d) != nil {
			return true
		}
		if d.RunID == "" {
			continue
		}
		run, err := s.State.Run(ctx, d.RunID)
		if err != nil || reads(ctx, run) {
			return true
		}
	}
	return false
}

// withholdNode is a workflow event's data with what its node gave — its
// output, its message, the approval text of a wait, the note of a
// decision — replaced by the policy's mark.
func withholdNode(e event.Event) ([]byte, error) {
	switch e.Type {
	case event.WorkflowNodeFinished:
		var d event.WorkflowNodeFinishedData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		if d.Output != "" {
			mark, _ := json.Marshal(map[string]string{"restricted": policy.Redacted})
			d.Output = string(mark)
		}
		if d.Message != "" {
			d.Message = policy.Redacted
		}
		return json.Marshal(&d)
	case event.WorkflowWaiting:
		var d event.WorkflowWaitingData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		if d.Approval != "" {
			d.Approval = policy.Redacted
		}
		return json.Marshal(&d)
	case event.WorkflowResumed:
		var d event.WorkflowResumedData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		if d.Note != "" {
			d.Note = policy.Redacted
		}
		return json.Marshal(&d)
	}
	return e.Data, nil
}
