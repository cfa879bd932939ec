package runtime

import (
	"context"
	"sync"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Pool shares connections that each run one query at a time (SQLite,
// DuckDB) between concurrent runs: a query takes a free connection, or
// waits for one to close its rows (or for its context to end). Runs served
// from the result cache never wait. Every connection must be of the same
// database and dialect.
func Pool(conns ...analyst.Querier) analyst.Querier {
	p := &pool{free: make(chan analyst.Querier, len(conns)), dialect: conns[0].Dialect()}
	for _, c := range conns {
		p.free <- c
	}
	return p
}

type pool struct {
	free    chan analyst.Querier
	dialect quarry.Dialect
}

// Dialect returns the connections' dialect.
func (p *pool) Dialect() quarry.Dialect { return p.dialect }

// Query waits for a free connection, then runs sql on it; closing the rows
// frees the connection.
func (p *pool) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	var c analyst.Querier
	select {
	case c = <-p.free:
	case <-ctx.Done():
		return nil, quarry.Wrap(quarry.KindCanceled, ctx.Err(), "interrupted while waiting for a connection")
	}
	rows, err := c.Query(ctx, sql, opts)
	if err != nil {
		p.free <- c
		return nil, err
	}
	return &pooledRows{Rows: rows, release: func() { p.free <- c }}, nil
}

// pooledRows frees its connection when closed, once.
type pooledRows struct {
	quarry.Rows
	once    sync.Once
	release func()
}

func (r *pooledRows) Close() error {
	err := r.Rows.Close()
	r.once.Do(r.release)
	return err
}

// Truncated passes on whether the connector stopped at the row cap.
func (r *pooledRows) Truncated() bool {
	t, ok := r.Rows.(connector.Truncator)
	return ok && t.Truncated()
}
