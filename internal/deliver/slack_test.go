package deliver

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quarrydata/quarry/internal/quarry"
)

// fakeSlack is an incoming webhook that refuses what Slack documents it
// refuses (docs.slack.dev, "Sending messages using incoming webhooks",
// "Handling errors"; Block Kit's limits), with the status and error string
// Slack answers:
//
//   - a path other than its own /services/T…/B…/token: 404 no_service
//   - a body that is not JSON, or not sent as JSON: 400 invalid_payload
//   - no text, no blocks and no attachments: 400 no_text
//   - more than 50 blocks, an unknown block type, a header that is not
//     plain_text or is empty or over 150 characters, a section whose text is
//     empty or over 3000 characters, a context with no elements or over 10:
//     400 invalid_blocks
//   - archived: 410 channel_is_archived; prohibited: 403 action_prohibited
//   - over its rate: 429 rate_limited with Retry-After
//
// and answers 200 "ok" to the rest, keeping the message.
type fakeSlack struct {
	path       string
	archived   bool
	prohibited bool
	limited    int // the next this many posts are answered 429

	mu       sync.Mutex
	messages []map[string]any
}

func (f *fakeSlack) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	refuse := func(status int, code string) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, code)
	}
	if r.URL.Path != f.path {
		refuse(http.StatusNotFound, "no_service")
		return
	}
	if r.Method != http.MethodPost {
		refuse(http.StatusMethodNotAllowed, "invalid_method")
		return
	}
	f.mu.Lock()
	limited := f.limited > 0
	if limited {
		f.limited--
	}
	f.mu.Unlock()
	if limited {
		w.Header().Set("Retry-After", "1")
		refuse(http.StatusTooManyRequests, "rate_limited")
		return
	}
	if f.archived {
		refuse(http.StatusGone, "channel_is_archived")
		return
	}
	if f.prohibited {
		refuse(http.StatusForbidden, "action_prohibited")
		return
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	body, _ := io.ReadAll(r.Body)
	var msg map[string]any
	if mt != "application/json" || json.Unmarshal(body, &msg) != nil {
		refuse(http.StatusBadRequest, "invalid_payload")
		return
	}
	text, _ := msg["text"].(string)
	blocks, hasBlocks := msg["blocks"].([]any)
	if _, ok := msg["attachments"]; strings.TrimSpace(text) == "" && len(blocks) == 0 && !ok {
		refuse(http.StatusBadRequest, "no_text")
		return
	}
	if hasBlocks && !validBlocks(blocks) {
		refuse(http.StatusBadRequest, "invalid_blocks")
		return
	}
	f.mu.Lock()
	f.messages = append(f.messages, msg)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/html")
	_, _ = io.WriteString(w, "ok")
}

// validBlocks holds blocks to Block Kit's rules for the blocks quarry
// could send.
func validBlocks(blocks []any) bool {
	if len(blocks) > 50 {
		return false
	}
	textOK := func(v any, types string, limit int) bool {
		o, _ := v.(map[string]any)
		typ, _ := o["type"].(string)
		s, _ := o["text"].(string)
		return strings.Contains(types, typ) && typ != "" && strings.TrimSpace(s) != "" && slackLen(s) <= limit
	}
	for _, b := range blocks {
		o, _ := b.(map[string]any)
		switch o["type"] {
		case "header":
			if !textOK(o["text"], "plain_text", 150) {
				return false
			}
		case "section":
			if !textOK(o["text"], "mrkdwn plain_text", 3000) {
				return false
			}
		case "context":
			els, _ := o["elements"].([]any)
			if len(els) == 0 || len(els) > 10 {
				return false
			}
			for _, e := range els {
				if !textOK(e, "mrkdwn plain_text", 3000) {
					return false
				}
			}
		case "divider":
		default:
			return false
		}
	}
	return true
}

const slackPath = "/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"

