package mcpconn

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/normalize"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/rowpipe"
)

// helloWait is how long discovery waits for a server that lists
// rowpipe.Tool to have said hello on the pipe. quarry's server says it
// before it serves, so it is there by then; a server that lists the tool
// and says nothing is asked through the binary tool instead.
const helloWait = 2 * time.Second

// pipeReader reads a server's result pipe (rowpipe) for the session's
// whole life, and hands each call's frames to that call. It reads all the
// time, whoever waits: a server writing a call's rows never waits on a
// reader busy elsewhere, and a caller that reads one result slowly while
// it asks for another cannot stall the server.
type pipeReader struct {
	f     *os.File
	hello chan struct{} // closed once the hello carried the token
	dead  chan struct{} // closed when the pipe ended
	err   error         // why, once dead is closed: nil for its end
	mu    sync.Mutex
	calls map[uint64]*pipedCall
	next  atomic.Uint64
}

func newPipeReader(f *os.File, token string) *pipeReader {
	p := &pipeReader{f: f, hello: make(chan struct{}), dead: make(chan struct{}), calls: map[uint64]*pipedCall{}}
	go p.run(token)
	return p
}

func (p *pipeReader) run(token string) {
	defer close(p.dead)
	r := rowpipe.NewReader(p.f)
	if r.Hello(token) != nil {
		return
	}
	close(p.hello)
	for {
		f, err := r.Next(p.room)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				p.err = err
			}
			return
		}
		p.mu.Lock()
		c := p.calls[f.Call]
		if f.Kind == rowpipe.KindEnd {
			delete(p.calls, f.Call)
		}
		p.mu.Unlock()
		if c != nil {
			c.push(f)
		}
	}
}

// room is how many bytes of a frame's payload are read: what the call
// still has room for (one byte more, to mark it over), an end's bounded
// size, and nothing of a call no one waits for. The rest is skipped
// unread into memory.
func (p *pipeReader) room(kind byte, call uint64) int64 {
	if kind == rowpipe.KindEnd {
		return maxEnd
	}
	p.mu.Lock()
	c := p.calls[call]
	p.mu.Unlock()
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return max(c.max-c.size, 0) + 1
}

// maxEnd bounds an end frame's JSON: a count, a flag and a one-line
// message.
const maxEnd = 64 << 10

// broke returns why the pipe ended, once it did, when that was not its
// end: bytes that are not quarry's frames.
func (p *pipeReader) broke() error {
	select {
	case <-p.dead:
		return p.err
	default:
		return nil
	}
}

// ready reports whether the server said hello, waiting up to helloWait.
func (p *pipeReader) ready(ctx context.Context) bool {
	t := time.NewTimer(helloWait)
	defer t.Stop()
	select {
	case <-p.hello:
		return true
	case <-p.dead:
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// register starts a call of at most max bytes of parts: its frames go to
// the pipedCall returned.
func (p *pipeReader) register(max int64) *pipedCall {
	c := &pipedCall{id: p.next.Add(1), max: max, notify: make(chan struct{}, 1)}
	p.mu.Lock()
	p.calls[c.id] = c
	p.mu.Unlock()
	return c
}

// forget drops a call whose reader stopped early: its frames are read
// and left.
func (p *pipeReader) forget(c *pipedCall) {
	p.mu.Lock()
	delete(p.calls, c.id)
	p.mu.Unlock()
}

func (p *pipeReader) close() { p.f.Close() }

// pipedCall is what one call has received: parts not yet decoded, and
// its end. Parts past max bytes, all told, are left, and the call is
// marked over.
type pipedCall struct {
	id     uint64
	max    int64
	notify chan struct{} // a frame arrived
	mu     sync.Mutex
	parts  [][]byte
	size   int64
	over   bool
	end    []byte // the end frame's payload, once it came
	ended  bool
}

func (c *pipedCall) push(f rowpipe.Frame) {
	c.mu.Lock()
	switch {
	case f.Kind == rowpipe.KindEnd:
		c.end, c.ended = f.Payload, true // nil when skipped: no JSON, refused
	case f.Skipped:
		c.over, c.parts = true, nil
	case !c.over:
		c.size += int64(len(f.Payload))
		if c.size > c.max {
			c.over, c.parts = true, nil
		} else {
			c.parts = append(c.parts, f.Payload)
		}
	}
	c.mu.Unlock()
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

// pending reports whether a frame waits to be taken.
func (c *pipedCall) pending() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.parts) > 0 || c.ended || c.over
}

// take returns the next part, or the end once every part was taken.
func (c *pipedCall) take() (part []byte, end []byte, ended, over bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.parts) > 0 {
		part = c.parts[0]
		c.parts[0] = nil
		c.parts = c.parts[1:]
		return part, nil, false, c.over
	}
	return nil, c.end, c.ended, c.over
}

