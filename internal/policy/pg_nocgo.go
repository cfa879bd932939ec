//go:build !cgo

package policy

import "errors"

// readPostgres needs PostgreSQL's parser, which this build (without cgo)
// does not have: statements are then refused while the policy restricts
// columns.
func readPostgres(string) (*Query, error) {
	return nil, errors.New("this build of quarry has no PostgreSQL parser (it was built without cgo)")
}
