package policy

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Scrubber removes from text what of restricted columns could travel in
// it: values redacted so far (Remember), anything shaped like an e-mail
// address, and table.column references to restricted columns. It is the
// one scrubber of knowledge text that leaves quarry: the agent applies it
// to everything it sends a model, and `quarry mcp`'s describe to the
// verified queries it lists, so both show the same text. It does not
// decide what a statement reads (the lineage check does); it keeps copies
// of values out of text that is not a result. A Scrubber is used by one
// goroutine at a time.
type Scrubber struct {
	p    *Policy
	refs []string        // "table.column" spellings, entity and table names, lower case, longest first
	seen map[string]bool // values redacted so far
}

// NewScrubber returns the scrubber of the restricted columns of m.
func NewScrubber(m *semantic.Model) *Scrubber {
	s := FromModel(m).Scrubber()
	if m == nil {
		return s
	}
	// Every column any reading of any entry restricts (a table's own name
	// may hold a dot), as the model resolves them.
	restricted := m.RestrictedCheck()
	for i := range m.Entities {
		e := &m.Entities[i]
		for _, col := range e.Columns {
			if !restricted(e, col.Name) {
				continue
			}
			c := strings.ToLower(col.Name)
			// Not the values learn wrote before the column was restricted
			// (knowledge.Load forgets them): scrubbed, a question's word
			// turned [restricted] would say it is one of them.
			s.refs = append(s.refs, strings.ToLower(e.Name)+"."+c, strings.ToLower(e.TableName())+"."+c, strings.ToLower(e.QualifiedName())+"."+c)
		}
	}
	s.sortRefs()
	return s
}

// Scrubber returns the scrubber of p's restricted columns.
func (p *Policy) Scrubber() *Scrubber {
	s := &Scrubber{p: p, seen: map[string]bool{}}
	if !p.Empty() {
		for t, cs := range p.cols {
			for c := range cs {
				s.refs = append(s.refs, t+"."+c)
			}
		}
	}
	s.sortRefs()
	return s
}

// sortRefs puts the longest references first, without duplicates, so
// that "people.email" is replaced before a shorter one inside it.
func (s *Scrubber) sortRefs() {
	sort.Slice(s.refs, func(i, j int) bool {
		if len(s.refs[i]) != len(s.refs[j]) {
			return len(s.refs[i]) > len(s.refs[j])
		}
		return s.refs[i] < s.refs[j]
	})
	s.refs = slices.Compact(s.refs)
}

// Remember adds a redacted value to those Scrub removes and Leak looks
// for. Values shorter than 3 characters are too common to search for.
func (s *Scrubber) Remember(v string) {
	if v = strings.TrimSpace(v); len(v) >= 3 {
		s.seen[v] = true
	}
}

var emailRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)
})

// Scrub returns text without the values remembered, e-mail addresses and
// references to restricted columns. Without restricted columns it returns
// text as it is.
func (s *Scrubber) Scrub(text string) string {
	if s.p.Empty() {
		return text
	}
	for v := range s.seen {
		if strings.Contains(text, v) {
			text = strings.ReplaceAll(text, v, Redacted)
		}
	}
	text = emailRE().ReplaceAllString(text, Redacted)
	lower := strings.ToLower(text)
	for _, r := range s.refs {
		for {
			i := strings.Index(lower, r)
			if i < 0 {
				break
			}
			text = text[:i] + "[restricted column]" + text[i+len(r):]
			lower = strings.ToLower(text)
		}
	}
	return text
}

// Leak returns a remembered value that body contains, or "".
func (s *Scrubber) Leak(body string) string {
	for v := range s.seen {
		if strings.Contains(body, v) {
			return v
		}
	}
	return ""
}
