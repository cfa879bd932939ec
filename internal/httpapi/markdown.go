package httpapi

import (
	"bytes"
	stdhtml "html"
	"regexp"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// markdown renders answer Markdown to HTML that is safe to insert into the
// page: GFM tables with their alignment, no raw HTML, images as plain
// links, then a sanitiser over the whole output.
type markdown struct {
	md     goldmark.Markdown
	policy *bluemonday.Policy
}

func newMarkdown() *markdown {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(
			// Alignment as the align attribute: the CSP forbids inline
			// styles, and the sanitiser allows align with known values only.
			extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute),
			renderer.WithNodeRenderers(util.Prioritized(imageAsLink{}, 10)),
		),
	)
	p := bluemonday.UGCPolicy()
	// UGCPolicy drops the align attribute GFM tables use; keep it for the
	// three values a table cell may have, nothing else.
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|center|right)$`)).OnElements("th", "td")
	p.RequireNoReferrerOnLinks(true)
	return &markdown{md: md, policy: p}
}

// HTML renders src. Raw HTML in src is dropped (goldmark's default), and
// the sanitiser removes anything else unsafe.
func (m *markdown) HTML(src string) string {
	var buf bytes.Buffer
	if err := m.md.Convert([]byte(src), &buf); err != nil {
		return m.policy.Sanitize("<pre>" + stdhtml.EscapeString(src) + "</pre>")
	}
	return m.policy.Sanitize(buf.String())
}

// imageAsLink renders an image as a plain link to its destination, with
// the alt text as the link text: a model-written image never makes the
// browser fetch anything.
type imageAsLink struct{}

func (imageAsLink) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindImage, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		img := n.(*ast.Image)
		dest := util.URLEscape(img.Destination, true)
		w.WriteString(`<a href="`)
		if !html.IsDangerousURL(dest) {
			w.Write(util.EscapeHTML(dest))
		}
		w.WriteString(`">`)
		var alt bytes.Buffer
		for c := img.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				alt.Write(t.Segment.Value(src))
			} else if s, ok := c.(*ast.String); ok {
				alt.Write(s.Value)
			}
		}
		if alt.Len() == 0 {
			alt.Write(img.Destination)
		}
		w.Write(util.EscapeHTML(alt.Bytes()))
		w.WriteString(`</a>`)
		return ast.WalkSkipChildren, nil
	})
}
