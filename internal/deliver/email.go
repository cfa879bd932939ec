package deliver

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// maxSubject bounds the subject, in characters, before encoding.
const maxSubject = 200

// buildEmail writes m as an RFC 5322 message: From, To, Subject (RFC 2047
// encoded when it is not ASCII), Date, Message-ID, Auto-Submitted and a
// text/plain UTF-8 body in quoted-printable, with CRLF line ends. The same
// bytes are sent on every try, so a receiver can drop a duplicate by its
// Message-ID.
func (s *Sender) buildEmail(ch Channel, m Message) ([]byte, error) {
	from, err := mail.ParseAddress(ch.SMTP.From)
	if err != nil {
		return nil, quarry.Errorf(quarry.KindConfig, "deliver: channel %q: from is not an email address; set it like alerts@example.com", ch.Name)
	}
	var to []string
	for _, t := range ch.SMTP.To {
		a, err := mail.ParseAddress(t)
		if err != nil {
			return nil, quarry.Errorf(quarry.KindConfig, "deliver: channel %q: %q is not an email address; fix the channel's to list", ch.Name, t)
		}
		to = append(to, a.String())
	}
	id, err := s.messageID(from.Address)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "deliver: could not make a Message-ID")
	}
	subject := oneLine(m.Title)
	if subject == "" {
		subject, _, _ = strings.Cut(strings.TrimSpace(m.Text), "\n")
		subject = oneLine(subject)
	}
	if r := []rune(subject); len(r) > maxSubject {
		subject = string(r[:maxSubject-1]) + "…"
	}
	body := m.Text
	if strings.TrimSpace(body) == "" {
		body = m.Markdown
	}
	body = strings.TrimRight(body, "\n")
	if m.Link != "" {
		body += "\n\n" + m.Link
	}

	var b bytes.Buffer
	header(&b, "From", from.String())
	header(&b, "To", strings.Join(to, ", "))
	header(&b, "Subject", mime.QEncoding.Encode("utf-8", subject))
	header(&b, "Date", s.now().Format(time.RFC1123Z))
	header(&b, "Message-ID", id)
	header(&b, "Auto-Submitted", "auto-generated")
	header(&b, "MIME-Version", "1.0")
	header(&b, "Content-Type", "text/plain; charset=utf-8")
	header(&b, "Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	_, _ = qp.Write([]byte(crlf(body) + "\r\n"))
	_ = qp.Close()
	return b.Bytes(), nil
}

// messageID is a new <random@domain>, the domain the sender's.
func (s *Sender) messageID(from string) (string, error) {
	r := s.Rand
	if r == nil {
		r = rand.Reader
	}
	var p [16]byte
	if _, err := io.ReadFull(r, p[:]); err != nil {
		return "", err
	}
	_, domain, _ := strings.Cut(from, "@")
	if domain == "" {
		domain = "quarry.invalid"
	}
	return "<" + hex.EncodeToString(p[:]) + "@" + domain + ">", nil
}

// header writes "Name: value", folded at spaces to lines of at most 78
// characters where it can be (RFC 5322 2.2.3); an encoded word of 75 may
// begin on the line after the name.
func header(b *bytes.Buffer, name, value string) {
	line := name + ":"
	for _, w := range strings.Split(value, " ") {
		if len(line)+1+len(w) > 78 && line != "" {
			b.WriteString(line + "\r\n")
			line = ""
		}
		line += " " + w
	}
	b.WriteString(line + "\r\n")
}

// crlf makes every line end CRLF.
func crlf(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\n", "\r\n")
}

