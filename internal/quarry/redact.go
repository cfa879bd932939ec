package quarry

import (
	"net/url"
	"regexp"
)

// RedactURL returns a database URL or key=value DSN for messages and
// listings, with its password — in the user information, as a password=
// parameter, or as a DSN's password= — replaced by xxxxx. Text that does
// not parse as a URL is scrubbed by pattern, up to the last "@" of the
// user information, so that a password holding "@" leaves nothing behind.
func RedactURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		if q := u.Query(); q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	s = userPassword.ReplaceAllString(s, "${1}xxxxx@")
	return dsnPassword.ReplaceAllString(s, "${1}xxxxx")
}

var (
	userPassword = regexp.MustCompile(`(://[^:/@]*:).*@`)
	dsnPassword  = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S*)`)
)
