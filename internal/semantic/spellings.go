package semantic

import (
	"fmt"
	"strings"
)

// Fold is the form that the spellings of one text value share: without
// the spaces around it, in lower case. 'Electronics', 'ELECTRONICS' and
// 'electronics ' fold alike; 'Books' and 'Book' do not.
func Fold(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// SameSpelling reports whether two text values differ only in case or in
// the spaces around them.
func SameSpelling(a, b string) bool { return Fold(a) == Fold(b) }

// Spelled is one value of a filter's list with the spellings the list
// holds it in: Spellings are the values as stored, in the list's order;
// Value names them, the one spelling as it is, several by their folded
// form.
type Spelled struct {
	Value     string
	Spellings []string
}

// SpellingsOf groups a filter's values by Fold, in the order of each
// group's first value. A value that is not text is a group of its own,
// its Value written with fmt.
func SpellingsOf(vals []any) []Spelled {
	var out []Spelled
	at := map[string]int{}
	for _, v := range vals {
		s, ok := v.(string)
		if !ok {
			out = append(out, Spelled{Value: fmt.Sprint(v)})
			continue
		}
		k := Fold(s)
		if i, ok := at[k]; ok {
			out[i].Spellings = append(out[i].Spellings, s)
			out[i].Value = k
			continue
		}
		at[k] = len(out)
		out = append(out, Spelled{Value: s, Spellings: []string{s}})
	}
	return out
}