// sendMail returns the try that sends msg over SMTP.
func (s *Sender) sendMail(ch Channel, sc scrubber, msg []byte) sendFunc {
	c := ch.SMTP
	to := target(ch)
	return func(ctx context.Context) outcome {
		conn, err := s.dial(ctx, "tcp", smtpAddr(c))
		if err != nil {
			return smtpNetFailure(ctx, sc, to, "connect", err)
		}
		defer conn.Close()
		stop := context.AfterFunc(ctx, func() { conn.Close() })
		defer stop()
		if dl, ok := ctx.Deadline(); ok {
			_ = conn.SetDeadline(dl)
		}
		conf := s.tlsConfig(c.Host)
		if c.tls() == ImplicitTLS {
			tc := tls.Client(conn, conf)
			if err := tc.HandshakeContext(ctx); err != nil {
				return tlsFailure(ctx, sc, to, err)
			}
			conn = tc
		}
		cl, err := smtp.NewClient(conn, c.Host)
		if err != nil {
			return smtpFailure(ctx, sc, to, "greeting", err)
		}
		defer cl.Close()
		if err := cl.Hello(s.hello()); err != nil {
			return smtpFailure(ctx, sc, to, "EHLO", err)
		}
		if c.tls() == StartTLS {
			if ok, _ := cl.Extension("STARTTLS"); !ok {
				return fail(quarry.KindConfig, false, 0, nil, "set tls: tls if the server speaks TLS from the start (port 465), or tls: none for a server on this machine", "%s does not offer STARTTLS", to)
			}
			if err := cl.StartTLS(conf); err != nil {
				return tlsFailure(ctx, sc, to, err)
			}
		}
		if c.Username != "" || c.Password != "" {
			if _, isTLS := cl.TLSConnectionState(); !isTLS && !isLocalhost(c.Host) {
				return fail(quarry.KindConfig, false, 0, nil, "use tls: starttls or tls to send a password", "quarry will not send the password to %s in clear text", to)
			}
			if ok, _ := cl.Extension("AUTH"); !ok {
				return fail(quarry.KindConfig, false, 0, nil, "remove the username and password, or use the server's submission port with TLS", "%s does not offer AUTH on this connection", to)
			}
			if err := cl.Auth(smtp.PlainAuth("", c.Username, c.Password, c.Host)); err != nil {
				return smtpFailure(ctx, sc, to, "AUTH", err)
			}
		}
		from, _ := mail.ParseAddress(c.From)
		if err := cl.Mail(from.Address); err != nil {
			return smtpFailure(ctx, sc, to, "MAIL FROM", err)
		}
		for _, t := range c.To {
			a, _ := mail.ParseAddress(t)
			if err := cl.Rcpt(a.Address); err != nil {
				return smtpFailure(ctx, sc, to, "RCPT TO "+a.Address, err)
			}
		}
		w, err := cl.Data()
		if err != nil {
			return smtpFailure(ctx, sc, to, "DATA", err)
		}
		if _, err := w.Write(msg); err != nil {
			return smtpFailure(ctx, sc, to, "DATA", err)
		}
		if err := w.Close(); err != nil {
			return smtpFailure(ctx, sc, to, "DATA", err)
		}
		_ = cl.Quit() // the message is accepted; a lost QUIT changes nothing
		return outcome{status: 250}
	}
}

func (s *Sender) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if s.Dial != nil {
		return s.Dial(ctx, network, addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

func (s *Sender) tlsConfig(host string) *tls.Config {
	var conf *tls.Config
	if s.TLS != nil {
		conf = s.TLS.Clone()
	} else {
		conf = &tls.Config{}
	}
	conf.ServerName = host
	conf.MinVersion = max(conf.MinVersion, tls.VersionTLS12)
	return conf
}

func (s *Sender) hello() string {
	if s.Hello != "" {
		return s.Hello
	}
	return "localhost"
}

// isLocalhost is net/smtp's test of a server it may send a password to in
// clear text.
func isLocalhost(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1"
}

// smtpNetFailure is a try that lost its connection (or never had one).
func smtpNetFailure(ctx context.Context, sc scrubber, to, step string, err error) outcome {
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil || isTimeout(err) {
		return fail(quarry.KindTimeout, true, 0, nil, "check that the mail server is up and answers quickly", "%s did not answer in time (%s)", to, step)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return fail(quarry.KindConfig, false, 0, sc.err(err), "check the channel's SMTP host", "%s does not exist", to)
	}
	return fail(quarry.KindConnection, true, 0, sc.err(err), "check the host and port, and that the mail server is up", "could not reach %s (%s)", to, step)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// tlsFailure is a TLS handshake that failed.
func tlsFailure(ctx context.Context, sc scrubber, to string, err error) outcome {
	if certErr(err) {
		return fail(quarry.KindConfig, false, 0, sc.err(err), "check the SMTP host name and the server's certificate", "%s's TLS certificate is not trusted", to)
	}
	var te *textproto.Error
	if errors.As(err, &te) {
		return smtpFailure(ctx, sc, to, "STARTTLS", err)
	}
	var rh tls.RecordHeaderError
	if errors.As(err, &rh) {
		return fail(quarry.KindConfig, false, 0, nil, "set tls: starttls for a server that upgrades with STARTTLS (port 587)", "%s does not speak TLS on this port", to)
	}
	return smtpNetFailure(ctx, sc, to, "TLS", err)
}

// smtpFailure classifies the error of an SMTP step: a 4xx reply may pass
// and is retried; a 5xx reply is a refusal.
func smtpFailure(ctx context.Context, sc scrubber, to, step string, err error) outcome {
	var te *textproto.Error
	if !errors.As(err, &te) {
		return smtpNetFailure(ctx, sc, to, step, err)
	}
	said := quarry.Clean(sc.text(te.Msg), 200)
	if te.Code >= 400 && te.Code < 500 {
		return fail(quarry.KindConnection, true, te.Code, nil, "the mail server is busy or deferring: try again later", "%s answered %d %q to %s", to, te.Code, said, step)
	}
	kind, hint := quarry.KindConfig, "check the channel's SMTP settings"
	switch {
	case step == "AUTH":
		hint = "check the channel's username and password"
	case step == "MAIL FROM":
		hint = "check the from address, and that the server lets this user send as it"
	case strings.HasPrefix(step, "RCPT TO"):
		hint = "check the recipient's address"
	case step == "DATA":
		kind, hint = quarry.KindInput, "the mail server refused the message: check its limits and policy"
	}
	return fail(kind, false, te.Code, nil, hint, "%s answered %d %q to %s", to, te.Code, said, step)
}
