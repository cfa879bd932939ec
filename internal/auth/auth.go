// Package auth says who is asking a shared quarry and what they may do:
// people with a role (admin, analyst, viewer) and the connections they may
// use, API tokens made from randomness the caller hands in and kept only
// as their SHA-256, browser sign-ins made with a token or through an
// OpenID Connect provider (a cookie holding a random secret, also kept
// hashed, with an expiry), the HTTP gate that
// checks them in front of quarry serve's routes and quarry mcp --http, and
// a view of the state store that shows each person only their own runs
// and sessions and records them as the owner of the runs they start.
//
// Nothing here reads the clock or the random source itself: both come in
// (Gate.Clock, Gate.Rand, NewToken's reader). docs/auth.md is the user's
// guide.
package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"io"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// Role is what a person may do.
type Role string

// The roles, from most to least powerful.
const (
	// Admin may do everything and sees every run.
	Admin Role = "admin"
	// Analyst may ask questions, run SQL and workflows on the connections
	// they may use, and sees their own runs.
	Analyst Role = "analyst"
	// Viewer may read their own runs, results and sessions, and starts
	// nothing.
	Viewer Role = "viewer"
)

// Roles lists the roles, for messages and flags.
func Roles() []Role { return []Role{Admin, Analyst, Viewer} }

// ParseRole reads a role's name.
func ParseRole(s string) (Role, error) {
	r := Role(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Roles(), r) {
		return r, nil
	}
	return "", quarry.Errorf(quarry.KindUsage, "no role %q; give admin, analyst or viewer", s)
}

// Person is who is asking: a person of the state with their role.
type Person struct {
	Name string
	Role Role
	// Connections the person may use; empty: all of them.
	Connections []string
	// Groups the person is in: those quarry users gave them, and those
	// the identity provider named when they signed in with OpenID Connect
	// (auth.oidc.groups_claim). The project's policy.yaml says what their
	// members may not read (runtime.Options.Groups).
	Groups []string
}

// PersonOf is the Person a stored user is.
func PersonOf(u store.User) Person {
	return Person{Name: u.Name, Role: Role(u.Role), Connections: u.Connections, Groups: u.Groups}
}

// GroupsOf returns the groups of the person a request is made for (none
// when nobody signed in).
func GroupsOf(ctx context.Context) []string {
	p, _ := From(ctx)
	return p.Groups
}

// MayStart reports whether the person may start runs (ask, run SQL,
// rerun, run workflows) on the named connection: admins anywhere,
// analysts on the connections they were given (all when none were),
// viewers never. It returns the reason when not.
func (p Person) MayStart(connection string) (bool, string) {
	switch p.Role {
	case Admin:
		return true, ""
	case Analyst:
		if len(p.Connections) == 0 || slices.Contains(p.Connections, connection) {
			return true, ""
		}
		return false, p.Name + " may not use connection " + connection + "; ask an admin to add it with `quarry users set-connections`"
	}
	return false, p.Name + " is a viewer: viewers read runs but start none; ask an admin for the analyst role"
}

// MayApprove reports whether the person may approve or refuse a
// statement that waits for approval (docs/approval.md): admins, their own
// statements too (an admin may run anything anyway); nobody else, the
// person who asked included. It returns the reason when not.
func (p Person) MayApprove() (bool, string) {
	if p.Role == Admin {
		return true, ""
	}
	return false, p.Name + " is " + article(p.Role) + ": only an admin approves or refuses a statement that waits for approval"
}

func article(r Role) string {
	if strings.HasPrefix(string(r), "a") {
		return "an " + string(r)
	}
	return "a " + string(r)
}

// SeesAll reports whether the person sees every run, not only their own.
func (p Person) SeesAll() bool { return p.Role == Admin }

type personKey struct{}

// NewContext returns ctx carrying the person who is asking; the runs
// recorded under it name them as the owner (event.WithOwner).
func NewContext(ctx context.Context, p Person) context.Context {
	return event.WithOwner(context.WithValue(ctx, personKey{}, p), p.Name)
}

// From returns the person who is asking, when a gate put one in ctx.
func From(ctx context.Context) (Person, bool) {
	p, ok := ctx.Value(personKey{}).(Person)
	return p, ok
}

// TokenPrefix begins every API token, so that a token pasted somewhere
// it should not be is recognisable (by people and secret scanners).
const TokenPrefix = "qry_"

// secretBytes is how much randomness a token or a sign-in holds.
const secretBytes = 32

// encoding writes secrets in lower-case base32 without padding: no
// characters that need quoting in a header, a cookie or a shell.
func encoding() *base32.Encoding {
	return base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)
}

// NewToken makes an API token's secret from 32 bytes of rand, and its
// hash, the only part that is stored.
func NewToken(rand io.Reader) (secret, hash string, err error) {
	s, err := newSecret(rand)
	if err != nil {
		return "", "", err
	}
	secret = TokenPrefix + s
	return secret, Hash(secret), nil
}

// newSecret is 32 bytes of rand, encoded.
func newSecret(rand io.Reader) (string, error) {
	b := make([]byte, secretBytes)
	if _, err := io.ReadFull(rand, b); err != nil {
		return "", quarry.Wrap(quarry.KindInternal, err, "read randomness for a secret")
	}
	return encoding().EncodeToString(b), nil
}

// Hash is how a secret is kept: "sha256:" and the hex of its SHA-256.
func Hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// wellFormed reports whether s looks like a token quarry made, so that
// anything else is refused before the state is asked.
func wellFormed(s string) bool {
	body, ok := strings.CutPrefix(s, TokenPrefix)
	if !ok || len(body) != encoding().EncodedLen(secretBytes) {
		return false
	}
	_, err := encoding().DecodeString(body)
	return err == nil
}

// sameHash compares two hashes in time that does not depend on where
// they differ.
func sameHash(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
