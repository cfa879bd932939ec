package chart

import (
	"os"
	"path/filepath"
	"testing"
)

var samples = flagString("samples", "", "write a PNG and an SVG of every sample chart into this folder, to look at")

// TestWriteSamples writes the sample charts for a person to look at:
//
//	go test ./internal/narrate/chart -run TestWriteSamples -samples /tmp/charts
func TestWriteSamples(t *testing.T) {
	if *samples == "" {
		t.Skip("no -samples folder")
	}
	if err := os.MkdirAll(*samples, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, spec := range specs() {
		for ext, render := range map[string]func() ([]byte, error){
			"png": func() ([]byte, error) { return RenderPNG(spec, 0, 0) },
			"svg": func() ([]byte, error) { return RenderSVG(spec, 0, 0) },
		} {
			b, err := render()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(*samples, name+"."+ext), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
