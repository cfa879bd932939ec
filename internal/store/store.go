package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// State is quarry's state store: the event logs of runs, an index of runs,
// stored results, chat sessions, and people with their tokens. Every backend (sqlite, postgres) passes
// the conformance suite in storetest. It is safe for concurrent use.
type State interface {
	// Append stores events, all of them or none. Appending an event that
	// is already stored, unchanged, does nothing; a different event under
	// a (run, seq) already taken is a KindConflict error, and so is an
	// event of a run that was pruned.
	Append(ctx context.Context, events ...event.Event) error
	// Events returns a run's events in sequence order; runID may be any
	// unique prefix of the ID.
	Events(ctx context.Context, runID string) ([]event.Event, error)
	// Run returns the fold of a run's events.
	Run(ctx context.Context, runID string) (event.RunState, error)
	// Runs returns the runs f selects, newest first (by start time, then
	// by ID), each folded from its events.
	Runs(ctx context.Context, f RunFilter) ([]event.RunState, error)
	// Reindex rebuilds the runs index from the events.
	Reindex(ctx context.Context) error

	// SaveResult stores t as a result of run runID and returns its ID
	// (ResultID) and hash (Hash of EncodeTable).
	SaveResult(ctx context.Context, runID string, t *quarry.Table) (id, hash string, err error)
	// Result returns a stored result by its exact ID.
	Result(ctx context.Context, id string) (*quarry.Table, error)

	// CreateSession stores a new session; an ID in use is KindConflict.
	CreateSession(ctx context.Context, s Session) error
	// Session returns a session by ID or unique ID prefix.
	Session(ctx context.Context, id string) (Session, error)
	// Sessions returns up to limit sessions (all when limit <= 0), the
	// most recently updated first.
	Sessions(ctx context.Context, limit int) ([]Session, error)
	// TouchSession makes runID the session's last run at time at, and
	// keeps title when the session has none yet.
	TouchSession(ctx context.Context, id, runID, title string, at time.Time) error

	// ShareRun lets the people and groups of sh.With read a run (its
	// events and results); sharing again with the same is no error.
	ShareRun(ctx context.Context, sh Share) error
	// UnshareRun takes a run's share with one person or group back; one
	// that does not exist is no error.
	UnshareRun(ctx context.Context, runID, with string) error
	// RunShares returns whom a run is shared with, in the order shared.
	RunShares(ctx context.Context, runID string) ([]Share, error)

	// Prune deletes finished runs whole (events, index entry, results),
	// handing each to o.Archive first, and sessions left without runs.
	Prune(ctx context.Context, o PruneOptions) (PruneReport, error)

	// People: who may use a shared quarry, their tokens and sign-ins.
	People

	// Where names the store for messages: a file path, or a URL without
	// its password.
	Where() string
	Close() error
}

// RunFilter selects runs.
type RunFilter struct {
	Limit     int    // at most this many runs; 0 or less: all
	Kind      string // only runs of this kind ("run", "ask"); "": any
	SessionID string // only runs of this chat session; "": any
	Owner     string // only runs of this owner; "": any
	Tenant    string // only runs of this tenant; "": any
	// SharedWith, with Owner, adds the runs shared with any of these
	// (ShareRun's With: a person's name, or "group:" and a group's).
	SharedWith []string
	// Status: only runs whose index says this status ("running",
	// "awaiting_approval"); "": any. A run stopped by a crash is indexed as it was last folded.
	Status string
}

// Share says that a run may be read by a person (With is their name) or
// the members of a group (With is "group:" and its name), besides its
// owner; By shared it at At.
type Share struct {
	RunID string    `json:"run_id"`
	With  string    `json:"with"`
	By    string    `json:"by"`
	At    time.Time `json:"at"`
}

// GroupGrantee is how a share names a group.
const GroupGrantee = "group:"

