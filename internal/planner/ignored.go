package planner

import (
	"slices"
	"strings"
)

// functionWords are the stopwords that carry no content at all; the
// planner's other stopwords ("placed", "still", "only", "total") are
// words it read past, and the plan lists them (Plan.Ignored).
func functionWords() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at for to from is are was were be been being do does did done
		have has had there it its this that these those me my our we us i you your please can could would should
		will shall let know want need like tell see so much many as their them they any some just also then about
		into how what and or what's whats there's hi hey thanks thank here give given his her hers its`) {
		m[w] = true
	}
	return m
}

// ignored lists the words of the question the planner read past: its
// stopwords that are not mere function words, and the filler phrases
// ("signed up"), in order, once each.
func (p *Planner) ignored(items []item) []string {
	var out []string
	used := map[string]bool{} // words merged into a term ("open" of "open tickets")
	for _, it := range items {
		if it.kind == itTerm {
			for _, w := range strings.Fields(it.text) {
				used[w] = true
			}
		}
	}
	for _, it := range items {
		if it.kind == itStop && it.link == nil && !p.function[it.text] && !used[it.text] || it.kind == itKw && it.kw == "filler" {
			if !slices.Contains(out, it.text) {
				out = append(out, it.text)
			}
		}
	}
	return out
}

func (p *Planner) someMetrics() string {
	var names []string
	for i, m := range p.m.Metrics {
		if i == 3 {
			break
		}
		names = append(names, strings.ReplaceAll(m.Name, "_", " "))
	}
	if len(names) == 0 {
		return "a count of rows"
	}
	return strings.Join(names, ", ")
}
