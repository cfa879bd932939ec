package deliver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quarrydata/quarry/internal/quarry"
)

// fakeTime is the Sender's clock and sleep: a sleep advances the clock at
// once and is recorded.
type fakeTime struct {
	mu      sync.Mutex
	now     time.Time
	waits   []time.Duration
	onSleep func(n int) // called before the n-th sleep (1-based)
}

func newFakeTime() *fakeTime {
	return &fakeTime{now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
}

func (f *fakeTime) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeTime) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.waits = append(f.waits, d)
	n, hook := len(f.waits), f.onSleep
	f.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
	return nil
}

func (f *fakeTime) Waits() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.waits...)
}

func testSender(ft *fakeTime) *Sender {
	return &Sender{Clock: ft.Now, Sleep: ft.Sleep, Backoff: time.Second, MaxWait: time.Minute, Rand: strings.NewReader(strings.Repeat("r", 1<<10))}
}

// answer is one scripted response of a test receiver.
type answer struct {
	status int
	header map[string]string
	body   string
}

// receiver is an httptest server that answers its script in order (the
// last answer repeats) and records each request.
type receiver struct {
	mu       sync.Mutex
	script   []answer
	requests []*http.Request
	bodies   []string
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	n := len(r.requests)
	r.requests = append(r.requests, req)
	r.bodies = append(r.bodies, string(body))
	a := r.script[min(n, len(r.script)-1)]
	r.mu.Unlock()
	for k, v := range a.header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(a.status)
	_, _ = io.WriteString(w, a.body)
}

