package mdhtml

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/quarrydata/quarry/internal/goldentest"
)

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := Render(string(src))
			goldentest.Assert(t, strings.TrimSuffix(f, ".md")+".html", []byte(got))
			if err := check(got); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestRender(t *testing.T) {
	cases := []struct{ src, want string }{
		{"**Revenue** was `42`", "<p><strong>Revenue</strong> was <code>42</code></p>\n"},
		{"| a | b |\n|:--|--:|\n| 1 | 2 |\n", "<table>\n<thead>\n<tr>\n<th align=\"left\">a</th>\n<th align=\"right\">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td align=\"left\">1</td>\n<td align=\"right\">2</td>\n</tr>\n</tbody>\n</table>\n"},
		{"Look ![the chart](http://evil.example/x.png) here", `<p>Look <a href="http://evil.example/x.png" rel="nofollow noreferrer">the chart</a> here</p>` + "\n"},
		{"[click](javascript:alert(1))", "<p>click</p>\n"},
		{"a <b onclick=x>bold</b> c", "<p>a bold c</p>\n"},
		{"x < y & z > w", "<p>x &lt; y &amp; z &gt; w</p>\n"},
		{"- a\n- b\n", "<ul>\n<li>a\n</li>\n<li>b\n</li>\n</ul>\n"},
		{"- a\n\n- b\n", "<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n"},
		{"3. c\n4. d\n", "<ol start=\"3\">\n<li>c\n</li>\n<li>d\n</li>\n</ol>\n"},
		{"snake_case_name and 2 * 3 * 4", "<p>snake_case_name and 2 * 3 * 4</p>\n"},
		{"*a **b** c*", "<p><em>a <strong>b</strong> c</em></p>\n"},
		{"**unclosed", "<p>**unclosed</p>\n"},
		{"``a ` b``", "<p><code>a ` b</code></p>\n"},
		{"see https://example.com/x).", `<p>see <a href="https://example.com/x" rel="nofollow noreferrer">https://example.com/x</a>).</p>` + "\n"},
		{"# Title #", "<h1>Title</h1>\n"},
		{"text\n---", "<h2>text</h2>\n"},
		{"<script>\nalert(1)\n</script>\nafter", "<p>after</p>\n"},
		{"", ""},
		// Found from outside.
		{"[a](//evil.example/x) [b](/\\evil.example) [c](/runs/r_1)", `<p>a b <a href="/runs/r_1" rel="nofollow noreferrer">c</a></p>` + "\n"},
		{`[t](http://a.com "ti\"tle")`, `<p><a href="http://a.com" rel="nofollow noreferrer">t</a></p>` + "\n"},
		{"[![img](http://e/i.png)](http://e/)", `<p><a href="http://e/" rel="nofollow noreferrer">img</a></p>` + "\n"},
		{"~one~ and ~~two~~", "<p><del>one</del> and <del>two</del></p>\n"},
	}
	for _, c := range cases {
		if got := Render(c.src); got != c.want {
			t.Errorf("Render(%q)\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// pathological are inputs made to make a renderer scan the text again for
// each delimiter (BenchmarkPathological times them).
func pathological(n int) map[string]string {
	return map[string]string{
		"stars":     strings.Repeat("*a ", n),
		"ticks":     strings.Repeat("` ", n),
		"brackets":  strings.Repeat("[", n) + strings.Repeat("]", n),
		"links":     strings.Repeat("[a](x", n),
		"angles":    strings.Repeat("<a b='", n),
		"comments":  strings.Repeat("<!--", n),
		"parens":    "http://a" + strings.Repeat(")", n),
		"quotes":    strings.Repeat("> ", n) + "x",
		"lists":     strings.Repeat("- ", n) + "x",
		"nested":    strings.Repeat("*a **b ", n/2) + strings.Repeat("b** a* ", n/2),
		"entities":  strings.Repeat("&a", n),
		"underline": strings.Repeat("_a ", n),
	}
}

// TestPathological renders each pathological input to the end, with only
// allowed markup; BenchmarkPathological says how long each takes.
func TestPathological(t *testing.T) {
	for name, src := range pathological(5_000) {
		t.Run(name, func(t *testing.T) {
			if err := check(Render(src)); err != nil {
				t.Error(err)
			}
		})
	}
}

// BenchmarkPathological renders 50,000 delimiters of each pathological
// kind, and an answer of the usual size for comparison: none should take
// much more than the time the text takes to read once.
func BenchmarkPathological(b *testing.B) {
	inputs := pathological(50_000)
	answer, err := os.ReadFile("testdata/answer.md")
	if err != nil {
		b.Fatal(err)
	}
	inputs["answer"] = string(answer)
	for name, src := range inputs {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Render(src)
			}
		})
	}
}

func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"**a** `b` [c](https://d) ![e](f) <g h=i> &amp;",
		"| a | b |\n|:-:|--|\n| <x> | y |",
		"- a\n  - b\n\n> c\n```\nd\n```",
		"[x](java\tscript:alert(1)) <javascript:x> [y](<javascript:z>)",
		"<div onclick=x>\n*a*\n</div>\n\n<!-- x --> <a href='x'>",
		"h\n===\n1) a\n2) b\n    code\n***\n",
	} {
		f.Add(s)
	}
	files, _ := filepath.Glob("testdata/*.md")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		out := Render(src)
		if err := check(out); err != nil {
			t.Fatalf("Render(%q) = %q: %v", src, out, err)
		}
	})
}

