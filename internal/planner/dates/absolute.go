package dates

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

var months = map[string]time.Month{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
	"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
	"september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
	"december": 12, "dec": 12,
}

// IsMonth reports whether w, lower-case, names a month ("march", "sep").
func IsMonth(w string) bool {
	_, ok := months[w]
	return ok
}

var ordinals = map[string]int{
	"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": 4,
}

// year reads a four-digit year between 1900 and 2199.
func year(s string) (int, bool) {
	if len(s) != 4 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1900 || n > 2199 {
		return 0, false
	}
	return n, true
}

// dayOfMonth reads "14", "14th", "1st", "2nd", "3rd".
func dayOfMonth(s string) (int, bool) {
	s = strings.TrimRight(s, "stndrh")
	if len(s) == 0 || len(s) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 31 {
		return 0, false
	}
	return n, true
}

// absolute reads calendar phrases: ISO dates, month names with or without
// day and year, years, quarters and halves.
func (p *parser) absolute(i int) (Range, int) {
	w := p.tok(i)
	// ISO and slash dates: 2025-03-14, 2025/03/14, 2025-03.
	if r, ok := p.iso(w); ok {
		return r, 1
	}
	if w == "the" || w == "month" { // "the first quarter of 2024", "month of March"
		if w == "month" && p.tok(i+1) == "of" {
			if r, n := p.absolute(i + 2); n > 0 && r.Grain == "month" {
				return r, n + 2
			}
			return Range{}, 0
		}
		if w == "the" {
			if r, n := p.quarterWords(i + 1); n > 0 {
				return r, n + 1
			}
		}
		return Range{}, 0
	}
	if m, ok := months[w]; ok {
		return p.monthPhrase(i, m)
	}
	// "14 March 2025", "14th of March 2025"
	if d, ok := dayOfMonth(w); ok {
		j := i + 1
		if p.tok(j) == "of" {
			j++
		}
		if m, ok := months[p.tok(j)]; ok {
			if y, ok := year(p.tok(j + 1)); ok {
				if r, ok := p.date(y, m, d); ok {
					return r, j + 2 - i
				}
			}
		}
	}
	if y, ok := year(w); ok && !semantic.ComparesNumber(p.tok(i-1)) && !p.money(i) {
		// "2024 Q3", "2024-Q3" is tokenised as "2024" "q3"
		if q, ok := quarterTok(p.tok(i + 1)); ok {
			return p.quarter(y, q), 2
		}
		if h, ok := halfTok(p.tok(i + 1)); ok {
			return p.half(y, h), 2
		}
		s := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		return p.span(s, s.AddDate(1, 0, 0), strconv.Itoa(y), "year"), 1
	}
	if q, ok := quarterTok(w); ok {
		j := i + 1
		if p.tok(j) == "of" || p.tok(j) == "in" {
			j++
		}
		if y, ok := year(p.tok(j)); ok {
			return p.quarter(y, q), j + 1 - i
		}
		return p.latestQuarter(q), 1
	}
	if h, ok := halfTok(w); ok {
		j := i + 1
		if p.tok(j) == "of" || p.tok(j) == "in" {
			j++
		}
		if y, ok := year(p.tok(j)); ok {
			return p.half(y, h), j + 1 - i
		}
		if y, k := p.thisOrLastYear(j); k > 0 {
			return p.half(y, h), j + k - i
		}
		if y, ok := p.yearAhead(i + 1); ok {
			return p.half(y, h), 1 // "H1 vs H2 last year": both of last year
		}
		return p.latestHalf(h), 1
	}
	return p.quarterWords(i)
}

