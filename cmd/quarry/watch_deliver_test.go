package main

import (
	"encoding/json"
	"io"
	"log"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// The secrets of the delivery test: they reach the receivers and nothing
// quarry prints or writes.
const (
	hookToken    = "hook-t0ken-5ecret"
	smtpPassword = "smtp-pa55word-5ecret"
)

// hookServer is a webhook receiver that keeps what it is sent and answers
// status.
type hookServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
	auth   []string
}

func startHook(t *testing.T, status int) *hookServer {
	t.Helper()
	h := &hookServer{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		err := json.NewDecoder(r.Body).Decode(&body)
		h.mu.Lock()
		if err == nil {
			h.bodies = append(h.bodies, body)
			h.auth = append(h.auth, r.Header.Get("Authorization"))
		}
		h.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookServer) got() ([]map[string]any, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]map[string]any(nil), h.bodies...), append([]string(nil), h.auth...)
}

// smtpServer is a real SMTP server (go-smtp) on a loopback port that takes
// AUTH PLAIN as quarry/smtpPassword without TLS (allowed to this machine).
type smtpServer struct {
	addr string
	mu   sync.Mutex
	msgs []smtpMessage
}

type smtpMessage struct {
	user, from string
	to         []string
	data       string
}

type smtpSession struct {
	s    *smtpServer
	m    smtpMessage
	auth bool
}

func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		if username != "quarry" || password != smtpPassword {
			return smtp.ErrAuthFailed
		}
		s.auth, s.m.user = true, username
		return nil
	}), nil
}
func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if !s.auth {
		return smtp.ErrAuthRequired
	}
	s.m.from = from
	return nil
}
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.m.to = append(s.m.to, to)
	return nil
}
func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.s.mu.Lock()
	defer s.s.mu.Unlock()
	m := s.m
	m.data = string(b)
	s.s.msgs = append(s.s.msgs, m)
	return nil
}
func (s *smtpSession) Reset()        { s.m.from, s.m.to = "", nil }
func (s *smtpSession) Logout() error { return nil }

func startSMTP(t *testing.T) *smtpServer {
	t.Helper()
	ms := &smtpServer{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &smtpSession{s: ms}, nil }))
	srv.Domain = "mail.example.test"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = log.New(io.Discard, "", 0)
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ms.addr = l.Addr().String()
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	return ms
}

func (ms *smtpServer) got() []smtpMessage {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]smtpMessage(nil), ms.msgs...)
}