// Session is a chat session: a conversation whose runs share context. Its
// runs carry its ID in run.started (RunFilter.SessionID lists them).
type Session struct {
	ID        string `json:"id"`
	Title     string `json:"title,omitempty"`
	LastRunID string `json:"last_run_id,omitempty"`
	// FromRunID is the question the session continues, asked before the
	// session existed (quarry ask --continue): its first turn.
	FromRunID string    `json:"from_run_id,omitempty"`
	Owner     string    `json:"owner,omitempty"`  // who started it; "" on a single-user project
	Tenant    string    `json:"tenant,omitempty"` // the team it belongs to; "" on a single-user project
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// PruneOptions says which runs Prune deletes.
type PruneOptions struct {
	// Before: runs that finished before this instant are deleted. Runs
	// without run.finished (still going, waiting for results, or stopped
	// by a crash) are never deleted.
	Before time.Time
	// Archive, when set, receives the runs before they are deleted, a
	// batch at a time; a batch is deleted only after Archive returned nil
	// for it (so an archive should be durable when Archive returns). When
	// it fails, that batch and every later one is kept.
	Archive func(batch []ArchivedRun) error
	// DryRun counts what would be deleted and deletes nothing.
	DryRun bool
}

// PruneReport says what Prune did.
type PruneReport struct {
	Runs     int `json:"runs"`
	Events   int `json:"events"`
	Results  int `json:"results"`
	Sessions int `json:"sessions"`
}

// ArchivedRun is one run as Prune hands it to an archive: its whole event
// log and its results in their canonical encoding (EncodeTable), with the
// hash recorded for each.
type ArchivedRun struct {
	RunID   string           `json:"run_id"`
	Events  []event.Event    `json:"events"`
	Results []ArchivedResult `json:"results,omitempty"`
}

// ArchivedResult is a stored result in an archive.
type ArchivedResult struct {
	ID        string `json:"id"`
	Hash      string `json:"hash"`
	Truncated bool   `json:"truncated,omitempty"`
	Body      []byte `json:"body"` // EncodeTable's bytes (base64 in JSON)
}

// CheckResult decides whether a stored result may be served: its body must
// hash to the hash stored with it and, when its run's log records the
// result (a query.executed naming it), to the hash recorded there. The log
// is append-only in the database, so a row rewritten with a matching body
// and hash is still caught. executed are the run's query.executed events.
func CheckResult(id, stored string, body []byte, executed []event.Event) error {
	got := Hash(body)
	if got != stored {
		return quarry.Errorf(quarry.KindInternal, "result %s is damaged: its hash is %s, %s was recorded; run the query again", id, got, stored)
	}
	for _, e := range executed {
		p, err := event.Decode(e)
		if err != nil {
			continue
		}
		if d, ok := p.(*event.QueryExecutedData); ok && d.ResultID == id && d.ResultHash != "" && d.ResultHash != got {
			return quarry.Errorf(quarry.KindInternal, "result %s does not match its run's log: the log recorded %s, the stored rows hash to %s; run the query again", id, d.ResultHash, got)
		}
	}
	return nil
}

// sealed reports whether a run's log says it finished for good, so that
// retention may delete it: its fold has a final status, neither running
// (in progress, or stopped by a crash) nor waiting for pasted results.
func sealed(events []event.Event) bool {
	st, err := event.Fold(events)
	return err == nil && st.Status != event.StatusRunning && st.Status != event.StatusAwaitingResults && st.Status != event.StatusAwaitingApproval
}

// PruneBatch decides one batch of candidate runs, inside a backend's
// transaction: each is read whole (read), the ones whose log says they are
// sealed are archived together (o.Archive), counted into rep and, unless
// this is a dry run, deleted (del: mark it pruned, then delete its events,
// results and index entry). The index that chose the candidates is a
// cache; the log decides.
func PruneBatch(o PruneOptions, rep *PruneReport, ids []string, read func(runID string) (ArchivedRun, error), del func(runID string) error) error {
	var batch []ArchivedRun
	for _, id := range ids {
		run, err := read(id)
		if err != nil {
			return err
		}
		if sealed(run.Events) {
			batch = append(batch, run)
		}
	}
	if err := archiveBatch(o, batch); err != nil {
		return err
	}
	for _, run := range batch {
		rep.Runs++
		rep.Events += len(run.Events)
		rep.Results += len(run.Results)
		if o.DryRun {
			continue
		}
		if err := del(run.RunID); err != nil {
			return err
		}
	}
	return nil
}

// archiveBatch hands a batch of runs to o.Archive, when set and the batch
// is not empty and this is no dry run, and words its failure.
func archiveBatch(o PruneOptions, batch []ArchivedRun) error {
	if o.Archive == nil || o.DryRun || len(batch) == 0 {
		return nil
	}
	if err := o.Archive(batch); err != nil {
		var qe *quarry.Error
		if errors.As(err, &qe) {
			return err
		}
		return quarry.Wrap(quarry.KindInternal, err, "archive runs %s…%s; they and the runs after them were kept", batch[0].RunID, batch[len(batch)-1].RunID)
	}
	return nil
}

// EncodeResult is a result of run runID as every backend stores it: its
// canonical encoding (EncodeTable), that encoding's hash, and its columns
// as JSON for people reading the database.
func EncodeResult(runID string, t *quarry.Table) (body []byte, hash, columns string, err error) {
	if runID == "" {
		return nil, "", "", quarry.Errorf(quarry.KindInternal, "a result needs the ID of its run")
	}
	if t == nil {
		return nil, "", "", quarry.Errorf(quarry.KindInternal, "no result to store for run %s", runID)
	}
	if body, err = quarry.EncodeTable(t); err != nil {
		return nil, "", "", err
	}
	cols, err := json.Marshal(t.Columns)
	if err != nil {
		return nil, "", "", quarry.Wrap(quarry.KindInternal, err, "encode the columns of a result of run %s", runID)
	}
	return body, Hash(body), string(cols), nil
}

// ResultID is the ID of the n-th result (from 1) of run runID: "res_" +
// runID, then "res_" + runID + "_2", "_3", and so on.
func ResultID(runID string, n int) string {
	if n <= 1 {
		return "res_" + runID
	}
	return fmt.Sprintf("res_%s_%d", runID, n)
}

// Validate rejects an event the log must never hold.
func Validate(e event.Event) error {
	switch {
	case e.RunID == "":
		return quarry.Errorf(quarry.KindInternal, "an event of type %q has no run ID", e.Type)
	case e.Seq < 1:
		return quarry.Errorf(quarry.KindInternal, "event %q of run %s has sequence number %d; sequence numbers start at 1", e.Type, e.RunID, e.Seq)
	case e.Type == "":
		return quarry.Errorf(quarry.KindInternal, "event %d of run %s has no type", e.Seq, e.RunID)
	case e.At.IsZero():
		return quarry.Errorf(quarry.KindInternal, "event %d of run %s has no time", e.Seq, e.RunID)
	case !json.Valid(e.Data):
		return quarry.Errorf(quarry.KindInternal, "event %d of run %s carries a payload that is not JSON", e.Seq, e.RunID)
	}
	if e.Version <= event.Version {
		if _, err := event.Decode(e); err != nil {
			return quarry.Wrap(quarry.KindInternal, err, "event %d of run %s does not match its type", e.Seq, e.RunID)
		}
	}
	return nil
}

// CompactJSON is the form in which payloads are stored: JSON without
// insignificant space, so a re-delivered event compares equal.
func CompactJSON(data []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return data
	}
	return buf.Bytes()
}