// quarterWords reads "third quarter of 2024", "first half of 2025".
func (p *parser) quarterWords(i int) (Range, int) {
	o, ok := ordinals[p.tok(i)]
	if !ok {
		return Range{}, 0
	}
	kind := p.tok(i + 1)
	if kind != "quarter" && kind != "half" {
		return Range{}, 0
	}
	j := i + 2
	if p.tok(j) == "of" || p.tok(j) == "in" {
		j++
	}
	y, ok := year(p.tok(j))
	k := 1
	if !ok {
		k = 0
		// "the first half of this year", "first half": the one of this
		// year or last, or the latest that has started.
		of := p.tok(j-1) == "of" || p.tok(j-1) == "in"
		if p.tok(i) != "last" || of {
			y, k = p.thisOrLastYear(j)
		}
		if k == 0 {
			if kind == "quarter" && o <= 4 && !of && p.tok(i) != "last" {
				// "orders in the first quarter": the latest that has
				// started, as a half is.
				return p.latestQuarter(o), 2
			}
			if kind != "half" || o > 2 || of {
				return Range{}, 0
			}
			if y, ok := p.yearAhead(i + 2); ok {
				return p.half(y, o), 2 // "first half vs second half of 2025"
			}
			return p.latestHalf(o), 2
		}
	}
	if kind == "half" {
		if o > 2 {
			if p.tok(i) != "last" {
				return Range{}, 0
			}
			o = 2
		}
		return p.half(y, o), j + k - i
	}
	return p.quarter(y, o), j + k - i
}

// thisOrLastYear reads "this year" or "last year" at i: the year and
// how many words it took, or 0.
func (p *parser) thisOrLastYear(i int) (int, int) {
	if p.tok(i+1) != "year" {
		return 0, 0
	}
	switch p.tok(i) {
	case "this", "current":
		return p.today.Year(), 2
	case "last", "previous", "prior":
		return p.today.Year() - 1, 2
	}
	return 0, 0
}

// latestHalf is half h of the latest year in which it has started.
func (p *parser) latestHalf(h int) Range {
	y := p.today.Year()
	if time.Month(6*(h-1)+1) > p.today.Month() {
		y--
	}
	return p.half(y, h)
}

func quarterTok(s string) (int, bool) {
	if len(s) == 2 && s[0] == 'q' && s[1] >= '1' && s[1] <= '4' {
		return int(s[1] - '0'), true
	}
	return 0, false
}

func halfTok(s string) (int, bool) {
	if len(s) == 2 && s[0] == 'h' && (s[1] == '1' || s[1] == '2') {
		return int(s[1] - '0'), true
	}
	return 0, false
}

func (p *parser) quarter(y, q int) Range {
	s := time.Date(y, time.Month(3*(q-1)+1), 1, 0, 0, 0, 0, time.UTC)
	return p.span(s, s.AddDate(0, 3, 0), fmt.Sprintf("Q%d %d", q, y), "quarter")
}

func (p *parser) half(y, h int) Range {
	s := time.Date(y, time.Month(6*(h-1)+1), 1, 0, 0, 0, 0, time.UTC)
	return p.span(s, s.AddDate(0, 6, 0), fmt.Sprintf("H%d %d", h, y), "")
}

// latestQuarter is quarter q of the latest year in which it has started.
func (p *parser) latestQuarter(q int) Range {
	y := p.today.Year()
	if time.Month(3*(q-1)+1) > p.today.Month() {
		y--
	}
	return p.quarter(y, q)
}

// monthPhrase reads "March", "March 2025", "March 14, 2025", "March 14th".
func (p *parser) monthPhrase(i int, m time.Month) (Range, int) {
	w := p.tok(i)
	// "may" and "mar" etc. are also ordinary words; a bare short month name is
	// only a date when a year or day follows.
	bareOK := len(w) > 3
	// "in May", written as a name, after a word that introduces a period.
	switch p.tok(i - 1) {
	case "in", "during", "for", "since", "of", "until", "through", "and", "or", "to", "vs", "versus", "v", "than", "with":
		// In lower case too when nothing follows it: "opened in may"
		// (a modal verb is followed by its verb).
		bareOK = bareOK || w == "may" && (p.capital(i) || p.tok(i+1) == "")
	}
	bareOK = bareOK || p.dashedMonth(i)
	if d, ok := dayOfMonth(p.tok(i + 1)); ok {
		if y, ok := year(p.tok(i + 2)); ok {
			if r, ok := p.date(y, m, d); ok {
				return r, 3
			}
			return Range{}, 0
		}
		if _, isYear := year(p.tok(i + 1)); !isYear {
			y := p.today.Year()
			if r, ok := p.date(y, m, d); ok {
				if r.From > p.today.Format(layout) {
					r, ok = p.date(y-1, m, d)
					if !ok {
						return Range{}, 0
					}
				}
				return r, 2
			}
			return Range{}, 0
		}
	}
	j := i + 1
	if p.tok(j) == "of" {
		j++
	}
	if y, ok := year(p.tok(j)); ok {
		s := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
		return p.span(s, s.AddDate(0, 1, 0), s.Format("January 2006"), "month"), j + 1 - i
	}
	if !bareOK {
		return Range{}, 0
	}
	y := p.today.Year()
	if m > p.today.Month() {
		y--
	}
	s := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	return p.span(s, s.AddDate(0, 1, 0), s.Format("January 2006"), "month"), 1
}