// TestFakeSlackRefuses holds the fake to Slack's documented refusals, so
// that a message it accepts is one Slack would.
func TestFakeSlackRefuses(t *testing.T) {
	srv := httptest.NewServer(&fakeSlack{path: slackPath})
	defer srv.Close()
	long := strings.Repeat("x", 3001)
	tests := []struct {
		path, ctype, body string
		status            int
		answer            string
	}{
		{slackPath, "application/json", `{"text":"hi"}`, 200, "ok"},
		{"/services/T0/B0/wrong", "application/json", `{"text":"hi"}`, 404, "no_service"},
		{slackPath, "application/json", `{"text":`, 400, "invalid_payload"},
		{slackPath, "text/plain", `{"text":"hi"}`, 400, "invalid_payload"},
		{slackPath, "application/json", `{}`, 400, "no_text"},
		{slackPath, "application/json", `{"text":"  "}`, 400, "no_text"},
		{slackPath, "application/json", `{"text":"hi","blocks":[{"type":"section","text":{"type":"mrkdwn","text":""}}]}`, 400, "invalid_blocks"},
		{slackPath, "application/json", `{"text":"hi","blocks":[{"type":"section","text":{"type":"mrkdwn","text":"` + long + `"}}]}`, 400, "invalid_blocks"},
		{slackPath, "application/json", `{"text":"hi","blocks":[{"type":"header","text":{"type":"mrkdwn","text":"x"}}]}`, 400, "invalid_blocks"},
		{slackPath, "application/json", `{"text":"hi","blocks":[{"type":"header","text":{"type":"plain_text","text":"` + long[:151] + `"}}]}`, 400, "invalid_blocks"},
		{slackPath, "application/json", `{"text":"hi","blocks":[{"type":"banner"}]}`, 400, "invalid_blocks"},
		{slackPath, "application/json", `{"text":"hi","blocks":[` + strings.Repeat(`{"type":"divider"},`, 50) + `{"type":"divider"}]}`, 400, "invalid_blocks"},
	}
	for i, tt := range tests {
		resp, err := http.Post(srv.URL+tt.path, tt.ctype, strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || string(b) != tt.answer {
			t.Errorf("%d: %s → %d %s, want %d %s", i, tt.body, resp.StatusCode, b, tt.status, tt.answer)
		}
	}
}

func TestSlack(t *testing.T) {
	fake := &fakeSlack{path: slackPath}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	m := Message{
		Title:    "Orders fell 40% <in EU>",
		Text:     "Orders fell from 120 to 72 & kept falling.",
		Markdown: "## Orders\n**Orders** fell from *120* to 72 & kept falling: see [the run](http://localhost:8080/runs/r1?a=1|2).\n- EU: 72\n```\nselect 1 < 2\n```",
		Link:     "http://localhost:8080/runs/r1",
	}
	attempts, err := testSender(newFakeTime()).Send(context.Background(), Channel{Name: "alerts", Kind: Slack, URL: srv.URL + slackPath}, m)
	if err != nil || len(attempts) != 1 || attempts[0].Status != 200 {
		t.Fatalf("Send = %+v, %v", attempts, err)
	}
	want := map[string]any{
		"text": "Orders fell 40% &lt;in EU&gt;\nOrders fell from 120 to 72 &amp; kept falling.",
		"blocks": []any{
			map[string]any{"type": "header", "text": map[string]any{"type": "plain_text", "text": "Orders fell 40% <in EU>", "emoji": true}},
			map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": "*Orders*\n*Orders* fell from _120_ to 72 &amp; kept falling: see <http://localhost:8080/runs/r1?a=1%7C2|the run>.\n• EU: 72\n```\nselect 1 &lt; 2\n```"}},
			map[string]any{"type": "context", "elements": []any{map[string]any{"type": "mrkdwn", "text": "<http://localhost:8080/runs/r1|Open in quarry>"}}},
		},
	}
	if diff := cmp.Diff(want, fake.messages[0]); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
}

// TestSlackLimits sends what would break Slack's limits if sent as is.
func TestSlackLimits(t *testing.T) {
	fake := &fakeSlack{path: slackPath}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	var lines []string
	for i := range 4000 {
		lines = append(lines, "row "+strconv.Itoa(i)+": "+strings.Repeat("é", 40))
	}
	for _, m := range []Message{
		{Title: strings.Repeat("Title ", 40), Text: "short"},
		{Title: "many lines", Text: strings.Join(lines[:200], "\n")},
		{Title: "a huge body", Text: strings.Join(lines, "\n")},
		{Title: "one long line", Text: strings.Repeat("word ", 2000) + strings.Repeat("😀", 4000)},
		{Text: "no title"},
		{Title: "no text"},
		{Title: "title\nwith a line break", Markdown: "   "},
	} {
		if _, err := testSender(newFakeTime()).Send(context.Background(), Channel{Name: "alerts", Kind: Slack, URL: srv.URL + slackPath}, m); err != nil {
			t.Errorf("%.20q: %v", m.Title, err)
		}
	}
	if len(fake.messages) != 7 {
		t.Fatalf("%d messages accepted", len(fake.messages))
	}
	if blocks := fake.messages[2]["blocks"].([]any); len(blocks) != 50 {
		t.Errorf("the huge body took %d blocks, want 50", len(blocks))
	}
	if n := len(fake.messages[1]["blocks"].([]any)); n != 1+4 {
		t.Errorf("200 lines of ~50 characters took %d blocks, want a header and 4 sections", n)
	}
}

func TestSlackRefusals(t *testing.T) {
	tests := []struct {
		name     string
		fake     *fakeSlack
		path     string
		kind     quarry.Kind
		msg      string
		attempts int
		waits    []time.Duration
	}{
		{"revoked", &fakeSlack{path: slackPath}, "/services/T00000000/B00000000/revoked", quarry.KindConfig, `answered 404 Not Found "no_service"; the webhook URL is revoked or wrong: create a new incoming webhook`, 1, nil},
		{"archived", &fakeSlack{path: slackPath, archived: true}, slackPath, quarry.KindConfig, `answered 410 Gone "channel_is_archived"; the Slack channel the webhook posts to is gone or archived`, 1, nil},
		{"prohibited", &fakeSlack{path: slackPath, prohibited: true}, slackPath, quarry.KindForbidden, `"action_prohibited"; the workspace does not let this webhook post there`, 1, nil},
		{"rate limited", &fakeSlack{path: slackPath, limited: 2}, slackPath, "", "", 3, []time.Duration{time.Second, 2 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.fake)
			defer srv.Close()
			ft := newFakeTime()
			attempts, err := testSender(ft).Send(context.Background(), Channel{Name: "alerts", Kind: Slack, URL: srv.URL + tt.path}, Message{Title: "t", Text: "x"})
			if len(attempts) != tt.attempts {
				t.Errorf("%d attempts, want %d: %+v", len(attempts), tt.attempts, attempts)
			}
			if diff := cmp.Diff(tt.waits, ft.Waits()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
			if tt.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if quarry.KindOf(err) != tt.kind || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v (%s), want %s with %q", err, quarry.KindOf(err), tt.kind, tt.msg)
			}
			if strings.Contains(err.Error(), "XXXXXXXX") || strings.Contains(err.Error(), "revoked\"") {
				t.Errorf("err shows the token: %v", err)
			}
		})
	}
}

func TestMrkdwn(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a < b && c > d", "a &lt; b &amp;&amp; c &gt; d"},
		{"**bold** and __bold__", "*bold* and *bold*"},
		{"*it* and **b**", "_it_ and *b*"},
		{"# Title", "*Title*"},
		{"### **Title** ###", "*Title*"},
		{"[x](https://e.com/a_b) and [y](ftp://no)", "<https://e.com/a_b|x> and [y](ftp://no)"},
		{"[a<b](https://e.com/?q=<x>)", "<https://e.com/?q=%3Cx%3E|a&lt;b>"},
		{"* one\n  - two\n+ three", "• one\n  • two\n• three"},
		{"`a **b** < c`", "`a **b** &lt; c`"},
		{"2 * 3 * 4", "2 * 3 * 4"},
		{"```\n**x** <y>\n```", "```\n**x** &lt;y&gt;\n```"},
	}
	for _, tt := range tests {
		if got := mrkdwn(tt.in); got != tt.want {
			t.Errorf("mrkdwn(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