// allowed are the elements Render may write, with the attributes each may
// carry.
var allowed = map[string][]string{
	"p": nil, "h1": nil, "h2": nil, "h3": nil, "h4": nil, "h5": nil, "h6": nil,
	"ul": nil, "ol": {"start"}, "li": nil, "blockquote": nil, "pre": nil, "code": nil,
	"strong": nil, "em": nil, "del": nil, "hr": nil, "br": nil,
	"table": nil, "thead": nil, "tbody": nil, "tr": nil, "th": {"align"}, "td": {"align"},
	"a": {"href", "rel"},
}

// check reads out as a browser would and says what in it is not allowed:
// an element or attribute off the list, an address with a scheme other
// than http, https or mailto, a comment or a doctype.
func check(out string) error {
	z := html.NewTokenizer(strings.NewReader(out))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return nil
			}
			return z.Err()
		case html.CommentToken, html.DoctypeToken:
			return fmt.Errorf("a %s: %q", "comment or doctype", z.Token().Data)
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			attrs, ok := allowed[tok.Data]
			if !ok {
				return fmt.Errorf("the element <%s>", tok.Data)
			}
			for _, a := range tok.Attr {
				if !slices.Contains(attrs, a.Key) {
					return fmt.Errorf("the attribute %s on <%s>", a.Key, tok.Data)
				}
				if err := checkAttr(tok.Data, a); err != nil {
					return err
				}
			}
		}
	}
}

func checkAttr(tag string, a html.Attribute) error {
	switch a.Key {
	case "href":
		// A browser drops tabs and new lines from an address and trims
		// it before it reads the scheme.
		v := strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, a.Val)
		v = strings.TrimFunc(v, func(r rune) bool { return r <= ' ' })
		// The scheme is what comes before the first colon, unless a /, ?
		// or # comes first (a relative address), as the URL standard
		// reads it.
		if strings.HasPrefix(v, "//") || strings.HasPrefix(v, "/\\") || strings.HasPrefix(v, "\\") {
			return fmt.Errorf("the address %q names another host", a.Val)
		}
		if k := strings.IndexAny(v, ":/?#"); k >= 0 && v[k] == ':' {
			if s := strings.ToLower(v[:k]); s != "http" && s != "https" && s != "mailto" {
				return fmt.Errorf("the address %q", a.Val)
			}
		}
	case "rel":
		if a.Val != "nofollow noreferrer" {
			return fmt.Errorf("rel=%q", a.Val)
		}
	case "align":
		if a.Val != "left" && a.Val != "center" && a.Val != "right" {
			return fmt.Errorf("align=%q", a.Val)
		}
	case "start":
		if strings.Trim(a.Val, "0123456789") != "" {
			return fmt.Errorf("start=%q on <%s>", a.Val, tag)
		}
	}
	return nil
}
