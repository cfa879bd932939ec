package knowledge_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gomysql "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/connector/mysql"
	"github.com/quarrydata/quarry/internal/connector/postgres"
	"github.com/quarrydata/quarry/internal/knowledge"
)

// serverChecks are what learn must write from a server's catalog with
// comments: the table and column comments as descriptions, a label
// measured past a mostly empty name column, and date roles.
var serverChecks = []string{
	"    description: People who signed up.\n",
	"    time_column: signup_date\n    label: display_name\n",
	"        description: The name shown on the invoice.\n",
	"        description: When the account was opened.\n        time_role: start\n",
	"        time_role: birth\n",
}

func checkServerLearn(t *testing.T, src knowledge.Source, dir string) {
	t.Helper()
	ctx := context.Background()
	rep, err := knowledge.Learn(ctx, src, dir, knowledge.LearnOptions{Now: learnNow})
	if err != nil {
		t.Fatal(err)
	}
	model := readFile(t, filepath.Join(dir, "model.yaml"))
	for _, want := range serverChecks {
		if !strings.Contains(model, want) {
			t.Errorf("model.yaml lacks %q:\n%s", want, model)
		}
	}
	if len(rep.Labels) != 1 || rep.Labels[0].Column != "display_name" || !strings.Contains(rep.Labels[0].Passed, "name (90% empty)") {
		t.Errorf("labels %+v, want display_name past the empty name", rep.Labels)
	}
	if _, err := knowledge.Load(dir); err != nil {
		t.Fatal(err)
	}
	// A description a person wrote wins over the comment; learning again
	// changes nothing.
	model = strings.Replace(model, "    description: People who signed up.\n", "    description: Our members.\n", 1)
	writeFile(t, filepath.Join(dir, "model.yaml"), model)
	rep, err = knowledge.Learn(ctx, src, dir, knowledge.LearnOptions{Now: learnNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 0 || readFile(t, filepath.Join(dir, "model.yaml")) != model {
		t.Errorf("a second learn rewrote %v", rep.Files)
	}
}

func TestLearnReadsPostgresComments(t *testing.T) {
	base := connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(context.Background()) })
	name := fmt.Sprintf("quarry_learn_%d_%d", time.Now().UnixNano()%1e9, rand.IntN(1e6))
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	setup, err := pgx.Connect(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE accounts (id int PRIMARY KEY, name text, display_name text, born date, signup_date date, closed_at timestamptz)`,
		`INSERT INTO accounts SELECT i, CASE WHEN i % 10 = 0 THEN 'nick' || i END, 'Account ' || i, DATE '1980-01-01', DATE '2024-01-01' + i, NULL FROM generate_series(1, 100) AS i`,
		`COMMENT ON TABLE accounts IS 'People who signed up.'`,
		`COMMENT ON COLUMN accounts.display_name IS 'The name shown on the invoice.'`,
		`COMMENT ON COLUMN accounts.signup_date IS 'When the account was opened.'`,
		`ANALYZE accounts`,
	} {
		if _, err := setup.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	setup.Close(ctx)
	conn, err := postgres.Open(ctx, u.String(), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	checkServerLearn(t, conn, filepath.Join(t.TempDir(), "knowledge"))
}

func TestLearnReadsMariaDBComments(t *testing.T) {
	dsn := connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv)
	cfg, err := gomysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	root := cfg.Clone()
	root.DBName = ""
	cn, err := gomysql.NewConnector(root)
	if err != nil {
		t.Fatal(err)
	}
	admin := sql.OpenDB(cn)
	t.Cleanup(func() { admin.Close() })
	name := fmt.Sprintf("quarry_learn_%d_%d", time.Now().UnixNano()%1e9, rand.IntN(1e6))
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" CHARACTER SET utf8mb4"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	sess, err := admin.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"USE " + name,
		`CREATE TABLE accounts (id int PRIMARY KEY, name varchar(40), display_name varchar(80) COMMENT 'The name shown on the invoice.',
		  born date, signup_date date COMMENT 'When the account was opened.', closed_at datetime) COMMENT 'People who signed up.'`,
		`INSERT INTO accounts SELECT seq, CASE WHEN seq % 10 = 0 THEN CONCAT('nick', seq) END, CONCAT('Account ', seq), '1980-01-01',
		  DATE_ADD('2024-01-01', INTERVAL seq DAY), NULL FROM seq_1_to_100`,
	} {
		if _, err := sess.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	sess.Close()
	db := cfg.Clone()
	db.DBName = name
	conn, err := mysql.Open(ctx, db.FormatDSN(), mysql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	checkServerLearn(t, conn, filepath.Join(t.TempDir(), "knowledge"))
}
