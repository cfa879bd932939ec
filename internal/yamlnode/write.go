package yamlnode

import (
	"strconv"
	"strings"
)

// Quote writes s as a YAML scalar: plain when YAML reads it back as the
// same text, double-quoted otherwise. flow says it goes inside [ ] or { }.
func Quote(s string, flow bool) string {
	if plainSafe(s, flow) {
		return s
	}
	return strconv.Quote(s)
}

func plainSafe(s string, flow bool) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", "nan", ".nan", ".inf", "-.inf", "+.inf":
		return false
	}
	c := s[0]
	if !(c == '_' || c == '(' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')) {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x20 || b >= 0x7f || b == '"' || b == '\'' || b == '\\' || b == '`' || b == '#' && i == 0 {
			return false
		}
		if flow && strings.IndexByte(",[]{}", b) >= 0 {
			return false
		}
		if strings.IndexByte("{}[]&*!|>%@", b) >= 0 && i == 0 {
			return false
		}
	}
	return true
}
