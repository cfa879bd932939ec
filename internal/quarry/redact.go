package quarry

import "net/url"

// RedactURL returns a URL for messages and listings: its password, in the
// user information or as a password= parameter, replaced by xxxxx. Text
// that does not parse as a URL comes back as "(a URL that cannot be
// read)", since it may hold a password anywhere.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(a URL that cannot be read)"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.String()
}
