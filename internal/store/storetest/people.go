package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// testPeople: people round-trip with their role and connections, names are
// unique, roles change, and removing a person revokes their tokens and
// ends their sign-ins.
func testPeople(t *testing.T, s store.State) {
	ctx := context.Background()
	if us, err := s.Users(ctx); err != nil || len(us) != 0 {
		t.Fatalf("a new store has people %v (%v)", us, err)
	}
	ann := store.User{Name: "ann", Role: "admin", CreatedAt: T0}
	bob := store.User{Name: "bob", Role: "analyst", Connections: []string{"sales", "demo"}, CreatedAt: T0.Add(time.Second)}
	for _, u := range []store.User{bob, ann} {
		if err := s.AddUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	WantKind(t, s.AddUser(ctx, store.User{Name: "ann", Role: "viewer", CreatedAt: T0}), quarry.KindConflict)
	WantKind(t, s.AddUser(ctx, store.User{Name: "", Role: "viewer", CreatedAt: T0}), quarry.KindInternal)
	got, err := s.Users(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]store.User{ann, bob}, got); diff != "" {
		t.Errorf("Users (-want +got):\n%s", diff)
	}
	if err := s.SetRole(ctx, "bob", "viewer"); err != nil {
		t.Fatal(err)
	}
	if u, err := s.User(ctx, "bob"); err != nil || u.Role != "viewer" || len(u.Connections) != 2 {
		t.Errorf("bob after SetRole = %+v, %v", u, err)
	}
	WantKind(t, s.SetRole(ctx, "carol", "viewer"), quarry.KindNotFound)
	if err := s.SetGroups(ctx, "bob", []string{"support", "emea"}); err != nil {
		t.Fatal(err)
	}
	if u, err := s.User(ctx, "bob"); err != nil || !slices.Equal(u.Groups, []string{"support", "emea"}) || u.Role != "viewer" {
		t.Errorf("bob after SetGroups = %+v, %v", u, err)
	}
	if err := s.SetGroups(ctx, "bob", nil); err != nil {
		t.Fatal(err)
	}
	if u, err := s.User(ctx, "bob"); err != nil || u.Groups != nil {
		t.Errorf("bob after SetGroups(nil) = %+v, %v", u, err)
	}
	WantKind(t, s.SetGroups(ctx, "carol", []string{"x"}), quarry.KindNotFound)
	if err := s.SetConnections(ctx, "bob", []string{"demo"}); err != nil {
		t.Fatal(err)
	}
	if u, err := s.User(ctx, "bob"); err != nil || !slices.Equal(u.Connections, []string{"demo"}) {
		t.Errorf("bob after SetConnections = %+v, %v", u, err)
	}
	if err := s.SetConnections(ctx, "bob", nil); err != nil {
		t.Fatal(err)
	}
	if u, err := s.User(ctx, "bob"); err != nil || u.Connections != nil {
		t.Errorf("bob after SetConnections(nil) = %+v, %v", u, err)
	}
	WantKind(t, s.SetConnections(ctx, "carol", []string{"x"}), quarry.KindNotFound)
	if err := s.SetApproval(ctx, "bob", true); err != nil {
		t.Fatal(err)
	}
	if u, err := s.User(ctx, "bob"); err != nil || !u.Approval || u.Role != "viewer" {
		t.Errorf("bob after SetApproval(true) = %+v, %v", u, err)
	}
	if err := s.SetApproval(ctx, "bob", false); err != nil {
		t.Fatal(err)
	}
	if u, err := s.User(ctx, "bob"); err != nil || u.Approval {
		t.Errorf("bob after SetApproval(false) = %+v, %v", u, err)
	}
	WantKind(t, s.SetApproval(ctx, "carol", true), quarry.KindNotFound)
	dan := store.User{Name: "dan", Role: "analyst", Approval: true, CreatedAt: T0}
	if err := s.AddUser(ctx, dan); err != nil {
		t.Fatal(err)
	}
	if u, err := s.User(ctx, "dan"); err != nil || !cmp.Equal(u, dan) {
		t.Errorf("dan = %+v, %v; want %+v", u, err, dan)
	}
	_, err = s.User(ctx, "carol")
	WantKind(t, err, quarry.KindNotFound)

	tok := store.Token{ID: "tok_1", User: "bob", Label: "laptop", Hash: "sha256:aa", CreatedAt: T0}
	if err := s.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	si := store.SignIn{Hash: "sha256:s1", User: "bob", TokenID: "tok_1", CreatedAt: T0, ExpiresAt: T0.Add(time.Hour)}
	if err := s.CreateSignIn(ctx, si); err != nil {
		t.Fatal(err)
	}
	if err := s.ShareRun(ctx, store.Share{RunID: "r_shared", With: "bob", By: "ann", At: T0}); err != nil {
		t.Fatal(err)
	}
	at := T0.Add(time.Minute)
	if err := s.RemoveUser(ctx, "bob", at); err != nil {
		t.Fatal(err)
	}
	if shares, err := s.RunShares(ctx, "r_shared"); err != nil || len(shares) != 0 {
		t.Errorf("what was shared with bob outlives him: %v, %v", shares, err)
	}
	WantKind(t, s.RemoveUser(ctx, "bob", at), quarry.KindNotFound)
	_, err = s.User(ctx, "bob")
	WantKind(t, err, quarry.KindNotFound)
	if got, err := s.TokenByHash(ctx, "sha256:aa"); err != nil || !got.RevokedAt.Equal(at) {
		t.Errorf("bob's token after RemoveUser = %+v, %v; want it revoked at %v", got, err, at)
	}
	_, err = s.SignInByHash(ctx, "sha256:s1")
	WantKind(t, err, quarry.KindNotFound)
	// A person added again under the same name does not get the old
	// tokens back.
	if err := s.AddUser(ctx, store.User{Name: "bob", Role: "analyst", CreatedAt: at}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.TokenByHash(ctx, "sha256:aa"); err != nil || got.RevokedAt.IsZero() {
		t.Errorf("bob's old token after he was added again = %+v, %v; want it still revoked", got, err)
	}
}

// testTokens: tokens are stored by hash, listed, used, revoked once, and
// refused for people who do not exist.
func testTokens(t *testing.T, s store.State) {
	ctx := context.Background()
	if err := s.AddUser(ctx, store.User{Name: "ann", Role: "analyst", CreatedAt: T0}); err != nil {
		t.Fatal(err)
	}
	WantKind(t, s.CreateToken(ctx, store.Token{ID: "tok_x", User: "nobody", Hash: "sha256:xx", CreatedAt: T0}), quarry.KindNotFound)
	WantKind(t, s.CreateToken(ctx, store.Token{ID: "tok_x", User: "ann", CreatedAt: T0}), quarry.KindInternal)
	t1 := store.Token{ID: "tok_1", User: "ann", Label: "laptop", Hash: "sha256:11", CreatedAt: T0}
	t2 := store.Token{ID: "tok_2", User: "ann", Hash: "sha256:22", CreatedAt: T0.Add(time.Second)}
	for _, tk := range []store.Token{t2, t1} {
		if err := s.CreateToken(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateToken(ctx, store.Token{ID: "tok_3", User: "ann", Hash: "sha256:11", CreatedAt: T0}); err == nil {
		t.Error("a second token with the same hash was stored")
	}
	got, err := s.Tokens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]store.Token{t1, t2}, got); diff != "" {
		t.Errorf("Tokens (-want +got):\n%s", diff)
	}
	if _, err := s.TokenByHash(ctx, "sha256:33"); quarry.KindOf(err) != quarry.KindNotFound {
		t.Errorf("TokenByHash of an unknown hash: %v; want not_found", err)
	}
	used := T0.Add(time.Minute)
	if err := s.TouchToken(ctx, "tok_1", used); err != nil {
		t.Fatal(err)
	}
	if got, err := s.TokenByHash(ctx, "sha256:11"); err != nil || !got.LastUsed.Equal(used) || !got.RevokedAt.IsZero() {
		t.Errorf("after TouchToken: %+v, %v", got, err)
	}
	si := store.SignIn{Hash: "sha256:s1", User: "ann", TokenID: "tok_1", CreatedAt: T0, ExpiresAt: T0.Add(time.Hour)}
	other := store.SignIn{Hash: "sha256:s2", User: "ann", TokenID: "tok_2", CreatedAt: T0, ExpiresAt: T0.Add(time.Hour)}
	// A sign-in with OpenID Connect has no token and keeps the groups the
	// identity provider named.
	oidc := store.SignIn{Hash: "sha256:s3", User: "ann", Groups: []string{"analysts", "eu"}, CreatedAt: T0, ExpiresAt: T0.Add(time.Hour)}
	for _, x := range []store.SignIn{si, other, oidc} {
		if err := s.CreateSignIn(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	revoked := T0.Add(2 * time.Minute)
	if err := s.RevokeToken(ctx, "tok_1", revoked); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToken(ctx, "tok_1", revoked.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, err := s.TokenByHash(ctx, "sha256:11"); err != nil || !got.RevokedAt.Equal(revoked) {
		t.Errorf("after RevokeToken twice: %+v, %v; want revoked at %v", got, err, revoked)
	}
	WantKind(t, s.RevokeToken(ctx, "tok_nope", revoked), quarry.KindNotFound)
	// Revoking a token signs out the browsers signed in with it, and only
	// those.
	_, err = s.SignInByHash(ctx, si.Hash)
	WantKind(t, err, quarry.KindNotFound)
	if got, err := s.SignInByHash(ctx, other.Hash); err != nil {
		t.Errorf("the other token's sign-in: %v", err)
	} else if diff := cmp.Diff(other, got); diff != "" {
		t.Errorf("SignInByHash (-want +got):\n%s", diff)
	}
	if got, err := s.SignInByHash(ctx, oidc.Hash); err != nil {
		t.Errorf("the OpenID Connect sign-in: %v", err)
	} else if diff := cmp.Diff(oidc, got); diff != "" {
		t.Errorf("SignInByHash (-want +got):\n%s", diff)
	}
	if err := s.DeleteSignIn(ctx, other.Hash); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSignIn(ctx, other.Hash); err != nil {
		t.Errorf("signing out twice: %v", err)
	}
	_, err = s.SignInByHash(ctx, other.Hash)
	WantKind(t, err, quarry.KindNotFound)
}
