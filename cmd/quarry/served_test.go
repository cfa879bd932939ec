package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// servedQuarry is a `quarry serve` process on the demo project.
type servedQuarry struct {
	base string // http://127.0.0.1:PORT
	host string // 127.0.0.1:PORT
	bin  string // the quarry binary
	dir  string // the demo project
	log  logBuffer
	env  []string // the process's environment; nil for keylessEnv()
	args []string // more flags of quarry serve
	stop func()   // stops the process and waits for it
	kill func()   // kills it (SIGKILL) and waits for it
	// terminate sends it SIGTERM, waits for it and returns how it
	// exited (nil: status 0).
	terminate func() error
}

// logBuffer is where a served process's output goes.
type logBuffer interface {
	io.Writer
	String() string
}

// serveDemoProcess copies the pristine demo project (builtBinary) and
// starts `quarry serve` in it on a free loopback port as a real process,
// stopped when the test ends.
func serveDemoProcess(t *testing.T) *servedQuarry {
	t.Helper()
	bin, pristine := builtBinary(t)
	dir := filepath.Join(t.TempDir(), "demo")
	if err := os.CopyFS(dir, os.DirFS(pristine)); err != nil {
		t.Fatal(err)
	}
	return serveProcess(t, bin, dir)
}

// serveProcess starts `quarry serve` (the binary bin) in the project dir
// on a free loopback port as a real process, stopped when the test ends;
// its output is logged when the test fails.
func serveProcess(t *testing.T, bin, dir string) *servedQuarry {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	host := l.Addr().String()
	l.Close()

	s := &servedQuarry{base: "http://" + host, host: host, bin: bin, dir: dir, log: &bytes.Buffer{}}
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("quarry serve output:\n%s", s.log.String())
		}
	})
	s.start(t)
	return s
}

// call sends one request to the served quarry as the holder of the API
// token secret ("": none), with body as JSON when there is one, and
// returns the status and the body.
func (s *servedQuarry) call(t testing.TB, method, path, body, secret string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func (s *servedQuarry) start(t testing.TB) {
	t.Helper()
	cmd := exec.Command(s.bin, append([]string{"serve", "--addr", s.host}, s.args...)...)
	cmd.Dir = s.dir
	cmd.Env = keylessEnv()
	if s.env != nil {
		cmd.Env = s.env
	}
	cmd.Stdout, cmd.Stderr = s.log, s.log
	if err := cmd.Start(); err != nil {
		t.Fatalf("quarry serve: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var once sync.Once
	var exit error
	end := func(sig os.Signal) error {
		once.Do(func() {
			cmd.Process.Signal(sig)
			select {
			case exit = <-exited:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				exit = <-exited
			}
		})
		return exit
	}
	s.stop = func() { end(os.Interrupt) }
	s.kill = func() { end(os.Kill) }
	s.terminate = func() error { return end(syscall.SIGTERM) }
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(s.base + "/api/health")
		if err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK && strings.Contains(string(body), `"ok":true`) {
				return
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("quarry serve exited before it answered /api/health: %v\n%s", err, s.log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("quarry serve did not answer /api/health within a minute\n%s", s.log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// restart stops the server and starts it again on the same address.
func (s *servedQuarry) restart(t *testing.T) {
	t.Helper()
	s.stop()
	s.start(t)
}

// keylessEnv is the environment of the quarry processes: no model keys, so
// the builtin planner answers.
func keylessEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(k, "_API_KEY") || strings.HasPrefix(k, "QUARRY_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}
