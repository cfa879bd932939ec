package quarry

import "strings"

// PersonName reports whether s can name a person or a group of a shared
// quarry: letters, digits and . _ @ -, starting with a letter or digit, at
// most 100 bytes. Sign-in (people, groups from a provider), the knowledge
// folder's policy groups and quarry.yaml's group_roles all take the same
// names, so that a group reads alike wherever it is named.
func PersonName(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for i, c := range s {
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || !strings.ContainsRune("._@-", c)) {
			return false
		}
	}
	return true
}
