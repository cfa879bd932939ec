package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// SaveResult stores t as a result of run runID (see store.State). The
// run's results are numbered under a transaction-scoped advisory lock on
// the run, so that two results saved at once get different IDs.
func (s *Store) SaveResult(ctx context.Context, runID string, t *quarry.Table) (id, hash string, err error) {
	body, hash, cols, err := store.EncodeResult(runID, t)
	if err != nil {
		return "", "", err
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('quarry result ' || $1, 0))`, runID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM results WHERE run_id = $1`, runID).Scan(&n); err != nil {
			return err
		}
		id = store.ResultID(runID, n+1)
		_, err := tx.Exec(ctx, `INSERT INTO results (id, run_id, hash, columns, row_count, truncated, body) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			id, runID, hash, cols, len(t.Rows), t.Truncated, body)
		return err
	})
	if err != nil {
		return "", "", s.dbErr(ctx, err, "store a result of run %s", runID)
	}
	return id, hash, nil
}

// Result returns the stored result with the given ID (exact, no prefixes),
// checked against its hash.
func (s *Store) Result(ctx context.Context, id string) (*quarry.Table, error) {
	var runID, hash string
	var truncated bool
	var body []byte
	err := s.pool.QueryRow(ctx, `SELECT run_id, hash, truncated, body FROM results WHERE id = $1`, id).Scan(&runID, &hash, &truncated, &body)
	if errors.Is(err, pgx.ErrNoRows) {
		for _, run := range store.ResultRunIDs(id) {
			var n int
			if s.pool.QueryRow(ctx, `SELECT count(*) FROM pruned_runs WHERE run_id = $1`, run).Scan(&n) == nil && n > 0 {
				return nil, store.PrunedResult(id)
			}
		}
		return nil, store.NoResult(id)
	}
	if err != nil {
		return nil, s.dbErr(ctx, err, "read result %s", id)
	}
	rows, err := s.pool.Query(ctx, `SELECT run_id, seq, type, version, at, data FROM events WHERE run_id = $1 AND type = 'query.executed' ORDER BY seq`, runID)
	if err != nil {
		return nil, s.dbErr(ctx, err, "read the log of result %s", id)
	}
	executed, err := scanEvents(rows)
	if err != nil {
		return nil, s.dbErr(ctx, err, "read the log of result %s", id)
	}
	if err := store.CheckResult(id, hash, body, executed); err != nil {
		return nil, err
	}
	t, err := quarry.DecodeTable(body)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "result %s cannot be read; run the query again", id)
	}
	t.Truncated = truncated
	return t, nil
}
