package sqlite

import (
	"context"
	"strings"
	"testing"

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
