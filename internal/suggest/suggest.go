// Package suggest finds the known word closest to one a person typed, for
// "did you mean" hints in config, knowledge and planner messages.
package suggest

import "strings"

// Distance is the Levenshtein distance between a and b, counted in runes
// and ignoring case.
func Distance(a, b string) int {
	ra, rb := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Closest returns the known word nearest to word and its distance; the
// first of equally near words wins. It returns "", -1 when known is empty.
func Closest(word string, known []string) (string, int) {
	best, bestD := "", -1
	for _, k := range known {
		if d := Distance(word, k); bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	return best, bestD
}

// Typos is Distance where two neighbouring letters swapped ("ordres" for
// "orders") count as one edit, as a typist makes them: the optimal string
// alignment distance, in runes, ignoring case.
func Typos(a, b string) int {
	ra, rb := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
