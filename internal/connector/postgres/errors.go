package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarrydata/quarry/internal/quarry"
)

// scrub removes the password from err's text. The cause keeps its chain
// unless the password appears in it.
func (c *Conn) scrub(e *quarry.Error) *quarry.Error {
	if c.password == "" || len(c.password) < 3 {
		return e
	}
	e.Msg = strings.ReplaceAll(e.Msg, c.password, "xxxxx")
	if e.Err != nil && strings.Contains(e.Err.Error(), c.password) {
		e.Err = errors.New(strings.ReplaceAll(e.Err.Error(), c.password, "xxxxx"))
	}
	return e
}

// connectError explains why a connection could not be made.
func (c *Conn) connectError(ctx context.Context, err error) error {
	where := "PostgreSQL at " + c.target + " as user " + c.user
	var pgErr *pgconn.PgError
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var e *quarry.Error
	switch {
	case errors.Is(err, errClosed):
		e = quarry.Errorf(quarry.KindConnection, "the connection to %s is closed; open it again", c.target)
	case ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded):
		e = quarry.Wrap(quarry.KindCanceled, err, "connecting to %s was canceled", where)
	case errors.As(err, &pgErr):
		switch pgErr.Code {
		case "28P01":
			e = quarry.Errorf(quarry.KindConnection, "%s: password authentication failed; check the user and password in the connection URL", where)
		case "28000":
			e = quarry.Errorf(quarry.KindConnection, "%s: %s; check the user name and the server's pg_hba.conf", where, pgErr.Message)
		case "3D000":
			e = quarry.Errorf(quarry.KindConnection, "%s: %s; check the database name in the connection URL", where, pgErr.Message)
		case "53300":
			e = quarry.Errorf(quarry.KindConnection, "%s: too many connections; lower the pool size or raise max_connections", where)
		default:
			e = quarry.Errorf(quarry.KindConnection, "%s: %s (SQLSTATE %s); check the connection URL and the server", where, pgErr.Message, pgErr.Code)
		}
	case errors.As(err, &dnsErr):
		e = quarry.Errorf(quarry.KindConnection, "cannot connect to %s: host %s not found; check the host in the connection URL", where, dnsErr.Name)
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		e = quarry.Errorf(quarry.KindConnection, "cannot connect to %s: no answer in time; check the host, port and firewall, and that the server is running", where)
	case errors.As(err, &opErr):
		e = quarry.Errorf(quarry.KindConnection, "cannot connect to %s: %s; check the host and port, and that the server is running", where, lastPart(opErr.Err))
	default:
		e = quarry.Errorf(quarry.KindConnection, "cannot connect to %s: %s; check the connection URL and the server", where, lastPart(err))
	}
	e.Err = err
	return c.scrub(e)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// lastPart is the innermost message of a chain of "a: b: c" errors.
func lastPart(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 && i+2 < len(s) {
		return s[i+2:]
	}
	return s
}

// queryError maps an error from a query (the executor's or the caller's)
// to a quarry error. timeout is the query's own bound, for the message.
func (c *Conn) queryError(ctx context.Context, err error, timeout time.Duration) error {
	var e *quarry.Error
	if errors.As(err, &e) {
		return err
	}
	var pgErr *pgconn.PgError
	isPg := errors.As(err, &pgErr)
	switch {
	case isPg && pgErr.Code == "57014" && strings.Contains(pgErr.Message, "statement timeout"):
		e = timeoutError(err, timeout)
	case ctx.Err() != nil:
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			e = timeoutError(err, timeout)
		} else {
			e = quarry.Wrap(quarry.KindCanceled, err, "the query was canceled")
		}
	case isPg && pgErr.Code == "25006":
		e = &quarry.Error{Kind: quarry.KindRejected, Msg: "PostgreSQL refused a write in the read-only transaction (" + pgErr.Message + "); quarry runs only read-only statements", Err: err}
	case isPg && pgErr.Code == "42601" && strings.Contains(pgErr.Message, "multiple commands"):
		e = &quarry.Error{Kind: quarry.KindRejected, Msg: "only one statement may run; remove everything after the first statement", Err: err}
	case isPg && (strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P")):
		e = &quarry.Error{Kind: quarry.KindConnection, Msg: "the connection to PostgreSQL at " + c.target + " was lost during the query (" + pgErr.Message + "); run it again, and check the server if it keeps happening", Err: err}
	case isPg && pgErr.Code == "53200":
		e = &quarry.Error{Kind: quarry.KindTooCostly, Msg: "PostgreSQL ran out of memory for this query; narrow it (filters, LIMIT) or lower work_mem", Err: err}
	case isPg:
		msg := "PostgreSQL: " + pgErr.Message
		if pgErr.Hint != "" {
			msg += " (hint: " + pgErr.Hint + ")"
		}
		e = &quarry.Error{Kind: quarry.KindQuery, Msg: msg + " [SQLSTATE " + pgErr.Code + "]", Err: err}
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || isNetError(err) || pgconn.SafeToRetry(err):
		e = &quarry.Error{Kind: quarry.KindConnection, Msg: "the connection to PostgreSQL at " + c.target + " was lost during the query; run it again, and check the server if it keeps happening", Err: err}
	default:
		e = &quarry.Error{Kind: quarry.KindQuery, Msg: "PostgreSQL: " + oneLine(err.Error()), Err: err}
	}
	return c.scrub(e)
}

func isNetError(err error) bool {
	var ne net.Error
	return errors.As(err, &ne)
}

func timeoutError(err error, timeout time.Duration) *quarry.Error {
	if timeout > 0 {
		return quarry.Wrap(quarry.KindTimeout, err, "the query ran longer than its %s timeout; narrow it (filters, LIMIT) or raise the timeout", timeout.String())
	}
	return quarry.Wrap(quarry.KindTimeout, err, "the query ran out of time; narrow it (filters, LIMIT) or raise the timeout")
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// pgMessage is what PostgreSQL said of err, or err's text.
func pgMessage(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Message
	}
	return err.Error()
}
