package runtime

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/config"
)

// TestLocalFilesNeverNamedByTheStateURL: with the state on PostgreSQL the
// project's own files go to its .quarry folder; a path made of the URL
// would write the state's password into a folder name.
func TestLocalFilesNeverNamedByTheStateURL(t *testing.T) {
	cfg := &config.Config{Dir: "/srv/quarry", State: "postgres://quarry:s3cret@db.internal:5432/quarry?sslmode=require"}
	alerts, memory := WatchFiles(cfg)
	for _, p := range []string{checkedFile(cfg), alerts, memory, localDir(cfg)} {
		if strings.Contains(p, "s3cret") || strings.Contains(p, "db.internal") || !strings.HasPrefix(p, filepath.Join("/srv/quarry", ".quarry")) {
			t.Errorf("a local file at %s", p)
		}
	}
	cfg = &config.Config{Dir: "/srv/quarry", State: "/var/lib/quarry/state.db"}
	if got := checkedFile(cfg); got != "/var/lib/quarry/models-checked.json" {
		t.Errorf("beside a state file: %s", got)
	}
}
