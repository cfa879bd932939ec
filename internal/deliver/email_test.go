package deliver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/google/go-cmp/cmp"
	"github.com/quarrydata/quarry/internal/quarry"
)

// received is one message the test SMTP server accepted.
type received struct {
	From string
	To   []string
	Data string
	User string // who authenticated, "" for no one
	TLS  bool   // whether the session was encrypted
}

// mailServer is a real SMTP server (go-smtp) on a loopback port.
type mailServer struct {
	addr string
	user string // AUTH PLAIN accepts user/pass
	pass string

	mu        sync.Mutex
	messages  []received
	deferN    int // the next this many DATA commands are answered 451
	rejectRcp string
}

type serverOptions struct {
	startTLS  *tls.Config // offered with STARTTLS
	implicit  *tls.Config // TLS from the first byte
	insecure  bool        // AUTH allowed without TLS
	user      string
	pass      string
	deferN    int
	rejectRcp string
}

func startMailServer(t *testing.T, o serverOptions) *mailServer {
	t.Helper()
	ms := &mailServer{user: o.user, pass: o.pass, deferN: o.deferN, rejectRcp: o.rejectRcp}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, isTLS := c.TLSConnectionState()
		return &mailSession{ms: ms, tls: isTLS}, nil
	}))
	srv.Domain = "mail.example.test"
	srv.ErrorLog = log.New(io.Discard, "", 0) // clients that hang up are part of the tests
	srv.AllowInsecureAuth = o.insecure
	srv.TLSConfig = o.startTLS
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ms.addr = l.Addr().String()
	if o.implicit != nil {
		l = tls.NewListener(l, o.implicit)
	}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	return ms
}

func (ms *mailServer) got() []received {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]received(nil), ms.messages...)
}

type mailSession struct {
	ms   *mailServer
	tls  bool
	user string
	from string
	to   []string
}

func (s *mailSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *mailSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if s.ms.user == "" || username != s.ms.user || password != s.ms.pass {
			return smtp.ErrAuthFailed
		}
		s.user = username
		return nil
	}), nil
}

