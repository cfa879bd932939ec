package oidctest

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Page is what a navigation or a fetch ended on.
type Page struct {
	URL    *url.URL
	Status int
	Header http.Header
	Body   string
}

// Browser is an HTTP client that handles cookies as a browser does under
// SameSite. A site here is a scheme and a host name (a test's hosts have
// no registrable domain): http://localhost and http://127.0.0.1 are two
// sites, whatever their ports.
type Browser struct {
	// StopAt, when set, ends a navigation at a redirect to a URL that
	// begins with it, so that a test can change where it goes.
	StopAt string

	t      testing.TB
	client *http.Client

	mu   sync.Mutex
	jar  map[string]map[string]*http.Cookie // host name → name → cookie
	sent []sentRequest
}

// sentRequest is one request the browser sent, for tests to look at.
type sentRequest struct {
	URL     string
	Cookies []string
}

// NewBrowser returns a browser with no cookies.
func NewBrowser(t testing.TB) *Browser {
	return &Browser{t: t, jar: map[string]map[string]*http.Cookie{},
		client: &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func site(u *url.URL) string { return u.Scheme + "://" + u.Hostname() }

func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// Open navigates to rawURL as a person typing it (no initiator).
func (b *Browser) Open(rawURL string) Page {
	b.t.Helper()
	return b.navigate(http.MethodGet, rawURL, nil, nil)
}

// Follow navigates to rawURL from page, as a click on a link in it.
func (b *Browser) Follow(from Page, rawURL string) Page {
	b.t.Helper()
	return b.navigate(http.MethodGet, from.URL.ResolveReference(mustParse(b.t, rawURL)).String(), nil, from.URL)
}

// Submit posts the first form of page with its hidden fields and fields,
// as a person submitting it.
func (b *Browser) Submit(page Page, fields url.Values) Page {
	b.t.Helper()
	m := formAction().FindStringSubmatch(page.Body)
	if m == nil {
		b.t.Fatalf("no form on %s:\n%s", page.URL, page.Body)
	}
	v := url.Values{}
	for _, h := range hiddenInput().FindAllStringSubmatch(page.Body, -1) {
		v.Set(h[1], unescape(h[2]))
	}
	for k, vs := range fields {
		v[k] = vs
	}
	return b.navigate(http.MethodPost, page.URL.ResolveReference(mustParse(b.t, unescape(m[1]))).String(), v, page.URL)
}

var (
	formAction  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<form[^>]*action="([^"]*)"`) })
	hiddenInput = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)"`)
	})
)

func unescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#43;", "+", "&#34;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">").Replace(s)
}

// navigate is a top-level navigation from initiator (nil: typed by the
// person), following redirects. A request is cross-site when any URL of
// its redirect chain, or the initiator, is of another site than its own;
// a cross-site navigation carries Lax cookies (GET only), never Strict.
func (b *Browser) navigate(method, rawURL string, form url.Values, initiator *url.URL) Page {
	b.t.Helper()
	u := mustParse(b.t, rawURL)
	var chain []*url.URL
	if initiator != nil {
		chain = append(chain, initiator)
	}
	for range 20 {
		cross := false
		for _, c := range chain {
			cross = cross || site(c) != site(u)
		}
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, err := http.NewRequest(method, u.String(), body)
		if err != nil {
			b.t.Fatal(err)
		}
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		switch {
		case initiator == nil && len(chain) == 0:
			req.Header.Set("Sec-Fetch-Site", "none")
		case cross:
			req.Header.Set("Sec-Fetch-Site", "cross-site")
		case initiator != nil && origin(initiator) == origin(u):
			req.Header.Set("Sec-Fetch-Site", "same-origin")
		default:
			req.Header.Set("Sec-Fetch-Site", "same-site")
		}
		req.Header.Set("Sec-Fetch-Mode", "navigate")
		if method != http.MethodGet && initiator != nil {
			req.Header.Set("Origin", origin(initiator))
		}
		b.attach(req, !cross, method == http.MethodGet)
		resp := b.do(req)
		loc := resp.Header.Get("Location")
		switch resp.Status {
		case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
			if loc == "" {
				return resp
			}
			next := u.ResolveReference(mustParse(b.t, loc))
			if b.StopAt != "" && strings.HasPrefix(next.String(), b.StopAt) {
				return resp
			}
			chain = append(chain, u)
			u = next
			if resp.Status != http.StatusTemporaryRedirect && resp.Status != http.StatusPermanentRedirect {
				method, form = http.MethodGet, nil
			}
			continue
		}
		return resp
	}
	b.t.Fatalf("more than 20 redirects from %s", rawURL)
	return Page{}
}

