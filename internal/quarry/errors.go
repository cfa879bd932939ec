package quarry

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kind classifies an error so that every surface can map it to one exit code
// or HTTP status without inspecting messages.
type Kind string

// The error kinds. Each maps to one exit code (ExitCode) and, in the HTTP API,
// one status.
const (
	KindInternal    Kind = "internal"    // a bug in quarry
	KindUsage       Kind = "usage"       // bad flags or arguments
	KindConfig      Kind = "config"      // quarry.yaml or knowledge files are invalid
	KindNotFound    Kind = "not_found"   // a run, file, table or result that does not exist
	KindInput       Kind = "input"       // unreadable, empty or malformed input
	KindRejected    Kind = "rejected"    // the guard refused the statement
	KindConnection  Kind = "connection"  // the database could not be opened or reached
	KindQuery       Kind = "query"       // the database refused or failed the query
	KindTimeout     Kind = "timeout"     // a statement or request ran out of time
	KindCanceled    Kind = "canceled"    // the user interrupted the work
	KindUnsupported Kind = "unsupported" // quarry cannot do this (yet) for this input
	KindUnanswered  Kind = "unanswered"  // the planner could not map the question with confidence
	KindForbidden   Kind = "forbidden"   // policy refuses it (restricted columns, writes)
	KindTooCostly   Kind = "too_costly"  // over a configured cost or size ceiling
	KindExpired     Kind = "expired"     // a result that existed but is gone
	KindModel       Kind = "model"       // the language model failed or misbehaved
	KindConflict    Kind = "conflict"    // the state changed underneath the request
	// KindUnauthenticated: a shared server does not know who is asking
	// (no API token or sign-in, or one that is not valid).
	KindUnauthenticated Kind = "unauthenticated"
)

// Error is quarry's one error type. Msg is safe to show to a user and says
// what to do; Err is the internal cause, kept for logs and errors.Is/As.
type Error struct {
	Kind Kind
	Msg  string
	Err  error
}

// Error returns the user message, followed by the cause when there is one.
func (e *Error) Error() string {
	switch {
	case e.Msg == "" && e.Err != nil:
		return e.Err.Error()
	case e.Err != nil:
		return e.Msg + ": " + e.Err.Error()
	default:
		return e.Msg
	}
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error of the given kind with a formatted user message.
func Errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Wrap builds an *Error of the given kind around a cause.
func Wrap(kind Kind, cause error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// KindOf returns the kind of the first *Error in err's chain, or KindInternal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// Message returns the user-safe message of err: the Msg of the first *Error
// in its chain, or err's text when it carries none.
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Msg != "" {
		return e.Msg
	}
	return err.Error()
}

// Exit codes. 0 is success; 1 means "the answer is no" (a guard rejection,
// a check that failed); 2 is a usage error; higher codes name the failure.
const (
	ExitOK         = 0
	ExitRejected   = 1
	ExitUsage      = 2
	ExitConfig     = 3
	ExitConnection = 4
	ExitQuery      = 5
	ExitInput      = 6
	ExitUnanswered = 7
	ExitTimeout    = 8
	ExitModel      = 9
	ExitCanceled   = 130
	ExitInternal   = 70
)

// ExitCode maps an error to the process exit code for its kind.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	return KindExitCode(KindOf(err))
}

// KindExitCode is the one table from kinds to process exit codes.
func KindExitCode(k Kind) int {
	switch k {
	case KindUsage, KindUnsupported, KindUnauthenticated:
		return ExitUsage
	case KindConfig:
		return ExitConfig
	case KindNotFound, KindInput, KindExpired:
		return ExitInput
	case KindRejected, KindForbidden, KindTooCostly:
		return ExitRejected
	case KindConnection:
		return ExitConnection
	case KindQuery:
		return ExitQuery
	case KindTimeout:
		return ExitTimeout
	case KindCanceled:
		return ExitCanceled
	case KindUnanswered:
		return ExitUnanswered
	case KindModel:
		return ExitModel
	default:
		return ExitInternal
	}
}

// Unprintable reports whether r must not reach a terminal or a cell as
// written: a control character (C0, DEL, C1: an escape sequence can write
// the clipboard or clear the screen) or a bidirectional override or mark,
// which reorders what follows it.
func Unprintable(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f
}

// Clean makes text from outside quarry (a server's message, a child
// process's stderr) safe to repeat in a one-line message: valid UTF-8,
// control characters and runs of white space folded to one space, and at
// most max bytes, cut on a rune boundary and marked with "…".
func Clean(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, " "))
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
