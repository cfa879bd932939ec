package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/quarrydata/quarry/internal/llm"
)

// Answer is what a fake server sends for one request. With Status 0 or 200
// and no Body, the server writes a proper answer from Text, ToolUses and
// Usage, as JSON or, when the request asks to stream, as SSE. Otherwise it
// writes Status and Body as they are (an error, garbage).
type Answer struct {
	Status int
	Header map[string]string
	Body   string // a raw body, sent as is

	Text string // the answer's text
	// Thinking is the text of the reply's thinking (Anthropic: a thinking
	// block, with a signature, that current models send in every reply,
	// empty at the default display; OpenAI-compatible: reasoning_content
	// or <think>…</think>, by the model's family).
	Thinking string
	// Redacted adds a redacted_thinking block after the thinking block.
	Redacted   bool
	Deltas     []string      // how to stream Text; nil for Deltas(Text)
	ToolUses   []llm.ToolUse // tool calls after the text
	Usage      llm.Usage
	NoUsage    bool   // leave usage out, as some local servers do
	StopReason string // the wire stop reason; "" for the natural one

	// Hang makes the server stop after sending HangAfter text deltas (0:
	// before sending anything) and wait until the client goes away.
	Hang      bool
	HangAfter int
}

// Request is a request a fake server received.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// Server is a local fake of a provider's HTTP API.
type Server struct {
	URL string // the base URL to give the provider

	wire    wire
	key     string
	mu      sync.Mutex
	answers []Answer
	reqs    []Request
	refused []string // the bodies of the rule 400s sent

	// Preflight is how the fake model answers quarry's pre-flight check
	// (llm.Preflight), which never uses the scripted answers and is
	// counted apart (Preflights), so that tests of real work need not
	// script it.
	Preflight PreflightMode
	// Window, when not 0, is the context window of the fake model in
	// tokens (a request's are estimated at four bytes each). A
	// pre-flight request over it is refused with the provider's context
	// error, or, with Truncate, read only up to the window and reported
	// so in its usage, as Ollama does past num_ctx.
	Window   int
	Truncate bool

	preflights int
}

// PreflightMode is how a fake model answers the pre-flight check.
type PreflightMode int

// The pre-flight behaviours.
const (
	// PreflightPass calls the add tool, then answers {"sum": 5}.
	PreflightPass PreflightMode = iota
	// PreflightNoTools answers in text without calling the tool, as a
	// local model without tool support does.
	PreflightNoTools
	// PreflightNoJSON calls the tool, then answers in prose.
	PreflightNoJSON
)

type wire interface {
	path() string
	// authorized reports whether h carries key where the API reads it.
	authorized(h http.Header, key string) bool
	unauthorized() Answer
	// tooLong is the provider's refusal of a prompt of tokens tokens
	// that is longer than the model's window.
	tooLong(tokens, window int) Answer
	// check applies the documented request rules of the model's family
	// and returns the provider's error answer for a request they reject.
	check(body []byte, key string) *Answer
	write(w http.ResponseWriter, r *http.Request, body []byte, key, model string, stream bool, a Answer)
}

// NewAnthropicServer starts a fake Anthropic Messages API that answers
// POST /v1/messages with answers, in order; the test's end stops it. When
// key is not "", requests that do not carry it get a 401.
func NewAnthropicServer(t testing.TB, key string, answers ...Answer) *Server {
	return start(t, newAnthropicWire(), key, answers)
}

// NewOpenAIServer starts a fake OpenAI chat-completions API that answers
// POST /v1/chat/completions; its URL ends in /v1, as base URLs do.
func NewOpenAIServer(t testing.TB, key string, answers ...Answer) *Server {
	s := start(t, openaiWire{}, key, answers)
	s.URL += "/v1"
	return s
}

func start(t testing.TB, w wire, key string, answers []Answer) *Server {
	s := &Server{wire: w, key: key, answers: answers}
	hs := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(hs.Close)
	s.URL = hs.URL
	return s
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Refused returns the error bodies of the requests the model's documented
// rules rejected (a dropped or altered thinking block, a prefill, forced
// tool use, …), in order; none when quarry followed every rule.
func (s *Server) Refused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refused...)
}

