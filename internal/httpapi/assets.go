package httpapi

import (
	"embed"
	"io/fs"
)

// webFiles are the web UI's files, built into the binary: a plain go build
// makes the whole UI.
//
//go:embed web
var webFiles embed.FS

// Assets returns the web UI's files, rooted at the web folder: index.html
// is served at / and every other file at its name (also under /assets/).
func Assets() fs.FS {
	sub, err := fs.Sub(webFiles, "web")
	if err != nil {
		// fs.Sub fails only for an invalid path, and "web" is valid.
		panic(err)
	}
	return sub
}