// TimeLayout stores instants in UTC with a fixed width, so that text order
// is time order, to the nanosecond.
const TimeLayout = "2006-01-02T15:04:05.000000000Z"

// FormatTime writes t in TimeLayout; the zero time is "".
func FormatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(TimeLayout)
}

// ParseTime reads what FormatTime wrote.
func ParseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339Nano, s)
}

// Refolds reports whether an event of type t re-folds its run's index
// entry when it is appended: those that change what the index keeps
// beyond its counters (kind, session, owner, start, end, status). Other
// events only bump the counters.
func Refolds(t event.Type) bool {
	switch t {
	case event.RunStarted, event.RunFinished, event.ApprovalRequested, event.ApprovalDecided:
		return true
	}
	return false
}

// RunsQuery is the SQL that lists the events of the runs f selects,
// newest run first (by start time, then by ID), each run's events in
// sequence order, as (run_id, seq, type, version, at, data) — the same on
// every backend but for how a parameter is written (ph(1) is "?" or "$1").
func RunsQuery(f RunFilter, ph func(n int) string) (string, []any) {
	var where []string
	var args []any
	for _, c := range []struct{ col, v string }{{"kind", f.Kind}, {"session_id", f.SessionID}, {"owner", f.Owner}, {"tenant", f.Tenant}, {"status", f.Status}} {
		if c.v == "" {
			continue
		}
		args = append(args, c.v)
		cond := c.col + " = " + ph(len(args))
		if c.col == "owner" && len(f.SharedWith) > 0 {
			var in []string
			for _, w := range f.SharedWith {
				args = append(args, w)
				in = append(in, ph(len(args)))
			}
			cond = "(" + cond + " OR run_id IN (SELECT run_id FROM shares WHERE grantee IN (" + strings.Join(in, ", ") + ")))"
		}
		where = append(where, cond)
	}
	q := `SELECT run_id, started_at FROM runs`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += ` ORDER BY started_at DESC, run_id DESC`
	if f.Limit > 0 {
		args = append(args, f.Limit)
		q += ` LIMIT ` + ph(len(args))
	}
	return `SELECT e.run_id, e.seq, e.type, e.version, e.at, e.data
FROM (` + q + `) AS r JOIN events AS e ON e.run_id = r.run_id
ORDER BY r.started_at DESC, r.run_id DESC, e.seq`, args
}

