package postgres

import (
	"testing"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestConformance(t *testing.T) {
	url := testURL(t)
	pc := admin(t)
	schema := tempSchema(t, pc)
	connectortest.Run(t, func(t *testing.T) connector.Conn {
		c := openConn(t, url, Options{Name: "conformance"})
		return c
	}, connectortest.Fixture{
		Dialect: quarry.DialectPostgres,
		Schema:  schema,
		Exec: func(t *testing.T, stmts []string) {
			exec(t, pc, stmts...)
			exec(t, pc, "ANALYZE "+schema+".ct_parent")
		},
	})
}