// Preflights returns how many pre-flight requests the server answered.
func (s *Server) Preflights() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.preflights
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if strings.Contains(string(body), llm.PreflightSystem) {
		s.servePreflight(w, r, body)
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	n := len(s.reqs)
	var a Answer
	ok := n <= len(s.answers)
	if ok {
		a = s.answers[n-1]
	}
	s.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != s.wire.path() {
		http.Error(w, `{"error":{"type":"not_found_error","message":"no such endpoint"}}`, http.StatusNotFound)
		return
	}
	account := r.Header.Get("X-Api-Key") + r.Header.Get("Authorization")
	if s.key != "" && !s.wire.authorized(r.Header, s.key) {
		a = s.wire.unauthorized()
	} else if rej := s.wire.check(body, account); rej != nil {
		a = *rej
		s.mu.Lock()
		s.refused = append(s.refused, rej.Body)
		s.mu.Unlock()
	} else if !ok {
		http.Error(w, fmt.Sprintf(`{"error":{"type":"api_error","message":"the fake server has no answer for request %d"}}`, n), http.StatusInternalServerError)
		return
	}
	var in struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	_ = json.Unmarshal(body, &in)
	for k, v := range a.Header {
		w.Header().Set(k, v)
	}
	if a.Body != "" || (a.Status != 0 && a.Status != http.StatusOK) {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(max(a.Status, http.StatusOK))
		io.WriteString(w, a.Body)
		return
	}
	s.wire.write(w, r, body, account, in.Model, in.Stream, a)
}

// servePreflight answers one request of quarry's pre-flight check as a
// model of s's kind would, after the same key and rule checks as any
// request.
func (s *Server) servePreflight(w http.ResponseWriter, r *http.Request, body []byte) {
	s.mu.Lock()
	s.preflights++
	s.mu.Unlock()
	account := r.Header.Get("X-Api-Key") + r.Header.Get("Authorization")
	var a Answer
	tokens := len(body)/4 + 1
	switch {
	case s.key != "" && !s.wire.authorized(r.Header, s.key):
		a = s.wire.unauthorized()
	case s.wire.check(body, account) != nil:
		rej := s.wire.check(body, account)
		a = *rej
		s.mu.Lock()
		s.refused = append(s.refused, rej.Body)
		s.mu.Unlock()
	case s.Window > 0 && tokens > s.Window && !s.Truncate:
		a = s.wire.tooLong(tokens, s.Window)
	default:
		if s.Window > 0 && tokens > s.Window {
			tokens = s.Window
		}
		a = Answer{Usage: llm.Usage{Input: tokens, Output: 20}}
		var tr struct {
			Messages []struct {
				Role string `json:"role"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(body, &tr)
		second := false // an assistant turn came back: the tool's result follows
		for _, m := range tr.Messages {
			second = second || m.Role == "assistant"
		}
		switch {
		case s.Preflight == PreflightNoTools:
			a.Text = "2 + 3 = 5"
		case !second:
			a.ToolUses = []llm.ToolUse{{ID: "call_preflight_1", Name: "add", Input: json.RawMessage(`{"a":2,"b":3}`)}}
		case s.Preflight == PreflightNoJSON:
			a.Text = "The sum is five."
		default:
			a.Text = `{"sum": 5}`
		}
	}
	var in struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	_ = json.Unmarshal(body, &in)
	if a.Body != "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.Status)
		io.WriteString(w, a.Body)
		return
	}
	s.wire.write(w, r, body, account, in.Model, in.Stream, a)
}

// sse writes server-sent events and can hang mid-stream.
type sse struct {
	w      http.ResponseWriter
	r      *http.Request
	deltas int
	a      Answer
}

func newSSE(w http.ResponseWriter, r *http.Request, a Answer) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	s := &sse{w: w, r: r, a: a}
	s.maybeHang()
	return s
}

func (s *sse) event(name string, data any) {
	b, _ := json.Marshal(data)
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	s.w.(http.Flusher).Flush()
}

// delta counts a text delta that was sent, and hangs when it is time.
func (s *sse) delta() {
	s.deltas++
	s.maybeHang()
}

func (s *sse) maybeHang() {
	if s.a.Hang && s.deltas == s.a.HangAfter {
		s.w.(http.Flusher).Flush()
		<-s.r.Context().Done()
		panic(http.ErrAbortHandler)
	}
}

func deltasOf(a Answer) []string {
	if a.Deltas != nil {
		return a.Deltas
	}
	return Deltas(a.Text)
}

// hangJSON waits for the client to go away when a JSON answer should hang.
func hangJSON(r *http.Request, a Answer) {
	if a.Hang {
		<-r.Context().Done()
		panic(http.ErrAbortHandler)
	}
}

// splitJSON cuts a JSON text into a few pieces, as streamed tool input is.
func splitJSON(s string) []string {
	if len(s) < 4 {
		return []string{s}
	}
	third := len(s) / 3
	return []string{s[:third], s[third : 2*third], s[2*third:]}
}

func inputOf(u llm.ToolUse) string {
	if len(u.Input) == 0 {
		return "{}"
	}
	return strings.TrimSpace(string(u.Input))
}