// Fetch sends req as a script of page would (fetch with credentials
// "same-origin"): cookies only when it goes to page's own origin (and
// then Strict ones too), no redirects followed.
func (b *Browser) Fetch(page Page, req *http.Request) Page {
	b.t.Helper()
	req.RequestURI = "" // a request made with httptest.NewRequest
	if req.URL.Host == "" {
		req.URL = page.URL.ResolveReference(req.URL)
		req.Host = req.URL.Host
	}
	same := origin(page.URL) == origin(req.URL)
	switch {
	case same:
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	case site(page.URL) == site(req.URL):
		req.Header.Set("Sec-Fetch-Site", "same-site")
	default:
		req.Header.Set("Sec-Fetch-Site", "cross-site")
	}
	req.Header.Set("Sec-Fetch-Mode", "cors")
	if req.Method != http.MethodGet && req.Method != http.MethodHead || !same {
		req.Header.Set("Origin", origin(page.URL))
	}
	if same {
		b.attach(req, true, false)
	}
	return b.do(req)
}

// Cookie returns the cookie named name the browser keeps for host.
func (b *Browser) Cookie(host, name string) *http.Cookie {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.jar[host][name]
}

// SetCookie keeps c for host, as a response setting it would (MaxAge
// below 0 deletes it).
func (b *Browser) SetCookie(host string, c *http.Cookie) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.MaxAge < 0 {
		delete(b.jar[host], c.Name)
		return
	}
	if b.jar[host] == nil {
		b.jar[host] = map[string]*http.Cookie{}
	}
	b.jar[host][c.Name] = c
}

// CookiesSentTo returns the names of the cookies the browser sent with
// each request whose URL begins with prefix.
func (b *Browser) CookiesSentTo(prefix string) [][]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out [][]string
	for _, s := range b.sent {
		if strings.HasPrefix(s.URL, prefix) {
			out = append(out, s.Cookies)
		}
	}
	return out
}

// attach adds the cookies req may carry: sameSite, or a top-level GET
// navigation for Lax ones.
func (b *Browser) attach(req *http.Request, sameSite, topLevelGet bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var names []string
	for _, c := range b.jar[req.URL.Hostname()] {
		if c.Secure && req.URL.Scheme != "https" {
			continue
		}
		switch c.SameSite {
		case http.SameSiteStrictMode:
			if !sameSite {
				continue
			}
		case http.SameSiteNoneMode:
		default: // Lax, and unset, which browsers take as Lax
			if !sameSite && !topLevelGet {
				continue
			}
		}
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
		names = append(names, c.Name)
	}
	b.sent = append(b.sent, sentRequest{URL: req.URL.String(), Cookies: names})
}

// do sends req and keeps the cookies the response sets.
func (b *Browser) do(req *http.Request) Page {
	b.t.Helper()
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	b.mu.Lock()
	host := req.URL.Hostname()
	for _, c := range resp.Cookies() {
		if b.jar[host] == nil {
			b.jar[host] = map[string]*http.Cookie{}
		}
		if c.MaxAge < 0 || c.Value == "" {
			delete(b.jar[host], c.Name)
			continue
		}
		b.jar[host][c.Name] = c
	}
	b.mu.Unlock()
	return Page{URL: req.URL, Status: resp.StatusCode, Header: resp.Header, Body: string(body)}
}

func mustParse(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