func TestWebhook(t *testing.T) {
	type want struct {
		statuses []int
		waits    []time.Duration
		kind     quarry.Kind // "" when delivered
		msg      string      // a part of the error's message
	}
	ok := answer{status: 200, body: "ok"}
	tests := []struct {
		name   string
		script []answer
		want   want
	}{
		{"delivered", []answer{{status: 204}}, want{statuses: []int{204}}},
		{"5xx retried with doubling waits", []answer{{status: 503}, {status: 502}, ok}, want{statuses: []int{503, 502, 200}, waits: []time.Duration{time.Second, 2 * time.Second}}},
		{"429 waits what Retry-After asks", []answer{{status: 429, header: map[string]string{"Retry-After": "7"}}, ok}, want{statuses: []int{429, 200}, waits: []time.Duration{7 * time.Second}}},
		{"Retry-After shorter than the backoff", []answer{{status: 503, header: map[string]string{"Retry-After": "0"}}, ok}, want{statuses: []int{503, 200}, waits: []time.Duration{time.Second}}},
		{"Retry-After as an HTTP date", []answer{{status: 429, header: map[string]string{"Retry-After": "Wed, 04 Mar 2026 05:06:37 GMT"}}, ok}, want{statuses: []int{429, 200}, waits: []time.Duration{30 * time.Second}}},
		{"Retry-After past the cap is not waited", []answer{{status: 429, header: map[string]string{"Retry-After": "3600"}}, ok}, want{statuses: []int{429}, kind: quarry.KindConnection, msg: "asked to wait 1h0m0s"}},
		{"5xx until the tries run out", []answer{{status: 500, body: "boom"}}, want{statuses: []int{500, 500, 500, 500}, waits: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}, kind: quarry.KindConnection, msg: `answered 500 Internal Server Error "boom" (4 tries); the receiver is failing`}},
		{"400 is not retried", []answer{{status: 400, body: "bad field"}, ok}, want{statuses: []int{400}, kind: quarry.KindInput, msg: `answered 400 Bad Request "bad field"; the receiver refused the alert`}},
		{"401 is the credentials", []answer{{status: 401}, ok}, want{statuses: []int{401}, kind: quarry.KindConfig, msg: "check the credentials"}},
		{"404 is the URL", []answer{{status: 404}, ok}, want{statuses: []int{404}, kind: quarry.KindConfig, msg: "set the channel's current URL"}},
		{"410 is the URL", []answer{{status: 410}, ok}, want{statuses: []int{410}, kind: quarry.KindConfig, msg: "no longer exists"}},
		{"a redirect is not followed", []answer{{status: 302, header: map[string]string{"Location": "https://elsewhere.example/"}}, ok}, want{statuses: []int{302}, kind: quarry.KindConfig, msg: "redirects to"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rcv := &receiver{script: tt.script}
			srv := httptest.NewServer(rcv)
			defer srv.Close()
			ft := newFakeTime()
			ch := Channel{Name: "ops", Kind: Webhook, URL: srv.URL + "/hook", Headers: map[string]string{"X-Team": "data"}}
			attempts, err := testSender(ft).Send(context.Background(), ch, Message{Title: "Orders fell", Text: "Orders fell 40%.", Link: "http://localhost:8080/runs/r1"})
			var statuses []int
			for i, a := range attempts {
				statuses = append(statuses, a.Status)
				if a.Try != i+1 || a.Channel != "ops" || a.Kind != Webhook || a.Target != srv.URL+"/…" {
					t.Errorf("attempt %d = %+v", i, a)
				}
				if a.OK != (a.Status < 300 && a.Status >= 200) || a.OK != (a.Error == "") {
					t.Errorf("attempt %d: OK %v, status %d, error %q", i, a.OK, a.Status, a.Error)
				}
			}
			if diff := cmp.Diff(tt.want.statuses, statuses); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want.waits, ft.Waits()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
			switch {
			case tt.want.kind == "" && err != nil:
				t.Fatalf("Send: %v", err)
			case tt.want.kind != "" && err == nil:
				t.Fatalf("Send delivered; want a %s error", tt.want.kind)
			case err != nil:
				if k := quarry.KindOf(err); k != tt.want.kind {
					t.Errorf("kind = %s, want %s (%v)", k, tt.want.kind, err)
				}
				if !strings.Contains(err.Error(), tt.want.msg) || strings.Contains(err.Error(), "\n") {
					t.Errorf("error = %q, want one line with %q", err, tt.want.msg)
				}
				if last := attempts[len(attempts)-1]; last.Wait != 0 || last.Error == "" {
					t.Errorf("last attempt = %+v", last)
				}
			}
			for i, req := range rcv.requests {
				if req.Method != http.MethodPost || req.URL.Path != "/hook" || req.Header.Get("Content-Type") != "application/json" ||
					req.Header.Get("User-Agent") != "quarry" || req.Header.Get("X-Team") != "data" {
					t.Errorf("request %d: %s %s %v", i, req.Method, req.URL.Path, req.Header)
				}
				var got map[string]any
				if err := json.Unmarshal([]byte(rcv.bodies[i]), &got); err != nil {
					t.Fatal(err)
				}
				want := map[string]any{"source": "quarry", "title": "Orders fell", "text": "Orders fell 40%.", "link": "http://localhost:8080/runs/r1"}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("body (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestWebhookPayload(t *testing.T) {
	rcv := &receiver{script: []answer{{status: 200}}}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	payload := map[string]any{"monitor": "orders", "value": 42.5, "rows": []any{"a", "b"}}
	_, err := testSender(newFakeTime()).Send(context.Background(), Channel{Name: "ops", Kind: Webhook, URL: srv.URL}, Message{Title: "t", Payload: payload})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(rcv.bodies[0]), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(payload, got); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
	if _, err := testSender(newFakeTime()).Send(context.Background(), Channel{Name: "ops", Kind: Webhook, URL: srv.URL}, Message{Title: "t", Payload: func() {}}); quarry.KindOf(err) != quarry.KindInput {
		t.Errorf("a payload that is not JSON: %v", err)
	}
	if _, err := testSender(newFakeTime()).Send(context.Background(), Channel{Name: "ops", Kind: Webhook, URL: srv.URL}, Message{}); quarry.KindOf(err) != quarry.KindInput {
		t.Errorf("an empty message: %v", err)
	}
}

func TestWebhookNetworkErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	ft := newFakeTime()
	s := testSender(ft)
	s.MaxTries = 3
	attempts, err := s.Send(context.Background(), Channel{Name: "ops", Kind: Webhook, URL: url}, Message{Title: "t"})
	if quarry.KindOf(err) != quarry.KindConnection || !strings.Contains(err.Error(), "could not reach "+url+" (3 tries)") {
		t.Errorf("err = %v", err)
	}
	if len(attempts) != 3 || attempts[0].Status != 0 || !attempts[0].Retryable || attempts[0].Wait != time.Second {
		t.Errorf("attempts = %+v", attempts)
	}

	// A certificate the client does not trust is not retried; one it
	// trusts is delivered to.
	tlsSrv := httptest.NewTLSServer(&receiver{script: []answer{{status: 200}}})
	defer tlsSrv.Close()
	attempts, err = testSender(newFakeTime()).Send(context.Background(), Channel{Name: "ops", Kind: Webhook, URL: tlsSrv.URL}, Message{Title: "t"})
	if quarry.KindOf(err) != quarry.KindConfig || len(attempts) != 1 || !strings.Contains(err.Error(), "TLS certificate is not trusted") {
		t.Errorf("err = %v, attempts = %+v", err, attempts)
	}
	s = testSender(newFakeTime())
	s.HTTP = tlsSrv.Client()
	if _, err := s.Send(context.Background(), Channel{Name: "ops", Kind: Webhook, URL: tlsSrv.URL}, Message{Title: "t"}); err != nil {
		t.Error(err)
	}

	// A receiver that never answers: each try ends at the Sender's timeout.
	hang := httptest.NewServer(http.HandlerFunc(hangUp))
	defer hang.Close()
	s = testSender(newFakeTime())
	s.MaxTries, s.Timeout = 2, 50*time.Millisecond
	attempts, err = s.Send(context.Background(), Channel{Name: "ops", Kind: Webhook, URL: hang.URL}, Message{Title: "t"})
	if quarry.KindOf(err) != quarry.KindTimeout || len(attempts) != 2 || !strings.Contains(err.Error(), "did not answer in time (2 tries)") {
		t.Errorf("err = %v, attempts = %+v", err, attempts)
	}
}

// hangUp answers nothing until the client goes away.
func hangUp(_ http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body) // so that the server notices the client leave
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

func TestCancelMidRetry(t *testing.T) {
	rcv := &receiver{script: []answer{{status: 503}}}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ft := newFakeTime()
	ft.onSleep = func(n int) {
		if n == 2 {
			cancel() // the caller gives up during the second wait
		}
	}
	attempts, err := testSender(ft).Send(ctx, Channel{Name: "ops", Kind: Webhook, URL: srv.URL}, Message{Title: "t"})
	if quarry.KindOf(err) != quarry.KindCanceled || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
	if len(attempts) != 2 || len(rcv.requests) != 2 {
		t.Errorf("%d attempts, %d requests; want 2 of each", len(attempts), len(rcv.requests))
	}

	// Canceled while a request is in flight: the try is recorded, not retried.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cancel()
		hangUp(w, r)
	}))
	defer hang.Close()
	attempts, err = testSender(newFakeTime()).Send(ctx, Channel{Name: "ops", Kind: Webhook, URL: hang.URL}, Message{Title: "t"})
	if quarry.KindOf(err) != quarry.KindCanceled || len(attempts) != 1 || attempts[0].Retryable || attempts[0].OK {
		t.Errorf("err = %v, attempts = %+v", err, attempts)
	}

	// A deadline that passes is a timeout.
	ctx, cancel = context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if _, err := testSender(newFakeTime()).Send(ctx, Channel{Name: "ops", Kind: Webhook, URL: srv.URL}, Message{Title: "t"}); quarry.KindOf(err) != quarry.KindTimeout {
		t.Errorf("err = %v", err)
	}
}

