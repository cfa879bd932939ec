package knowledge_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// TestLoadCRLF: files saved with CRLF line breaks, or with a byte order
// mark, load to the same model as with LF, and problems have the same
// line numbers.
func TestLoadCRLF(t *testing.T) {
	src := "# orders\nname: orders\ndescription: |\n  Orders placed.\n  One row each.\ncolumns:\n  - name: id\n    type: integer\n"
	var msgs []string
	for _, edit := range []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
		func(s string) string { return "\xEF\xBB\xBF" + strings.ReplaceAll(s, "\n", "\r\n") },
	} {
		dir := filepath.Join(t.TempDir(), "knowledge")
		writeAll(t, filepath.Join(dir, "entities", "orders.yaml"), edit(src))
		_, err := knowledge.Load(dir)
		if err == nil {
			t.Fatal("loaded an unknown type")
		}
		msgs = append(msgs, strings.TrimPrefix(quarry.Message(err), dir))
		writeAll(t, filepath.Join(dir, "entities", "orders.yaml"), edit(strings.Replace(src, "integer", "int", 1)))
		f := load(t, dir)
		if got := f.Model.Entity("orders").Description; got != "Orders placed.\nOne row each.\n" {
			t.Errorf("description %q", got)
		}
	}
	if msgs[0] != msgs[1] || msgs[0] != msgs[2] || !strings.HasPrefix(msgs[0], "/entities/orders.yaml:8: ") {
		t.Errorf("messages differ:\n%s", strings.Join(msgs, "\n"))
	}
}
