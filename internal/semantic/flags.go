package semantic

import (
	"strings"
	"unicode"
)

// What a column's name says of it as a yes/no flag, read the same way by
// learn (which reads the known values of such integer columns) and the
// planner (which reads the flag's word as a condition on the rows).

// flagPrefixes begin the names of yes/no columns ("is_active",
// "HasCoupon").
var flagPrefixes = map[string]bool{"is": true, "has": true, "can": true, "was": true, "allow": true, "allows": true}

// flagSuffixes end them ("refund_flag", "vip_yn").
var flagSuffixes = map[string]bool{"flag": true, "yn": true}

// flagStates are states that are no participle in -ed ("paid", "open").
var flagStates = map[string]bool{"paid": true, "open": true, "valid": true, "live": true, "done": true, "hidden": true,
	"current": true, "public": true, "private": true, "online": true, "new": true, "remote": true, "onsite": true}

// FlagName reports whether a column's name reads as a yes/no flag whose 1
// (or true) means yes: a state ("discontinued", "refunded", "active",
// "billable", "paid"), one after is, has, can ("is_active", "HasCoupon")
// or one before flag ("refund_flag"). "quantity" does not, even holding
// only 0 and 1.
func FlagName(name string) bool {
	ws := NameWords(name)
	if len(ws) == 0 {
		return false
	}
	first, last := ws[0], ws[len(ws)-1]
	return len(ws) > 1 && (flagPrefixes[first] || flagSuffixes[last]) || flagState(last)
}

// FlagPrefixed reports whether a column's name begins with is, has or can
// and another word ("is_active"): a yes/no column by its name alone,
// whatever values are known.
func FlagPrefixed(name string) bool {
	ws := NameWords(name)
	return len(ws) > 1 && flagPrefixes[ws[0]]
}

// FlagAdjective is the one word that says a yes/no column's yes of its
// rows: "active" of is_active and IsActive, "refunded" of refunded; ""
// where the name says it in more words or is no flag's.
func FlagAdjective(name string) string {
	ws := NameWords(name)
	switch {
	case len(ws) == 2 && flagPrefixes[ws[0]] && len(ws[1]) > 2:
		return ws[1]
	case len(ws) == 2 && flagSuffixes[ws[1]] && flagState(ws[0]):
		return ws[0]
	case len(ws) == 1 && flagState(ws[0]):
		return ws[0]
	}
	return ""
}

// flagState reports whether a word reads as a state a row is in: a
// participle in -ed ("refunded", not "speed"), an adjective in -able,
// -ible or -ive ("billable", "visible", "active"), or a common state.
func flagState(w string) bool {
	switch {
	case flagStates[w]:
		return true
	case strings.HasSuffix(w, "ed"):
		return len(w) > 3 && !strings.HasSuffix(w, "eed")
	case strings.HasSuffix(w, "able"), strings.HasSuffix(w, "ible"):
		return len(w) > 5
	case strings.HasSuffix(w, "ive"):
		return len(w) > 4
	}
	return false
}

// NameWords splits a column or table name into lower-case words at
// underscores and other separators, and inside a word where a lower-case
// letter or digit is followed by an upper-case one ("IsOfficial": is,
// official) or an upper-case run meets a capitalised word ("StuID": stu,
// id; "GNPOld": gnp, old). The planner, learn and the checks read names
// alike through it.
func NameWords(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if i > 0 && unicode.IsUpper(r) && len(cur) > 0 {
			prev := rs[i-1]
			next := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && next {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}
