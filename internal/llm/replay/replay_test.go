package replay_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/llm/replay"
)

const key = "sk-secret-KEY-5f1a9c"

// TestRecorderDropsCredentials proves that no credential reaches a cassette
// file: not in headers, not in the body, not in the query, not in the
// response.
func TestRecorderDropsCredentials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Set-Cookie", "session="+key)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"echo":"`+strings.TrimPrefix(r.Header.Get("X-Api-Key"), "Bearer ")+`","ok":true}`)
	}))
	defer srv.Close()
	rec := &replay.Recorder{Keys: []string{key}}
	client := &http.Client{Transport: rec}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/messages?key="+key, strings.NewReader(`{"model":"m","note":"`+key+`"}`))
	for _, h := range []string{"Authorization", "X-Api-Key", "Api-Key", "Cookie", "Proxy-Authorization", "X-Goog-Api-Key"} {
		req.Header.Set(h, "Bearer "+key)
	}
	req.Header.Set("Anthropic-Version", "2026-10-21")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), key) {
		t.Fatal("the recorder changed the live response")
	}
	path := filepath.Join(t.TempDir(), "c.json")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, bad := range []string{key, "Bearer", "Authorization", "X-Api-Key", "Api-Key", "Cookie"} {
		if strings.Contains(text, bad) {
			t.Errorf("the cassette holds %q:\n%s", bad, text)
		}
	}
	if !strings.Contains(text, "Anthropic-Version") || !strings.Contains(text, `"/v1/messages"`) {
		t.Errorf("the cassette lost what it should keep:\n%s", text)
	}
}

func TestReplayerMatchesNormalisedJSON(t *testing.T) {
	c := replay.Cassette{Exchanges: []replay.Exchange{
		{Request: replay.RecordedRequest{Method: "POST", Path: "/v1/x", Body: []byte(`{"b":2,"a":[1, 2]}`)}, Response: replay.RecordedResponse{Status: 200, Body: "first"}},
		{Request: replay.RecordedRequest{Method: "POST", Path: "/v1/x", Body: []byte(`{"a":[1,2],"b":2}`)}, Response: replay.RecordedResponse{Status: 429, Header: http.Header{"Retry-After": {"3"}}, Body: "second"}},
	}}
	rp := replay.NewReplayer(c)
	client := &http.Client{Transport: rp}
	for _, want := range []string{"first", "second"} {
		resp, err := client.Post("http://nowhere.invalid/v1/x", "application/json", strings.NewReader(`{ "a": [1,2], "b": 2 }`))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(got) != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	if _, err := client.Post("http://nowhere.invalid/v1/x", "application/json", strings.NewReader(`{"a":[1,2],"b":2}`)); err == nil || !strings.Contains(err.Error(), "no unused exchange for POST /v1/x") {
		t.Errorf("a third request: %v", err)
	}
	if _, err := client.Post("http://nowhere.invalid/v1/y", "application/json", strings.NewReader(`{}`)); err == nil {
		t.Error("an unknown path was answered")
	}
}