func (s *mailSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.ms.user != "" && s.user == "" {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if to == s.ms.rejectRcp {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user here"}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *mailSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.ms.mu.Lock()
	defer s.ms.mu.Unlock()
	if s.ms.deferN > 0 {
		s.ms.deferN--
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
	}
	s.ms.messages = append(s.ms.messages, received{From: s.from, To: s.to, Data: string(b), User: s.user, TLS: s.tls})
	return nil
}

func (s *mailSession) Reset()        { s.from, s.to = "", nil }
func (s *mailSession) Logout() error { return nil }

// selfSigned makes a certificate for mail.example.test, localhost and
// 127.0.0.1, and a pool that trusts it.
func selfSigned(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "mail.example.test"},
		DNSNames:              []string{"mail.example.test", "localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, pool
}

// dialTo makes every SMTP connection go to addr, whatever host the channel
// names, so that a channel can name mail.example.test.
func dialTo(addr string) func(ctx context.Context, network, _ string) (net.Conn, error) {
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
}

func emailChannel(host string, port int) Channel {
	return Channel{Name: "oncall", Kind: Email, SMTP: SMTP{
		Host: host, Port: port, TLS: NoTLS,
		From: `"Quarry Alerts" <alerts@example.com>`,
		To:   []string{"ops@example.com", "Zoë Müller <zoe@example.com>"},
	}}
}

func port(t *testing.T, addr string) int {
	t.Helper()
	_, p, _ := net.SplitHostPort(addr)
	var n int
	if _, err := fmt.Sscan(p, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEmailMessage sends in clear text to a server on this machine and
// reads back exactly what it received: headers decoded, body decoded.
func TestEmailMessage(t *testing.T) {
	ms := startMailServer(t, serverOptions{})
	ft := newFakeTime()
	ch := emailChannel("127.0.0.1", port(t, ms.addr))
	m := Message{
		Title: "Umsatz fiel um 40 % — Prüfung nötig\r\nBcc: evil@example.com",
		Text:  "Orders fell from 120 to 72.\nA line that is long enough to be wrapped by quoted-printable, because it goes on and on past seventy-six characters.\n=equals= and ünïcödé\n.\n.leading dot",
		Link:  "http://localhost:8080/runs/r1",
	}
	attempts, err := testSender(ft).Send(context.Background(), ch, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(attempts) != 1 || !attempts[0].OK || attempts[0].Status != 250 || attempts[0].Target != "smtp://"+ms.addr {
		t.Errorf("attempts = %+v", attempts)
	}
	got := ms.got()
	if len(got) != 1 {
		t.Fatalf("%d messages received", len(got))
	}
	r := got[0]
	if r.From != "alerts@example.com" || !cmp.Equal(r.To, []string{"ops@example.com", "zoe@example.com"}) || r.TLS || r.User != "" {
		t.Errorf("envelope = %+v", r)
	}
	for i, line := range strings.Split(r.Data, "\r\n") {
		if len(line) > 78 || strings.Contains(line, "\n") {
			t.Errorf("line %d is %d long or has a bare LF: %q", i, len(line), line)
		}
	}
	msg, err := mail.ReadMessage(strings.NewReader(r.Data))
	if err != nil {
		t.Fatal(err)
	}
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Umsatz fiel um 40 % — Prüfung nötig Bcc: evil@example.com"; subject != want {
		t.Errorf("Subject = %q, want %q", subject, want)
	}
	if msg.Header.Get("Bcc") != "" {
		t.Error("the title added a header")
	}
	from, err := msg.Header.AddressList("From")
	if err != nil || len(from) != 1 || from[0].Name != "Quarry Alerts" || from[0].Address != "alerts@example.com" {
		t.Errorf("From = %v, %v", from, err)
	}
	to, err := msg.Header.AddressList("To")
	if err != nil || len(to) != 2 || to[1].Name != "Zoë Müller" || to[1].Address != "zoe@example.com" {
		t.Errorf("To = %v, %v", to, err)
	}
	date, err := msg.Header.Date()
	if err != nil || !date.Equal(ft.Now()) {
		t.Errorf("Date = %v, %v; want %v", date, err, ft.Now())
	}
	if id := msg.Header.Get("Message-ID"); id != "<72727272727272727272727272727272@example.com>" {
		t.Errorf("Message-ID = %q", id)
	}
	for k, want := range map[string]string{"MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8", "Content-Transfer-Encoding": "quoted-printable", "Auto-Submitted": "auto-generated"} {
		if v := msg.Header.Get(k); v != want {
			t.Errorf("%s = %q, want %q", k, v, want)
		}
	}
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(m.Text, "\n", "\r\n") + "\r\n\r\n" + m.Link + "\r\n"
	if diff := cmp.Diff(want, string(body)); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
}

// TestEmailTLS authenticates over STARTTLS and over implicit TLS with a
// self-signed certificate the Sender is told to trust, to a server that
// refuses AUTH in clear text.
func TestEmailTLS(t *testing.T) {
	serverTLS, pool := selfSigned(t)
	const secret = "hunter2-correct-horse"
	for _, mode := range []TLSMode{StartTLS, ImplicitTLS} {
		t.Run(string(mode), func(t *testing.T) {
			o := serverOptions{user: "quarry", pass: secret, startTLS: serverTLS}
			if mode == ImplicitTLS {
				o.startTLS, o.implicit = nil, serverTLS
			}
			ms := startMailServer(t, o)
			ch := emailChannel("mail.example.test", 0)
			ch.SMTP.TLS, ch.SMTP.Username, ch.SMTP.Password = mode, "quarry", secret
			s := testSender(newFakeTime())
			s.Dial, s.TLS = dialTo(ms.addr), &tls.Config{RootCAs: pool}
			if _, err := s.Send(context.Background(), ch, Message{Title: "t", Text: "x"}); err != nil {
				t.Fatal(err)
			}
			got := ms.got()
			if len(got) != 1 || got[0].User != "quarry" {
				t.Fatalf("received %+v", got)
			}

			// The wrong password: refused at once, and not repeated.
			ch.SMTP.Password = "wrong-" + secret
			attempts, err := s.Send(context.Background(), ch, Message{Title: "t", Text: "x"})
			if quarry.KindOf(err) != quarry.KindConfig || len(attempts) != 1 || attempts[0].Status != 535 || !strings.Contains(err.Error(), "check the channel's username and password") {
				t.Errorf("err = %v, attempts = %+v", err, attempts)
			}
			js, _ := json.Marshal(attempts)
			if shown := err.Error() + string(js) + fmt.Sprintf("%+v %v %#v", ch, ch.SMTP, ch.SMTP) + ch.SMTP.LogValue().String(); strings.Contains(shown, secret) || !strings.Contains(fmt.Sprint(ch.SMTP), "(starttls) with AUTH from") && mode == StartTLS {
				t.Errorf("the credentials are shown: %s", shown)
			}

			// A certificate nobody said to trust.
			s.TLS = nil
			ch.SMTP.Password = secret
			_, err = s.Send(context.Background(), ch, Message{Title: "t", Text: "x"})
			if quarry.KindOf(err) != quarry.KindConfig || !strings.Contains(err.Error(), "certificate is not trusted") {
				t.Errorf("err = %v", err)
			}
		})
	}
}

func TestEmailRefusals(t *testing.T) {
	serverTLS, pool := selfSigned(t)
	tests := []struct {
		name     string
		server   serverOptions
		channel  func(*Channel)
		kind     quarry.Kind // "" when delivered
		msg      string
		statuses []int
	}{
		{"starttls not offered", serverOptions{}, func(c *Channel) { c.SMTP.TLS = StartTLS }, quarry.KindConfig, "does not offer STARTTLS; set tls: tls", []int{0}},
		{"no AUTH in clear text to another machine", serverOptions{insecure: true, user: "u", pass: "p"},
			func(c *Channel) { c.SMTP.Host, c.SMTP.Username, c.SMTP.Password = "mail.example.test", "u", "p" }, quarry.KindConfig, "tls: none would send the password in clear text", nil},
		{"AUTH in clear text to this machine", serverOptions{insecure: true, user: "u", pass: "pw"},
			func(c *Channel) { c.SMTP.Username, c.SMTP.Password = "u", "pw" }, "", "", []int{250}},
		{"AUTH only after TLS", serverOptions{startTLS: serverTLS, user: "u", pass: "pw"},
			func(c *Channel) { c.SMTP.Username, c.SMTP.Password = "u", "pw" }, quarry.KindConfig, "does not offer AUTH on this connection", []int{0}},
		{"a deferral is retried", serverOptions{deferN: 1}, nil, "", "", []int{451, 250}},
		{"deferred until the tries run out", serverOptions{deferN: 10}, nil, quarry.KindConnection, `answered 451 "4.3.0 Try again later" to DATA (4 tries); the mail server is busy`, []int{451, 451, 451, 451}},
		{"an unknown recipient", serverOptions{rejectRcp: "zoe@example.com"}, nil, quarry.KindConfig, `answered 550 "5.1.1 No such user here" to RCPT TO zoe@example.com; check the recipient's address`, []int{550}},
		{"implicit TLS to a plain port", serverOptions{}, func(c *Channel) { c.SMTP.TLS = ImplicitTLS }, quarry.KindConfig, "does not speak TLS on this port", []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := startMailServer(t, tt.server)
			ch := emailChannel("127.0.0.1", port(t, ms.addr))
			if tt.channel != nil {
				tt.channel(&ch)
			}
			s := testSender(newFakeTime())
			s.Dial, s.TLS = dialTo(ms.addr), &tls.Config{RootCAs: pool}
			attempts, err := s.Send(context.Background(), ch, Message{Title: "t", Text: "x"})
			var statuses []int
			for _, a := range attempts {
				statuses = append(statuses, a.Status)
			}
			if diff := cmp.Diff(tt.statuses, statuses); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
			if tt.kind == "" {
				if err != nil || len(ms.got()) != 1 {
					t.Fatalf("err = %v, %d received", err, len(ms.got()))
				}
				return
			}
			if quarry.KindOf(err) != tt.kind || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v (%s), want %s with %q", err, quarry.KindOf(err), tt.kind, tt.msg)
			}
			if len(ms.got()) != 0 {
				t.Errorf("received %+v", ms.got())
			}
		})
	}
}

func TestEmailUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s := testSender(newFakeTime())
	s.MaxTries = 2
	attempts, err := s.Send(context.Background(), emailChannel("127.0.0.1", port(t, addr)), Message{Title: "t"})
	if quarry.KindOf(err) != quarry.KindConnection || len(attempts) != 2 || !strings.Contains(err.Error(), "could not reach smtp://"+addr+" (connect) (2 tries)") {
		t.Errorf("err = %v, attempts = %+v", err, attempts)
	}

	// A server that accepts and says nothing: the try times out.
	l, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	s = testSender(newFakeTime())
	s.MaxTries, s.Timeout = 1, 50*time.Millisecond
	_, err = s.Send(context.Background(), emailChannel("127.0.0.1", port(t, l.Addr().String())), Message{Title: "t"})
	if quarry.KindOf(err) != quarry.KindTimeout {
		t.Errorf("err = %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Send(ctx, emailChannel("127.0.0.1", port(t, l.Addr().String())), Message{Title: "t"}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}
