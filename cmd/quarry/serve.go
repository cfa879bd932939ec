package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	goruntime "runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/auth"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/httpapi"
	"github.com/quarrydata/quarry/internal/httpserve"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/replica"
	"github.com/quarrydata/quarry/internal/runtime"
)

// closeWait bounds how long a drained server waits for its last
// responses before it closes their connections.
const closeWait = 2 * time.Second

func (a *app) serveCmd() *cobra.Command {
	var addr, connName string
	var open, allowRemote, noWatch, noAuth bool
	var maxStreams int
	var drainTimeout, replicaTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web chat and the HTTP API on this machine",
		Long: `Serve quarry's web chat and HTTP API (docs/api.md) on the same runtime as
ask and run: the same knowledge folder, read-only guard, limits and state
database. Every answer is a recorded run.

quarry serve binds the loopback address by default, so only this machine
can reach it. It refuses requests whose Host header is not its own address
or localhost, refuses cross-origin requests, and sends a strict
Content-Security-Policy. Once the state has people (quarry users add), every
API request needs one of their API tokens or a browser signed in with one,
or through the OpenID Connect provider of quarry.yaml's auth.oidc
(docs/auth.md). Binding another address needs --allow-remote, which
requires sign-in even before anyone was added, and so refuses to start until
someone has been; --no-auth turns sign-in off (dangerous: anyone who can
reach the address can query your database).

It also runs the project's monitors as they come due, like quarry watch
serve (docs/watch.md), logging one line per monitor's run on stderr;
--no-watch leaves them to other workers or to quarry watch run.

Several quarry serve processes (replicas) can share one PostgreSQL state
behind a load balancer (docs/deploy.md): a run started on one can be
streamed from any (GET /api/runs/{id}/stream), and the runs of a replica
that stops saying it is alive for --replica-timeout are finished as failed
by the others. GET /healthz and GET /readyz answer the load balancer.

Ctrl-C or SIGTERM drains: new runs get 503 and /readyz fails, the runs in
progress get --drain-timeout to finish, whatever is left is finished as
failed, and quarry exits 0.`,
		Example: `  quarry serve
  quarry serve --open
  quarry serve --addr 127.0.0.1:9000`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8000", "the address to listen on, host:port")
	cmd.Flags().BoolVar(&open, "open", false, "open the web chat in the system browser")
	cmd.Flags().BoolVar(&allowRemote, "allow-remote", false, "allow a non-loopback --addr; every request then needs a token or a sign-in (docs/auth.md)")
	cmd.Flags().BoolVar(&noAuth, "no-auth", false, "DANGEROUS: ask nobody who they are, even with --allow-remote or with people in the state")
	cmd.Flags().IntVar(&maxStreams, "max-streams", httpapi.DefaultMaxStreams, "the most runs in progress at once; more get 429")
	cmd.Flags().StringVar(&connName, "connection", "", "the connection to use (default: the project's default)")
	cmd.Flags().BoolVar(&noWatch, "no-watch", false, "do not run the monitors (quarry watch serve does, elsewhere)")
	cmd.Flags().DurationVar(&drainTimeout, "drain-timeout", 30*time.Second, "on Ctrl-C or SIGTERM, how long the runs in progress get to finish before they are finished as failed")
	cmd.Flags().DurationVar(&replicaTimeout, "replica-timeout", replica.DefaultBound, "how long a replica sharing the state may go without a heartbeat before the others finish its runs as failed")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return quarry.Errorf(quarry.KindUsage, "--addr %q is not host:port (for example 127.0.0.1:8000)", addr)
		}
		remote := !loopback(host)
		if remote && !allowRemote {
			return quarry.Errorf(quarry.KindUsage, "refusing to serve on %s without --allow-remote (which requires sign-in, docs/auth.md); use 127.0.0.1 to stay on this machine", addr)
		}
		if maxStreams < 1 {
			return quarry.Errorf(quarry.KindUsage, "--max-streams must be at least 1")
		}
		if drainTimeout < 0 || replicaTimeout < time.Second {
			return quarry.Errorf(quarry.KindUsage, "--drain-timeout must not be negative and --replica-timeout must be at least 1s")
		}
		srvCfg, rs, closeGuard, err := a.serverConfig(ctx, connName)
		if err != nil {
			return err
		}
		defer closeGuard()
		g, err := a.gate(ctx, rs, addr, remote, allowRemote, noAuth)
		if err != nil {
			return err
		}
		// From here on other goroutines (the replica's sweeps, the
		// monitors' worker) write to stderr too.
		a.stderr = &lineWriter{w: a.stderr}
		rep, err := a.joinReplicas(ctx, rs.NewID, rs.Clock, replicaTimeout)
		if err != nil {
			return err
		}
		left := false
		defer func() {
			if !left {
				rep.leave(context.WithoutCancel(ctx), a)
			}
		}()
		srvCfg.Store, srvCfg.Tail, srvCfg.Ready = replica.Stamp(rs.Store, rep.member.ID), rep.tail, rep.ready
		// The runs the server records on its own (a workflow's steps)
		// name the replica too.
		a.rt.RecordAs(rep.member.ID)
		if g != nil {
			cfg, err := a.config()
			if err != nil {
				return err
			}
			g.OIDC = oidcSignIn(cfg.Auth.OIDC)
			srvCfg.Wrap, srvCfg.Store = g.Wrap, auth.Scope(replica.Stamp(rs.Store, rep.member.ID))
			srvCfg.MayApprove, srvCfg.MayStart = mayApprove, g.MayStartRun
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return quarry.Wrap(quarry.KindUsage, err, "cannot listen on %s (%v); choose another --addr", addr, errors.Unwrap(err))
		}
		cfg, err := a.config()
		if err != nil {
			ln.Close()
			return err
		}
		srvCfg.Addr, srvCfg.MaxStreams, srvCfg.PublicURL = ln.Addr().String(), maxStreams, cfg.Server.PublicURL
		srv, err := httpapi.New(srvCfg)
		if err != nil {
			ln.Close()
			return err
		}
		hs := httpServer(srv.Handler(), cfg.Server)
		url := "http://" + ln.Addr().String() + "/"
		fmt.Fprintf(a.stderr, "quarry: serving on %s (Ctrl-C to stop)\n", url)
		if open {
			a.openBrowser(url)
		}
		if err := a.rt.Retain(ctx); err != nil {
			ln.Close()
			return err
		}
		stopWatch := func() {}
		if !noWatch {
			stopWatch = sync.OnceFunc(a.startWatchWorker(ctx, rep.member.ID))
			defer stopWatch()
		}
		if err := serveUntil(ctx, hs, ln); err != nil {
			return err
		}
		// Drain: no new runs, unready; the server goes on answering (reads,
		// streams, probes) while the runs in progress finish.
		srv.Drain()
		fmt.Fprintf(a.stderr, "quarry: draining; waiting up to %s for the runs in progress\n", drainTimeout)
		bg := context.WithoutCancel(ctx)
		wait, cancel := context.WithTimeout(bg, drainTimeout)
		defer cancel()
		if errors.Is(srv.Wait(wait), context.DeadlineExceeded) {
			fmt.Fprintf(a.stderr, "quarry: some runs were still in progress after %s; they are finished as failed\n", drainTimeout)
		}
		// The monitors' runs name this replica too: they finish (or are
		// given up) before leaving finishes what is left as failed.
		stopWatch()
		rep.leave(bg, a)
		left = true
		closing, cancelClose := context.WithTimeout(bg, closeWait)
		defer cancelClose()
		if hs.Shutdown(closing) != nil {
			hs.Close()
		}
		return nil
	})
	return cmd
}

