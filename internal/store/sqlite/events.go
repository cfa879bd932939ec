package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// Append stores events, in one transaction: all of them or none. It
// implements event.Sink. Appending an event that is already stored,
// unchanged, does nothing (a retried append is harmless); a different event
// under a (run, seq) already taken is a KindConflict error. Events may
// belong to several runs; each run's index entry is refreshed from its
// whole log.
func (s *Store) Append(ctx context.Context, events ...event.Event) error {
	if len(events) == 0 {
		return nil
	}
	for _, e := range events {
		if err := store.Validate(e); err != nil {
			return err
		}
	}
	var conflict error
	err := s.inTx(ctx, func(ctx context.Context, tx *txn) error {
		// The runs index holds what only a few events change (kind,
		// session, start, end, status: store.Refolds) plus counters, so a
		// run is re-folded only when one of those arrives or the run is
		// not indexed yet; other events bump the counters.
		var touched, bumped []string
		var fresh []event.Event // the events inserted now
		for _, e := range events {
			var typ, at, data string
			var version int
			err := tx.QueryRowContext(ctx, `SELECT type, version, at, data FROM events WHERE run_id = ? AND seq = ?`, e.RunID, e.Seq).Scan(&typ, &version, &at, &data)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				_, err = tx.ExecContext(ctx, `INSERT INTO events (run_id, seq, type, version, at, data) VALUES (?, ?, ?, ?, ?, ?)`,
					e.RunID, e.Seq, string(e.Type), e.Version, store.FormatTime(e.At), string(store.CompactJSON(e.Data)))
				if err != nil {
					var pruned int
					if tx.QueryRowContext(ctx, `SELECT count(*) FROM pruned_runs WHERE run_id = ?`, e.RunID).Scan(&pruned) == nil && pruned > 0 {
						conflict = store.Pruned(e.RunID)
						return conflict
					}
					if strings.Contains(err.Error(), finishedRun) {
						// The schema's own refusal (migration 11): one
						// condition, in the trigger.
						conflict = store.Ended(e.RunID)
						return conflict
					}
					return err
				}
				fresh = append(fresh, e)
				switch {
				case store.Refolds(e.Type):
					if !slices.Contains(touched, e.RunID) {
						touched = append(touched, e.RunID)
					}
				case !slices.Contains(bumped, e.RunID):
					bumped = append(bumped, e.RunID)
				}
			case err != nil:
				return err
			default:
				if typ != string(e.Type) || version != e.Version || at != store.FormatTime(e.At) || data != string(store.CompactJSON(e.Data)) {
					conflict = quarry.Errorf(quarry.KindConflict, "run %s already has a different event with sequence number %d; events are never replaced", e.RunID, e.Seq)
					return conflict
				}
			}
		}
		for _, runID := range bumped {
			if slices.Contains(touched, runID) {
				continue
			}
			// Only new events are bumped, so the counters move by exactly
			// these.
			var n int
			var last int64
			for _, e := range fresh {
				if e.RunID == runID {
					n, last = n+1, max(last, e.Seq)
				}
			}
			res, err := tx.ExecContext(ctx, `UPDATE runs SET last_seq = max(last_seq, ?2), events = events + ?3 WHERE run_id = ?1`, runID, last, n)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 && !slices.Contains(touched, runID) {
				touched = append(touched, runID)
			}
		}
		for _, runID := range touched {
			if err := index(ctx, tx, runID); err != nil {
				return err
			}
		}
		return nil
	})
	if conflict != nil {
		return conflict
	}
	if err != nil {
		var qe *quarry.Error
		if errors.As(err, &qe) {
			return err
		}
		return s.dbErr(ctx, err, "store %d events", len(events))
	}
	return nil
}

// index refreshes the runs index entry of runID from its events.
func index(ctx context.Context, tx *txn, runID string) error {
	events, err := readEvents(ctx, tx, runID)
	if err != nil {
		return err
	}
	en, err := store.IndexEntry(runID, events)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO runs (run_id, kind, status, session_id, owner, tenant, started_at, finished_at, last_seq, events)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (run_id) DO UPDATE SET kind = excluded.kind, status = excluded.status, session_id = excluded.session_id,
	owner = excluded.owner, tenant = excluded.tenant,
	started_at = excluded.started_at, finished_at = excluded.finished_at, last_seq = excluded.last_seq, events = excluded.events`,
		runID, en.Kind, en.Status, en.SessionID, en.Owner, en.Tenant, store.FormatTime(en.StartedAt), store.FormatTime(en.FinishedAt), en.LastSeq, en.Events)
	return err
}

// querier is what reading needs from *sql.DB and *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func readEvents(ctx context.Context, q querier, runID string) ([]event.Event, error) {
	rows, err := q.QueryContext(ctx, `SELECT run_id, seq, type, version, at, data FROM events WHERE run_id = ? ORDER BY seq`, runID)
	if err != nil {
		return nil, err
	}
	return scanEvents(rows)
}

// scanEvents reads rows of (run_id, seq, type, version, at, data) and
// closes them.
func scanEvents(rows *sql.Rows) ([]event.Event, error) {
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
	events, err := readEvents(ctx, s.db, id)
	if err != nil {
		return nil, s.dbErr(ctx, err, "read the events of run %s", id)
	}
	return events, nil
}

// Run returns the fold of a run's events. runID may be any unique prefix
// of the ID. A run whose process stopped before run.finished folds to
// status "running", and listings show it so.
func (s *Store) Run(ctx context.Context, runID string) (event.RunState, error) {
	events, err := s.Events(ctx, runID)
	if err != nil {
		return event.RunState{}, err
	}
	return event.Fold(events)
}

// Runs returns the runs that match f, newest first (by start time, then by
// ID), each folded from its events.
func (s *Store) Runs(ctx context.Context, f store.RunFilter) ([]event.RunState, error) {
	q, args := store.RunsQuery(f, func(int) string { return "?" })
	rows, err := s.db.QueryContext(ctx, q, args...)
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
// The index is only a cache of the log, so this is always safe.
func (s *Store) Reindex(ctx context.Context) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM runs`); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT run_id FROM events ORDER BY run_id`)
		if err != nil {
			return err
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
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
		var qe *quarry.Error
		if errors.As(err, &qe) {
			return err
		}
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

// matchPrefix returns the exact match of prefix in table.col when there is
// one, and otherwise up to three values that start with prefix.
func (s *Store) matchPrefix(ctx context.Context, table, col, prefix string) ([]string, error) {
	prefix = strings.TrimSpace(prefix)
	if prefix == "" {
		return nil, quarry.Errorf(quarry.KindUsage, "give an ID")
	}
	var exact string
	err := s.db.QueryRowContext(ctx, `SELECT `+col+` FROM `+table+` WHERE `+col+` = ?`, prefix).Scan(&exact)
	switch {
	case err == nil:
		return []string{exact}, nil
	case !errors.Is(err, sql.ErrNoRows):
		return nil, s.dbErr(ctx, err, "look up %q", prefix)
	}
	// Every text starting with prefix sorts between prefix and prefix
	// followed by 0xFF, a byte that UTF-8 text never holds.
	rows, err := s.db.QueryContext(ctx, `SELECT `+col+` FROM `+table+` WHERE `+col+` >= ? AND `+col+` < ? ORDER BY `+col+` LIMIT 3`, prefix, prefix+"\xff")
	if err != nil {
		return nil, s.dbErr(ctx, err, "look up %q", prefix)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, s.dbErr(ctx, err, "look up %q", prefix)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, s.dbErr(ctx, err, "look up %q", prefix)
	}
	return ids, nil
}