// TestSecretsNeverShown sends to receivers that echo what they were sent
// (the URL, the headers) in their refusals, and to none at all, and looks
// for the secrets in every error, attempt and formatting of the channel.
func TestSecretsNeverShown(t *testing.T) {
	const token = "T0SECRET/B0SECRET/xoxb9TOKEN9secret"
	const bearer = "sk-live-very-secret-key"
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "no: %s %s auth=%s", r.URL.Path, r.URL.RawQuery, r.Header.Get("Authorization"))
	}))
	defer echo.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	var out []string
	for _, ch := range []Channel{
		{Name: "echo", Kind: Webhook, URL: echo.URL + "/services/" + token + "?key=" + bearer, Headers: map[string]string{"Authorization": "Bearer " + bearer}},
		{Name: "slack", Kind: Slack, URL: echo.URL + "/services/" + token},
		{Name: "gone", Kind: Webhook, URL: closed.URL + "/services/" + token + "?key=" + bearer},
		{Name: "bad", Kind: Webhook, URL: "ftp://user:" + bearer + "@example.com/" + token},
	} {
		s := testSender(newFakeTime())
		s.MaxTries = 2
		attempts, err := s.Send(context.Background(), ch, Message{Title: "t"})
		if err == nil {
			t.Fatalf("%s: delivered", ch.Name)
		}
		js, _ := json.Marshal(attempts)
		out = append(out, err.Error(), fmt.Sprintf("%+v", err), quarry.Message(err), string(js),
			fmt.Sprint(ch), fmt.Sprintf("%+v %#v %q %s", ch, ch, ch, ch), ch.LogValue().String(), fmt.Sprintf("%v", []Channel{ch}))
	}
	for _, o := range out {
		for _, secret := range []string{"SECRET", "xoxb9TOKEN", bearer} {
			if strings.Contains(o, secret) {
				t.Errorf("%q shows the secret %q", o, secret)
			}
		}
	}
	if !strings.Contains(strings.Join(out, "\n"), "[redacted]") {
		t.Errorf("no echo was scrubbed; the test does not test:\n%s", strings.Join(out, "\n"))
	}
}
