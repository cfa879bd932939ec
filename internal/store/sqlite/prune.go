package sqlite

import (
	"context"
	"errors"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// pruneBatch is how many runs one prune transaction deletes.
const pruneBatch = 200

// Prune deletes the runs that finished before o.Before, whole: each is
// marked in pruned_runs (the schema's triggers allow deleting a run's
// events only then, and only for a finished run), handed to o.Archive, and
// its events, index entry and results deleted, a batch of runs per
// transaction. Sessions last updated before o.Before that have no runs
// left go too.
func (s *Store) Prune(ctx context.Context, o store.PruneOptions) (store.PruneReport, error) {
	var rep store.PruneReport
	if o.Before.IsZero() {
		return rep, quarry.Errorf(quarry.KindUsage, "say which runs to prune: a time before which finished runs go")
	}
	before := store.FormatTime(o.Before)
	after := "" // runs are taken in (finished_at, run_id) order, a batch at a time
	afterID := ""
	for {
		var n int
		err := s.inTx(ctx, func(ctx context.Context, tx *txn) error {
			rows, err := tx.QueryContext(ctx, `SELECT run_id, finished_at FROM runs
WHERE finished_at <> '' AND status <> 'awaiting_results' AND finished_at < ? AND (finished_at > ? OR (finished_at = ? AND run_id > ?))
ORDER BY finished_at, run_id LIMIT ?`, before, after, after, afterID, pruneBatch)
			if err != nil {
				return err
			}
			var ids []string
			for rows.Next() {
				var id string
				if err := rows.Scan(&id, &after); err != nil {
					rows.Close()
					return err
				}
				ids, afterID = append(ids, id), id
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			n = len(ids)
			return store.PruneBatch(o, &rep, ids, func(id string) (store.ArchivedRun, error) {
				return s.archived(ctx, tx, id)
			}, func(id string) error {
				for _, stmt := range []string{
					`INSERT INTO pruned_runs (run_id) VALUES (?)`,
					`DELETE FROM events WHERE run_id = ?`,
					`DELETE FROM results WHERE run_id = ?`,
					`DELETE FROM shares WHERE run_id = ?`,
					`DELETE FROM runs WHERE run_id = ?`,
				} {
					if _, err := tx.ExecContext(ctx, stmt, id); err != nil {
						return err
					}
				}
				return nil
			})
		})
		if err != nil {
			return rep, s.pruneErr(ctx, err)
		}
		if n < pruneBatch {
			break
		}
	}
	if o.DryRun {
		err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE updated_at < ?
AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.session_id = sessions.id AND (runs.finished_at = '' OR runs.finished_at >= ?))`, before, before).Scan(&rep.Sessions)
		if err != nil {
			return rep, s.dbErr(ctx, err, "count the sessions to prune")
		}
		return rep, nil
	}
	res, err := s.exec(ctx, `DELETE FROM sessions WHERE updated_at < ?
AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.session_id = sessions.id)`, before)
	if err != nil {
		return rep, s.dbErr(ctx, err, "prune sessions")
	}
	if n, err := res.RowsAffected(); err == nil {
		rep.Sessions = int(n)
	}
	return rep, nil
}

func (s *Store) pruneErr(ctx context.Context, err error) error {
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return err
	}
	return s.dbErr(ctx, err, "prune runs")
}

// archived reads one run whole: its events and its results.
func (s *Store) archived(ctx context.Context, q querier, runID string) (store.ArchivedRun, error) {
	run := store.ArchivedRun{RunID: runID}
	var err error
	if run.Events, err = readEvents(ctx, q, runID); err != nil {
		return run, err
	}
	rows, err := q.QueryContext(ctx, `SELECT id, hash, truncated, body FROM results WHERE run_id = ? ORDER BY id`, runID)
	if err != nil {
		return run, err
	}
	defer rows.Close()
	for rows.Next() {
		var r store.ArchivedResult
		if err := rows.Scan(&r.ID, &r.Hash, &r.Truncated, &r.Body); err != nil {
			return run, err
		}
		run.Results = append(run.Results, r)
	}
	return run, rows.Err()
}
