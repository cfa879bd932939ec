// Command quarry answers plain-language questions about your own databases
// with the exact SQL, the result, the checks that ran on it, a chart when it
// helps, and a record of how the answer was made. It never writes to your
// database.
//
// This package is the only place that reads the environment and wires
// concrete adapters (the SQLite connector, the state store) to the cores.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/quarrydata/quarry/internal/auth"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

func main() {
	if shortLived(os.Args[1:]) && os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		// A question answered and gone: the collector's default pace
		// is a server's. On a schema of ten thousand tables most of
		// the heap is the knowledge, alive to the end, and each
		// collection marked it again for nothing: a tenth of an ask's
		// processor time, for memory the process gives back at exit
		// anyway. So an ask collects only once its heap nears
		// askHeapLimit. GOGC or GOMEMLIMIT, when set, decides instead.
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(askHeapLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	if shortLived(os.Args[1:]) {
		go exitAfter(ctx, interruptGrace)
	}
	a := newApp(os.Stdin, os.Stdout, os.Stderr, os.LookupEnv)
	a.exiting = shortLived(os.Args[1:])
	code := a.execute(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

// askHeapLimit is the heap an ask grows to before it collects: above
// the most an ask on a schema of ten thousand tables holds (about 150
// MiB, its knowledge, SQLite's pages and its rows).
const askHeapLimit = 512 << 20

// interruptGrace is how long a question's process may take to stop once
// interrupted before it is stopped outright.
const interruptGrace = 3 * time.Second

// exitAfter ends the process, exit code 130, grace after ctx is canceled
// by a signal, should the command not have returned by then: a planner's
// work checks no context, and a question that runs on (found from
// outside: one whose reading looped) must still stop at Ctrl-C or at
// timeout's SIGTERM. Servers drain on their own and are not stopped so.
func exitAfter(ctx context.Context, grace time.Duration) {
	<-ctx.Done()
	time.Sleep(grace)
	fmt.Fprintln(os.Stderr, "quarry: interrupted")
	os.Exit(130)
}

// shortLived reports whether args run a command that answers one
// question and exits (ask), by its first word that is not a flag. run is
// not one: it may stream a million rows, whose garbage the default pace
// keeps small.
func shortLived(args []string) bool {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "--config":
			i++ // the one global flag, and its value
		case strings.HasPrefix(a, "-"):
		default:
			return a == "ask"
		}
	}
	return false
}

// run is main without the process: it parses args, runs one command until
// it ends or ctx is canceled, and returns the exit code. Tests call it
// directly.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, env func(string) (string, bool)) int {
	return newApp(stdin, stdout, stderr, env).execute(ctx, args)
}

// newApp reads what the process gives every command: its streams, its
// environment, whether they are terminals.
func newApp(stdin io.Reader, stdout, stderr io.Writer, env func(string) (string, bool)) *app {
	a := &app{
		stdin:  stdin,
		stdout: stdout,
		stderr: stderr,
		env:    env,
		now:    time.Now,
		random: rand.Reader,
	}
	bi, _ := debug.ReadBuildInfo()
	a.version = readVersion(version, bi)
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		a.tty = true
		if w, _, err := term.GetSize(int(f.Fd())); err == nil {
			a.width = w
		}
	}
	if a.width == 0 {
		a.width = 100
	}
	a.prompts = a.stdinTTY() && a.stderrTTY()
	return a
}

// newRuntime builds quarry from the project's configuration; nothing is
// opened until used. quarry serve builds a second one for its monitors'
// worker, which runs beside the requests.
func (a *app) newRuntime() *runtime.Runtime {
	return runtime.New(runtime.Options{
		Load: a.loadConfig, Env: a.env, Now: a.now, Random: a.random, Version: a.version.Version,
		Notes: a.stderr, Interactive: a.stderrTTY(), Groups: auth.GroupsOf, Exiting: a.exiting,
	})
}

// execute runs one command until it ends or ctx is canceled, and returns
// the exit code.
func (a *app) execute(ctx context.Context, args []string) int {
	stdin, stdout, stderr := a.stdin, a.stdout, a.stderr
	a.rt = a.newRuntime()
	root := newRootCmd(a)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	defer a.rt.Close()
	if err == nil {
		return quarry.ExitOK
	}
	var se silentError
	if errors.As(err, &se) {
		return int(se)
	}
	var qe *quarry.Error
	if !errors.As(err, &qe) {
		// Errors that are not quarry's own come from argument parsing.
		fmt.Fprintf(stderr, "quarry: %s (see quarry --help)\n", oneLine(err.Error()))
		return quarry.ExitUsage
	}
	if ctx.Err() != nil && qe.Kind != quarry.KindCanceled {
		fmt.Fprintln(stderr, "quarry: interrupted")
		return quarry.ExitCanceled
	}
	fmt.Fprintf(stderr, "quarry: %s\n", oneLine(quarry.Message(err)))
	return quarry.ExitCode(err)
}

// silentError ends a command with its exit code after the command has
// already said why on its own (a guard verdict, a refused question).
type silentError int

func (e silentError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// errSilent ends a command with exit code 1 after it has said why (a guard
// rejection printed as a verdict, a failed doctor check).
const errSilent = silentError(quarry.ExitRejected)

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// parseErr is strconv's error text inside pflag's messages.
var parseErr = regexp.MustCompile(`strconv\.Parse\w+: parsing "[^"]*": (invalid syntax|value out of range)`)

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "quarry",
		Short: "Ask your databases questions and get answers you can trust",
		Long: `quarry answers plain-language questions about your own databases with the
exact SQL, the result, the checks that ran on it, a chart when it helps, and a
record of how the answer was made. It never writes to your database.

Start with:  quarry init --demo demo && quarry -C demo ask "revenue by month last year"`,
		Version:       a.version.String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVarP(&a.configFlag, "config", "C", "", "quarry.yaml, or the project folder that holds it (default: search upward from the current folder)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		// pflag quotes strconv's own words ("strconv.ParseInt: parsing
		// "abc": invalid syntax"); say it plainly.
		msg := parseErr.ReplaceAllString(err.Error(), "not a number")
		return quarry.Errorf(quarry.KindUsage, "%s (see %s --help)", msg, c.CommandPath())
	})
	root.AddCommand(a.commands()...)
	return root
}
