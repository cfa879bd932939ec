package postgres

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// Append stores events in one transaction: all of them or none (see
// store.State). The inserts and the refresh of each run's counters go to
// the server in one batch; a run is re-folded only when an event that
// changes its index entry arrives (store.Refolds) or the run is not
// indexed yet.
func (s *Store) Append(ctx context.Context, events ...event.Event) error {
	if len(events) == 0 {
		return nil
	}
	for _, e := range events {
		if err := store.Validate(e); err != nil {
			return err
		}
	}
	switch {
	case opensRun(events):
		done, err := s.appendOpening(ctx, events)
		if done || err != nil {
			return s.appendErr(ctx, err, events)
		}
	case !slices.ContainsFunc(events, func(e event.Event) bool { return store.Refolds(e.Type) }):
		done, err := s.appendFast(ctx, events)
		if done || err != nil {
			return s.appendErr(ctx, err, events)
		}
	}
	var conflict error
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var runs []string
		b := &pgx.Batch{}
		for _, e := range events {
			b.Queue(insertEvent+` ON CONFLICT (run_id, seq) DO NOTHING`, eventArgs(e)...)
			if !slices.Contains(runs, e.RunID) {
				runs = append(runs, e.RunID)
			}
		}
		for _, id := range runs {
			b.Queue(refreshCounters, id)
		}
		br := tx.SendBatch(ctx, b)
		var existing []event.Event
		for _, e := range events {
			tag, err := br.Exec()
			if err != nil {
				br.Close()
				return err
			}
			if tag.RowsAffected() == 0 {
				existing = append(existing, e)
			}
		}
		var touched []string
		for _, id := range runs {
			tag, err := br.Exec()
			if err != nil {
				br.Close()
				return err
			}
			if tag.RowsAffected() == 0 {
				touched = append(touched, id)
			}
		}
		if err := br.Close(); err != nil {
			return err
		}
		for _, e := range existing {
			var typ, at, data string
			var version int
			if err := tx.QueryRow(ctx, `SELECT type, version, at, data FROM events WHERE run_id = $1 AND seq = $2`, e.RunID, e.Seq).Scan(&typ, &version, &at, &data); err != nil {
				return err
			}
			if typ != string(e.Type) || version != e.Version || at != store.FormatTime(e.At) || data != string(store.CompactJSON(e.Data)) {
				conflict = quarry.Errorf(quarry.KindConflict, "run %s already has a different event with sequence number %d; events are never replaced", e.RunID, e.Seq)
				return conflict
			}
		}
		for _, e := range events {
			if store.Refolds(e.Type) && !slices.Contains(touched, e.RunID) {
				touched = append(touched, e.RunID)
			}
		}
		for _, id := range touched {
			if err := index(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	})
	if conflict != nil {
		return conflict
	}
	return s.appendErr(ctx, err, events)
}

// opensRun reports whether events are the whole start of one run's log:
// run.started at sequence 1, then the next numbers in order.
func opensRun(events []event.Event) bool {
	if events[0].Type != event.RunStarted {
		return false
	}
	for i, e := range events {
		if e.RunID != events[0].RunID || e.Seq != int64(i+1) {
			return false
		}
	}
	return true
}

// appendOpening stores the first events of a new run and its index entry,
// folded from those events alone, in one round trip: the inserts go as one
// batch, which the server runs as one implicit transaction. A run's first
// event is what a client waits for before it hears of the run, so it pays
// one round trip, not five. It reports done = false, having changed
// nothing, when an event or the run's entry is already stored (a retry, a
// conflict, an entry made some other way): the careful path decides.
func (s *Store) appendOpening(ctx context.Context, events []event.Event) (done bool, err error) {
	runID := events[0].RunID
	en, err := store.IndexEntry(runID, events)
	if err != nil {
		return false, err
	}
	queue := func(b *pgx.Batch) {
		for _, e := range events {
			b.Queue(insertEvent, eventArgs(e)...)
		}
		b.Queue(insertRun, entryArgs(en)...)
	}
	if s.inGroup(ctx, queue) {
		return true, nil
	}
	b := &pgx.Batch{}
	queue(b)
	br := s.pool.SendBatch(ctx, b)
	for range b.Len() {
		if _, err = br.Exec(); err != nil {
			break
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return false, nil
	}
	return err == nil, err
}

// appendFast stores events that neither open nor close a run in one round
// trip: the inserts and the counters' refresh go as one batch, which the
// server runs as one implicit transaction. It reports done = false, having
// changed nothing, when an event is already stored (a retry, or a
// conflict: the careful path decides which); a run that turns out not to
// be indexed yet is indexed afterwards.
func (s *Store) appendFast(ctx context.Context, events []event.Event) (done bool, err error) {
	var runs []string
	b := &pgx.Batch{}
	for _, e := range events {
		b.Queue(insertEvent, eventArgs(e)...)
		if !slices.Contains(runs, e.RunID) {
			runs = append(runs, e.RunID)
		}
	}
	for _, id := range runs {
		var n int
		var last int64
		for _, e := range events {
			if e.RunID == id {
				n, last = n+1, max(last, e.Seq)
			}
		}
		// Every insert is new (a stored one aborts the batch), so the
		// counters move by exactly these events.
		b.Queue(`UPDATE runs SET last_seq = greatest(last_seq, $2), events = events + $3 WHERE run_id = $1`, id, last, n)
	}
	br := s.pool.SendBatch(ctx, b)
	var unindexed []string
	for range events {
		if _, err := br.Exec(); err != nil {
			br.Close()
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "23505" {
				return false, nil
			}
			return false, err
		}
	}
	for _, id := range runs {
		tag, err := br.Exec()
		if err != nil {
			br.Close()
			return false, err
		}
		if tag.RowsAffected() == 0 {
			unindexed = append(unindexed, id)
		}
	}
	if err := br.Close(); err != nil {
		return false, err
	}
	for _, id := range unindexed {
		if err := s.inTx(ctx, func(tx pgx.Tx) error { return index(ctx, tx, id) }); err != nil {
			return true, err
		}
	}
	return true, nil
}

// refreshCounters recounts a run's events in its index entry; it changes
// no row when the run is not indexed yet.
const refreshCounters = `UPDATE runs SET last_seq = c.last_seq, events = c.n
FROM (SELECT max(seq) AS last_seq, count(*) AS n FROM events WHERE run_id = $1) AS c WHERE run_id = $1`

// appendErr words a failed append.
func (s *Store) appendErr(ctx context.Context, err error, events []event.Event) error {
	if err == nil {
		return nil
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "QA002" || pe.Code == "QA003") {
		refusal := store.Pruned
		if pe.Code == "QA003" {
			refusal = store.Ended
		}
		for _, e := range events {
			if strings.Contains(pe.Message, e.RunID) {
				return refusal(e.RunID)
			}
		}
		return refusal(events[0].RunID)
	}
	return s.dbErr(ctx, err, "store %d events", len(events))
}

// index refreshes the runs index entry of runID from its events.
func index(ctx context.Context, tx pgx.Tx, runID string) error {
	events, err := readEvents(ctx, tx, runID)
	if err != nil {
		return err
	}
	en, err := store.IndexEntry(runID, events)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, insertRun+`
ON CONFLICT (run_id) DO UPDATE SET kind = excluded.kind, status = excluded.status, session_id = excluded.session_id,
	owner = excluded.owner, tenant = excluded.tenant,
	started_at = excluded.started_at, finished_at = excluded.finished_at, last_seq = excluded.last_seq, events = excluded.events`,
		entryArgs(en)...)
	return err
}

