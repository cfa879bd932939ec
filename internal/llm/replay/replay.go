// Package replay records a provider's real HTTP exchanges to cassette files
// and serves them back, so that tests run the real provider code with no
// key and no network.
//
// A Recorder is an http.RoundTripper that passes requests on and keeps each
// exchange, with every credential removed: the Authorization, X-Api-Key,
// Api-Key, Cookie and Set-Cookie headers are dropped, and the key itself is
// scrubbed from anything else that is saved. A Replayer is an
// http.RoundTripper that answers from a cassette, matching requests by
// method, path and body (JSON compared after normalising), and fails
// clearly on a request the cassette does not hold.
package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Cassette is a recorded sequence of HTTP exchanges.
type Cassette struct {
	Exchanges []Exchange `json:"exchanges"`
}

// Exchange is one request and its response.
type Exchange struct {
	Request  RecordedRequest  `json:"request"`
	Response RecordedResponse `json:"response"`
}

// RecordedRequest is what was sent, without credentials.
type RecordedRequest struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Query  string          `json:"query,omitempty"`
	Header http.Header     `json:"header,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"` // JSON bodies as they are
	Text   string          `json:"text,omitempty"` // other bodies as text
}

// RecordedResponse is what came back; Body holds a whole SSE stream as text.
type RecordedResponse struct {
	Status int         `json:"status"`
	Header http.Header `json:"header,omitempty"`
	Body   string      `json:"body"`
}

// isSecretHeader reports whether a header carries a credential; those are
// never saved.
func isSecretHeader(name string) bool {
	switch http.CanonicalHeaderKey(name) {
	case "Authorization", "Proxy-Authorization", "X-Api-Key", "Api-Key", "X-Goog-Api-Key",
		"Cookie", "Set-Cookie", "Openai-Organization", "Openai-Project":
		return true
	}
	return false
}

// Recorder records exchanges through Next (http.DefaultTransport when nil).
// Keys lists the credentials to scrub from saved text, besides the headers
// that are always dropped.
type Recorder struct {
	Next http.RoundTripper
	Keys []string

	mu       sync.Mutex
	cassette Cassette
}

// RoundTrip implements http.RoundTripper.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	next := r.Next
	if next == nil {
		next = http.DefaultTransport
	}
	var reqBody []byte
	if req.Body != nil {
		var err error
		reqBody, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	resp, err := next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	respBody, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(respBody))

	rr := RecordedRequest{Method: req.Method, Path: req.URL.Path, Query: r.scrub(req.URL.RawQuery), Header: r.headers(req.Header)}
	if json.Valid(reqBody) {
		rr.Body = json.RawMessage(r.scrub(string(reqBody)))
	} else {
		rr.Text = r.scrub(string(reqBody))
	}
	ex := Exchange{Request: rr, Response: RecordedResponse{Status: resp.StatusCode, Header: r.headers(resp.Header), Body: r.scrub(string(respBody))}}
	r.mu.Lock()
	r.cassette.Exchanges = append(r.cassette.Exchanges, ex)
	r.mu.Unlock()
	return resp, nil
}

// headers keeps the headers worth replaying, without credentials.
func (r *Recorder) headers(h http.Header) http.Header {
	out := http.Header{}
	for k, vs := range h {
		if isSecretHeader(k) {
			continue
		}
		for _, v := range vs {
			out.Add(k, r.scrub(v))
		}
	}
	return out
}

func (r *Recorder) scrub(s string) string {
	for _, k := range r.Keys {
		if len(k) >= 4 {
			s = strings.ReplaceAll(s, k, "[redacted]")
		}
	}
	return s
}

// Cassette returns what has been recorded so far.
func (r *Recorder) Cassette() Cassette {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Cassette{Exchanges: slices.Clone(r.cassette.Exchanges)}
}

// Save writes the recording to path as indented JSON.
func (r *Recorder) Save(path string) error {
	c := r.Cassette()
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Load reads a cassette file.
func Load(path string) (Cassette, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Cassette{}, err
	}
	var c Cassette
	if err := json.Unmarshal(data, &c); err != nil {
		return Cassette{}, fmt.Errorf("cassette %s: %w", path, err)
	}
	return c, nil
}

// Replayer serves a cassette. Each exchange answers one matching request,
// in the order recorded; it never touches the network.
type Replayer struct {
	mu   sync.Mutex
	c    Cassette
	used []bool
}

// NewReplayer returns a Replayer for c.
func NewReplayer(c Cassette) *Replayer {
	return &Replayer{c: c, used: make([]bool, len(c.Exchanges))}
}

// RoundTrip implements http.RoundTripper.
func (p *Replayer) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	want := normalise(body)
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, ex := range p.c.Exchanges {
		if p.used[i] || ex.Request.Method != req.Method || ex.Request.Path != req.URL.Path {
			continue
		}
		got := ex.Request.Text
		if len(ex.Request.Body) > 0 {
			got = string(ex.Request.Body)
		}
		if normalise([]byte(got)) != want {
			continue
		}
		p.used[i] = true
		h := ex.Response.Header.Clone()
		if h == nil {
			h = http.Header{}
		}
		return &http.Response{
			Status:        fmt.Sprintf("%d %s", ex.Response.Status, http.StatusText(ex.Response.Status)),
			StatusCode:    ex.Response.Status,
			Proto:         "HTTP/1.1",
			ProtoMajor:    1,
			ProtoMinor:    1,
			Header:        h,
			Body:          io.NopCloser(strings.NewReader(ex.Response.Body)),
			ContentLength: int64(len(ex.Response.Body)),
			Request:       req,
		}, nil
	}
	return nil, fmt.Errorf("replay: the cassette has no unused exchange for %s %s with this body (%d bytes); record the cassette again if the request changed", req.Method, req.URL.Path, len(body))
}

// Unused returns how many recorded exchanges have not been replayed.
func (p *Replayer) Unused() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, u := range p.used {
		if !u {
			n++
		}
	}
	return n
}

// normalise returns JSON re-encoded with sorted keys and no insignificant
// space, or other text as it is.
func normalise(b []byte) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return string(b)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(b)
	}
	return string(out)
}
