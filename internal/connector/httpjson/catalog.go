package httpjson

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Catalog describes the tables behind the service: from SchemaURL when it
// is set, otherwise through the dialect's catalog query
// (connector.QueryCatalog). Row counts are unknown (-1).
func (c *Conn) Catalog(ctx context.Context) (*quarry.Catalog, error) {
	if c.opts.SchemaURL != "" {
		return c.schemaEndpoint(ctx)
	}
	return connector.QueryCatalog(ctx, c, c.opts.Name)
}

func (c *Conn) schemaEndpoint(ctx context.Context) (*quarry.Catalog, error) {
	data, err := c.do(ctx, http.MethodGet, c.opts.SchemaURL, nil, 0)
	if err != nil {
		return nil, err
	}
	var cat quarry.Catalog
	if err := json.Unmarshal(data, &cat); err != nil {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the schema endpoint's answer is not a catalog: %s", c.opts.Name, sanitize(err.Error()))
	}
	cat.Dialect = c.opts.Dialect
	if cat.Tables == nil {
		cat.Tables = []quarry.TableInfo{}
	}
	for i := range cat.Tables {
		t := &cat.Tables[i]
		if t.Name == "" {
			return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the schema endpoint lists a table without a name", c.opts.Name)
		}
		for j := range t.Columns {
			if t.Columns[j].Type == "" {
				t.Columns[j].Type = TypeOf(t.Columns[j].DeclType)
			}
		}
	}
	return &cat, nil
}

// TypeOf maps a declared column type from any common dialect to quarry's
// portable type; it is connector.TypeOf.
func TypeOf(decl string) quarry.Type { return connector.TypeOf(decl) }
