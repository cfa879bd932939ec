package mysql

import (
	"os"
	"testing"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestConformance(t *testing.T) {
	connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv)
	d := newTestDB(t)
	connectortest.Run(t, func(t *testing.T) connector.Conn {
		// The cases read TIMESTAMP values as UTC.
		return open(t, d.dsn(map[string]string{"time_zone": "'+00:00'"}))
	}, connectortest.Fixture{
		Dialect: quarry.DialectMySQL,
		Schema:  d.name,
		Exec: func(t *testing.T, stmts []string) {
			d.exec(t, stmts...)
			d.exec(t, "ANALYZE TABLE "+d.name+".ct_parent")
		},
	})
}
