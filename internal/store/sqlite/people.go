package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// AddUser stores a new person; a name in use is KindConflict.
func (s *Store) AddUser(ctx context.Context, u store.User) error {
	if err := store.CheckUser(u); err != nil {
		return err
	}
	res, err := s.exec(ctx, `INSERT INTO users (name, role, connections, group_names, created_at, approval) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
		u.Name, u.Role, store.EncodeNames(u.Connections), store.EncodeNames(u.Groups), store.FormatTime(u.CreatedAt), store.Flag(u.Approval))
	if err != nil {
		return s.dbErr(ctx, err, "add person %s", u.Name)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return quarry.Errorf(quarry.KindConflict, "person %q already exists; change their role with `quarry users set-role`", u.Name)
	}
	return nil
}

const userCols = `name, role, connections, group_names, created_at, approval`

// User returns a person by exact name.
func (s *Store) User(ctx context.Context, name string) (store.User, error) {
	u, err := scanUser(s.db.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return store.User{}, store.NoUser(name)
	}
	if err != nil {
		return store.User{}, s.dbErr(ctx, err, "read person %s", name)
	}
	return u, nil
}

// Users returns every person, by name.
func (s *Store) Users(ctx context.Context) ([]store.User, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+userCols+` FROM users ORDER BY name`)
	if err != nil {
		return nil, s.dbErr(ctx, err, "list people")
	}
	defer rows.Close()
	var out []store.User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, s.dbErr(ctx, err, "list people")
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, s.dbErr(ctx, err, "list people")
	}
	return out, nil
}

// RemoveUser deletes a person, revokes their tokens and deletes their
// sign-ins, in one transaction.
func (s *Store) RemoveUser(ctx context.Context, name string, at time.Time) error {
	found := false
	err := s.inTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM users WHERE name = ?`, name)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		found = true
		if _, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked_at = ? WHERE user_name = ? AND revoked_at = ''`, store.FormatTime(at), name); err != nil {
			return err
		}
		// What was shared with them goes with them: someone given their
		// name later must not read it.
		if _, err := tx.ExecContext(ctx, `DELETE FROM shares WHERE grantee = ?`, name); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM sign_ins WHERE user_name = ?`, name)
		return err
	})
	if err != nil {
		return s.dbErr(ctx, err, "remove person %s", name)
	}
	if !found {
		return store.NoUser(name)
	}
	return nil
}

// SetRole changes a person's role.
func (s *Store) SetRole(ctx context.Context, name, role string) error {
	res, err := s.exec(ctx, `UPDATE users SET role = ? WHERE name = ?`, role, name)
	if err != nil {
		return s.dbErr(ctx, err, "set the role of %s", name)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return store.NoUser(name)
	}
	return nil
}

// SetGroups replaces the groups a person is in.
func (s *Store) SetGroups(ctx context.Context, name string, groups []string) error {
	res, err := s.exec(ctx, `UPDATE users SET group_names = ? WHERE name = ?`, store.EncodeNames(groups), name)
	if err != nil {
		return s.dbErr(ctx, err, "set the groups of %s", name)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return store.NoUser(name)
	}
	return nil
}

// SetConnections replaces the connections a person may use.
func (s *Store) SetConnections(ctx context.Context, name string, conns []string) error {
	res, err := s.exec(ctx, `UPDATE users SET connections = ? WHERE name = ?`, store.EncodeNames(conns), name)
	if err != nil {
		return s.dbErr(ctx, err, "set the connections of %s", name)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return store.NoUser(name)
	}
	return nil
}

// SetApproval turns approval mode on or off for a person.
func (s *Store) SetApproval(ctx context.Context, name string, on bool) error {
	res, err := s.exec(ctx, `UPDATE users SET approval = ? WHERE name = ?`, store.Flag(on), name)
	if err != nil {
		return s.dbErr(ctx, err, "set the approval mode of %s", name)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return store.NoUser(name)
	}
	return nil
}

// CreateToken stores a new token of an existing person.
func (s *Store) CreateToken(ctx context.Context, t store.Token) error {
	if t.ID == "" || t.Hash == "" || t.CreatedAt.IsZero() {
		return quarry.Errorf(quarry.KindInternal, "a token needs an ID, a hash and a creation time")
	}
	err := s.inTx(ctx, func(ctx context.Context, tx *txn) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE name = ?`, t.User).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return store.NoUser(t.User)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tokens (id, user_name, label, hash, created_at) VALUES (?, ?, ?, ?, ?)`,
			t.ID, t.User, t.Label, t.Hash, store.FormatTime(t.CreatedAt))
		return err
	})
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return err
	}
	if err != nil {
		return s.dbErr(ctx, err, "create a token for %s", t.User)
	}
	return nil
}

const tokenCols = `id, user_name, label, hash, created_at, last_used, revoked_at`

