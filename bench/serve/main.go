// Command serve is the load benchmark of quarry serve: it builds the demo
// database in a temporary folder, starts the HTTP server in process on a
// loopback port with the builtin planner (the runtime quarry serve wires),
// opens many concurrent chat streams at once, and prints the errors, the
// time to the first event and to the whole answer (p50/p90/p99/max), the
// requests per second, and memory before and after. It asserts nothing:
// the targets (zero errors, p99 time to first event under 100 ms) are read
// off the output. It talks to loopback only and stops by itself.
//
//	go run ./bench/serve [-streams 200] [-rounds 1] [-cold]
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/httpapi"
	"github.com/quarrydata/quarry/internal/ids"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/resultcache"
	qruntime "github.com/quarrydata/quarry/internal/runtime"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/store"
	pgstate "github.com/quarrydata/quarry/internal/store/postgres"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// questions are asked in turn; the demo answers each with the builtin
// planner.
var questions = demo.LoadQuestions()

func main() {
	streams := flag.Int("streams", 200, "concurrent chat streams")
	rounds := flag.Int("rounds", 1, "rounds of streams, one after the other")
	cold := flag.Bool("cold", false, "open a new connection for every request (no keep-alive)")
	workers := flag.Int("workers", 0, "runs doing work at once (0: the server's default, twice the processors)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the measured rounds to FILE")
	stateURL := flag.String("state", "", "quarry's state on PostgreSQL at this URL (postgres://…; default: a SQLite file)")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	if err := run(*streams, *rounds, *workers, *cold, *stateURL); err != nil {
		fmt.Fprintln(os.Stderr, "bench/serve:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// sample is what one stream measured.
type sample struct {
	first, whole time.Duration
	err          string
}

func run(streams, rounds, workers int, cold bool, stateURL string) error {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "quarry-bench-serve-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	anchor := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	dbPath := filepath.Join(dir, "demo.db")
	fmt.Printf("building the demo database in %s…\n", dir)
	if _, err := demo.Build(ctx, dbPath, demo.Options{Anchor: anchor}); err != nil {
		return err
	}
	f, err := knowledge.LoadFS(demo.Knowledge(), ".")
	if err != nil {
		return err
	}
	var verified []planner.Verified
	for _, v := range f.Verified {
		verified = append(verified, planner.Verified{Question: v.Question, SQL: v.SQL})
	}
	k := &analyst.Knowledge{Model: f.Model, Planner: planner.New(f.Model, verified), Hash: f.Hash, Currency: "$"}
	st, err := openState(ctx, dir, stateURL)
	if err != nil {
		return err
	}
	defer st.Close()
	// As quarry serve does: a few SQLite connections, shared.
	var conns []analyst.Querier
	for range min(4, runtime.NumCPU()) {
		c, err := sqlite.Open(ctx, dbPath, sqlite.Options{Name: "demo"})
		if err != nil {
			return err
		}
		defer c.Close()
		conns = append(conns, c)
	}
	conn := qruntime.Pool(conns...)
	g, err := guard.New(sqlguard.Options{Dialect: quarry.DialectSQLite})
	if err != nil {
		return err
	}
	defer g.Close()
	cache := resultcache.New(5*time.Minute, 1<<20, time.Now)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	var idMu sync.Mutex
	// As quarry serve does: runs take one of the server's run slots.
	slots := qruntime.NewSlots(workers)
	newAnalyst := func() *analyst.Analyst {
		return &analyst.Analyst{Conn: conn, Guard: g, Results: st, Limits: analyst.Limits{MaxRows: 100_000},
			Connection: "demo", Clock: time.Now, Cache: cache, Admit: slots.Admit}
	}
	srv, err := httpapi.New(httpapi.Config{
		Start: func(context.Context) (httpapi.Runner, func(), error) {
			return newAnalyst(), func() {}, nil
		},
		// The builtin planner through the agent, as quarry serve asks.
		Ask: func(ctx context.Context, rec *event.Recorder, q string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error) {
			an := newAnalyst()
			ag := &agent.Agent{Conn: an.Conn, Guard: an.Guard, Results: an.Results, Knowledge: k, Builtin: an, Connection: an.Connection, Clock: time.Now}
			return ag.Ask(ctx, rec, q, asOf, opts)
		},
		Arriving:  slots.Arriving,
		Knowledge: func(context.Context) (*analyst.Knowledge, error) { return k, nil }, Store: st, Addr: ln.Addr().String(), Clock: time.Now, Version: "bench",
		NewID: func(p string) string {
			idMu.Lock()
			defer idMu.Unlock()
			return ids.New(p, time.Now(), rand.Reader)
		},
		MaxStreams: streams, // the cap must let every stream of a round in
		Workers:    workers,
	})
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler()}
	go hs.Serve(ln)
	defer hs.Close()
	base := "http://" + ln.Addr().String()
	// Kept-alive connections by default, as a browser keeps them; -cold
	// counts a TCP connection per request in every figure.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: streams, DisableKeepAlives: cold}, Timeout: 5 * time.Minute}

	// One warm-up question, so that the figures are not the first run's.
	if s := stream(client, base, questions[0]); s.err != "" {
		return fmt.Errorf("warm-up: %s", s.err)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	// The floor: the same burst of connections to GET /api/health, which
	// does no work, measured the same way.
	floor := make([]time.Duration, streams)
	var fwg sync.WaitGroup
	fstart := make(chan struct{})
	for i := range streams {
		fwg.Add(1)
		go func() {
			defer fwg.Done()
			<-fstart
			t0 := time.Now()
			if res, err := client.Get(base + "/api/health"); err == nil {
				res.Body.Close()
				floor[i] = time.Since(t0)
			}
		}()
	}
	close(fstart)
	fwg.Wait()

	var all []sample
	began := time.Now()
	for range rounds {
		out := make([]sample, streams)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range streams {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				out[i] = stream(client, base, questions[i%len(questions)])
			}()
		}
		close(start)
		wg.Wait()
		all = append(all, out...)
	}
	elapsed := time.Since(began)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if err := srv.Wait(ctx); err != nil {
		return err
	}

	var firsts, wholes []time.Duration
	errs := map[string]int{}
	for _, s := range all {
		if s.err != "" {
			errs[s.err]++
			continue
		}
		firsts = append(firsts, s.first)
		wholes = append(wholes, s.whole)
	}
	how := "kept-alive connections"
	if cold {
		how = "a new connection each"
	}
	fmt.Printf("quarry serve: %d chat streams (%d at once × %d rounds, %s), builtin planner, demo database, %d CPUs\n",
		len(all), streams, rounds, how, runtime.NumCPU())
	fmt.Printf("  errors                 %d\n", len(all)-len(firsts))
	for e, n := range errs {
		fmt.Printf("    %d × %s\n", n, e)
	}
	fmt.Printf("  time to first event    %s\n", dist(firsts))
	fmt.Printf("  whole run (to done)    %s\n", dist(wholes))
	fmt.Printf("  floor: GET /api/health %s  (the same burst, no work)\n", dist(floor))
	fmt.Printf("  requests/s             %.0f  (%d in %s)\n", float64(len(all))/elapsed.Seconds(), len(all), elapsed.Round(time.Millisecond))
	fmt.Printf("  heap in use            %.1f MB before, %.1f MB after\n", mb(before.HeapAlloc), mb(after.HeapAlloc))
	fmt.Printf("  memory from the OS     %.1f MB before, %.1f MB after\n", mb(before.Sys), mb(after.Sys))
	if rss := peakRSS(); rss != "" {
		fmt.Printf("  peak RSS               %s\n", rss)
	}
	return nil
}

// stream asks one question over POST /api/chat and reads the stream to
// its done event.
func stream(client *http.Client, base, question string) sample {
	body, _ := json.Marshal(map[string]string{"message": question, "as_of": "2026-06-30"})
	began := time.Now()
	req, _ := http.NewRequest("POST", base+"/api/chat", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return sample{err: err.Error()}
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return sample{err: "status " + res.Status}
	}
	var s sample
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			if s.first == 0 {
				s.first = time.Since(began)
			}
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && event == "done":
			s.whole = time.Since(began)
			var d struct {
				Status string `json:"status"`
				Error  *struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				return sample{err: "done: " + err.Error()}
			}
			if d.Status != "succeeded" {
				msg := d.Status
				if d.Error != nil {
					msg += ": " + d.Error.Message
				}
				return sample{err: fmt.Sprintf("%q: %s", question, msg)}
			}
			return s
		}
	}
	if err := sc.Err(); err != nil {
		return sample{err: err.Error()}
	}
	return sample{err: "the stream ended without done"}
}

// dist formats p50/p90/p99/max of ds.
func dist(ds []time.Duration) string {
	if len(ds) == 0 {
		return "no samples"
	}
	slices.Sort(ds)
	q := func(p float64) time.Duration { return ds[min(len(ds)-1, int(p*float64(len(ds))))] }
	r := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	return fmt.Sprintf("p50 %s  p90 %s  p99 %s  max %s", r(q(0.50)), r(q(0.90)), r(q(0.99)), r(ds[len(ds)-1]))
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

// peakRSS reads the process's peak resident set size where Linux reports
// it.
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// openState opens quarry's state: on PostgreSQL at url when one is given
// (the team backend replicas share), else a SQLite file in dir.
func openState(ctx context.Context, dir, url string) (store.State, error) {
	if url != "" {
		return pgstate.Open(ctx, url, pgstate.Options{})
	}
	return sqlitestate.Open(ctx, filepath.Join(dir, "state.db"))
}