// insertEvent stores an event, whose values eventArgs gives.
const insertEvent = `INSERT INTO events (run_id, seq, type, version, at, data) VALUES ($1, $2, $3, $4, $5, $6)`

func eventArgs(e event.Event) []any {
	return []any{e.RunID, e.Seq, string(e.Type), e.Version, store.FormatTime(e.At), string(store.CompactJSON(e.Data))}
}

// insertRun stores a run's index entry, whose values entryArgs gives.
const insertRun = `INSERT INTO runs (run_id, kind, status, session_id, owner, tenant, started_at, finished_at, last_seq, events)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`

func entryArgs(en store.Entry) []any {
	return []any{en.RunID, en.Kind, en.Status, en.SessionID, en.Owner, en.Tenant, store.FormatTime(en.StartedAt), store.FormatTime(en.FinishedAt), en.LastSeq, en.Events}
}

// querier is what reading needs from the pool and from a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func readEvents(ctx context.Context, q querier, runID string) ([]event.Event, error) {
	rows, err := q.Query(ctx, `SELECT run_id, seq, type, version, at, data FROM events WHERE run_id = $1 ORDER BY seq`, runID)
	if err != nil {
		return nil, err
	}
	return scanEvents(rows)
}

// scanEvents reads rows of (run_id, seq, type, version, at, data) and
// closes them.
func scanEvents(rows pgx.Rows) ([]event.Event, error) {
	defer rows.Close()
	return store.ScanEvents(rows)
}

// Events returns the events of a run in sequence order. runID may be any
// unique prefix of the ID.
func (s *Store) Events(ctx context.Context, runID string) ([]event.Event, error) {
	id, err := s.resolveRun(ctx, runID)
	if err != nil {
		return nil, err
	}
	events, err := readEvents(ctx, s.pool, id)
	if err != nil {
		return nil, s.dbErr(ctx, err, "read the events of run %s", id)
	}
	return events, nil
}

// Run returns the fold of a run's events.
func (s *Store) Run(ctx context.Context, runID string) (event.RunState, error) {
	events, err := s.Events(ctx, runID)
	if err != nil {
		return event.RunState{}, err
	}
	return event.Fold(events)
}

// Runs returns the runs that match f, newest first, each folded from its
// events.
func (s *Store) Runs(ctx context.Context, f store.RunFilter) ([]event.RunState, error) {
	q, args := store.RunsQuery(f, func(n int) string { return "$" + strconv.Itoa(n) })
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, s.dbErr(ctx, err, "list runs")
	}
	events, err := scanEvents(rows)
	if err != nil {
		return nil, s.dbErr(ctx, err, "list runs")
	}
	return store.FoldRuns(events)
}

// Reindex rebuilds the runs index from the events, in one transaction.
func (s *Store) Reindex(ctx context.Context) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM runs`); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT DISTINCT run_id FROM events ORDER BY run_id`)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := index(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return s.dbErr(ctx, err, "rebuild the runs index")
	}
	return nil
}

// resolveRun returns the one run ID that equals or starts with prefix.
func (s *Store) resolveRun(ctx context.Context, prefix string) (string, error) {
	ids, err := s.matchPrefix(ctx, "runs", "run_id", prefix)
	if err != nil {
		return "", err
	}
	switch len(ids) {
	case 0:
		return "", store.NoRun(prefix)
	case 1:
		return ids[0], nil
	default:
		return "", store.AmbiguousID("run", prefix, ids)
	}
}
