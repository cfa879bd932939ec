package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// SaveResult stores t as a result of run runID and returns its ID and hash.
// The caller decides how many rows to keep; t.Truncated records that more
// existed. The first result of a run gets the ID "res_" + runID, later ones
// "res_" + runID + "_2", "_3", and so on.
//
// The hash is "sha256:" and the hex SHA-256 of the canonical encoding of
// the columns and rows (see encodeTable), so equal results have equal
// hashes whatever their run. Values must be nil, bool, int64, float64,
// string, []byte, time.Time or json.RawMessage; other Go integers and
// float32 are normalised to int64 and float64 first.
func (s *Store) SaveResult(ctx context.Context, runID string, t *quarry.Table) (id, hash string, err error) {
	body, hash, cols, err := store.EncodeResult(runID, t)
	if err != nil {
		return "", "", err
	}
	err = s.inTx(ctx, func(ctx context.Context, tx *txn) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM results WHERE run_id = ?`, runID).Scan(&n); err != nil {
			return err
		}
		id = store.ResultID(runID, n+1)
		_, err := tx.ExecContext(ctx, `INSERT INTO results (id, run_id, hash, columns, row_count, truncated, body) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			id, runID, hash, cols, len(t.Rows), t.Truncated, body)
		return err
	})
	if err != nil {
		return "", "", s.dbErr(ctx, err, "store a result of run %s", runID)
	}
	return id, hash, nil
}

// Result returns the stored result with the given ID (exact, no prefixes).
// Values come back as they went in, with these normalisations: time.Time
// values are in UTC (the same instant; the location and any monotonic clock
// reading are dropped), empty and nil []byte both come back as an empty
// non-nil []byte, and every NaN is the one NaN of math.NaN().
func (s *Store) Result(ctx context.Context, id string) (*quarry.Table, error) {
	var runID, hash string
	var truncated bool
	var body []byte
	err := s.db.QueryRowContext(ctx, `SELECT run_id, hash, truncated, body FROM results WHERE id = ?`, id).Scan(&runID, &hash, &truncated, &body)
	if errors.Is(err, sql.ErrNoRows) {
		for _, run := range store.ResultRunIDs(id) {
			var n int
			if s.db.QueryRowContext(ctx, `SELECT count(*) FROM pruned_runs WHERE run_id = ?`, run).Scan(&n) == nil && n > 0 {
				return nil, store.PrunedResult(id)
			}
		}
		return nil, store.NoResult(id)
	}
	if err != nil {
		return nil, s.dbErr(ctx, err, "read result %s", id)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT run_id, seq, type, version, at, data FROM events WHERE run_id = ? AND type = 'query.executed' ORDER BY seq`, runID)
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
