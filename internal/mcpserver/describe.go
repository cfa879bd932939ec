package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Description is what describe returns.
type Description struct {
	Connection DescConnection  `json:"connection"`
	Tables     []DescTable     `json:"tables"`
	Metrics    []DescMetric    `json:"metrics"`
	Dimensions []DescDimension `json:"dimensions"`
	Verified   []Verified      `json:"verified_queries"`
	Knowledge  string          `json:"knowledge_version,omitempty"` // the knowledge folder's hash
}

// DescConnection names the connection; never its credentials.
type DescConnection struct {
	Name    string         `json:"name"`
	Dialect quarry.Dialect `json:"dialect"`
}

// DescTable is one table or view.
type DescTable struct {
	Name        string       `json:"name"`
	Description string       `json:"description,omitempty"`
	RowCount    int64        `json:"row_count,omitempty"`
	Columns     []DescColumn `json:"columns"`
}

// DescColumn is one column; a restricted column is listed so that the
// client knows not to ask for it, and its values are never shown.
type DescColumn struct {
	Name        string      `json:"name"`
	Type        quarry.Type `json:"type,omitempty"`
	Description string      `json:"description,omitempty"`
	Restricted  bool        `json:"restricted,omitempty"`
}

// DescMetric is a metric of the knowledge folder.
type DescMetric struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Entity      string `json:"entity,omitempty"`
	Unit        string `json:"unit,omitempty"`
}

// DescDimension is a dimension of the knowledge folder.
type DescDimension struct {
	Name        string   `json:"name"`
	Entity      string   `json:"entity"`
	Type        string   `json:"type,omitempty"`
	Description string   `json:"description,omitempty"`
	Grains      []string `json:"grains,omitempty"`
}

// DescribeInput is describe's (empty) input.
type DescribeInput struct{}

func (s *server) describe(ctx context.Context, _ *mcp.CallToolRequest, _ DescribeInput) (*mcp.CallToolResult, *Description, error) {
	proj, _, err := s.project(ctx)
	if err != nil {
		return nil, nil, err
	}
	m := proj.Knowledge.Model
	if m == nil {
		m = &semantic.Model{}
	}
	d := &Description{
		Connection: DescConnection{Name: s.cfg.Connection, Dialect: s.cfg.Dialect},
		Tables:     []DescTable{}, Metrics: []DescMetric{}, Dimensions: []DescDimension{}, Verified: []Verified{},
		Knowledge: proj.Knowledge.Hash,
	}
	entity := func(table string) *semantic.Entity {
		for i := range m.Entities {
			if strings.EqualFold(m.Entities[i].TableName(), table) {
				return &m.Entities[i]
			}
		}
		return nil
	}
	if cat := s.cfg.Catalog; cat != nil {
		for _, t := range cat.Tables {
			if proj.Withheld[strings.ToLower(t.Name)] {
				// A relation the policy withholds whole (a view over a
				// restricted column) is not listed, as the agent's schema
				// leaves it out: even its row count counts the rows that
				// meet a condition on the column.
				continue
			}
			dt := DescTable{Name: t.Name, Description: t.Comment, RowCount: max(t.RowCount, 0), Columns: []DescColumn{}}
			e := entity(t.Name)
			if e != nil && e.Description != "" {
				dt.Description = e.Description
			}
			for _, c := range t.Columns {
				dc := DescColumn{Name: c.Name, Type: c.Type, Description: c.Comment, Restricted: m.IsRestricted(t.Name, c.Name)}
				if e != nil {
					if ec := e.Column(c.Name); ec != nil && ec.Description != "" {
						dc.Description = ec.Description
					}
				}
				dt.Columns = append(dt.Columns, dc)
			}
			d.Tables = append(d.Tables, dt)
		}
	} else {
		for _, e := range m.Entities {
			dt := DescTable{Name: e.TableName(), Description: e.Description, RowCount: e.RowCount, Columns: []DescColumn{}}
			for _, c := range e.Columns {
				dt.Columns = append(dt.Columns, DescColumn{Name: c.Name, Type: c.Type, Description: c.Description, Restricted: m.IsRestricted(e.Name, c.Name)})
			}
			d.Tables = append(d.Tables, dt)
		}
	}
	for _, x := range m.Metrics {
		d.Metrics = append(d.Metrics, DescMetric{Name: x.Name, Description: x.Description, Entity: x.Entity, Unit: x.Unit})
	}
	for _, x := range m.Dimensions {
		dd := DescDimension{Name: x.Name, Entity: x.Entity, Type: x.Type, Description: x.Description}
		for _, g := range x.Grains {
			dd.Grains = append(dd.Grains, string(g))
		}
		d.Dimensions = append(d.Dimensions, dd)
	}
	// The verified queries' text is knowledge text: it goes out through
	// the scrubber the agent applies to everything it sends a model, so
	// that an MCP client (usually a model) reads the same.
	sc := policy.NewScrubber(m)
	for _, v := range proj.Verified {
		d.Verified = append(d.Verified, Verified{Question: sc.Scrub(v.Question), SQL: sc.Scrub(v.SQL)})
	}
	return nil, d, nil
}
