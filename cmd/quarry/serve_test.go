package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestServeRefusesARemoteAddressWithoutAllowRemote(t *testing.T) {
	dir := project(t)
	r := quarryCmd(t, "", "-C", dir, "serve", "--addr", "0.0.0.0:0")
	if r.code != 2 || !strings.Contains(r.stderr, "no authentication") || !strings.Contains(r.stderr, "--allow-remote") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}

func TestServeAnswersOnTheCLIRuntimeAndStops(t *testing.T) {
	dir := project(t)
	if r := quarryCmd(t, "", "-C", dir, "learn", "--quiet"); r.code != 0 {
		t.Fatalf("learn: %d %s", r.code, r.stderr)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	exited := make(chan result, 1)
	go func() { exited <- quarryCtx(t, ctx, "", "-C", dir, "serve", "--addr", addr) }()
	base := "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(base + "/api/health")
		if err == nil {
			res.Body.Close()
			break
		}
		select {
		case r := <-exited:
			t.Fatalf("serve exited: %d %s", r.code, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("serve did not answer within 30s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	post := func(path, body string) (int, string) {
		res, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, body := post("/api/run", `{"sql":"SELECT name FROM customers ORDER BY id"}`)
	var run struct {
		RowCount int    `json:"row_count"`
		RunID    string `json:"run_id"`
	}
	json.Unmarshal([]byte(body), &run)
	if code != 200 || run.RowCount != 3 {
		t.Fatalf("run: %d %s", code, body)
	}
	code, body = post("/api/chat", `{"message":"how many orders"}`)
	if code != 200 || !strings.HasPrefix(body, "event: session\n") || !strings.Contains(body, "event: done\n") {
		t.Fatalf("chat: %d %s", code, body)
	}
	// The server's runs are the CLI's runs.
	if r := quarryCmd(t, "", "-C", dir, "runs", "show", run.RunID); r.code != 0 {
		t.Fatalf("runs show %s: %d %s", run.RunID, r.code, r.stderr)
	}
	cancel()
	select {
	case r := <-exited:
		if r.code != 0 || !strings.Contains(r.stderr, "serving on http://"+addr) {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
	case <-time.After(40 * time.Second):
		t.Fatal("serve did not stop after the interrupt")
	}
}
