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

// LoadQuestions are questions the builtin planner answers on the demo,
// of the kinds people ask most (series, rankings, breakdowns, one
// figure): what the load benchmarks ask in turn.
func LoadQuestions() []string {
	return []string{
		"revenue by month last year",
		"top 5 products by revenue in 2025",
		"revenue by country",
		"number of orders by channel",
		"average order value by month in 2025",
		"revenue by category last year",
		"how many customers in Germany",
		"revenue last 30 days",
	}
}
