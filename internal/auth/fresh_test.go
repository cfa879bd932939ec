package auth

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/quarrydata/quarry/internal/store"
)

// memPeople is a state of people in memory whose first Users call reads
// the people and then waits for release: a query in flight while someone
// adds the first person.
type memPeople struct {
	People
	mu      sync.Mutex
	users   []store.User
	calls   int
	release chan struct{}
}

func (m *memPeople) Users(context.Context) ([]store.User, error) {
	m.mu.Lock()
	us := append([]store.User(nil), m.users...)
	m.calls++
	first := m.calls == 1
	m.mu.Unlock()
	if first {
		<-m.release
	}
	return us, nil
}

func (m *memPeople) add(u store.User) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.users = append(m.users, u)
}

// TestSignInOnForRequestsAfterTheFirstPerson is the attack on the shared
// check of whether sign-in is required: a request that arrives after the
// first person was added must not take the answer of a query that read
// the people before, though that query is still in flight when it comes.
func TestSignInOnForRequestsAfterTheFirstPerson(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &memPeople{release: make(chan struct{})}
		now := time.Date(2026, 6, 30, 9, 0, 0, 0, time.UTC)
		g := &Gate{People: m, Clock: func() time.Time { return now }, Rand: rand.Reader, Connection: "shop"}
		h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
		ask := func() *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/runs", nil))
			return rec
		}
		before := make(chan int)
		go func() { before <- ask().Code }()
		synctest.Wait() // its query has read no people, and waits
		m.add(store.User{Name: "ann", Role: "admin", CreatedAt: now})
		after := make(chan int)
		go func() { after <- ask().Code }()
		synctest.Wait() // the later request waits on the query in flight
		close(m.release)
		if code := <-before; code != http.StatusOK {
			t.Errorf("the request before anyone was added: %d, want 200", code)
		}
		if code := <-after; code != http.StatusUnauthorized {
			t.Errorf("a request after the first person was added, with no token: %d, want 401", code)
		}
		if m.calls != 2 {
			t.Errorf("%d queries, want 2 (the later request's own)", m.calls)
		}
	})
}