// Tokens returns every token, oldest first.
func (s *Store) Tokens(ctx context.Context) ([]store.Token, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+tokenCols+` FROM tokens ORDER BY created_at, id`)
	if err != nil {
		return nil, s.dbErr(ctx, err, "list tokens")
	}
	defer rows.Close()
	var out []store.Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, s.dbErr(ctx, err, "list tokens")
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, s.dbErr(ctx, err, "list tokens")
	}
	return out, nil
}

// TokenByHash returns the token whose secret hashes to hash.
func (s *Store) TokenByHash(ctx context.Context, hash string) (store.Token, error) {
	t, err := scanToken(s.db.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Token{}, store.NoToken("")
	}
	if err != nil {
		return store.Token{}, s.dbErr(ctx, err, "read a token")
	}
	return t, nil
}

// RevokeToken revokes a token and signs out the browsers signed in with
// it; revoking it again keeps the first time.
func (s *Store) RevokeToken(ctx context.Context, id string, at time.Time) error {
	found := false
	err := s.inTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked_at = CASE WHEN revoked_at = '' THEN ? ELSE revoked_at END WHERE id = ?`, store.FormatTime(at), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		found = true
		_, err = tx.ExecContext(ctx, `DELETE FROM sign_ins WHERE token_id = ?`, id)
		return err
	})
	if err != nil {
		return s.dbErr(ctx, err, "revoke token %s", id)
	}
	if !found {
		return store.NoToken(id)
	}
	return nil
}

// TouchToken records that a token was used at time at.
func (s *Store) TouchToken(ctx context.Context, id string, at time.Time) error {
	if _, err := s.exec(ctx, `UPDATE tokens SET last_used = ? WHERE id = ?`, store.FormatTime(at), id); err != nil {
		return s.dbErr(ctx, err, "record the use of token %s", id)
	}
	return nil
}

// CreateSignIn stores a browser sign-in.
func (s *Store) CreateSignIn(ctx context.Context, si store.SignIn) error {
	if si.Hash == "" || si.User == "" || si.CreatedAt.IsZero() || si.ExpiresAt.IsZero() {
		return quarry.Errorf(quarry.KindInternal, "a sign-in needs a hash, a person, a creation and an expiry time")
	}
	_, err := s.exec(ctx, `INSERT INTO sign_ins (hash, user_name, token_id, groups, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
		si.Hash, si.User, si.TokenID, store.EncodeNames(si.Groups), store.FormatTime(si.CreatedAt), store.FormatTime(si.ExpiresAt))
	if err != nil {
		return s.dbErr(ctx, err, "store a sign-in of %s", si.User)
	}
	return nil
}

// SignInByHash returns the sign-in whose secret hashes to hash.
func (s *Store) SignInByHash(ctx context.Context, hash string) (store.SignIn, error) {
	var si store.SignIn
	var groups, created, expires string
	err := s.db.QueryRowContext(ctx, `SELECT hash, user_name, token_id, groups, created_at, expires_at FROM sign_ins WHERE hash = ?`, hash).
		Scan(&si.Hash, &si.User, &si.TokenID, &groups, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return store.SignIn{}, store.NoSignIn()
	}
	if err == nil {
		if si.CreatedAt, err = store.ParseTime(created); err == nil {
			if si.ExpiresAt, err = store.ParseTime(expires); err == nil {
				si.Groups, err = store.DecodeNames(groups)
			}
		}
	}
	if err != nil {
		return store.SignIn{}, s.dbErr(ctx, err, "read a sign-in")
	}
	return si, nil
}

// DeleteSignIn deletes a sign-in.
func (s *Store) DeleteSignIn(ctx context.Context, hash string) error {
	if _, err := s.exec(ctx, `DELETE FROM sign_ins WHERE hash = ?`, hash); err != nil {
		return s.dbErr(ctx, err, "sign out")
	}
	return nil
}

func scanUser(row scanner) (store.User, error) {
	var u store.User
	var conns, groups, created string
	var approval int
	if err := row.Scan(&u.Name, &u.Role, &conns, &groups, &created, &approval); err != nil {
		return store.User{}, err
	}
	u.Approval = approval == 1
	var err error
	if u.Connections, err = store.DecodeNames(conns); err != nil {
		return store.User{}, err
	}
	if u.Groups, err = store.DecodeNames(groups); err != nil {
		return store.User{}, err
	}
	if u.CreatedAt, err = store.ParseTime(created); err != nil {
		return store.User{}, err
	}
	return u, nil
}

func scanToken(row scanner) (store.Token, error) {
	var t store.Token
	var created, used, revoked string
	if err := row.Scan(&t.ID, &t.User, &t.Label, &t.Hash, &created, &used, &revoked); err != nil {
		return store.Token{}, err
	}
	var err error
	for _, f := range []struct {
		dst *time.Time
		s   string
	}{{&t.CreatedAt, created}, {&t.LastUsed, used}, {&t.RevokedAt, revoked}} {
		if *f.dst, err = store.ParseTime(f.s); err != nil {
			return store.Token{}, err
		}
	}
	return t, nil
}
