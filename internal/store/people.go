package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// People is the part of the state that says who may use a shared quarry:
// people (users) with a role and the connections they may use, their API
// tokens, and the browser sign-ins made with them. Secrets are never
// stored: a token and a sign-in are kept as the SHA-256 of their secret
// (internal/auth makes and checks them).
type People interface {
	// AddUser stores a new person; a name in use is KindConflict.
	AddUser(ctx context.Context, u User) error
	// User returns a person by exact name, or a KindNotFound error.
	User(ctx context.Context, name string) (User, error)
	// Users returns every person, by name.
	Users(ctx context.Context) ([]User, error)
	// RemoveUser deletes a person, revokes their tokens at time at and
	// deletes their sign-ins. Their runs stay.
	RemoveUser(ctx context.Context, name string, at time.Time) error
	// SetRole changes a person's role.
	SetRole(ctx context.Context, name, role string) error
	// SetGroups replaces the groups a person is in.
	SetGroups(ctx context.Context, name string, groups []string) error
	// SetConnections replaces the connections a person may use (none:
	// all).
	SetConnections(ctx context.Context, name string, conns []string) error
	// SetApproval turns approval mode on or off for a person: every
	// statement a language model proposes for them waits for an admin's
	// approval (docs/approval.md).
	SetApproval(ctx context.Context, name string, on bool) error

	// CreateToken stores a new token (its hash, never its secret) of an
	// existing person; an unknown person is KindNotFound.
	CreateToken(ctx context.Context, t Token) error
	// Tokens returns every token, revoked ones too, oldest first.
	Tokens(ctx context.Context) ([]Token, error)
	// TokenByHash returns the token whose secret hashes to hash, revoked
	// or not, or a KindNotFound error.
	TokenByHash(ctx context.Context, hash string) (Token, error)
	// RevokeToken revokes a token by ID at time at; revoking it again
	// keeps the first time. An unknown ID is KindNotFound.
	RevokeToken(ctx context.Context, id string, at time.Time) error
	// TouchToken records that a token was used at time at.
	TouchToken(ctx context.Context, id string, at time.Time) error

	// CreateSignIn stores a browser sign-in (its hash, never its secret).
	CreateSignIn(ctx context.Context, s SignIn) error
	// SignInByHash returns the sign-in whose secret hashes to hash, or a
	// KindNotFound error; an expired one is returned as it is.
	SignInByHash(ctx context.Context, hash string) (SignIn, error)
	// DeleteSignIn deletes a sign-in (signing out); an unknown one is no
	// error.
	DeleteSignIn(ctx context.Context, hash string) error
}

// User is a person who may use a shared quarry.
type User struct {
	Name string `json:"name"`
	// Role is "admin", "analyst" or "viewer" (internal/auth).
	Role string `json:"role"`
	// Connections are the connections the person may use; empty: all.
	Connections []string `json:"connections,omitempty"`
	// Groups are the groups the person is in (policy.yaml's groups:
	// restrict what their members read).
	Groups    []string  `json:"groups,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	// Approval: every statement a language model proposes for this
	// person waits for an admin's approval before it runs.
	Approval bool `json:"approval,omitempty"`
}

// Token is an API token of a person. Hash is the SHA-256 of its secret;
// the secret itself is shown once, when it is made, and never stored.
type Token struct {
	ID        string    `json:"id"`
	User      string    `json:"user"`
	Label     string    `json:"label,omitempty"`
	Hash      string    `json:"-"`
	CreatedAt time.Time `json:"created_at"`
	LastUsed  time.Time `json:"last_used,omitzero"`
	RevokedAt time.Time `json:"revoked_at,omitzero"`
}

// SignIn is a browser's signed-in session: the cookie holds its secret,
// the state the secret's hash.
type SignIn struct {
	Hash    string
	User    string
	TokenID string // the token it was made with; "" for OpenID Connect
	// Groups are the groups the identity provider said the person is in
	// when they signed in with OpenID Connect (auth.oidc.groups_claim);
	// nil when it said none or the sign-in was made with a token.
	Groups    []string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// CheckUser rejects a person the state must never hold.
func CheckUser(u User) error {
	if u.Name == "" || u.Role == "" || u.CreatedAt.IsZero() {
		return quarry.Errorf(quarry.KindInternal, "a person needs a name, a role and a creation time")
	}
	return nil
}

// Flag is how both backends store a yes or no: 1 or 0.
func Flag(on bool) int {
	if on {
		return 1
	}
	return 0
}

// EncodeNames is how both backends store a list of names: a
// person's connections and groups, and the groups of a sign-in.
func EncodeNames(cs []string) string {
	if len(cs) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(cs)
	return string(b)
}

// DecodeNames reads what EncodeNames wrote.
func DecodeNames(s string) ([]string, error) {
	var cs []string
	if err := json.Unmarshal([]byte(s), &cs); err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, nil
	}
	return cs, nil
}

// NoUser is the error for a person who is not in the state.
func NoUser(name string) error {
	return quarry.Errorf(quarry.KindNotFound, "no person %q; list them with `quarry users list`", name)
}

// NoToken is the error for a token ID that matches nothing.
func NoToken(id string) error {
	return quarry.Errorf(quarry.KindNotFound, "no token %q; list them with `quarry tokens list`", id)
}

// NoSignIn is the error for a sign-in that is not in the state.
func NoSignIn() error {
	return quarry.Errorf(quarry.KindNotFound, "no such sign-in; sign in again")
}
