package sqlite

import (
	"context"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// ShareRun lets sh.With read the run.
func (s *Store) ShareRun(ctx context.Context, sh store.Share) error {
	if sh.RunID == "" || sh.With == "" || sh.At.IsZero() {
		return quarry.Errorf(quarry.KindInternal, "a share needs a run, a grantee and a time")
	}
	_, err := s.exec(ctx, `INSERT INTO shares (run_id, grantee, by_name, at) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, grantee) DO NOTHING`,
		sh.RunID, sh.With, sh.By, store.FormatTime(sh.At))
	if err != nil {
		return s.dbErr(ctx, err, "share run %s", sh.RunID)
	}
	return nil
}

// UnshareRun takes a share back.
func (s *Store) UnshareRun(ctx context.Context, runID, with string) error {
	if _, err := s.exec(ctx, `DELETE FROM shares WHERE run_id = ? AND grantee = ?`, runID, with); err != nil {
		return s.dbErr(ctx, err, "unshare run %s", runID)
	}
	return nil
}

// RunShares returns whom a run is shared with.
func (s *Store) RunShares(ctx context.Context, runID string) ([]store.Share, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT run_id, grantee, by_name, at FROM shares WHERE run_id = ? ORDER BY at, grantee`, runID)
	if err != nil {
		return nil, s.dbErr(ctx, err, "read the shares of run %s", runID)
	}
	defer rows.Close()
	out, err := store.ReadShares(rows)
	if err != nil {
		return nil, s.dbErr(ctx, err, "read the shares of run %s", runID)
	}
	return out, nil
}
