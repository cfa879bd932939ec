package demo

import (
	"embed"
	"io/fs"
)

//go:embed knowledge
var knowledgeFiles embed.FS

// Knowledge returns the demo database's hand-written knowledge folder
// (model.yaml, metrics.yaml, policy.yaml, examples/, notes/, README.md),
// rooted at the folder itself.
func Knowledge() fs.FS {
	sub, err := fs.Sub(knowledgeFiles, "knowledge")
	if err != nil {
		// fs.Sub fails only for an invalid path, and "knowledge" is valid.
		panic(err)
	}
	return sub
}
