package runtime

import (
	"context"

	"github.com/quarrydata/quarry/internal/knowledge"
)

// MigrateKnowledge splits the model.yaml of the knowledge folder dir (""
// for the project's) into one file per entity in entities/
// (knowledge.Migrate), and returns the folder it migrated. Canceling ctx
// before the migration's commit point leaves the folder as it was.
func (r *Runtime) MigrateKnowledge(ctx context.Context, dir string) (*knowledge.MigrateReport, string, error) {
	if dir == "" {
		cfg, err := r.Config()
		if err != nil {
			return nil, "", err
		}
		dir = cfg.Knowledge
	}
	rep, err := knowledge.Migrate(ctx, dir)
	r.Reload()
	return rep, dir, err
}
