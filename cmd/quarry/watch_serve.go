package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

// watchGrace is how long a stopping worker lets the monitors it runs
// finish before it cancels them (River then hands them to a worker again).
const watchGrace = 30 * time.Second

func (a *app) watchServeCmd() *cobra.Command {
	var noInvestigate bool
	var asOf string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run monitors as they come due, on the job queue of quarry's state database",
		Long: `Work the monitors' job queue until stopped: every monitor runs when its
schedule comes due, through the same runner as quarry watch run (one
recorded run, alerts kept and delivered, its memory in the state
database). The queue is River, in quarry's state database: the SQLite file,
or the PostgreSQL state. Start as many workers as you like, on this machine
or (with the state on PostgreSQL) on others: they share the monitors, and a
monitor's period runs once whichever worker takes it. A run whose worker
dies is handed to another worker after 10 minutes. quarry serve runs the
same worker unless started with --no-watch.

One line per job on stderr. Ctrl-C (or SIGTERM) stops taking jobs, lets
the monitors being run finish (at most 30 seconds; one cancelled then runs
again on a worker) and exits.`,
		Example: `  quarry watch serve
  quarry watch serve --as-of 2026-06-30`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&noInvestigate, "no-investigate", false, "do not break alerts down by dimension")
	cmd.Flags().StringVar(&asOf, "as-of", "", "run as on the day after this one, YYYY-MM-DD (default: now)")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		o := runtime.WatchWorkerOptions{Investigate: !noInvestigate, Log: a.workerLog()}
		if asOf != "" {
			t, err := a.asOfFlag(asOf)
			if err != nil {
				return err
			}
			o.AsOf = t
		}
		w, err := a.rt.WatchWorker(ctx, o)
		if err != nil {
			return err
		}
		fmt.Fprintln(a.stderr, "quarry: running monitors as they come due (Ctrl-C to stop)")
		if err := w.Run(ctx, watchGrace); err != nil {
			return err
		}
		fmt.Fprintln(a.stderr, "quarry: stopped")
		return nil
	})
	return cmd
}

// startWatchWorker starts the monitors' worker of quarry serve on a
// runtime of its own (requests and jobs never share one); the returned
// func stops it, letting runs finish for up to watchGrace. A worker that
// cannot start (a monitor's file is broken) is a warning: the server
// serves without it. The runs it records name the server's replica.
func (a *app) startWatchWorker(ctx context.Context, replicaID string) (stop func()) {
	rt := a.newRuntime()
	rt.RecordAs(replicaID)
	w, err := rt.WatchWorker(ctx, runtime.WatchWorkerOptions{Investigate: true, Log: a.workerLog()})
	if err == nil {
		err = w.Start(context.WithoutCancel(ctx))
	}
	if err != nil {
		rt.Close()
		fmt.Fprintf(a.stderr, "quarry: warning: the monitors are not running: %s\n", quarry.Message(err))
		return func() {}
	}
	return func() {
		if err := w.Stop(context.WithoutCancel(ctx), watchGrace); err != nil {
			fmt.Fprintf(a.stderr, "quarry: warning: %s\n", quarry.Message(err))
		}
		rt.Close()
	}
}

// lineWriter writes each line it is given whole, after its prefix, one
// write at a time, so that lines from several goroutines never mix.
type lineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.w.Write(append([]byte(l.prefix), p...)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// workerLog is where a monitors' worker logs: stderr, each line after
// "quarry: watch: ".
func (a *app) workerLog() io.Writer {
	return &lineWriter{w: a.stderr, prefix: "quarry: watch: "}
}
