package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
)

// cutStream passes a response body on until it has passed n server-sent
// events, then ends it: the connection to a server that died mid-answer.
type cutStream struct {
	body io.ReadCloser
	n    int
	seen int
	prev byte
}

func (c *cutStream) Read(p []byte) (int, error) {
	if c.seen >= c.n {
		return 0, io.EOF
	}
	k, err := c.body.Read(p)
	for i := range k {
		if p[i] == '\n' && c.prev == '\n' {
			if c.seen++; c.seen >= c.n {
				return i + 1, io.EOF
			}
		}
		c.prev = p[i]
	}
	return k, err
}

func (c *cutStream) Close() error { return c.body.Close() }

// TestWebChatResumesABrokenStream: the web chat's stream breaks after the
// session event and the run's first event, as when its server dies behind
// a load balancer; the page resumes the run's stream after the last event
// it got and shows the answer.
func TestWebChatResumesABrokenStream(t *testing.T) {
	s := serveDemoProcess(t)
	target, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	var resumes atomic.Int64
	var after atomic.Value
	rp := &httputil.ReverseProxy{
		FlushInterval: -1,
		Rewrite: func(pr *httputil.ProxyRequest) {
			// The proxy is the page's origin; quarry answers on its own.
			pr.SetURL(target)
			pr.Out.Header.Del("Origin")
			if strings.HasSuffix(pr.Out.URL.Path, "/stream") {
				resumes.Add(1)
				after.Store(pr.Out.URL.Query().Get("after"))
			}
		},
		ModifyResponse: func(res *http.Response) error {
			if res.Request.URL.Path == "/api/chat" {
				res.Body = &cutStream{body: res.Body, n: 2}
			}
			return nil
		},
	}
	proxy := httptest.NewServer(rp)
	t.Cleanup(proxy.Close)

	ctx := newBrowser(t)
	uiDo(t, ctx, "open the web chat through the proxy",
		chromedp.Navigate(proxy.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#composer-input")),
	)
	uiAsk(t, ctx, "monthly revenue in 2025")
	prose := uiEval[string](t, ctx, `(document.querySelector("#turns > .turn:last-child .answer .prose") || {}).textContent || ""`)
	if !strings.Contains(prose, "Revenue by month") {
		body := uiEval[string](t, ctx, `document.querySelector("#turns > .turn:last-child .turn-body").textContent`)
		t.Errorf("the answer after the stream broke is %q", body)
	}
	if resumes.Load() == 0 {
		t.Fatal("the page never resumed the run's stream")
	}
	if a, _ := after.Load().(string); a != "1" {
		t.Errorf("the page resumed after %q, want after the run's first event (1)", a)
	}
}
