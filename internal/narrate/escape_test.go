package narrate

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/mdhtml"
	"github.com/quarrydata/quarry/internal/quarry"
)

// TestDataIsText: values from the data reach the answer's Markdown as text:
// a product named as a Markdown link plants no link (found from outside:
// "[ok](http://evil.example/login)" became a live link in the answer's
// sentence), a name that is HTML is shown, not dropped, and the terminal,
// the headline and the web table's cells show each name as it is.
func TestDataIsText(t *testing.T) {
	names := []string{"[ok](http://evil.example/login)", "<img src=x onerror=alert(1)>", "**loud**", "snake_case_name", "AT&T", "a|b", "_x_", "![a](http://attacker/p.png)", "back\\slash", "`tick`"}
	tbl := &quarry.Table{Columns: []quarry.Column{col("product", quarry.TypeText), col("units", quarry.TypeInt)}}
	for i, n := range names {
		tbl.Rows = append(tbl.Rows, []any{n, int64(100 - i)})
	}
	infos := []ColumnInfo{{Name: "product", Role: RoleDimension}, {Name: "units", Role: RoleMetric, Format: FormatInteger}}
	a := Compose(AnswerInput{Title: "Units by product", Table: tbl, Columns: infos, PreviewRows: len(names)})
	html := mdhtml.Render(a.Markdown)
	if strings.Contains(html, "<a ") || strings.Contains(html, "<strong>loud") || strings.Contains(html, "<em>x") {
		t.Errorf("data read as markup:\n%s\n%s", a.Markdown, html)
	}
	plain := Plain(a.Markdown)
	for _, n := range names {
		if esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(n); !strings.Contains(html, esc) {
			t.Errorf("the HTML lacks %q (as %q):\n%s", n, esc, html)
		}
		if !strings.Contains(plain, n) {
			t.Errorf("the terminal lacks %q:\n%s", n, plain)
		}
	}
	if !strings.HasPrefix(a.Headline, "Units by product: [ok](http://evil.example/login) leads with 100") {
		t.Errorf("headline %q", a.Headline)
	}
	if got := a.Cells[0][0]; got != names[0] {
		t.Errorf("cell %q, want the name as it is", got)
	}
}
