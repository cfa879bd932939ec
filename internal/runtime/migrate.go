package runtime

import "github.com/quarrydata/quarry/internal/knowledge"

// MigrateKnowledge splits the model.yaml of the knowledge folder dir (""
// for the project's) into one file per entity in entities/
// (knowledge.Migrate), and returns the folder it migrated.
func (r *Runtime) MigrateKnowledge(dir string) (*knowledge.MigrateReport, string, error) {
	if dir == "" {
		cfg, err := r.Config()
		if err != nil {
			return nil, "", err
		}
		dir = cfg.Knowledge
	}
	rep, err := knowledge.Migrate(dir)
	r.Reload()
	return rep, dir, err
}
