//go:build !cgo

package privacy

import "github.com/quarrydata/quarry/internal/quarry"

// aggregatedPG needs PostgreSQL's parser, which this build (without cgo)
// does not have: no result is shown to be aggregated.
func aggregatedPG(quarry.Dialect, string, *quarry.Catalog) (*Plan, error) {
	return nil, refuse("this build of quarry has no SQL parser to prove a result aggregated (it was built without cgo)")
}
