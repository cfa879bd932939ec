package chart

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestRenderSVG(t *testing.T) {
	for name, spec := range specs() {
		t.Run(name, func(t *testing.T) {
			b, err := RenderSVG(spec, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			if !strings.Contains(s, "<svg") {
				t.Fatalf("no <svg> element in %.200s", s)
			}
			dec := xml.NewDecoder(bytes.NewReader(b))
			for {
				_, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("not well-formed XML: %v", err)
				}
			}
			want := []string{xmlText(spec.Title)}
			if spec.Kind == narrate.ChartBar || spec.Kind == narrate.ChartLine {
				want = append(want, xmlText(shorten(spec.Labels[0], maxLabel)), xmlText(spec.Y))
			}
			if spec.Kind == narrate.ChartFigure {
				want = append(want, narrate.Number(spec.Series[0].Values[0], spec.Format, spec.Currency))
			}
			if spec.Kind == narrate.ChartScatter {
				want = append(want, spec.X, spec.Y)
			}
			for _, w := range want {
				if !strings.Contains(s, w) {
					t.Errorf("the SVG does not contain %q", w)
				}
			}
			again, err := RenderSVG(spec, 0, 0)
			if err != nil || !bytes.Equal(b, again) {
				t.Errorf("a second rendering differs (err %v)", err)
			}
		})
	}
}

func xmlText(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func TestRenderPNG(t *testing.T) {
	if raceEnabled {
		// Rasterising is one goroutine and takes most of a minute under
		// the race detector.
		t.Skip("runs in the plain test pass")
	}
	sizes := [][2]int{{0, 0}, {640, 360}}
	for name, spec := range specs() {
		t.Run(name, func(t *testing.T) {
			for _, size := range sizes {
				b, err := RenderPNG(spec, size[0], size[1])
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				w, h := size[0], size[1]
				if w == 0 {
					w, h = DefaultWidth, DefaultHeight
				}
				if got := img.Bounds().Size(); got.X != w || got.Y != h {
					t.Errorf("size %v, want %dx%d", got, w, h)
				}
				again, err := RenderPNG(spec, size[0], size[1])
				if err != nil || !bytes.Equal(b, again) {
					t.Errorf("a second rendering differs (err %v)", err)
				}
			}
		})
	}
}

func TestRenderErrors(t *testing.T) {
	good := specs()["bar"]
	short := good
	short.Series = []narrate.Series{{Name: "x", Values: []float64{1}}}
	tests := []struct {
		name string
		spec narrate.ChartSpec
		w, h int
		kind quarry.Kind
	}{
		{"no chart", narrate.ChartSpec{}, 0, 0, quarry.KindInput},
		{"unknown kind", narrate.ChartSpec{Kind: "pie", Series: good.Series}, 0, 0, quarry.KindUnsupported},
		{"no values", narrate.ChartSpec{Kind: narrate.ChartBar}, 0, 0, quarry.KindInput},
		{"labels and values differ", short, 0, 0, quarry.KindInput},
		{"too small", good, 100, 50, quarry.KindInput},
		{"scatter with one series", narrate.ChartSpec{Kind: narrate.ChartScatter, Series: good.Series}, 0, 0, quarry.KindInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := RenderSVG(tt.spec, tt.w, tt.h)
			if err == nil {
				t.Fatal("no error")
			}
			if k := quarry.KindOf(err); k != tt.kind {
				t.Errorf("kind %q, want %q (%v)", k, tt.kind, err)
			}
		})
	}
}
