package config

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/goldentest"
)

func TestRedactedGolden(t *testing.T) {
	src := "version: 1\nproject: shop\nconnection: wh\nconnections:\n" +
		"  local:\n    driver: sqlite\n    path: shop.db\n" +
		"  wh:\n    driver: postgres\n    url: ${DATABASE_URL}\n" +
		"  spare:\n    driver: mysql\n    url: ${SPARE_URL:-mysql://reader@localhost/shop}\n" +
		"model:\n  provider: anthropic\n" +
		"guard:\n  extra_functions: [similarity]\n"
	cfg, err := Parse([]byte(src), "/p/quarry.yaml", Lookup(testEnv(nil)))
	if err != nil {
		t.Fatal(err)
	}
	y, err := cfg.Redacted()
	if err != nil {
		t.Fatal(err)
	}
	j, err := cfg.RedactedJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(j) {
		t.Fatalf("RedactedJSON is not JSON: %s", j)
	}
	for name, got := range map[string][]byte{"testdata/redacted.yaml.golden": y, "testdata/redacted.json.golden": j} {
		if goldentest.Update() {
			if err := os.WriteFile(name, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