// outcome is how the tool call itself ended.
type outcome struct {
	res *mcp.CallToolResult
	err error
}

// queryPiped runs sql through rowpipe.Tool: the call goes out, and its
// rows are read from the pipe as they come while the server reads the
// rest. It returns once the first part (the columns) came, or the call
// failed.
func (c *Conn) queryPiped(ctx context.Context, s *session, args map[string]any, opts connector.QueryOptions) (quarry.Rows, error) {
	// The call is bounded by the statement's timeout, not by the
	// caller's context: a caller done with its rows (a row cap reached)
	// lets the call go without failing the session that other calls
	// share. A caller that gives up while it waits cancels it.
	callCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if opts.Timeout > 0 {
		callCtx, cancel = context.WithTimeout(context.WithoutCancel(ctx), opts.Timeout)
	}
	// Bounded as an answer in a message is: by the connection's
	// max_bytes, and never past what a result read from a server may be.
	call := s.pipe.register(min(c.opts.MaxBytes, normalize.MaxBytes))
	args["call"] = call.id
	r := &pipedRows{c: c, s: s, call: call, ctx: ctx, callCtx: callCtx, cancel: cancel, done: make(chan outcome, 1),
		size: connector.NewSizeLimit(opts),
		lim:  quarry.DecodeLimits{MaxRows: opts.MaxRows, MaxColumns: maxColumns, MaxCells: maxCells, MaxNestedBytes: maxNestedBytes}}
	go func(done chan<- outcome) {
		res, err := s.cs.CallTool(callCtx, &mcp.CallToolParams{Name: s.piped, Arguments: args})
		switch {
		case err != nil && r.abandoned.Load():
			// Let go by its reader: the session is fine.
		case err != nil:
			qerr := c.fail(callCtx, s, err, "answering", opts.Timeout)
			if broken(err) {
				c.drop(s)
			}
			err = qerr
		}
		done <- outcome{res, err}
	}(r.done)
	if !r.load() { // the first part, with the columns
		err := r.err
		r.Close()
		return nil, err
	}
	return r, nil
}

// errPartColumns is a part whose columns are not the first part's.
var errPartColumns = errors.New("a part has other columns than the first")

// pipedRows are the rows of a piped call, decoded a part at a time.
type pipedRows struct {
	c         *Conn
	s         *session
	call      *pipedCall
	ctx       context.Context // the caller's
	callCtx   context.Context // the call's: the statement's timeout
	cancel    context.CancelFunc
	abandoned atomic.Bool  // closed before its answer came
	done      chan outcome // nil once received
	out       *outcome
	cols      []quarry.Column
	cur       [][]any
	i         int
	lim       quarry.DecodeLimits
	size      connector.SizeLimit
	trunc     bool
	got       int64 // the rows of the parts decoded
	ended     bool  // the end came, or the rows stopped
	err       error
	closed    bool
}

var _ connector.Truncator = (*pipedRows)(nil)

func (r *pipedRows) Columns() []quarry.Column { return r.cols }
func (r *pipedRows) Values() []any            { return r.cur[r.i] }
func (r *pipedRows) Err() error               { return r.err }
func (r *pipedRows) Truncated() bool          { return r.trunc }

func (r *pipedRows) Next() bool {
	for {
		if r.i+1 < len(r.cur) {
			r.i++
			if err := r.size.Row(r.cols, r.cur[r.i]); err != nil {
				r.stop(err)
				return false
			}
			return true
		}
		if r.ended || !r.load() {
			return false
		}
	}
}

// load decodes the next part into cur, or reads the end: false when no
// part came (r.err says whether that is a failure).
func (r *pipedRows) load() bool {
	name := r.c.opts.Name
	for {
		part, end, ended, over := r.call.take()
		switch {
		case over:
			r.stop(tooLarge(name, r.call.max))
			return false
		case part != nil:
			t, err := quarry.DecodeTablePart(part, &r.lim)
			if err == nil && r.cols != nil && len(t.Columns) != len(r.cols) {
				err = errPartColumns
			}
			if err == nil {
				err = checkDecoded(t)
			}
			if err != nil {
				r.stop(quarry.Errorf(quarry.KindQuery, "connection %q: the server's piped result cannot be read: %s", name, sanitize(err.Error())))
				return false
			}
			if r.cols == nil {
				r.cols = t.Columns
			}
			r.cur, r.i = t.Rows, -1
			r.got += int64(len(t.Rows))
			if t.Truncated {
				// The rows the query may return were read.
				r.trunc = true
				r.stop(nil)
			}
			return true
		case ended:
			r.finish(end)
			return false
		default:
			if err := r.await(); err != nil {
				r.stop(err)
				return false
			}
		}
	}
}

