package valueindex

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/connector/mysql"
	"github.com/quarrydata/quarry/internal/connector/postgres"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// dialectModel is the table of every dialect test: a mixed-case column
// name, a value with an accent, a value padded with spaces, and a key
// column of identifiers.
func dialectModel(schema, table string) *semantic.Model {
	return &semantic.Model{Entities: []semantic.Entity{{Name: "shops", Schema: schema, Table: table, PrimaryKey: "Ref",
		Columns: []semantic.Column{textCol("Ref"), textCol("Home City")}}}}
}

func checkDialect(t *testing.T, src Source, m *semantic.Model) {
	t.Helper()
	ixPath := filepath.Join(t.TempDir(), "values.db")
	st, err := Build(context.Background(), src, m, ixPath, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Values != 3 || st.IDs != 3 || len(st.Failed) != 0 {
		t.Errorf("stats: %+v", st)
	}
	ix, err := Open(ixPath)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for q, want := range map[string][]planner.Value{
		"shops in zurich":      {{Entity: "shops", Column: "Home City", Value: "Zürich"}},
		"shops in Saint Louis": {{Entity: "shops", Column: "Home City", Value: "Saint Louis"}},
		"shops in Aberdeen":    {{Entity: "shops", Column: "Home City", Value: "Aberdeen "}},
		"shop S-2":             {{Entity: "shops", Column: "Ref", Value: "S-2", ID: true}},
	} {
		f, err := ix.Lookup(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, f.Values); diff != "" {
			t.Errorf("%q (-want +got):\n%s", q, diff)
		}
	}
}

const dialectRows = `('S-1', 'Zürich'), ('S-2', 'Saint Louis'), ('S-3', 'Aberdeen ')`

func TestBuildPostgres(t *testing.T) {
	url := connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		`DROP SCHEMA IF EXISTS qv_test CASCADE`, `CREATE SCHEMA qv_test`,
		`CREATE TABLE qv_test.shops ("Ref" TEXT PRIMARY KEY, "Home City" TEXT)`,
		`INSERT INTO qv_test.shops VALUES ` + dialectRows,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	t.Cleanup(func() { db.Exec(`DROP SCHEMA qv_test CASCADE`) })
	c, err := postgres.Open(context.Background(), url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Dialect() != quarry.DialectPostgres {
		t.Fatalf("dialect %s", c.Dialect())
	}
	checkDialect(t, c, dialectModel("qv_test", "shops"))
}

func TestBuildMySQL(t *testing.T) {
	dsn := connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv)
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		"DROP TABLE IF EXISTS qv_shops",
		"CREATE TABLE qv_shops (`Ref` VARCHAR(10) PRIMARY KEY, `Home City` VARCHAR(40)) CHARACTER SET utf8mb4",
		"INSERT INTO qv_shops VALUES " + dialectRows,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	t.Cleanup(func() { db.Exec("DROP TABLE qv_shops") })
	c, err := mysql.Open(context.Background(), dsn, mysql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	checkDialect(t, c, dialectModel("", "qv_shops"))
}