// httpServer is the http.Server of every server quarry runs (serve, and
// mcp and connector with --http): bounded reads of each request, headers
// and body, an idle timeout and a header size limit, from quarry.yaml's
// server section; responses, which may stream, are not bounded.
func httpServer(h http.Handler, sv config.Server) *http.Server {
	return httpserve.New(h, httpserve.Limits{
		ReadTimeout: sv.ReadTimeout, IdleTimeout: sv.IdleTimeout, MaxHeaderBytes: sv.MaxHeaderBytes,
	})
}

// serveUntil serves hs on ln until it fails, or until ctx ends (Ctrl-C),
// when it returns nil and the caller shuts hs down.
func serveUntil(ctx context.Context, hs *http.Server, ln net.Listener) error {
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return quarry.Wrap(quarry.KindInternal, err, "the server stopped")
	case <-ctx.Done():
		return nil
	}
}

// serverConfig maps what the runtime shares between a server's requests
// onto the HTTP API's config. The returned func releases it once the
// server has stopped.
func (a *app) serverConfig(ctx context.Context, connName string) (httpapi.Config, *runtime.Server, func(), error) {
	srv, release, err := a.rt.Server(ctx, connName)
	if err != nil {
		return httpapi.Config{}, nil, nil, err
	}
	// The monitors' memory, opened once before requests share it.
	if _, err := a.rt.WatchStore(ctx); err != nil {
		release()
		return httpapi.Config{}, nil, nil, err
	}
	// The workflows use the runtime's own connection, one at a time.
	own := &sync.Mutex{}
	c := httpapi.Config{
		Start: func(ctx context.Context) (httpapi.Runner, func(), error) {
			return srv.Start(ctx)
		},
		Ask:      srv.Ask,
		Arriving: srv.Arriving,
		Knowledge: func(ctx context.Context) (*analyst.Knowledge, error) {
			p, err := srv.Project(ctx)
			if err != nil {
				return nil, err
			}
			return p.Knowledge, nil
		},
		KnowledgeDir: srv.KnowledgeDir,
		Store:        srv.Store,
		ApprovalWait: srv.ApprovalWait,
		Clock:        srv.Clock,
		NewID:        srv.NewID,
		Version:      a.version.Version,
		Assets:       httpapi.Assets(),
		Agent:        srv.Agent,
		Workflows:    &serveWorkflows{rt: a.rt, srv: srv, now: a.now, mu: own},
		Monitors:     &serveMonitors{mons: srv.Monitors, rt: a.rt},
	}
	return c, srv, release, nil
}

// mayApprove is who may decide a statement that waits for approval:
// with sign-in on, admins (auth.Person.MayApprove); with no person in the
// request (nobody was added yet), the local user.
func mayApprove(ctx context.Context) (bool, string) {
	p, ok := auth.From(ctx)
	if !ok {
		return true, ""
	}
	return p.MayApprove()
}

// loopback reports whether host names this machine only.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// openBrowser opens url in the system browser when one can be found, and
// otherwise says where to go.
func (a *app) openBrowser(url string) {
	name := "xdg-open"
	if goruntime.GOOS == "darwin" {
		name = "open"
	}
	path, err := exec.LookPath(name)
	if err == nil {
		c := exec.Command(path, url)
		if err = c.Start(); err == nil {
			go c.Wait()
			return
		}
	}
	fmt.Fprintf(a.stdout, "Open %s in your browser.\n", url)
}