// finish reads the call's end and then its answer, which follows: the
// rows end once the call is over (and not canceled).
func (r *pipedRows) finish(payload []byte) {
	name := r.c.opts.Name
	e, err := rowpipe.ParseEnd(payload)
	if err != nil {
		r.stop(quarry.Errorf(quarry.KindQuery, "connection %q: the server's piped result cannot be read: %s", name, sanitize(err.Error())))
		return
	}
	if err := r.wait(); err != nil {
		r.stop(err)
		return
	}
	switch {
	case e.Error != "":
		r.stop(quarry.Errorf(quarry.KindQuery, "connection %q: the server reported an error: %s", name, r.c.red.clean(sanitize(e.Error))))
	case r.cols == nil:
		r.stop(quarry.Errorf(quarry.KindQuery, "connection %q: tool %q ended its rows before their columns", name, rowpipe.Tool))
	case e.Rows != r.got:
		// Parts lost or made up on the way: the rows are not the
		// result the server read.
		r.stop(quarry.Errorf(quarry.KindQuery, "connection %q: the server's piped result cannot be read: it says %d rows were sent, and %d came", name, e.Rows, r.got))
	default:
		r.trunc = r.trunc || e.Truncated
		r.stop(nil)
	}
}

// await waits for the call's next frame. The call's answer may come
// first: one that failed, or says that no rows were piped, ends the wait
// with its error; one that says they were is followed by the frames
// already on the pipe.
func (r *pipedRows) await() error {
	select {
	case <-r.call.notify:
		return nil
	case o := <-r.done:
		r.done, r.out = nil, &o
		return r.failure()
	case <-r.s.pipe.dead:
		if r.call.pending() {
			return nil // the frames that came before the pipe ended
		}
		if err := r.s.pipe.broke(); err != nil {
			r.cancel()
			r.wait()
			return quarry.Errorf(quarry.KindQuery, "connection %q: the server's result pipe holds something other than quarry's frames: %s", r.c.opts.Name, sanitize(err.Error()))
		}
		if err := r.wait(); err != nil {
			return err
		}
		return quarry.Errorf(quarry.KindConnection, "connection %q: the server's result pipe closed before the rows ended", r.c.opts.Name)
	case <-r.ctx.Done():
		// The caller gave up: so does the call, with the error that
		// says why.
		r.cancel()
		if err := r.wait(); err != nil {
			return err
		}
		return quarry.Errorf(quarry.KindCanceled, "connection %q: canceled", r.c.opts.Name)
	case <-r.callCtx.Done():
		if err := r.wait(); err != nil {
			return err
		}
		return quarry.Errorf(quarry.KindTimeout, "connection %q: the server did not answer in time", r.c.opts.Name)
	}
}

// wait waits for the call's answer and returns its failure, if any.
func (r *pipedRows) wait() error {
	if r.done != nil {
		o := <-r.done
		r.done, r.out = nil, &o
	}
	return r.failure()
}

// failure is the error of the call's answer: the call's own, the error
// the server reported, or an answer that piped nothing. nil while no
// answer came.
func (r *pipedRows) failure() error {
	switch {
	case r.out == nil:
		return nil
	case r.out.err != nil:
		return r.out.err
	case r.out.res.IsError:
		if _, err := r.c.table(r.out.res, rowpipe.Tool); err != nil {
			return err
		}
	}
	if piped, _ := r.out.res.Meta["piped"].(bool); !piped || r.out.res.IsError {
		return quarry.Errorf(quarry.KindQuery, "connection %q: tool %q answered without its rows", r.c.opts.Name, rowpipe.Tool)
	}
	return nil
}

func (r *pipedRows) stop(err error) {
	r.ended = true
	if r.err == nil {
		r.err = err
	}
}

// Close ends the rows. A call whose answer has not come is canceled: the
// server stops at its next part, what it still sends is read and left,
// and the session stays usable for other calls.
func (r *pipedRows) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.s.pipe.forget(r.call)
	if r.done != nil {
		r.abandoned.Store(true)
	}
	r.cancel()
	return nil
}
