package runtime

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/fresh"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// generation is what a server built from one state of the knowledge
// folder: the project, and the guard, connections and result cache under
// its policy. Requests hold it while they run; one replaced by a newer
// generation is closed when the last of them ends.
type generation struct {
	hash  string // the folder's Fingerprint it was built from
	proj  *Project
	start func() (*analyst.Analyst, error)
	fixer agent.Agent
	tmpl  agent.Agent // the agent of questions, before its run's analyst
	ask   func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error)
	// approval is approval mode for the person ctx acts for on the
	// served connection, as the generation read it; nil: off.
	approval func(ctx context.Context) (*analyst.Approval, error)
	release  func()        // closes its guard and connections
	guard    analyst.Guard // the guard of the served connection, with its policy; nil in manual mode
	conn     string        // the served connection's name, as runs record it before " (dialect: target)"
	values   io.Closer     // its value index; the runtime closes the last one
	cc       *config.Connection
	// noKnowledge says why questions cannot be answered (no folder and
	// no model); refused why nothing may run (a group of the person
	// asking may not use the connection).
	noKnowledge, refused error
	// role is the database role its queries read as (a group's); "": the
	// connection's own.
	role string

	// variants are this generation under the policy of some people's
	// groups (audience), by audience key, built on first use; they share
	// the generation's life.
	variants map[string]*generation

	refs    int
	retired bool
}

// generations keeps a server's current generation, and builds a new one
// when the knowledge folder's files changed. The folder's files are
// checked before every request, or by a check that began after the
// request arrived (refresh): their names, sizes and times, and only when
// those changed their fingerprint (reading and hashing the demo's folder,
// 8 files, 72 KB, takes about 0.25 ms: BenchmarkFingerprint in
// internal/knowledge).
type generations struct {
	dir   string
	build func(ctx context.Context) (*generation, error)
	// variant builds a generation under an audience's policy; member
	// returns the groups of the person a request is made for (nil: none).
	variant func(ctx context.Context, base *generation, a audience) (*generation, error)
	member  func(ctx context.Context) []string
	// files are more files whose change builds a new generation (the
	// project's quarry.yaml and .env: a connection's privacy tier); their
	// names, sizes and times are taken with the folder's.
	files []string

	mu     sync.Mutex // also serialises the builds, which use the runtime
	cur    *generation
	stamp  string // the folder's Stamp when cur was last checked
	closed bool

	checks fresh.Check[struct{}] // of the files, shared by the requests waiting on one
}

// current returns the generation of the folder as it is now, building it
// when the files changed. A folder that no longer loads fails every
// request, as quarry run fails at the terminal: quarry cannot tell what
// to withhold.
func (gs *generations) current(ctx context.Context) (*generation, error) {
	g, done, err := gs.acquire(ctx)
	if err != nil {
		return nil, err
	}
	done()
	return g, nil
}

// acquire returns the current generation, held until done is called.
func (gs *generations) acquire(ctx context.Context) (*generation, func(), error) {
	if err := gs.refresh(ctx); err != nil {
		return nil, nil, err
	}
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if gs.closed {
		return nil, nil, quarry.Errorf(quarry.KindCanceled, "the server is stopping")
	}
	g := gs.cur
	v, err := gs.variantOf(ctx, g)
	if err != nil {
		return nil, nil, err
	}
	g.refs++
	var once sync.Once
	return v, func() {
		once.Do(func() {
			gs.mu.Lock()
			defer gs.mu.Unlock()
			g.refs--
			if g.retired && g.refs == 0 {
				g.close()
			}
		})
	}, nil
}

// refresh makes cur the generation of the folder as it is when refresh
// is called: a check of the files that began after the call (fresh.Check:
// a burst of requests checks them twice, not once each, one after the
// other under the lock; at 100 streams at once that was 0.1 s before the
// first event).
func (gs *generations) refresh(ctx context.Context) error {
	_, err := gs.checks.Do(ctx, func(ctx context.Context) (struct{}, error) {
		gs.mu.Lock()
		defer gs.mu.Unlock()
		if gs.closed {
			return struct{}{}, quarry.Errorf(quarry.KindCanceled, "the server is stopping")
		}
		return struct{}{}, gs.check(ctx)
	})
	return err
}

// check builds a new generation when the folder's files changed since
// cur was built (under gs.mu).
func (gs *generations) check(ctx context.Context) error {
	// The files' names, sizes and times first: only when they changed are
	// the files read and hashed (a wide folder is megabytes). Both are
	// taken under the lock, so that no request labels a generation with
	// what another saw.
	stamp, err := knowledge.Stamp(gs.dir)
	if err != nil {
		return err
	}
	files := filesStamp(gs.files)
	stamp += files
	if gs.cur != nil && stamp == gs.stamp {
		return nil
	}
	hash, err := knowledge.Fingerprint(gs.dir)
	if err != nil {
		return err
	}
	hash += files
	if gs.cur == nil || gs.cur.hash != hash {
		g, err := gs.build(ctx)
		if err != nil {
			return err
		}
		// A file written while the generation was built: what it read is
		// not what was hashed, so the next request builds again.
		if after, err := knowledge.Fingerprint(gs.dir); err != nil || after+filesStamp(gs.files) != hash {
			hash, stamp = "", ""
		}
		g.hash = hash
		if old := gs.cur; old != nil {
			old.retired = true
			if old.refs == 0 {
				old.close()
			}
		}
		gs.cur = g
	}
	gs.stamp = stamp
	return nil
}

// variantOf returns g as the person of ctx is served: g itself, or its
// variant under the policy of their groups, built on first use (under
// gs.mu, as builds are).
func (gs *generations) variantOf(ctx context.Context, g *generation) (*generation, error) {
	if gs.member == nil || gs.variant == nil || g.guard == nil {
		return g, nil
	}
	a := audienceOf(g.proj.Groups, g.cc.GroupRoles, gs.member(ctx), g.conn)
	if a.key == "" {
		return g, nil
	}
	if v := g.variants[a.key]; v != nil {
		return v, nil
	}
	v, err := gs.variant(ctx, g, a)
	if err != nil {
		return nil, err
	}
	if g.variants == nil {
		g.variants = map[string]*generation{}
	}
	g.variants[a.key] = v
	return v, nil
}

// close closes a retired generation's own resources.
func (g *generation) close() {
	for _, v := range g.variants {
		v.release()
	}
	if g.release != nil {
		g.release()
	}
	if g.values != nil {
		g.values.Close()
	}
}

// filesStamp is the names, sizes and modification times of files ("-"
// for one that is missing).
func filesStamp(files []string) string {
	var b strings.Builder
	for _, f := range files {
		b.WriteString("\x00" + f)
		if info, err := os.Stat(f); err == nil {
			fmt.Fprintf(&b, "\x00%d\x00%d", info.Size(), info.ModTime().UnixNano())
		} else {
			b.WriteString("\x00-")
		}
	}
	return b.String()
}

// close releases the current generation once the server has stopped (its
// value index is the runtime's to close).
func (gs *generations) close() {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	gs.closed = true
	if g := gs.cur; g != nil {
		for _, v := range g.variants {
			v.release()
		}
		if g.release != nil {
			g.release()
		}
	}
}
