package sqlite

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store/storetest"
)

func TestResultNotFoundAndDamaged(t *testing.T) {
	path := statePath(t)
	s := openStore(t, path)
	ctx := context.Background()
	_, err := s.Result(ctx, "res_nope")
	storetest.WantKind(t, err, quarry.KindNotFound)

	id, _, err := s.SaveResult(ctx, "r_dmg", &quarry.Table{Columns: []quarry.Column{{Name: "n"}}, Rows: [][]any{{int64(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	if _, err := db.Exec(`UPDATE results SET body = CAST(replace(CAST(body AS TEXT), 'quarry', 'QUARRY') AS BLOB) WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	_, err = s.Result(ctx, id)
	storetest.WantKind(t, err, quarry.KindInternal)
	if !strings.Contains(err.Error(), "damaged") {
		t.Errorf("message = %v", err)
	}
}

// TestForgedResultIsRefused: a results row rewritten with another body
// and that body's hash (found from outside) no longer matches the hash
// the run's append-only log recorded, and is not served.
func TestForgedResultIsRefused(t *testing.T) {
	path := statePath(t)
	s := openStore(t, path)
	ctx := context.Background()
	orig := &quarry.Table{Columns: []quarry.Column{{Name: "v"}}, Rows: [][]any{{"original"}}}
	id, hash, err := s.SaveResult(ctx, "r_forge", orig)
	if err != nil {
		t.Fatal(err)
	}
	r := event.NewRecorder("r_forge", storetest.Clock(storetest.T0), s)
	for _, p := range []event.Payload{&event.RunStartedData{Kind: "run"}, &event.QueryExecutedData{Rows: 1, ResultID: id, ResultHash: hash}} {
		if err := r.Emit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	other, _, err := s.SaveResult(ctx, "r_other", &quarry.Table{Columns: []quarry.Column{{Name: "v"}}, Rows: [][]any{{"forged"}}})
	if err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	if _, err := db.Exec(`UPDATE results SET body = (SELECT body FROM results WHERE id = ?), hash = (SELECT hash FROM results WHERE id = ?) WHERE id = ?`, other, other, id); err != nil {
		t.Fatal(err)
	}
	_, err = s.Result(ctx, id)
	storetest.WantKind(t, err, quarry.KindInternal)
	if !strings.Contains(err.Error(), "does not match its run's log") {
		t.Errorf("message = %v", err)
	}
}
