package knowledge

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Verbs of relationships. A schema often names a link after the person or
// thing that does it: car_makers (make), a teacher_id (teach), owners
// (own), a conductor_id (conduct), directed_by (direct). Learn proposes
// those verbs on the relationship (Relationship.Verbs), so that the
// planner reads "makers who made a car in 1970" or "teachers who teach
// math" as the link; people edit the list like any other name.
//
// A verb comes from an agent noun (a word ending in -er or -or, such as
// maker, owner, director; not one of the everyday nouns in notAgents) or
// a past participle before "by" (written_by, directed_by) found in:
//
//   - the relationship's column, without its _id suffix (owner_id);
//   - the table it refers to, when no other relationship refers to it
//     (owners, car_makers).
//
// Not the table it starts from: singers with a country_id do not sing
// countries.

// proposeVerbs fills the verbs of each relationship that has none.
func proposeVerbs(rels []semantic.Relationship) {
	refs := map[string]int{}
	for _, r := range rels {
		refs[strings.ToLower(r.To)]++
	}
	for i := range rels {
		r := &rels[i]
		if len(r.Verbs) > 0 || strings.EqualFold(r.From, r.To) {
			continue
		}
		names := []string{strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(r.FromColumn), "_id"), "id")}
		if refs[strings.ToLower(r.To)] == 1 {
			names = append(names, r.To)
		}
		for _, n := range names {
			if v := nameVerb(n); v != "" && !containsStr(r.Verbs, v) {
				r.Verbs = append(r.Verbs, v)
			}
		}
	}
}

// nameVerb is the verb a table or column name says its rows do: the last
// word's agent noun ("car_makers": make), or the participle before a
// final "by" ("written_by": write). "" when there is none.
func nameVerb(name string) string {
	ws := nameWords(name)
	if len(ws) == 0 {
		return ""
	}
	if len(ws) >= 2 && ws[len(ws)-1] == "by" {
		return participleVerb(ws[len(ws)-2])
	}
	return agentVerb(singularOf(ws[len(ws)-1]))
}

// notAgents are nouns ending in -er or -or that name no doer of a verb.
var notAgents = wordSet(`order number customer member letter center centre color colour floor door major
		minor sector factor error partner other paper water matter master meter parameter character chapter quarter
		semester register filter layer tier header footer folder border cluster vector monitor anchor mirror honor
		honour favor favour labor labour flavor flavour motor doctor tutor mentor senior junior interior exterior
		superior prior super power tower summer winter corner officer manner banner dinner hammer finger ledger
		passenger trailer cover river liver silver lower upper later after ever never over under either neither
		whether rather per copper pepper butter theater theatre powder render tender donor sponsor author professor
		mayor ancestor debtor creditor successor predecessor courier cashier soldier frontier dossier barrier gender
		premier answer offer year hour consumer computer corridor sensor calendar dollar pillar collar cellar radar
		poor pier odor scalar solar polar lunar molar grammar sugar vinegar cedar nectar altar mortar seminar avatar`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// agentVerb is the verb of an agent noun: maker → make, teacher → teach,
// director → direct, producer → produce, runner → run, supplier →
// supply, creator → create.
func agentVerb(w string) string {
	if len(w) < 4 || notAgents[w] || !isLetters(w) || strings.HasSuffix(w, "eer") {
		return ""
	}
	if !strings.HasSuffix(w, "er") && !strings.HasSuffix(w, "or") {
		return ""
	}
	base := w[:len(w)-2]
	if strings.HasSuffix(base, "er") || !hasVowel(base) {
		return "" // "murderer", "hr"
	}
	return baseForm(base)
}

// participleVerb is the verb of a past participle: written → write,
// directed → direct, produced → produce, owned → own.
func participleVerb(w string) string {
	if v, ok := irregularParticiples[w]; ok {
		return v
	}
	if len(w) < 5 || !strings.HasSuffix(w, "ed") || !isLetters(w) {
		return ""
	}
	base := w[:len(w)-2]
	if strings.HasSuffix(base, "i") {
		return base[:len(base)-1] + "y" // supplied
	}
	return baseForm(base)
}

var irregularParticiples = map[string]string{"written": "write", "made": "make", "taken": "take", "held": "hold",
	"given": "give", "chosen": "choose", "drawn": "draw", "built": "build", "sold": "sell", "bought": "buy",
	"taught": "teach", "led": "lead", "paid": "pay", "sent": "send", "kept": "keep", "spoken": "speak",
	"driven": "drive", "won": "win", "sung": "sing"}

// baseForm restores the end of a verb that a suffix took off: "mak" →
// make, "produc" → produce, "runn" → run, "suppli" → supply.
func baseForm(b string) string {
	n := len(b)
	last := b[n-1]
	switch {
	case last == 'i':
		return b[:n-1] + "y"
	case n >= 2 && last == b[n-2] && strings.IndexByte("bdgmnpt", last) >= 0:
		return b[:n-1] // runn, shopp, winn
	case last == 'c' || last == 'v' || last == 'z' || last == 'u' || last == 'g' && !strings.HasSuffix(b, "ng"):
		return b + "e" // produce, drive, manage, argue
	case last == 's' && n >= 2 && isVowel(b[n-2]):
		return b + "e" // use, supervise
	case strings.HasSuffix(b, "at") && n >= 5 && !strings.HasSuffix(b, "eat") || b == "creat":
		return b + "e" // operate, create
	case n >= 3 && !isVowel(last) && strings.IndexByte("wxy", last) < 0 && isVowel(b[n-2]) && !isVowel(b[n-3]) &&
		(vowelGroups(b) == 1 || last == 'r'):
		return b + "e" // make, write, vote, explore, manufacture
	}
	return b
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

func hasVowel(s string) bool {
	for i := 0; i < len(s); i++ {
		if isVowel(s[i]) {
			return true
		}
	}
	return false
}

// vowelGroups counts the runs of vowels: about the syllables.
func vowelGroups(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isVowel(s[i]) && (i == 0 || !isVowel(s[i-1])) {
			n++
		}
	}
	return n
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}
