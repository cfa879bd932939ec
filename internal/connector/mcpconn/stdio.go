package mcpconn

import (
	"crypto/rand"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/rowpipe"
)

// How long Close waits for a server to exit after closing its input, and
// again after SIGTERM, before it kills it.
const (
	graceInput = 2 * time.Second
	graceTerm  = 2 * time.Second
)

// stderrKeep is how much of a server's stderr is kept, from the end.
const stderrKeep = 4 << 10

// process is a server quarry started, speaking MCP on its stdin and stdout.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *guard
	stderr *tail
	done   chan struct{} // closed when the process has exited and been waited for
	err    error         // Wait's error, once done is closed
	stop   sync.Once
	// pipe is the read end of the result pipe the process was given
	// (rowpipe), and token what its hello must carry; nil where none
	// can be given.
	pipe  *os.File
	token string
}

// start runs the server with exactly opts.Env as its environment, and,
// where the system allows it, a result pipe (rowpipe.EnvVar added to it):
// a quarry connector server sends its rows on it; any other server has
// one more inherited file it never reads.
func start(opts *Options) (*process, *mcp.IOTransport, error) {
	cmd := exec.Command(opts.Command, opts.Args...)
	cmd.Dir = opts.Dir
	cmd.Env = append([]string{}, opts.Env...) // never nil: nil would pass quarry's own environment
	setGroup(cmd)
	token := rand.Text()
	pipeR, pipeW, err := rowpipe.Give(cmd, token)
	if err == nil {
		defer pipeW.Close() // the process holds its own copy
	}
	started := false
	defer func() {
		if pipeR != nil && !started {
			pipeR.Close()
		}
	}()
	p := &process{cmd: cmd, stderr: &tail{max: stderrKeep}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = graceTerm
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	started = true
	p.pipe, p.token = pipeR, token
	p.stdin = stdin
	p.out = newGuard(stdout, opts.MaxBytes, true)
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, &mcp.IOTransport{Reader: p.out, Writer: stdin, MaxLineLength: int(min(opts.MaxBytes+1024, 1<<31-1))}, nil
}

// exited reports whether the process has exited, waiting up to d for it.
func (p *process) exited(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// shutdown ends the process: its input is closed (when gentle), then
// SIGTERM, then SIGKILL, each after a grace period. It returns once the
// process has been waited for.
func (p *process) shutdown(gentle bool) {
	p.stop.Do(func() {
		p.stdin.Close()
		if gentle && p.exited(graceInput) {
			return
		}
		signalGroup(p.cmd, false)
		if p.exited(graceTerm) {
			return
		}
		signalGroup(p.cmd, true)
		<-p.done
	})
	<-p.done
}

// why explains a failed stdio exchange in the user's terms, or returns ""
// when the process gives no clue. secrets are removed from what the server
// wrote on stderr.
func (p *process) why(r *redactor) (string, quarry.Kind) {
	if reason, huge := p.out.failed(); reason != "" {
		if huge {
			return reason, quarry.KindQuery
		}
		return reason, quarry.KindConnection
	}
	return "", ""
}

// exitReason explains a failed exchange by the process's exit, or returns
// "" when it is still running.
func (p *process) exitReason(r *redactor) (string, quarry.Kind) {
	wait := 50 * time.Millisecond
	if p.out.closed() {
		wait = time.Second
	}
	if !p.exited(wait) {
		return "", ""
	}
	status := "exit status 0"
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		status = ee.ProcessState.String()
	} else if p.err != nil {
		status = sanitize(p.err.Error())
	}
	last := r.clean(p.stderr.lastWords(lastWordsBytes))
	if last == "" {
		return "the server exited (" + status + ") without a message on stderr", quarry.KindConnection
	}
	return "the server exited (" + status + "): " + last, quarry.KindConnection
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	dropped bool // the start was cut off: the first line may be partial
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.dropped = true
	}
	return len(b), nil
}

// lastWordsBytes is about how much of a server's last lines an error
// repeats when none of them reads as an error.
const lastWordsBytes = 240

// lastWords returns what the server said last, as one line: the last line
// that reads as an error (Error: …, panic: …, fatal: …, a Python or Java
// exception, a log line at level ERROR) when there is one among the last
// lines, else the last lines joined up to about max bytes, so that a
// message spread over lines (an indented JSON log record, a wrapped
// sentence) is not cut down to its final "}".
func (t *tail) lastWords(max int) string {
	t.mu.Lock()
	text, dropped := strings.ToValidUTF8(string(t.buf), "\uFFFD"), t.dropped
	t.mu.Unlock()
	raw := strings.Split(text, "\n")
	if dropped {
		raw = raw[1:]
	}
	var lines []string
	for _, l := range raw {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	const recent = 30 // an error further up is old news
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-recent; i-- {
		if errorLine().MatchString(lines[i]) && !jsonMember().MatchString(lines[i]) {
			return lines[i]
		}
	}
	var words []string
	n, said := 0, false
	for i := len(lines) - 1; i >= 0; i-- {
		if said && n+1+len(lines[i]) > max {
			break
		}
		// Lines of punctuation alone ("}", "]);") say nothing: the line
		// before them is kept whatever its length.
		said = said || strings.IndexFunc(lines[i], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
		words = append(words, lines[i])
		n += 1 + len(lines[i])
	}
	slices.Reverse(words)
	return strings.Join(words, " ")
}

// errorLine matches a line that states an error: it starts with a word
// such as Error, panic or fatal and has a colon, starts with the name of
// an error or exception type and a colon (ValueError: …,
// java.sql.SQLException: …), or carries the log level ERROR or FATAL.
var errorLine = lazyRE(`(?i:^(error|fatal|panic|critical|exception)\b.*:)|^[\w.$]*(Error|Exception)\b:|\b(ERROR|FATAL|CRITICAL|PANIC)\b`)

// jsonMember matches one member of a JSON object written over several
// lines (`"level": "ERROR",`): a part of the record, not the record.
var jsonMember = lazyRE(`^"[^"]*"\s*:`)

// startError explains why the command could not be started.
func startError(name, command string, err error) error {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return quarry.Errorf(quarry.KindConfig, "connection %q: the server's command %q cannot be found; check command: in quarry.yaml", name, short(command))
	}
	return quarry.Errorf(quarry.KindConnection, "connection %q: the server's command %q could not be started: %s", name, short(command), sanitize(err.Error()))
}
