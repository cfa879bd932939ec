package mcpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// schemaURI is the resource quarry's own connector servers describe their
// database with: a quarry.Catalog as JSON.
const schemaURI = "quarry://schema"

// maxResources bounds how many resources Catalog lists.
const maxResources = 5000

var _ connector.Pinger = (*Conn)(nil)

// Ping starts the session (the server, the initialize handshake and tool
// discovery) and describes what answered: the server's name and the tool
// and argument that take the SQL.
func (c *Conn) Ping(ctx context.Context) (string, error) {
	s, err := c.session(ctx)
	if err != nil {
		return "", err
	}
	server := "the server"
	if info := s.cs.InitializeResult().ServerInfo; info != nil && info.Name != "" {
		server = sanitize(info.Name)
		if info.Version != "" {
			server += " " + sanitize(info.Version)
		}
	}
	return fmt.Sprintf("%s answers; SQL goes to its tool %s(%s)", short(server), short(s.tool), short(s.sqlArg)), nil
}

// Catalog describes the tables behind the server: from its quarry://schema
// resource, else from per-table schema resources (URIs ending in /schema,
// as the reference PostgreSQL server offers), else through the server's
// tools that list tables and describe one (list_tables and describe_table,
// as the reference SQLite server offers), else through the dialect's
// catalog query run with the SQL tool. Row counts are unknown (-1) unless
// the server says.
func (c *Conn) Catalog(ctx context.Context) (*quarry.Catalog, error) {
	s, err := c.session(ctx)
	if err != nil {
		return nil, err
	}
	if s.resources {
		cat, err := c.resourceCatalog(ctx, s)
		if err != nil || cat != nil {
			return cat, err
		}
	}
	if cat, err := c.toolCatalog(ctx, s); err != nil || cat != nil {
		return cat, err
	}
	return connector.QueryCatalog(ctx, c, c.opts.Name)
}

// resourceCatalog reads the catalog from resources; nil, nil when the
// server has none that describe tables.
func (c *Conn) resourceCatalog(ctx context.Context, s *session) (*quarry.Catalog, error) {
	var tables []string // URIs of per-table schema resources
	found := false
	n := 0
	for r, err := range s.cs.Resources(ctx, nil) {
		if err != nil {
			if broken(err) {
				qerr := c.fail(ctx, s, err, "listing its resources", 0)
				c.drop(s)
				return nil, qerr
			}
			return nil, nil // a server that cannot list resources: ask with SQL
		}
		if r.URI == schemaURI {
			found = true
			break
		}
		if strings.HasSuffix(r.URI, "/schema") && len(tables) < maxResources {
			tables = append(tables, r.URI)
		}
		if n++; n >= maxResources {
			break
		}
	}
	if found {
		return c.quarrySchema(ctx, s)
	}
	if len(tables) == 0 {
		return nil, nil
	}
	cat := &quarry.Catalog{Dialect: c.opts.Dialect, Tables: []quarry.TableInfo{}}
	for _, uri := range tables {
		text, err := c.readResource(ctx, s, uri)
		if err != nil {
			return nil, err
		}
		var cols []struct {
			Name string `json:"column_name"`
			Type string `json:"data_type"`
		}
		if err := json.Unmarshal([]byte(text), &cols); err != nil {
			return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server's schema resource %q is not a list of {column_name, data_type}", c.opts.Name, c.red.clean(uri))
		}
		t := quarry.TableInfo{Name: tableOf(uri), RowCount: -1, Columns: []quarry.ColumnInfo{}}
		if t.Name == "" {
			continue
		}
		for _, col := range cols {
			t.Columns = append(t.Columns, quarry.ColumnInfo{Name: col.Name, DeclType: col.Type, Type: connector.TypeOf(col.Type), Nullable: true})
		}
		cat.Tables = append(cat.Tables, t)
	}
	return cat, nil
}

// tableOf returns the path segment before /schema in a resource URI.
func tableOf(uri string) string {
	p := strings.TrimSuffix(uri, "/schema")
	if u, err := url.Parse(uri); err == nil && u.Path != "" {
		p = strings.TrimSuffix(u.Path, "/schema")
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	if name, err := url.PathUnescape(p); err == nil {
		return name
	}
	return p
}

// quarrySchema reads quarry://schema.
func (c *Conn) quarrySchema(ctx context.Context, s *session) (*quarry.Catalog, error) {
	text, err := c.readResource(ctx, s, schemaURI)
	if err != nil {
		return nil, err
	}
	var cat quarry.Catalog
	if err := json.Unmarshal([]byte(text), &cat); err != nil {
		return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server's %s resource is not a catalog: %s", c.opts.Name, schemaURI, sanitize(err.Error()))
	}
	if cat.Dialect == "" || c.opts.Dialect != quarry.DialectGeneric {
		cat.Dialect = c.opts.Dialect
	}
	if cat.Tables == nil {
		cat.Tables = []quarry.TableInfo{}
	}
	for i := range cat.Tables {
		t := &cat.Tables[i]
		if t.Name == "" {
			return nil, quarry.Errorf(quarry.KindQuery, "connection %q: the server's %s lists a table without a name", c.opts.Name, schemaURI)
		}
		if t.Columns == nil {
			t.Columns = []quarry.ColumnInfo{}
		}
		for j := range t.Columns {
			if t.Columns[j].Type == "" {
				t.Columns[j].Type = connector.TypeOf(t.Columns[j].DeclType)
			}
		}
	}
	return &cat, nil
}

// readResource returns a resource's text.
func (c *Conn) readResource(ctx context.Context, s *session, uri string) (string, error) {
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		qerr := c.fail(ctx, s, err, "reading "+c.red.clean(uri), 0)
		if broken(err) {
			c.drop(s)
		}
		return "", qerr
	}
	var b strings.Builder
	for _, ct := range res.Contents {
		if ct != nil {
			b.WriteString(ct.Text)
		}
	}
	return b.String(), nil
}
