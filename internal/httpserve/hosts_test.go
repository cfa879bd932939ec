package httpserve_test

import (
	"testing"

	"github.com/quarrydata/quarry/internal/httpserve"
)

// TestHosts: a server answers to its own address and localhost's names on
// its port; one bound to every interface also to IP literals on its port;
// never to a name someone else controls (DNS rebinding).
func TestHosts(t *testing.T) {
	for _, tc := range []struct {
		bound string
		host  string
		want  bool
	}{
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "LOCALHOST:8080", true},
		{"127.0.0.1:8080", "[::1]:8080", true},
		{"127.0.0.1:8080", "localhost:8081", false},
		{"127.0.0.1:8080", "attacker.example:8080", false},
		{"127.0.0.1:8080", "10.0.0.7:8080", false},
		{"127.0.0.1:8080", "localhost", false},
		{"0.0.0.0:8080", "10.0.0.7:8080", true},
		{"0.0.0.0:8080", "[fe80::1]:8080", true},
		{"0.0.0.0:8080", "10.0.0.7:9090", false},
		{"0.0.0.0:8080", "attacker.example:8080", false},
		{"quarry.lan:8080", "quarry.lan:8080", true},
	} {
		h, ok := httpserve.NewHosts(tc.bound)
		if !ok {
			t.Fatalf("NewHosts(%q) refused", tc.bound)
		}
		if got := h.Allowed(tc.host); got != tc.want {
			t.Errorf("bound %s, Host %s: allowed %v, want %v", tc.bound, tc.host, got, tc.want)
		}
	}
	for _, bad := range []string{"127.0.0.1", "127.0.0.1:0", "", ":"} {
		if _, ok := httpserve.NewHosts(bad); ok {
			t.Errorf("NewHosts(%q) accepted an address without a port", bad)
		}
	}
}

// TestHostsWithPublic: behind a TLS proxy the server also answers to the
// host of its public URL, with or without the scheme's port, and to
// nothing else.
func TestHostsWithPublic(t *testing.T) {
	h, _ := httpserve.NewHosts("0.0.0.0:8000")
	for _, tc := range []struct {
		public, host string
		want         bool
	}{
		{"https://quarry.example.com", "quarry.example.com", true},
		{"https://quarry.example.com", "Quarry.Example.com:443", true},
		{"https://quarry.example.com", "quarry.example.com:8000", false},
		{"https://quarry.example.com", "evil.example.com", false},
		{"http://quarry.lan:8080", "quarry.lan:8080", true},
		{"http://quarry.lan:8080", "quarry.lan", false},
		{"https://quarry.example.com", "10.0.0.7:8000", true}, // still its own address
		{"not a url", "not a url", false},
		{"ftp://quarry.example.com", "quarry.example.com", false},
	} {
		if got := h.WithPublic(tc.public).Allowed(tc.host); got != tc.want {
			t.Errorf("public %s, Host %s: allowed %v, want %v", tc.public, tc.host, got, tc.want)
		}
	}
	if h.Allowed("quarry.example.com") {
		t.Error("WithPublic changed the Hosts it was called on")
	}
}
