package postgres

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// A role whose session reads backslashes in strings the old way would read
// text differently from the guard: the executor refuses to run there.
func TestRefusesNonConformingStrings(t *testing.T) {
	url := connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	role := "quarry_nonconforming"
	admin.Exec(ctx, "DROP ROLE IF EXISTS "+role)
	if _, err := admin.Exec(ctx, "CREATE ROLE "+role+" LOGIN; ALTER ROLE "+role+" SET standard_conforming_strings = off"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec(context.Background(), "DROP ROLE IF EXISTS "+role) })
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	roleURL := strings.Replace(url, cfg.User+"@", role+"@", 1)
	c, err := Open(ctx, roleURL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Query(ctx, "SELECT 1", connector.QueryOptions{})
	if quarry.KindOf(err) != quarry.KindConnection || !strings.Contains(err.Error(), "standard_conforming_strings") {
		t.Fatalf("err = %v, want a refusal naming standard_conforming_strings", err)
	}
}