// TestWatchDeliversEndToEnd runs monitors of the demo whose notify: names
// a webhook (an httptest server), an email channel (a go-smtp server on
// this machine) and a webhook that answers 404: the channels are checked
// when quarry.yaml and the monitors are read, the alert reaches the
// receivers with its investigation and a link to its run, every delivery
// is recorded in deliveries.jsonl, a failing channel neither loses the
// alert nor stops the others and makes watch run exit 4, and no secret is
// printed or written.
func TestWatchDeliversEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo database")
	}
	if raceEnabled {
		t.Skip("builds the demo database; skipped under the race detector")
	}
	dir := filepath.Join(t.TempDir(), "demo")
	if r := quarryCmd(t, "", "init", "--demo", "--anchor", "2026-06-30", dir); r.code != 0 {
		t.Fatalf("init: %d %s", r.code, r.stderr)
	}
	anchor := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	d := anchor.AddDate(0, 0, -70)
	dipStart := d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7)).Format(time.DateOnly)
	dipEnd := d.AddDate(0, 0, 6-((int(d.Weekday())+6)%7)).Format(time.DateOnly)

	// A channel that quarry.yaml does not define: the monitor is refused
	// and not written.
	r := quarryCmd(t, "", "-C", dir, "watch", "add", "watch weekly orders", "--notify", "hook,mail")
	if r.code != 3 || !strings.Contains(r.stderr, `notify: no channel named "hook" in quarry.yaml`) {
		t.Errorf("add with an unknown channel: %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "knowledge", "monitors", "weekly_orders.yaml")); err == nil {
		t.Error("the refused monitor was written")
	}

	hook, broken, mailer := startHook(t, http.StatusOK), startHook(t, http.StatusNotFound), startSMTP(t)
	_, smtpPort, _ := net.SplitHostPort(mailer.addr)
	env := "HOOK_URL=" + hook.URL + "/quarry\nHOOK_TOKEN=" + hookToken + "\nSMTP_PASSWORD=" + smtpPassword + "\nBROKEN_URL=" + broken.URL + "/gone\n"
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(env), 0o600); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "quarry.yaml")
	src, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(string(src), `public_url: ""`, "public_url: https://quarry.example.com", 1) + `
channels:
  hook:
    kind: webhook
    url: ${HOOK_URL}
    headers:
      Authorization: Bearer ${HOOK_TOKEN}
  mail:
    kind: email
    smtp:
      host: 127.0.0.1
      port: ` + smtpPort + `
      tls: none
      username: quarry
      password: ${SMTP_PASSWORD}
    from: Quarry <alerts@example.com>
    to: [ops@example.com]
  broken:
    kind: webhook
    url: ${BROKEN_URL}
`
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := quarryCmd(t, "", "-C", dir, "watch", "add", "watch weekly orders", "--notify", "hook,mail"); r.code != 0 {
		t.Fatalf("watch add: %d %s", r.code, r.stderr)
	}

	// A misspelt channel in a monitor's file: watch test and doctor say
	// where, with the line.
	file := filepath.Join(dir, "knowledge", "monitors", "weekly_orders.yaml")
	mon, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(mon), "\n") {
		if strings.HasPrefix(l, "notify:") {
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatalf("no notify: in\n%s", mon)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(mon), `"mail"]`, `"mial"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("knowledge", "monitors", "weekly_orders.yaml") + ":" + strconv.Itoa(line) + `: notify: no channel named "mial" in quarry.yaml; did you mean "mail"?`
	if r := quarryCmd(t, "", "-C", dir, "watch", "test", "weekly_orders", "--as-of", "2026-06-30"); r.code != 3 || !strings.Contains(r.stderr, want) {
		t.Errorf("watch test with a misspelt channel: %d %s\nwant %s", r.code, r.stderr, want)
	}
	if r := quarryCmd(t, "", "-C", dir, "doctor"); !strings.Contains(r.stdout+r.stderr, want) {
		t.Errorf("doctor does not report the misspelt channel:\n%s%s", r.stdout, r.stderr)
	}
	if err := os.WriteFile(file, mon, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := quarryCmd(t, "", "-C", dir, "doctor"); !strings.Contains(r.stdout, "1 monitor; channels: hook (webhook to http://127.0.0.1:") ||
		strings.Contains(r.stdout, hookToken) || strings.Contains(r.stdout, hook.URL+"/quarry") {
		t.Errorf("doctor's watch line:\n%s", r.stdout)
	}

	// The alert reaches the webhook and the mailbox, investigated, linked
	// to its run.
	r = quarryCmd(t, "", "-C", dir, "watch", "run", "weekly_orders", "--as-of", dipEnd)
	if r.code != 0 || !strings.Contains(r.stdout, "-> hook: delivered (1 try)") || !strings.Contains(r.stdout, "-> mail: delivered (1 try)") {
		t.Fatalf("watch run: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	bodies, auth := hook.got()
	if len(bodies) != 1 || auth[0] != "Bearer "+hookToken {
		t.Fatalf("the webhook got %d posts (%q)", len(bodies), auth)
	}
	body := bodies[0]
	alert, _ := body["alert"].(map[string]any)
	run, _ := alert["run"].(string)
	title, _ := body["title"].(string)
	text, _ := body["text"].(string)
	if body["source"] != "quarry" || alert["period_start"] != dipStart || alert["monitor"] != "weekly_orders" || run == "" ||
		body["link"] != "https://quarry.example.com/api/runs/"+run+"/export" ||
		!strings.HasPrefix(title, "Alert: weekly_orders — orders fell") ||
		!strings.Contains(text, "Where the change came from:") || !strings.Contains(text, "quarry runs export "+run) {
		t.Errorf("the webhook's body: %v", body)
	}
	msgs := mailer.got()
	if len(msgs) != 1 || msgs[0].user != "quarry" || msgs[0].from != "alerts@example.com" || len(msgs[0].to) != 1 || msgs[0].to[0] != "ops@example.com" {
		t.Fatalf("the mailbox: %+v", msgs)
	}
	m, err := mail.ReadMessage(strings.NewReader(msgs[0].data))
	if err != nil {
		t.Fatal(err)
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	mailBody, _ := io.ReadAll(quotedprintable.NewReader(m.Body))
	if subject != title || !strings.Contains(string(mailBody), "Where the change came from:") || !strings.Contains(string(mailBody), "https://quarry.example.com/api/runs/"+run+"/export") {
		t.Errorf("the email: %q\n%s", subject, mailBody)
	}

	// A second monitor tells a channel that answers 404 first: the alert is
	// kept, the webhook after it is still told, watch run says which
	// delivery failed and exits 4.
	if r := quarryCmd(t, "", "-C", dir, "watch", "add", "weekly conversion rate", "--notify", "broken,hook"); r.code != 0 {
		t.Fatalf("watch add: %d %s", r.code, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "watch", "run", "weekly_conversion_rate", "--as-of", dipEnd)
	if r.code != 4 || !strings.Contains(r.stdout, "-> broken: NOT DELIVERED (1 try): ") || !strings.Contains(r.stdout, "404") ||
		!strings.Contains(r.stdout, "-> hook: delivered") || !strings.Contains(r.stderr, "1 alert deliveries failed") {
		t.Errorf("watch run with a failing channel: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if bodies, _ := hook.got(); len(bodies) != 2 {
		t.Errorf("the webhook after the failing one got %d posts in all, want 2", len(bodies))
	}

	alerts, err := os.ReadFile(filepath.Join(dir, ".quarry", "alerts.jsonl"))
	if err != nil || strings.Count(string(alerts), "\n") != 2 || !strings.Contains(string(alerts), `"monitor":"weekly_conversion_rate"`) {
		t.Errorf("alerts.jsonl: %v\n%s", err, alerts)
	}
	raw, err := os.ReadFile(filepath.Join(dir, ".quarry", "deliveries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	type attempt struct {
		Channel, Kind, Target string
		Try                   int
		OK                    bool
		Status                int
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var rec struct {
			Monitor     string    `json:"monitor"`
			PeriodStart string    `json:"period_start"`
			Channel     string    `json:"channel"`
			ChannelKind string    `json:"channel_kind"`
			OK          bool      `json:"ok"`
			Error       string    `json:"error"`
			Run         string    `json:"run"`
			Attempts    []attempt `json:"attempts"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("deliveries.jsonl: %q: %v", l, err)
		}
		if rec.PeriodStart != dipStart || rec.Run == "" || len(rec.Attempts) != 1 || rec.Attempts[0].Try != 1 || rec.Attempts[0].OK != rec.OK || (rec.OK != (rec.Error == "")) {
			t.Errorf("deliveries.jsonl: %s", l)
		}
		got = append(got, rec.Monitor+" "+rec.Channel+" "+rec.ChannelKind+" "+strconv.FormatBool(rec.OK)+" "+strconv.Itoa(rec.Attempts[0].Status))
	}
	wantLines := []string{"weekly_orders hook webhook true 200", "weekly_orders mail email true 250", "weekly_conversion_rate broken webhook false 404", "weekly_conversion_rate hook webhook true 200"}
	if strings.Join(got, "\n") != strings.Join(wantLines, "\n") {
		t.Errorf("deliveries.jsonl:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
	}
	for _, f := range []string{string(raw), string(alerts), r.stdout, r.stderr} {
		if strings.Contains(f, hookToken) || strings.Contains(f, smtpPassword) || strings.Contains(f, "/gone") || strings.Contains(f, "/quarry\"") {
			t.Errorf("a secret was written or printed:\n%s", f)
		}
	}

	// The failed delivery is pending; sent again while the channel is
	// still down it fails again (exit 4); once quarry.yaml's channel is
	// fixed it is delivered, once, and nothing else is sent again.
	r = quarryCmd(t, "", "-C", dir, "watch", "redeliver", "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "weekly_conversion_rate alert "+dipStart+" → broken (1 failed deliveries)") || !strings.Contains(r.stdout, "1 pending") {
		t.Errorf("redeliver --dry-run: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := quarryCmd(t, "", "-C", dir, "watch", "redeliver"); r.code != 4 || !strings.Contains(r.stdout, "→ broken: failed") {
		t.Errorf("redeliver to a channel still down: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	fixed := strings.Replace(env, "BROKEN_URL="+broken.URL+"/gone", "BROKEN_URL="+hook.URL+"/fixed", 1)
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(fixed), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := quarryCmd(t, "", "-C", dir, "watch", "redeliver"); r.code != 0 || !strings.Contains(r.stdout, "→ broken: delivered") {
		t.Errorf("redeliver once fixed: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if bodies, _ := hook.got(); len(bodies) != 3 || bodies[2]["alert"].(map[string]any)["monitor"] != "weekly_conversion_rate" {
		t.Errorf("after the redelivery the webhook has %d posts, want 3", len(bodies))
	}
	if r := quarryCmd(t, "", "-C", dir, "watch", "redeliver"); r.code != 0 || !strings.Contains(r.stdout, "nothing to send") {
		t.Errorf("a second redeliver: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if bodies, _ := hook.got(); len(bodies) != 3 {
		t.Errorf("a second redeliver sent again: %d posts", len(bodies))
	}
}