// dashedMonth reports whether the word at i is joined by a dash to a
// month's name: "jan-mar", where a short name is a month's.
func (p *parser) dashedMonth(i int) bool {
	dash := func(a, b int) bool {
		if a < 0 || b >= len(p.toks) {
			return false
		}
		switch strings.TrimSpace(p.raw[p.toks[a].end:p.toks[b].start]) {
		case "-", "–", "—":
			_, ok := months[p.tok(a)]
			_, ok2 := months[p.tok(b)]
			return ok && ok2
		}
		return false
	}
	return dash(i, i+1) || dash(i-1, i)
}

// date builds a one-day range, rejecting impossible dates.
func (p *parser) date(y int, m time.Month, d int) (Range, bool) {
	s := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if s.Day() != d || s.Month() != m {
		return Range{}, false
	}
	return p.span(s, s.AddDate(0, 0, 1), s.Format(layout), "day"), true
}

// iso reads 2025-03-14, 2025/03/14 and 2025-03 written as one token.
func (p *parser) iso(w string) (Range, bool) {
	if len(w) < 7 || !isDigit(w[0]) {
		return Range{}, false
	}
	parts := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '/' })
	if len(parts) < 2 || len(parts) > 3 {
		return Range{}, false
	}
	y, ok := year(parts[0])
	if !ok || len(parts[1]) > 2 {
		return Range{}, false
	}
	mo, err := strconv.Atoi(parts[1])
	if err != nil || mo < 1 || mo > 12 {
		return Range{}, false
	}
	if len(parts) == 2 {
		s := time.Date(y, time.Month(mo), 1, 0, 0, 0, 0, time.UTC)
		return p.span(s, s.AddDate(0, 1, 0), s.Format("January 2006"), "month"), true
	}
	if len(parts[2]) > 2 {
		return Range{}, false
	}
	d, err := strconv.Atoi(parts[2])
	if err != nil {
		return Range{}, false
	}
	return p.date(y, time.Month(mo), d)
}

// yearAhead is the year named after a half compared with another half
// ("H1 vs H2 last year", "first half vs second half of 2025"): read past
// the words that join the halves, the year or "this/last year" that ends
// them, which both halves share.
func (p *parser) yearAhead(i int) (int, bool) {
	for j := i; j < i+8 && j < len(p.toks); j++ {
		w := p.tok(j)
		if y, ok := year(w); ok {
			return y, true
		}
		if y, k := p.thisOrLastYear(j); k > 0 {
			return y, true
		}
		switch w {
		case "vs", "versus", "and", "compared", "to", "with", "against", "the", "of", "in", "h1", "h2", "first", "second", "half", "halves", "or":
			continue
		}
		return 0, false
	}
	return 0, false
}

// money reports whether token i is a number written as money, or the
// upper bound of a range of amounts, never a year: "$2000", "2000
// dollars", "between 1000 and 2000" (1000 no year: 2000 is none either).
func (p *parser) money(i int) bool {
	if p.tok(i-1) == "and" && p.tok(i-3) == "between" {
		if _, isYear := year(p.tok(i - 2)); !isYear && isNumber(p.tok(i-2)) {
			return true
		}
	}
	return i < len(p.toks) && semantic.MoneyBefore(p.raw[:p.toks[i].start]) || semantic.CurrencyWord(p.tok(i+1))
}

// isNumber reports whether s is written in digits only.
func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
