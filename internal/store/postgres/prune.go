package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// pruneBatch is how many runs one prune transaction deletes.
const pruneBatch = 200

// Prune deletes the runs that finished before o.Before, whole (see
// store.State): each is marked in pruned_runs, which the schema's triggers
// allow only for a finished run and which alone lets its events be
// deleted, handed to o.Archive, and deleted with its index entry and
// results, a batch of runs per transaction.
func (s *Store) Prune(ctx context.Context, o store.PruneOptions) (store.PruneReport, error) {
	var rep store.PruneReport
	if o.Before.IsZero() {
		return rep, quarry.Errorf(quarry.KindUsage, "say which runs to prune: a time before which finished runs go")
	}
	before := store.FormatTime(o.Before)
	after, afterID := "", ""
	for {
		var n int
		err := s.inTx(ctx, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, `SELECT run_id, finished_at FROM runs
WHERE finished_at <> '' AND status <> 'awaiting_results' AND finished_at < $1 AND (finished_at, run_id) > ($2, $3)
ORDER BY finished_at, run_id LIMIT $4`, before, after, afterID, pruneBatch)
			if err != nil {
				return err
			}
			var ids []string
			_, err = pgx.ForEachRow(rows, []any{&afterID, &after}, func() error {
				ids = append(ids, afterID)
				return nil
			})
			if err != nil {
				return err
			}
			n = len(ids)
			return store.PruneBatch(o, &rep, ids, func(id string) (store.ArchivedRun, error) {
				return archived(ctx, tx, id)
			}, func(id string) error {
				b := &pgx.Batch{}
				b.Queue(`INSERT INTO pruned_runs (run_id) VALUES ($1)`, id)
				b.Queue(`DELETE FROM events WHERE run_id = $1`, id)
				b.Queue(`DELETE FROM results WHERE run_id = $1`, id)
				b.Queue(`DELETE FROM shares WHERE run_id = $1`, id)
				b.Queue(`DELETE FROM runs WHERE run_id = $1`, id)
				return tx.SendBatch(ctx, b).Close()
			})
		})
		if err != nil {
			return rep, s.dbErr(ctx, err, "prune runs")
		}
		if n < pruneBatch {
			break
		}
	}
	if o.DryRun {
		err := s.pool.QueryRow(ctx, `SELECT count(*) FROM sessions WHERE updated_at < $1
AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.session_id = sessions.id AND (runs.finished_at = '' OR runs.finished_at >= $1))`, before).Scan(&rep.Sessions)
		if err != nil {
			return rep, s.dbErr(ctx, err, "count the sessions to prune")
		}
		return rep, nil
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE updated_at < $1
AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.session_id = sessions.id)`, before)
	if err != nil {
		return rep, s.dbErr(ctx, err, "prune sessions")
	}
	rep.Sessions = int(tag.RowsAffected())
	return rep, nil
}

// archived reads one run whole: its events and its results.
func archived(ctx context.Context, q querier, runID string) (store.ArchivedRun, error) {
	run := store.ArchivedRun{RunID: runID}
	var err error
	if run.Events, err = readEvents(ctx, q, runID); err != nil {
		return run, err
	}
	rows, err := q.Query(ctx, `SELECT id, hash, truncated, body FROM results WHERE run_id = $1 ORDER BY id`, runID)
	if err != nil {
		return run, err
	}
	run.Results, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.ArchivedResult, error) {
		var r store.ArchivedResult
		err := row.Scan(&r.ID, &r.Hash, &r.Truncated, &r.Body)
		return r, err
	})
	return run, err
}
