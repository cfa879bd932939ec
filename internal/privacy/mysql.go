package privacy

import "github.com/quarrydata/quarry/internal/quarry"

// aggregatedMySQL is not written yet: a MySQL or MariaDB result under
// aggregates-only is withheld from the model whole.
func aggregatedMySQL(string, *quarry.Catalog) (*Plan, error) {
	return nil, refuse("quarry cannot yet prove a MySQL result aggregated; the result is withheld")
}