// EventRows is the part of a driver's row set that ScanEvents reads.
type EventRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ScanEvents reads rows of (run_id, seq, type, version, at, data), as both
// backends store events. The caller closes rows.
func ScanEvents(rows EventRows) ([]event.Event, error) {
	var out []event.Event
	for rows.Next() {
		var runID, typ, at, data string
		var seq int64
		var version int
		if err := rows.Scan(&runID, &seq, &typ, &version, &at, &data); err != nil {
			return nil, err
		}
		t, err := ParseTime(at)
		if err != nil {
			return nil, err
		}
		out = append(out, event.Event{RunID: runID, Seq: seq, Type: event.Type(typ), Version: version, At: t, Data: json.RawMessage(data)})
	}
	return out, rows.Err()
}

// Entry is a run's row in the runs index, derived from its events.
type Entry struct {
	RunID, Kind, Status, SessionID, Owner, Tenant string
	StartedAt, FinishedAt                         time.Time
	LastSeq                                       int64
	Events                                        int
}

// IndexEntry folds a run's events into its index entry. A run with no
// run.started yet starts at its earliest event.
func IndexEntry(runID string, events []event.Event) (Entry, error) {
	st, err := event.Fold(events)
	if err != nil {
		return Entry{}, err
	}
	started := st.StartedAt
	if started.IsZero() {
		for _, e := range events {
			if started.IsZero() || e.At.Before(started) {
				started = e.At
			}
		}
	}
	return Entry{RunID: runID, Kind: st.Kind, Status: st.Status, SessionID: st.SessionID, Owner: st.Owner, Tenant: st.Tenant,
		StartedAt: started, FinishedAt: st.FinishedAt, LastSeq: st.LastSeq, Events: st.Events}, nil
}

// FoldRuns folds events grouped by run (each run's events together, in
// sequence order) into run states, keeping the groups' order.
func FoldRuns(events []event.Event) ([]event.RunState, error) {
	var out []event.RunState
	for len(events) > 0 {
		n := 1
		for n < len(events) && events[n].RunID == events[0].RunID {
			n++
		}
		st, err := event.Fold(events[:n])
		if err != nil {
			return nil, err
		}
		out = append(out, st)
		events = events[n:]
	}
	return out, nil
}

// Ambiguous and missing IDs, worded once for every backend.

// NoRun is the error for a run ID that matches nothing.
func NoRun(prefix string) error {
	return quarry.Errorf(quarry.KindNotFound, "no run %q; list the runs with `quarry runs list`", prefix)
}

// NoSession is the error for a session ID that matches nothing.
func NoSession(prefix string) error {
	return quarry.Errorf(quarry.KindNotFound, "no session %q; start a new one", prefix)
}

// AmbiguousID is the error for an ID prefix that matches several.
func AmbiguousID(what, prefix string, ids []string) error {
	return quarry.Errorf(quarry.KindInput, "%s ID %q is ambiguous: it matches %s; give more of the ID", what, prefix, strings.Join(ids, ", "))
}

// ResultRunIDs returns the run IDs a result ID can belong to (ResultID's
// inverse): "res_R" and "res_R_2" belong to run R, and "res_R_2" may also be
// the first result of a run called "R_2".
func ResultRunIDs(id string) []string {
	rest, ok := strings.CutPrefix(id, "res_")
	if !ok || rest == "" {
		return nil
	}
	out := []string{rest}
	if i := strings.LastIndexByte(rest, '_'); i > 0 {
		if _, err := strconv.Atoi(rest[i+1:]); err == nil {
			out = append(out, rest[:i])
		}
	}
	return out
}

// PrunedResult is the error for a result whose run retention deleted.
func PrunedResult(id string) error {
	return quarry.Errorf(quarry.KindExpired, "result %s was deleted with its run by retention (quarry runs prune); ask again", id)
}

// NoResult is the error for a result ID that matches nothing.
func NoResult(id string) error {
	return quarry.Errorf(quarry.KindNotFound, "no result %q; the result IDs of a run are in `quarry runs show RUN`", id)
}

// Pruned is the error for an event of a run that was pruned.
func Pruned(runID string) error {
	return quarry.Errorf(quarry.KindConflict, "run %s was pruned; its log is closed", runID)
}

// Ended is the error for an event appended to a run that has finished
// (a run.finished whose status is final): a run ends once, and the state
// refuses what a writer that lost it (a replica swept as gone) still
// records.
func Ended(runID string) error {
	return quarry.Errorf(quarry.KindConflict, "run %s has finished; its log takes no more events", runID)
}

// ReadShares reads rows of (run_id, grantee, by_name, at), as both
// backends store shares. The caller closes rows.
func ReadShares(rows EventRows) ([]Share, error) {
	var out []Share
	for rows.Next() {
		var sh Share
		var at string
		if err := rows.Scan(&sh.RunID, &sh.With, &sh.By, &at); err != nil {
			return nil, err
		}
		t, err := ParseTime(at)
		if err != nil {
			return nil, err
		}
		sh.At = t
		out = append(out, sh)
	}
	return out, rows.Err()
}
